import Foundation
import Logging
import NIOCore
import PostgresNIO
import SlateCore

// When no connection can be made (a wrong host, port or Unix socket path, a server that is down),
// postgres-nio's pool retries for 60 seconds, then fails every waiting statement with
// `ConnectionPoolError(connectionCreationCircuitBreakerTripped)`, which names neither the endpoint
// nor the cause. Slate turns that error into a `PostgreSQLError` that says what happened and what
// to check, and `PostgreSQLDatabase.checkConnection(_:)` reports the cause at once, with the path.

extension PostgreSQLError {
    /// The error for a statement that could not run because postgres-nio's pool could not
    /// connect: `error` is not PostgreSQL's, so it names neither the server nor the cause.
    package static func explainingConnectionFailure(_ error: any Error, sql: String?) -> PostgreSQLError {
        let text = String(describing: error)
        var failure: PostgreSQLError
        if text.contains("connectionCreationCircuitBreakerTripped") {
            failure = PostgreSQLError(
                sqlState: nil,
                message:
                    "no connection to PostgreSQL could be made for 60 seconds, after which postgres-nio's pool stops"
                    + " trying (connectionCreationCircuitBreakerTripped): check the host and port or the Unix socket path"
                    + " (the socket file, such as /var/run/postgresql/.s.PGSQL.5432), that the server runs, and that"
                    + " the client runs (`await client.run()`); PostgreSQLDatabase.checkConnection(_:) reports the"
                    + " cause at once",
                sql: sql, driverCode: "connectionCreationCircuitBreakerTripped")
        } else {
            failure = PostgreSQLError(
                sqlState: nil, message: "the statement could not be sent: \(text.truncatedForMessages)", sql: sql,
                driverCode: "\(type(of: error))")
        }
        failure.arguments = nil
        return failure
    }
}

extension PostgreSQLDatabase {
    /// Connects once to the server `configuration` names, then closes the connection: throws at
    /// once, naming the endpoint and the cause, where a pool's statements would wait 60 seconds for
    /// postgres-nio to give up. Call it at startup, before running the client.
    ///
    /// ```swift
    /// let configuration = PostgresClient.Configuration(
    ///     unixSocketPath: "/var/run/postgresql/.s.PGSQL.5432", username: "app", password: nil, database: "app")
    /// try await PostgreSQLDatabase.checkConnection(configuration)
    /// let client = PostgresClient(configuration: configuration)
    /// ```
    ///
    /// A Unix socket path must name the socket file (`DIRECTORY/.s.PGSQL.PORT`), not the directory
    /// `PGHOST` names for libpq; the error says so. The connection attempt waits at most the
    /// configuration's `options.connectTimeout` (default 10 seconds). Over TCP the check connects
    /// without TLS and stops at the server's answer: TLS and authentication are left to the client.
    ///
    /// - Throws: ``PostgreSQLError`` (with no SQLSTATE and ``PostgreSQLError/driverCode``
    ///   `connectionCheck`) when the endpoint cannot be reached; PostgreSQL's own error when the
    ///   server refuses the user or database over a Unix socket.
    public static func checkConnection(_ configuration: PostgresClient.Configuration) async throws {
        let endpoint: String
        var connection: PostgresConnection.Configuration
        if let path = configuration.unixSocketPath {
            try checkSocketFile(path)
            endpoint = "through the Unix socket \(path)"
            connection = PostgresConnection.Configuration(
                unixSocketPath: path, username: configuration.username, password: configuration.password,
                database: configuration.database)
        } else if let host = configuration.host, let port = configuration.port {
            endpoint = "at \(host):\(port)"
            connection = PostgresConnection.Configuration(
                host: host, port: port, username: configuration.username, password: configuration.password,
                database: configuration.database, tls: .disable)
        } else {
            return
        }
        connection.options.connectTimeout = TimeAmount(configuration.options.connectTimeout)
        do {
            let opened = try await PostgresConnection.connect(
                configuration: connection, id: 0,
                logger: Logger(label: "Slate.checkConnection", factory: { _ in SwiftLogNoOpLogHandler() }))
            try await opened.close()
        } catch let error as PSQLError where error.serverInfo != nil {
            // The server answered. Over a Unix socket (no TLS either way) its refusal is the client's
            // too; over TCP, checked without TLS, it may only mean that TLS is required.
            if configuration.unixSocketPath != nil { throw PostgreSQLError(error, sql: nil, arguments: nil) }
        } catch {
            throw PostgreSQLError(
                sqlState: nil, message: "cannot connect to PostgreSQL \(endpoint): \(describe(error))",
                driverCode: "connectionCheck")
        }
    }

    /// Throws when `path` is not a socket file, saying what it is instead.
    private static func checkSocketFile(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            throw PostgreSQLError(
                sqlState: nil,
                message: "cannot connect to PostgreSQL through the Unix socket \(path): \(reason); the path names the"
                    + " socket file, such as /var/run/postgresql/.s.PGSQL.5432",
                driverCode: "connectionCheck")
        }
        guard (status.st_mode & S_IFMT) == S_IFSOCK else {
            let isDirectory = (status.st_mode & S_IFMT) == S_IFDIR
            let sockets = isDirectory ? socketFiles(in: path) : []
            var message = "cannot connect to PostgreSQL through the Unix socket \(path): it is "
            message += isDirectory ? "a directory, not a socket" : "not a socket"
            if let socket = sockets.first {
                message += "; the server's socket is \((path as NSString).appendingPathComponent(socket))"
            } else if isDirectory {
                message += "; the path names the socket file, such as \(path)/.s.PGSQL.5432"
            }
            throw PostgreSQLError(sqlState: nil, message: message, driverCode: "connectionCheck")
        }
    }

    private static func socketFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix(".s.PGSQL.") && !$0.hasSuffix(".lock") }.sorted()
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError, let underlying = error.underlying {
            return String(describing: underlying).truncatedForMessages
        }
        return String(describing: error).truncatedForMessages
    }
}
