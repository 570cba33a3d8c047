import Foundation
import InMemoryLogging
import Logging
import Slate
import SlateTelemetry
import Testing

@Suite("Telemetry: log lines")
struct TelemetryLoggingTests {
    @Test("each statement logs at debug with its SQL, duration, rows and connection; values redacted")
    func statementLines() async throws {
        let recorder = Recorder(traces: false, metrics: false)
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(path: directory.file("log.sqlite"), configuration: recorder.configuration())
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            try db.execute("INSERT INTO player(name) VALUES (\("Arthur Dent, secret"))")
        }
        let names = try await pool.read { db in try db.fetchAll(String.self, "SELECT name FROM player") }
        #expect(names == ["Arthur Dent, secret"])

        let insert = try #require(
            recorder.entries("Statement ran").first {
                $0.metadata["db.query.text"] == "INSERT INTO player(name) VALUES (?)"
            })
        #expect(insert.level == .debug)
        #expect(insert.metadata["db.operation.name"] == "INSERT")
        #expect(insert.metadata["db.system.name"] == "sqlite")
        #expect(insert.metadata["db.namespace"] == "log.sqlite")
        #expect(insert.metadata["slate.changed_rows"] == "1")
        #expect(insert.metadata["slate.connection"]?.description.hasSuffix("writer (test)") == true)
        #expect(insert.metadata["slate.duration"]?.description.hasSuffix(" ms") == true)
        #expect(insert.metadata["slate.values"] == nil)

        let select = try #require(
            recorder.entries("Statement ran").first { $0.metadata["db.query.text"] == "SELECT name FROM player" })
        #expect(select.metadata["db.response.returned_rows"] == "1")
        #expect(select.metadata["slate.connection"]?.description.hasSuffix("reader (test)") == true)

        // The value never appears in any line: not in the SQL, not in metadata.
        for entry in recorder.logs.entries {
            #expect(!"\(entry.message) \(entry.metadata)".contains("Arthur"))
        }
        // Transactions at trace level.
        #expect(recorder.entries("Transaction committed").allSatisfy { $0.level == .trace })
        #expect(recorder.entries("Transaction committed").count >= 2)
    }

    @Test("bound values are logged only when asked for, truncated")
    func valuesOptIn() throws {
        var options = DatabaseTelemetry.Options()
        options.values = .truncated(maximumLength: 5)
        let recorder = Recorder(options: options, traces: false, metrics: false)
        let db = try Database(configuration: recorder.configuration())
        try db.execute(sql: "CREATE TABLE item(name TEXT, price REAL, data BLOB, n INTEGER)")
        try db.execute(
            "INSERT INTO item VALUES (\("Marvin's brain"), \(1.5), \(Data([1, 2, 3, 4, 5, 6])), \(nil as Int?))")
        try db.execute("SELECT * FROM item WHERE name = '?' AND n IS NOT \(42)")
        db.settleInstrumentation()
        let insert = try #require(
            recorder.entries("Statement ran").first { $0.metadata["db.operation.name"] == "INSERT" })
        #expect(
            insert.metadata["slate.values"]
                == .array(["'Marvi…' (14 characters)", "1.5", "X'0102030405…' (6 bytes)", "NULL"]))
        // A quoted '?' is no parameter.
        let select = try #require(
            recorder.entries("Statement ran").first { $0.metadata["db.operation.name"] == "SELECT" })
        #expect(select.metadata["slate.values"] == .array(["42"]))
    }

    @Test("a failed statement logs at debug with the error's type and message, never its values")
    func failedStatement() throws {
        let recorder = Recorder(traces: false, metrics: false)
        let db = try Database(configuration: recorder.configuration())
        try db.execute(sql: "CREATE TABLE account(email TEXT UNIQUE)")
        try db.execute("INSERT INTO account VALUES (\("ford@example.com"))")
        #expect(throws: DatabaseError.self) {
            try db.execute("INSERT INTO account VALUES (\("ford@example.com"))")
        }
        let failure = try #require(recorder.entries("Statement failed").first)
        #expect(failure.level == .debug)
        #expect(failure.metadata["error.type"] == "SQLITE_CONSTRAINT")
        #expect(failure.metadata["db.response.status_code"] == "2067")
        #expect(failure.metadata["error.message"] == "UNIQUE constraint failed: account.email")
        #expect(!"\(failure.metadata)".contains("ford@"))
        // Reported once, as a failure, not also as a success.
        #expect(
            recorder.entries("Statement ran").filter {
                $0.metadata["db.query.text"] == "INSERT INTO account VALUES (?)"
            }
            .count == 1)
    }

    @Test("a statement slower than the threshold logs at info")
    func slowStatement() throws {
        var options = DatabaseTelemetry.Options()
        options.slowThreshold = .milliseconds(30)
        let recorder = Recorder(options: options, traces: false, metrics: false)
        let db = try Database(configuration: recorder.configuration())
        try db.createFunction("pause", argumentCount: 1) { arguments in
            guard case .integer(let milliseconds) = arguments.value(at: 0) else { return nil }
            usleep(UInt32(milliseconds) * 1000)
            return milliseconds
        }
        _ = try db.fetchValue(Int.self, "SELECT pause(\(60))")
        _ = try db.fetchValue(Int.self, "SELECT pause(\(0))")
        db.settleInstrumentation()
        let slow = recorder.entries("Slow statement")
        #expect(slow.count == 1)
        #expect(slow.first?.level == .info)
        #expect(recorder.entries("Statement ran").contains { $0.metadata["db.query.text"] == "SELECT pause(?)" })
    }

    @Test("nothing is logged below the logger's level, and lines carry the caller's task-local metadata")
    func levelsAndCallerMetadata() async throws {
        let quiet = Recorder(level: .info, traces: false, metrics: false)
        let db = try Database(configuration: quiet.configuration())
        _ = try db.fetchValue(Int.self, "SELECT 1")
        db.settleInstrumentation()
        #expect(quiet.logs.entries.isEmpty)

        let recorder = Recorder(traces: false, metrics: false)
        let queue = try DatabaseQueue(configuration: recorder.configuration())
        var requestLogger = Logger(label: "request")
        requestLogger[metadataKey: "request.id"] = "r-42"
        try await withLogger(requestLogger) { _ in
            _ = try await queue.read { db in try db.fetchValue(Int.self, "SELECT 2") }
        }
        let line = try #require(recorder.entries("Statement ran").first { $0.metadata["db.query.text"] == "SELECT 2" })
        #expect(line.metadata["request.id"] == "r-42")
    }

    @Test("a pool's wait for a connection and a busy wait past the threshold log at info")
    func slowWaits() async throws {
        var options = DatabaseTelemetry.Options()
        options.slowThreshold = .milliseconds(20)
        let recorder = Recorder(options: options, traces: false, metrics: false)
        let directory = TemporaryDirectory()
        let path = directory.file("busy.sqlite")
        var configuration = recorder.configuration()
        configuration.busyTimeout = 2
        let pool = try DatabasePool(path: path, configuration: configuration)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        // Another connection holds the write lock for 100 ms: the pool's writer waits, busy.
        let other = try Database(path: path)
        try other.execute(sql: "BEGIN IMMEDIATE")
        let release = Task.detached {
            try? await Task.sleep(for: .milliseconds(100))
            try other.execute(sql: "COMMIT")
        }
        // Two writes at once: the second waits for the writer.
        async let first: Void = pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        async let second: Void = pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        _ = try await (first, second)
        try await release.value
        let busy = recorder.entries("Waiting for a lock another connection holds")
        #expect(busy.count >= 1)
        #expect(busy.allSatisfy { $0.level == .info })
        #expect(!recorder.entries("Database busy: retrying").isEmpty)
        let waits = recorder.entries("Waited for a connection")
        #expect(waits.contains { $0.level == .info && $0.metadata["slate.access"] == "write" })
    }
}

@Suite("Telemetry: connections, queues and pools that accept a Logger")
struct LoggerInitializersTests {
    @Test("a pool opened with a logger logs its statements")
    func poolWithLogger() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "pool", factory: { _ in logs })
        logger.logLevel = .debug
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(path: directory.file("logged.sqlite"), logger: logger)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        #expect(logs.entries.contains { $0.metadata["db.query.text"] == "CREATE TABLE t(x)" })
        let queue = try DatabaseQueue(path: directory.file("queue.sqlite"), logger: logger)
        _ = try await queue.read { db in try db.fetchValue(Int.self, "SELECT 7") }
        #expect(logs.entries.contains { $0.metadata["db.query.text"] == "SELECT 7" })
    }
}
