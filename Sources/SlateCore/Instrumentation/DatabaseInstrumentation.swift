import Foundation

// The hooks that logging, tracing and metrics plug into. They depend on nothing: the integrations
// with swift-log, swift-distributed-tracing and swift-metrics live in the `SlateTelemetry` product.
// Nothing here runs unless `Database.Configuration.instrumentation` (or `PostgreSQLDatabase`'s) is
// set: a connection without one installs no trace callback and no busy or WAL hook of its own.

/// Receives what connections, queues and pools do, for logging, tracing and metrics.
///
/// Set one in ``Database/Configuration/instrumentation``; every connection opened with that
/// configuration (a ``DatabasePool``'s writer and readers alike) reports to it. You rarely write
/// one: `DatabaseTelemetry` (product `SlateTelemetry`) implements it with swift-log,
/// swift-distributed-tracing and swift-metrics. See <doc:RunningInAServer>.
///
/// Calls come on the thread that uses the connection, in the middle of its work: keep them short,
/// never block, and never use the connection from them. They never throw: a failure to log or trace
/// must not fail the statement.
public protocol DatabaseInstrumentation: AnyObject, Sendable {
    /// Captures, on the caller's thread or task, what must travel with a piece of work to the
    /// connection that runs it (a tracing context, a task-local logger). A queue or pool calls it
    /// when the work is submitted and hands the result to ``withContext(_:_:)`` on the connection's
    /// thread.
    func captureContext() -> (any Sendable)?

    /// Runs `body` with a context captured by ``captureContext()`` in effect again: on the
    /// connection's thread, so that the spans and log lines of the work's statements belong to the
    /// caller's trace and request. Throws what `body` throws, and nothing else.
    func withContext<Result>(_ context: (any Sendable)?, _ body: () throws -> Result) throws -> Result

    /// A statement starts running. Returns a token (a span) that ``statementDidFinish(_:token:outcome:)``
    /// receives.
    ///
    /// - Parameter transaction: The token ``transactionDidBegin(_:enclosing:)`` returned for the innermost
    ///   transaction or savepoint the statement runs in, if any.
    func statementWillRun(_ statement: StatementTrace, transaction: (any Sendable)?) -> (any Sendable)?

    /// A statement finished: it returned its last row, failed, or was reset or finalized before its
    /// last row.
    func statementDidFinish(_ statement: StatementTrace, token: (any Sendable)?, outcome: StatementOutcome)

    /// A transaction, savepoint or snapshot read begins. Returns a token (a span) that
    /// ``transactionDidEnd(_:token:outcome:)`` and the statements that run inside it receive.
    ///
    /// - Parameter enclosing: The token this method returned for the transaction or savepoint that
    ///   holds this one (a savepoint's transaction), or `nil` for an outermost transaction.
    func transactionDidBegin(_ transaction: TransactionTrace, enclosing: (any Sendable)?) -> (any Sendable)?

    /// A transaction, savepoint or snapshot read ended: committed, or rolled back.
    func transactionDidEnd(_ transaction: TransactionTrace, token: (any Sendable)?, outcome: TransactionOutcome)

    /// Something else happened: a busy retry, a wait for a connection, a checkpoint, a change in the
    /// number of readers, a live query's refetch, a connection opening or closing.
    func record(_ event: DatabaseEvent)
}

// MARK: - What the hooks receive

/// The engine a connection talks to: OpenTelemetry's `db.system.name`.
public struct DatabaseSystem: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The name, as OpenTelemetry's semantic conventions spell it.
    public let rawValue: String
    /// Creates a system from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// SQLite.
    public static let sqlite = DatabaseSystem(rawValue: "sqlite")
    /// PostgreSQL.
    public static let postgreSQL = DatabaseSystem(rawValue: "postgresql")
    public var description: String { rawValue }
}

/// A connection, as it appears in logs, spans and metrics.
public struct ConnectionTrace: Sendable, Hashable, CustomStringConvertible {
    /// A number that identifies the connection in this process (SQLite), or the server's
    /// connection id (PostgreSQL, inside a transaction), or 0 when unknown.
    public var id: Int
    /// The engine.
    public var system: DatabaseSystem
    /// OpenTelemetry's `db.namespace`: the database file's name for SQLite (`:memory:` in memory),
    /// the database name for PostgreSQL.
    public var namespace: String
    /// ``Database/Configuration/label``, and for a pool's connections whether it is the writer or
    /// a reader.
    public var label: String?
    /// Whether the connection was opened read-only.
    public var isReadOnly: Bool

    /// Creates a description.
    public init(id: Int, system: DatabaseSystem, namespace: String, label: String?, isReadOnly: Bool) {
        self.id = id
        self.system = system
        self.namespace = namespace
        self.label = label
        self.isReadOnly = isReadOnly
    }

    /// `#3` or `#3 (app.reader)`.
    public var description: String {
        "#\(id)" + (label.map { " (\($0))" } ?? "")
    }
}

/// A statement that starts running. Its SQL has placeholders where values are bound: never values.
public struct StatementTrace {
    /// The SQL as prepared, with `?`, `?NNN`, `:name` or `$n` placeholders: OpenTelemetry's
    /// `db.query.text`.
    public let sql: String
    /// The connection that runs it.
    public let connection: ConnectionTrace
    /// The values bound to the statement, read only when asked for (to log them, when the user
    /// opted in).
    let readValues: (() -> [SQLValue]?)?

    /// Creates a trace; `values` gives the bound values when asked.
    public init(sql: String, connection: ConnectionTrace, values: (() -> [SQLValue]?)? = nil) {
        self.sql = sql
        self.connection = connection
        self.readValues = values
    }

    /// The first keyword of the SQL, uppercased (`SELECT`, `INSERT`, `BEGIN`, `PRAGMA` …):
    /// OpenTelemetry's `db.operation.name`, low in cardinality. Empty when the SQL starts with
    /// something else.
    public var operationName: String { Self.operationName(of: sql) }

    /// The values bound to the statement when it started, or `nil` when they cannot be read.
    /// They may be sensitive: log them only when the user asked for it.
    public func boundValues() -> [SQLValue]? { readValues?() }

    /// The first keyword of `sql`, after spaces, semicolons and comments, uppercased.
    public static func operationName(of sql: String) -> String {
        let scalars = sql.unicodeScalars
        var index = scalars.startIndex
        func starts(_ text: String) -> Bool { scalars[index...].starts(with: text.unicodeScalars) }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace || scalar == ";" {
                index = scalars.index(after: index)
            } else if starts("--") {
                index = scalars[index...].firstIndex(of: "\n") ?? scalars.endIndex
            } else if starts("/*") {
                let rest = String(scalars[scalars.index(index, offsetBy: 2)...])
                guard let end = rest.range(of: "*/") else { return "" }
                return operationName(of: String(rest[end.upperBound...]))
            } else {
                break
            }
        }
        let keyword = scalars[index...].prefix { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_") }
        return String(String.UnicodeScalarView(keyword)).uppercased()
    }
}

/// How a statement ended.
public struct StatementOutcome {
    /// How long it ran, from its first step to its end, on a monotonic clock.
    public var duration: Duration
    /// When it ended, in nanoseconds since 1970 (the wall clock, for spans).
    public var endNanosecondsSinceEpoch: UInt64
    /// The rows it returned.
    public var rowCount: Int
    /// The rows it inserted, updated or deleted, for a statement that writes; `nil` for reads.
    public var changedRowCount: Int?
    /// The error it failed with, or `nil`.
    public var error: (any Error)?

    /// Creates an outcome.
    public init(
        duration: Duration, endNanosecondsSinceEpoch: UInt64, rowCount: Int, changedRowCount: Int?,
        error: (any Error)?
    ) {
        self.duration = duration
        self.endNanosecondsSinceEpoch = endNanosecondsSinceEpoch
        self.rowCount = rowCount
        self.changedRowCount = changedRowCount
        self.error = error
    }
}

/// A transaction, savepoint or snapshot read that begins.
public struct TransactionTrace: Sendable {
    /// What kind of transaction.
    public enum Kind: String, Sendable, Hashable {
        /// `BEGIN DEFERRED`.
        case deferred
        /// `BEGIN IMMEDIATE`: the write lock at once (every `write` of a queue or pool).
        case immediate
        /// `BEGIN EXCLUSIVE`.
        case exclusive
        /// A savepoint.
        case savepoint
        /// A read of one committed snapshot (every `read` of a queue or pool).
        case read
        /// A PostgreSQL transaction (`BEGIN`, with an isolation level when one was asked for).
        case serverTransaction = "transaction"
    }

    /// The kind.
    public var kind: Kind
    /// The connection it runs on.
    public var connection: ConnectionTrace

    /// Creates a trace.
    public init(kind: Kind, connection: ConnectionTrace) {
        self.kind = kind
        self.connection = connection
    }
}

/// How a transaction ended.
public struct TransactionOutcome {
    /// How long it lasted, from `BEGIN` to the end of `COMMIT` or `ROLLBACK`.
    public var duration: Duration
    /// When it ended, in nanoseconds since 1970.
    public var endNanosecondsSinceEpoch: UInt64
    /// Whether it committed (a savepoint: was released).
    public var committed: Bool
    /// The error that rolled it back, or made its commit fail.
    public var error: (any Error)?

    /// Creates an outcome.
    public init(duration: Duration, endNanosecondsSinceEpoch: UInt64, committed: Bool, error: (any Error)?) {
        self.duration = duration
        self.endNanosecondsSinceEpoch = endNanosecondsSinceEpoch
        self.committed = committed
        self.error = error
    }
}

/// What a WAL checkpoint did.
public struct CheckpointReport: Sendable, Hashable {
    /// Whether SQLite's automatic checkpoint ran it (after a commit grew the WAL past
    /// `PRAGMA wal_autocheckpoint` pages), rather than a call to ``Database/checkpoint(_:database:)``.
    public var isAutomatic: Bool
    /// The frames in the WAL after the checkpoint.
    public var walFrameCount: Int
    /// The frames copied into the database file.
    public var checkpointedFrameCount: Int
    /// The size of the `-wal` file after the checkpoint, in bytes, or `nil` when unknown.
    public var walFileSize: Int?

    /// Creates a report.
    public init(isAutomatic: Bool, walFrameCount: Int, checkpointedFrameCount: Int, walFileSize: Int?) {
        self.isAutomatic = isAutomatic
        self.walFrameCount = walFrameCount
        self.checkpointedFrameCount = checkpointedFrameCount
        self.walFileSize = walFileSize
    }
}

/// What a queue or pool waited for before a piece of work could start.
public enum ConnectionWaitKind: String, Sendable, Hashable {
    /// A read waited for a reader (or, on a queue, for its turn on the one connection).
    case read
    /// A write waited for the writer.
    case write
}

/// The events that are neither statements nor transactions.
public enum DatabaseEvent: Sendable {
    /// A connection opened.
    case connectionOpened(ConnectionTrace)
    /// A connection closed.
    case connectionClosed(ConnectionTrace)
    /// Another connection held a lock this one needed: SQLite retries (attempt 1 is the first
    /// retry) after waiting `waited` in all since the lock was first refused.
    case busyRetry(ConnectionTrace, attempt: Int, waited: Duration)
    /// A piece of work waited `duration` between its submission to a queue or pool (labelled
    /// `pool`) and its start on a connection.
    case connectionWait(pool: String?, kind: ConnectionWaitKind, duration: Duration)
    /// A pool's number of open readers changed.
    case readerCount(pool: String?, count: Int)
    /// A WAL checkpoint ran.
    case checkpoint(ConnectionTrace, CheckpointReport)
    /// A live query fetched again after a commit changed what it read.
    case liveQueryRefetch(pool: String?)
    /// A commit did not change what a live query read: it did not fetch again.
    case liveQueryRefetchSkipped(pool: String?)
}

// MARK: - Errors

/// An error that describes itself to logs and spans without the values it may carry.
/// ``DatabaseError`` conforms, and so does `PostgreSQLError`.
public protocol RedactableDatabaseError: Error {
    /// OpenTelemetry's `error.type`: `SQLITE_CONSTRAINT`, a PostgreSQL SQLSTATE such as `23505`.
    var errorType: String { get }
    /// OpenTelemetry's `db.response.status_code`: SQLite's extended result code, PostgreSQL's
    /// SQLSTATE.
    var statusCode: String? { get }
    /// The engine's message, without the values bound to the statement.
    var redactedMessage: String { get }
}

extension DatabaseError: RedactableDatabaseError {
    /// `SQLITE_` and the primary result code's name (`SQLITE_CONSTRAINT`), or its number.
    public var errorType: String {
        let names: [Int32: String] = [
            1: "ERROR", 2: "INTERNAL", 3: "PERM", 4: "ABORT", 5: "BUSY", 6: "LOCKED", 7: "NOMEM", 8: "READONLY",
            9: "INTERRUPT", 10: "IOERR", 11: "CORRUPT", 12: "NOTFOUND", 13: "FULL", 14: "CANTOPEN", 15: "PROTOCOL",
            17: "SCHEMA", 18: "TOOBIG", 19: "CONSTRAINT", 20: "MISMATCH", 21: "MISUSE", 22: "NOLFS", 23: "AUTH",
            25: "RANGE", 26: "NOTADB",
        ]
        let primary = resultCode.rawValue
        return "SQLITE_" + (names[primary] ?? String(primary))
    }

    /// The extended result code, as a number.
    public var statusCode: String? { String(extendedResultCode.rawValue) }

    /// SQLite's message (which never holds bound values), without the arguments.
    public var redactedMessage: String { message }
}

// MARK: - Clocks

/// The wall clock, in nanoseconds since 1970, for the ends of spans.
package func nanosecondsSinceEpoch() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return UInt64(max(time.tv_sec, 0)) &* 1_000_000_000 &+ UInt64(max(time.tv_nsec, 0))
}
