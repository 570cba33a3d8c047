import Foundation
import Logging
import PostgresNIO
import SlatePostgres
import SlateTelemetry

/// The PostgreSQL database `DATABASE_URL` names.
enum PostgreSQLConnection {
    /// A database on a connection pool to the server of `url`, and the pool's configuration (for
    /// `PostgreSQLDatabase.checkConnection(_:)` at boot)
    /// (`postgres://user:password@host:port/database`; `postgres:` alone takes the `PG*`
    /// variables, where `PGHOST` may be a Unix socket's directory). No TLS.
    static func database(
        url: String, logger: Logger, telemetry: DatabaseTelemetry?, gracePeriod: Duration,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (database: PostgreSQLDatabase, configuration: PostgresClient.Configuration) {
        var configuration: PostgresClient.Configuration
        let name: String?
        if url == "postgres:" || url == "postgresql:" {
            let host = environment["PGHOST"] ?? "localhost"
            let user = environment["PGUSER"] ?? "postgres"
            name = environment["PGDATABASE"] ?? user
            if host.hasPrefix("/") {
                let port = environment["PGPORT"] ?? "5432"
                configuration = .init(
                    unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: environment["PGPASSWORD"],
                    database: name)
            } else {
                configuration = .init(
                    host: host, port: Int(environment["PGPORT"] ?? "") ?? 5432, username: user,
                    password: environment["PGPASSWORD"], database: name, tls: .disable)
            }
        } else {
            guard let components = URLComponents(string: url),
                ["postgres", "postgresql"].contains(components.scheme ?? ""),
                let host = components.host, !host.isEmpty
            else {
                throw StartupError(
                    "DATABASE_URL is not a postgres://user:password@host:port/database URL: \(redacted(url))")
            }
            let path = String(components.path.dropFirst())
            name = path.isEmpty ? nil : path
            configuration = .init(
                host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
                password: components.password, database: name, tls: .disable)
        }
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = 16
        var clientLogger = logger
        clientLogger[metadataKey: "component"] = "postgres"
        let client = PostgresClient(configuration: configuration, backgroundLogger: clientLogger)
        var database = PostgreSQLDatabase(
            client: client, logger: clientLogger, instrumentation: telemetry, databaseName: name)
        database.shutdownGracePeriod = gracePeriod
        return (database, configuration)
    }

    /// `url` without its password, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? "(unreadable URL)"
    }
}
