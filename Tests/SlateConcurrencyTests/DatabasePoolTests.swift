import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateConcurrency

@Suite struct ConcurrencyPoolTests {
    /// A pool on a fresh file with an `item` table.
    private func makePool(
        maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount,
        idleReaderTimeout: TimeInterval? = nil,
        configure: (inout Database.Configuration) -> Void = { _ in }
    ) throws -> (pool: DatabasePool, directory: TemporaryDirectory, path: String) {
        let (directory, path) = try makeTemporaryDatabase()
        var configuration = Database.Configuration()
        configure(&configuration)
        let pool = try DatabasePool(
            path: path, configuration: configuration,
            maximumReaderCount: maximumReaderCount, idleReaderTimeout: idleReaderTimeout)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        }
        return (pool, directory, path)
    }

    @Test func rejectsPrivateLocationsAndEmptyReaderPools() throws {
        #expect(capturedDatabaseError { try DatabasePool(location: .inMemory) }?.resultCode == .misuse)
        #expect(capturedDatabaseError { try DatabasePool(location: .temporary) }?.resultCode == .misuse)
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let error = capturedDatabaseError { try DatabasePool(path: path, maximumReaderCount: 0) }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("maximumReaderCount") == true)
    }

    @Test func readsAFreshDatabaseBeforeAnyWrite() throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let pool = try DatabasePool(path: path)
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") } == 0)
        #expect(try pool.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") } == "wal")
    }

    @Test func shortBusyTimeoutsAreRaisedToTheMinimum() throws {
        let (pool, directory, path) = try makePool { $0.busyTimeout = nil }
        defer { directory.remove() }
        #expect(pool.configuration.busyTimeout == nil)
        let outsider = try Database(path: path)
        try outsider.execute(sql: "BEGIN IMMEDIATE")
        let start = Date()
        let error = capturedDatabaseError {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM item") }
        }
        #expect(error?.resultCode == .busy)
        #expect(Date().timeIntervalSince(start) >= DatabasePool.minimumBusyTimeout * 0.9)
        try outsider.execute(sql: "ROLLBACK")
    }

    @Test func switchesToWALAndRoundTrips() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        #expect(try pool.read { db in try db.fetchValue(String.self, "PRAGMA journal_mode") } == "wal")
        let id = try pool.write { db in
            try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
            return db.lastInsertedRowID
        }
        #expect(id == 1)
        #expect(try pool.read { db in try db.fetchAll(String.self, "SELECT name FROM item") } == ["apple"])
        #expect(try pool.read { db in db.isInTransaction && db.isReadOnly })
        #expect(try pool.writeWithoutTransaction { db in db.isInTransaction } == false)
        #expect(pool.readerCount == 1)
        #expect(pool.maximumReaderCount == 5)
    }

    @Test func writeRollsBackAndReadersCannotWrite() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        let error = capturedDatabaseError {
            try pool.write { db in
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
            }
        }
        #expect(error?.extendedResultCode == .constraintUnique)
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 0)
        let readOnly = capturedDatabaseError { try pool.read { db in try db.execute(sql: "DELETE FROM item") } }
        #expect(readOnly?.resultCode == .readOnly)
    }

    @Test func writingOrBarrierInsideAReadIsMisuse() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        let errors = try pool.read { _ in
            [
                capturedDatabaseError { try pool.write { _ in 1 } },
                capturedDatabaseError { try pool.barrierWrite { _ in 1 } },
                capturedDatabaseError { try pool.read { _ in 1 } },
            ]
        }
        let codes: [ResultCode?] = errors.map(\.?.resultCode)
        let misuse: [ResultCode?] = [.misuse, .misuse, .misuse]
        #expect(codes == misuse)
    }

    @Test func readSeesOneSnapshotWhileAWriteCommits() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        let readerStarted = DispatchSemaphore(value: 0)
        let writeCommitted = DispatchSemaphore(value: 0)
        let counts = ConcurrentLog<Int>()
        let readDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.read { db in
                counts.append(try db.fetchValue(Int.self, "SELECT count(*) FROM item"))
                readerStarted.signal()
                writeCommitted.wait()
                counts.append(try db.fetchValue(Int.self, "SELECT count(*) FROM item"))
            }
            readDone.signal()
        }
        readerStarted.wait()
        try pool.write { db in try db.execute("INSERT INTO item(name) VALUES (\("apple"))") }
        writeCommitted.signal()
        readDone.wait()
        // The read kept its snapshot; a new read sees the write.
        #expect(counts.values == [0, 0])
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 1)
    }

    @Test func readStartedBeforeAWriteCommitsDoesNotWaitForIt() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        let writeStarted = DispatchSemaphore(value: 0)
        let readFinished = DispatchSemaphore(value: 0)
        let writeDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? pool.write { db in
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
                writeStarted.signal()
                readFinished.wait()  // the write stays open until the read is done
            }
            writeDone.signal()
        }
        writeStarted.wait()
        let count = try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") }
        readFinished.signal()
        writeDone.wait()
        #expect(count == 0)
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 1)
    }

    @Test func readsRunInParallelUpToTheMaximum() throws {
        let (pool, directory, _) = try makePool(maximumReaderCount: 2)
        defer { directory.remove() }
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        let order = ConcurrentLog<String>()
        for index in 0..<2 {
            DispatchQueue.global().async(group: finished) {
                _ = try? pool.read { _ in
                    order.append("start \(index)")
                    started.signal()
                    release.wait()
                }
            }
        }
        // Both reads hold a reader at the same time.
        started.wait()
        started.wait()
        #expect(pool.readerCount == 2)
        // A third read waits until one of them gives its reader back.
        DispatchQueue.global().async(group: finished) {
            _ = try? pool.read { _ in order.append("third") }
        }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!order.values.contains("third"))
        release.signal()
        release.signal()
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(order.values.last == "third")
        #expect(pool.readerCount == 2)
    }

    @Test func barrierWriteWaitsForReadsAndHoldsNewOnesBack() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        let events = ConcurrentLog<String>()
        let readStarted = DispatchSemaphore(value: 0)
        let releaseRead = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) {
            _ = try? pool.read { _ in
                readStarted.signal()
                releaseRead.wait()
                events.append("first read ends")
            }
        }
        readStarted.wait()
        let barrierRunning = DispatchSemaphore(value: 0)
        DispatchQueue.global().async(group: done) {
            _ = try? pool.barrierWrite { db in
                events.append("barrier")
                try db.execute("INSERT INTO item(name) VALUES (\("barrier"))")
                _ = try db.fetchAll(Int.self, "PRAGMA wal_checkpoint(TRUNCATE)")
            }
            barrierRunning.signal()
        }
        // Wait until the barrier holds new reads back while it waits for the first read.
        let deadline = Date().addingTimeInterval(livenessTimeout)
        while !pool.readers.hasActiveBarrier, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(pool.readers.hasActiveBarrier)
        #expect(events.values.isEmpty)  // the barrier waits for the read
        DispatchQueue.global().async(group: done) {
            let count = try? pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") }
            events.append("second read sees \(count ?? -1)")
        }
        Thread.sleep(forTimeInterval: 0.1)
        releaseRead.signal()
        #expect(done.wait(timeout: .now() + 120) == .success)
        #expect(events.values == ["first read ends", "barrier", "second read sees 1"])
        barrierRunning.wait()
    }

    @Test func releasingIdleReadersClosesThem() throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        #expect(pool.readerCount == 0)
        _ = try pool.read { _ in 1 }
        #expect(pool.readerCount == 1)
        pool.releaseIdleReaders()
        #expect(pool.readerCount == 0)
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 0)
        #expect(pool.readerCount == 1)
    }

    @Test func idleReadersCloseAfterTheTimeout() async throws {
        let (pool, directory, _) = try makePool(idleReaderTimeout: 0.05)
        defer { directory.remove() }
        _ = try await pool.read { _ in 1 }
        let deadline = Date().addingTimeInterval(livenessTimeout)
        while pool.readerCount > 0, Date() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(pool.readerCount == 0)
        #expect(pool.idleReaderTimeout == 0.05)
    }

    @Test func asyncCallsWriteReadAndRollBack() async throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        try await pool.write { db in try db.execute("INSERT INTO item(name) VALUES (\("apple"))") }
        try await pool.writeWithoutTransaction { db in try db.execute("INSERT INTO item(name) VALUES (\("pear"))") }
        let checkpoint = try await pool.barrierWrite { db in
            try db.fetchAll(Int.self, "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        #expect(checkpoint.first == 0)  // not busy: no reader was in the way
        let failure = await capturedAsyncDatabaseError {
            try await pool.write { db in
                try db.execute("INSERT INTO item(name) VALUES (\("plum"))")
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
            }
        }
        #expect(failure?.extendedResultCode == .constraintUnique)
        let names = try await pool.read { db in try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }
        #expect(names == ["apple", "pear"])
        let readOnly = await capturedAsyncDatabaseError {
            try await pool.read { db in try db.execute(sql: "DELETE FROM item") }
        }
        #expect(readOnly?.resultCode == .readOnly)

        // Many parallel async reads share the bounded readers.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let expectedCounts: [Int] = Array(repeating: 2, count: 20)
        #expect(counts == expectedCounts)
        #expect(pool.readerCount <= 5)
    }

    @Test func completionHandlersDeliverResults() async throws {
        let (pool, directory, _) = try makePool()
        defer { directory.remove() }
        let written = await awaitCompletion { done in
            pool.write(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
                    return db.lastInsertedRowID
                }, completion: done)
        }
        #expect(try written.get() == 1)
        let plain = await awaitCompletion { done in
            pool.writeWithoutTransaction(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("pear"))")
                    return db.isInTransaction
                }, completion: done)
        }
        #expect(try plain.get() == false)
        let barrier = await awaitCompletion { done in
            pool.barrierWrite({ db in try db.fetchAll(Int.self, "PRAGMA wal_checkpoint(TRUNCATE)") }, completion: done)
        }
        #expect(try barrier.get().first == 0)
        let failed = await awaitCompletion { done in
            pool.write(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("plum"))")
                    try db.execute("INSERT INTO item(name) VALUES (\("pear"))")
                }, completion: done)
        }
        #expect(failed.failureAsDatabaseError?.extendedResultCode == .constraintUnique)
        let read = await awaitCompletion { done in
            pool.read({ db in try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }, completion: done)
        }
        #expect(try read.get() == ["apple", "pear"])
        let readFailure = await awaitCompletion { done in
            pool.read({ db in try db.fetchValue(Int.self, "SELECT count(*) FROM nowhere") }, completion: done)
        }
        #expect(readFailure.failureAsDatabaseError?.resultCode == .error)
    }

    /// Checklist W5: a lock held outside the pool makes writes wait for the busy timeout, then
    /// fail with a clear busy error.
    @Test func lockHeldOutsideThePoolReportsBusyAfterTheTimeout() throws {
        let (pool, directory, path) = try makePool { $0.busyTimeout = 1.2 }
        defer { directory.remove() }
        var outsiderConfiguration = Database.Configuration()
        outsiderConfiguration.busyTimeout = nil
        let outsider = try Database(path: path, configuration: outsiderConfiguration)
        try outsider.execute(sql: "BEGIN IMMEDIATE")
        let start = Date()
        let error = capturedDatabaseError {
            try pool.write { db in try db.execute("INSERT INTO item(name) VALUES (\("apple"))") }
        }
        let elapsed = Date().timeIntervalSince(start)
        #expect(error?.resultCode == .busy)
        #expect(error?.message.contains("busy timeout (1.2 s") == true)
        #expect(elapsed >= 1.1)
        // Readers are not blocked by the outside writer.
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 0)
        try outsider.execute(sql: "COMMIT")
        try pool.write { db in try db.execute("INSERT INTO item(name) VALUES (\("apple"))") }
        #expect(try pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 1)
    }
}
