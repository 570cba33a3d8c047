import SlateConcurrency
import SlateCore

/// What SQLite does when an `INSERT` or `UPDATE` violates a constraint: `INSERT OR <resolution>`.
public enum ConflictResolution: String, Sendable, Hashable, CaseIterable {
    /// Roll back the whole transaction.
    case rollback = "ROLLBACK"
    /// Undo the statement and report the error (SQLite's default).
    case abort = "ABORT"
    /// Keep the statement's earlier changes and report the error.
    case fail = "FAIL"
    /// Skip the row and go on, without error.
    case ignore = "IGNORE"
    /// Delete the conflicting rows, then insert or update.
    case replace = "REPLACE"

    /// `INSERT OR <resolution> INTO ` (or `UPDATE OR … `), as each dialect writes it (PostgreSQL:
    /// plain for ``abort``, its own behaviour, and for ``ignore``, with `ON CONFLICT DO NOTHING`
    /// at the end; the other resolutions it refuses). `selecting`: an `INSERT … SELECT`.
    func statementPrefix(_ verb: SQLWriteVerb, selecting: Bool = false) -> SQL {
        SQL(.construct(.conflictResolution(verb, resolution: rawValue, selecting: selecting)))
    }
}

/// `INSERT INTO "Table" (<every column>) VALUES (?, …)` for one or more records.
///
/// ```swift
/// let person = try Person.insert(Person(name: "Arthur")).execute(db)[0]   // or db.insert(_:)
/// let id = try Person.insert(person).returning(\.id).fetchOne(db)
/// try Person.insert(people, or: .ignore).execute(db)
/// ```
///
/// Every column is inserted, including an `INTEGER PRIMARY KEY` that is `nil`, for which SQLite
/// chooses the rowid, except a column with an SQL `DEFAULT` (``TableSchema/Column/defaultSQL``)
/// whose value is `nil`: it is left out of the statement, so the default applies, and the record
/// is read back through `RETURNING`, with the values SQLite chose. (To store `NULL` in a nullable
/// column that has a default, update it after the insert.) The record's values are bound straight
/// from ``Table/bindColumns(to:startingAt:)``; with several records, the one prepared statement is
/// run once per record inside a savepoint, so either every record is inserted or none is.
public struct Insert<Root: Table>: RowWritingStatement {
    /// The records to insert.
    public var records: [Root]
    /// `INSERT OR <resolution>`, or `nil` for a plain `INSERT`.
    public var conflictResolution: ConflictResolution?
    /// The `ON CONFLICT` clause of an upsert.
    var upsert: UpsertClause?
    /// Whether the insert is an upsert (has an `ON CONFLICT` clause).
    package var isUpsert: Bool { upsert != nil }

    /// An insert of `records`.
    public init(_ records: [Root], or conflictResolution: ConflictResolution? = nil) {
        self.records = records
        self.conflictResolution = conflictResolution
    }

    /// The statement run for each record whose columns at `omitted` (indices into the record
    /// columns) take their defaults, without the record's values.
    func template(omitting omitted: [Int] = []) -> SQL {
        statement(values: nil, omitting: omitted)
    }

    /// The statement with `values` (the record's values at the columns kept) bound to its
    /// `VALUES` placeholders (none when `nil`: the template), without the columns at `omitted`
    /// (indices into the record columns), which take their defaults.
    package func statement(values: [(any SQLBindable)?]?, omitting omitted: [Int]) -> SQL {
        var sql = conflictResolution.map { $0.statementPrefix(.insert) } ?? SQL(text: "INSERT INTO ")
        let columns = Root.schema.recordColumns
        sql.append(.identifier(Root.tableName))
        let kept = columns.indices.filter { !omitted.contains($0) }
        if kept.isEmpty {
            sql.append(text: " DEFAULT VALUES")
        } else {
            sql.append(text: " (")
            for (position, index) in kept.enumerated() {
                if position > 0 { sql.append(text: ", ") }
                sql.append(.identifier(columns[index].name))
            }
            if let values {
                sql.append(text: ") VALUES (")
                for (position, value) in values.enumerated() {
                    if position > 0 { sql.append(text: ", ") }
                    sql.append(.binding(value))
                }
                sql.append(text: ")")
            } else {
                // The template: the caller binds the record's values to the first parameters.
                sql.append(text: ") VALUES (" + Array(repeating: "?", count: kept.count).joined(separator: ", ") + ")")
            }
        }
        if let upsert {
            if conflictResolution == .ignore { sql.append(.construct(.ignoredConflicts(withUpsert: true))) }
            sql.append(upsert.fragment(omitting: omitted))
        } else if conflictResolution == .ignore {
            sql.append(.construct(.ignoredConflicts(withUpsert: false)))
        }
        return sql
    }

    /// The statement for one record, with its values bound, leaving out the columns with a
    /// default whose value is `nil`, and also those at `alsoOmitting` when their value is `nil`
    /// (PostgreSQL's identity column for an `INTEGER PRIMARY KEY`).
    package func statement(for record: Root, alsoOmitting extra: [Int] = []) -> SQL {
        let values = record.columnValues
        let omitted = Self.omittedColumns(values, defaulted: Self.defaultedColumns + extra).sorted()
        return statement(values: values.indices.filter { !omitted.contains($0) }.map { values[$0] }, omitting: omitted)
    }

    /// The insert with `RETURNING` every column, decoded as records: the row as stored, whether
    /// inserted or updated, with the defaults the engine applied.
    package var returningRecords: Returning<Root, Root> {
        Returning(
            base: .insert(self), returning: SelectClauses.columnList(of: Root.self, qualifier: Root.tableName),
            decoder: { try Root(row: $0) })
    }

    /// The indices of the record columns that have an SQL `DEFAULT`.
    package static var defaultedColumns: [Int] {
        let columns = Root.schema.recordColumns
        return columns.indices.filter { columns[$0].defaultSQL != nil }
    }

    /// The columns of a record that take their defaults: those with a default whose value is nil.
    static func omittedColumns(_ values: [any SQLBindable], defaulted: [Int]) -> [Int] {
        defaulted.filter { $0 < values.count && isNullArgument(values[$0]) }
    }

    /// The statement with the first record's values followed by any other bound value. With
    /// several records, the statement runs once per record (without the columns that take their
    /// defaults for that record).
    public var sql: SQL {
        guard let record = records.first else { return statement(values: [], omitting: []) }
        return statement(for: record)
    }

    /// Inserts the records and returns them as inserted: with ``Table/didInsert(rowID:)`` called,
    /// so an `INTEGER PRIMARY KEY` holds the new rowid; for an upsert, as stored after the insert
    /// or update. A record that `OR IGNORE` or `DO NOTHING` skipped is returned unchanged.
    @discardableResult
    public func execute(_ db: Database) throws -> [Root] {
        guard !records.isEmpty else { return [] }
        try Root.prepareForWriting(db)
        if upsert != nil || !Self.defaultedColumns.isEmpty {
            // The row as stored, whether inserted or updated, with the defaults SQLite applied,
            // comes back from RETURNING.
            let returning = returningRecords
            var results: [Root] = []
            try returning.run(db) { index, stored in
                results.append(stored ?? records[index])
            }
            return results
        }
        guard Root.schema.rowIDAlias != nil else {
            // Without a rowid alias, every record is stored as it is: return them, uncopied.
            try forEachRecord(db) { statement, _ in try statement.run() }
            return records
        }
        var results: [Root] = []
        results.reserveCapacity(records.count)
        try forEachRecord(db) { statement, position in
            var record = records[position]
            try statement.run()
            if db.changesCount > 0 {
                try record.didInsert(rowID: db.lastInsertedRowID)
            }
            results.append(record)
        }
        return results
    }

    /// Runs `body` with the statement bound to each record in turn, and the record's position in
    /// ``records`` (not the record, which would be a copy per record that most callers do not
    /// need): the insert followed by `suffix` (a `RETURNING` clause), with placeholders for the
    /// record's columns first, then for the template's and the suffix's arguments. Several records
    /// run inside a savepoint.
    func forEachRecord(
        _ db: Database, suffix: SQL? = nil,
        _ body: (Statement, _ position: Int) throws -> Void
    ) throws {
        let defaulted = Self.defaultedColumns
        if !defaulted.isEmpty {
            return try records.count == 1
                ? forEachRecord(db, suffix: suffix, defaulted: defaulted, body)
                : db.savepoint(nil) { try forEachRecord(db, suffix: suffix, defaulted: defaulted, body) }
        }
        let template = self.template()
        let text = template.text + (suffix?.text ?? "")
        var extra = template.arguments
        if let suffix { extra.append(contentsOf: suffix.arguments) }
        func run() throws {
            let statement = try db.cachedStatement(sql: text)
            statement.isCheckedOut = true
            defer {
                statement.isCheckedOut = false
                statement.resetQuietly()
            }
            let columnCount = Root.schema.recordColumns.count
            for (offset, value) in extra.positional.enumerated() {
                try bindArgument(value, to: statement, at: columnCount + 1 + offset)
            }
            // One call binds every record (the record type finds what it needs once).
            try records.withUnsafeBufferPointer { records in
                try Root.bindEach(of: records, to: statement, startingAt: 1) { position in
                    do {
                        try body(statement, position)
                    } catch let error as DatabaseError {
                        // A constraint names no value: the error shows the record's (truncated).
                        throw statement.reporting(
                            records[position].columnValues.map { $0 as (any SQLBindable)? } + extra.positional,
                            in: error)
                    }
                }
            }
        }
        if records.count == 1 { try run() } else { try db.savepoint(nil) { try run() } }
    }

    /// ``forEachRecord(_:suffix:_:)`` for a table with defaults: each record's statement leaves
    /// out the defaulted columns whose value is nil.
    private func forEachRecord(
        _ db: Database, suffix: SQL?, defaulted: [Int], _ body: (Statement, _ position: Int) throws -> Void
    ) throws {
        let columnCount = Root.schema.recordColumns.count
        for (position, record) in records.enumerated() {
            let values = record.columnValues
            guard values.count == columnCount else {
                throw DatabaseError(
                    resultCode: .misuse,
                    message: "\(Root.self).encode(to:) handed out \(values.count) value(s) for \(columnCount) column(s)"
                )
            }
            let omitted = Self.omittedColumns(values, defaulted: defaulted)
            let template = self.template(omitting: omitted)
            var arguments: [(any SQLBindable)?] = values.indices.filter { !omitted.contains($0) }.map { values[$0] }
            arguments += template.arguments.positional
            var text = template.text
            if let suffix {
                text += suffix.text
                arguments += suffix.arguments.positional
            }
            let statement = try db.cachedStatement(sql: text)
            statement.isCheckedOut = true
            defer {
                statement.isCheckedOut = false
                statement.resetQuietly()
            }
            statement.resetQuietly()
            for (offset, value) in arguments.enumerated() {
                try bindArgument(value, to: statement, at: 1 + offset)
            }
            do {
                try body(statement, position)
            } catch let error as DatabaseError {
                throw statement.reporting(arguments, in: error)
            }
        }
    }
}

/// Binds one boxed argument, `NULL` for `nil`.
func bindArgument(_ value: (any SQLBindable)?, to statement: Statement, at index: Int) throws {
    if let value {
        try value.bind(to: statement, at: index)
    } else {
        try statement.bindNull(at: index)
    }
}

extension Table {
    /// An insert of `record`: `Person.insert(person).execute(db)`.
    public static func insert(_ record: Self, or conflictResolution: ConflictResolution? = nil) -> Insert<Self> {
        Insert([record], or: conflictResolution)
    }

    /// An insert of several records, run with one prepared statement inside a savepoint.
    public static func insert(_ records: some Sequence<Self>, or conflictResolution: ConflictResolution? = nil)
        -> Insert<Self>
    {
        Insert(Array(records), or: conflictResolution)
    }
}
