import Foundation
import Slate

// What the differential corpora share (`BuilderCorpus`, `BuilderWriteCorpus`): a seeded
// generator, rows in the raw, a generated case, and the engine a case's builder side runs on.

/// A deterministic random number generator (SplitMix64), so every run generates the same queries.
package struct SeededGenerator: RandomNumberGenerator {
    package var state: UInt64

    package init(state: UInt64) {
        self.state = state
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    package mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    package mutating func int64(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &self) }
    package mutating func element<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }
    package mutating func bool() -> Bool { Bool.random(using: &self) }
}

/// The raw values of one row.
package typealias RawRow = [SQLValue]

/// The values as SQLite stores them.
package func raw(_ values: (any SQLBindable)?...) throws -> RawRow {
    try values.map { try $0?.sqlValue ?? .null }
}

/// A record's values as SQLite stores them.
package func raw(record: some Table) throws -> RawRow {
    try record.columnValues.map { try $0.sqlValue }
}

/// One generated case: the builder's rows and the hand-written query's rows, in the raw.
package struct DifferentialCase {
    package var label: String
    package var builder: [RawRow]
    package var handWritten: [RawRow]
    /// Whether the rows come in a defined order; if not, both sides are compared as sorted.
    package var isOrdered: Bool
    /// The columns holding `group_concat` text, whose parts come in no defined order: compared as
    /// sets of parts across engines.
    package var unorderedTextColumns: Set<Int>

    package init(
        label: String, builder: [RawRow], handWritten: [RawRow], isOrdered: Bool, unorderedTextColumns: Set<Int> = []
    ) {
        self.label = label
        self.builder = builder
        self.handWritten = handWritten
        self.isOrdered = isOrdered
        self.unorderedTextColumns = unorderedTextColumns
    }
}

extension SQLValue {
    /// A key that orders every value: by storage class, then by value.
    package var sortKey: String {
        switch self {
        case .null: "0"
        case .integer(let value): "1" + String(format: "%020lld", value)
        case .real(let value): "2\(value)"
        case .text(let value): "3" + value
        case .blob(let value): "4" + value.map { String($0) }.joined(separator: ",")
        }
    }
}

/// Where the builder side of a differential case runs: SQLite here; PostgreSQL in the PostgreSQL
/// tests, which run the same cases on both engines and compare them.
package protocol QueryEngine {
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
    func onChinookCopy<Result: Sendable>(_ body: (any QueryEngine) async throws -> Result) async throws
        -> Result
}

/// A table's records in key order, as SQLite stores their values.
package func typedContents<T: PrimaryKeyedTable>(
    _ type: T.Type, _ fetch: (Select<T>) async throws -> [T]
) async throws -> [RawRow] {
    let key = SQL.joined(T.schema.primaryKey.map { "\(identifier: $0)" as SQL }, separator: ", ")
    return try await fetch(T.all().order(sql: key)).map(raw(record:))
}

/// The SQLite engine: a Chinook connection (read-only, or a copy for writes).
package struct SQLiteEngine: QueryEngine {
    package let db: Database
    /// Whether `contents` reads records rather than raw rows (to compare with another engine).
    package var typed: Bool

    package init(db: Database, typed: Bool = false) {
        self.db = db
        self.typed = typed
    }

    package func all<S: SelectStatement>(_ statement: S) async throws -> [S.Output] { try statement.fetchAll(db) }
    package func count<S: SelectStatement>(_ statement: S) async throws -> Int { try statement.fetchCount(db) }
    package func all<Scope, Output>(_ compound: CompoundSelect<Scope, Output>) async throws -> [Output] {
        try compound.fetchAll(db)
    }
    package func execute<Root: Table>(_ update: Update<Root>) async throws { try update.execute(db) }
    package func execute<Root: Table>(_ delete: Delete<Root>) async throws { try delete.execute(db) }
    package func execute<Root: Table>(_ insert: Insert<Root>) async throws { try insert.execute(db) }
    package func execute<Root: Table>(_ insert: InsertSelect<Root>) async throws { try insert.execute(db) }

    package func contents<T: PrimaryKeyedTable>(_ type: T.Type) async throws -> [RawRow] {
        if typed { return try await typedContents(T.self) { try $0.fetchAll(db) } }
        return try BuilderCorpus.contents(db, T.tableName)
    }

    package func onChinookCopy<Result: Sendable>(_ body: (any QueryEngine) async throws -> Result) async throws
        -> Result
    {
        try await body(SQLiteEngine(db: try Database.chinookCopy(), typed: typed))
    }
}
