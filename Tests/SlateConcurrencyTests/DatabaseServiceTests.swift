import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct ConcurrencyServiceTests {
    /// A migrator whose first migration sleeps, so work can be submitted while it runs.
    private func slowMigrator(events: ConcurrentLog<String>, started: ConcurrentFlag = ConcurrentFlag()) -> Migrator {
        var migrator = Migrator()
        migrator.willMigrate = { events.append("will \($0)") }
        migrator.didMigrate = { events.append("did \($0)") }
        migrator.registerMigration("create") { db in
            started.set()
            Thread.sleep(forTimeInterval: 0.15)
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        migrator.registerMigration("seed", sql: "INSERT INTO player(name) VALUES ('Ada')")
        return migrator
    }

    @Test func synchronousCallsReturnResults() throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let service = DatabaseService()
        try service.openAndWait(path: path).get()
        let created = service.runAndWait { db in
            try db.execute(sql: "CREATE TABLE t(x INTEGER)")
            try db.execute("INSERT INTO t(x) VALUES (\(10)), (\(20))")
            return db.changesCount
        }
        #expect(try created.get() == 2)
        #expect(
            try service.runAndWait { db in try db.fetchAll(Int.self, "SELECT x FROM t ORDER BY x") }.get() == [10, 20])

        let failure = service.runAndWait { db in try db.execute(sql: "INSERT INTO nowhere VALUES (1)") }
        #expect(failure.failureAsDatabaseError?.resultCode == .error)
        #expect(failure.failureAsDatabaseError?.message.contains("nowhere") == true)

        #expect(service.openAndWait(path: path).failureAsDatabaseError?.resultCode == .misuse)  // already open
        try service.closeAndWait().get()
        try service.closeAndWait().get()  // closing twice is fine
        let closed = service.runAndWait { _ in 1 }
        #expect(closed.failureAsDatabaseError?.resultCode == .misuse)

        // Reopening finds the data.
        try service.openAndWait(location: .file(path), configuration: .init()).get()
        #expect(try service.runAndWait { db in try db.fetchValue(Int.self, "SELECT sum(x) FROM t") }.get() == 30)
    }

    @Test func openingAMissingDirectoryFails() {
        let service = DatabaseService()
        let result = service.openAndWait(path: "/nonexistent-slate-directory/db.sqlite")
        #expect(result.failureAsDatabaseError?.resultCode == .cantOpen)
    }

    @Test func synchronousCallsInsideRunFailInsteadOfDeadlocking() throws {
        let service = DatabaseService()
        try service.openAndWait(location: .inMemory).get()
        let inner = try service.runAndWait { _ in service.runAndWait { _ in 1 }.failureAsDatabaseError?.resultCode }
            .get()
        #expect(inner == .misuse)
    }

    @Test func completionHandlersDeliverResults() async throws {
        let service = DatabaseService()
        let events = ConcurrentLog<String>()
        let opened = await awaitCompletion { done in service.open(location: .inMemory, completion: done) }
        #expect(throws: Never.self) { try opened.get() }
        let migrated = await awaitCompletion { done in
            service.migrate(with: slowMigrator(events: events), completion: done)
        }
        #expect(throws: Never.self) { try migrated.get() }
        let names = await awaitCompletion { done in
            service.run({ db in try db.fetchAll(String.self, "SELECT name FROM player") }, completion: done)
        }
        #expect(try names.get() == ["Ada"])
        let failed = await awaitCompletion { done in
            service.run(
                { db in try db.execute("INSERT INTO player(id, name) VALUES (\(1), \("Bob"))") }, completion: done)
        }
        #expect(failed.failureAsDatabaseError?.extendedResultCode == .constraintPrimaryKey)
        let closed = await awaitCompletion { done in service.close(completion: done) }
        #expect(throws: Never.self) { try closed.get() }
        let afterClose = await awaitCompletion { done in service.run({ _ in 1 }, completion: done) }
        #expect(afterClose.failureAsDatabaseError?.resultCode == .misuse)

        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let reopened = await awaitCompletion { done in service.open(path: path, completion: done) }
        #expect(throws: Never.self) { try reopened.get() }
        #expect(events.values == ["will create", "did create", "will seed", "did seed"])
    }

    @Test func asyncCallsWork() async throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let service = DatabaseService()
        try await service.open(path: path)
        let events = ConcurrentLog<String>()
        try await service.migrate(with: slowMigrator(events: events))
        let count = try await service.run { db in try db.fetchValue(Int.self, "SELECT count(*) FROM player") }
        #expect(count == 1)
        let failure = await capturedAsyncDatabaseError {
            try await service.run { db in try db.execute(sql: "SELECT * FROM nowhere") }
        }
        #expect(failure?.resultCode == .error)
        let doubleOpen = await capturedAsyncDatabaseError { try await service.open(path: path) }
        #expect(doubleOpen?.resultCode == .misuse)
        try await service.close()
        let closed = await capturedAsyncDatabaseError { try await service.run { _ in 1 } }
        #expect(closed?.resultCode == .misuse)
        #expect(events.values == ["will create", "did create", "will seed", "did seed"])
    }

    @Test func workSubmittedDuringACompletionMigrationRunsAfterItInOrder() async throws {
        let service = DatabaseService()
        try service.openAndWait(location: .inMemory).get()
        let events = ConcurrentLog<String>()
        let migrationDone = ConcurrentFlag()
        service.migrate(with: slowMigrator(events: events)) { result in
            events.append("migrate completion \((try? result.get()) != nil)")
            migrationDone.set()
        }
        // Submitted while the migration sleeps: each must see the migrated schema, in order.
        let first = ConcurrentFlag()
        service.run(
            { db in
                events.append("first run")
                return try db.fetchValue(Int.self, "SELECT count(*) FROM player")
            },
            completion: { result in
                events.append("first result \((try? result.get()) ?? -1)")
                first.set()
            })
        // A synchronous call waits for the migration too.
        let names = try await runOnThread {
            service.runAndWait { db in
                events.append("second run")
                return try db.fetchAll(String.self, "SELECT name FROM player")
            }
        }
        #expect(try names.get() == ["Ada"])
        let third = try await service.run { db in
            events.append("third run")
            return try db.fetchValue(String.self, "SELECT name FROM player")
        }
        #expect(third == "Ada")
        #expect(await first.wait())
        #expect(await migrationDone.wait())
        let runs = events.values.filter { !$0.contains("result") && !$0.contains("completion") }
        #expect(runs == ["will create", "did create", "will seed", "did seed", "first run", "second run", "third run"])
        #expect(events.values.contains("first result 1"))
        #expect(events.values.contains("migrate completion true"))
    }

    @Test func workSubmittedDuringAnAsyncMigrationRunsAfterIt() async throws {
        let service = DatabaseService()
        try await service.open(location: .inMemory)
        let events = ConcurrentLog<String>()
        let started = ConcurrentFlag()
        let migration = Task { try await service.migrate(with: slowMigrator(events: events, started: started)) }
        #expect(await started.wait())  // the migration is running now
        let count = try await service.run { db in
            events.append("run")
            return try db.fetchValue(Int.self, "SELECT count(*) FROM player")
        }
        #expect(count == 1)
        try await migration.value
        #expect(events.values == ["will create", "did create", "will seed", "did seed", "run"])
    }
}
