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
            try statement.collectRows { row in try Value.extract(from: row, at: 0) }
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
            try statement.collectRows { row in try Record(row: row) }
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
            try statement.collectRows(transform)
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
    public func fetchAll<Value: SQLExtractable>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Value] {
        try fetchAll(type, SQL(sql: sql, arguments: arguments))
    }

    /// The first column of the first row, or `nil`.
    @inlinable
    public func fetchOne<Value: SQLExtractable>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Value? {
        try fetchOne(type, SQL(sql: sql, arguments: arguments))
    }

    /// The first column of the first row; throws ``ResultCode/notFound`` when there is no row.
    @inlinable
    public func fetchValue<Value: SQLExtractable>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Value {
        try fetchValue(type, SQL(sql: sql, arguments: arguments))
    }

    /// Every row decoded as `Record`.
    @inlinable
    public func fetchAll<Record: RowDecodable>(
        _ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> [Record] {
        try fetchAll(type, SQL(sql: sql, arguments: arguments))
    }

    /// The first row decoded as `Record`, or `nil`.
    @inlinable
    public func fetchOne<Record: RowDecodable>(
        _ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> Record? {
        try fetchOne(type, SQL(sql: sql, arguments: arguments))
    }

    /// A cursor decoding each row as `Record`.
    @inlinable
    public func fetchCursor<Record: RowDecodable>(
        _ type: Record.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> RecordCursor<Record> {
        try fetchCursor(type, SQL(sql: sql, arguments: arguments))
    }

    /// A cursor over the first column of each row.
    public func fetchCursor<Value: SQLExtractable>(
        _ type: Value.Type, sql: String, arguments: StatementArguments = StatementArguments()
    ) throws -> DatabaseCursor<Value> {
        try fetchCursor(type, SQL(sql: sql, arguments: arguments))
    }
}

extension Statement {
    /// Steps through every row and returns one element per row, built by `element` from the row.
    ///
    /// What the `fetchAll` methods of `Database` run. Each element is stored straight into the
    /// result's storage, with no `append` per row (a call to check that the array is uniquely
    /// referenced, and a capacity check): about 24 instructions per row fewer. When the storage is
    /// full and rows remain, the elements move (bitwise, no reference counting) into a result twice
    /// as large, as `append` grows an array. A failed step or a throwing `element` destroys the
    /// elements built so far and rethrows.
    @inlinable
    package func collectRows<Element>(_ element: (borrowing Row) throws -> Element) throws -> [Element] {
        guard try step() else { return [] }
        return try collectRows(capacity: 8, movingFrom: nil, count: 0, element)
    }

    /// A result of `capacity` elements: the `count` elements moved from `previous` (which no longer
    /// owns them), then one per row from the current row on; continued in a result twice as large
    /// when full with rows left.
    ///
    /// Never inlined (it is still specialized for the caller's element and closure): inlined into
    /// ``collectRows(_:)`` and into itself, its first levels (the first 504 rows) ran in copies
    /// where the row's reads were calls, about 50 instructions a value more.
    @inlinable @inline(never)
    package func collectRows<Element>(
        capacity: Int, movingFrom previous: UnsafeMutablePointer<Element>?, count previousCount: Int,
        _ element: (borrowing Row) throws -> Element
    ) throws -> [Element] {
        var larger: [Element]?
        let result = try [Element](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            guard let base = buffer.baseAddress, buffer.count > previousCount else {
                // Not reached: the capacity is at least 8 and twice the moved count. Rather than
                // lose the moved elements, destroy them and fail.
                previous?.deinitialize(count: previousCount)
                throw DatabaseError(resultCode: .noMemory, message: "no storage for the fetched rows", sql: sql)
            }
            var count = 0
            if let previous {
                base.moveInitialize(from: previous, count: previousCount)
                count = previousCount
            }
            // `initialized` is set once, on the way out: on failure, to the elements built so far;
            // when full, it stays 0 and the larger result takes the elements.
            var isFull = false
            do {
                // The statement is on a row.
                while true {
                    (base + count).initialize(to: try element(Row(statement: self)))
                    count &+= 1
                    guard try step() else { break }
                    if count == buffer.count {
                        isFull = true
                        break
                    }
                }
            } catch {
                initialized = count
                throw error
            }
            if isFull {
                larger = try collectRows(capacity: count * 2, movingFrom: base, count: count, element)
            } else {
                initialized = count
            }
        }
        return larger ?? result
    }
}
