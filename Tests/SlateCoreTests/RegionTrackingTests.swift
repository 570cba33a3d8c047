import CSQLite
import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateCore

// The connection's side of live queries, tested synchronously on a bare `Database`: the region a
// read records, and which commits notify an observer of that region. Each "does not notify" test
// counts notifications, and makes a related write afterwards to show the observer was listening.

/// Counts the notifications of one observer (used on the connection's thread only).
private final class NotificationCounter: @unchecked Sendable {
    var count = 0
}

/// An observer of the region `read` records, registered on `db`.
private struct Watch {
    let db: Database
    let counter: NotificationCounter
    let observer: CommitObserver

    init(_ db: Database, _ read: (Database) throws -> Void) throws {
        self.db = db
        let counter = NotificationCounter()
        self.counter = counter
        observer = CommitObserver { counter.count += 1 }
        let clock = try #require(db.attachCommitObserver(observer))
        let since = clock.commitCount
        let (_, region) = try db.trackingRegion { try read(db) }
        db.setObservedRegion(region, for: observer, since: since)
    }

    /// Runs `write`, lets the connection deliver, and returns how many notifications it caused.
    func notifications(_ write: (Database) throws -> Void) rethrows -> Int {
        let before = counter.count
        try write(db)
        db.flushObservations()
        return counter.count - before
    }
}

private func makePeople() throws -> Database {
    let db = try Database.memory()
    try db.createTable(for: Person.self)
    try db.createTable(for: Pet.self)
    for index in 1...5 {
        try db.insert(Person(id: Int64(index), name: "P\(index)", age: Int64(20 + index), email: "p\(index)@x"))
    }
    try db.insert(Pet(id: 1, ownerId: 1, name: "Rex"))
    return db
}

@Suite struct RegionTrackingTests {
    // MARK: What a read depends on

    @Test func aReadRecordsItsTablesAndColumns() throws {
        let db = try makePeople()
        let (_, region) = try db.trackingRegion {
            try db.fetchAll(String.self, "SELECT name FROM person WHERE age > \(20)")
        }
        #expect(region.tableNames == ["main.person"])
        #expect(region.columns(ofTable: "person") == ["age", "name"])
        #expect(region.rowIDs(ofTable: "person") == nil)
        #expect(region.columns(ofTable: "pet") == nil)
    }

    @Test func aCountDependsOnTheRowsOnly() throws {
        let db = try makePeople()
        let (count, region) = try db.trackingRegion { try Person.all().fetchCount(db) }
        #expect(count == 5)
        #expect(region.columns(ofTable: "person") == [""])
    }

    @Test func readsFilteredOnTheRowIDAliasRecordTheirRows() throws {
        let db = try makePeople()
        let found = try db.trackingRegion { try Person.find(3).fetchOne(db) }
        #expect(found.value?.name == "P3")
        #expect(found.region.rowIDs(ofTable: "person") == [3])

        let filtered = try db.trackingRegion { try Person.where { $0.id == 2 && $0.age > 1 }.fetchAll(db) }
        #expect(filtered.region.rowIDs(ofTable: "person") == [2])

        let listed = try db.trackingRegion { try Person.where { $0.id.in([1, 4]) }.fetchAll(db) }
        #expect(listed.region.rowIDs(ofTable: "person") == [1, 4])

        let counted = try db.trackingRegion { try Person.where { $0.id == 5 }.fetchCount(db) }
        #expect(counted.region.rowIDs(ofTable: "person") == [5])
    }

    @Test func readsNotPinnedToRowsDependOnEveryRow() throws {
        let db = try makePeople()
        let either = try db.trackingRegion { try Person.where { $0.id == 1 || $0.id == 2 }.fetchAll(db) }
        #expect(either.region.rowIDs(ofTable: "person") == nil)
        let negated = try db.trackingRegion { try Person.where { !($0.id == 1) }.fetchAll(db) }
        #expect(negated.region.rowIDs(ofTable: "person") == nil)
        let raw = try db.trackingRegion { try db.fetchAll(Person.self, "SELECT * FROM person WHERE id = \(1)") }
        #expect(raw.region.rowIDs(ofTable: "person") == nil)
        // A subquery reads the table a second time: the hint does not hold.
        let nested = try db.trackingRegion {
            try Person.where { $0.id == 1 }.where(sql: "age > (SELECT min(age) FROM person)").fetchAll(db)
        }
        #expect(nested.region.rowIDs(ofTable: "person") == nil)
        // Two reads of the same table: every row.
        let both = try db.trackingRegion {
            _ = try Person.find(1).fetchOne(db)
            _ = try Person.all().fetchAll(db)
        }
        #expect(both.region.rowIDs(ofTable: "person") == nil)
    }

    @Test func aViewIsReadThroughItsTables() throws {
        let db = try makePeople()
        try db.execute(sql: "CREATE VIEW adult AS SELECT name FROM person WHERE age >= 18")
        let (_, region) = try db.trackingRegion { try db.fetchAll(String.self, "SELECT name FROM adult") }
        #expect(region.columns(ofTable: "person") == ["age", "name"])
    }

    @Test func statementsCachedBeforeTrackingStartedAreAnalyzed() throws {
        let db = try makePeople()
        _ = try db.fetchAll(String.self, "SELECT name FROM person")  // cached without a footprint
        let (_, region) = try db.trackingRegion { try db.fetchAll(String.self, "SELECT name FROM person") }
        #expect(region.columns(ofTable: "person") == ["name"])
        #expect(!region.isFullDatabase)
    }

    @Test func aStatementPreparedThroughTheCHandleBeforehandMakesTheRegionEverything() throws {
        let db = try makePeople()
        _ = try db.trackingRegion { try db.fetchAll(String.self, "SELECT 1") }
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db.handle, "SELECT name FROM person", -1, &statement, nil) == SQLITE_OK)
        _ = try db.fetchAll(String.self, "SELECT 2")  // another statement runs in between
        let (_, region) = db.trackingRegion { _ = sqlite3_step(statement) }
        sqlite3_finalize(statement)
        #expect(region.isFullDatabase)
    }

    // MARK: Writes that do not notify

    @Test func writesToAnotherTableDoNotNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        #expect(try watch.notifications { try $0.execute("UPDATE pet SET name = \("Max")") } == 0)
        #expect(try watch.notifications { try $0.insert(Pet(ownerId: 2, name: "Tom")) } == 0)
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = \("X") WHERE id = \(1)") } == 1)
    }

    @Test func writesToColumnsTheReadDoesNotUseDoNotNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try db.fetchAll(String.self, "SELECT name FROM person") }
        #expect(try watch.notifications { try $0.execute("UPDATE person SET age = age + 1") } == 0)
        #expect(try watch.notifications { try $0.execute("UPDATE person SET score = 2 WHERE id = \(2)") } == 0)
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = 'Y' WHERE id = \(2)") } == 1)
        // Inserting and deleting rows changes every column.
        #expect(try watch.notifications { try $0.insert(Person(name: "New")) } == 1)
        #expect(try watch.notifications { try $0.execute("DELETE FROM person WHERE id = \(2)") } == 1)
    }

    @Test func aCountIsNotifiedByInsertsAndDeletesButNotUpdates() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchCount(db) }
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = 'Z'") } == 0)
        #expect(try watch.notifications { try $0.insert(Person(name: "New")) } == 1)
        #expect(try watch.notifications { try $0.execute("DELETE FROM person WHERE id = \(1)") } == 1)
    }

    @Test func writesToOtherRowsOfAReadFilteredOnItsKeyDoNotNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.find(3).fetchOne(db) }
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = 'Q' WHERE id <> \(3)") } == 0)
        #expect(try watch.notifications { try $0.execute("DELETE FROM person WHERE id = \(4)") } == 0)
        #expect(try watch.notifications { try $0.insert(Person(id: 10, name: "Ten")) } == 0)
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = 'Three' WHERE id = \(3)") } == 1)
        #expect(try watch.notifications { try $0.execute("DELETE FROM person WHERE id = \(3)") } == 1)
        #expect(try watch.notifications { try $0.insert(Person(id: 3, name: "Back")) } == 1)
    }

    @Test func aReadFilteredWithWhereOnItsKeyIsNotNotifiedByOtherRows() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.where { $0.id == 2 }.select { $0.name }.fetchAll(db) }
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = 'Q' WHERE id = \(1)") } == 0)
        #expect(try watch.notifications { try $0.execute("UPDATE person SET name = 'Q' WHERE id = \(2)") } == 1)
    }

    @Test func changingTheKeyOfAnotherRowToTheObservedKeyNotifies() throws {
        let db = try makePeople()
        try db.execute(sql: "DELETE FROM person WHERE id = 3")
        let watch = try Watch(db) { db in _ = try Person.find(3).fetchOne(db) }
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET rowid = 3 WHERE id = 4") } == 1)
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET id = 30 WHERE id = 3") } == 1)
    }

    @Test func aRowDeletedByReplaceNotifiesTheReadOfItsKey() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.find(3).fetchOne(db) }
        // email is UNIQUE: the new row 20 replaces row 3, whose deletion the update hook does not report.
        let deleted = try watch.notifications {
            try $0.execute(sql: "INSERT OR REPLACE INTO person(id, name, age, email) VALUES (20, 'R', 1, 'p3@x')")
        }
        #expect(deleted == 1)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM person WHERE id = \(3)") == 0)
    }

    // MARK: Deletes without WHERE

    @Test func deleteWithoutWhereNotifies() throws {
        let db = try makePeople()
        try db.execute(sql: "CREATE TABLE log(message TEXT)")  // no trigger, no foreign key: truncated
        try db.execute(sql: "INSERT INTO log VALUES ('a'), ('b')")
        let watch = try Watch(db) { db in _ = try db.fetchAll(String.self, "SELECT message FROM log") }
        #expect(try watch.notifications { try $0.execute(sql: "DELETE FROM log") } == 1)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM log") == 0)
        let keyed = try Watch(db) { db in _ = try Person.find(2).fetchOne(db) }
        #expect(try keyed.notifications { try $0.execute(sql: "DELETE FROM pet; DELETE FROM person") } == 1)
    }

    @Test func dropTableStillWorksAndNotifies() throws {
        let db = try makePeople()
        try db.execute(sql: "CREATE TABLE scratch(x)")
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        // schema changes notify everyone
        #expect(try watch.notifications { try $0.execute(sql: "DROP TABLE scratch") } == 1)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'scratch'") == 0)
    }

    // MARK: Transactions and savepoints

    @Test func rolledBackTransactionsDoNotNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        struct Abort: Error {}
        let rolledBack = watch.notifications { db in
            _ = try? db.transaction {
                try db.execute("UPDATE person SET name = 'Gone'")
                throw Abort()
            }
        }
        #expect(rolledBack == 0)
        #expect(try watch.notifications { try $0.execute(sql: "BEGIN; UPDATE person SET name = 'G'; ROLLBACK") } == 0)
        #expect(
            try watch.notifications { db in try db.transaction { try db.execute("UPDATE person SET name = 'Kept'") } }
                == 1)
    }

    @Test func changesInARolledBackSavepointDoNotNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        struct Abort: Error {}
        let count = try watch.notifications { db in
            try db.transaction {
                try db.execute("UPDATE pet SET name = 'Unrelated'")
                _ = try? db.savepoint {
                    try db.execute("UPDATE person SET name = 'Gone'")
                    throw Abort()
                }
            }
        }
        #expect(count == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM person WHERE name = 'Gone'") == 0)
    }

    @Test func changesInACommittedSavepointNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        let count = try watch.notifications { db in
            try db.transaction {
                try db.savepoint { try db.execute("UPDATE person SET name = 'Kept'") }
            }
        }
        #expect(count == 1)
        // A savepoint outside a transaction is one.
        #expect(try watch.notifications { db in try db.savepoint { try db.execute("UPDATE person SET age = 1") } } == 1)
    }

    @Test func nestedSavepointsRollBackOnlyTheirOwnChanges() throws {
        let db = try makePeople()
        let people = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        let pets = try Watch(db) { db in _ = try Pet.all().fetchAll(db) }
        struct Abort: Error {}
        try db.transaction {
            try db.savepoint {
                try db.execute("UPDATE pet SET name = 'Kept'")
                _ = try? db.savepoint {
                    try db.execute("UPDATE person SET name = 'Gone'")
                    throw Abort()
                }
            }
        }
        db.flushObservations()
        #expect(people.counter.count == 0)
        #expect(pets.counter.count == 1)
    }

    /// A prepared statement run in a loop takes the tracker's fast path: savepoints around it
    /// still decide.
    @Test func aStatementRunInALoopIsFollowedAcrossSavepoints() throws {
        let db = try makePeople()
        let pets = try Watch(db) { db in _ = try Pet.all().fetchAll(db) }
        let people = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        struct Abort: Error {}
        let statement = try db.prepare(sql: "INSERT INTO pet(ownerId, name, species) VALUES (1, ?, 'cat')")
        func insert(_ name: String) throws {
            try statement.bind(name, at: 1)
            try statement.run()
            try statement.reset()
        }
        let rolledBack = try pets.notifications { db in
            try db.transaction {
                _ = try? db.savepoint {
                    for index in 0..<3 { try insert("gone \(index)") }
                    throw Abort()
                }
            }
        }
        #expect(rolledBack == 0)
        let kept = try pets.notifications { db in
            try db.transaction {
                _ = try? db.savepoint {
                    try insert("gone")
                    throw Abort()
                }
                try insert("kept")
                try insert("kept too")
            }
        }
        #expect(kept == 1)
        #expect(people.counter.count == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM pet WHERE name LIKE 'gone%'") == 0)
    }

    @Test func savepointsWrittenInSQLAreFollowed() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        let rolledBack = try watch.notifications {
            try $0.execute(
                sql: """
                    BEGIN; SAVEPOINT "a b"; UPDATE person SET name = 'Gone'; ROLLBACK TRANSACTION TO SAVEPOINT "a b";
                    RELEASE "a b"; UPDATE pet SET name = 'x'; COMMIT
                    """)
        }
        #expect(rolledBack == 0)
        let released = try watch.notifications {
            try $0.execute(sql: "SAVEPOINT s; UPDATE person SET name = 'Kept'; RELEASE SAVEPOINT s")
        }
        #expect(released == 1)
    }

    @Test func aVetoedCommitDoesNotNotify() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        let veto = db.observeCommits { .veto }
        let count = watch.notifications { db in _ = try? db.execute("UPDATE person SET name = 'Vetoed'") }
        veto.cancel()
        #expect(count == 0)
    }

    // MARK: Writes outside Slate's statements

    @Test func writesThroughTheCHandleAreSeen() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try db.fetchAll(String.self, "SELECT name FROM person") }
        #expect(watch.notifications { sqlite3_exec($0.handle, "UPDATE person SET name = 'C'", nil, nil, nil) } == 1)
        // Statements run by sqlite3_exec are analyzed like Slate's: other columns do not notify.
        #expect(watch.notifications { sqlite3_exec($0.handle, "UPDATE person SET age = 3", nil, nil, nil) } == 0)
        #expect(watch.notifications { sqlite3_exec($0.handle, "DELETE FROM person", nil, nil, nil) } == 1)
    }

    @Test func aCStatementPreparedEarlierIsAssumedToChangeEverything() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try db.fetchAll(String.self, "SELECT name FROM person") }
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db.handle, "UPDATE pet SET name = 'p'", -1, &statement, nil) == SQLITE_OK)
        _ = try db.fetchAll(String.self, "SELECT 1")
        let count = watch.notifications { _ in _ = sqlite3_step(statement) }
        sqlite3_finalize(statement)
        #expect(count == 1)  // Slate cannot tell what it wrote: conservative, never missed
    }

    @Test func savepointsRunThroughTheCHandleAreFollowed() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        let count = watch.notifications { db in
            sqlite3_exec(
                db.handle, "SAVEPOINT x; UPDATE person SET name = 'Gone'; ROLLBACK TO x; RELEASE x", nil, nil, nil)
        }
        #expect(count == 0)
    }

    // MARK: Tables the update hook does not report

    @Test func writesToWithoutRowIDTablesNotify() throws {
        let db = try makePeople()
        try db.execute(sql: "CREATE TABLE setting(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID")
        let watch = try Watch(db) { db in _ = try db.fetchAll(String.self, "SELECT value FROM setting") }
        #expect(try watch.notifications { try $0.execute(sql: "INSERT INTO setting VALUES ('a', '1')") } == 1)
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE setting SET value = '2'") } == 1)
        #expect(try watch.notifications { try $0.execute(sql: "DELETE FROM setting") } == 1)
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET name = 'n'") } == 0)
    }

    @Test func writesMadeByTriggersAreSeen() throws {
        let db = try makePeople()
        try db.execute(
            sql: """
                CREATE TABLE audit(id INTEGER PRIMARY KEY, entry TEXT, other TEXT);
                CREATE TRIGGER person_audit AFTER UPDATE OF name ON person BEGIN
                    INSERT INTO audit(entry) VALUES (new.name);
                END;
                INSERT INTO audit(entry, other) VALUES ('seed', 'o');
                CREATE TRIGGER pet_audit AFTER UPDATE OF name ON pet BEGIN
                    UPDATE audit SET other = new.name;
                END;
                """)
        let watch = try Watch(db) { db in _ = try db.fetchAll(String.self, "SELECT entry FROM audit") }
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET name = 'T' WHERE id = 1") } == 1)
        // The trigger updates a column the read does not use.
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE pet SET name = 'T'") } == 0)
    }

    @Test func foreignKeyCascadesAreSeen() throws {
        let db = try makePeople()
        try db.execute(sql: "PRAGMA foreign_keys = ON")
        let watch = try Watch(db) { db in _ = try Pet.all().fetchAll(db) }
        #expect(try watch.notifications { try $0.execute(sql: "DELETE FROM person WHERE id = 1") } == 1)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM pet") == 0)
    }

    // MARK: Schema changes

    @Test func schemaChangesNotifyAndNewColumnsAreTracked() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try db.fetchAll(CopiedRow.self, "SELECT * FROM person") }
        #expect(try watch.notifications { try $0.execute(sql: "ALTER TABLE person ADD COLUMN nickname TEXT") } == 1)
        // The cached `SELECT *` is compiled again: its new region includes the new column.
        let (_, region) = try db.trackingRegion { try db.fetchAll(CopiedRow.self, "SELECT * FROM person") }
        #expect(region.columns(ofTable: "person")?.contains("nickname") == true)
        db.setObservedRegion(region, for: watch.observer, since: try #require(db.regionTracker).clock.commitCount)
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET nickname = 'n'") } == 1)
    }

    // MARK: Cost when nothing is observed

    @Test func aConnectionNobodyObservesHasNoHooksInstalled() throws {
        let db = try makePeople()
        _ = try Person.all().fetchAll(db)
        try db.execute(sql: "UPDATE person SET age = 1")
        #expect(db.regionTracker == nil)
        #expect(sqlite3_update_hook(db.handle, nil, nil) == nil)
        #expect(sqlite3_commit_hook(db.handle, nil, nil) == nil)
    }

    @Test func theChangeHooksGoWithTheLastObserver() throws {
        let db = try makePeople()
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET name = 'a'") } == 1)
        db.detachCommitObserver(watch.observer)
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET name = 'b'") } == 0)
        #expect(sqlite3_update_hook(db.handle, nil, nil) == nil)
    }

    @Test func userHooksKeepWorkingBesideLiveQueries() throws {
        let db = try makePeople()
        var changes: [DatabaseChange] = []
        let userObservation = db.observeChanges { changes.append($0) }
        let watch = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        #expect(try watch.notifications { try $0.execute(sql: "UPDATE person SET name = 'a' WHERE id = 1") } == 1)
        #expect(changes.count == 1)
        db.detachCommitObserver(watch.observer)
        try db.execute(sql: "UPDATE person SET name = 'b' WHERE id = 2")
        #expect(changes.count == 2)
        userObservation.cancel()
        #expect(sqlite3_update_hook(db.handle, nil, nil) == nil)
    }

    @Test func aUserAuthorizerStillDecides() throws {
        let db = try makePeople()
        _ = try Watch(db) { db in _ = try Person.all().fetchAll(db) }
        let denial = db.addAuthorizer { $0.action == .delete ? .deny : .allow }
        let error = capturedDatabaseError { try db.execute(sql: "DELETE FROM pet") }
        #expect(error?.resultCode == .authorization)
        denial.cancel()
        try db.execute(sql: "DELETE FROM pet")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM pet") == 0)
    }
}
