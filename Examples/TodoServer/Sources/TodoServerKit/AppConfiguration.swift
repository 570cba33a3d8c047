import Foundation
import Logging

/// The server's settings, read from the environment.
public struct AppConfiguration: Sendable {
    /// `HOST`: the address to listen on. Default `127.0.0.1`.
    public var host = "127.0.0.1"
    /// `PORT`. Default 8080; 0 picks a free port (printed at start).
    public var port = 8080
    /// `DATA_DIR`: where the SQLite database lives (`todo.sqlite`), created if missing. Default `data`.
    public var dataDirectory = "data"
    /// `DATABASE_URL`: `postgres://user:password@host:port/database` to use PostgreSQL instead of
    /// SQLite. `PGHOST` (a host, or a Unix socket's directory), `PGPORT`, `PGUSER`, `PGPASSWORD`
    /// and `PGDATABASE` work too when `DATABASE_URL` is `postgres:` alone.
    public var databaseURL: String?
    /// `LOG_LEVEL`: `trace`, `debug`, `info` (the default), `notice`, `warning`, `error`.
    public var logLevel = Logger.Level.info
    /// `TRACE=1`: keep spans in memory and log each finished one (trace, span and parent ids),
    /// which shows the database's spans under each request's.
    public var logsSpans = false
    /// `TELEMETRY=off`: no database instrumentation at all (no statement logs, spans or metrics),
    /// to measure what it costs. Default on.
    public var databaseTelemetry = true
    /// `SHUTDOWN_GRACE_SECONDS`: how long in-flight work may take once a shutdown starts. Default 10.
    public var shutdownGracePeriod = Duration.seconds(10)

    public init() {}

    /// The settings the environment gives; the defaults for what it does not.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> AppConfiguration {
        var configuration = AppConfiguration()
        if let host = environment["HOST"], !host.isEmpty { configuration.host = host }
        if let port = environment["PORT"] {
            guard let value = Int(port), (0...65_535).contains(value) else {
                throw ConfigurationError("PORT must be a port number, not \(port)")
            }
            configuration.port = value
        }
        if let directory = environment["DATA_DIR"], !directory.isEmpty { configuration.dataDirectory = directory }
        if let url = environment["DATABASE_URL"], !url.isEmpty { configuration.databaseURL = url }
        if let level = environment["LOG_LEVEL"] {
            guard let value = Logger.Level(rawValue: level.lowercased()) else {
                throw ConfigurationError("LOG_LEVEL must be trace, debug, info, notice, warning or error, not \(level)")
            }
            configuration.logLevel = value
        }
        configuration.databaseTelemetry = !["0", "off", "false", "no"].contains(
            environment["TELEMETRY"]?.lowercased() ?? "")
        configuration.logsSpans = ["1", "true", "yes"].contains(environment["TRACE"]?.lowercased() ?? "")
        if let grace = environment["SHUTDOWN_GRACE_SECONDS"] {
            guard let seconds = Double(grace), seconds >= 0, seconds <= 3600 else {
                throw ConfigurationError("SHUTDOWN_GRACE_SECONDS must be a number of seconds, not \(grace)")
            }
            configuration.shutdownGracePeriod = .milliseconds(Int64(seconds * 1000))
        }
        return configuration
    }
}

/// A setting the server cannot use.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
