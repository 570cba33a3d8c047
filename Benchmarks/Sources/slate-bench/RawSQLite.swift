import CSQLite

// Thin helpers over the SQLite C API, used to build fixtures and by the `raw` contenders, whose
// hot loops call `sqlite3_*` directly. Nothing here is timed except through those loops.

struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// One `sqlite3 *` connection, closed on deinit.
final class RawConnection {
    let handle: OpaquePointer

    init(path: String, readOnly: Bool = false) throws {
        var connection: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: code, message: message)
        }
        handle = connection
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Creates `item` and fills it with `items` in one transaction: the fetch scenarios' fixture.
    func createItemTable(_ items: [Item]) throws {
        try execute(Item.createTable)
        try transaction { try insert(items) }
    }

    /// Runs one or more statements, discarding rows.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// Prepares one statement. The caller finalizes it (or wraps it in ``RawStatement``).
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in \(sql)") }
        return statement
    }

    /// The integer columns of the single row `sql` returns.
    func integers(_ sql: String) throws -> [Int64] {
        let statement = try RawStatement(self, sql)
        guard sqlite3_step(statement.handle) == SQLITE_ROW else { throw failure(sql) }
        return (0..<sqlite3_column_count(statement.handle)).map { sqlite3_column_int64(statement.handle, $0) }
    }

    func check(_ code: Int32) throws {
        if code != SQLITE_OK { throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle))) }
    }

    func failure(_ context: String) -> SQLiteError {
        SQLiteError(code: sqlite3_errcode(handle), message: "\(String(cString: sqlite3_errmsg(handle))) (\(context))")
    }

    /// Runs `body` between BEGIN and COMMIT.
    func transaction(_ body: () throws -> Void) throws {
        try execute("BEGIN")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Inserts `items` into `item` with one prepared statement.
    func insert(_ items: some Sequence<Item>) throws {
        let statement = try RawStatement(self, Item.insert)
        for item in items {
            statement.bind(item, startingAt: 1)
            guard sqlite3_step(statement.handle) == SQLITE_DONE else { throw failure("insert item") }
            sqlite3_reset(statement.handle)
        }
    }

    /// Inserts `items` into `keyed_item` with one prepared statement.
    func insert(_ items: some Sequence<KeyedItem>) throws {
        let statement = try RawStatement(self, KeyedItem.insert)
        for keyed in items {
            sqlite3_bind_int64(statement.handle, 1, Int64(keyed.id))
            statement.bind(keyed.item, startingAt: 2)
            guard sqlite3_step(statement.handle) == SQLITE_DONE else { throw failure("insert keyed_item") }
            sqlite3_reset(statement.handle)
        }
    }
}

/// A prepared statement, finalized on deinit.
final class RawStatement {
    let handle: OpaquePointer
    private let connection: RawConnection  // keeps the connection open while the statement lives

    init(_ connection: RawConnection, _ sql: String) throws {
        self.connection = connection
        handle = try connection.prepare(sql)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds the ten columns of `item` to parameters `first` … `first + 9`.
    @inline(__always)
    func bind(_ item: Item, startingAt first: Int32) {
        sqlite3_bind_int64(handle, first, Int64(item.i0))
        sqlite3_bind_int64(handle, first + 1, Int64(item.i1))
        sqlite3_bind_int64(handle, first + 2, Int64(item.i2))
        sqlite3_bind_int64(handle, first + 3, Int64(item.i3))
        sqlite3_bind_int64(handle, first + 4, Int64(item.i4))
        sqlite3_bind_int64(handle, first + 5, Int64(item.i5))
        sqlite3_bind_int64(handle, first + 6, Int64(item.i6))
        sqlite3_bind_int64(handle, first + 7, Int64(item.i7))
        sqlite3_bind_int64(handle, first + 8, Int64(item.i8))
        sqlite3_bind_int64(handle, first + 9, Int64(item.i9))
    }

    /// Steps through every row (after binding, if any), reading each with `read`, then resets the
    /// statement: the `raw` contenders' loop.
    @inline(__always)
    func readAll<Record>(_ read: (RawStatement) -> Record) throws -> [Record] {
        var records: [Record] = []
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW {
            records.append(read(self))
            code = sqlite3_step(handle)
        }
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else { throw connection.failure(String(cString: sqlite3_sql(handle))) }
        return records
    }

    /// Reads ten integer columns starting at `first` into an `Item`.
    @inline(__always)
    func item(startingAt first: Int32) -> Item {
        Item(
            i0: Int(sqlite3_column_int64(handle, first)),
            i1: Int(sqlite3_column_int64(handle, first + 1)),
            i2: Int(sqlite3_column_int64(handle, first + 2)),
            i3: Int(sqlite3_column_int64(handle, first + 3)),
            i4: Int(sqlite3_column_int64(handle, first + 4)),
            i5: Int(sqlite3_column_int64(handle, first + 5)),
            i6: Int(sqlite3_column_int64(handle, first + 6)),
            i7: Int(sqlite3_column_int64(handle, first + 7)),
            i8: Int(sqlite3_column_int64(handle, first + 8)),
            i9: Int(sqlite3_column_int64(handle, first + 9)))
    }

    /// A nullable TEXT column.
    @inline(__always)
    func optionalString(at index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        return String(
            decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }

    /// A TEXT column the schema declares NOT NULL (a NULL would read as `""`).
    @inline(__always)
    func string(at index: Int32) -> String {
        optionalString(at: index) ?? ""
    }

    /// A nullable INTEGER column.
    @inline(__always)
    func optionalInt(at index: Int32) -> Int? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, index))
    }

    /// A nullable REAL column.
    @inline(__always)
    func optionalDouble(at index: Int32) -> Double? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_double(handle, index)
    }
}

/// The SQLite library version, such as `3.40.1`.
var sqliteLibraryVersion: String { String(cString: sqlite3_libversion()) }

/// Deterministic pseudo-random numbers (SplitMix64), for shuffles that must repeat run to run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
