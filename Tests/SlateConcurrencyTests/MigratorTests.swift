import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct MigratorTests {
    private func tableNames(_ db: Database) throws -> [String] {
        try db.fetchAll(
            String.self,
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")
    }

    private func columnNames(_ db: Database, _ table: String) throws -> [String] {
        try db.fetchAll(String.self, "SELECT name FROM pragma_table_info(\(table)) ORDER BY cid")
    }

    private func basicMigrator(events: ConcurrentLog<String>? = nil) -> Migrator {
        var migrator = Migrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        }
        migrator.registerMigration(
            "v2",
            sql: """
                CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT);
                CREATE INDEX book_author ON book(authorId);
                """)
        migrator.registerMigration("v3", sql: "ALTER TABLE author ADD COLUMN country TEXT")
        if let events {
            migrator.willMigrate = { events.append("will \($0)") }
            migrator.didMigrate = { events.append("did \($0)") }
        }
        return migrator
    }

    @Test func appliesMigrationsInOrderOnceAndRecordsThem() throws {
        let db = try Database.memory()
        let events = ConcurrentLog<String>()
        let migrator = basicMigrator(events: events)
        #expect(migrator.registeredMigrations == ["v1", "v2", "v3"])
        #expect(try migrator.appliedMigrations(in: db) == [])
        #expect(try migrator.hasCompletedMigrations(in: db) == false)

        try migrator.migrate(db)
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2", "v3"])
        #expect(try migrator.completedMigrations(in: db) == ["v1", "v2", "v3"])
        #expect(try migrator.hasCompletedMigrations(in: db))
        #expect(try tableNames(db) == ["author", "book", "slate_migrations"])
        #expect(try columnNames(db, "author") == ["id", "name", "country"])
        #expect(events.values == ["will v1", "did v1", "will v2", "did v2", "will v3", "did v3"])

        // Applying again does nothing.
        try migrator.migrate(db)
        #expect(events.values.count == 6)
        let recorded = try db.fetchAll(
            "SELECT identifier, applied_at, checksum FROM slate_migrations ORDER BY rowid"
        ) { row -> String in
            let identifier: String = try row[0]
            let appliedAt: String = try row[1]
            let checksum: String? = try row[2]
            return "\(identifier) \(appliedAt.hasSuffix("Z")) \(checksum == nil ? "closure" : "sql")"
        }
        #expect(recorded == ["v1 true closure", "v2 true sql", "v3 true sql"])
    }

    @Test func laterMigrationsApplyWhenRegistered() throws {
        let db = try Database.memory()
        var migrator = basicMigrator()
        try migrator.migrate(db)
        migrator.registerMigration("v4", sql: "CREATE TABLE review(id INTEGER PRIMARY KEY)")
        #expect(try migrator.completedMigrations(in: db) == ["v1", "v2", "v3"])
        #expect(try migrator.hasCompletedMigrations(in: db) == false)
        try migrator.migrate(db)
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2", "v3", "v4"])
    }

    @Test func migratesUpToATarget() throws {
        let db = try Database.memory()
        let migrator = basicMigrator()
        try migrator.migrate(db, upTo: "v2")
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2"])
        #expect(try columnNames(db, "author") == ["id", "name"])
        try migrator.migrate(db, upTo: "v1")  // already there: nothing is reverted
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2"])
        try migrator.migrate(db)
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2", "v3"])
        let error = capturedDatabaseError { try migrator.migrate(db, upTo: "v9") }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("v9") == true)
    }

    @Test func aFailingMigrationIsRolledBackAndStopsTheRest() throws {
        let db = try Database.memory()
        let events = ConcurrentLog<String>()
        var migrator = Migrator()
        migrator.willMigrate = { events.append("will \($0)") }
        migrator.didMigrate = { events.append("did \($0)") }
        migrator.registerMigration("v1", sql: "CREATE TABLE a(x)")
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE b(x)")
            try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
        }
        migrator.registerMigration("v3", sql: "CREATE TABLE c(x)")
        let error = capturedDatabaseError { try migrator.migrate(db) }
        #expect(error?.resultCode == .error)
        #expect(error?.message.contains("migration \"v2\" failed and was rolled back") == true)
        #expect(error?.message.contains("no_such_table") == true)
        #expect(try tableNames(db) == ["a", "slate_migrations"])
        #expect(try migrator.appliedMigrations(in: db) == ["v1"])
        #expect(events.values == ["will v1", "did v1", "will v2"])
        #expect(db.isInTransaction == false)
    }

    @Test func foreignKeyViolationsAbortTheMigration() throws {
        let db = try Database.memory()
        var migrator = basicMigrator()
        migrator.registerMigration("orphan", sql: "INSERT INTO book(id, authorId, title) VALUES (1, 42, 'Lost')")
        let error = capturedDatabaseError { try migrator.migrate(db) }
        #expect(error?.extendedResultCode == .constraintForeignKey)
        #expect(error?.message.contains("migration \"orphan\"") == true)
        #expect(error?.message.contains("\"book\"") == true)
        #expect(error?.message.contains("\"author\"") == true)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM book") == 0)
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2", "v3"])
        // Foreign keys are enforced again after the migration.
        #expect(try db.fetchValue(Bool.self, "PRAGMA foreign_keys"))
    }

    @Test func deferredForeignKeyChecksAllowRebuildingAReferencedTable() throws {
        let db = try Database.memory()
        var migrator = basicMigrator()
        migrator.registerMigration(
            "seed",
            sql: """
                INSERT INTO author(id, name) VALUES (1, 'Ada');
                INSERT INTO book(id, authorId, title) VALUES (1, 1, 'Notes');
                """)
        // Rebuild `author` without the `country` column, the way SQLite recommends.
        migrator.registerMigration(
            "rebuild", foreignKeyChecks: .deferred,
            sql: """
                CREATE TABLE new_author(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO new_author(id, name) SELECT id, name FROM author;
                DROP TABLE author;
                ALTER TABLE new_author RENAME TO author;
                """)
        try migrator.migrate(db)
        #expect(try columnNames(db, "author") == ["id", "name"])
        #expect(
            try db.fetchValue(String.self, "SELECT title FROM book JOIN author ON author.id = book.authorId") == "Notes"
        )
        #expect(try db.fetchValue(Bool.self, "PRAGMA foreign_keys"))
    }

    @Test func immediateForeignKeyChecksFailAtTheViolatingStatement() throws {
        let db = try Database.memory()
        var migrator = basicMigrator()
        let reachedEnd = ConcurrentFlag()
        migrator.registerMigration("orphan", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "INSERT INTO book(id, authorId, title) VALUES (1, 42, 'Lost')")
            reachedEnd.set()
        }
        let error = capturedDatabaseError { try migrator.migrate(db) }
        #expect(error?.extendedResultCode == .constraintForeignKey)
        #expect(!reachedEnd.isSet)
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2", "v3"])
    }

    @Test func registersNumberedSQLFilesInNumericOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let files = [
            "001_create.sql": "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT);",
            "002_add.sql": "ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 0;",
            "10_index.sql": "CREATE INDEX player_score ON player(score);",
            "9_seed.sql": "INSERT INTO player(name, score) VALUES ('Ada', 3), ('Bob', 5);",
            "README.txt": "not a migration",
        ]
        for (name, contents) in files {
            try contents.write(toFile: directory.path(name), atomically: true, encoding: .utf8)
        }
        var migrator = Migrator()
        let events = ConcurrentLog<String>()
        migrator.didMigrate = { events.append($0) }
        let identifiers = try migrator.registerMigrations(inDirectory: directory.url)
        #expect(identifiers == ["001_create", "002_add", "9_seed", "10_index"])
        let db = try Database.memory()
        try migrator.migrate(db)
        #expect(events.values == ["001_create", "002_add", "9_seed", "10_index"])
        #expect(try db.fetchValue(Int.self, "SELECT sum(score) FROM player") == 8)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'player_score'") == 1)
    }

    @Test func badMigrationDirectoriesAreReported() throws {
        var migrator = Migrator()
        let missing = capturedDatabaseError {
            try migrator.registerMigrations(inDirectory: URL(fileURLWithPath: "/nonexistent-slate-migrations"))
        }
        #expect(missing?.resultCode == .cantOpen)

        let unnumbered = try TemporaryDirectory()
        defer { unnumbered.remove() }
        try "SELECT 1;".write(toFile: unnumbered.path("create.sql"), atomically: true, encoding: .utf8)
        let unnumberedError = capturedDatabaseError { try migrator.registerMigrations(inDirectory: unnumbered.url) }
        #expect(unnumberedError?.resultCode == .misuse)
        #expect(unnumberedError?.message.contains("create.sql") == true)

        let duplicated = try TemporaryDirectory()
        defer { duplicated.remove() }
        try "SELECT 1;".write(toFile: duplicated.path("1_a.sql"), atomically: true, encoding: .utf8)
        try "SELECT 1;".write(toFile: duplicated.path("01_b.sql"), atomically: true, encoding: .utf8)
        let duplicateError = capturedDatabaseError { try migrator.registerMigrations(inDirectory: duplicated.url) }
        #expect(duplicateError?.resultCode == .misuse)
        #expect(duplicateError?.message.contains("share the number 1") == true)
        #expect(migrator.registeredMigrations.isEmpty)
    }

    @Test func duplicateIdentifiersAndOpenTransactionsAreMisuse() throws {
        let db = try Database.memory()
        var migrator = Migrator()
        migrator.registerMigration("v1", sql: "CREATE TABLE a(x)")
        migrator.registerMigration("v1", sql: "CREATE TABLE b(x)")
        let duplicate = capturedDatabaseError { try migrator.migrate(db) }
        #expect(duplicate?.resultCode == .misuse)
        #expect(duplicate?.message.contains("more than once") == true)

        let valid = basicMigrator()
        let inTransaction = capturedDatabaseError { try db.transaction { try valid.migrate(db) } }
        #expect(inTransaction?.resultCode == .misuse)
    }

    @Test func erasesTheDatabaseWhenAnAppliedSQLMigrationChanged() throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let db = try Database(path: path)
        var original = Migrator()
        original.registerMigration("v1", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)")
        try original.migrate(db)
        try db.execute(sql: "INSERT INTO note(text) VALUES ('keep me?')")

        // Unchanged migrations keep the data, with or without the option.
        var unchanged = original
        unchanged.eraseDatabaseOnSchemaChange = true
        try unchanged.migrate(db)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM note") == 1)

        // An edited migration is ignored without the option...
        var edited = Migrator()
        edited.registerMigration("v1", sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT, pinned INTEGER)")
        try edited.migrate(db)
        #expect(try columnNames(db, "note") == ["id", "text"])

        // ...and erases and re-applies everything with it.
        let events = ConcurrentLog<String>()
        edited.eraseDatabaseOnSchemaChange = true
        edited.didMigrate = { events.append($0) }
        try edited.migrate(db)
        #expect(try columnNames(db, "note") == ["id", "text", "pinned"])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM note") == 0)
        #expect(try edited.appliedMigrations(in: db) == ["v1"])
        #expect(events.values == ["v1"])
    }

    @Test func erasesTheDatabaseWhenAnAppliedClosureMigrationChangedTheSchema() throws {
        let db = try Database.memory()
        var original = Migrator()
        original.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)")
            try db.execute(sql: "CREATE VIEW pinned AS SELECT * FROM note")
        }
        original.registerMigration("v2", sql: "CREATE TABLE tag(id INTEGER PRIMARY KEY, noteId REFERENCES note(id))")
        try original.migrate(db)
        try db.execute(sql: "INSERT INTO note(text) VALUES ('hello')")

        var same = original
        same.eraseDatabaseOnSchemaChange = true
        try same.migrate(db)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM note") == 1)

        var changed = Migrator()
        changed.eraseDatabaseOnSchemaChange = true
        changed.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)")
        }
        changed.registerMigration("v2", sql: "CREATE TABLE tag(id INTEGER PRIMARY KEY, noteId REFERENCES note(id))")
        try changed.migrate(db)
        #expect(try columnNames(db, "note") == ["id", "body"])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM note") == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'pinned'") == 0)
        #expect(try changed.appliedMigrations(in: db) == ["v1", "v2"])

        // A removed migration also counts as a change.
        var removed = Migrator()
        removed.eraseDatabaseOnSchemaChange = true
        removed.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, body TEXT)")
        }
        try removed.migrate(db)
        #expect(try tableNames(db) == ["note", "slate_migrations"])
        #expect(try removed.appliedMigrations(in: db) == ["v1"])
    }

    @Test func migratesQueuesAndPoolsWithBlockingCalls() throws {
        let queue = try DatabaseQueue()
        let migrator = basicMigrator()
        try migrator.migrate(queue, upTo: "v1")
        #expect(try migrator.appliedMigrations(in: queue) == ["v1"])
        try migrator.migrate(queue)
        #expect(try migrator.completedMigrations(in: queue) == ["v1", "v2", "v3"])
        #expect(try migrator.hasCompletedMigrations(in: queue))

        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let pool = try DatabasePool(path: path)
        try migrator.migrate(pool, upTo: "v2")
        #expect(try migrator.appliedMigrations(in: pool) == ["v1", "v2"])
        try migrator.migrate(pool)
        #expect(try migrator.completedMigrations(in: pool) == ["v1", "v2", "v3"])
    }

    @Test func migratesQueuesAndPoolsWithAsyncCalls() async throws {
        let migrator = basicMigrator()
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        let pool = try DatabasePool(path: path)
        try await migrator.migrate(pool, upTo: "v2")
        #expect(try migrator.appliedMigrations(in: pool) == ["v1", "v2"])
        try await migrator.migrate(pool)
        #expect(try migrator.hasCompletedMigrations(in: pool))
        let columns = try await pool.read { db in
            try db.fetchAll(String.self, "SELECT name FROM pragma_table_info('author') ORDER BY cid")
        }
        #expect(columns == ["id", "name", "country"])

        let queue = try DatabaseQueue()
        try await migrator.migrate(queue, upTo: "v1")
        #expect(try migrator.appliedMigrations(in: queue) == ["v1"])
        try await migrator.migrate(queue)
        #expect(try migrator.appliedMigrations(in: queue) == ["v1", "v2", "v3"])
    }

    @Test func customTableName() throws {
        let db = try Database.memory()
        var migrator = basicMigrator()
        migrator.tableName = "schema history"
        try migrator.migrate(db)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM \"schema history\"") == 3)
        #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2", "v3"])
    }
}
