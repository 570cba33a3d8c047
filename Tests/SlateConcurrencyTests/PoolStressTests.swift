import Foundation
import Slate
import SlateTestSupport
import Testing

/// One writer and several readers hammer a pool for a few seconds. Money moves between accounts
/// in transactions; every read must see the same total, and nobody may ever see SQLITE_BUSY.
@Suite struct ConcurrencyStressTests {
    private static let accountCount = 10
    private static let initialBalance = 1_000
    private static let duration: TimeInterval = 3
    private static let maximumTransfers = 20_000
    private static let maximumReadsPerReader = 500_000

    /// What the readers observed, shared between threads.
    private final class Observations: @unchecked Sendable {
        // @unchecked Sendable: every property is only touched while `lock` is held.
        private let lock = NSLock()
        private var reads = 0
        private var wrongTotals: [Int] = []
        private var errors: [String] = []

        func recordRead(total: Int, expected: Int) {
            lock.lock()
            reads += 1
            if total != expected { wrongTotals.append(total) }
            lock.unlock()
        }

        func recordError(_ error: any Error) {
            lock.lock()
            errors.append(String(describing: error))
            lock.unlock()
        }

        var snapshot: (reads: Int, wrongTotals: [Int], errors: [String]) {
            lock.lock()
            defer { lock.unlock() }
            return (reads, wrongTotals, errors)
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

        let deadline = Date().addingTimeInterval(Self.duration)
        let observations = Observations()

        // The writer runs on its own thread with the blocking API and tracks what it committed.
        async let writerResult = runOnThread { () -> (balances: [Int], transfers: Int) in
            var expected = Array(repeating: Self.initialBalance, count: accounts)
            var generator = SystemRandomNumberGenerator()
            var transfers = 0
            while Date() < deadline, transfers < Self.maximumTransfers {
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

        // Two readers use the async API, two the blocking one on threads of their own.
        let check: @Sendable (Database) throws -> Int = { db in
            // Two statements in one read: both must see the same snapshot.
            let sum = try db.fetchValue(Int.self, "SELECT sum(balance) FROM account")
            let balances = try db.fetchAll(Int.self, "SELECT balance FROM account")
            return sum == balances.reduce(0, +) ? sum : -1
        }
        let asyncReaders = (0..<2).map { _ in
            Task {
                var reads = 0
                while Date() < deadline, reads < Self.maximumReadsPerReader {
                    do {
                        observations.recordRead(total: try await pool.read(check), expected: total)
                    } catch {
                        observations.recordError(error)
                    }
                    reads += 1
                }
            }
        }
        let blockingReaders = (0..<2).map { _ in
            Task {
                try await runOnThread {
                    var reads = 0
                    while Date() < deadline, reads < Self.maximumReadsPerReader {
                        do {
                            observations.recordRead(total: try pool.read(check), expected: total)
                        } catch {
                            observations.recordError(error)
                        }
                        reads += 1
                    }
                }
            }
        }

        let written = try await writerResult
        for reader in asyncReaders { await reader.value }
        for reader in blockingReaders { try await reader.value }

        let seen = observations.snapshot
        #expect(seen.errors.isEmpty, "no read may fail, and none may see SQLITE_BUSY: \(seen.errors.prefix(3))")
        #expect(seen.wrongTotals.isEmpty, "every snapshot must hold the full total: \(seen.wrongTotals.prefix(5))")
        #expect(seen.reads > 0)
        #expect(written.transfers > 0)
        #expect(pool.readerCount <= 4)

        let final = try await pool.read { db in try db.fetchAll(Int.self, "SELECT balance FROM account ORDER BY id") }
        #expect(final == written.balances)
        let finalTotal: Int = final.reduce(0, +)
        #expect(finalTotal == total)
    }
}
