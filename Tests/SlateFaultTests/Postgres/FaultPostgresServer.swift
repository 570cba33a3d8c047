#if canImport(SlatePostgres)
    import Foundation
    import Logging
    import PostgresNIO
    import Slate
    import SlatePostgres

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
        /// The directory of `initdb`, `pg_ctl` and `psql`, or `nil`.
        static let binDirectory: String? = {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
            for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
                let directory = "/usr/lib/postgresql/\(version)/bin"
                if FileManager.default.isExecutableFile(atPath: directory + "/initdb") { return directory }
            }
            for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                if FileManager.default.isExecutableFile(atPath: directory + "/initdb") { return String(directory) }
            }
            return nil
        }()

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

        private static let runsAsPostgresUser = getuid() == 0
        nonisolated(unsafe) private static var startedDirectory: String?

        private init() throws {
            guard let bin = Self.binDirectory else { throw ServerError(message: "no PostgreSQL server binaries") }
            self.bin = bin
            directory =
                FileManager.default.temporaryDirectory
                .appendingPathComponent("slate-postgres-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if Self.runsAsPostgresUser { try Self.run("/bin/chown", ["postgres:postgres", directory]) }
            try runAsServerUser(
                bin + "/initdb",
                ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
            Self.startedDirectory = directory
            atexit {
                guard let directory = FaultPostgresServer.startedDirectory, let bin = FaultPostgresServer.binDirectory
                else { return }
                let stop = [bin + "/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop"]
                if FaultPostgresServer.runsAsPostgresUser {
                    _ = try? FaultPostgresServer.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + stop)
                } else {
                    _ = try? FaultPostgresServer.run(stop[0], Array(stop.dropFirst()))
                }
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
            try Self.run(
                bin + "/psql",
                [
                    "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-U", "postgres", "-d", database,
                    "-c", sql,
                ])
        }

        private func runAsServerUser(_ executable: String, _ arguments: [String]) throws {
            if Self.runsAsPostgresUser {
                try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
            } else {
                try Self.run(executable, arguments)
            }
        }

        /// Runs a program with posix_spawn (Foundation's Process can miss the exit of `pg_ctl`,
        /// whose child lives on) and returns its output.
        @discardableResult
        static func run(_ executable: String, _ arguments: [String]) throws -> String {
            let log = FileManager.default.temporaryDirectory
                .appendingPathComponent("slate-fault-postgres-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
                .path
            defer { try? FileManager.default.removeItem(atPath: log) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid = pid_t()
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard spawned == 0 else {
                throw ServerError(message: "cannot run \(executable): \(String(cString: strerror(spawned)))")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 {
                guard errno == EINTR else { throw ServerError(message: "waitpid failed for \(executable)") }
            }
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
                throw ServerError(
                    message: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(output)")
            }
            return output
        }

        struct ServerError: Error, CustomStringConvertible {
            let message: String
            var description: String { message }
        }
    }
#endif
