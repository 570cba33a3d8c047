import Foundation
import PostgresNIO
import SlateCore
import SlateQuery

// The query builder's statements on PostgreSQL: the same values that run on a `Database`, run
// with `await` on a `PostgreSQLQueryable`. Each statement is written in PostgreSQL's dialect when
// it runs (`SQL.rendered(for: .postgreSQL)`: `$n` placeholders, PostgreSQL's precedence, its
// spelling of the constructs that differ), or refused, for a construct PostgreSQL has no
// equivalent for, before anything runs.

extension SelectStatement {
    /// Every row, on PostgreSQL.
    @inlinable  // specialized for the caller's `Output` (see `PostgreSQLQueryable.fetchAll(_:_:)`)
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
        try await db.fetchValue(Int.self, countSQL)
    }
}

extension Insert {
    /// Inserts the records on PostgreSQL and returns them as stored, read back through
    /// `RETURNING`: with the key PostgreSQL chose for an `INTEGER PRIMARY KEY` that was `nil` (an
    /// identity column there, see ``SlateQuery/TableSchema/postgreSQLCreateStatements(valueTypes:ifNotExists:)``),
    /// the defaults it applied, and for an upsert the row as inserted or updated. A record that
    /// `ON CONFLICT DO NOTHING` (or `.ignore`) skipped is returned unchanged.
    ///
    /// Several records insert all or none, as on SQLite: one statement each, on one connection of
    /// the pool in a transaction, or inside a ``PostgreSQLTransaction`` in a savepoint (so a
    /// failed batch undoes only its own rows and the transaction goes on). When a record fails (a
    /// constraint, a value that does not bind) or the task is cancelled, the records before it are
    /// rolled back and the error is rethrown. A single record runs its one statement as it is. (A
    /// ``PostgreSQLQueryable`` of your own runs the statements one by one, as it runs any.)
    @discardableResult
    public func execute(_ db: some PostgreSQLQueryable) async throws -> [Root] {
        if records.count == 1, conflictResolution == nil, !isUpsert {
            var record = records[0]
            if try await PostgresSingleInsert.run(&record, db) { return [record] }
        }
        if records.count == 1,
            let one = try await postgresRunInsert(db, returning: .recordColumns, decode: { try Root(row: $0) })
        {
            // One record: no transaction, and no `Returning` (whose column list would be built
            // on every call; the statement's text is cached per shape). Indexing rather than
            // `first` and the loop below, whose generic code runs unspecialized here.
            if !one.isEmpty, let record = one[0] { return [record] }
            return records
        }
        var stored = try await returningRecords.postgresRun(db)
        // A skipped record comes back as given. (An index loop: zip and map instantiate their
        // generic types at run time on every call, since Root is not known here.)
        var results = records
        for index in results.indices where index < stored.count {
            if let record = stored[index].take() { results[index] = record }
        }
        return results
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
        // Several records: all or none, in a transaction of their own or a savepoint of the
        // caller's transaction (PostgreSQL does not promise that a multi-row VALUES returns its
        // rows in input order, so it stays one statement per record).
        if let insert, insert.records.count > 1 {
            if let database = db as? PostgreSQLDatabase {
                return try await database.transaction { transaction in try await postgresRunStatements(transaction) }
            }
            if let transaction = db as? PostgreSQLTransaction {
                return try await transaction.savepoint { savepoint in try await postgresRunStatements(savepoint) }
            }
        }
        return try await postgresRunStatements(db)
    }

    /// The statements of ``postgresRun(_:)``, run on `db` as they come.
    private func postgresRunStatements(_ db: some PostgreSQLQueryable) async throws -> [Output?] {
        if let insert,
            let results = try await insert.postgresRunInsert(
                db, returning: .clause(returning), decode: { try decode(row: $0) })
        {
            return results
        }
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

/// What an insert returns on PostgreSQL: every record column (the stored records), or a
/// `RETURNING` clause of the caller's.
enum PostgresReturningClause {
    case recordColumns
    case clause(SQL)
}

extension Insert {
    /// The insert's statements on PostgreSQL without building each record's SQL: the text is
    /// rendered once per shape (the columns left out for their defaults; cached across calls for
    /// an insert that is not an upsert) and each record's values are bound straight from
    /// `encode(to:)`. The statements, values, results and errors are those of the general path
    /// (``SlateQuery/Returning/statementsPerRecord(alsoOmitting:)``); `nil` for a queryable other
    /// than ``PostgreSQLDatabase`` and ``PostgreSQLTransaction``. Runs the statements as they
    /// come: the caller makes several records all or none.
    func postgresRunInsert<Output>(
        _ db: some PostgreSQLQueryable, returning returningClause: PostgresReturningClause,
        decode: (borrowing Row) throws -> Output
    ) async throws -> [Output?]? {
        let insert = self
        guard let target = PostgresStatementTarget(db) else { return nil }
        let (columnCount, omittable) = PostgresInsertShapes.shared.columns(of: Root.self)
        let cacheKey: PostgresInsertShapes.Key?
        switch returningClause {
        case _ where insert.isUpsert:
            cacheKey = nil
        case .recordColumns:
            cacheKey = PostgresInsertShapes.Key(
                table: ObjectIdentifier(Root.self), conflict: insert.conflictResolution, omitted: [], returning: nil)
        case .clause(let returning):
            cacheKey =
                !returning.arguments.isEmpty || !returning.isDialectNeutral
                ? nil
                : PostgresInsertShapes.Key(
                    table: ObjectIdentifier(Root.self), conflict: insert.conflictResolution, omitted: [],
                    returning: returning.text)
        }
        // The shapes of this call, when they are not cached across calls.
        var shapes: [[Int]: RenderedSQL] = [:]
        var results: [Output?] = []
        if insert.records.count > 1 { results.reserveCapacity(insert.records.count) }
        for record in insert.records {
            var encoder = PostgresInsertEncoder(columnCount: columnCount, omittable: omittable)
            // The values first: the shape depends on which are nil.
            var bindError: (any Error)?
            do {
                try record.encode(to: &encoder)
            } catch {
                bindError = error
            }
            let omitted = encoder.omitted
            let rendered: RenderedSQL
            var key = cacheKey
            key?.omitted = omitted
            if let key, let cached = PostgresInsertShapes.shared[key] {
                rendered = cached
            } else if key == nil, let cached = shapes[omitted] {
                rendered = cached
            } else {
                let kept = columnCount - omitted.count
                var statement = insert.statement(values: Array(repeating: nil, count: kept), omitting: omitted)
                statement.append(" RETURNING ")
                switch returningClause {
                case .recordColumns: statement.append(insert.returningRecords.returning)
                case .clause(let returning): statement.append(returning)
                }
                var template = try statement.rendered(for: .postgreSQL)
                // The values' placeholders come first (VALUES precedes ON CONFLICT and
                // RETURNING): keep only the arguments that follow them.
                template.arguments.removeFirst(min(kept, template.arguments.count))
                rendered = template
                if let key { PostgresInsertShapes.shared[key] = rendered } else { shapes[omitted] = rendered }
            }
            // Errors exactly as the general path reports them (values, then the arguments after).
            func allArguments() -> RenderedSQL {
                let values = record.columnValues
                let kept: [(any SQLBindable)?] = values.indices.filter { !omitted.contains($0) }.map { values[$0] }
                return RenderedSQL(text: rendered.text, arguments: kept + rendered.arguments)
            }
            if bindError == nil && encoder.column != columnCount {
                bindError = DatabaseError(
                    resultCode: .misuse,
                    message:
                        "\(Root.self).encode(to:) handed out \(encoder.column) value(s) for \(columnCount) column(s)")
            }
            if bindError == nil {
                for argument in rendered.arguments {
                    do {
                        try encoder.encoder.bind(argument)
                    } catch {
                        bindError = error
                        break
                    }
                }
            }
            if let bindError {
                if var error = bindError as? DatabaseError {
                    if error.sql == nil { error.sql = rendered.text }
                    throw error
                }
                throw DatabaseError(
                    resultCode: .mismatch, message: "\(bindError)".truncatedForMessages, sql: rendered.text)
            }
            try Task.checkCancellation()
            var returned = false
            let query = PostgresQuery(unsafeSQL: rendered.text, binds: encoder.encoder.bindings)
            try await target.run(query, text: rendered.text, arguments: allArguments) { row in
                returned = true
                results.append(try decode(row))
            }
            if !returned { results.append(nil) }
        }
        return results
    }
}

/// Binds a record's values as an insert's parameters on PostgreSQL, leaving out the `nil` values
/// of the columns that then take their defaults (`omitted`).
struct PostgresInsertEncoder: ColumnEncoder {
    var encoder: PostgreSQLColumnEncoder
    /// The record columns left out when their value is `nil`, in order.
    let omittable: [Int]
    /// The record column the next value belongs to.
    var column = 0
    /// The position in `omittable` of the next omittable column.
    private var nextOmittable = 0
    /// The columns left out so far, as bits: bit `i` for `omittable[i]` (the first 64).
    private(set) var omittedMask: UInt64 = 0
    /// The columns left out so far past the first 64 omittable ones, in order.
    private var omittedPast64: [Int] = []

    init(columnCount: Int, omittable: [Int]) {
        encoder = PostgreSQLColumnEncoder(capacity: columnCount)
        self.omittable = omittable
    }

    /// The columns left out so far, in order.
    var omitted: [Int] {
        var columns: [Int] = []
        for position in omittable.indices.prefix(64) where omittedMask & (1 << UInt64(position)) != 0 {
            columns.append(omittable[position])
        }
        return columns + omittedPast64
    }

    mutating func encode<Value: SQLBindable>(_ value: Value) throws(any Error) {
        defer { column += 1 }
        // `omittable` is in order: the next omittable column is the only one that can be this one.
        if nextOmittable < omittable.count, omittable[nextOmittable] == column {
            let position = nextOmittable
            nextOmittable += 1
            if PostgreSQLColumnEncoder.isNone(value) ?? isNullArgument(value) {
                if position < 64 { omittedMask |= 1 << UInt64(position) } else { omittedPast64.append(column) }
                return
            }
        }
        try encoder.encode(value)
    }
}

/// What SlatePostgres keeps about a record type to insert its records: its column count, the
/// columns left out of an insert when `nil` and the text of a plain insert (no conflict clause,
/// `RETURNING` every record column) for each set of them. Immutable once made.
final class PostgresInsertPlan: Sendable {
    /// The number of record columns.
    let columnCount: Int
    /// In order, the record columns left out of an insert when their value is `nil`: the columns
    /// with a default and the identity column.
    let omittable: [Int]
    /// The text of a plain insert returning every record column, at the bit mask of the omittable
    /// columns left out (bit `i` for `omittable[i]`); empty when there are more than
    /// ``maximumPlainOmittable`` omittable columns (their inserts take the general path).
    let plainTexts: [String]

    /// Up to this many omittable columns, the plain texts of every combination are rendered
    /// up front (at most 16).
    static let maximumPlainOmittable = 4

    init<Root: Table>(_ root: Root.Type) {
        var omittable = Insert<Root>.defaultedColumns
        if let identity = Root.postgreSQLIdentityColumn, !omittable.contains(identity) { omittable.append(identity) }
        omittable.sort()
        let columnCount = Root.schema.recordColumns.count
        self.columnCount = columnCount
        self.omittable = omittable
        var texts: [String] = []
        if omittable.count <= Self.maximumPlainOmittable {
            let insert = Insert<Root>([])
            let returning = insert.returningRecords.returning
            for mask in 0..<(1 << omittable.count) {
                let omitted = omittable.indices.filter { mask & (1 << $0) != 0 }.map { omittable[$0] }
                let kept = columnCount - omitted.count
                var statement = insert.statement(values: Array(repeating: nil, count: kept), omitting: omitted)
                statement.append(" RETURNING ")
                statement.append(returning)
                // Only the values' placeholders: a text with other arguments (or none) is not kept.
                guard let rendered = try? statement.rendered(for: .postgreSQL), rendered.arguments.count == kept else {
                    texts = []
                    break
                }
                texts.append(rendered.text)
            }
        }
        plainTexts = texts
    }
}

/// A single record's plain insert (no conflict clause, not an upsert) on a ``PostgreSQLDatabase``
/// or ``PostgreSQLTransaction``: the statement, values, results and errors of the general path
/// (``SlateQuery/Insert/postgresRunInsert(_:returning:decode:)``), with one cache look-up (the
/// record type's ``PostgresInsertPlan``) and no array or optional of the record type, whose
/// metadata unspecialized code looks up in the runtime's tables each time it names one.
enum PostgresSingleInsert {
    /// Inserts `record` and sets it to the row as stored; `false` (and nothing run) when this
    /// path does not apply: another queryable, or a table with many omittable columns.
    static func run<Record: Table>(_ record: inout Record, _ db: some PostgreSQLQueryable) async throws -> Bool {
        guard let target = PostgresStatementTarget(db) else { return false }
        let plan = PostgresInsertShapes.shared.plan(of: Record.self)
        guard !plan.plainTexts.isEmpty else { return false }
        var encoder = PostgresInsertEncoder(columnCount: plan.columnCount, omittable: plan.omittable)
        var bindError: (any Error)?
        do {
            try record.encode(to: &encoder)
        } catch {
            bindError = error
        }
        let text = plan.plainTexts[Int(encoder.omittedMask & UInt64(plan.plainTexts.count - 1))]
        let given = record
        // Errors exactly as the general path reports them (the values of the columns kept).
        func allArguments() -> RenderedSQL {
            let omitted = encoder.omitted
            let values = given.columnValues
            let kept: [(any SQLBindable)?] = values.indices.filter { !omitted.contains($0) }.map { values[$0] }
            return RenderedSQL(text: text, arguments: kept)
        }
        if bindError == nil && encoder.column != plan.columnCount {
            bindError = DatabaseError(
                resultCode: .misuse,
                message:
                    "\(Record.self).encode(to:) handed out \(encoder.column) value(s) for \(plan.columnCount) column(s)"
            )
        }
        if let bindError {
            if var error = bindError as? DatabaseError {
                if error.sql == nil { error.sql = text }
                throw error
            }
            throw DatabaseError(resultCode: .mismatch, message: "\(bindError)".truncatedForMessages, sql: text)
        }
        try Task.checkCancellation()
        let query = PostgresQuery(unsafeSQL: text, binds: encoder.encoder.bindings)
        // The row as stored (a plain insert returns exactly one).
        try await target.run(query, text: text, arguments: allArguments) { row in
            record = try Record(row: row)
        }
        return true
    }
}

/// The rendered text of an insert on PostgreSQL per shape, shared by every call: what a shape's
/// SQL renders to depends only on the key; and each record type's ``PostgresInsertPlan``.
final class PostgresInsertShapes: @unchecked Sendable {
    // @unchecked Sendable: `shapes` and `plans`, the only mutable state, are read and written only
    // while `lock` is held; the rendered SQL and plans they hold are immutable once made.
    struct Key: Hashable {
        var table: ObjectIdentifier
        var conflict: ConflictResolution?
        var omitted: [Int]
        /// The `RETURNING` clause's text; `nil` for every record column.
        var returning: String?
    }

    static let shared = PostgresInsertShapes()
    /// At most this many shapes are kept; past it the cache starts again.
    static let capacity = 1_000

    private let lock = NSLock()
    private var shapes: [Key: RenderedSQL] = [:]
    private var plans: [ObjectIdentifier: PostgresInsertPlan] = [:]

    /// The plan of `table`, made on first use.
    func plan<Root: Table>(of table: Root.Type) -> PostgresInsertPlan {
        if let known = lock.withLock({ plans[ObjectIdentifier(table)] }) { return known }
        // Made outside the lock (it renders SQL); two tasks may both make it, with equal results.
        let plan = PostgresInsertPlan(table)
        lock.withLock { plans[ObjectIdentifier(table)] = plan }
        return plan
    }

    /// The number of record columns of `table` and, in order, those left out of an insert when
    /// their value is `nil`: the columns with a default and the identity column.
    func columns<Root: Table>(of table: Root.Type) -> (columnCount: Int, omittable: [Int]) {
        let plan = plan(of: table)
        return (plan.columnCount, plan.omittable)
    }

    subscript(key: Key) -> RenderedSQL? {
        get { lock.withLock { shapes[key] } }
        set {
            lock.withLock {
                if shapes.count >= Self.capacity { shapes.removeAll() }
                shapes[key] = newValue
            }
        }
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
    try await db.fetchValue(
        Int.self, "WITH \"slate_changed\" AS (\(sql: statement) RETURNING 1) SELECT count(*) FROM \"slate_changed\"")
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
        var stored = record
        if try await PostgresSingleInsert.run(&stored, self) { return stored }
        let all = try await Insert([record]).execute(self)
        return all.isEmpty ? record : all[0]
    }

    /// Inserts every record, one statement each, and returns them as stored, in order. All or
    /// none: several records run in a transaction on one connection of the pool, or in a savepoint
    /// of a ``PostgreSQLTransaction``; a failed or cancelled batch leaves the table as it was.
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
