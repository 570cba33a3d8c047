import Foundation
import Logging
import PostgresNIO
import Slate
import SlatePostgres

/// A throwaway PostgreSQL server for tests: one per test process, started on first use on a
/// temporary data directory (initdb + pg_ctl, trust authentication, a Unix socket in the data
/// directory and no TCP port), stopped and deleted when the process exits.
///
/// A server whose test process died without running its exit handler (SIGKILL, a crash) is
/// stopped and deleted by the next test process that starts one: the directory's name,
/// `slate-postgres-<pid>-<random>`, names the process that owns it (see
/// ``removeAbandonedServers(in:)``).
///
/// PostgreSQL refuses to run as root; under root (CI) the server runs as the `postgres` user
/// through `runuser`. Without server binaries (`initdb` in `/usr/lib/postgresql/*/bin` or on the
/// `PATH`), ``isAvailable`` is false: skip the PostgreSQL tests then, with
/// ``unavailableReason``.
///
/// ```swift
/// @Suite(.enabled(if: PostgresTestServer.isAvailable, Comment(rawValue: PostgresTestServer.unavailableReason)))
/// struct PlayerStoreTests {
///     @Test func savesAndReadsBack() async throws {
///         let db = try await PostgresTestServer.makeDatabase(named: "players")
///         // …
///     }
/// }
/// ```
public enum PostgresTestServer {
    /// The directory of `initdb`, `pg_ctl` and `postgres`, or `nil`.
    public static let binDirectory: String? = {
        let fileManager = FileManager.default
        let versions = (try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let directory = "/usr/lib/postgresql/\(version)/bin"
            if fileManager.isExecutableFile(atPath: directory + "/initdb") { return directory }
        }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            if fileManager.isExecutableFile(atPath: directory + "/initdb") { return String(directory) }
        }
        return nil
    }()

    /// Whether a server can be started: PostgreSQL's server binaries were found.
    public static var isAvailable: Bool { binDirectory != nil }

    /// Why PostgreSQL tests do not run when no server can be started, for the test's skip message.
    public static let unavailableReason =
        "skipped: no PostgreSQL server (initdb not found in /usr/lib/postgresql/*/bin or on PATH; install Debian's postgresql)"

    /// The running server: its data directory (which holds its socket).
    struct Instance: Sendable {
        let directory: String
    }

    /// The server, started on first use, on a thread of its own: initdb and pg_ctl take seconds,
    /// which must not hold one of the few threads every test's tasks run on.
    static let shared = Task<Instance, any Error> {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try start() }) }.start()
        }
    }

    /// Whether the server runs as another user (`postgres`), because the tests run as root.
    package static let runsAsPostgresUser = getuid() == 0

    /// The data directory of the running server, for the exit handler (a C function pointer, which
    /// can capture nothing). `nonisolated(unsafe)`: written once, by `start()`, which runs once (in
    /// `shared`'s task) before it registers the handler; read only by the handler, at exit.
    nonisolated(unsafe) private static var startedDirectory: String?

    private static func start() throws -> Instance {
        guard let bin = binDirectory else { throw ServerError(message: "no PostgreSQL server binaries") }
        removeAbandonedServers(in: FileManager.default.temporaryDirectory.path)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-postgres-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if runsAsPostgresUser {
            try run("/bin/chown", ["postgres:postgres", directory])
        }
        let data = directory + "/data"
        try runAsServerUser(
            bin + "/initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"])
        startedDirectory = directory
        atexit {
            guard let directory = PostgresTestServer.startedDirectory, let bin = PostgresTestServer.binDirectory
            else { return }
            _ = try? PostgresTestServer.runAsServerUser(
                bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
            try? FileManager.default.removeItem(atPath: directory)
        }
        try runAsServerUser(
            bin + "/pg_ctl",
            [
                "-D", data, "-l", directory + "/server.log", "-w", "-t", "60",
                "-o", "-k \(directory) -c listen_addresses='' -F -c max_connections=400", "start",
            ])
        return Instance(directory: directory)
    }

    /// Stops and deletes the servers in `parent` whose test process is gone: every directory
    /// `slate-postgres-<pid>-<number>` whose process `pid` no longer exists. A server still runs
    /// there when its process was killed before its exit handler ran. Directories of live
    /// processes (other test runs) and of processes this one may not signal are left alone.
    /// Returns the directories deleted.
    @discardableResult
    package static func removeAbandonedServers(in parent: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        var removed: [String] = []
        for name in names {
            let parts = name.split(separator: "-")
            guard parts.count == 4, parts[0] == "slate", parts[1] == "postgres", let owner = pid_t(parts[2]),
                owner > 0,
                UInt32(parts[3]) != nil
            else { continue }
            // kill(pid, 0): ESRCH means no such process; EPERM means it lives under another user.
            guard kill(owner, 0) == -1, errno == ESRCH else { continue }
            let directory = parent + "/" + name
            if let bin = binDirectory, FileManager.default.fileExists(atPath: directory + "/data/postmaster.pid") {
                // Fails when the server is gone too (a stale postmaster.pid): deleted all the same.
                _ = try? runAsServerUser(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
            }
            if (try? FileManager.default.removeItem(atPath: directory)) != nil { removed.append(directory) }
        }
        return removed
    }

    /// The directory of the running server's Unix socket (`.s.PGSQL.5432`, in its data directory),
    /// starting the server on first use: for a connection configuration of your own.
    ///
    /// - Throws: ``ServerError`` when the server cannot be started.
    public static func socketDirectory() async throws -> String {
        try await shared.value.directory
    }

    /// A fresh, empty database on the server (started on first use), and a database value on it
    /// whose connection pool runs for the rest of the process. Its name is `prefix`, lower-cased,
    /// followed by a random number. `options` (SQL text, written by the test, never user input)
    /// follow `CREATE DATABASE name`: `TEMPLATE template0 ENCODING 'SQL_ASCII' …`.
    ///
    /// - Throws: ``ServerError`` when the server cannot be started, or a `PostgreSQLError` when the
    ///   database cannot be created.
    public static func makeDatabase(named prefix: String, options: String = "") async throws -> PostgreSQLDatabase {
        let instance = try await shared.value
        let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))".lowercased()
        let admin = client(instance, database: "postgres")
        let create = "CREATE DATABASE " + name.quotedIdentifier + (options.isEmpty ? "" : " " + options)
        try await PostgreSQLDatabase(client: admin).execute(SQL(sql: create))
        return PostgreSQLDatabase(client: client(instance, database: name))
    }

    /// A running client for `database`.
    static func client(_ instance: Instance, database: String) -> PostgresClient {
        var configuration = PostgresClient.Configuration(
            unixSocketPath: instance.directory + "/.s.PGSQL.5432", username: "postgres", password: nil,
            database: database)
        configuration.options.maximumConnections = 4
        // Each test's client keeps running until the process exits: its idle connections close
        // soon, so that hundreds of tests in one process stay within the server's connections.
        configuration.options.connectionIdleTimeout = .seconds(5)
        let client = PostgresClient(configuration: configuration)
        Task.detached { await client.run() }
        return client
    }

    /// Runs a server program (`initdb`, `pg_ctl`) as the user the server runs as: `postgres` when
    /// the tests run as root, otherwise the tests' own.
    @discardableResult
    package static func runAsServerUser(_ executable: String, _ arguments: [String]) throws -> String {
        if runsAsPostgresUser {
            return try run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
        }
        return try run(executable, arguments)
    }

    /// Runs a program, waits for it, and returns what it printed (standard output and error).
    ///
    /// - Throws: ``ServerError`` with that output when it cannot start or exits with a status
    ///   other than 0.
    @discardableResult
    package static func run(_ executable: String, _ arguments: [String]) throws -> String {
        // posix_spawn and waitpid rather than Foundation's Process, whose waitUntilExit can miss
        // the exit of a child (pg_ctl) whose own child (the server) lives on. Output goes to a file,
        // which the server inherits too, so nothing waits for a pipe to close.
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-postgres-command-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log")
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
        // A log that cannot be read reads as empty: the exit status alone decides success.
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw ServerError(
                message: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)): \(output)")
        }
        return output
    }

    /// A failure to start or stop the server, with what the command printed.
    public struct ServerError: Error, CustomStringConvertible {
        /// What failed.
        public let message: String

        /// An error with `message`.
        public init(message: String) { self.message = message }

        public var description: String { message }
    }
}
