// Query APIs. Every method exists in two spellings: an interpolated `SQL` literal whose values are
// bound (`"… WHERE id = \(id)"`), and `sql:arguments:` for SQL text held in a string.
// Statements are cached by their text, so running the same query again does not re-parse it.

extension Database {
    /// Runs `sql` with the statement checked out of the cache, then resets it.
    @inlinable
    package func withStatement<Result>(_ sql: SQL, _ body: (Statement) throws -> Result) throws -> Result {
        let statement = try boundStatement(sql)
        statement.isCheckedOut = true
        defer {
            statement.isCheckedOut = false
            statement.resetQuietly()
        }
        return try body(statement)
    }

    // MARK: Single values

    /// The first column of every row, as `Value`.
    @inlinable
    public func fetchAll<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) throws -> [Value] {
        try withStatement(sql) { statement in
            var values: [Value] = []
            while try statement.step() {
                values.append(try Value.extract(from: Row(statement: statement), at: 0))
            }
            return values
        }
    }

    /// The first column of the first row, or `nil` when there is no row or the value is `NULL`.
    @inlinable
    public func fetchOne<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) throws -> Value? {
        try withStatement(sql) { statement in
            guard try statement.step() else { return nil }
            return try Value?.extract(from: Row(statement: statement), at: 0)
        }
    }

    /// The first column of the first row. Ask for an optional type to accept `NULL`:
    /// `try db.fetchValue(Int?.self, "SELECT max(score) FROM player")`.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/notFound`` when the query returns no row.
    @inlinable
    public func fetchValue<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) throws -> Value {
        try withStatement(sql) { statement in
            guard try statement.step() else {
                throw DatabaseError(resultCode: .notFound, message: "the query returned no row", sql: sql.text)
            }
            return try Value.extract(from: Row(statement: statement), at: 0)
        }
    }

    /// A cursor over the first column of each row.
    public func fetchCursor<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) throws -> DatabaseCursor<Value> {
        DatabaseCursor(statement: try boundStatement(sql)) { try Value.extract(from: $0, at: 0) }
    }

    // MARK: Records and rows

    /// Every row, decoded as `Record`. Ask for `CopiedRow.self` to get the rows themselves.
    @inlinable
    public func fetchAll<Record: RowDecodable>(_ type: Record.Type, _ sql: SQL) throws -> [Record] {
        try withStatement(sql) { statement in
            var records: [Record] = []
            while try statement.step() {
                records.append(try Record(row: Row(statement: statement)))
            }
            return records
        }
    }

    /// The first row decoded as `Record`, or `nil` when there is none.
    @inlinable
    public func fetchOne<Record: RowDecodable>(_ type: Record.Type, _ sql: SQL) throws -> Record? {
        try withStatement(sql) { statement in
            guard try statement.step() else { return nil }
            return try Record(row: Row(statement: statement))
        }
    }

    /// A cursor decoding each row as `Record`, one at a time.
    @inlinable
    public func fetchCursor<Record: RowDecodable>(_ type: Record.Type, _ sql: SQL) throws -> RecordCursor<Record> {
        RecordCursor(statement: try boundStatement(sql))
    }

    /// Every row, transformed by `transform`.
    @inlinable
    public func fetchAll<Element>(_ sql: SQL, _ transform: (borrowing Row) throws -> Element) throws -> [Element] {
        try withStatement(sql) { statement in
            var elements: [Element] = []
            while try statement.step() { elements.append(try transform(Row(statement: statement))) }
            return elements
        }
    }

    /// A dictionary from the first column to the second; later rows win on duplicate keys.
    @inlinable
    public func fetchDictionary<Key: SQLExtractable & Hashable, Value: SQLExtractable>(
        _ keyType: Key.Type, _ valueType: Value.Type, _ sql: SQL
    ) throws -> [Key: Value] {
        try withStatement(sql) { statement in
            var dictionary: [Key: Value] = [:]
            while try statement.step() {
                let row = Row(statement: statement)
                dictionary[try Key.extract(from: row, at: 0)] = try Value.extract(from: row, at: 1)
            }
            return dictionary
        }
    }

    /// A dictionary built from each row by `transform`; later rows win on duplicate keys.
    @inlinable
    public func fetchDictionary<Key: Hashable, Value>(
        _ sql: SQL, _ transform: (borrowing Row) throws -> (Key, Value)
    ) throws -> [Key: Value] {
        try withStatement(sql) { statement in
            var dictionary: [Key: Value] = [:]
            while try statement.step() {
                let (key, value) = try transform(Row(statement: statement))
                dictionary[key] = value
            }
            return dictionary
        }
    }

    // MARK: String SQL spellings

    /// The first column of every row. See ``fetchAll(_:_:)-(Value.Type,_)``.
    @inlinable
    public func fetchAll<Value: SQLExtractable>(_ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Value] {
        try fetchAll(type, SQL(sql: sql, arguments: arguments))
    }

    /// The first column of the first row, or `nil`.
    @inlinable
    public func fetchOne<Value: SQLExtractable>(_ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Value? {
        try fetchOne(type, SQL(sql: sql, arguments: arguments))
    }

    /// The first column of the first row; throws ``ResultCode/notFound`` when there is no row.
    @inlinable
    public func fetchValue<Value: SQLExtractable>(_ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Value {
        try fetchValue(type, SQL(sql: sql, arguments: arguments))
    }

    /// Every row decoded as `Record`.
    @inlinable
    public func fetchAll<Record: RowDecodable>(_ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Record] {
        try fetchAll(type, SQL(sql: sql, arguments: arguments))
    }

    /// The first row decoded as `Record`, or `nil`.
    @inlinable
    public func fetchOne<Record: RowDecodable>(_ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Record? {
        try fetchOne(type, SQL(sql: sql, arguments: arguments))
    }

    /// A cursor decoding each row as `Record`.
    @inlinable
    public func fetchCursor<Record: RowDecodable>(_ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> RecordCursor<Record> {
        try fetchCursor(type, SQL(sql: sql, arguments: arguments))
    }

    /// A cursor over the first column of each row.
    public func fetchCursor<Value: SQLExtractable>(_ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()) throws -> DatabaseCursor<Value> {
        try fetchCursor(type, SQL(sql: sql, arguments: arguments))
    }
}
