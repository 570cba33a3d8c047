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

    /// `INSERT OR <resolution> ` (or `UPDATE OR …`), and what PostgreSQL writes instead: a plain
    /// `INSERT` for ``abort`` (its own behaviour) and ``ignore`` (with `ON CONFLICT DO NOTHING`,
    /// see ``Insert``); the other resolutions have no PostgreSQL equivalent and throw there.
    func statementPrefix(_ verb: String) -> SQL {
        let sqlite = SQL(sql: verb + " OR " + rawValue + (verb == "INSERT" ? " INTO " : " "))
        let plain = SQL(sql: verb + (verb == "INSERT" ? " INTO " : " "))
        switch self {
        case .abort:
            return SQL(sqlite: sqlite, postgreSQL: plain)
        case .ignore where verb == "INSERT":
            return SQL(sqlite: sqlite, postgreSQL: plain)
        case .replace:
            return SQL(sqlite: sqlite, unsupportedOnPostgreSQL: "use an upsert (onConflict(_:doUpdate:) or Table.upsert(_:)) instead")
        default:
            return SQL(sqlite: sqlite, unsupportedOnPostgreSQL: "PostgreSQL undoes the failing statement and aborts the transaction")
        }
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
/// chooses the rowid: a column's `DEFAULT` never applies. The record's values are bound straight
/// from ``Table/bindColumns(to:startingAt:)``; with several records, the one prepared statement is
/// run once per record inside a savepoint, so either every record is inserted or none is.
public struct Insert<Root: Table>: QueryStatement {
    /// The records to insert.
    public var records: [Root]
    /// `INSERT OR <resolution>`, or `nil` for a plain `INSERT`.
    public var conflictResolution: ConflictResolution?
    /// The `ON CONFLICT` clause of an upsert.
    var upsert: UpsertClause?

    /// An insert of `records`.
    public init(_ records: [Root], or conflictResolution: ConflictResolution? = nil) {
        self.records = records
        self.conflictResolution = conflictResolution
    }

    /// The statement run for each record, without the record's values.
    var template: SQL {
        statement(values: nil, skippingColumn: nil)
    }

    /// The statement with `values` bound to its `VALUES` placeholders (none when `nil`: the
    /// template), without the column at `skipped` (an identity column that PostgreSQL fills in
    /// when the record has no key yet).
    package func statement(values: [(any SQLBindable)?]?, skippingColumn skipped: Int?) -> SQL {
        var sql = conflictResolution.map { $0.statementPrefix("INSERT") } ?? SQL(sql: "INSERT INTO ")
        var columns = Root.schema.recordColumns
        if let skipped, columns.indices.contains(skipped) { columns.remove(at: skipped) }
        sql.append(SQL(sql: Root.tableName.quotedIdentifier))
        sql.append(SQL(sql: " (" + columns.map(\.name.quotedIdentifier).joined(separator: ", ") + ")"))
        sql.append(
            SQL(
                sql: " VALUES (" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")",
                arguments: StatementArguments(values ?? [])))
        if let upsert {
            if conflictResolution == .ignore {
                sql.append(SQL(sqlite: "", unsupportedOnPostgreSQL: "INSERT OR IGNORE with an ON CONFLICT clause"))
            }
            sql.append(upsert.fragment)
        } else if conflictResolution == .ignore {
            sql.append(SQL(sqlite: "", postgreSQL: " ON CONFLICT DO NOTHING"))
        }
        return sql
    }

    /// The conflict handling of an upsert, for drivers.
    package var hasUpsertClause: Bool { upsert != nil }

    /// The statement with the first record's values followed by any other bound value. With
    /// several records, the statement runs once per record.
    public var sql: SQL {
        statement(values: records.first?.columnValues ?? [], skippingColumn: nil)
    }

    /// Inserts the records and returns them as inserted: with ``Table/didInsert(rowID:)`` called,
    /// so an `INTEGER PRIMARY KEY` holds the new rowid; for an upsert, as stored after the insert
    /// or update. A record that `OR IGNORE` or `DO NOTHING` skipped is returned unchanged.
    @discardableResult
    public func execute(_ db: Database) throws -> [Root] {
        guard !records.isEmpty else { return [] }
        try Root.prepareForWriting(db)
        if upsert != nil {
            // The row as stored, whether inserted or updated, comes back from RETURNING.
            let returning = Returning<Root, Root>(
                base: .insert(self), returning: SelectClauses.columnList(of: Root.self, qualifier: Root.tableName),
                decoder: { try Root(row: $0) })
            var results: [Root] = []
            try returning.run(db) { index, stored in
                results.append(stored ?? records[index])
            }
            return results
        }
        let receivesRowID = Root.schema.rowIDAlias != nil
        return try withEachRecord(db) { statement, record in
            var record = record
            try statement.run()
            if receivesRowID && db.changesCount > 0 {
                try record.didInsert(rowID: db.lastInsertedRowID)
            }
            return record
        }
    }

    /// Runs `body` with the statement bound to each record in turn: `text` is the statement with
    /// placeholders for the record's columns first, then for `extraArguments`. Several records run
    /// inside a savepoint.
    func withEachRecord<Result>(
        _ db: Database, text: String? = nil, extraArguments: StatementArguments? = nil,
        _ body: (Statement, Root) throws -> Result
    ) throws -> [Result] {
        let template = self.template
        let text = text ?? template.text
        let extra = extraArguments ?? template.arguments
        func run() throws -> [Result] {
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
            var results: [Result] = []
            results.reserveCapacity(records.count)
            for record in records {
                statement.resetQuietly()
                try record.bindColumns(to: statement, startingAt: 1)
                results.append(try body(statement, record))
            }
            return results
        }
        return records.count == 1 ? try run() : try db.savepoint(nil) { try run() }
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
    public static func insert(_ records: some Sequence<Self>, or conflictResolution: ConflictResolution? = nil) -> Insert<Self> {
        Insert(Array(records), or: conflictResolution)
    }
}
