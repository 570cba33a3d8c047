import Foundation
import Slate
import SlateTestSupport
import SlateTesting
import Testing

/// An old database upgraded one migration at a time must end with a fresh install's schema.
@Suite struct MigrationCheckTests {
    /// Version 1 of an app's schema.
    static func version1() -> Migrator {
        var migrator = Migrator()
        migrator.registerMigration(
            "v1: players", sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        return migrator
    }

    /// A database version 1 of the app made, with its data.
    static func version1File() throws -> TemporaryDatabaseFile {
        try TemporaryDatabaseFile { db in
            try version1().migrate(db)
            try db.execute(sql: "INSERT INTO player(name) VALUES ('Ada'), ('Grace')")
        }
    }

    @Test func anUpgradeThatMatchesAFreshInstallHasNoDifferences() throws {
        var migrator = Self.version1()
        migrator.registerMigration("v2: scores", sql: "ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 0")
        migrator.registerMigration("v3: index", sql: "CREATE INDEX player_on_score ON player(score)")
        let fixture = try Self.version1File()
        let before = try fixture.open().dump()
        let check = try migrator.checkUpgrade(ofFile: fixture.path)
        #expect(check.appliedMigrations == ["v2: scores", "v3: index"])
        #expect(check.differences.isEmpty, "\(check.differences)")
        // The fixture is unchanged.
        #expect(try fixture.open().dump() == before)
    }

    @Test func aMigrationThatDiffersFromTheFreshPathIsReported() throws {
        // Version 2 changed the table's definition for fresh installs (a default of 0) but its
        // upgrade step adds the column with another default.
        var migrator = Migrator()
        migrator.registerMigration("v1: players") { db in
            if try db.tableSchema(named: "player") == nil {
                try db.execute(
                    sql: """
                        CREATE TABLE player(
                          id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0
                        )
                        """
                )
            }
        }
        migrator.registerMigration("v2: scores") { db in
            let columns = try db.tableSchema(named: "player")?.columns.map(\.name) ?? []
            if !columns.contains("score") {
                try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 1")
            }
        }
        let fixture = try Self.version1File()
        let check = try migrator.checkUpgrade(ofFile: fixture.path)
        #expect(check.appliedMigrations == ["v2: scores"])
        #expect(check.differences.map(\.kind) == [.defaultValue])
        #expect(check.differences.first?.table == "player")
        #expect(check.differences.first?.name == "score")
    }

    @Test func aFailingStepThrowsAndNamesTheMigration() throws {
        var migrator = Self.version1()
        migrator.registerMigration("v2: broken", sql: "ALTER TABLE nowhere ADD COLUMN x")
        let fixture = try Self.version1File()
        let error = try #require(throws: DatabaseError.self) { try migrator.checkUpgrade(ofFile: fixture.path) }
        #expect(error.message.contains("nowhere"))
    }
}
