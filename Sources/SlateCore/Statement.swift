import CSQLite
import Foundation

/// A prepared SQL statement.
///
/// Prepare one with ``Database/prepare(_:)``, or let the fetch and execute APIs prepare and cache
/// them for you. Bind values, then ``step()`` through rows or ``run()`` to completion:
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO car(name, price) VALUES (?, ?)")
/// try insert.bind("Audi", 52_642).run()
/// try insert.reset().bind("Mercedes", 57_127).run()
/// ```
///
/// A statement belongs to the connection that prepared it and, like it, is used from one thread
/// at a time.
public final class Statement {
    // More than 15 stored properties, on purpose: the per-step and per-row state (checkout, column
    // checks) is read on every step, so it stays in this one object; the reads by name are in the
    // statement's `NamedReadLog`, which inlined reads reach without a dynamic exclusivity check.
    /// The raw `sqlite3_stmt *` handle.
    public let handle: OpaquePointer
    /// The connection's `sqlite3 *` handle.
    @usableFromInline package let connection: OpaquePointer
    /// The SQL text the statement was prepared from.
    public let sql: String
    /// How `Date` values are bound and read.
    public let dateStrategy: DateStrategy
    @usableFromInline package let includesArgumentsInErrors: Bool
    /// Arguments bound through ``bind(_:)-(StatementArguments)``, kept for error reports.
    @usableFromInline package var lastArguments: StatementArguments?
    // The per-row and per-call state below is internal and used only by this module's code (no
    // inlinable code reads it): the compiler then sees every access, finds that none overlaps
    // another, and checks none of them at run time. A stored property that code of another module
    // accesses directly costs a dynamic exclusivity check (`swift_beginAccess`) per access.

    /// Set while a cursor or fetch owns the statement, so the cache hands out another one.
    /// (Inlinable code calls its accessors, which are not inlinable.)
    @usableFromInline package var isCheckedOut: Bool {
        get { checkedOut }
        set { checkedOut = newValue }
    }
    private var checkedOut = false
    /// Whether ``step()`` returned the end of the rows (`SQLITE_DONE`) and no reset followed: SQLite
    /// refuses new bindings until the statement is reset. Cleared by ``reset()`` and
    /// ``resetQuietly()``.
    var finishedWithoutReset = false
    /// Whether the statement must be reset before it runs again: it is on a row (`sqlite3_stmt_busy`)
    /// or stopped at the end of its rows. A statement reset since its last step needs none, which
    /// spares a key lookup through a cached statement a second `sqlite3_reset` per call.
    var needsReset: Bool {
        finishedWithoutReset || sqlite3_stmt_busy(handle) != 0
    }
    /// Whether the statement is an `EXPLAIN` or `EXPLAIN QUERY PLAN`: SQLite leaves such a
    /// statement active after `SQLITE_DONE`, so ``step()`` resets it then.
    @usableFromInline package let isExplain: Bool
    private var columnIndexCache: [String: Int32]?
    /// The reads by name of this statement's rows, in memory of its own (see ``NamedReadLog``):
    /// allocated once the statement is prepared (the last thing an initializer does, so that an
    /// initializer that throws leaves nothing allocated), freed in `deinit`, and read by the
    /// inlined fast path of `Row.read(_:named:)` through the row.
    @usableFromInline package let namedReadLog: UnsafeMutablePointer<NamedReadLog>
    private var cachedColumnNames: [String]?
    private var cachedRowLayout: RowLayout?
    /// Whether something was learned from the result columns (their names, the positions of reads
    /// by name, a Codable decoder's key order through ``columnsToken``): before it is used, a
    /// check that SQLite did not re-prepare the statement since (``checkColumnState()``). SQLite
    /// re-prepares a statement transparently after a schema change, and its columns can change
    /// with it — `SELECT *` after a dropped column, or a table recreated in another column order —
    /// so a position learned before would read another column.
    private var keepsColumnState = false
    /// Whether a run may have started since the column state was last checked: set when the
    /// statement is reset, finishes or fails (SQLite re-prepares a statement only in the first
    /// step of a run), cleared by a check made while the statement is on a row. So the state is
    /// checked once per run, not once per row: reads by name test this flag and nothing else.
    var columnStateNeedsCheck: Bool {
        get { namedReadLog.pointee.columnStateNeedsCheck }
        set { namedReadLog.pointee.columnStateNeedsCheck = newValue }
    }
    /// SQLite's count of re-preparations when the column state was learned; -1 when the library
    /// cannot tell (the column names are compared instead).
    private var columnStateReprepareCount: Int32 = 0
    private var columnsTokenStorage: ColumnsToken?
    /// Objects that higher layers attach to this statement: a Codable record's decoder, which
    /// learns the key order of the statement's rows; its binder.
    let attachments = Attachments()
    /// The live-query tracker that keeps this statement's footprint, told when it is finalized.
    var tracker: RegionTracker?
    /// The connection's instrumentation, told when a step fails (its trace events cannot say so).
    let instrumented: ConnectionInstrumentation?

    init(database: Database, sql: String, persistent: Bool) throws {
        try database.checkOpen()
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        // With live queries on the connection, the authorizer's reports while SQLite compiles the
        // statement are its footprint: what it reads and writes.
        let tracker = database.regionTracker
        var footprint: FootprintBuilder?
        let code = sql.withCString { cString -> Int32 in
            tracker?.beginCapture()
            let code = sqlite3_prepare_v3(database.handle, cString, -1, flags, &statement, &tail)
            footprint = tracker?.endCapture()
            if code == SQLITE_OK, statement != nil, let tail {
                return Self.checkNothingFollows(tail, connection: database.handle)
            }
            return code
        }
        if code == SQLITE_MISUSE {
            sqlite3_finalize(statement)
            throw DatabaseError(
                resultCode: .misuse,
                message:
                    "a prepared statement holds one SQL statement, but several were given; use execute(sql:) for scripts",
                sql: sql)
        }
        guard code == SQLITE_OK else {
            // The first statement may have prepared before the check of what follows it failed.
            sqlite3_finalize(statement)
            throw DatabaseError.lastError(of: database.handle, code: code, sql: sql)
        }
        guard let statement else {
            throw DatabaseError(resultCode: .misuse, message: "the SQL contains no statement", sql: sql)
        }
        // Pragmas newer than the library prepare fine and do nothing: refuse them instead.
        if let error = SQLiteFeature.unavailablePragmaError(in: sql) {
            sqlite3_finalize(statement)
            throw error
        }
        self.handle = statement
        self.isExplain = SQLLexer.isExplain(statement)
        self.connection = database.handle
        self.sql = sql
        self.dateStrategy = database.configuration.dateStrategy
        self.includesArgumentsInErrors = database.configuration.includesArgumentsInErrors
        self.instrumented = database.tracing.instrumented
        self.namedReadLog = Self.makeNamedReadLog()
        if let tracker, let footprint {
            tracker.register(statement, builder: footprint)
            self.tracker = tracker
        }
    }

    /// A fresh ``namedReadLog``. Allocated after every check that can throw: memory reached through
    /// a pointer has no destructor, and an initializer that throws frees only what has one.
    private static func makeNamedReadLog() -> UnsafeMutablePointer<NamedReadLog> {
        let log = UnsafeMutablePointer<NamedReadLog>.allocate(capacity: 1)
        log.initialize(to: NamedReadLog())
        return log
    }

    /// Wraps a statement prepared by the caller, which hands over ownership.
    init(adopting handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.isExplain = SQLLexer.isExplain(handle)
        self.connection = database.handle
        self.sql = sql
        self.dateStrategy = database.configuration.dateStrategy
        self.includesArgumentsInErrors = database.configuration.includesArgumentsInErrors
        self.instrumented = database.tracing.instrumented
        self.namedReadLog = Self.makeNamedReadLog()
    }

    /// What follows a prepared statement's text: `SQLITE_OK` when nothing but whitespace, comments
    /// and semicolons; `SQLITE_MISUSE` when another statement, or text SQLite cannot read as one;
    /// otherwise the error that kept SQLite from telling (an interrupt from another thread, no
    /// memory), which the caller reports as it is rather than as several statements.
    private static func checkNothingFollows(_ text: UnsafePointer<CChar>, connection: OpaquePointer) -> Int32 {
        var next: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, text, -1, 0, &next, nil)
        defer { sqlite3_finalize(next) }
        switch code & 0xFF {
        case SQLITE_OK: return next == nil ? SQLITE_OK : SQLITE_MISUSE
        case SQLITE_ERROR: return SQLITE_MISUSE
        default: return code
        }
    }

    deinit {
        tracker?.forget(handle)
        sqlite3_finalize(handle)
        namedReadLog.deinitialize(count: 1)
        namedReadLog.deallocate()
    }

    // MARK: Execution

    /// Advances to the next row. Returns `true` when a row is available and `false` when the
    /// statement has finished.
    ///
    /// On failure the statement is reset, so the connection stays usable, and the error carries
    /// the SQL and bound arguments.
    ///
    /// Inlinable: a row costs the caller one `sqlite3_step` call and one comparison. Everything
    /// else (the end of the rows, a failure) is in ``stepEnded(_:)``.
    @inlinable
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        return try stepEnded(code)
    }

    /// The end of a run of ``step()``: `false` at the end of the rows, or the error for a failed
    /// step (the statement is then reset).
    @usableFromInline
    func stepEnded(_ code: Int32) throws -> Bool {
        namedReadLog.pointee.cursor = 0
        if code == SQLITE_DONE {
            // SQLite does not halt an EXPLAIN at SQLITE_DONE: left so (a cached statement after
            // run()), it counts as active, and the connection's autocommit read transaction is
            // never closed, which pins a WAL snapshot and blocks a backup into the database.
            if isExplain { sqlite3_reset(handle) } else { finishedWithoutReset = true }
            columnStateNeedsCheck = true
            return false
        }
        throw failure(code)
    }

    /// Runs the statement to completion, discarding any rows.
    @inlinable @discardableResult
    public func run() throws -> Statement {
        while try step() {}
        return self
    }

    /// Resets the statement so it can run again. Bindings are kept.
    @discardableResult
    public func reset() throws -> Statement {
        lastArguments = nil
        namedReadLog.pointee.cursor = 0
        finishedWithoutReset = false
        columnStateNeedsCheck = true
        let code = sqlite3_reset(handle)
        guard code == SQLITE_OK else { throw DatabaseError.lastError(of: connection, code: code, sql: sql) }
        return self
    }

    /// Resets without reporting the previous run's error, which was already thrown.
    @usableFromInline
    package func resetQuietly() {
        namedReadLog.pointee.cursor = 0
        finishedWithoutReset = false
        columnStateNeedsCheck = true
        sqlite3_reset(handle)
    }

    /// Checks the statement in (``isCheckedOut``) and resets it quietly: one call where a caller in
    /// another module would make two.
    @usableFromInline
    package func checkInAndReset() {
        checkedOut = false
        resetQuietly()
    }

    /// Sets every parameter back to `NULL`.
    @discardableResult
    public func clearBindings() -> Statement {
        lastArguments = nil
        sqlite3_clear_bindings(handle)
        return self
    }

    /// Builds the error for a failed step, then resets the statement.
    func failure(_ code: Int32) -> DatabaseError {
        let error = DatabaseError.lastError(of: connection, code: code, sql: sql, arguments: reportedArguments)
        instrumented?.statementFailed(handle, error: error)
        columnStateNeedsCheck = true
        sqlite3_reset(handle)
        return error
    }

    /// `error`, a failure of this statement, with `values` as its arguments: for statements bound
    /// value by value (a record's columns), whose values the statement did not keep. Unchanged when
    /// the error has arguments already, is another statement's, or the connection does not report
    /// them (``Database/Configuration/includesArgumentsInErrors``). The description truncates each.
    package func reporting(_ values: @autoclosure () -> [(any SQLBindable)?], in error: DatabaseError)
        -> DatabaseError
    {
        guard includesArgumentsInErrors, error.arguments == nil, error.sql == sql,
            let arguments = try? StatementArguments(values()).values(for: self)
        else { return error }
        var error = error
        error.arguments = arguments
        return error
    }

    @usableFromInline
    package var reportedArguments: [SQLValue]? {
        guard includesArgumentsInErrors, let lastArguments else { return nil }
        return try? lastArguments.values(for: self)
    }

    // MARK: Metadata

    /// The SQL with bound values written in place, as SQLite renders it (for logging).
    public var expandedSQL: String? {
        guard let text = sqlite3_expanded_sql(handle) else { return nil }
        defer { sqlite3_free(text) }
        return String(cString: text)
    }

    /// Whether the statement leaves the database unchanged (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The number of parameters (the largest parameter index).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// The name of parameter `index` (1-based), with its prefix (`:a`, `@a`, `$a`), or `nil` for
    /// positional `?` parameters.
    public func parameterName(at index: Int) -> String? {
        sqlite3_bind_parameter_name(handle, Int32(truncatingIfNeeded: index)).map { String(cString: $0) }
    }

    /// The 1-based index of a named parameter. The name may omit its prefix: `"id"` finds `:id`,
    /// `@id` or `$id`.
    public func parameterIndex(named name: String) -> Int? {
        let candidates = name.first.map { ":@$?".contains($0) } == true ? [name] : [":" + name, "@" + name, "$" + name]
        for candidate in candidates {
            let index = sqlite3_bind_parameter_index(handle, candidate)
            if index > 0 { return Int(index) }
        }
        return nil
    }

    /// The number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The result columns' names, in order.
    public var columnNames: [String] {
        if columnStateNeedsCheck { checkColumnState() }
        if let cachedColumnNames { return cachedColumnNames }
        let names = readColumnNames()
        cachedColumnNames = names
        startKeepingColumnState()
        return names
    }

    /// The result columns' names, read from SQLite.
    private func readColumnNames() -> [String] {
        (0..<Int32(columnCount)).map { columnName(at: Int($0)) }
    }

    /// An object that stands for the statement's result columns as they are: the same object
    /// while they stay, another one once SQLite re-prepared the statement (after a schema change).
    /// What a higher layer learns from the columns of rows, such as a Codable decoder's key order,
    /// is valid while this is the object it learned it with.
    package var columnsToken: AnyObject {
        if columnStateNeedsCheck { checkColumnState() }
        if let columnsTokenStorage { return columnsTokenStorage }
        startKeepingColumnState()
        let token = ColumnsToken()
        columnsTokenStorage = token
        return token
    }

    /// Identifies one set of result columns (see ``columnsToken``).
    private final class ColumnsToken {}

    /// Starts checking for a re-preparation: something is learned from the result columns.
    private func startKeepingColumnState() {
        guard !keepsColumnState else { return }
        keepsColumnState = true
        // Learned on a row, the state matches this run's statement, which SQLite re-prepares only
        // when a run starts (and a run's end or reset sets the check up). Learned before the
        // first step, a run that starts later may re-prepare it.
        columnStateNeedsCheck = sqlite3_stmt_busy(handle) == 0
        columnStateReprepareCount = slate_reprepare_count(handle)
        // Without SQLite's count, the names are what a check compares.
        if columnStateReprepareCount < 0, cachedColumnNames == nil { cachedColumnNames = readColumnNames() }
    }

    /// Checks the column state before a read by name when a run may have started since the last
    /// check (``columnStateNeedsCheck``): once per run, at its first read by name. Reads by
    /// position never call it.
    private func checkColumnStateBeforeNamedRead() {
        if columnStateNeedsCheck { checkColumnState() }
    }

    /// Forgets the column state when SQLite re-prepared the statement since it was learned (one
    /// `sqlite3_stmt_status` call), so that names are looked up again among the columns as they
    /// are now. Called before the state is used, when ``columnStateNeedsCheck`` says a run may
    /// have started since the last check: a read by name, the column names, a copied row's
    /// layout, a decoder's ``columnsToken``.
    func checkColumnState() {
        // On a row, this run's re-preparation (if any) is behind us: no new check until the
        // statement is reset, finishes or fails. Before the first step, a run is still to come.
        if sqlite3_stmt_busy(handle) != 0 { columnStateNeedsCheck = false }
        guard keepsColumnState else { return }
        let count = slate_reprepare_count(handle)
        if count >= 0 {
            if count == columnStateReprepareCount { return }
        } else if let names = cachedColumnNames, columnsAreNamed(names) {
            return
        }
        keepsColumnState = false
        cachedColumnNames = nil
        cachedRowLayout = nil
        columnIndexCache = nil
        namedReadLog.pointee.entries = []
        namedReadLog.pointee.cursor = 0
        columnsTokenStorage = nil
    }

    /// Whether the result columns are `names`, in order.
    private func columnsAreNamed(_ names: [String]) -> Bool {
        guard columnCount == names.count else { return false }
        return names.indices.allSatisfy { columnName(at: $0) == names[$0] }
    }

    /// The column names and their lookup table, shared by the rows copied from this statement.
    var rowLayout: RowLayout {
        if columnStateNeedsCheck { checkColumnState() }
        if let cachedRowLayout { return cachedRowLayout }
        let layout = RowLayout(columnNames: columnNames)
        cachedRowLayout = layout
        return layout
    }

    /// The name of result column `index` (0-based): its `AS` alias or SQLite's default name.
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(truncatingIfNeeded: index)).map { String(cString: $0) } ?? ""
    }

    /// The declared type of result column `index` in its table, such as `"VARCHAR(40)"`, or `nil`
    /// for expressions.
    public func declaredType(at index: Int) -> String? {
        sqlite3_column_decltype(handle, Int32(truncatingIfNeeded: index)).map { String(cString: $0) }
    }

    /// The table that result column `index` comes from, or `nil` for expressions.
    public func originTableName(at index: Int) -> String? {
        sqlite3_column_table_name(handle, Int32(truncatingIfNeeded: index)).map { String(cString: $0) }
    }

    /// The table column that result column `index` comes from, or `nil` for expressions.
    public func originColumnName(at index: Int) -> String? {
        sqlite3_column_origin_name(handle, Int32(truncatingIfNeeded: index)).map { String(cString: $0) }
    }

    /// The schema (`main`, `temp`, or an attached name) that result column `index` comes from.
    public func originDatabaseName(at index: Int) -> String? {
        sqlite3_column_database_name(handle, Int32(truncatingIfNeeded: index)).map { String(cString: $0) }
    }

    /// The index of the column called `name` for a read of the current row by name: the position
    /// the same read had in the first row when the reads come in the same order (one string
    /// comparison), else ``columnIndex(named:)``.
    @usableFromInline
    package func columnIndexForRead(named name: String) -> Int? {
        checkColumnStateBeforeNamedRead()
        let log = namedReadLog
        let count = log.pointee.entries.count
        var cursor = Int(log.pointee.cursor)
        // After the last recorded read, the first one again: the next row's reads have begun, and
        // from now on the last entry leads to the first (the fast path then never comes here).
        if cursor == count, cursor > 0, log.pointee.entries[0].name == name {
            cursor = 0
            log.pointee.entries[count - 1].successor = 0
        }
        if cursor < count {
            let entry = log.pointee.entries[cursor]
            if entry.name == name {
                log.pointee.cursor = entry.successor
                return Int(entry.index)
            }
            return columnIndex(named: name)
        }
        let index = columnIndex(named: name)
        // Record the reads of the first rows; a statement read by name in an unusual pattern stops
        // recording, and its reads look names up. (`columnIndex(named:)` may have forgotten the
        // log, after a re-preparation: the entry then starts a new one.) A missing column is not
        // recorded (see `NamedReadLog.Entry`).
        if let index, let position = UInt16(exactly: index),
            log.pointee.entries.count < NamedReadLog.maximumEntries
        {
            // At most `maximumEntries`: a `UInt16`.
            let successor = UInt16(log.pointee.entries.count + 1)
            log.pointee.entries.append(NamedReadLog.Entry(name: name, index: position, successor: successor))
            log.pointee.cursor = successor
        }
        return index
    }

    /// The index of the first result column called `name`, compared case-insensitively as SQLite
    /// compares identifiers.
    public func columnIndex(named name: String) -> Int? {
        // Exact names first: a short scan beats hashing a lowercased copy on every read by name.
        if cachedColumnNames == nil { _ = columnNames }
        if let names = cachedColumnNames, names.count <= 32 {
            for index in names.indices where names[index] == name { return index }
        }
        if columnIndexCache == nil {
            var indexes: [String: Int32] = [:]
            for (index, column) in columnNames.enumerated() where indexes[column.lowercased()] == nil {
                indexes[column.lowercased()] = Int32(index)
            }
            columnIndexCache = indexes
        }
        return columnIndexCache?[name.lowercased()].map(Int.init)
    }
}

extension Statement: CustomStringConvertible {
    public var description: String { sql }
}
