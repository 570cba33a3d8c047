import Foundation
import InMemoryTracing
import Slate
import SlateTelemetry
import Testing
import Tracing

@Suite("Telemetry: spans")
struct TelemetryTracingTests {
    @Test("a statement's span: name, kind and OpenTelemetry's database attributes, never values")
    func statementSpan() throws {
        let recorder = Recorder(logs: false, metrics: false)
        let directory = TemporaryDirectory()
        let db = try Database(path: directory.file("shop.sqlite"), configuration: recorder.configuration())
        try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try db.execute("INSERT INTO item(name) VALUES (\("towel"))")
        _ = try db.fetchAll(String.self, "SELECT name FROM item WHERE id > \(0)")
        db.settleInstrumentation()

        let select = try #require(recorder.spans(sql: "SELECT name FROM item WHERE id > ?").first)
        #expect(select.operationName == "SELECT shop.sqlite")
        #expect(select.kind == .client)
        #expect(select.attributes.string("db.system.name") == "sqlite")
        #expect(select.attributes.string("db.system") == "sqlite")
        #expect(select.attributes.string("db.namespace") == "shop.sqlite")
        #expect(select.attributes.string("db.operation.name") == "SELECT")
        #expect(select.attributes.int("db.response.returned_rows") == 1)
        #expect(select.status == nil)

        let insert = try #require(recorder.spans(sql: "INSERT INTO item(name) VALUES (?)").first)
        #expect(insert.attributes.int("slate.changed_rows") == 1)
        for span in recorder.tracer.finishedSpans {
            #expect(!"\(span.attributes)".contains("towel"))
        }
        // Ends after it starts, on the wall clock.
        #expect(select.endInstant.nanosecondsSinceEpoch >= select.startInstant.nanosecondsSinceEpoch)
    }

    @Test("statements are children of the caller's span across a pool hop, reads and writes alike")
    func parentingAcrossPoolHop() async throws {
        let recorder = Recorder(logs: false, metrics: false)
        let directory = TemporaryDirectory()
        let pool = try DatabasePool(path: directory.file("hop.sqlite"), configuration: recorder.configuration())
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x INTEGER)") }
        recorder.tracer.clearAll()

        let span = recorder.tracer.startSpan("GET /things", context: .topLevel, ofKind: .server)
        try await ServiceContext.withValue(span.context) {
            try await pool.write { db in try db.execute("INSERT INTO t VALUES (\(1))") }
            // Across a suspension in the caller's task, too.
            try await Task.sleep(for: .milliseconds(1))
            _ = try await pool.read { db in try db.fetchAll(Int.self, "SELECT x FROM t") }
        }
        span.end()
        let request = try #require(recorder.tracer.finishedSpans.first { $0.operationName == "GET /things" })
        let write = try #require(recorder.tracer.finishedSpans.first { $0.operationName == "transaction" })
        let read = try #require(recorder.tracer.finishedSpans.first { $0.operationName == "read" })
        let insert = try #require(recorder.spans(sql: "INSERT INTO t VALUES (?)").first)
        let select = try #require(recorder.spans(sql: "SELECT x FROM t").first)

        // request → transaction → INSERT, and request → read → SELECT, all in one trace.
        #expect(write.parentSpanID == request.spanID)
        #expect(read.parentSpanID == request.spanID)
        #expect(insert.parentSpanID == write.spanID)
        #expect(select.parentSpanID == read.spanID)
        #expect(Set([request, write, read, insert, select].map(\.traceID)).count == 1)
        #expect(write.attributes.string("slate.transaction.kind") == "immediate")
        #expect(write.attributes.bool("slate.transaction.committed") == true)
        // BEGIN and COMMIT are statements of the transaction too.
        #expect(recorder.spans(sql: "COMMIT TRANSACTION").first?.parentSpanID == write.spanID)
    }

    @Test("the blocking and completion-handler calls carry the caller's context to the writer queue too")
    func parentingBlockingAndCallbacks() async throws {
        let recorder = Recorder(logs: false, metrics: false)
        let queue = try DatabaseQueue(configuration: recorder.configuration())
        let parent = recorder.tracer.startSpan("job", context: .topLevel)
        try ServiceContext.withValue(parent.context) {
            try queue.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        }
        let delivered = AsyncStream<Void>.makeStream()
        ServiceContext.withValue(parent.context) {
            queue.read({ db in try db.fetchValue(Int.self, "SELECT count(*) FROM t") }) { _ in
                delivered.continuation.yield()
            }
        }
        for await _ in delivered.stream { break }
        parent.end()
        let create = try #require(recorder.spans(sql: "CREATE TABLE t(x)").first)
        let count = try #require(recorder.spans(sql: "SELECT count(*) FROM t").first)
        let spans = recorder.tracer.finishedSpans
        let createParent = try #require(spans.first { $0.spanID == create.parentSpanID })
        let countParent = try #require(spans.first { $0.spanID == count.parentSpanID })
        #expect(createParent.parentSpanID == parent.spanContext.spanID)
        #expect(countParent.parentSpanID == parent.spanContext.spanID)
    }

    @Test("a failed statement's span records the error's type and code, with error status, without values")
    func failedStatementSpan() throws {
        let recorder = Recorder(logs: false, metrics: false)
        let db = try Database(configuration: recorder.configuration())
        try db.execute(sql: "CREATE TABLE t(x NOT NULL)")
        #expect(throws: DatabaseError.self) { try db.execute("INSERT INTO t VALUES (\(nil as String?))") }
        #expect(throws: DatabaseError.self) {
            try db.transaction { try db.execute(sql: "INSERT INTO nowhere VALUES (1)") }
        }
        let insert = try #require(recorder.spans(sql: "INSERT INTO t VALUES (?)").first)
        #expect(insert.status?.code == .error)
        #expect(insert.attributes.string("error.type") == "SQLITE_CONSTRAINT")
        #expect(insert.attributes.string("db.response.status_code") == "1299")
        #expect(insert.errors.count == 1)
        // The transaction whose body threw rolled back.
        let transaction = try #require(recorder.tracer.finishedSpans.first { $0.operationName == "transaction" })
        #expect(transaction.attributes.bool("slate.transaction.committed") == false)
        #expect(transaction.status?.code == .error)
    }
}
