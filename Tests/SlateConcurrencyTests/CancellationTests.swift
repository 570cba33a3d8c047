import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct ConcurrencyCancellationTests {
    /// Starts `operation` in a task, cancels the task once `started` is set, and returns the error
    /// the task threw and how long it ran.
    private func cancelWhenStarted(
        _ started: ConcurrentFlag,
        _ operation: @escaping @Sendable () async throws -> Int
    ) async throws -> (error: DatabaseError?, elapsed: TimeInterval) {
        let start = Date()
        let task = Task { try await operation() }
        #expect(await started.wait())
        try await Task.sleep(nanoseconds: 50_000_000)  // let the long statement get going
        task.cancel()
        let error = await capturedAsyncDatabaseError { try await task.value }
        return (error, Date().timeIntervalSince(start))
    }

    private func expectCancellation(_ error: DatabaseError?, elapsed: TimeInterval) {
        #expect(error?.resultCode == .interrupt)
        #expect(error?.message.contains("cancelled") == true)
        #expect(error?.isCancellation == true)
        // No timing assertion: an uncancelled 50-million-row count finishes without error, so the
        // interrupt error above is the proof. (`elapsed` is kept for failure diagnostics.)
        _ = elapsed
    }

    @Test func cancellingAQueueReadInterruptsTheRunningQuery() async throws {
        let queue = try DatabaseQueue()
        let started = ConcurrentFlag()
        let (error, elapsed) = try await cancelWhenStarted(started) {
            try await queue.read { db in
                return try countLongSettingWhenRunning(db, started)
            }
        }
        expectCancellation(error, elapsed: elapsed)
        #expect(error?.sql?.contains("RECURSIVE") == true)
        // The queue is usable afterwards, for reads and writes.
        #expect(try await queue.read { db in try db.fetchValue(Int.self, "SELECT 1 + 1") } == 2)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        #expect(try await queue.writeWithoutTransaction { db in db.isInTransaction } == false)
    }

    @Test func cancellingAQueueWriteRollsItBack() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t(x INTEGER)") }
        let started = ConcurrentFlag()
        let (error, elapsed) = try await cancelWhenStarted(started) {
            try await queue.write { db in
                try db.execute("INSERT INTO t(x) VALUES (\(1))")
                return try countLongSettingWhenRunning(db, started)
            }
        }
        expectCancellation(error, elapsed: elapsed)
        #expect(try await queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 0)
        try await queue.write { db in try db.execute("INSERT INTO t(x) VALUES (\(2))") }
        #expect(try await queue.read { db in try db.fetchAll(Int.self, "SELECT x FROM t") } == [2])
    }

    @Test func cancellingBetweenStatementsStillStopsTheWork() async throws {
        // The closure is cancelled while no statement runs (sqlite3_interrupt would be a no-op),
        // then starts the long query: the pool interrupts again until the closure ends.
        let queue = try DatabaseQueue()
        let started = ConcurrentFlag()
        let cancelled = ConcurrentFlag()
        let start = Date()
        let task = Task {
            try await queue.writeWithoutTransaction { db in
                started.set()
                while !cancelled.isSet { Thread.sleep(forTimeInterval: 0.005) }
                return try db.fetchValue(Int.self, sql: longCountingQuerySQL)
            }
        }
        #expect(await started.wait())
        task.cancel()
        cancelled.set()
        let error = await capturedAsyncDatabaseError { try await task.value }
        expectCancellation(error, elapsed: Date().timeIntervalSince(start))
        #expect(try await queue.writeWithoutTransaction { db in try db.fetchValue(Int.self, "SELECT 3") } == 3)
    }

    @Test func cancellingAPoolReadAndWriteInterruptsThem() async throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x INTEGER)") }

        let readStarted = ConcurrentFlag()
        let read = try await cancelWhenStarted(readStarted) {
            try await pool.read { db in
                return try countLongSettingWhenRunning(db, readStarted)
            }
        }
        expectCancellation(read.error, elapsed: read.elapsed)

        let writeStarted = ConcurrentFlag()
        let write = try await cancelWhenStarted(writeStarted) {
            try await pool.write { db in
                try db.execute("INSERT INTO t(x) VALUES (\(1))")
                return try countLongSettingWhenRunning(db, writeStarted)
            }
        }
        expectCancellation(write.error, elapsed: write.elapsed)

        // Nothing was committed, and both connections work.
        #expect(try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") } == 0)
        try await pool.write { db in try db.execute("INSERT INTO t(x) VALUES (\(2))") }
        #expect(try await pool.read { db in try db.fetchAll(Int.self, "SELECT x FROM t") } == [2])
    }

    @Test func workCancelledBeforeItStartsNeverRuns() async throws {
        let queue = try DatabaseQueue()
        let ran = ConcurrentFlag()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await queue.read { _ in
                ran.set()
                return 1
            }
        }
        let error = await capturedAsyncDatabaseError { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(error?.resultCode == .interrupt)
        #expect(!ran.isSet)
    }

    @Test func cancellingQueuedWorkReturnsWithoutWaitingForTheQueue() async throws {
        let queue = try DatabaseQueue()
        let blockerStarted = ConcurrentFlag()
        let releaseBlocker = DispatchSemaphore(value: 0)
        let blockerDone = ConcurrentFlag()
        // Keep the queue busy with a completion-handler call.
        queue.writeWithoutTransaction(
            { _ in
                blockerStarted.set()
                releaseBlocker.wait()
            }, completion: { _ in blockerDone.set() })
        #expect(await blockerStarted.wait())

        let ran = ConcurrentFlag()
        let task = Task {
            try await queue.write { _ in
                ran.set()
                return 1
            }
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        task.cancel()
        let error = await capturedAsyncDatabaseError { try await task.value }
        #expect(error?.isCancellation == true)
        #expect(!blockerDone.isSet)  // the task returned while the queue was still busy
        releaseBlocker.signal()
        #expect(await blockerDone.wait())
        #expect(try await queue.read { _ in 7 } == 7)
        #expect(!ran.isSet)  // the cancelled write was skipped
    }

    @Test func cancellingAServiceRunInterruptsIt() async throws {
        let service = DatabaseService()
        try await service.open(location: .inMemory)
        let started = ConcurrentFlag()
        let (error, elapsed) = try await cancelWhenStarted(started) {
            try await service.run { db in
                return try countLongSettingWhenRunning(db, started)
            }
        }
        expectCancellation(error, elapsed: elapsed)
        #expect(try await service.run { db in try db.fetchValue(Int.self, "SELECT 5") } == 5)
        try await service.close()
    }

    @Test func interruptingWithoutCancellationIsNotACancellation() async throws {
        let queue = try DatabaseQueue()
        let started = ConcurrentFlag()
        let task = Task {
            try await queue.read { db in
                return try countLongSettingWhenRunning(db, started)
            }
        }
        #expect(await started.wait())
        try await Task.sleep(nanoseconds: 50_000_000)
        queue.interrupt()
        let error = await capturedAsyncDatabaseError { try await task.value }
        #expect(error?.resultCode == .interrupt)
        #expect(error?.isCancellation == false)
    }
}
