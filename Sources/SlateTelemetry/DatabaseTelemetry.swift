import CoreMetrics
import Foundation
import Logging
import SlateCore
import Tracing

/// Logs, traces and measures what Slate's connections, queues, pools and PostgreSQL databases do,
/// with swift-log, swift-distributed-tracing and swift-metrics.
///
/// Give one to the configuration of a queue or pool (or to a `PostgreSQLDatabase`):
///
/// ```swift
/// var configuration = Database.Configuration()
/// configuration.label = "app"
/// configuration.instrumentation = DatabaseTelemetry(
///     logger: Logger(label: "app.database"),
///     tracer: InstrumentationSystem.tracer,
///     metrics: MetricsSystem.factory)
/// let pool = try DatabasePool(path: path, configuration: configuration)
/// ```
///
/// Each of the three is optional: pass only what you use. What it emits:
///
/// - **Logs** (levels as postgres-nio chooses them for a library: nothing above `info`):
///   each statement at `debug` with its SQL (placeholders, never values), duration, rows and
///   connection; a statement, a busy wait or a wait for a connection that takes at least
///   ``Options/slowThreshold`` at ``Options/slowLevel`` (`info`); transactions, busy retries and
///   waits at `trace`. Bound values are left out unless ``Options/values`` asks for them, truncated.
///   A statement's line carries the metadata of the task-local logger (`withLogger`) of the code
///   that ran it, so a request's database lines carry its request id.
/// - **Spans**: one per statement, named `{db.operation.name} {db.namespace}`, of kind `client`,
///   with OpenTelemetry's database attributes (`db.system.name`, `db.namespace`,
///   `db.operation.name`, `db.query.text` with placeholders, `db.response.returned_rows`, and
///   `error.type` on failure); one per transaction, savepoint or snapshot read, around its
///   statements. Spans are children of the caller's span (`ServiceContext.current`), across
///   `await`, the hop to a pool's reader or writer, and its queue.
/// - **Metrics**: `db.client.operation.duration` (a timer, by `db.system.name` and
///   `db.operation.name`), `db.client.connection.wait_time` (by pool and access),
///   `slate.pool.readers`, `slate.busy.retries`, `slate.wal.size` (bytes, after each checkpoint),
///   `slate.live_query.refetches` and `slate.live_query.refetches_skipped`.
public final class DatabaseTelemetry: DatabaseInstrumentation {
    /// How much to log, and when a wait is slow.
    public struct Options: Sendable {
        /// Statements, busy waits and waits for a connection that take at least this long are
        /// logged at ``slowLevel``. Default 100 ms.
        public var slowThreshold: Duration = .milliseconds(100)
        /// The level of slow statements and waits. Default `info`: the most severe level a library
        /// should use.
        public var slowLevel: Logger.Level = .info
        /// The level of every other statement. Default `debug`.
        public var statementLevel: Logger.Level = .debug
        /// Whether log lines show the values bound to statements. Default
        /// ``ValueLogging/redacted``. Spans never carry values.
        public var values: ValueLogging = .redacted

        /// The defaults.
        public init() {}
    }

    /// Whether log lines show the values bound to statements.
    public enum ValueLogging: Sendable, Hashable {
        /// Values are never logged.
        case redacted
        /// Values are logged as SQL literals, text and blobs cut to `maximumLength` characters
        /// (or bytes). They may be sensitive: turn it on only where the logs may hold them.
        case truncated(maximumLength: Int)
    }

    /// Where log lines go, or `nil` for none.
    public let logger: Logger?
    /// What starts spans, or `nil` for none.
    public let tracer: (any Tracer)?
    /// What makes metrics, or `nil` for none.
    public let metrics: (any MetricsFactory)?
    /// How much to log.
    public let options: Options

    let meters: MetricCache

    /// Emits logs to `logger`, spans to `tracer` and metrics to `metrics`; leave out what you do
    /// not use.
    ///
    /// - Parameters:
    ///   - logger: The logger of the database's lines (`debug` and `trace` lines show only when
    ///     its level lets them).
    ///   - tracer: Usually `InstrumentationSystem.tracer`, once bootstrapped.
    ///   - metrics: Usually `MetricsSystem.factory`, once bootstrapped.
    ///   - options: Thresholds, levels and value logging.
    public init(
        logger: Logger? = nil, tracer: (any Tracer)? = nil, metrics: (any MetricsFactory)? = nil,
        options: Options = Options()
    ) {
        self.logger = logger
        self.tracer = tracer
        self.metrics = metrics
        self.options = options
        self.meters = MetricCache(factory: metrics)
    }

    // MARK: Context

    /// What travels with a piece of work: the caller's tracing context and task-local logger.
    struct CapturedContext: Sendable {
        var serviceContext: ServiceContext?
        var logger: Logger?
    }

    public func captureContext() -> (any Sendable)? {
        CapturedContext(serviceContext: ServiceContext.current, logger: logger == nil ? nil : Logger.current)
    }

    public func withContext<Result>(_ context: (any Sendable)?, _ body: () throws -> Result) throws -> Result {
        guard let captured = context as? CapturedContext else { return try body() }
        return try ServiceContext.withValue(captured.serviceContext) {
            guard let logger = captured.logger else { return try body() }
            return try withLogger(logger) { _ in try body() }
        }
    }

    // MARK: Statements

    /// What a statement's end needs from its start.
    struct StatementToken: Sendable {
        var span: (any Span)?
        /// The metadata of the task-local logger of the code that ran the statement.
        var callerMetadata: Logger.Metadata
        /// The bound values, rendered for the log, when the options ask for them.
        var values: [String]?
    }

    /// The span of a transaction, savepoint or snapshot read.
    struct TransactionToken: Sendable {
        var span: (any Span)?
    }

    public func statementWillRun(_ statement: StatementTrace, transaction: (any Sendable)?) -> (any Sendable)? {
        var token = StatementToken(span: nil, callerMetadata: [:], values: nil)
        if let tracer {
            let parent = (transaction as? TransactionToken)?.span?.context ?? ServiceContext.current ?? .topLevel
            token.span = startStatementSpan(statement, tracer: tracer, parent: parent)
        }
        if let logger, logger.logLevel <= max(options.statementLevel, options.slowLevel) {
            token.callerMetadata = Logger.current.handler.metadata
            if case .truncated(let length) = options.values {
                token.values = statement.boundValues().map { $0.map { Self.render($0, maximumLength: length) } }
            }
        }
        return token
    }

    public func statementDidFinish(_ statement: StatementTrace, token: (any Sendable)?, outcome: StatementOutcome) {
        let token = token as? StatementToken
        if let span = token?.span { endStatementSpan(span, outcome: outcome) }
        if metrics != nil { recordStatementMetrics(statement, outcome: outcome) }
        if logger != nil { logStatement(statement, token: token, outcome: outcome) }
    }

    // MARK: Transactions

    public func transactionDidBegin(_ transaction: TransactionTrace, enclosing: (any Sendable)?) -> (any Sendable)? {
        let parent = (enclosing as? TransactionToken)?.span?.context ?? ServiceContext.current ?? .topLevel
        let span = tracer.map { startTransactionSpan(transaction, tracer: $0, parent: parent) }
        logger?.trace(
            "Transaction began",
            metadata: [
                "slate.transaction.kind": "\(transaction.kind.rawValue)",
                "slate.connection": "\(transaction.connection)",
            ])
        return TransactionToken(span: span)
    }

    public func transactionDidEnd(_ transaction: TransactionTrace, token: (any Sendable)?, outcome: TransactionOutcome)
    {
        if let span = (token as? TransactionToken)?.span { endTransactionSpan(span, outcome: outcome) }
        logTransactionEnd(transaction, outcome: outcome)
    }

    // MARK: Other events

    public func record(_ event: DatabaseEvent) {
        switch event {
        case .connectionOpened(let connection):
            logger?.debug("Connection opened", metadata: Self.connectionMetadata(connection))
        case .connectionClosed(let connection):
            logger?.debug("Connection closed", metadata: Self.connectionMetadata(connection))
        case .busyRetry(let connection, let attempt, let waited):
            meters.counter("slate.busy.retries", [("db.system.name", connection.system.rawValue)])?.increment()
            logBusyRetry(connection, attempt: attempt, waited: waited)
        case .connectionWait(let pool, let kind, let duration):
            meters.timer(
                "db.client.connection.wait_time",
                [("db.client.connection.pool.name", pool ?? "default"), ("slate.access", kind.rawValue)]
            )?.recordNanoseconds(Self.nanoseconds(duration))
            logConnectionWait(pool: pool, kind: kind, duration: duration)
        case .readerCount(let pool, let count):
            meters.gauge("slate.pool.readers", [("db.client.connection.pool.name", pool ?? "default")])?.record(count)
            logger?.trace(
                "Readers open",
                metadata: ["db.client.connection.pool.name": "\(pool ?? "default")", "slate.readers": "\(count)"])
        case .checkpoint(let connection, let report):
            if let size = report.walFileSize {
                meters.gauge("slate.wal.size", [("db.namespace", connection.namespace)])?.record(size)
            }
            logCheckpoint(connection, report)
        case .liveQueryRefetch(let pool):
            meters.counter("slate.live_query.refetches", [("db.client.connection.pool.name", pool ?? "default")])?
                .increment()
            logger?.trace("Live query refetches", metadata: ["db.client.connection.pool.name": "\(pool ?? "default")"])
        case .liveQueryRefetchSkipped(let pool):
            meters.counter(
                "slate.live_query.refetches_skipped", [("db.client.connection.pool.name", pool ?? "default")])?
                .increment()
        }
    }

    // MARK: Helpers

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
