import Foundation
import Slate

/// Where the builder side of a differential case runs: SQLite here; PostgreSQL in the PostgreSQL
/// tests, which run the same cases on both engines and compare them.
protocol QueryEngine {
    /// Every row of a select.
    func all<S: SelectStatement>(_ statement: S) async throws -> [S.Output]
    /// The number of rows of a select.
    func count<S: SelectStatement>(_ statement: S) async throws -> Int
    /// Every row of a compound select.
    func all<Scope, Output>(_ compound: CompoundSelect<Scope, Output>) async throws -> [Output]
    /// Runs an update, a delete, an insert of records, an insert from a select.
    func execute<Root: Table>(_ update: Update<Root>) async throws
    func execute<Root: Table>(_ delete: Delete<Root>) async throws
    func execute<Root: Table>(_ insert: Insert<Root>) async throws
    func execute<Root: Table>(_ insert: InsertSelect<Root>) async throws
    /// A table's rows after writes: on SQLite, its raw values in rowid order; on another engine,
    /// or `typed`, its records in key order, as SQLite stores their values.
    func contents<T: PrimaryKeyedTable>(_ type: T.Type) async throws -> [RawRow]
    /// Runs `body` on a writable copy of Chinook, which nothing else sees.
    func onChinookCopy<Result: Sendable>(_ body: (any QueryEngine) async throws -> Result) async throws -> Result
}

/// A table's records in key order, as SQLite stores their values.
func typedContents<T: PrimaryKeyedTable>(
    _ type: T.Type, _ fetch: (Select<T>) async throws -> [T]
) async throws -> [RawRow] {
    let key = SQL.joined(T.schema.primaryKey.map { "\(identifier: $0)" as SQL }, separator: ", ")
    return try await fetch(T.all().order(sql: key)).map(raw(record:))
}

/// The SQLite engine: a Chinook connection (read-only, or a copy for writes).
struct SQLiteEngine: QueryEngine {
    let db: Database
    /// Whether `contents` reads records rather than raw rows (to compare with another engine).
    var typed = false

    func all<S: SelectStatement>(_ statement: S) async throws -> [S.Output] { try statement.fetchAll(db) }
    func count<S: SelectStatement>(_ statement: S) async throws -> Int { try statement.fetchCount(db) }
    func all<Scope, Output>(_ compound: CompoundSelect<Scope, Output>) async throws -> [Output] {
        try compound.fetchAll(db)
    }
    func execute<Root: Table>(_ update: Update<Root>) async throws { try update.execute(db) }
    func execute<Root: Table>(_ delete: Delete<Root>) async throws { try delete.execute(db) }
    func execute<Root: Table>(_ insert: Insert<Root>) async throws { try insert.execute(db) }
    func execute<Root: Table>(_ insert: InsertSelect<Root>) async throws { try insert.execute(db) }

    func contents<T: PrimaryKeyedTable>(_ type: T.Type) async throws -> [RawRow] {
        if typed { return try await typedContents(T.self) { try $0.fetchAll(db) } }
        return try BuilderDifferentialTests.contents(db, T.tableName)
    }

    func onChinookCopy<Result: Sendable>(_ body: (any QueryEngine) async throws -> Result) async throws -> Result {
        try await body(SQLiteEngine(db: try Database.chinookCopy(), typed: typed))
    }
}
