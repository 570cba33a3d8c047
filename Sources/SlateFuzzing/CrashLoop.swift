import Foundation
import Slate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash safety: a child process commits transactions through a `DatabaseQueue` or a
/// `DatabasePool` and reports each commit once `write` has returned; the parent kills it with
/// SIGKILL at a random moment, then opens the file and checks `PRAGMA integrity_check`, that every
/// reported commit is there, and that no transaction is there in part.
///
/// Each transaction inserts a batch row, 1 to 20 item rows and a payload of up to 64 KiB, and
/// updates a totals row: a torn transaction shows as a batch whose items or totals do not add up.
public enum CrashLoop {
    /// How the child writes.
    public enum Mode: String, CaseIterable, Sendable {
        /// A `DatabaseQueue` in WAL mode, with a checkpoint now and then.
        case walQueue = "wal-queue"
        /// A `DatabasePool` (WAL), with reader threads running while it is killed.
        case walPool = "wal-pool"
        /// A `DatabaseQueue` with a rollback journal (`journal_mode = DELETE`).
        case rollbackQueue = "rollback-queue"
    }

    public struct Options: Sendable {
        public var kills = 30
        public var modes: [Mode] = Mode.allCases
        public var seed: UInt64 = 1
        /// The longest time the child writes before it is killed, in milliseconds.
        public var maximumDelay = 400
        /// The `slate-fuzz` executable that runs the child.
        public var executable: URL
        /// Where the databases go; a new temporary directory when `nil`.
        public var directory: URL?

        public init(executable: URL) {
            self.executable = executable
        }
    }

    public struct ModeReport: Sendable {
        public var mode: Mode
        public var kills = 0
        /// Commits the child reported before it was killed.
        public var reportedCommits = 0
        /// Reported commits missing afterwards: must be 0.
        public var lostCommits = 0
        /// `integrity_check` results other than `ok`: must be 0.
        public var integrityFailures = 0
        /// Batches whose items or totals do not add up: must be 0.
        public var tornTransactions = 0
        /// Batches on disk at the end (reported or committed just before the kill).
        public var batchesOnDisk = 0
        /// Kills that came before the child reported anything (during open or recovery).
        public var killsBeforeFirstCommit = 0
        public var problems: [String] = []
        public var seconds = 0.0

        public var isClean: Bool {
            lostCommits == 0 && integrityFailures == 0 && tornTransactions == 0 && problems.isEmpty
        }
    }

    /// Runs the loop: `options.kills` kills spread over the modes.
    public static func run(_ options: Options, progress: (ModeReport) -> Void = { _ in }) throws -> [ModeReport] {
        let directory =
            options.directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("slate-kill-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if options.directory == nil { try? FileManager.default.removeItem(at: directory) } }
        var entropy = Entropy(seed: options.seed)
        var reports: [ModeReport] = []
        for (modeIndex, mode) in options.modes.enumerated() {
            let started = Date()
            var report = ModeReport(mode: mode)
            let path = directory.appendingPathComponent("\(mode.rawValue).sqlite").path
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            let kills = options.kills / options.modes.count + (modeIndex < options.kills % options.modes.count ? 1 : 0)
            var reported: Set<Int64> = []
            for kill in 0..<kills {
                // Mostly in the middle of the writes; sometimes right at the start (during open and
                // recovery of the previous kill's journal).
                let delay = entropy.chance(0.15) ? entropy.int(0...5) : entropy.int(10...max(10, options.maximumDelay))
                let childSeed = options.seed &+ UInt64(modeIndex * 100_000 + kill)
                let commits = try runChild(
                    executable: options.executable, path: path, mode: mode, seed: childSeed, delay: delay)
                report.kills += 1
                if commits.isEmpty { report.killsBeforeFirstCommit += 1 }
                report.reportedCommits += commits.count
                reported.formUnion(commits)
                try verify(path: path, reported: reported, into: &report)
            }
            report.seconds = Date().timeIntervalSince(started)
            progress(report)
            reports.append(report)
        }
        return reports
    }

    /// Starts the child, waits until it has committed or `delay` ms passed since it started
    /// writing, kills it, and returns the batch ids it reported as committed.
    static func runChild(executable: URL, path: String, mode: Mode, seed: UInt64, delay: Int) throws -> [Int64] {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["kill-child", "--path", path, "--mode", mode.rawValue, "--seed", String(seed)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let collected = ChildOutput()
        let reader = Thread {
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                collected.append(data)
            }
            collected.finish()
        }
        reader.start()
        // Wait for "ready" (the child opened the database), at most 30 s, then the delay.
        let deadline = Date().addingTimeInterval(30)
        while !collected.text.contains("ready"), process.isRunning, Date() < deadline { usleep(1000) }
        usleep(UInt32(delay) * 1000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        collected.waitUntilFinished()
        // Only whole lines count: a commit whose line was cut may or may not have happened.
        let lines = collected.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        return lines.compactMap { line in line.hasPrefix("C ") ? Int64(line.dropFirst(2)) : nil }
    }

    /// Opens the file after a kill and checks it.
    static func verify(path: String, reported: Set<Int64>, into report: inout ModeReport) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }  // killed before it created the file
        let db = try Database(location: .file(path))
        defer { try? db.close() }
        let integrity = try db.fetchAll(String.self, sql: "PRAGMA integrity_check")
        if integrity != ["ok"] {
            report.integrityFailures += 1
            report.problems.append("integrity_check: \(integrity.prefix(5))")
        }
        guard try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'batch'") == 1 else {
            if !reported.isEmpty {
                report.problems.append("the batch table is gone after \(reported.count) reported commits")
            }
            return
        }
        let present = Set(try db.fetchAll(Int64.self, sql: "SELECT id FROM batch"))
        let lost = reported.subtracting(present)
        report.lostCommits += lost.count
        if !lost.isEmpty { report.problems.append("reported commits missing: \(lost.sorted().prefix(10))") }
        let torn = try db.fetchValue(
            Int.self,
            sql: """
                SELECT count(*) FROM batch b
                WHERE b.n != (SELECT count(*) FROM item i WHERE i.batch = b.id)
                   OR length(b.payload) != b.size
                """)
        let totals = try db.fetchAll(
            "SELECT batches, items, (SELECT count(*) FROM batch), (SELECT count(*) FROM item) FROM total"
        ) { row in
            try (
                row.decode(Int.self, at: 0), row.decode(Int.self, at: 1), row.decode(Int.self, at: 2),
                row.decode(Int.self, at: 3)
            )
        }
        report.tornTransactions += torn
        if torn > 0 { report.problems.append("\(torn) batch(es) with missing items or a cut payload") }
        for total in totals where total.0 != total.2 || total.1 != total.3 {
            report.tornTransactions += 1
            report.problems.append("totals \(total.0)/\(total.1) but \(total.2) batches and \(total.3) items on disk")
        }
        report.batchesOnDisk = present.count
    }

    // MARK: - The child

    /// The child's side: opens `path` in `mode` and commits batches until it is killed, writing
    /// `ready` once open and `C <id>` after each commit.
    public static func child(path: String, mode: Mode, seed: UInt64) throws -> Never {
        var entropy = Entropy(seed: seed)
        let writer: any DatabaseWriter
        switch mode {
        case .walQueue, .rollbackQueue:
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                _ = try db.setJournalMode(mode == .walQueue ? .wal : .delete)
            }
            writer = queue
        case .walPool:
            writer = try DatabasePool(location: .file(path), maximumReaderCount: 4)
        }
        try writer.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS batch(id INTEGER PRIMARY KEY, n INTEGER NOT NULL, size INTEGER NOT NULL, payload BLOB NOT NULL);
                    CREATE TABLE IF NOT EXISTS item(batch INTEGER NOT NULL REFERENCES batch(id), k INTEGER NOT NULL, v TEXT NOT NULL, PRIMARY KEY (batch, k));
                    CREATE TABLE IF NOT EXISTS total(id INTEGER PRIMARY KEY CHECK (id = 1), batches INTEGER NOT NULL, items INTEGER NOT NULL);
                    INSERT OR IGNORE INTO total VALUES (1, 0, 0);
                    """)
        }
        if mode == .walPool, let pool = writer as? DatabasePool {
            for _ in 0..<3 {
                Thread {
                    while true {
                        _ = try? pool.read { db in try db.fetchValue(Int.self, sql: "SELECT sum(n) FROM batch") }
                    }
                }.start()
            }
        }
        emit("ready\n")
        var next =
            try writer.read { db in try db.fetchValue(Int64.self, sql: "SELECT coalesce(max(id), 0) FROM batch") } + 1
        while true {
            let id = next
            let count = entropy.int(1...20)
            let size = entropy.chance(0.2) ? entropy.int(4096...65536) : entropy.int(0...512)
            let payload = Data(entropy.bytes(size))
            try writer.write { db in
                try db.execute("INSERT INTO batch(id, n, size, payload) VALUES (\(id), \(count), \(size), \(payload))")
                for k in 0..<count {
                    try db.execute(
                        "INSERT INTO item(batch, k, v) VALUES (\(id), \(k), \(String(repeating: "v", count: k * 10)))")
                }
                try db.execute("UPDATE total SET batches = batches + 1, items = items + \(count) WHERE id = 1")
            }
            emit("C \(id)\n")
            next += 1
            if mode == .walQueue, entropy.chance(0.05) {
                try writer.writeWithoutTransaction { db in _ = try db.checkpoint(entropy.bool() ? .truncate : .passive)
                }
            }
        }
    }

    /// Writes to standard output at once, without buffering.
    private static func emit(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(1, base + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// What the child printed, collected by a reader thread.
final class ChildOutput: @unchecked Sendable {
    // @unchecked Sendable: `data` and `finished` are only touched while `condition` is held.
    private let condition = NSCondition()
    private var data = Data()
    private var finished = false

    func append(_ chunk: Data) {
        condition.lock()
        data.append(chunk)
        condition.unlock()
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    var text: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}
