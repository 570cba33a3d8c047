import PostgresNIO
import SlateCore
import SlateQuery

// Eager loads on PostgreSQL: the same statements as on SQLite (rendered for PostgreSQL as every
// builder statement is), run with `await`. On a `PostgreSQLDatabase` (the pool), an eager load
// with levels runs in one REPEATABLE READ transaction on one connection, so every level reads the
// same snapshot; in a `PostgreSQLTransaction`, it runs in that transaction.

extension EagerLoad {
    /// Every record with its related records, on PostgreSQL.
    public func fetchAll(_ db: some PostgreSQLQueryable) async throws -> [Output] {
        try await run(db, forOne: false)
    }

    /// The first record with its related records, or `nil`, on PostgreSQL. Adds `LIMIT 1` to the
    /// parent query unless it has a limit.
    public func fetchOne(_ db: some PostgreSQLQueryable) async throws -> Output? {
        try await run(db, forOne: true).first
    }

    private func run(_ db: some PostgreSQLQueryable, forOne: Bool) async throws -> [Output] {
        try validate()
        if hasPrefetchLevels, let database = db as? PostgreSQLDatabase {
            let rows = try await database.transaction(isolation: .repeatableRead) { transaction in
                try await self.load(PostgresPrefetchRunner(db: transaction), restriction: nil, forOne: forOne)
            }
            return try tuples(rows).map { $0.value }
        }
        let rows = try await load(PostgresPrefetchRunner(db: db), restriction: nil, forOne: forOne)
        return try tuples(rows).map { $0.value }
    }
}

/// Runs an eager load's statements on a PostgreSQL database or transaction.
struct PostgresPrefetchRunner<Queryable: PostgreSQLQueryable>: PrefetchStatementRunner {
    let db: Queryable

    func forEachRow(_ sql: SQL, _ body: (borrowing Row) throws -> Void) async throws {
        try await db.forEachRow(sql, body)
    }

    /// PostgreSQL's wire protocol numbers parameters with 16 bits.
    var maximumBoundValues: Int { 65_535 }
}
