import CSQLite

// Tracing with sqlite3_trace_v2. A connection has one trace callback; Slate installs it with the
// union of the event kinds its observers asked for, dispatches each event to the observers that
// want it, and removes the callback when the last observer goes away.

// MARK: - Events

/// The kinds of events a trace observer receives.
///
/// ```swift
/// let observation = db.trace([.statement, .profile]) { event in print(event) }
/// ```
public struct TraceEventKinds: OptionSet, Sendable, Hashable {
    /// The `SQLITE_TRACE_*` bit mask.
    public let rawValue: UInt32

    /// Creates a set of kinds from a `SQLITE_TRACE_*` bit mask.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A statement starts running, or a trigger starts (``TraceEvent/statement(_:)``).
    public static let statement = TraceEventKinds(rawValue: UInt32(SQLITE_TRACE_STMT))
    /// A statement finished running, with its duration (``TraceEvent/profile(_:duration:)``).
    public static let profile = TraceEventKinds(rawValue: UInt32(SQLITE_TRACE_PROFILE))
    /// A statement produced a row (``TraceEvent/row(_:)``).
    public static let row = TraceEventKinds(rawValue: UInt32(SQLITE_TRACE_ROW))
    /// The connection is closing (``TraceEvent/close``).
    public static let close = TraceEventKinds(rawValue: UInt32(SQLITE_TRACE_CLOSE))
    /// Every kind of event.
    public static let all: TraceEventKinds = [.statement, .profile, .row, .close]
}

/// The statement a trace event is about, captured when the event fired.
public struct TracedStatement: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text the statement was prepared from, with `?` and named parameters as written.
    ///
    /// For ``TraceEvent/statement(_:)`` events reporting a trigger (see ``isTrigger``), this is
    /// the comment SQLite passes instead: `-- TRIGGER log_insert` when the trigger starts, then
    /// `-- ` followed by each statement of its body as it runs.
    public let sql: String

    /// The SQL with the values currently bound written in place of the parameters, as
    /// `sqlite3_expanded_sql` renders them. For logging only: never run it.
    ///
    /// `nil` for trigger events, and when SQLite cannot render the text (out of memory, or
    /// longer than the connection's length limit).
    public let expandedSQL: String?

    /// Whether a ``TraceEvent/statement(_:)`` event reports a trigger starting or running one of
    /// its statements, rather than the statement itself starting.
    public let isTrigger: Bool

    /// Creates a traced statement.
    public init(sql: String, expandedSQL: String?, isTrigger: Bool = false) {
        self.sql = sql
        self.expandedSQL = expandedSQL
        self.isTrigger = isTrigger
    }

    /// The expanded SQL when available, otherwise the SQL.
    public var description: String { expandedSQL ?? sql }
}

/// One event reported by ``Database/trace(_:_:)``.
public enum TraceEvent: Sendable, Hashable, CustomStringConvertible {
    /// A statement started running (its first step after being prepared or reset), or a trigger
    /// it fired started or ran one of its statements (see ``TracedStatement/isTrigger``).
    case statement(TracedStatement)
    /// A statement finished running (it returned its last row, failed, or was reset), having run
    /// for about `duration`.
    case profile(TracedStatement, duration: Duration)
    /// A statement produced one row.
    case row(TracedStatement)
    /// The connection is closing. If closing fails because statements are still alive, the
    /// connection stays open and keeps reporting events.
    case close

    /// The kind of the event.
    public var kind: TraceEventKinds {
        switch self {
        case .statement: .statement
        case .profile: .profile
        case .row: .row
        case .close: .close
        }
    }

    /// The statement the event is about, or `nil` for ``close``.
    public var tracedStatement: TracedStatement? {
        switch self {
        case .statement(let statement), .profile(let statement, _), .row(let statement): statement
        case .close: nil
        }
    }

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .statement(let statement): "statement: \(statement)"
        case .profile(let statement, let duration): "profile (\(duration)): \(statement)"
        case .row(let statement): "row: \(statement)"
        case .close: "close"
        }
    }
}

// MARK: - Observation

/// Keeps a trace observer registered. Call ``cancel()`` to remove it.
///
/// The observer stays registered when the observation is discarded; it is removed by
/// ``cancel()``, by ``Database/removeTrace(_:)``, or when the connection closes.
public final class TraceObservation {
    private weak var database: Database?
    let id: Int

    init(database: Database?, id: Int) {
        self.database = database
        self.id = id
    }

    /// Whether the observer still receives events.
    public var isActive: Bool {
        guard let database, !database.isClosed else { return false }
        return database.tracing.contains(id)
    }

    /// Removes the observer. Calling it again, or after the connection closed, does nothing.
    public func cancel() {
        database?.removeTrace(self)
    }
}

// MARK: - Database API

extension Database {
    /// Calls `observer` for every event of the given kinds on this connection.
    ///
    /// ```swift
    /// let observation = db.trace([.statement, .profile]) { event in
    ///     if case .profile(let statement, let duration) = event, duration > .milliseconds(100) {
    ///         print("slow query (\(duration)): \(statement.sql)")
    ///     }
    /// }
    /// // …
    /// observation.cancel()
    /// ```
    ///
    /// Any number of observers can be registered at once; each receives only the kinds it asked
    /// for. The observer runs synchronously on the thread using the connection, in the middle of
    /// SQLite's work: keep it short, and do not run statements on the connection from it
    /// (registering or cancelling observers, including itself, is fine).
    ///
    /// - Parameters:
    ///   - kinds: The events to observe. ``TraceEventKinds/row`` events fire for every row and are
    ///     costly.
    ///   - observer: Receives each event.
    /// - Returns: A token that removes the observer. On a closed connection the observer is never
    ///   registered and the token is inactive.
    @discardableResult
    public func trace(
        _ kinds: TraceEventKinds = .statement,
        _ observer: @escaping (TraceEvent) -> Void
    ) -> TraceObservation {
        guard !isClosed else { return TraceObservation(database: nil, id: -1) }
        let id = tracing.add(kinds: kinds, observer: observer)
        updateTraceCallback()
        return TraceObservation(database: self, id: id)
    }

    /// Passes the expanded SQL of every statement this connection runs to `log`: the SQL with
    /// the bound values written in place, such as `INSERT INTO player(name) VALUES ('Arthur')`.
    ///
    /// ```swift
    /// db.logStatements { logger.debug("\($0)") }
    /// ```
    ///
    /// Triggers are logged as SQLite's comments (`-- TRIGGER name`, then `-- ` and each statement
    /// of the trigger body). Logged values may be
    /// sensitive: do not enable this in production without care.
    ///
    /// - Parameter log: Receives each statement's text. Prints to standard output by default.
    /// - Returns: A token that stops the logging.
    @discardableResult
    public func logStatements(_ log: @escaping (String) -> Void = { print($0) }) -> TraceObservation {
        trace(.statement) { event in
            if case .statement(let statement) = event {
                log(statement.expandedSQL ?? statement.sql)
            }
        }
    }

    /// Removes a trace observer registered with ``trace(_:_:)``. Removing it twice does nothing.
    public func removeTrace(_ observation: TraceObservation) {
        guard tracing.remove(observation.id) else { return }
        updateTraceCallback()
    }

    /// Installs the trace callback with the kinds the observers want, or removes it when none
    /// remain.
    func updateTraceCallback() {
        guard !isClosed else { return }
        let kinds = tracing.requestedKinds
        guard kinds != tracing.installedKinds else { return }
        if kinds.isEmpty {
            sqlite3_trace_v2(handle, 0, nil, nil)
        } else {
            // Unretained: the registry lives as long as the connection (see TraceRegistry.removeAll
            // for a connection that outlives it as a zombie). The close event is always requested
            // so the registry learns whether the connection will linger.
            sqlite3_trace_v2(
                handle, kinds.union(.close).rawValue,
                { code, context, subject, detail in
                    guard let context else { return 0 }
                    Unmanaged<TraceRegistry>.fromOpaque(context).takeUnretainedValue()
                        .dispatch(code, subject: subject, detail: detail)
                    return 0
                },
                Unmanaged.passUnretained(tracing).toOpaque())
        }
        tracing.installedKinds = kinds
    }
}

// MARK: - Registry

/// Trace observers registered on a connection, kept alive for the C callback.
final class TraceRegistry {
    private struct Entry {
        let id: Int
        let kinds: TraceEventKinds
        let observer: (TraceEvent) -> Void
    }

    private var entries: [Entry] = []
    private var nextID = 0
    /// The kinds the C callback is currently installed for.
    var installedKinds: TraceEventKinds = []
    /// The live-query machinery, told about each statement as it starts (before the observers).
    var tracker: RegionTracker?
    /// The configuration's instrumentation, told about each statement's start, rows and end.
    var instrumented: ConnectionInstrumentation?

    /// The union of the kinds the observers want, the statements for the tracker, and every
    /// statement event but the close for the instrumentation.
    var requestedKinds: TraceEventKinds {
        var kinds = entries.reduce(into: TraceEventKinds()) { $0.formUnion($1.kinds) }
        if tracker != nil { kinds.formUnion(.statement) }
        if instrumented != nil { kinds.formUnion([.statement, .profile, .row]) }
        return kinds
    }

    func add(kinds: TraceEventKinds, observer: @escaping (TraceEvent) -> Void) -> Int {
        nextID += 1
        entries.append(Entry(id: nextID, kinds: kinds, observer: observer))
        return nextID
    }

    /// Removes an observer; returns whether it was registered.
    func remove(_ id: Int) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }

    func contains(_ id: Int) -> Bool {
        entries.contains { $0.id == id }
    }

    /// Whether statements were still alive when the connection started closing, so that
    /// `sqlite3_close_v2` may have left a zombie connection that can still report events.
    private var hadStatementsAtClose = false

    /// Forgets every observer once the connection is closed.
    ///
    /// The callback cannot be uninstalled here: the handle may already be freed. When statements
    /// outlived the connection, SQLite keeps it as a zombie that still calls back when they step
    /// or finalize; the registry then stays allocated (empty, so the callback does nothing) for
    /// the rest of the process rather than leave SQLite a dangling pointer.
    func removeAll() {
        if !installedKinds.isEmpty && hadStatementsAtClose {
            _ = Unmanaged.passRetained(self)
        }
        entries.removeAll()
        installedKinds = []
        tracker = nil
        instrumented = nil
    }

    /// Builds the event once and hands it to each observer that wants it.
    func dispatch(_ code: UInt32, subject: UnsafeMutableRawPointer?, detail: UnsafeMutableRawPointer?) {
        if code == UInt32(SQLITE_TRACE_CLOSE), let subject {
            hadStatementsAtClose = sqlite3_next_stmt(OpaquePointer(subject), nil) != nil
        }
        if code == UInt32(SQLITE_TRACE_STMT), let tracker, let subject {
            let statement = OpaquePointer(subject)
            // X is the statement's own SQL for a statement that starts at top level, and a copy
            // (a comment) for trigger programs and statements run from inside another statement.
            let isTopLevel = detail == nil || UnsafeRawPointer(sqlite3_sql(statement)) == UnsafeRawPointer(detail)
            tracker.statementWillRun(statement, isTopLevel: isTopLevel)
        }
        instrumented?.dispatch(code, subject: subject, detail: detail)
        guard !entries.isEmpty else { return }
        let kind = TraceEventKinds(rawValue: code)
        // A snapshot: observers may add or remove observers while being called.
        let receivers = entries.filter { $0.kinds.contains(kind) }
        guard !receivers.isEmpty, let event = Self.event(code, subject: subject, detail: detail) else { return }
        for receiver in receivers where contains(receiver.id) {
            receiver.observer(event)
        }
    }

    private static func event(_ code: UInt32, subject: UnsafeMutableRawPointer?, detail: UnsafeMutableRawPointer?)
        -> TraceEvent?
    {
        switch Int32(bitPattern: code) {
        case SQLITE_TRACE_STMT:
            guard let subject else { return nil }
            let statement = OpaquePointer(subject)
            // X is the statement's own SQL (the same pointer sqlite3_sql returns), or a comment
            // for trigger programs: "-- TRIGGER name", then "-- " + each statement of the body.
            let prepared = sqlite3_sql(statement)
            guard let detail else { return .statement(traced(statement)) }
            if let prepared, UnsafeRawPointer(prepared) == UnsafeRawPointer(detail) {
                return .statement(traced(statement))
            }
            let comment = String(cString: detail.assumingMemoryBound(to: CChar.self))
            return .statement(TracedStatement(sql: comment, expandedSQL: nil, isTrigger: true))
        case SQLITE_TRACE_PROFILE:
            guard let subject else { return nil }
            let nanoseconds = detail?.load(as: Int64.self) ?? 0
            return .profile(traced(OpaquePointer(subject)), duration: .nanoseconds(nanoseconds))
        case SQLITE_TRACE_ROW:
            guard let subject else { return nil }
            return .row(traced(OpaquePointer(subject)))
        case SQLITE_TRACE_CLOSE:
            return .close
        default:
            return nil
        }
    }

    private static func traced(_ statement: OpaquePointer) -> TracedStatement {
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? ""
        var expandedSQL: String?
        if let expanded = sqlite3_expanded_sql(statement) {
            expandedSQL = String(cString: expanded)
            sqlite3_free(expanded)
        }
        return TracedStatement(sql: sql, expandedSQL: expandedSQL)
    }
}
