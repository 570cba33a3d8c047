import CSQLite
import Foundation

/// One connection to an SQLite database.
///
/// A `Database` is not thread-safe: use it from one thread or task at a time, or hand it to a
/// ``DatabaseQueue`` or ``DatabasePool``, which serialize access for you.
///
/// ```swift
/// let db = try Database(location: .inMemory)
/// try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// try db.execute("INSERT INTO player(name) VALUES (\(name))")   // `name` is bound, not spliced
/// let count = try db.fetchValue(Int.self, "SELECT count(*) FROM player")
/// ```
public final class Database {
    // More than 15 stored properties, on purpose: each is state of the one connection; its hooks,
    // traces and sessions are grouped in their registries already.
    /// The raw `sqlite3 *` handle, for calling the C API directly. Do not close it.
    public let handle: OpaquePointer
    /// Where the database lives.
    public let location: Database.Location
    /// The configuration the connection was opened with.
    public let configuration: Database.Configuration

    var statementCache: [String: Statement] = [:] {
        didSet { statementCacheGeneration &+= 1 }
    }
    /// Changes whenever a statement enters or leaves the cache: a ``CachedStatementReference`` that
    /// saw this generation still names a cached, live statement.
    // Like a statement's per-call state, these are internal and used only by this module's code,
    // so that no access to them is checked for exclusivity at run time (see `Statement`).
    var statementCacheGeneration = 0
    /// What higher layers keep per connection, such as the SQL the query layer renders once per
    /// table type (a find by primary key), so repeated one-record calls skip rendering.
    let attachments = Attachments()
    /// Observers installed through the hook APIs, kept alive for the C callbacks.
    let hooks = HookRegistry()
    /// Trace observers, kept alive for the C callback.
    let tracing = TraceRegistry()
    /// The session extension's sessions open on the connection, deleted before it closes.
    let sessions = SessionRegistry()
    /// The live-query machinery, once a live query or ``trackingRegion(_:)`` used the connection.
    var regionTracker: RegionTracker?
    /// Lets other threads interrupt this connection safely.
    public let interruptHandle: InterruptHandle
    var isClosed = false
    /// Why Slate closed the connection itself (a key change that failed half way), for the error
    /// every later use throws; `nil` when the user closed it.
    package internal(set) var closedReason: String?
    /// How many savepoints the transaction engine has open, for generated savepoint names.
    var savepointDepth = 0
    /// Slate's own fixed statements, by SQL text: the transaction engine's (`BEGIN`, `COMMIT`,
    /// `ROLLBACK` …) and the schema reader's look-ups (see ``fixedStatement(sql:)``), kept apart
    /// from the statement cache so its capacity and clearing never affect them.
    var controlStatements: [String: Statement] = [:]
    #if SQLCipher
        /// The key the connection uses now: the configuration's, until ``changeKey(to:)``.
        var encryptionKey: EncryptionKey?
    #endif

    /// Opens a connection.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/cantOpen`` when the file or its directory
    ///   cannot be opened (the message says when the directory, or the file a read-only connection
    ///   opens, does not exist), ``ResultCode/notADatabase`` when the file is not an SQLite database, and
    ///   ``ResultCode/readOnly`` when a writable connection was asked for a file that cannot be
    ///   written.
    public init(location: Database.Location = .inMemory, configuration: Database.Configuration = .init()) throws {
        self.location = location
        self.configuration = configuration

        if configuration.createsMissingDirectories, case .file(let path) = location {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        var flags: Int32 =
            configuration.isReadOnly
            ? SQLITE_OPEN_READONLY
            : SQLITE_OPEN_READWRITE | (configuration.createsFile ? SQLITE_OPEN_CREATE : 0)
        switch configuration.threadingMode {
        case .multiThread: flags |= SQLITE_OPEN_NOMUTEX
        case .serialized: flags |= SQLITE_OPEN_FULLMUTEX
        case .default: break
        }
        if case .uri = location { flags |= SQLITE_OPEN_URI }

        var connection: OpaquePointer?
        let code = sqlite3_open_v2(location.filename, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            var error = DatabaseError.lastError(of: connection, code: code)
            error.message = Self.describeOpenFailure(error.message, location: location, code: code)
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.interruptHandle = InterruptHandle(connection)
        sqlite3_extended_result_codes(connection, 1)

        do {
            // `"name"` is always an identifier: a misspelled column is an error, never the text 'name'.
            if !configuration.acceptsDoubleQuotedStringLiterals {
                let code = slate_disable_double_quoted_strings(connection)
                if code != SQLITE_OK { throw DatabaseError.lastError(of: connection, code: code) }
            }
            try validateAfterOpening()
            try attachInstrumentation()  // before the busy timeout, which it instruments
            if let timeout = configuration.busyTimeout { setBusyTimeout(timeout) }
            if configuration.foreignKeysEnabled {
                try execute(sql: "PRAGMA foreign_keys = ON")
            }
            try configuration.prepareDatabase?(self)
        } catch {
            closeForcibly()
            throw error
        }
    }

    /// Opens a connection to the database file at `path`.
    public convenience init(path: String, configuration: Database.Configuration = .init()) throws {
        try self.init(location: .file(path), configuration: configuration)
    }

    deinit {
        closeForcibly()
    }

    /// A file that is not a database opens fine; SQLite only notices on first read. Read now so the
    /// caller gets the error from the initializer, and detect files SQLite silently opened read-only.
    /// (`sqlite_master`, not `sqlite_schema`: the older name works on every SQLite version.)
    private func validateAfterOpening() throws {
        #if SQLCipher
            try applyEncryption()  // the key, before anything reads the file (Database+Encryption.swift)
        #endif
        let statement = try Statement(database: self, sql: "SELECT count(*) FROM sqlite_master", persistent: false)
        _ = try statement.step()
        try statement.reset()
        // A `file:` URI may ask for read-only itself (`mode=ro`); only a plain path is checked.
        if case .file = location, !configuration.isReadOnly, sqlite3_db_readonly(handle, "main") == 1 {
            throw DatabaseError(
                resultCode: .readOnly,
                message: "the database file at \(location) is read-only, but a writable connection was requested"
                    + " (open it with Configuration.isReadOnly = true to read it)")
        }
    }

    private static func describeOpenFailure(_ message: String, location: Location, code: Int32) -> String {
        guard case .file(let path) = location else { return message }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            return "\(message): the directory \(directory) does not exist (path: \(path))"
        }
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // Read-only (or without `createsFile`), SQLite does not create the file.
            return "\(message): the file \(path) does not exist (a read-only connection, or one without"
                + " Configuration.createsFile, never creates it)"
        }
        if isDirectory.boolValue {
            return "\(message): \(path) is a directory"
        }
        return "\(message) (path: \(path))"
    }

    /// Closes the connection.
    ///
    /// Statements Slate cached are finalized first. If statements you prepared yourself are still
    /// alive, SQLite refuses and this method throws ``ResultCode/busy`` listing their SQL; the
    /// connection stays open and usable. Closing twice does nothing.
    public func close() throws {
        guard !isClosed else { return }
        statementCache.removeAll()
        controlStatements.removeAll()
        attachments.removeAll()  // they may hold cached statements (`CachedStatementReference`)
        tracing.instrumented?.detach()
        // Sessions must go before the connection; SQLite refuses to close while statements live,
        // and the connection then stays open with its sessions.
        if sqlite3_next_stmt(handle, nil) == nil { sessions.deleteAll() }
        // Under the interrupt handle's lock: an interrupt from another thread never reaches the
        // connection while SQLite frees it.
        let code = interruptHandle.closeConnection { sqlite3_close($0) }
        if code == SQLITE_BUSY {
            var pending: [String] = []
            var statement = sqlite3_next_stmt(handle, nil)
            while let current = statement {
                pending.append(sqlite3_sql(current).map { String(cString: $0) } ?? "?")
                statement = sqlite3_next_stmt(handle, current)
            }
            throw DatabaseError(
                resultCode: .busy,
                message: "cannot close the connection: \(pending.count) statement(s) are not finalized: "
                    + pending.joined(separator: "; "))
        }
        guard code == SQLITE_OK else { throw DatabaseError.lastError(of: handle, code: code) }
        markClosed()
    }

    /// Closes no matter what: SQLite keeps the connection as a zombie until the last statement
    /// anyone still holds is finalized.
    func closeForcibly() {
        guard !isClosed else { return }
        statementCache.removeAll()
        controlStatements.removeAll()
        attachments.removeAll()  // they may hold cached statements (`CachedStatementReference`)
        tracing.instrumented?.detach()
        hooks.uninstallAll()  // a zombie connection must not call back into a freed registry
        sessions.deleteAll()  // a session must not outlive its connection
        _ = interruptHandle.closeConnection { sqlite3_close_v2($0) }
        markClosed()
    }

    private func markClosed() {
        if let instrumented = tracing.instrumented {
            instrumented.instrumentation.record(.connectionClosed(instrumented.trace))
        }
        isClosed = true
        hooks.removeAll()
        tracing.removeAll()
        regionTracker = nil
    }

    /// Throws ``ResultCode/misuse`` once the connection is closed: its handle is gone, and using it
    /// would crash.
    public func checkOpen() throws {
        if isClosed { throw closedConnectionError() }
    }

    @usableFromInline
    package static func closedConnectionError() -> DatabaseError {
        DatabaseError(resultCode: .misuse, message: "the connection is closed")
    }

    /// The error a use of this closed connection throws: it says why Slate closed it, if it did.
    @usableFromInline
    package func closedConnectionError() -> DatabaseError {
        guard let closedReason else { return Self.closedConnectionError() }
        return DatabaseError(resultCode: .misuse, message: "the connection is closed: \(closedReason)")
    }

    /// The rowid of the most recent successful `INSERT` on this connection (0 once closed).
    public var lastInsertedRowID: Int64 { isClosed ? 0 : sqlite3_last_insert_rowid(handle) }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
    public var changesCount: Int { isClosed ? 0 : Int(sqlite3_changes64(handle)) }

    /// The number of rows changed since the connection opened.
    public var totalChangesCount: Int { isClosed ? 0 : Int(sqlite3_total_changes64(handle)) }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInTransaction: Bool { !isClosed && sqlite3_get_autocommit(handle) == 0 }

    /// Whether the main database is read-only for this connection.
    public var isReadOnly: Bool { !isClosed && sqlite3_db_readonly(handle, "main") == 1 }

    /// The version of the SQLite library in use, such as `"3.40.1"`.
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

    /// The path of the main database file, or `nil` for in-memory and temporary databases.
    public var path: String? {
        guard !isClosed, let name = sqlite3_db_filename(handle, "main") else { return nil }
        let path = String(cString: name)
        return path.isEmpty ? nil : path
    }
}

extension Database: CustomStringConvertible {
    public var description: String {
        "Database(\(configuration.label.map { "\($0): " } ?? "")\(location))"
    }
}
