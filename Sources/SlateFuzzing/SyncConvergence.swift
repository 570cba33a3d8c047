import Foundation
import Slate
import SlateSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Convergence of synced replicas (issue 35): 3–5 replicas make thousands of random inserts,
/// updates and deletes offline over four related tables with foreign keys, and sync in a random
/// order through a network that loses and repeats messages; some syncs run in a child process that
/// is killed with SIGKILL at a random statement. Afterwards every replica must hold the same data,
/// clocks and conflict reports; the server's log must hold every acknowledged write once; every row
/// must be exactly what its last writer wrote; and every acknowledged write must be there, or have
/// been overridden by a later write, or be reported.
///
/// Every choice comes from the seed: the same seed runs the same writes, syncs, faults and kill
/// points (children are killed at a statement count, not a time).
public enum SyncConvergence {
    public struct Options: Sendable {
        public var replicas = 4
        /// Write transactions, over all replicas.
        public var writes = 3000
        public var seed: UInt64 = 1
        public var policy: SyncConfiguration.Policy = .lastWriterWinsPerRow
        /// Syncs run in a child process and killed (0: every sync in this process).
        public var kills = 20
        /// The `slate-fuzz` executable, for the children.
        public var executable: URL?
        /// A server's sync routes (HTTP); `nil` keeps the log in a file, behind the in-memory transport.
        public var serverURL: URL?
        /// Where the databases go; a new temporary directory when `nil`.
        public var directory: URL?
        public var faults = FaultyTransport<InMemorySyncTransport>.Faults()

        public init() {}
    }

    public struct Report: Sendable, CustomStringConvertible {
        /// Write transactions run.
        public var writes = 0
        /// Those that changed something: the entries the replicas acknowledged.
        public var acknowledged = 0
        public var syncs = 0
        public var syncsFailedByTheNetwork = 0
        public var childrenKilled = 0
        public var childrenFinished = 0
        public var logEntries = 0
        public var rows = 0
        public var overridden = 0
        public var unresolvable = 0
        public var problems: [String] = []
        public var seconds = 0.0

        public var isClean: Bool { problems.isEmpty }

        public var description: String {
            var text = String(
                format: "%d write transactions (%d with changes, acknowledged), %d syncs (%d failed on the network), "
                    + "%d children killed, %d finished; %d log entries, %d rows; %d overridden, %d unresolvable "
                    + "reported; %.1f s",
                writes, acknowledged, syncs, syncsFailedByTheNetwork, childrenKilled, childrenFinished, logEntries,
                rows, overridden,
                unresolvable, seconds)
            text +=
                problems.isEmpty
                ? "; converged" : "\nPROBLEMS (\(problems.count)):\n  " + problems.prefix(20).joined(separator: "\n  ")
            return text
        }
    }

    static let schema = """
        CREATE TABLE IF NOT EXISTS project(id TEXT PRIMARY KEY, name TEXT NOT NULL, budget INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS task(
            id TEXT PRIMARY KEY,
            project TEXT NOT NULL REFERENCES project(id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            points INTEGER NOT NULL,
            done INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS tag(id TEXT PRIMARY KEY, label TEXT NOT NULL, icon BLOB);
        CREATE TABLE IF NOT EXISTS task_tag(
            task TEXT NOT NULL REFERENCES task(id) ON DELETE CASCADE,
            tag TEXT NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
            weight REAL,
            PRIMARY KEY (task, tag));
        """
    static let tables = ["project", "task", "tag", "task_tag"]

    /// The wall clock of replica `index` at `time`: each replica's clock is off by its own skew, up
    /// to a second either way.
    static func now(_ time: Int64, replica index: Int, seed: UInt64) -> Int64 {
        var entropy = Entropy(seed: seed ^ UInt64(index &+ 1) &* 0x9E37_79B9)
        return 1_700_000_000_000 + time + Int64(entropy.int(-1000...1000))
    }

    static func openReplica(
        directory: URL, index: Int, clock: RunClock, seed: UInt64, policy: SyncConfiguration.Policy
    ) throws -> SyncReplica {
        let path = directory.appendingPathComponent("replica\(index).sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            _ = try db.setJournalMode(.wal)
            try db.execute(sql: schema)
        }
        var configuration = SyncConfiguration(tables: tables, schemaVersion: 1, policy: policy)
        configuration.replicaID = "r\(index)"
        configuration.now = { now(clock.time, replica: index, seed: seed) }
        return try SyncReplica(writer: queue, configuration: configuration)
    }

    static func openServer(directory: URL) throws -> SyncServer {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("server.sqlite").path)
        try queue.writeWithoutTransaction { db in _ = try db.setJournalMode(.wal) }
        return try SyncServer(writer: queue)
    }

    /// The transport of a run: HTTP to `serverURL`, or the server in the directory.
    static func transport(directory: URL, serverURL: URL?) throws -> any SyncTransport {
        if let serverURL { return HTTPSyncTransport(baseURL: serverURL) }
        return InMemorySyncTransport(server: try openServer(directory: directory))
    }

    // MARK: - The run

    /// An acknowledged write: a transaction `write` returned from, with what the replica had pulled
    /// when it was made.
    struct Acknowledged {
        var entry: SyncEntry
        var pulledThroughWhenWritten: Int64
    }

    public static func run(_ options: Options, progress: (String) -> Void = { _ in }) async throws -> Report {
        let started = Date()
        let directory =
            options.directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "slate-converge-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if options.directory == nil { try? FileManager.default.removeItem(at: directory) } }
        var report = Report()
        var entropy = Entropy(seed: options.seed)
        let base = try transport(directory: directory, serverURL: options.serverURL)
        let clock = RunClock()
        let replicas = try (0..<options.replicas).map {
            try openReplica(directory: directory, index: $0, clock: clock, seed: options.seed, policy: options.policy)
        }
        var acknowledged: [Acknowledged] = []
        var killsLeft = options.executable == nil ? 0 : options.kills
        var counters: [Int] = Array(repeating: 0, count: options.replicas)
        var step = 0
        while report.writes < options.writes {
            step += 1
            clock.advance(by: Int64(entropy.int(0...40)))
            let index = entropy.int(0..<options.replicas)
            let replica = replicas[index]
            if entropy.chance(0.65) {
                for _ in 0..<entropy.int(1...3) where report.writes < options.writes {
                    let choicesSeed = entropy.next()
                    let counter = counters[index]
                    let pulled = try replica.pulledThrough()
                    let before = try replica.pendingEntries().last?.sequence ?? 0
                    counters[index] = try await replica.write { db in
                        var choices = Entropy(seed: choicesSeed)
                        var next = counter
                        try RandomWrites.transaction(db, replica: index, counter: &next, &choices)
                        return next
                    }
                    if let entry = try replica.pendingEntries().last, entry.sequence > before {
                        acknowledged.append(Acknowledged(entry: entry, pulledThroughWhenWritten: pulled))
                    }
                    report.writes += 1
                }
            } else if killsLeft > 0, let executable = options.executable, entropy.chance(0.5) {
                killsLeft -= 1
                let killed = try runChild(
                    executable: executable, options: options, directory: directory, replica: index, time: clock.time,
                    seed: entropy.next(), killAfter: entropy.int(1...600))
                if killed { report.childrenKilled += 1 } else { report.childrenFinished += 1 }
                report.syncs += 1
            } else {
                let network = FaultyTransport(
                    AnyTransport(base), faults: anyFaults(options.faults), seed: entropy.next())
                do {
                    try await replica.sync(with: network)
                } catch is FaultyTransport<AnyTransport>.LostMessage {
                    report.syncsFailedByTheNetwork += 1
                } catch let error as SyncError where error.kind == .transport {
                    report.syncsFailedByTheNetwork += 1
                }
                report.syncs += 1
            }
            if step % 200 == 0 { progress("step \(step): \(report.writes) writes, \(report.syncs) syncs") }
        }
        report.acknowledged = acknowledged.count
        // Quiet network: everyone syncs until everyone has everything.
        clock.advance(by: 1000)
        for _ in 0..<10 {
            for replica in replicas { try await replica.sync(with: base) }
            let latest = try await base.pull(SyncPullRequest(after: 0, limit: 1)).latestPosition
            let settled = try replicas.allSatisfy { try $0.pendingEntries().isEmpty && $0.pulledThrough() == latest }
            if settled { break }
        }
        try await ConvergenceCheck(
            replicas: replicas, transport: base, acknowledged: acknowledged, policy: options.policy
        ).run(into: &report)
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    private static func anyFaults(_ faults: FaultyTransport<InMemorySyncTransport>.Faults)
        -> FaultyTransport<AnyTransport>.Faults
    {
        var converted = FaultyTransport<AnyTransport>.Faults()
        converted.lostRequests = faults.lostRequests
        converted.lostAnswers = faults.lostAnswers
        converted.repeatedRequests = faults.repeatedRequests
        converted.lostEntries = faults.lostEntries
        return converted
    }

    // MARK: - Children

    /// Runs a sync of replica `replica` in a child process, killed at its `killAfter`-th statement;
    /// returns whether it was killed (or finished first).
    static func runChild(
        executable: URL, options: Options, directory: URL, replica: Int, time: Int64, seed: UInt64, killAfter: Int
    ) throws -> Bool {
        let process = Process()
        process.executableURL = executable
        var arguments = [
            "converge-child", "--directory", directory.path, "--replica", String(replica), "--time", String(time),
            "--seed", String(seed), "--run-seed", String(options.seed), "--kill-after", String(killAfter),
            "--policy", options.policy == .lastWriterWinsPerRow ? "row" : "column",
        ]
        if let url = options.serverURL { arguments += ["--url", url.absoluteString] }
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline { usleep(2000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw SyncError(.transport, "a sync child of replica \(replica) hung for 120 s")
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// The child's side: syncs replica `replica` through a lossy network, and kills itself with
    /// SIGKILL at its `killAfter`-th SQL statement (on the replica's or the server's connection).
    public static func child(_ options: [String: String]) async throws -> Never {
        guard let directory = options["directory"].map({ URL(fileURLWithPath: $0) }),
            let replicaIndex = options["replica"].flatMap(Int.init), let time = options["time"].flatMap(Int64.init),
            let seed = options["seed"].flatMap(UInt64.init), let runSeed = options["run-seed"].flatMap(UInt64.init),
            let killAfter = options["kill-after"].flatMap(Int.init)
        else {
            throw SyncError(
                .configuration, "converge-child needs --directory, --replica, --time, --seed, --run-seed, --kill-after")
        }
        let policy: SyncConfiguration.Policy =
            options["policy"] == "column" ? .lastWriterWinsPerColumn : .lastWriterWinsPerRow
        let counter = StatementCounter(limit: killAfter)
        let clock = RunClock()
        clock.advance(by: time)
        let replica = try openReplica(
            directory: directory, index: replicaIndex, clock: clock, seed: runSeed, policy: policy)
        try await replica.writer.writeWithoutTransaction { db in _ = db.trace(.statement) { _ in counter.count() } }
        let base: any SyncTransport
        if let url = options["url"].flatMap(URL.init(string:)) {
            base = HTTPSyncTransport(baseURL: url)
        } else {
            let server = try openServer(directory: directory)
            try await server.writer.writeWithoutTransaction { db in _ = db.trace(.statement) { _ in counter.count() } }
            base = InMemorySyncTransport(server: server)
        }
        let network = FaultyTransport(AnyTransport(base), seed: seed)
        for _ in 0..<3 { _ = try? await replica.sync(with: network) }
        exit(0)
    }
}

/// The run's time, in milliseconds, which every replica's wall clock reads (with its own skew).
final class RunClock: @unchecked Sendable {
    // @unchecked Sendable: `milliseconds` is only touched while `lock` is held.
    private let lock = NSLock()
    private var milliseconds: Int64 = 0

    var time: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return milliseconds
    }

    func advance(by amount: Int64) {
        lock.lock()
        milliseconds += amount
        lock.unlock()
    }
}

/// Counts SQL statements and kills the process at the limit.
final class StatementCounter: @unchecked Sendable {
    // @unchecked Sendable: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var statements = 0
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func count() {
        lock.lock()
        statements += 1
        let reached = statements >= limit
        lock.unlock()
        if reached { kill(getpid(), SIGKILL) }
    }
}

/// Any transport, as one type (for `FaultyTransport`).
struct AnyTransport: SyncTransport {
    let base: any SyncTransport
    init(_ base: any SyncTransport) { self.base = base }
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse { try await base.push(request) }
    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse { try await base.pull(request) }
}
