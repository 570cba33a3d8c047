#if canImport(SlatePostgres)
    import Foundation
    import Logging
    import PostgresNIO
    import Slate
    import SlatePostgres
    import SlatePostgresTesting

    /// A PostgreSQL server the fault tests own, apart from the one the other PostgreSQL suites
    /// share (`Sources/SlatePostgresTesting/PostgresTestServer.swift`), because these tests kill its
    /// backends and restart it. Started on first use on a temporary data directory (trust
    /// authentication, a Unix socket in the directory, no TCP port), stopped and deleted when the
    /// process exits. Its directory is named like the shared server's,
    /// `slate-postgres-<pid>-<random>`, so that the shared server's cleanup of servers left by
    /// killed test processes removes it too.
    ///
    /// It runs as the `postgres` user when the tests run as root (PostgreSQL refuses root), and the
    /// suites skip without server binaries.
    final class FaultPostgresServer: Sendable {
        /// The directory of `initdb`, `pg_ctl` and `psql`, or `nil`: the shared server's.
        static var binDirectory: String? { PostgresTestServer.binDirectory }

        static var isAvailable: Bool { binDirectory != nil }

        /// The server, started on first use on a thread of its own (initdb takes seconds).
        static let shared = Task<FaultPostgresServer, any Error> {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try FaultPostgresServer() }) }.start()
            }
        }

        /// The data directory's parent, which holds the socket and the log.
        let directory: String
        private let bin: String

        nonisolated(unsafe) private static var startedDirectory: String?

        private init() throws {
            guard let bin = Self.binDirectory else {
                throw PostgresTestServer.ServerError(message: "no PostgreSQL server binaries")
            }
            self.bin = bin
            directory =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("slate-postgres-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if PostgresTestServer.runsAsPostgresUser {
                try PostgresTestServer.run("/bin/chown", ["postgres:postgres", directory])
            }
            try runAsServerUser(
                bin + "/initdb",
                ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
            Self.startedDirectory = directory
            atexit {
                guard let directory = FaultPostgresServer.startedDirectory, let bin = FaultPostgresServer.binDirectory
                else { return }
                _ = try? PostgresTestServer.runAsServerUser(
                    bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
                try? FileManager.default.removeItem(atPath: directory)
            }
            try start()
        }

        /// Starts the stopped server.
        func start() throws {
            try runAsServerUser(
                bin + "/pg_ctl",
                [
                    "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60",
                    "-o",
                    "-k \(directory) -c listen_addresses='' -F -c max_connections=60 -c log_connections=on"
                        + " -c log_disconnections=on -c log_statement=all -c log_line_prefix='%m [%p] %d '",
                    "start",
                ])
        }

        /// Stops the server: `fast` rolls back open transactions and disconnects every client.
        func stop(mode: String = "fast") throws {
            try runAsServerUser(bin + "/pg_ctl", ["-D", directory + "/data", "-m", mode, "-w", "-t", "60", "stop"])
        }

        /// A running client for `database`: at most `connections` connections.
        func client(database: String, connections: Int = 4) -> PostgresClient {
            var configuration = PostgresClient.Configuration(
                unixSocketPath: directory + "/.s.PGSQL.5432", username: "postgres", password: nil, database: database)
            configuration.options.maximumConnections = connections
            let client = PostgresClient(configuration: configuration, backgroundLogger: Self.logger)
            Task.detached { await client.run() }
            return client
        }

        /// postgres-nio's log, at trace level on standard error with SLATE_PG_FAULTS_TRACE=1 (to see
        /// where a fault test waits), otherwise nothing.
        static let logger: Logger = {
            guard ProcessInfo.processInfo.environment["SLATE_PG_FAULTS_TRACE"] == "1" else {
                return Logger(label: "FaultPostgresServer", factory: { _ in SwiftLogNoOpLogHandler() })
            }
            var logger = Logger(label: "FaultPostgresServer", factory: { StreamLogHandler.standardError(label: $0) })
            logger.logLevel = .trace
            return logger
        }()

        /// Creates an empty database and returns its name.
        func createDatabase(prefix: String) throws -> String {
            let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))".lowercased()
            try psql("CREATE DATABASE \(name.quotedIdentifier)")
            return name
        }

        /// Terminates every backend connected to `database` (`pg_terminate_backend`), idle ones
        /// included, through `psql`, from any thread; returns how many.
        @discardableResult
        func terminateBackends(of database: String) throws -> Int {
            let output = try psql(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()"
            )
            return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }

        /// Terminates the backend `pid` (`pg_terminate_backend`), through `psql`, from any thread.
        func terminateBackend(_ pid: Int) throws {
            try psql("SELECT pg_terminate_backend(\(pid))")
        }

        /// Cancels the statement the backend `pid` runs (`pg_cancel_backend`), through `psql`.
        func cancelBackend(_ pid: Int) throws {
            try psql("SELECT pg_cancel_backend(\(pid))")
        }

        /// Runs `sql` on the `postgres` database through `psql` and returns its unaligned output.
        @discardableResult
        func psql(_ sql: String, database: String = "postgres") throws -> String {
            try PostgresTestServer.run(
                bin + "/psql",
                [
                    "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-U", "postgres", "-d", database,
                    "-c", sql,
                ])
        }

        private func runAsServerUser(_ executable: String, _ arguments: [String]) throws {
            try PostgresTestServer.runAsServerUser(executable, arguments)
        }
    }
#endif
