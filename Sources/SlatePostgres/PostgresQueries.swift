import Foundation
import SlateCore
import SlateQuery

// The query builder's statements on PostgreSQL: the same values that run on a `Database`, run
// with `await` on a `PostgreSQLQueryable`. Each renders its SQL once, in SQLite's dialect as always,
// then `SQL.rendered(for: .postgreSQL)` writes PostgreSQL's (`$n` placeholders, the constructs
// that differ) or throws for a construct PostgreSQL has no equivalent for, before anything runs.

extension SelectStatement {
    /// Every row, on PostgreSQL.
    public func fetchAll(_ db: some PostgreSQLQueryable) async throws -> [Output] {
        try await db.fetchAll(sql) { try decode(row: $0) }
    }

    /// The first row, or `nil`, on PostgreSQL. Adds `LIMIT 1` unless the statement has a limit.
    public func fetchOne(_ db: some PostgreSQLQueryable) async throws -> Output? {
        try await db.fetchAll(clauses.renderForOne()) { try decode(row: $0) }.first
    }

    /// The number of rows the statement returns, on PostgreSQL (see ``SlateQuery/SelectStatement/fetchCount(_:)-(Database)``).
    public func fetchCount(_ db: some PostgreSQLQueryable) async throws -> Int {
        try await db.fetchValue(Int.self, clauses.renderCount())
    }

    /// Whether the statement returns at least one row, on PostgreSQL.
    public func exists(_ db: some PostgreSQLQueryable) async throws -> Bool {
        try await db.fetchValue(Bool.self, clauses.renderExists())
    }
}

extension CompoundSelect {
    /// Every row, on PostgreSQL.
    public func fetchAll(_ db: some PostgreSQLQueryable) async throws -> [Output] {
        try await db.fetchAll(sql) { try decode(row: $0) }
    }

    /// The first row, or `nil`, on PostgreSQL.
    public func fetchOne(_ db: some PostgreSQLQueryable) async throws -> Output? {
        try await db.fetchAll(sqlForOne) { try decode(row: $0) }.first
    }

    /// The number of rows, on PostgreSQL: `SELECT count(*) FROM (…) AS "compound"`.
    public func fetchCount(_ db: some PostgreSQLQueryable) async throws -> Int {
        try await db.fetchValue(Int.self, "SELECT count(*) FROM (\(sql: sql)) AS \"compound\"")
    }
}

extension Insert {
    /// Inserts the records on PostgreSQL and returns them as stored, read back through
    /// `RETURNING`: with the key PostgreSQL chose for an `INTEGER PRIMARY KEY` that was `nil` (an
    /// identity column there, see ``SlateQuery/TableSchema/postgreSQLCreateStatements(valueTypes:ifNotExists:)``),
    /// the defaults it applied, and for an upsert the row as inserted or updated. A record that
    /// `ON CONFLICT DO NOTHING` (or `.ignore`) skipped is returned unchanged.
    ///
    /// Several records run one statement each; run them in a ``PostgreSQLDatabase/transaction(isolation:_:)``
    /// to insert all or none.
    @discardableResult
    public func execute(_ db: some PostgreSQLQueryable) async throws -> [Root] {
        let stored = try await returningRecords.postgresRun(db)
        return zip(records, stored).map { original, stored in stored ?? original }
    }
}

extension Returning {
    /// Runs the statement on PostgreSQL and returns every returned row.
    public func fetchAll(_ db: some PostgreSQLQueryable) async throws -> [Output] {
        try await postgresRun(db).compactMap { $0 }
    }

    /// Runs the statement on PostgreSQL and returns the first returned row, or `nil`.
    public func fetchOne(_ db: some PostgreSQLQueryable) async throws -> Output? {
        try await fetchAll(db).first
    }

    /// The rows returned: for an insert, one entry per record (`nil` when the record was
    /// skipped); else one per returned row.
    func postgresRun(_ db: some PostgreSQLQueryable) async throws -> [Output?] {
        let statements = statementsPerRecord(alsoOmitting: Root.postgreSQLIdentityColumn.map { [$0] } ?? [])
        var results: [Output?] = []
        for statement in statements {
            var returned = false
            try await db.forEachRow(statement) { row in
                returned = true
                results.append(try decode(row: row))
            }
            if !returned && isInsert { results.append(nil) }
        }
        return results
    }
}

extension Update {
    /// Runs the update on PostgreSQL and returns the number of rows changed.
    @discardableResult
    public func execute(_ db: some PostgreSQLQueryable) async throws -> Int {
        try await countingChanges(of: sql, db)
    }
}

extension Delete {
    /// Runs the deletion on PostgreSQL and returns the number of rows deleted.
    @discardableResult
    public func execute(_ db: some PostgreSQLQueryable) async throws -> Int {
        try await countingChanges(of: sql, db)
    }
}

extension InsertSelect {
    /// Inserts the rows the query selects, on PostgreSQL, and returns how many it inserted.
    ///
    /// - Throws: ``SlateCore/DatabaseError`` with ``SlateCore/ResultCode/misuse`` for
    ///   `INSERT OR …` (SQLite's conflict clauses), before anything runs: write PostgreSQL's
    ///   `ON CONFLICT` in raw SQL.
    @discardableResult
    public func execute(_ db: some PostgreSQLQueryable) async throws -> Int {
        try await countingChanges(of: sql, db)
    }
}

/// Runs a data-changing statement and counts the rows it changed:
/// `WITH "changed" AS (… RETURNING 1) SELECT count(*) FROM "changed"`.
private func countingChanges(of statement: SQL, _ db: some PostgreSQLQueryable) async throws -> Int {
    try await db.fetchValue(Int.self, "WITH \"slate_changed\" AS (\(sql: statement) RETURNING 1) SELECT count(*) FROM \"slate_changed\"")
}

extension Table {
    /// The index of the record column that is an identity column on PostgreSQL (an `INTEGER
    /// PRIMARY KEY`): left out of an insert when `nil`, so PostgreSQL chooses the key.
    static var postgreSQLIdentityColumn: Int? {
        schema.recordColumns.firstIndex(where: \.isRowIDAlias)
    }
}

extension PostgreSQLQueryable {
    /// Inserts `record` and returns it as stored (with the key PostgreSQL chose, when it was
    /// `nil`).
    @discardableResult
    public func insert<Record: Table>(_ record: Record) async throws -> Record {
        try await Insert([record]).execute(self).first ?? record
    }

    /// Inserts every record, one statement each, and returns them as stored. Run it in a
    /// transaction to insert all or none.
    @discardableResult
    public func insert<Records: Sequence>(contentsOf records: Records) async throws -> [Records.Element]
    where Records.Element: Table {
        try await Insert(Array(records)).execute(self)
    }

    /// Updates every column of the row with `record`'s primary key. Returns whether there was one.
    @discardableResult
    public func update<Record: PrimaryKeyedTable>(_ record: Record) async throws -> Bool {
        try await countingChanges(of: Record.updateByPrimaryKeySQL(binding: record), self) > 0
    }

    /// Deletes the row with `record`'s primary key. Returns whether there was one.
    @discardableResult
    public func delete<Record: PrimaryKeyedTable>(_ record: Record) async throws -> Bool {
        try await Record.delete(key: record.primaryKey).execute(self) > 0
    }

    /// Creates the table of `type` and its indexes, with each column's PostgreSQL type chosen
    /// from its Swift type (see ``SlateQuery/TableSchema/postgreSQLType(of:valueType:)``).
    public func createTable<T: Table>(for type: T.Type, ifNotExists: Bool = false) async throws {
        for statement in try T.createStatements(dialect: .postgreSQL, ifNotExists: ifNotExists) {
            try await execute(SQL(sql: statement))
        }
    }
}
