import Logging
import ServiceLifecycle
import SlateConcurrency

// `DatabasePool` and `DatabaseQueue` as swift-service-lifecycle services: in a `ServiceGroup`,
// they shut down gracefully with the application.

extension DatabasePool: Service {
    /// Waits for the service group's graceful shutdown, then shuts the pool down with a 10-second
    /// grace period (``SlateConcurrency/DatabasePool/shutDown(gracePeriod:)``): no new work, the
    /// work in flight finishes (or is interrupted once the grace period ends), the WAL is
    /// checkpointed and truncated, the connections close. Use ``service(gracePeriod:logger:)`` for
    /// another grace period or a log line per shutdown.
    ///
    /// Put the pool before the services that use it (the HTTP server): a service group shuts its
    /// services down in reverse order, so the server stops taking requests first. When the task
    /// is cancelled instead, the pool shuts down with no grace period.
    public func run() async throws {
        try await DatabaseShutdownService(self, gracePeriod: .seconds(10), logger: nil).run()
    }

    /// The pool as a service with a grace period and a logger of your choice.
    public func service(gracePeriod: Duration, logger: Logger? = nil) -> DatabaseShutdownService {
        DatabaseShutdownService(self, gracePeriod: gracePeriod, logger: logger)
    }
}

extension DatabaseQueue: Service {
    /// Waits for the service group's graceful shutdown, then shuts the queue down with a
    /// 10-second grace period (``SlateConcurrency/DatabaseQueue/shutDown(gracePeriod:)``). See
    /// ``SlateConcurrency/DatabasePool/run()``.
    public func run() async throws {
        try await DatabaseShutdownService(self, gracePeriod: .seconds(10), logger: nil).run()
    }

    /// The queue as a service with a grace period and a logger of your choice.
    public func service(gracePeriod: Duration, logger: Logger? = nil) -> DatabaseShutdownService {
        DatabaseShutdownService(self, gracePeriod: gracePeriod, logger: logger)
    }
}

/// A ``SlateConcurrency/DatabasePool`` or ``SlateConcurrency/DatabaseQueue`` as a service, with its
/// grace period and a logger for its shutdown.
public struct DatabaseShutdownService: Service {
    private let shutDown: @Sendable (Duration) async throws -> ShutdownReport
    private let name: String
    /// How long the work in flight may take to finish once the shutdown starts.
    public let gracePeriod: Duration
    /// Where the shutdown is logged: one `debug` line when it starts and one when it ends (`info`
    /// when work had to be abandoned or the checkpoint failed).
    public let logger: Logger?

    /// A service that shuts `pool` down.
    public init(_ pool: DatabasePool, gracePeriod: Duration, logger: Logger?) {
        self.shutDown = { try await pool.shutDown(gracePeriod: $0) }
        self.name = "DatabasePool" + (pool.configuration.label.map { " \($0)" } ?? "")
        self.gracePeriod = gracePeriod
        self.logger = logger
    }

    /// A service that shuts `queue` down.
    public init(_ queue: DatabaseQueue, gracePeriod: Duration, logger: Logger?) {
        self.shutDown = { try await queue.shutDown(gracePeriod: $0) }
        self.name = "DatabaseQueue" + (queue.configuration.label.map { " \($0)" } ?? "")
        self.gracePeriod = gracePeriod
        self.logger = logger
    }

    /// Waits for the graceful shutdown (or the task's cancellation), then shuts the database down.
    public func run() async throws {
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            graceful = false  // cancelled: no grace period
        }
        logger?.debug(
            "Shutting the database down",
            metadata: ["slate.database": "\(name)", "slate.grace_period": "\(graceful ? gracePeriod : .zero)"])
        let report = try await shutDown(graceful ? gracePeriod : .zero)
        var metadata: Logger.Metadata = [
            "slate.database": "\(name)",
            "slate.in_flight": "\(report.inFlightAtStart)",
            "slate.abandoned": "\(report.abandoned)",
            "slate.duration": "\(report.duration)",
        ]
        if let checkpoint = report.checkpoint { metadata["slate.wal.frames"] = "\(checkpoint.walFrameCount)" }
        if let error = report.checkpointError { metadata["error.message"] = "\(error)" }
        let level: Logger.Level = report.abandoned > 0 || report.checkpointError != nil ? .info : .debug
        logger?.log(level: level, "Database shut down", metadata: metadata)
    }
}
