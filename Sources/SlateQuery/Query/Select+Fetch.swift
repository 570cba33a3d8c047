import SlateConcurrency
import SlateCore

// Running SELECT statements. Every fetch renders the statement, takes the connection's cached
// statement for that SQL text (so a query shape is prepared once), binds the values, and decodes
// rows by position straight from the statement: no dictionary, no column-name lookup, and no
// allocation per row beyond the decoded value. The methods are inlinable so they specialize for
// the concrete record type in client code.

extension SelectStatement {
    /// Every row.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [Output] {
        return try db.withStatement(sql) { statement in
            var results: [Output] = []
            while try statement.step() {
                results.append(try decode(row: Row(statement: statement)))
            }
            return results
        }
    }

    /// The first row, or `nil` when there is none. Adds `LIMIT 1` unless the statement has a limit.
    @inlinable
    public func fetchOne(_ db: Database) throws -> Output? {
        return try db.withStatement(clauses.renderForOne()) { statement in
            guard try statement.step() else { return nil }
            return try decode(row: Row(statement: statement))
        }
    }

    /// A cursor decoding one row at a time.
    @inlinable
    public func fetchCursor(_ db: Database) throws -> DatabaseCursor<Output> {
        let statement = try db.boundStatement(sql)
        return DatabaseCursor(statement: statement) { row in try self.decode(row: row) }
    }

    /// The number of rows the statement returns: `SELECT count(*)` over its tables, or over the
    /// statement as a subquery when it is `DISTINCT`, grouped, or limited.
    public func fetchCount(_ db: Database) throws -> Int {
        return try db.fetchValue(Int.self, clauses.renderCount())
    }

    /// The statement ``fetchCount(_:)`` runs.
    public var countSQL: SQL { clauses.renderCount() }

    /// Whether the statement returns at least one row: `SELECT EXISTS (…)`.
    public func exists(_ db: Database) throws -> Bool {
        return try db.fetchValue(Bool.self, clauses.renderExists())
    }

    /// The statement ``exists(_:)`` runs.
    public var existsSQL: SQL { clauses.renderExists() }
}

extension Select {
    /// Every record, decoded with ``Table/init(row:)``: the loop of `Database.fetchAll(_:_:)`,
    /// which stores each record straight into the result (no `append` per row) and calls no
    /// closure per row. (Through the generic ``SelectStatement/fetchAll(_:)``: 12 instructions a
    /// row more in `fetch-200k-ints` `slate-generated`, `--quick --instructions`.)
    @inlinable
    public func fetchAll(_ db: Database) throws -> [Root] {
        return try db.fetchAll(Root.self, sql)
    }

    /// A cursor decoding one record at a time with ``Table/init(row:)``, with no closure call per
    /// row.
    @inlinable
    public func fetchCursor(_ db: Database) throws -> RecordCursor<Root> {
        return try db.fetchCursor(Root.self, sql)
    }
}

extension Select where Root: PrimaryKeyedTable {
    /// The first record, or `nil`. For `Root.find(key)` with nothing added, the statement prepared
    /// once per record type and connection runs, with the key bound by position.
    @inlinable
    public func fetchOne(_ db: Database) throws -> Root? {
        if case .primaryKeyLookup(let keyValues) = contents {
            return try db.findRecord(Root.self, keyValues: keyValues)
        }
        return try db.withStatement(clauses.renderForOne()) { statement in
            guard try statement.step() else { return nil }
            return try decode(row: Row(statement: statement))
        }
    }
}
