import Foundation
import Slate

/// Load: one writer and several readers on a `DatabasePool` for a while.
///
/// The writer moves money between accounts and appends to a log, one transaction each, and
/// remembers what it committed. Every reader, in each read, checks its snapshot: the balances add
/// up to the total, the log has no gap (its count is its largest sequence number) and never
/// shrinks from one read to the next. Nobody may see `SQLITE_BUSY` or any other error; at the end
/// every committed write is there.
public enum PoolLoad {
    public struct Options: Sendable {
        public var seconds: Double = 10
        public var readers = 8
        public var accounts = 20
        public var seed: UInt64 = 1
        /// Where the database goes; a new temporary directory when `nil`.
        public var directory: URL?
        public init() {}
    }

    public struct Report: Sendable {
        public var seconds = 0.0
        public var readers = 0
        public var writes = 0
        public var reads = 0
        /// Reads and writes that failed with `SQLITE_BUSY`: must be 0.
        public var busy = 0
        /// Other errors: must be 0.
        public var errors: [String] = []
        /// Snapshots whose balances did not add up, whose log had a gap, or that went back in time: must be 0.
        public var brokenSnapshots = 0
        /// Committed writes missing at the end: must be 0.
        public var lostWrites = 0
        /// The slowest read, in milliseconds (a figure, not a limit).
        public var slowestRead = 0.0
        /// The highest number of reader connections open at once.
        public var readerConnections = 0

        public var isClean: Bool { busy == 0 && errors.isEmpty && brokenSnapshots == 0 && lostWrites == 0 }
    }

    /// What the readers saw, shared between threads.
    private final class Tally: @unchecked Sendable {
        // @unchecked Sendable: every property is only touched while `lock` is held.
        private let lock = NSLock()
        var reads = 0
        var busy = 0
        var errors: [String] = []
        var broken = 0
        var slowest = 0.0

        func record(_ body: (Tally) -> Void) {
            lock.lock()
            body(self)
            lock.unlock()
        }
    }

    public static func run(_ options: Options) throws -> Report {
        let directory =
            options.directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("slate-load-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if options.directory == nil { try? FileManager.default.removeItem(at: directory) } }
        let path = directory.appendingPathComponent("load.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }

        var configuration = Database.Configuration()
        configuration.prepareDatabase = { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let pool = try DatabasePool(
            location: .file(path), configuration: configuration, maximumReaderCount: options.readers)
        let accounts = options.accounts
        let initial = 1_000
        let total = accounts * initial
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
                    CREATE TABLE log(seq INTEGER PRIMARY KEY, account INTEGER NOT NULL, amount INTEGER NOT NULL);
                    """)
            for id in 0..<accounts { try db.execute("INSERT INTO account(id, balance) VALUES (\(id), \(initial))") }
        }

        let started = Date()
        let deadline = started.addingTimeInterval(options.seconds)
        let tally = Tally()
        let group = DispatchGroup()
        for reader in 0..<options.readers {
            group.enter()
            Thread {
                defer { group.leave() }
                var lastLogCount = 0
                _ = reader
                while Date() < deadline {
                    let readStart = Date()
                    do {
                        let (sum, balances, logCount, maximum) = try pool.read { db in
                            (
                                try db.fetchValue(Int.self, sql: "SELECT sum(balance) FROM account"),
                                try db.fetchAll(Int.self, sql: "SELECT balance FROM account"),
                                try db.fetchValue(Int.self, sql: "SELECT count(*) FROM log"),
                                try db.fetchValue(Int.self, sql: "SELECT coalesce(max(seq), 0) FROM log")
                            )
                        }
                        let elapsed = Date().timeIntervalSince(readStart) * 1000
                        let broken =
                            sum != total || balances.reduce(0, +) != total || logCount != maximum
                            || logCount < lastLogCount
                        lastLogCount = logCount
                        tally.record {
                            $0.reads += 1
                            if broken { $0.broken += 1 }
                            $0.slowest = max($0.slowest, elapsed)
                        }
                    } catch let error as DatabaseError where error.resultCode == .busy {
                        tally.record { $0.busy += 1 }
                    } catch {
                        tally.record { $0.errors.append(String(describing: error)) }
                    }
                }
            }.start()
        }

        // The writer, on this thread.
        var entropy = Entropy(seed: options.seed)
        var balances = Array(repeating: initial, count: accounts)
        var committed: [Int] = []
        var busy = 0
        var errors: [String] = []
        var readerConnections = 0
        while Date() < deadline {
            let from = entropy.int(0..<accounts)
            let to = (from + entropy.int(1..<accounts)) % accounts
            let amount = entropy.int(1...50)
            let seq = committed.count + 1
            do {
                let moved = try pool.write { db -> Bool in
                    let balance = try db.fetchValue(Int.self, "SELECT balance FROM account WHERE id = \(from)")
                    guard balance >= amount else { return false }
                    try db.execute("UPDATE account SET balance = balance - \(amount) WHERE id = \(from)")
                    try db.execute("UPDATE account SET balance = balance + \(amount) WHERE id = \(to)")
                    try db.execute("INSERT INTO log(seq, account, amount) VALUES (\(seq), \(from), \(amount))")
                    return true
                }
                if moved {
                    balances[from] -= amount
                    balances[to] += amount
                    committed.append(seq)
                }
            } catch let error as DatabaseError where error.resultCode == .busy {
                busy += 1
            } catch {
                errors.append(String(describing: error))
            }
            readerConnections = max(readerConnections, pool.readerCount)
        }
        group.wait()

        var report = Report()
        report.seconds = Date().timeIntervalSince(started)
        report.readers = options.readers
        report.writes = committed.count
        report.readerConnections = readerConnections
        tally.record {
            report.reads = $0.reads
            report.busy = busy + $0.busy
            report.errors = errors + $0.errors
            report.brokenSnapshots = $0.broken
            report.slowestRead = $0.slowest
        }
        let (finalBalances, logged) = try pool.read { db in
            (
                try db.fetchAll(Int.self, sql: "SELECT balance FROM account ORDER BY id"),
                try db.fetchAll(Int.self, sql: "SELECT seq FROM log")
            )
        }
        report.lostWrites = Set(committed).subtracting(logged).count
        if finalBalances != balances {
            report.lostWrites += zip(finalBalances, balances).filter { $0 != $1 }.count
        }
        return report
    }
}
