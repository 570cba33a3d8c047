#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import Testing

    /// The migrator on a real PostgreSQL server: order, once only, rollback of a failing migration,
    /// concurrent migrators.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct PostgreSQLMigratorTests {
        func migrator(failingAt failing: String? = nil) -> PostgreSQLMigrator {
            var migrator = PostgreSQLMigrator()
            migrator.registerMigration("create appliances") { tx in
                try await tx.createTable(for: Appliance.self)
            }
            migrator.registerMigration("add a note") { tx in
                try await tx.execute("ALTER TABLE appliance ADD COLUMN note TEXT")
                if failing == "add a note" {
                    try await tx.execute("SELECT no_such_column FROM appliance")
                }
            }
            return migrator
        }

        @Test func appliesEachMigrationOnceInOrder() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "migrate")
            #expect(try await migrator().appliedMigrations(in: pg) == [])
            try await migrator().migrate(pg)
            #expect(try await migrator().appliedMigrations(in: pg) == ["create appliances", "add a note"])
            // Again: nothing runs twice (an ALTER TABLE ADD COLUMN would fail the second time).
            try await migrator().migrate(pg)
            let columns = try await pg.fetchAll(
                String.self,
                """
                SELECT column_name
                FROM information_schema.columns
                WHERE table_name = \("appliance")
                ORDER BY ordinal_position
                """
            )
            #expect(columns.last == "note")
            let noteColumns: [String] = columns.filter { (name: String) -> Bool in name == "note" }
            #expect(noteColumns.count == 1)
        }

        @Test func aFailingMigrationLeavesNothingBehind() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "migrate_fail")
            await #expect(throws: PostgreSQLError.self) {
                try await migrator(failingAt: "add a note").migrate(pg)
            }
            // The first migration stays applied; the failing one's column and record are rolled back.
            #expect(try await migrator().appliedMigrations(in: pg) == ["create appliances"])
            let noteColumns = try await pg.fetchOne(
                Int64.self,
                """
                SELECT count(*)
                FROM information_schema.columns
                WHERE table_name = \("appliance") AND column_name = \("note")
                """
            )
            #expect(noteColumns == 0)
            // Fixed, it applies.
            try await migrator().migrate(pg)
            #expect(try await migrator().appliedMigrations(in: pg) == ["create appliances", "add a note"])
        }

        @Test func concurrentMigratorsApplyEachMigrationOnce() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "migrate_race")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await migrator().migrate(pg) }
                }
                try await group.waitForAll()
            }
            #expect(try await migrator().appliedMigrations(in: pg) == ["create appliances", "add a note"])
        }

        @Test func aDuplicateIdentifierIsMisuse() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "migrate_dup")
            var migrator = migrator()
            migrator.registerMigration("add a note") { _ in }
            await #expect(throws: DatabaseError.self) {
                try await migrator.migrate(pg)
            }
            #expect(try await migrator.appliedMigrations(in: pg) == [])
        }
    }
#endif
