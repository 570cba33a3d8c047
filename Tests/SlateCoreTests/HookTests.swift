import CSQLite
import Foundation
import Slate
import SlateTestSupport
import Testing

/// Collects values reported by callbacks (used on the connection's thread only).
private final class HookCallLog<Value> {
    var values: [Value] = []
    func record(_ value: Value) { values.append(value) }
}

@Suite struct HookTests {
    // MARK: Update hook

    @Test func updateObserverReportsKindsTablesAndRowIDs() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
        let changes = HookCallLog<DatabaseChange>()
        db.observeChanges { changes.record($0) }

        try db.execute(sql: "INSERT INTO player(id, name) VALUES (1, 'Ann'), (7, 'Bob')")
        try db.execute(sql: "UPDATE player SET name = 'Bo' WHERE id = 7")
        try db.execute(sql: "DELETE FROM player WHERE id = 1")
        try db.execute(sql: "CREATE TEMP TABLE scratch(x)")
        try db.execute(sql: "INSERT INTO scratch(x) VALUES (42)")

        #expect(
            changes.values == [
                DatabaseChange(kind: .insert, databaseName: "main", tableName: "player", rowID: 1),
                DatabaseChange(kind: .insert, databaseName: "main", tableName: "player", rowID: 7),
                DatabaseChange(kind: .update, databaseName: "main", tableName: "player", rowID: 7),
                DatabaseChange(kind: .delete, databaseName: "main", tableName: "player", rowID: 1),
                DatabaseChange(kind: .insert, databaseName: "temp", tableName: "scratch", rowID: 1),
            ])
    }

    @Test func twoObserversAreBothCalledAndACancelledOneStops() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        let first = HookCallLog<Int64>()
        let second = HookCallLog<Int64>()
        let firstObservation = db.observeChanges { first.record($0.rowID) }
        let secondObservation = db.observeChanges { second.record($0.rowID) }

        try db.execute(sql: "INSERT INTO t(id) VALUES (1)")
        #expect(first.values == [1])
        #expect(second.values == [1])

        firstObservation.cancel()
        #expect(firstObservation.isCancelled)
        #expect(!secondObservation.isCancelled)
        try db.execute(sql: "INSERT INTO t(id) VALUES (2)")
        #expect(first.values == [1])
        #expect(second.values == [1, 2])

        firstObservation.cancel()  // twice is harmless
        secondObservation.cancel()
        try db.execute(sql: "INSERT INTO t(id) VALUES (3)")
        #expect(second.values == [1, 2])
        // With the last observer gone, the C callback is uninstalled.
        #expect(sqlite3_update_hook(db.handle, nil, nil) == nil)
    }

    @Test func observerMayCancelItselfWhileRunning() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        let calls = HookCallLog<Int64>()
        var observation: HookObservation?
        observation = db.observeChanges { change in
            calls.record(change.rowID)
            observation?.cancel()
        }
        try db.execute(sql: "INSERT INTO t(id) VALUES (1), (2)")
        try db.execute(sql: "INSERT INTO t(id) VALUES (3)")
        #expect(calls.values == [1])
        #expect(observation?.isCancelled == true)
    }

    // MARK: Commit and rollback hooks

    @Test func commitObserversSeeEveryCommit() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        let first = HookCallLog<String>()
        let second = HookCallLog<String>()
        let firstObservation = db.observeCommits {
            first.record("commit")
            return .proceed
        }
        db.observeCommits {
            second.record("commit")
            return .proceed
        }

        try db.execute(sql: "INSERT INTO t(id) VALUES (1)")  // autocommit
        try db.transaction {
            try db.execute(sql: "INSERT INTO t(id) VALUES (2)")
            try db.execute(sql: "INSERT INTO t(id) VALUES (3)")
        }
        #expect(first.values.count == 2)
        #expect(second.values.count == 2)

        firstObservation.cancel()
        try db.execute(sql: "INSERT INTO t(id) VALUES (4)")
        #expect(first.values.count == 2)
        #expect(second.values.count == 3)
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 4)
    }

    @Test func vetoedCommitRollsBackAndFailsWithCommitHookConstraint() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        let approvals = HookCallLog<Int>()
        let rollbacks = HookCallLog<Int>()
        db.observeCommits {
            approvals.record(1)
            return .proceed
        }
        let veto = db.observeCommits { .veto }
        db.observeRollbacks { rollbacks.record(1) }

        let error = try #require(throws: DatabaseError.self) {
            try db.transaction {
                try db.execute(sql: "INSERT INTO t(id) VALUES (1), (2)")
            }
        }
        #expect(error.resultCode == .constraint)
        #expect(error.extendedResultCode == .constraintCommitHook)
        #expect(approvals.values.count == 1, "every observer runs, even after a veto")
        #expect(rollbacks.values.count == 1)
        #expect(!db.isInTransaction)

        let autocommitError = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO t(id) VALUES (3)")
        }
        #expect(autocommitError.extendedResultCode == .constraintCommitHook)
        #expect(rollbacks.values.count == 2)

        veto.cancel()
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 0)
        try db.execute(sql: "INSERT INTO t(id) VALUES (4)")
        #expect(try db.fetchAll(Int.self, sql: "SELECT id FROM t") == [4])
    }

    @Test func rollbackObserverSeesExplicitAndFailedTransactions() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        let rollbacks = HookCallLog<Int>()
        let observation = db.observeRollbacks { rollbacks.record(1) }

        try db.execute(sql: "BEGIN; INSERT INTO t(id) VALUES (1); ROLLBACK")
        #expect(rollbacks.values.count == 1)

        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try db.transaction {
                try db.execute(sql: "INSERT INTO t(id) VALUES (2)")
                throw Failure()
            }
        }
        #expect(rollbacks.values.count == 2)

        try db.execute(sql: "INSERT INTO t(id) VALUES (3)")  // a commit is not a rollback
        #expect(rollbacks.values.count == 2)

        observation.cancel()
        try db.execute(sql: "BEGIN; ROLLBACK")
        #expect(rollbacks.values.count == 2)
        #expect(sqlite3_rollback_hook(db.handle, nil, nil) == nil)
        #expect(try db.fetchAll(Int.self, sql: "SELECT id FROM t") == [3])
    }

    // MARK: Authorizer

    @Test func deniedStatementFailsToPrepareWithAuthorizationError() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        try db.execute(sql: "INSERT INTO t(id) VALUES (1)")
        let authorizer = db.addAuthorizer { request in
            request.action == .delete && request.firstParameter == "t" ? .deny : .allow
        }

        let error = try #require(throws: DatabaseError.self) {
            _ = try db.prepare(sql: "DELETE FROM t")
        }
        #expect(error.resultCode == .authorization)
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 1)

        authorizer.cancel()
        try db.execute(sql: "DELETE FROM t")
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 0)
    }

    @Test func authorizerSeesActionsWithTheirParameters() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
        let requests = HookCallLog<AuthorizationRequest>()
        let observation = db.addAuthorizer {
            requests.record($0)
            return .allow
        }

        _ = try db.prepare(sql: "SELECT name FROM player")
        #expect(requests.values.contains(AuthorizationRequest(action: .select)))
        #expect(
            requests.values.contains(
                AuthorizationRequest(
                    action: .read, firstParameter: "player", secondParameter: "name", databaseName: "main")))

        requests.values.removeAll()
        _ = try db.prepare(sql: "INSERT INTO player(name) VALUES ('x')")
        #expect(
            requests.values.contains(
                AuthorizationRequest(
                    action: .insert, firstParameter: "player", databaseName: "main")))
        #expect(requests.values.first { $0.action == .insert }?.description == "insert(player, nil) in main")
        observation.cancel()
    }

    @Test func denyWinsOverIgnoreWhichWinsOverAllow() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE account(id INTEGER PRIMARY KEY, secret TEXT)")
        try db.execute(sql: "INSERT INTO account(id, secret) VALUES (1, 'hunter2')")
        let isSecretRead: (AuthorizationRequest) -> Bool = {
            $0.action == .read && $0.firstParameter == "account" && $0.secondParameter == "secret"
        }
        let allowing = db.addAuthorizer { _ in .allow }
        let ignoring = db.addAuthorizer { isSecretRead($0) ? .ignore : .allow }
        #expect(try db.fetchOne(String.self, sql: "SELECT secret FROM account") == nil, "ignored reads are NULL")

        let denying = db.addAuthorizer { isSecretRead($0) ? .deny : .allow }
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.prepare(sql: "SELECT secret FROM account")
        }
        #expect(error.resultCode == .authorization)
        #expect(try db.fetchValue(Int.self, sql: "SELECT id FROM account") == 1, "other columns stay readable")

        denying.cancel()
        #expect(try db.fetchOne(String.self, sql: "SELECT secret FROM account") == nil)
        ignoring.cancel()
        #expect(try db.fetchOne(String.self, sql: "SELECT secret FROM account") == "hunter2")
        allowing.cancel()
    }

    @Test func cachedStatementIsCheckedAgainstANewAuthorizer() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        #expect(try db.fetchValue(Int.self, "SELECT count(id) FROM t") == 0)  // now cached
        let observation = db.addAuthorizer { $0.action == .read ? .deny : .allow }
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT count(id) FROM t")
        }
        #expect(error.resultCode == .authorization)
        observation.cancel()
        #expect(try db.fetchValue(Int.self, "SELECT count(id) FROM t") == 0)
    }

    // MARK: Lifetime

    @Test func observationsAfterCloseAreInert() throws {
        let db = try Database.memory()
        let changes = HookCallLog<DatabaseChange>()
        let observation = db.observeChanges { changes.record($0) }
        try db.close()
        #expect(observation.isCancelled)
        observation.cancel()  // must not touch the closed handle
        let late = db.observeCommits { .veto }
        #expect(late.isCancelled)
        late.cancel()
        #expect(changes.values.isEmpty)
    }

    @Test func zombieConnectionDoesNotCallBackAfterDeinit() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rollbacks = HookCallLog<Int>()
        var statement: Statement?
        do {
            let db = try Database(path: directory.path("zombie.sqlite"))
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
            db.observeRollbacks { rollbacks.record(1) }
            db.addAuthorizer { _ in .allow }
            try db.execute(sql: "BEGIN; INSERT INTO t(id) VALUES (1)")
            statement = try db.prepare(sql: "SELECT id FROM t")  // keeps the connection a zombie
        }
        // The database is gone; finalizing the last statement closes the zombie and rolls back.
        statement = nil
        #expect(statement == nil)
        #expect(rollbacks.values.isEmpty)
    }
}
