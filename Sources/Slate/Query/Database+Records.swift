// One-record conveniences: insert, upsert, update, delete, find and save, on `Database` and on the
// table type.

extension Table {
    /// `"q"."k1" = ? AND "q"."k2" = ?` for the primary key, and an error when `arguments` do not
    /// match its columns. On error the predicate matches nothing, so a statement built from it can
    /// never touch the wrong rows.
    static func primaryKeyPredicate(_ arguments: [(any SQLBindable)?], qualifier: String) -> (SQLExpression<Bool>, DatabaseError?) {
        let columns = primaryKeyColumnNames
        if columns.isEmpty {
            let error = DatabaseError(
                resultCode: .misuse,
                message: "\(Self.self) declares no primary key column: give a ColumnDescriptor a primaryKeyPosition")
            return (SQLExpression(sql: "0", precedence: .atomic), error)
        }
        var error: DatabaseError?
        if arguments.count != columns.count {
            error = DatabaseError(
                resultCode: .misuse,
                message: "\(Self.self).primaryKeyArguments returned \(arguments.count) value(s) for the \(columns.count)"
                    + " primary key column(s) \(columns.joined(separator: ", "))")
        }
        let prefix = qualifier.quotedIdentifier + "."
        let predicates = columns.enumerated().map { index, column -> SQL in
            let value: (any SQLBindable)? = index < arguments.count ? arguments[index] : nil
            return SQL(sql: prefix + column.quotedIdentifier + " = ?", arguments: StatementArguments([value]))
        }
        let predicate = SQLExpression<Bool>(
            sql: SQL.joined(predicates, separator: " AND "), precedence: predicates.count == 1 ? .equality : .and)
        return (predicate, error)
    }

    /// `UPDATE "t" SET "a" = ?2, "b" = ?3 WHERE "id" = ?1`: numbered parameters, so that
    /// ``bindColumns(to:startingAt:)`` binds every column once. A table whose columns all belong to
    /// the key sets them to themselves, so the statement still reports whether the row exists.
    static func updateByPrimaryKeySQL() throws -> String {
        let indexes = primaryKeyColumnIndexes
        guard !indexes.isEmpty else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(Self.self) declares no primary key column: give a ColumnDescriptor a primaryKeyPosition")
        }
        let columns = columnDescriptors
        let parameter = { (index: Int) in columns[index].name.quotedIdentifier + " = ?\(index + 1)" }
        var assigned = columns.indices.filter { columns[$0].primaryKeyPosition == nil }
        if assigned.isEmpty { assigned = indexes }
        return "UPDATE " + tableName.quotedIdentifier + " SET " + assigned.map(parameter).joined(separator: ", ")
            + " WHERE " + indexes.map(parameter).joined(separator: " AND ")
    }
}

extension Database {
    /// Inserts `record` and returns it as inserted, with ``Table/didInsert(rowID:)`` called (so an
    /// `INTEGER PRIMARY KEY` holds the new rowid).
    ///
    /// With `or: .ignore`, a record that was not inserted is returned unchanged.
    ///
    /// - Throws: ``DatabaseError``, such as ``ResultCode/constraint`` for a constraint violation.
    @discardableResult
    public func insert<Record: Table>(_ record: Record, or conflictResolution: ConflictResolution? = nil) throws -> Record {
        try Insert([record], or: conflictResolution).execute(self).first ?? record
    }

    /// Inserts every record with one prepared statement, inside a savepoint: if one fails, none is
    /// inserted. Returns the records as inserted.
    @discardableResult
    public func insert<Records: Sequence>(
        contentsOf records: Records, or conflictResolution: ConflictResolution? = nil
    ) throws -> [Records.Element] where Records.Element: Table {
        try Insert(Array(records), or: conflictResolution).execute(self)
    }

    /// Inserts `record`, or updates the other columns of the row with the same primary key, and
    /// returns the row as stored. See ``Table/upsert(_:)``.
    @discardableResult
    public func upsert<Record: Table>(_ record: Record) throws -> Record {
        try Record.upsert(record).execute(self).first ?? record
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

    /// Deletes the row with primary key `key`. Returns whether there was one.
    @discardableResult
    public func delete<Record: PrimaryKeyedTable>(_ type: Record.Type, key: Record.PrimaryKey) throws -> Bool {
        try Record.delete(key: key).execute(self) > 0
    }

    /// The record with primary key `key`, or `nil`. A composite key is a tuple:
    /// `try db.find(PlaylistTrack.self, key: (1, 3402))`.
    ///
    /// The SQL is rendered once per record type and connection; each later call binds the key to
    /// the cached statement and decodes the row by position.
    public func find<Record: PrimaryKeyedTable>(_ type: Record.Type, key: Record.PrimaryKey) throws -> Record? {
        let cacheKey = RecordSQLKey(Record.self, .findByPrimaryKey)
        let rendered: RecordSQL
        if let cached = recordSQLCache[cacheKey] {
            rendered = cached
        } else {
            let select = Record.find(key)
            if let error = select.clauses.deferredError { throw error }
            let sql = select.clauses.renderForOne()
            let keyCount = Record.primaryKeyColumnNames.count
            rendered = RecordSQL(text: sql.text, parameterCount: keyCount, trailingArguments: Array(sql.arguments.positional.dropFirst(keyCount)))
            recordSQLCache[cacheKey] = rendered
        }
        var arguments = Record.primaryKeyArguments(key)
        guard arguments.count == rendered.parameterCount else {
            return try Record.find(key).fetchOne(self)  // throws the arity error
        }
        arguments += rendered.trailingArguments
        return try withStatement(SQL(sql: rendered.text, arguments: StatementArguments(arguments))) { statement in
            guard try statement.step() else { return nil }
            return try Record(row: Row(statement: statement))
        }
    }

    /// Updates the record's row, or inserts the record when its primary key is `nil` or no row has
    /// it. Returns the record as saved.
    @discardableResult
    public func save<Record: PrimaryKeyedTable>(_ record: Record) throws -> Record {
        if !record.primaryKeyValues.allSatisfy(isNullArgument), try update(record) {
            return record
        }
        return try insert(record)
    }
}

/// `UPDATE "Table" SET <every other column> WHERE <primary key>` for one record.
///
/// The statement uses numbered parameters, so that ``Table/bindColumns(to:startingAt:)`` binds every
/// column once, in column order:
///
/// ```sql
/// UPDATE "person" SET "name" = ?2, "age" = ?3 WHERE "id" = ?1
/// ```
///
/// A table whose columns all belong to the key sets them to themselves, so the statement still
/// reports whether the row exists.
public struct UpdateRecord<Root: PrimaryKeyedTable>: QueryStatement {
    /// The record to write.
    public var record: Root

    /// An update of `record`'s row.
    public init(_ record: Root) {
        self.record = record
    }

    /// The statement's SQL, with the record's values in parameter order.
    public var sql: SQL {
        let text = (try? Root.updateByPrimaryKeySQL()) ?? ""
        let values = (try? RecordValues.capture(record)) ?? []
        return SQL(sql: text, arguments: StatementArguments(values))
    }

    /// Runs the update. Returns whether a row has the record's primary key.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` when `Root` declares no primary key
    ///   column, and any error of the update.
    @discardableResult
    public func execute(_ db: Database) throws -> Bool {
        let cacheKey = RecordSQLKey(Root.self, .updateByPrimaryKey)
        let text: String
        if let cached = db.recordSQLCache[cacheKey] {
            text = cached.text
        } else {
            text = try Root.updateByPrimaryKeySQL()
            db.recordSQLCache[cacheKey] = RecordSQL(text: text, parameterCount: Root.columnDescriptors.count, trailingArguments: [])
        }
        let statement = try db.cachedStatement(sql: text)
        statement.isCheckedOut = true
        defer {
            statement.isCheckedOut = false
            statement.resetQuietly()
        }
        try record.bindColumns(to: statement, startingAt: 1)
        try statement.run()
        return db.changesCount > 0
    }
}

extension PrimaryKeyedTable {
    /// The update of `record`'s row: `Person.update(person).execute(db)`.
    public static func update(_ record: Self) -> UpdateRecord<Self> {
        UpdateRecord(record)
    }

    /// The record with primary key `key`: `Person.find(1).fetchOne(db)`.
    public static func find(_ key: PrimaryKey) -> Select<Self> {
        var select = Select<Self>()
        let (predicate, error) = primaryKeyPredicate(primaryKeyArguments(key), qualifier: tableName)
        select.clauses.predicates.append(predicate)
        select.clauses.deferredError = error
        return select
    }

    /// The record with primary key `key`, or `nil`: `try Person.find(1, in: db)`.
    public static func find(_ key: PrimaryKey, in db: Database) throws -> Self? {
        try db.find(Self.self, key: key)
    }
}

/// SQL text rendered once per table type: the caller binds `parameterCount` values, followed by
/// `trailingArguments` (such as the `LIMIT`).
struct RecordSQL {
    let text: String
    let parameterCount: Int
    let trailingArguments: [(any SQLBindable)?]
}

/// Identifies SQL text rendered once per table type, in ``Database``'s record SQL cache.
struct RecordSQLKey: Hashable {
    enum Kind: Hashable {
        case findByPrimaryKey
        case updateByPrimaryKey
    }

    let type: ObjectIdentifier
    let kind: Kind

    init(_ type: Any.Type, _ kind: Kind) {
        self.type = ObjectIdentifier(type)
        self.kind = kind
    }
}
