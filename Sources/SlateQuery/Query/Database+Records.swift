import Foundation
import SlateConcurrency
import SlateCore

// One-record statements and conveniences: insert, upsert, update, delete, find and save, on
// `Database` and on the table type. Key values come from the record's `encode(primaryKey:to:)`,
// stored as their columns store them.

extension Table {
    /// `"q"."k1" = ? AND "q"."k2" = ?` for the primary key, with `values` in key order. When the
    /// table has no primary key, or `values` do not match its columns, the predicate's SQL carries
    /// an error: a statement built from it never runs, so it can never touch the wrong rows.
    static func primaryKeyPredicate(values: [any SQLBindable], qualifier: String) -> SQLExpression<Bool> {
        let columns = schema.primaryKey
        if columns.isEmpty {
            return SQLExpression(
                sql: SQL(
                    sql: "0",
                    failing: DatabaseError(
                        resultCode: .misuse,
                        message:
                            "\(Self.self) declares no primary key column: give a column of its schema a primaryKeyPosition"
                    )),
                precedence: .atomic)
        }
        var predicates = columns.enumerated().map { index, column -> SQL in
            let value: (any SQLBindable)? = index < values.count ? values[index] : nil
            var predicate = SQL(segments: [.column(qualifier: qualifier, name: column), .text(" = "), .binding(value)])
            // A UUID key stored as text matches whatever its letter case (see `comparesUUIDText`);
            // one stored as a blob is handed out as its blob. Slate declares UUID text NOCASE.
            if value is UUID || schema.column(named: column)?.collation?.uppercased() == "NOCASE" {
                predicate.append(uuidTextCollation())
            }
            return predicate
        }
        if values.count != columns.count {
            predicates.append(
                SQL(
                    sql: "",
                    failing: DatabaseError(
                        resultCode: .misuse,
                        message:
                            "\(Self.self).encode(primaryKey:to:) handed out \(values.count) value(s) for the \(columns.count)"
                            + " primary key column(s) \(columns.joined(separator: ", "))")))
        }
        var predicate = SQLExpression<Bool>(
            sql: SQL.joined(predicates, separator: " AND "), precedence: predicates.count == 1 ? .equality : .and)
        predicate.rowIDHint = rowIDHint(primaryKeyValues: values)
        return predicate
    }

    /// `UPDATE "t" SET "a" = ?2, "b" = ?3 WHERE "id" = ?1`: parameters numbered by record column, so
    /// that ``bindColumns(to:startingAt:)`` binds every column once. A table whose columns all
    /// belong to the key sets them to themselves, so the statement still reports whether the row
    /// exists.
    package static func updateByPrimaryKeySQL() -> SQL {
        updateByPrimaryKeySQL(values: []) { index in .text("?" + String(index + 1)) }
    }

    /// The same update with `record`'s column values bound in the order of the text: the
    /// statement a driver for another engine runs, which binds values by position.
    package static func updateByPrimaryKeySQL(binding record: Self) -> SQL {
        let values = record.columnValues
        return updateByPrimaryKeySQL(values: values) { index in
            .binding(index < values.count ? values[index] : nil)
        }
    }

    /// The update, with `parameter(i)` for the value of record column `i` (`values`: the record's,
    /// when known).
    private static func updateByPrimaryKeySQL(values: [any SQLBindable], _ parameter: (Int) -> SQLSegment) -> SQL {
        let columns = schema.recordColumns
        let keys = columns.indices.filter { columns[$0].isPrimaryKey }
        var assigned = columns.indices.filter { !columns[$0].isPrimaryKey }
        if assigned.isEmpty { assigned = keys }
        // On SQLite, a UUID key stored as text matches whatever its letter case (`comparesUUIDText`).
        let uuidKeys = keys.isEmpty ? [] : nocaseColumnNames(values: values)
        var sql = SQL(text: "UPDATE ")
        sql.append(.identifier(tableName))
        sql.append(text: " SET ")
        for (position, index) in assigned.enumerated() {
            sql.append(text: position == 0 ? "" : ", ")
            sql.append(.identifier(columns[index].name))
            sql.append(text: " = ")
            sql.append(parameter(index))
        }
        sql.append(text: " WHERE ")
        guard !keys.isEmpty else {
            sql.append(text: "0")
            sql.append(
                .failure(
                    DatabaseError(
                        resultCode: .misuse,
                        message:
                            "\(Self.self) declares no primary key column: give a column of its schema a primaryKeyPosition"
                    )))
            return sql
        }
        for (position, index) in keys.enumerated() {
            sql.append(text: position == 0 ? "" : " AND ")
            sql.append(.identifier(columns[index].name))
            sql.append(text: " = ")
            sql.append(parameter(index))
            if uuidKeys.contains(columns[index].name) { sql.append(.construct(.uuidTextCollation)) }
        }
        return sql
    }
}

extension Table {
    /// The record columns compared `COLLATE NOCASE` in by-key statements: those declared
    /// `NOCASE` (as Slate declares them), and those whose value (in `values`, the record's column
    /// values, when given) or typed ``Column`` is a `UUID`.
    static func nocaseColumnNames(values: [any SQLBindable]) -> Set<String> {
        let columns = schema.recordColumns
        var names = Set(columns.filter { $0.collation?.uppercased() == "NOCASE" }.map(\.name))
        if values.count == columns.count {
            for (column, value) in zip(columns, values) where value is UUID { names.insert(column.name) }
        } else {
            for (name, type) in columnValueTypes where type.type == UUID.self && type.storage != .uuid(.blob) {
                names.insert(name)
            }
        }
        return names
    }
}

extension Database {
    /// Inserts `record` and returns it as inserted, with ``Table/didInsert(rowID:)`` called (so an
    /// `INTEGER PRIMARY KEY` holds the new rowid). To resolve conflicts (`INSERT OR IGNORE`,
    /// `ON CONFLICT …`), use the statement: `Person.insert(person, or: .ignore).execute(db)`.
    ///
    /// - Throws: ``DatabaseError``, such as ``ResultCode/constraint`` for a constraint violation.
    @discardableResult
    public func insert<Record: Table>(_ record: Record) throws -> Record {
        try Insert([record]).execute(self).first ?? record
    }

    /// Inserts every record with one prepared statement, inside a savepoint: if one fails, none is
    /// inserted. Returns the records as inserted.
    @discardableResult
    public func insert<Records: Sequence>(contentsOf records: Records) throws -> [Records.Element]
    where Records.Element: Table {
        try Insert(Array(records)).execute(self)
    }

    /// Updates every column of the row with `record`'s primary key. Returns whether such a row
    /// exists. See ``UpdateRecord``.
    @discardableResult
    public func update<Record: PrimaryKeyedTable>(_ record: Record) throws -> Bool {
        try UpdateRecord(record).execute(self)
    }

    /// Deletes the row with `record`'s primary key. Returns whether there was one.
    @discardableResult
    public func delete<Record: PrimaryKeyedTable>(_ record: Record) throws -> Bool {
        try Record.delete(key: record.primaryKey).execute(self) > 0
    }

    /// Updates the record's row, or inserts the record when its primary key is `nil` or no row has
    /// it. Returns the record as saved (an inserted record has its new rowid).
    ///
    /// The update writes the record's columns only, so columns of the table that the type does not
    /// declare (added by another version of the app) keep their values.
    @discardableResult
    public func save<Record: PrimaryKeyedTable>(_ record: Record) throws -> Record {
        if !Record.primaryKeyValues(record.primaryKey).allSatisfy(isNullArgument), try update(record) {
            return record
        }
        return try insert(record)
    }

    /// Saves every record (see ``save(_:)``) inside a savepoint: either all are saved or none is.
    /// Records to insert are inserted with one prepared statement. Returns the records as saved.
    @discardableResult
    public func save<Records: Sequence>(contentsOf records: Records) throws -> [Records.Element]
    where Records.Element: PrimaryKeyedTable {
        let records = Array(records)
        guard records.count > 1 else { return try records.map { try save($0) } }
        // Without a primary key there is nothing to update: every record is inserted.
        if Records.Element.schema.primaryKey.isEmpty { return try Insert(records).execute(self) }
        return try savepoint(nil) {
            var saved: [Records.Element] = []
            saved.reserveCapacity(records.count)
            var pending: [Records.Element] = []
            for record in records {
                if !Records.Element.primaryKeyValues(record.primaryKey).allSatisfy(isNullArgument), try update(record) {
                    saved += try Insert(pending).execute(self)
                    pending = []
                    saved.append(record)
                } else {
                    pending.append(record)
                }
            }
            saved += try Insert(pending).execute(self)
            return saved
        }
    }
}

extension Database {
    /// The record whose primary key has `keyValues`, through the statement kept for `Record`'s key
    /// lookups (a connection attachment): rendered once per record type and connection, found
    /// again without hashing its text, the key bound by position, the row decoded by position.
    /// The fast path of `Record.find(key).fetchOne(db)`, which passes the key values alone, so
    /// that the query itself is never copied.
    ///
    /// Inlined into the client, so that the record decodes through its own specialized
    /// `init(row:)`; ``findStatement(_:keyValues:)`` does the rest.
    @inlinable
    package func findRecord<Record: PrimaryKeyedTable>(_ type: Record.Type, keyValues: PrimaryKeyValues) throws
        -> Record?
    {
        guard let statement = try findStatement(Record.self, keyValues: keyValues) else { return nil }
        defer { statement.checkInAndReset() }
        return try Record(row: Row(statement: statement))
    }

    /// The statement kept for `Record`'s key lookups, with `keyValues` bound and stepped to the
    /// found row, checked out: the caller decodes the row, then checks it in and resets it.
    /// Returns `nil` (the statement checked in and reset) when no row has the key.
    @usableFromInline
    package func findStatement<Record: PrimaryKeyedTable>(_ type: Record.Type, keyValues: PrimaryKeyValues) throws
        -> Statement?
    {
        let find = try attachment(RecordSQL.self, for: Record.self, variant: RecordSQL.Kind.findByPrimaryKey.rawValue) {
            // The first key's values stand for every key of the type: the same types, so the same
            // SQL (a UUID is collated); they are bound anew on each lookup.
            let keyCount = Record.schema.primaryKey.count
            var select = Select<Record>()
            select.clauses.predicates.append(
                Record.primaryKeyPredicate(values: keyValues.array, qualifier: Record.tableName))
            // No `LIMIT`: the statement is stepped once and reset, so a limit would only add a
            // parameter to bind on every lookup.
            let sql = try select.clauses.render().sqliteStatement()
            return RecordSQL(
                text: sql.text, parameterCount: keyCount, trailingArguments: Array(sql.arguments.dropFirst(keyCount)))
        }
        guard keyValues.count == find.parameterCount else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(Record.self).encode(primaryKey:to:) handed out \(keyValues.count) value(s) for the "
                    + "\(find.parameterCount) primary key column(s)",
                sql: find.text)
        }
        let statement = try cachedStatement(find.statement)
        if isRecordingRegion, let hint = Record.rowIDHint(primaryKeyValues: keyValues.array) {
            noteRowIDHint(hint, for: statement)
        }
        statement.isCheckedOut = true
        var found = false
        defer {
            if !found {
                statement.isCheckedOut = false
                statement.resetQuietly()
            }
        }
        var index = try keyValues.bind(to: statement)
        for argument in find.trailingArguments {
            try bindArgument(argument, to: statement, at: index)
            index += 1
        }
        guard try statement.step() else { return nil }
        found = true
        return statement
    }
}

/// `UPDATE "Table" SET <every other column> WHERE <primary key>` for one record.
///
/// The statement uses numbered parameters, so that ``Table/bindColumns(to:startingAt:)`` binds
/// every column once, in column order:
///
/// ```sql
/// UPDATE "person" SET "name" = ?2, "age" = ?3 WHERE "id" = ?1
/// ```
///
/// A table whose columns all belong to the key sets them to themselves, so the statement still
/// reports whether the row exists.
package struct UpdateRecord<Root: PrimaryKeyedTable>: QueryStatement {
    /// The record to write.
    public var record: Root

    /// An update of `record`'s row.
    package init(_ record: Root) {
        self.record = record
    }

    /// The statement's SQL, with the record's values in parameter order.
    package var sql: SQL {
        // The numbered parameters take the record's values, in column order.
        let template = Root.updateByPrimaryKeySQL()
        var sql = SQL(.raw(template.text, record.columnValues))
        if let error = template.buildError { sql.append(.failure(error)) }
        return sql
    }

    /// Runs the update. Returns whether a row has the record's primary key.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` when `Root` declares no primary key
    ///   column, and any error of the update.
    @discardableResult
    package func execute(_ db: Database) throws -> Bool {
        try Root.prepareForWriting(db)
        let update = try db.attachment(
            RecordSQL.self, for: Root.self, variant: RecordSQL.Kind.updateByPrimaryKey.rawValue
        ) {
            let sql = Root.updateByPrimaryKeySQL()
            try sql.checkBuildError()
            return RecordSQL(text: sql.text, parameterCount: Root.schema.recordColumns.count, trailingArguments: [])
        }
        let statement = try db.cachedStatement(update.statement)
        statement.isCheckedOut = true
        defer {
            statement.isCheckedOut = false
            statement.resetQuietly()
        }
        try record.bindColumns(to: statement, startingAt: 1)
        do {
            try statement.run()
        } catch let error as DatabaseError {
            throw statement.reporting(record.columnValues, in: error)
        }
        return db.changesCount > 0
    }
}

extension PrimaryKeyedTable {
    /// The record with primary key `key`: `try Person.find(1).fetchOne(db)`. A composite key is a
    /// tuple: `PlaylistTrack.find((1, 3402))`.
    ///
    /// `fetchOne` runs it through a statement prepared once per record type and connection, with
    /// the key bound by position; adding clauses makes it an ordinary query.
    @inlinable
    public static func find(_ key: PrimaryKey) -> Select<Self> {
        var collector = PrimaryKeyValues.Collector()
        encode(primaryKey: key, to: &collector)
        return Select(primaryKeyValues: collector.values)
    }
}

/// SQL text rendered once per table type and connection (a ``Database`` attachment), and its cached
/// statement: the caller binds `parameterCount` values, followed by `trailingArguments` (such as
/// the `LIMIT`).
@usableFromInline
package final class RecordSQL {
    /// Which statement: the attachment's variant.
    enum Kind: Int {
        case findByPrimaryKey
        case updateByPrimaryKey
    }

    let text: String
    let parameterCount: Int
    let trailingArguments: [(any SQLBindable)?]
    /// The statement in the connection's cache, found again without hashing `text`.
    let statement: CachedStatementReference

    init(text: String, parameterCount: Int, trailingArguments: [(any SQLBindable)?]) {
        self.text = text
        self.parameterCount = parameterCount
        self.trailingArguments = trailingArguments
        self.statement = CachedStatementReference(sql: text)
    }
}

/// The values of a primary key, in key order, kept without an existential for a leading `Int` or
/// `Int64` value: what `Record.find(key)` holds until `fetchOne` binds them. An integer key is
/// plain data beside an empty array, so copying and destroying it takes no value-witness call.
@usableFromInline
package struct PrimaryKeyValues: Sendable {
    /// The first value, when it is an integer (`hasFirstInteger`).
    @usableFromInline var firstInteger: Int64 = 0
    /// Whether the first value is `firstInteger` rather than `others[0]`.
    @usableFromInline var hasFirstInteger = false
    /// The values after `firstInteger`, or all of them when the first is not an integer.
    @usableFromInline var others: [any SQLBindable] = []

    /// No values.
    @usableFromInline
    init() {}

    /// The number of values.
    var count: Int { (hasFirstInteger ? 1 : 0) + others.count }

    /// The values, in key order (an integer key as `Int64`).
    var array: [any SQLBindable] {
        hasFirstInteger ? [firstInteger] + others : others
    }

    /// Binds the values to parameters 1, 2, …; returns the next parameter.
    func bind(to statement: Statement) throws -> Int {
        var index = 1
        if hasFirstInteger {
            try statement.bindInt64(firstInteger, at: 1)
            index = 2
        }
        for value in others {
            try value.bind(to: statement, at: index)
            index += 1
        }
        return index
    }

    /// Collects the values a record type's `encode(primaryKey:to:)` hands out. Inlinable, so
    /// that `find(key)` specializes it for the key's type in the client.
    @usableFromInline
    struct Collector: ColumnEncoder {
        @usableFromInline var values = PrimaryKeyValues()

        @usableFromInline
        init() {}

        @inlinable
        mutating func encode<Value: SQLBindable>(_ value: Value) {
            if !values.hasFirstInteger && values.others.isEmpty {
                // Specialized for the key's type (`find(key)` is inlined into its caller), each
                // cast folds to nothing or to the value itself.
                if let integer = value as? Int {
                    values.firstInteger = Int64(integer)
                    values.hasFirstInteger = true
                    return
                }
                if let integer = value as? Int64 {
                    values.firstInteger = integer
                    values.hasFirstInteger = true
                    return
                }
            }
            values.others.append(value)
        }
    }
}
