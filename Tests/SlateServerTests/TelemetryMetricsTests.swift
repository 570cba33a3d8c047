import Foundation
import MetricsTestKit
import Slate
import SlateTelemetry
import Testing

@Suite("Telemetry: metrics")
struct TelemetryMetricsTests {
    @Test("statement durations by operation, connection waits, reader count")
    func statementsWaitsReaders() async throws {
        let recorder = Recorder(logs: false, traces: false)
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(
            path: directory.file("metrics.sqlite"), configuration: recorder.configuration(label: "shop"))
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE t(x)")
            try db.execute("INSERT INTO t VALUES (\(1))")
            try db.execute("INSERT INTO t VALUES (\(2))")
        }
        _ = try await pool.read { db in try db.fetchAll(Int.self, "SELECT x FROM t") }

        let inserts = try recorder.metrics.expectTimer(
            "db.client.operation.duration", [("db.system.name", "sqlite"), ("db.operation.name", "INSERT")])
        #expect(inserts.values.count == 2)
        #expect(inserts.values.allSatisfy { $0 >= 0 })
        let selects = try recorder.metrics.expectTimer(
            "db.client.operation.duration", [("db.system.name", "sqlite"), ("db.operation.name", "SELECT")])
        #expect(selects.values.count >= 1)

        let writeWaits = try recorder.metrics.expectTimer(
            "db.client.connection.wait_time", [("db.client.connection.pool.name", "shop"), ("slate.access", "write")])
        #expect(writeWaits.values.count == 1)
        let readWaits = try recorder.metrics.expectTimer(
            "db.client.connection.wait_time", [("db.client.connection.pool.name", "shop"), ("slate.access", "read")])
        #expect(readWaits.values.count == 1)

        let readers = try recorder.metrics.expectGauge(
            "slate.pool.readers", [("db.client.connection.pool.name", "shop")])
        #expect(readers.lastValue == 1)
        pool.releaseIdleReaders()
        #expect(readers.lastValue == 0)
    }

    @Test("a failed statement's duration carries its error type")
    func failedStatementDuration() throws {
        let recorder = Recorder(logs: false, traces: false)
        let db = try Database(configuration: recorder.configuration())
        #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM nowhere") }
        _ = try? db.fetchValue(Int.self, "SELECT 1")
        db.settleInstrumentation()
        // The DELETE failed to prepare: nothing ran, nothing is measured.
        #expect(
            recorder.metrics.timers(label: "db.client.operation.duration").allSatisfy {
                !$0.dimensions.contains { $0 == ("db.operation.name", "DELETE") }
            })
        try db.execute(sql: "CREATE TABLE t(x CHECK (x > 0))")
        #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO t VALUES (\(-1))") }
        db.settleInstrumentation()
        let failed = try recorder.metrics.expectTimer(
            "db.client.operation.duration",
            [("db.system.name", "sqlite"), ("db.operation.name", "INSERT"), ("error.type", "SQLITE_CONSTRAINT")])
        #expect(failed.values.count == 1)
    }

    @Test("busy retries are counted while another connection holds the lock")
    func busyRetries() async throws {
        let recorder = Recorder(logs: false, traces: false)
        let directory = TemporaryDirectory()
        let path = directory.file("busy.sqlite")
        var configuration = recorder.configuration()
        configuration.busyTimeout = 60
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        // The instrumented handler keeps the configured timeout.
        #expect(try await queue.read { db in try db.busyTimeout } == 60)
        try await queue.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        let other = try Database(path: path)
        try other.execute(sql: "BEGIN IMMEDIATE")
        // The lock is released once three retries were counted, however busy the machine is (the
        // busy timeout is only a generous upper limit).
        let metrics = recorder.metrics
        let release = Task.detached {
            let deadline = ContinuousClock.now + .seconds(50)
            while metrics.counterTotal(label: "slate.busy.retries") < 3, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            try other.execute(sql: "COMMIT")
        }
        try await queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        try await release.value
        #expect(recorder.metrics.counterTotal(label: "slate.busy.retries") >= 3)

        // Without contention, no retry.
        let quiet = Recorder(logs: false, traces: false)
        var quietConfiguration = quiet.configuration()
        quietConfiguration.busyTimeout = 2
        let alone = try DatabaseQueue(path: directory.file("alone.sqlite"), configuration: quietConfiguration)
        try await alone.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        #expect(quiet.metrics.counterTotal(label: "slate.busy.retries") == 0)
    }

    @Test("the WAL's size after a checkpoint, explicit or automatic")
    func walSizeAfterCheckpoint() async throws {
        let recorder = Recorder(logs: false, traces: false)
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(path: directory.file("wal.sqlite"), configuration: recorder.configuration())
        try await pool.write { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 10")  // SQLite's own hook: no report
            try db.execute(sql: "CREATE TABLE t(x)")
        }
        try await pool.write { db in
            for index in 0..<200 {
                try db.execute("INSERT INTO t VALUES (\(String(repeating: "x", count: 500 + index)))")
            }
        }
        #expect(recorder.metrics.recorders(label: "slate.wal.size").isEmpty)
        try await pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        let size = try recorder.metrics.expectGauge("slate.wal.size", [("db.namespace", "wal.sqlite")])
        #expect(size.lastValue == 0)

        // The automatic checkpoint, with the default threshold, on a fresh pool.
        let automatic = Recorder(logs: false, traces: false)
        let busy = try DatabasePool(path: directory.file("auto.sqlite"), configuration: automatic.configuration())
        try await busy.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        for _ in 0..<12 {
            try await busy.write { db in
                try db.execute(
                    sql: """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
                        INSERT INTO t SELECT randomblob(4000) FROM n
                        """)
            }
        }
        let autoSize = try automatic.metrics.expectGauge("slate.wal.size", [("db.namespace", "auto.sqlite")])
        #expect(autoSize.values.count >= 1)
        #expect((autoSize.lastValue ?? 0) > 0)  // a passive checkpoint does not shrink the file
    }

    @Test("live queries: refetches after commits that touch what they read, skips after the others")
    func liveQueryRefetches() async throws {
        let recorder = Recorder(logs: false, traces: false)
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(path: directory.file("live.sqlite"), configuration: recorder.configuration())
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE watched(x); CREATE TABLE other(y)")
        }
        let values = LockedValues()
        let token = pool.observe(
            { db in try db.fetchValue(Int.self, "SELECT count(*) FROM watched") }, onError: { _ in },
            onChange: { values.append($0) })
        #expect(await eventually { values.count == 1 })
        try await pool.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        try await pool.write { db in try db.execute(sql: "INSERT INTO other VALUES (2)") }
        try await pool.write { db in try db.execute(sql: "INSERT INTO watched VALUES (1)") }
        #expect(await eventually { values.count == 2 })
        token.cancel()
        #expect(recorder.metrics.counterTotal(label: "slate.live_query.refetches") == 1)
        #expect(recorder.metrics.counterTotal(label: "slate.live_query.refetches_skipped") == 2)
    }
}

/// Values appended from any thread.
final class LockedValues: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int] = []

    func append(_ value: Int) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return values.count
    }
}
