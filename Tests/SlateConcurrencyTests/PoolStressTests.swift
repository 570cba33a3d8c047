import Foundation
import Slate
import SlateTestSupport
import Testing

/// One writer and several readers hammer a pool. Money moves between accounts in transactions;
/// every read must see the same total, and nobody may ever see SQLITE_BUSY.
///
/// The run is bounded by counts, not by the clock, so a busy machine makes it slower, never
/// different: the writer keeps transferring until it has made `minimumTransfers` transfers and
/// every reader has made `minimumReadsPerReader` reads while the writer was still at work; the
/// readers read until the writer stops. `timeLimit` only ends a run that cannot finish (a
/// deadlock), and fails it.
@Suite struct ConcurrencyStressTests {
    private static let accountCount = 10
    private static let initialBalance = 1_000
    private static let readerCount = 4
    private static let minimumTransfers = 500
    private static let minimumReadsPerReader = 50
    /// Far beyond what any machine needs (a few seconds when idle); reaching it fails the test.
    private static let timeLimit: TimeInterval = 300

    /// What the readers observed, shared between threads.
    private final class Observations: @unchecked Sendable {
        // @unchecked Sendable: every property is only touched while `lock` is held.
        private let lock = NSLock()
        private var readsDuringTransfers = Array(repeating: 0, count: ConcurrencyStressTests.readerCount)
        private var reads = 0
        private var wrongTotals: [Int] = []
        private var errors: [String] = []
        private var writerIsDone = false

        func recordRead(by reader: Int, total: Int, expected: Int, startedDuringTransfers: Bool) {
            lock.lock()
            reads += 1
            if startedDuringTransfers { readsDuringTransfers[reader] += 1 }
            if total != expected { wrongTotals.append(total) }
            lock.unlock()
        }

        func recordError(_ error: any Error) {
            lock.lock()
            errors.append(String(describing: error))
            lock.unlock()
        }

        /// Whether every reader has read enough while the writer was at work.
        func everyReaderHasRead(_ minimum: Int) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            return readsDuringTransfers.allSatisfy { $0 >= minimum }
        }

        var hasErrors: Bool {
            lock.lock()
            defer { lock.unlock() }
            return !errors.isEmpty
        }

        var isWriterDone: Bool {
            lock.lock()
            defer { lock.unlock() }
            return writerIsDone
        }

        func writerFinished() {
            lock.lock()
            writerIsDone = true
            lock.unlock()
        }

        var snapshot: (reads: Int, readsDuringTransfers: [Int], wrongTotals: [Int], errors: [String]) {
            lock.lock()
            defer { lock.unlock() }
            return (reads, readsDuringTransfers, wrongTotals, errors)
        }
    }

    @Test func readersAlwaysSeeAConsistentTotalWhileTheWriterTransfers() async throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        // No timeout of our own: only the pool's minimum protects its connections from each other.
        configuration.busyTimeout = nil
        // Commits without waiting for the disk, so the writer makes many more transfers.
        configuration.prepareDatabase = { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let pool = try DatabasePool(path: path, configuration: configuration, maximumReaderCount: 4)
        let accounts = Self.accountCount
        let total = accounts * Self.initialBalance
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)")
            for id in 0..<accounts {
                try db.execute("INSERT INTO account(id, balance) VALUES (\(id), \(Self.initialBalance))")
            }
        }

        let deadline = Date().addingTimeInterval(Self.timeLimit)
        let observations = Observations()

        // The writer runs on its own thread with the blocking API and tracks what it committed.
        async let writerResult = runOnThread { () -> (balances: [Int], transfers: Int) in
            defer { observations.writerFinished() }
            var expected = Array(repeating: Self.initialBalance, count: accounts)
            var generator = SystemRandomNumberGenerator()
            var transfers = 0
            // A failed read ends the run: the readers stop at their first error.
            while transfers < Self.minimumTransfers || !observations.everyReaderHasRead(Self.minimumReadsPerReader),
                !observations.hasErrors, Date() < deadline
            {
                let from = Int.random(in: 0..<accounts, using: &generator)
                let to = (from + Int.random(in: 1..<accounts, using: &generator)) % accounts
                let amount = Int.random(in: 1...50, using: &generator)
                let committed = try pool.write { db -> Bool in
                    let balance = try db.fetchValue(Int.self, "SELECT balance FROM account WHERE id = \(from)")
                    guard balance >= amount else { return false }
                    try db.execute("UPDATE account SET balance = balance - \(amount) WHERE id = \(from)")
                    try db.execute("UPDATE account SET balance = balance + \(amount) WHERE id = \(to)")
                    return true
                }
                if committed {
                    expected[from] -= amount
                    expected[to] += amount
                    transfers += 1
                }
            }
            return (expected, transfers)
        }

        // Two readers use the async API, two the blocking one on threads of their own. Each reads
        // until the writer stops.
        let check: @Sendable (Database) throws -> Int = { db in
            // Two statements in one read: both must see the same snapshot.
            let sum = try db.fetchValue(Int.self, "SELECT sum(balance) FROM account")
            let balances = try db.fetchAll(Int.self, "SELECT balance FROM account")
            return sum == balances.reduce(0, +) ? sum : -1
        }
        let asyncReaders = (0..<2).map { reader in
            Task {
                while !observations.isWriterDone, Date() < deadline {
                    let duringTransfers = !observations.isWriterDone
                    do {
                        let seen = try await pool.read(check)
                        observations.recordRead(
                            by: reader, total: seen, expected: total, startedDuringTransfers: duringTransfers)
                    } catch {
                        observations.recordError(error)
                        return
                    }
                }
            }
        }
        let blockingReaders = (2..<Self.readerCount).map { reader in
            Task {
                try await runOnThread {
                    while !observations.isWriterDone, Date() < deadline {
                        let duringTransfers = !observations.isWriterDone
                        do {
                            let seen = try pool.read(check)
                            observations.recordRead(
                                by: reader, total: seen, expected: total, startedDuringTransfers: duringTransfers)
                        } catch {
                            observations.recordError(error)
                            return
                        }
                    }
                }
            }
        }

        let written = try await writerResult
        for reader in asyncReaders { await reader.value }
        for reader in blockingReaders { try await reader.value }

        let seen = observations.snapshot
        #expect(Date() < deadline, "the run did not finish within \(Int(Self.timeLimit)) s")
        #expect(seen.errors.isEmpty, "no read may fail, and none may see SQLITE_BUSY: \(seen.errors.prefix(3))")
        #expect(seen.wrongTotals.isEmpty, "every snapshot must hold the full total: \(seen.wrongTotals.prefix(5))")
        #expect(
            seen.readsDuringTransfers.allSatisfy { $0 >= Self.minimumReadsPerReader },
            "every reader reads while the writer transfers: \(seen.readsDuringTransfers)")
        #expect(written.transfers >= Self.minimumTransfers)
        #expect(pool.readerCount <= 4)

        let final = try await pool.read { db in try db.fetchAll(Int.self, "SELECT balance FROM account ORDER BY id") }
        #expect(final == written.balances)
        let finalTotal: Int = final.reduce(0, +)
        #expect(finalTotal == total)
    }
}
