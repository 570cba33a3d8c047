import Foundation
import Logging
import SlateConcurrency
import SlateCore

// Connections, queues and pools that accept a `Logger` directly: a `DatabaseTelemetry` with only
// a logger, set as the configuration's instrumentation (replacing any other).

extension Database.Configuration {
    /// The same configuration, logging its connections' statements, transactions and waits to
    /// `logger` (``DatabaseTelemetry`` with only a logger, replacing any other instrumentation).
    public func logging(to logger: Logger, options: DatabaseTelemetry.Options = .init()) -> Database.Configuration {
        var configuration = self
        configuration.instrumentation = DatabaseTelemetry(logger: logger, options: options)
        return configuration
    }
}

extension Database {
    /// Opens a connection to the file at `path` that logs its statements to `logger`; see
    /// ``DatabaseTelemetry``.
    public convenience init(path: String, configuration: Configuration = .init(), logger: Logger) throws {
        try self.init(location: .file(path), configuration: configuration.logging(to: logger))
    }
}

extension DatabaseQueue {
    /// Opens a queue on the file at `path` that logs its statements and waits to `logger`; see
    /// ``DatabaseTelemetry``.
    public convenience init(path: String, configuration: Database.Configuration = .init(), logger: Logger) throws {
        try self.init(location: .file(path), configuration: configuration.logging(to: logger))
    }
}

extension DatabasePool {
    /// Opens a pool on the file at `path` whose writer and readers log their statements, and whose
    /// waits are logged, to `logger`; see ``DatabaseTelemetry``.
    public convenience init(
        path: String, configuration: Database.Configuration = .init(),
        maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount, logger: Logger
    ) throws {
        try self.init(
            location: .file(path), configuration: configuration.logging(to: logger),
            maximumReaderCount: maximumReaderCount)
    }
}
