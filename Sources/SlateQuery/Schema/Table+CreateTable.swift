import SlateConcurrency
import SlateCore

/// The `CREATE TABLE` and `CREATE INDEX` statements for a table type, rendered from its
/// ``TableSchema`` (see `TableSchema.createTableSQL(named:ifNotExists:)`, the one place Slate
/// writes DDL).
///
/// ```swift
/// try db.createTable(for: Person.self)
/// print(Person.createTable())
/// // CREATE TABLE "Person" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, …)
/// ```
public struct CreateTable<Root: Table>: QueryStatement {
    /// Whether the statements say `IF NOT EXISTS`.
    public var ifNotExists: Bool

    /// The statements for `Root`.
    public init(ifNotExists: Bool = false) {
        self.ifNotExists = ifNotExists
    }

    /// The `CREATE TABLE` statement (or, for a schema that cannot be created, SQL that throws why).
    public var sql: SQL {
        do {
            return SQL(sql: try Root.schema.createTableSQL(ifNotExists: ifNotExists))
        } catch let error as DatabaseError {
            return SQL(sql: "", failing: error)
        } catch {
            return SQL(sql: "", failing: DatabaseError(resultCode: .misuse, message: "\(error)"))
        }
    }

    /// The `CREATE INDEX` statements, one per declared index.
    public var indexStatements: [SQL] {
        Root.schema.createIndexSQL(ifNotExists: ifNotExists).map { SQL(sql: $0) }
    }

    /// Every statement: the table, then its indexes.
    public var statements: [SQL] { [sql] + indexStatements }

    /// The statements, separated by `;` and a newline.
    public var description: String {
        statements.map(\.description).joined(separator: ";\n")
    }

    /// Creates the table and its indexes, inside a savepoint.
    func execute(_ db: Database) throws {
        let statements = self.statements
        for statement in statements { try statement.checkBuildError() }
        try db.savepoint {
            for statement in statements { try db.execute(sql: statement.text) }
        }
    }
}

extension Table {
    /// The `CREATE TABLE` and `CREATE INDEX` statements for the table's schema.
    public static func createTable(ifNotExists: Bool = false) -> CreateTable<Self> {
        CreateTable(ifNotExists: ifNotExists)
    }
}

extension Database {
    /// Creates the table and indexes of `schema` unless the table exists, inside a savepoint.
    public func createTable(_ schema: TableSchema) throws {
        let statements = try schema.createStatements(ifNotExists: true)
        try savepoint {
            for statement in statements { try execute(sql: statement) }
        }
    }

    /// Creates the table and indexes `type` declares, unless the table exists. To bring an existing
    /// table in line with the type as well, use `migrateTable(for:options:)` (SlateRecords).
    public func createTable<T: Table>(for type: T.Type) throws {
        try T.checkSchema()
        try createTable(T.schema)
    }
}

extension Table {
    /// The statements that create the table and its indexes in `dialect`: on SQLite, those of
    /// ``CreateTable``; on PostgreSQL, ``TableSchema/postgreSQLCreateStatements(valueTypes:ifNotExists:)``
    /// with each column's type chosen from its Swift type, read from the table's ``Column``s.
    public static func createStatements(dialect: SQLDialect, ifNotExists: Bool = false) throws -> [String] {
        try checkSchema()
        switch dialect {
        case .sqlite:
            return try schema.createStatements(ifNotExists: ifNotExists)
        case .postgreSQL:
            return try schema.postgreSQLCreateStatements(valueTypes: columnValueTypes, ifNotExists: ifNotExists)
        }
    }

    /// The Swift value type and storage of each column the table's ``Columns`` declare, by
    /// column name. Columns it cannot see (computed properties) are missing.
    public static var columnValueTypes: [String: TableSchema.ColumnValueType] {
        var types: [String: TableSchema.ColumnValueType] = [:]
        for child in Mirror(reflecting: Columns(qualifier: tableName)).children {
            if let column = child.value as? any TypedColumn {
                types[column.name] = TableSchema.ColumnValueType(column.unwrappedValueType, storage: column.storage)
            }
        }
        return types
    }
}

/// A ``Column`` seen without its types: its name, storage and value type.
package protocol TypedColumn {
    var name: String { get }
    var storage: ColumnStorage? { get }
    var unwrappedValueType: Any.Type { get }
}

extension Column: TypedColumn {
    /// `Value`, or the type it wraps when it is an `Optional`.
    package var unwrappedValueType: Any.Type {
        (Value.self as? any OptionalQueryValue.Type)?.wrappedType ?? Value.self
    }
}

extension OptionalQueryValue {
    /// The wrapped type.
    static var wrappedType: Any.Type { Wrapped.self }
}
