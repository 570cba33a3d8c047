import Foundation
import Slate
import SlateTestingFaults
import Testing

/// A `DatabasePool`'s writes while readers hold snapshots, and WAL checkpoints, under every fault.
@Suite(.serialized) struct PoolSweepTests {
    /// Three readers hold a snapshot each (checked before and after) while the writer commits
    /// three batches of the ledger.
    struct PoolWrite: FaultScenario {
        static let readers = 3

        var startsFaultsItself: Bool { true }

        func prepare(at path: String) throws {
            let db = try Database(path: path)
            try db.setJournalMode(.wal)
            try Ledger.create(db)
            try db.transaction { try Ledger.insert(batch: 1, into: db) }
            try db.close()
        }

        func run(_ context: FaultRunContext) throws -> Int {
            let pool = try DatabasePool(location: context.location, maximumReaderCount: Self.readers)
            let snapshots = SnapshotReaders(pool: pool, count: Self.readers)
            try snapshots.start()
            context.startFaults()
            var failure: (any Error)?
            for batch in 2...4 {
                context.attempt("batch \(batch)")
                do {
                    try pool.write { db in try Ledger.insert(batch: batch, into: db) }
                } catch {
                    failure = error
                    break
                }
                context.reportDone("batch \(batch)")
            }
            context.injector.schedule(nil)
            let readerIssues = snapshots.finish()
            if !context.injector.isPoweredOff {
                for issue in readerIssues { context.record(issue) }
            }
            if let failure {
                context.probe(after: failure) {
                    try pool.write { db in try Ledger.probe(db) }
                    _ = try pool.read { db in try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item") }
                }
                throw failure
            }
            try pool.read { db in try Ledger.readBack(batch: 4, from: db, context: context) }
            return 3
        }

        func verify(_ db: Database, outcome: Result<Int, any Error>, context: FaultRunContext) throws {
            try Ledger.verify(db, context: context, seeded: 1)
        }
    }

    /// Three committed batches in the WAL (no automatic checkpoint), then a truncating checkpoint.
    struct Checkpoint: FaultScenario {
        var mode: Database.CheckpointMode

        var startsFaultsItself: Bool { true }

        func prepare(at path: String) throws {
            let db = try Database(path: path)
            try db.setJournalMode(.wal)
            try Ledger.create(db)
            try db.transaction { try Ledger.insert(batch: 1, into: db) }
            try db.close()
        }

        func run(_ context: FaultRunContext) throws -> Int {
            let db = try Database(location: context.location)
            defer { try? db.close() }
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            for batch in 2...4 {
                context.attempt("batch \(batch)")
                try db.transaction { try Ledger.insert(batch: batch, into: db) }
                context.reportDone("batch \(batch)")
            }
            context.startFaults()
            do {
                let result = try db.checkpoint(mode)
                if mode != .passive, result.walFrameCount != 0 || result.checkpointedFrameCount != 0 {
                    context.record(FaultIssue(.wrongResult, "a \(mode) checkpoint reported \(result)"))
                }
            } catch {
                context.probe(after: error) {
                    try Ledger.probe(db)
                    try db.checkpoint(mode)
                }
                throw error
            }
            for batch in 2...4 { try Ledger.readBack(batch: batch, from: db, context: context) }
            return 3
        }

        func verify(_ db: Database, outcome: Result<Int, any Error>, context: FaultRunContext) throws {
            try Ledger.verify(db, context: context, seeded: 1)
        }
    }

    @Test func poolWriteWithReadersOpen() throws {
        try SweepSettings.run(PoolWrite(), named: "pool write with 3 readers open", coverage: .sample(16))
    }

    @Test func truncatingCheckpoint() throws {
        try SweepSettings.run(Checkpoint(mode: .truncate), named: "checkpoint (truncate)", coverage: .every)
    }

    @Test func passiveCheckpoint() throws {
        try SweepSettings.run(Checkpoint(mode: .passive), named: "checkpoint (passive)", coverage: .every)
    }
}

/// Readers that each take a snapshot of the ledger, hold it until told, and check it did not
/// change meanwhile and adds up.
final class SnapshotReaders: @unchecked Sendable {
    // @unchecked Sendable: the readers write their findings under the lock; the semaphores
    // sequence the rest.
    private let pool: DatabasePool
    private let count: Int
    private let started = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchGroup()
    private let lock = NSLock()
    private var issues: [FaultIssue] = []

    init(pool: DatabasePool, count: Int) {
        self.pool = pool
        self.count = count
    }

    /// Starts the readers and returns once each holds its snapshot.
    func start() throws {
        for _ in 0..<count {
            finished.enter()
            Thread { [self] in
                defer { finished.leave() }
                do {
                    try pool.read { db in
                        let before = try Self.state(db)
                        started.signal()
                        release.wait()
                        let after = try Self.state(db)
                        if before != after || before.items != before.totalItems {
                            record(
                                FaultIssue(
                                    .wrongResult, "a reader's snapshot changed or does not add up: \(before) → \(after)"
                                ))
                        }
                    }
                } catch {
                    // Reading the snapshot again after a fault is allowed to fail, with SQLite's error.
                    if !(error is DatabaseError) { record(FaultIssue(.unclearError, "a reader failed: \(error)")) }
                    started.signal()
                }
            }.start()
        }
        for _ in 0..<count { started.wait() }
    }

    /// Lets the readers finish and returns what they found.
    func finish() -> [FaultIssue] {
        for _ in 0..<count { release.signal() }
        finished.wait()
        return lock.withLock { issues }
    }

    private func record(_ issue: FaultIssue) {
        lock.withLock { issues.append(issue) }
    }

    private static func state(_ db: Database) throws -> Snapshot {
        Snapshot(
            items: try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item"),
            totalItems: try db.fetchValue(Int.self, sql: "SELECT items FROM total"))
    }

    struct Snapshot: Equatable, CustomStringConvertible {
        var items: Int
        var totalItems: Int
        var description: String { "\(items) rows, totals \(totalItems)" }
    }
}
