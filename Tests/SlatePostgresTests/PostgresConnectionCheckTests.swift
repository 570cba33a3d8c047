#if canImport(SlatePostgres)
    import Foundation
    import PostgresNIO
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestSupport
    import Testing

    /// Issue 36: a wrong Unix socket path hung about 65 seconds, then failed with
    /// `ConnectionPoolError(connectionCreationCircuitBreakerTripped)`, naming neither the path nor the
    /// cause. `checkConnection` reports it at once; the pool's error is explained.
    @Suite struct PostgresConnectionCheckTests {
        func configuration(socket path: String) -> PostgresClient.Configuration {
            var configuration = PostgresClient.Configuration(
                unixSocketPath: path, username: "postgres", password: nil, database: "postgres")
            configuration.options.connectTimeout = .seconds(2)
            return configuration
        }

        @Test func aMissingSocketIsReportedAtOnceWithItsPath() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("nowhere/.s.PGSQL.5432")
            let started = ContinuousClock.now
            let error = await #expect(throws: PostgreSQLError.self) {
                try await PostgreSQLDatabase.checkConnection(configuration(socket: path))
            }
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(error?.sqlState == nil)
            #expect(error?.driverCode == "connectionCheck")
            #expect(
                error?.message
                    == "cannot connect to PostgreSQL through the Unix socket \(path): No such file or directory; the"
                    + " path names the socket file, such as /var/run/postgresql/.s.PGSQL.5432")
        }

        @Test func aDirectoryIsNotASocket() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let error = await #expect(throws: PostgreSQLError.self) {
                try await PostgreSQLDatabase.checkConnection(configuration(socket: directory.url.path))
            }
            #expect(
                error?.message
                    == "cannot connect to PostgreSQL through the Unix socket \(directory.url.path): it is a directory,"
                    + " not a socket; the path names the socket file, such as \(directory.url.path)/.s.PGSQL.5432")
        }

        @Test(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
        func theServersDirectoryNamesItsSocketAndTheSocketPasses() async throws {
            let directory = try await PostgresTestServer.socketDirectory()
            let error = await #expect(throws: PostgreSQLError.self) {
                try await PostgreSQLDatabase.checkConnection(configuration(socket: directory))
            }
            #expect(error?.message.hasSuffix("the server's socket is \(directory)/.s.PGSQL.5432") == true)
            try await PostgreSQLDatabase.checkConnection(configuration(socket: directory + "/.s.PGSQL.5432"))
        }

        @Test func aClosedPortIsReportedWithHostAndPort() async throws {
            var configuration = PostgresClient.Configuration(
                host: "127.0.0.1", port: 1, username: "postgres", password: nil, database: nil, tls: .disable)
            configuration.options.connectTimeout = .seconds(2)
            let error = await #expect(throws: PostgreSQLError.self) {
                try await PostgreSQLDatabase.checkConnection(configuration)
            }
            #expect(error?.message.hasPrefix("cannot connect to PostgreSQL at 127.0.0.1:1: ") == true)
        }

        @Test func thePoolsCircuitBreakerIsExplained() {
            struct ConnectionPoolError: Error, CustomStringConvertible {
                var description: String { "ConnectionPoolError(base: connectionCreationCircuitBreakerTripped)" }
            }
            let error = PostgreSQLError.explainingConnectionFailure(ConnectionPoolError(), sql: "SELECT 1")
            #expect(error.driverCode == "connectionCreationCircuitBreakerTripped")
            #expect(error.message.hasPrefix("no connection to PostgreSQL could be made for 60 seconds"))
            #expect(error.message.contains("checkConnection"))
            #expect(error.sql == "SELECT 1")
        }
    }
#endif
