import Foundation
import Slate
import SlateTelemetry
import Testing

@Suite("Instrumentation hooks of the core")
struct InstrumentationHooksTests {
    @Test("the operation name is the SQL's first keyword, after spaces and comments")
    func operationNames() {
        #expect(StatementTrace.operationName(of: "select 1") == "SELECT")
        #expect(StatementTrace.operationName(of: "  -- a comment\n/* another */ insert INTO t VALUES (1)") == "INSERT")
        #expect(StatementTrace.operationName(of: ";\n\tWITH x AS (SELECT 1) SELECT * FROM x") == "WITH")
        #expect(StatementTrace.operationName(of: "BEGIN IMMEDIATE TRANSACTION") == "BEGIN")
        #expect(StatementTrace.operationName(of: "") == "")
        #expect(StatementTrace.operationName(of: "/* never closed") == "")
    }

    @Test("without an instrumentation a connection has none; with one, each connection is told apart")
    func connectionsWithAndWithout() throws {
        let plain = try Database()
        #expect(plain.connectionTrace == nil)
        let recorder = Recorder()
        let first = try Database(configuration: recorder.configuration())
        let second = try Database(configuration: recorder.configuration())
        let one = try #require(first.connectionTrace)
        let other = try #require(second.connectionTrace)
        #expect(one.id != other.id)
        #expect(one.namespace == ":memory:")
        #expect(one.system == .sqlite)
        #expect(recorder.entries("Connection opened").count == 2)
        try first.close()
        #expect(recorder.entries("Connection closed").count == 1)
    }

    @Test("interleaved statements each report their own rows, once")
    func interleavedStatements() throws {
        let recorder = Recorder(traces: false, metrics: false)
        let db = try Database(configuration: recorder.configuration())
        try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
        let outer = try db.fetchCursor(Int.self, "SELECT x FROM t ORDER BY x")
        _ = try outer.next()
        let inner = try db.fetchAll(Int.self, "SELECT x FROM t WHERE x > \(2)")
        #expect(inner == [3])
        while try outer.next() != nil {}
        db.settleInstrumentation()
        let lines = recorder.entries("Statement ran")
        let outerLines = lines.filter { $0.metadata["db.query.text"] == "SELECT x FROM t ORDER BY x" }
        let innerLines = lines.filter { $0.metadata["db.query.text"] == "SELECT x FROM t WHERE x > ?" }
        #expect(outerLines.count == 1)
        #expect(outerLines.first?.metadata["db.response.returned_rows"] == "3")
        #expect(innerLines.count == 1)
        #expect(innerLines.first?.metadata["db.response.returned_rows"] == "1")
    }

    @Test("savepoints nest inside the transaction that holds them")
    func nestedScopes() throws {
        let recorder = Recorder(logs: false, metrics: false)
        let db = try Database(configuration: recorder.configuration())
        try db.transaction(.immediate) {
            try db.execute(sql: "CREATE TABLE t(x)")
            try db.savepoint { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        let spans = recorder.tracer.finishedSpans
        let transaction = try #require(spans.first { $0.operationName == "transaction" })
        let savepoint = try #require(spans.first { $0.operationName == "savepoint" })
        let insert = try #require(recorder.spans(sql: "INSERT INTO t VALUES (1)").first)
        #expect(savepoint.parentSpanID == transaction.spanID)
        #expect(insert.parentSpanID == savepoint.spanID)
        #expect(transaction.parentSpanID == nil)
    }
}
