import Foundation
import Slate
import Testing

/// Collects the events an observer receives.
private final class EventRecorder {
    var events: [TraceEvent] = []
    func record(_ event: TraceEvent) { events.append(event) }

    var statements: [TracedStatement] {
        events.compactMap { if case .statement(let statement) = $0 { statement } else { nil } }
    }
}

@Suite struct TraceTests {
    private func makePlayers() throws -> Database {
        let db = try Database.memory()
        try db.execute(
            sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score INTEGER, ratio REAL, avatar BLOB)")
        return db
    }

    @Test func statementEventCarriesSQLAndExpandedSQL() throws {
        let db = try makePlayers()
        let recorder = EventRecorder()
        db.trace(.statement, recorder.record)
        let name = "O'Brien"
        try db.execute(
            "INSERT INTO player(name, score, ratio, avatar) VALUES (\(name), \(42), \(2.5), \(Data([0xAB, 0xCD])))")
        try db.execute("UPDATE player SET ratio = \(nil as Double?) WHERE id = \(1)")
        #expect(
            recorder.events == [
                .statement(
                    TracedStatement(
                        sql: "INSERT INTO player(name, score, ratio, avatar) VALUES (?, ?, ?, ?)",
                        expandedSQL:
                            "INSERT INTO player(name, score, ratio, avatar) VALUES ('O''Brien', 42, 2.5, x'abcd')")),
                .statement(
                    TracedStatement(
                        sql: "UPDATE player SET ratio = ? WHERE id = ?",
                        expandedSQL: "UPDATE player SET ratio = NULL WHERE id = 1")),
            ])
        #expect(recorder.statements.allSatisfy { !$0.isTrigger })
    }

    @Test func everyRunOfACachedStatementIsReported() throws {
        let db = try makePlayers()
        let recorder = EventRecorder()
        db.trace { recorder.record($0) }  // statements by default
        for score in [10, 20] {
            try db.execute("INSERT INTO player(score) VALUES (\(score))")
        }
        #expect(
            recorder.statements.map(\.expandedSQL) == [
                "INSERT INTO player(score) VALUES (10)",
                "INSERT INTO player(score) VALUES (20)",
            ])
    }

    @Test func scriptsReportEachStatement() throws {
        let db = try Database.memory()
        let recorder = EventRecorder()
        db.trace(.statement, recorder.record)
        try db.execute(
            sql: "CREATE TABLE t(x); INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, "two"])
        // The text is SQLite's own: each statement's slice of the script, from just after the
        // previous semicolon through its own. The INSERTs cannot be prepared before the CREATE
        // ran, so the script runs inside a savepoint (an argument mismatch would roll it back).
        #expect(
            recorder.statements.map(\.sql) == [
                #"SAVEPOINT "slate_savepoint_1""#, "CREATE TABLE t(x);", " INSERT INTO t VALUES (?);",
                " INSERT INTO t VALUES (?)",
                #"RELEASE SAVEPOINT "slate_savepoint_1""#,
            ])
        #expect(
            recorder.statements.map(\.expandedSQL) == [
                #"SAVEPOINT "slate_savepoint_1""#, "CREATE TABLE t(x);", " INSERT INTO t VALUES (1);",
                " INSERT INTO t VALUES ('two')",
                #"RELEASE SAVEPOINT "slate_savepoint_1""#,
            ])
    }

    @Test func triggerStartsAreReportedAsComments() throws {
        let db = try makePlayers()
        try db.execute(
            sql: """
                CREATE TABLE audit(message TEXT);
                CREATE TRIGGER log_insert AFTER INSERT ON player BEGIN
                    INSERT INTO audit VALUES ('inserted ' || NEW.name);
                    DELETE FROM audit WHERE message IS NULL;
                END;
                """)
        let recorder = EventRecorder()
        db.trace(.statement, recorder.record)
        try db.execute("INSERT INTO player(name) VALUES (\("Zoe"))")
        let statements = recorder.statements
        #expect(
            statements.map(\.sql) == [
                "INSERT INTO player(name) VALUES (?)",
                "-- TRIGGER log_insert",
                "-- INSERT INTO audit VALUES ('inserted ' || NEW.name)",
                "-- DELETE FROM audit WHERE message IS NULL",
            ])
        #expect(statements.map(\.isTrigger) == [false, true, true, true])
        #expect(statements.map(\.expandedSQL) == ["INSERT INTO player(name) VALUES ('Zoe')", nil, nil, nil])
        #expect(try db.fetchValue(String.self, "SELECT message FROM audit") == "inserted Zoe")
    }

    @Test func profileEventsReportFinishedStatementsWithDurations() throws {
        let db = try makePlayers()
        let recorder = EventRecorder()
        db.trace(.profile, recorder.record)
        try db.execute("INSERT INTO player(name) VALUES (\("Arthur"))")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM player WHERE name = \("Arthur")") == 1)

        #expect(recorder.events.count == 2)
        var sqls: [String?] = []
        for event in recorder.events {
            guard case .profile(let statement, let duration) = event else {
                Issue.record("unexpected event \(event)")
                continue
            }
            #expect(duration >= .zero)
            #expect(event.kind == .profile)
            sqls.append(statement.expandedSQL)
        }
        #expect(
            sqls == [
                "INSERT INTO player(name) VALUES ('Arthur')",
                "SELECT count(*) FROM player WHERE name = 'Arthur'",
            ])
    }

    @Test func rowEventsFireOncePerRow() throws {
        let db = try makePlayers()
        try db.execute(sql: "INSERT INTO player(score) VALUES (1), (2), (3)")
        let recorder = EventRecorder()
        db.trace(.row, recorder.record)
        let scores = try db.fetchAll(Int.self, "SELECT score FROM player WHERE score >= \(2) ORDER BY score")
        #expect(scores == [2, 3])
        #expect(
            recorder.events
                == Array(
                    repeating: .row(
                        TracedStatement(
                            sql: "SELECT score FROM player WHERE score >= ? ORDER BY score",
                            expandedSQL: "SELECT score FROM player WHERE score >= 2 ORDER BY score")), count: 2))
    }

    @Test func closeEventIsReportedAndObserversAreDropped() throws {
        let db = try Database.memory()
        let recorder = EventRecorder()
        let observation = db.trace(.close, recorder.record)
        #expect(observation.isActive)
        try db.execute(sql: "SELECT 1")
        #expect(recorder.events.isEmpty)
        try db.close()
        #expect(recorder.events == [.close])
        #expect(recorder.events.first?.tracedStatement == nil)
        #expect(!observation.isActive)
        observation.cancel()  // harmless after close

        let late = db.trace(.all) { _ in }
        #expect(!late.isActive)
    }

    @Test func statementOutlivingItsConnectionIsNotTracedAfterClose() throws {
        let recorder = EventRecorder()
        var statement: Statement?
        do {
            let db = try Database.memory()
            db.trace(.all, recorder.record)
            statement = try db.prepare(sql: "SELECT 1 UNION ALL SELECT 2")
            #expect(try statement?.step() == true)
        }
        // The connection is gone, but SQLite keeps it as a zombie until the statement finalizes.
        #expect(recorder.events.map(\.kind) == [.statement, .row, .close])
        #expect(try statement?.step() == true)
        #expect(try statement?.step() == false)
        statement = nil
        #expect(recorder.events.map(\.kind) == [.statement, .row, .close])
    }

    @Test func observersReceiveOnlyTheKindsTheyAskedFor() throws {
        let db = try makePlayers()
        let everything = EventRecorder()
        let statementsOnly = EventRecorder()
        db.trace(.all, everything.record)
        db.trace(.statement, statementsOnly.record)
        #expect(try db.fetchAll(Int.self, "SELECT \(7) UNION ALL SELECT \(8)") == [7, 8])
        #expect(everything.events.map(\.kind) == [.statement, .row, .row, .profile])
        #expect(everything.events.allSatisfy { $0.tracedStatement?.expandedSQL == "SELECT 7 UNION ALL SELECT 8" })
        #expect(statementsOnly.events.map(\.kind) == [.statement])
    }

    @Test func removingOneOfTwoObserversKeepsTheOther() throws {
        let db = try makePlayers()
        let first = EventRecorder()
        let second = EventRecorder()
        let firstObservation = db.trace(.statement, first.record)
        let secondObservation = db.trace([.statement, .profile], second.record)

        try db.execute("INSERT INTO player(score) VALUES (\(1))")
        #expect(first.events.count == 1)
        #expect(second.events.map(\.kind) == [.statement, .profile])

        firstObservation.cancel()
        #expect(!firstObservation.isActive)
        #expect(secondObservation.isActive)
        try db.execute("INSERT INTO player(score) VALUES (\(2))")
        #expect(first.events.count == 1)
        #expect(second.events.map(\.kind) == [.statement, .profile, .statement, .profile])
        #expect(second.statements.last?.expandedSQL == "INSERT INTO player(score) VALUES (2)")

        db.removeTrace(secondObservation)
        db.removeTrace(secondObservation)  // twice is harmless
        #expect(!secondObservation.isActive)
        try db.execute("INSERT INTO player(score) VALUES (\(3))")
        #expect(second.events.count == 4)

        // Tracing can start again after every observer went away.
        let third = EventRecorder()
        db.trace(.statement, third.record)
        try db.execute("INSERT INTO player(score) VALUES (\(4))")
        #expect(third.statements.map(\.expandedSQL) == ["INSERT INTO player(score) VALUES (4)"])
        #expect(first.events.count == 1 && second.events.count == 4)
    }

    @Test func observerMayCancelItselfWhileBeingCalled() throws {
        let db = try Database.memory()
        let recorder = EventRecorder()
        var observation: TraceObservation?
        observation = db.trace(.statement) { event in
            recorder.record(event)
            observation?.cancel()
        }
        try db.execute(sql: "SELECT 1")
        try db.execute(sql: "SELECT 2")
        #expect(recorder.statements.map(\.sql) == ["SELECT 1"])
        #expect(observation?.isActive == false)
    }

    @Test func logStatementsLogsExpandedSQL() throws {
        let db = try makePlayers()
        var lines: [String] = []
        let logging = db.logStatements { lines.append($0) }
        try db.execute("INSERT INTO player(name, score) VALUES (\("Arthur"), \(3))")
        _ = try db.fetchOne(Int.self, "SELECT score FROM player WHERE name = \("Arthur")")
        logging.cancel()
        try db.execute(sql: "DELETE FROM player")
        #expect(
            lines == [
                "INSERT INTO player(name, score) VALUES ('Arthur', 3)",
                "SELECT score FROM player WHERE name = 'Arthur'",
            ])
    }

    @Test func eventsDescribeThemselves() {
        let statement = TracedStatement(sql: "SELECT ?", expandedSQL: "SELECT 1")
        #expect(TraceEvent.statement(statement).description == "statement: SELECT 1")
        #expect(TraceEvent.row(TracedStatement(sql: "SELECT 2", expandedSQL: nil)).description == "row: SELECT 2")
        #expect(TraceEvent.close.description == "close")
        #expect(TraceEventKinds.all == [.statement, .profile, .row, .close])
    }
}
