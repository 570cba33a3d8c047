// swift-format-ignore-file
// A row cannot be the result of a fetch: it lives only while its statement is on it.
// (`{ $0 }` alone compiles, to `[()]` with an "unused" warning: the row is dropped, not kept.)
import Slate

func rowsOutliveTheirFetch(db: Database) throws {
    let rows = try db.fetchAll("SELECT 1") { row in return row }  // expected-error: requires that 'Row' conform to 'Copyable'
    _ = rows
}
