// swift-format-ignore-file
// An association reaches a table, through a table: a target or a linking type that is not a
// `Table` does not compile.
import Slate

func names<Origin: Table>(of origin: Origin.Type) -> HasMany<Origin, String> {  // expected-error: 'String' does not conform to protocol 'Table'
    .hasMany(Origin.tableName)
}

func linked<Origin: Table, Target: Table>(_ origin: Origin.Type, _ target: Target.Type) -> HasMany<Origin, Target> {
    .hasMany(Origin.tableName, through: Int.self)  // expected-error: 'Int' conform to 'Table'
}
