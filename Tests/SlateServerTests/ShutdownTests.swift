import Foundation
import InMemoryLogging
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Slate
import SlateLifecycle
import Testing

@Suite("Graceful shutdown of pools and queues")
struct ShutdownTests {
    @Test("a pool's shutdown finishes the work in flight, refuses new work, truncates the WAL and closes")
    func poolShutdown() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shutdown.sqlite")
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        // A write in flight when the shutdown starts: it commits.
        // It holds until the test saw the shutdown refuse new work, however busy the machine is.
        let started = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let inFlight = Task {
            try await pool.write { db in
                started.continuation.yield()
                _ = release.wait(timeout: .now() + 30)
                try db.execute("INSERT INTO t VALUES (\(1))")
            }
        }
        for await _ in started.stream { break }
        let shutdown = Task { try await pool.shutDown(gracePeriod: .seconds(60)) }
        #expect(await eventually { (try? pool.read { _ in 0 }) == nil })
        // New work is refused, with an error a server can recognize.
        await #expect {
            try await pool.read { db in try db.fetchValue(Int.self, "SELECT 1") }
        } throws: { error in
            (error as? DatabaseError)?.isShutdown == true
        }
        release.signal()
        try await inFlight.value
        let report = try await shutdown.value
        #expect(report.inFlightAtStart == 1)
        #expect(report.abandoned == 0)
        #expect(report.checkpoint?.walFrameCount == 0)
        #expect(report.checkpointError == nil)
        // The WAL was checkpointed into the file and truncated; the write is there.
        // Closing the last connection may delete the WAL file; if it is still there, it is empty.
        if FileManager.default.fileExists(atPath: path + "-wal") {
            let walSize = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
            #expect(walSize == 0)
        }
        let check = try Database(path: path)
        #expect(try check.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
        // A second shutdown returns at once.
        let again = try await pool.shutDown()
        #expect(again.inFlightAtStart == 0)
    }

    @Test("work still running when the grace period ends is interrupted and rolled back")
    func gracePeriodEnds() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("late.sqlite")
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE t(x)")
        }
        let started = AsyncStream<Void>.makeStream()
        let slow = Task {
            try await queue.write { db in
                try db.execute("INSERT INTO t VALUES (\(1))")
                started.continuation.yield()
                // Runs until interrupted.
                _ = try db.fetchValue(
                    Int.self,
                    sql: "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n")
            }
        }
        // Queued behind it: never starts.
        for await _ in started.stream { break }
        let queued = Task { try await queue.write { db in try db.execute("INSERT INTO t VALUES (\(2))") } }
        try await Task.sleep(for: .milliseconds(20))
        let report = try await queue.shutDown(gracePeriod: .milliseconds(100))
        #expect(report.abandoned == 2)
        await #expect(throws: DatabaseError.self) { try await slow.value }
        await #expect {
            try await queued.value
        } throws: { error in
            (error as? DatabaseError)?.isShutdown == true
        }
        let check = try Database(path: path)
        #expect(try check.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test("as a service: the pool shuts down with the service group, after the services that use it")
    func service() async throws {
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(path: directory.file("service.sqlite"))
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        let logs = InMemoryLogHandler()
        var configured = Logger(label: "test.lifecycle", factory: { _ in logs })
        configured.logLevel = .debug
        let logger = configured
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await pool.service(gracePeriod: .seconds(2), logger: logger).run() }
                try await pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        await #expect {
            try await pool.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }
        } throws: { error in
            (error as? DatabaseError)?.isShutdown == true
        }
        #expect(logs.entries.contains { $0.message.description == "Database shut down" })
    }
}
