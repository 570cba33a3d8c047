import Foundation
import Slate
import SlateTestingFaults
import Testing

/// The migrator, and a self-migrating table's 12-step rebuild, under every fault: a migration or
/// rebuild is there wholly or not at all, whatever the fault.
@Suite(.serialized) struct MigrationSweepTests {
    /// Four migrations over 120 players: create and fill, add a column and backfill it, a second
    /// table and an index, and a hand-written table rebuild with a foreign key.
    struct Migrations: FaultScenario {
        static let players = 120

        var migrator: Migrator {
            var migrator = Migrator()
            migrator.registerMigration("v1 players") { db in
                try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
                for id in 1...Self.players {
                    try db.execute(
                        "INSERT INTO player(id, name) VALUES (\(id), \("player \(id) " + String(repeating: "x", count: 200)))"
                    )
                }
            }
            migrator.registerMigration(
                "v2 scores",
                sql: """
                    ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 0;
                    UPDATE player SET score = id * 2;
                    """)
            migrator.registerMigration(
                "v3 teams",
                sql: """
                    CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                    INSERT INTO team(id, name) SELECT id, 'team ' || id FROM player WHERE id <= 10;
                    CREATE INDEX player_score ON player(score);
                    """)
            migrator.registerMigration(
                "v4 rebuild",
                sql: """
                    CREATE TABLE player_new(
                        id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL,
                        team INTEGER REFERENCES team(id));
                    INSERT INTO player_new(id, name, score, team) SELECT id, name, score, id % 10 + 1 FROM player;
                    DROP TABLE player;
                    ALTER TABLE player_new RENAME TO player;
                    CREATE INDEX player_score ON player(score);
                    """)
            return migrator
        }

        func prepare(at path: String) throws {
            let db = try Database(path: path)
            try db.execute(sql: "CREATE TABLE probe(id INTEGER PRIMARY KEY, note TEXT)")
            try db.close()
        }

        func run(_ context: FaultRunContext) throws -> [String] {
            let db = try Database(location: context.location)
            defer { try? db.close() }
            var migrator = self.migrator
            let done = DoneLog()
            migrator.willMigrate = { identifier in done.append("attempt " + identifier) }
            migrator.didMigrate = { identifier in done.append("done " + identifier) }
            do {
                try migrator.migrate(db)
            } catch {
                defer { done.forward(to: context) }
                context.probe(after: error) {
                    // Foreign keys are back on, and the connection writes.
                    guard try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys") else {
                        throw FaultIssue(.wrongResult, "foreign keys stayed off after the failed migration")
                    }
                    try db.transaction { try db.execute(sql: "INSERT INTO probe(note) VALUES ('after the fault')") }
                }
                throw error
            }
            done.forward(to: context)
            return try migrator.appliedMigrations(in: db)
        }

        func verify(_ db: Database, outcome: Result<[String], any Error>, context: FaultRunContext) throws {
            let migrator = self.migrator
            let applied = try migrator.appliedMigrations(in: db)
            // Recorded in order, a prefix of the registered migrations.
            guard applied == Array(migrator.registeredMigrations.prefix(applied.count)) else {
                throw FaultIssue(.halfApplied, "the recorded migrations are \(applied)")
            }
            for identifier in context.done where !applied.contains(identifier) {
                throw FaultIssue(.lostCommit, "migration \(identifier) was reported applied and is not recorded")
            }
            if case .success(let reported) = outcome, reported != migrator.registeredMigrations || applied != reported {
                throw FaultIssue(
                    .wrongResult, "the run succeeded, reporting \(reported); the database records \(applied)")
            }
            try checkSchema(db, applied: applied.count)
            context.tally("migrations checked", migrator.registeredMigrations.count)
            // A database left by a failed migration migrates to the end.
            try migrator.migrate(db)
            try checkSchema(db, applied: migrator.registeredMigrations.count)
        }

        /// The schema and rows are exactly those of the first `applied` migrations.
        func checkSchema(_ db: Database, applied: Int) throws {
            func columns(_ table: String) throws -> [String] {
                try db.fetchAll(String.self, "SELECT name FROM pragma_table_info(\(table)) ORDER BY cid")
            }
            func exists(_ name: String) throws -> Bool {
                try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = \(name)") > 0
            }
            let expectedColumns: [[String]] = [
                [], ["id", "name"], ["id", "name", "score"], ["id", "name", "score"], ["id", "name", "score", "team"],
            ]
            let found = try columns("player")
            guard found == expectedColumns[applied] else {
                throw FaultIssue(.halfApplied, "after \(applied) migrations, player has columns \(found)")
            }
            guard try exists("team") == (applied >= 3), try exists("player_score") == (applied >= 3),
                try !exists("player_new")
            else {
                throw FaultIssue(
                    .halfApplied, "after \(applied) migrations, the tables and indexes are not those of \(applied)")
            }
            guard applied >= 1 else { return }
            let rows = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM player")
            let names = try db.fetchValue(
                Int.self,
                "SELECT count(*) FROM player WHERE name = 'player ' || id || ' ' || \(String(repeating: "x", count: 200))"
            )
            guard rows == Self.players, names == Self.players else {
                throw FaultIssue(.halfApplied, "after \(applied) migrations, player has \(rows) rows, \(names) intact")
            }
            if applied >= 2 {
                let scored = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM player WHERE score = id * 2")
                guard scored == Self.players else { throw FaultIssue(.halfApplied, "\(scored) scores backfilled") }
            }
            if applied >= 4 {
                let teams = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM player WHERE team = id % 10 + 1")
                let violations = try db.fetchAll(CopiedRow.self, sql: "PRAGMA foreign_key_check")
                guard teams == Self.players, violations.isEmpty else {
                    throw FaultIssue(.halfApplied, "\(teams) teams set, \(violations.count) foreign key violations")
                }
            }
        }
    }

    /// A self-managing table whose column changes type and which gains a column: SlateRecords
    /// rebuilds it in 12 steps, keeping its index, trigger, view and the rows that refer to it.
    struct Rebuild: FaultScenario {
        static let rows = 150
        static let v1 = TableSchema(
            name: "item",
            columns: [
                .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                .init(name: "name", type: "TEXT", isNotNull: true),
                .init(name: "price", type: "TEXT"),
            ], indexes: [.init(name: "item_name", columns: ["name"])])
        static var v2: TableSchema {
            var v2 = v1
            v2.columns[2].declaredType = "REAL"
            v2.columns.append(.init(name: "stock", type: "INTEGER", isNotNull: true, defaultSQL: "0"))
            return v2
        }

        /// The price of row `id` as text, or `nil` every seventh row.
        static func price(_ id: Int) -> String? {
            id % 7 == 0 ? nil : "\(id / 2).\(id % 2 == 0 ? "0" : "5")"
        }

        func prepare(at path: String) throws {
            let db = try Database(path: path)
            try db.migrateTable(to: Self.v1)
            try db.transaction {
                for id in 1...Self.rows {
                    try db.execute(
                        "INSERT INTO item(id, name, price) VALUES (\(id), \("item \(id) " + String(repeating: "n", count: 150)), \(Self.price(id)))"
                    )
                }
            }
            try db.execute(
                sql: """
                    CREATE TABLE line(id INTEGER PRIMARY KEY, item INTEGER NOT NULL REFERENCES item(id));
                    INSERT INTO line(item) SELECT id FROM item WHERE id % 3 = 0;
                    CREATE TRIGGER item_touch AFTER UPDATE ON item BEGIN SELECT 1; END;
                    CREATE VIEW cheap AS SELECT name FROM item WHERE price < 10;
                    CREATE TABLE probe(id INTEGER PRIMARY KEY, note TEXT);
                    """)
            try db.close()
        }

        func run(_ context: FaultRunContext) throws -> TableMigrationPlan.Action {
            let db = try Database(location: context.location)
            defer { try? db.close() }
            context.attempt("rebuild")
            do {
                let plan = try db.migrateTable(to: Self.v2)
                context.reportDone("rebuild")
                return plan.action
            } catch {
                context.probe(after: error) {
                    guard try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys") else {
                        throw FaultIssue(.wrongResult, "foreign keys stayed off after the failed rebuild")
                    }
                    try db.transaction { try db.execute(sql: "INSERT INTO probe(note) VALUES ('after the fault')") }
                }
                throw error
            }
        }

        func verify(
            _ db: Database, outcome: Result<TableMigrationPlan.Action, any Error>, context: FaultRunContext
        ) throws {
            let isNew = try checkShape(db)
            if case .success(let action) = outcome, action != .rebuild || !isNew {
                throw FaultIssue(.lostCommit, "the rebuild reported \(action); the table has its old shape")
            }
            context.tally(isNew ? "tables found rebuilt" : "tables found as they were")
            // A table left by a failed rebuild is rebuilt on the next try.
            try db.migrateTable(to: Self.v2)
            guard try checkShape(db) else { throw FaultIssue(.halfApplied, "the second rebuild did not happen") }
        }

        /// Whether the table has its new shape; throws when it has neither shape whole.
        func checkShape(_ db: Database) throws -> Bool {
            let columns = try db.fetchAll(
                CopiedRow.self, sql: "SELECT name, type FROM pragma_table_info('item') ORDER BY cid"
            )
            .map { "\(try $0.decode(String.self, at: 0)) \(try $0.decode(String.self, at: 1))" }
            let isNew: Bool
            switch columns {
            case ["id INTEGER", "name TEXT", "price TEXT"]: isNew = false
            case ["id INTEGER", "name TEXT", "price REAL", "stock INTEGER"]: isNew = true
            default: throw FaultIssue(.halfApplied, "the table has columns \(columns)")
            }
            let rows = try db.fetchAll(
                CopiedRow.self, sql: "SELECT id, name, typeof(price), CAST(price AS TEXT) FROM item ORDER BY id")
            guard rows.count == Self.rows else { throw FaultIssue(.halfApplied, "the table has \(rows.count) rows") }
            for (index, row) in rows.enumerated() {
                let id = index + 1
                let expectedType = Self.price(id) == nil ? "null" : isNew ? "real" : "text"
                let storage: String = try row.decode(at: 2)
                let text: String? = try row.decode(at: 3)
                let name: String = try row.decode(at: 1)
                let expectedText = Self.price(id).map { isNew ? String(Double($0) ?? .nan) : $0 }
                guard try row.decode(Int.self, at: 0) == id, name.hasPrefix("item \(id) "), storage == expectedType,
                    text == expectedText
                else {
                    throw FaultIssue(
                        .halfApplied, "row \(id) reads \(row.values) in a table of the \(isNew ? "new" : "old") shape")
                }
            }
            if isNew {
                let stocked = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item WHERE stock = 0")
                guard stocked == Self.rows else { throw FaultIssue(.halfApplied, "\(stocked) rows have a stock") }
            }
            let objects = try db.fetchAll(
                String.self, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            guard objects == ["cheap", "item", "item_name", "item_touch", "line", "probe"] else {
                throw FaultIssue(.halfApplied, "the schema holds \(objects)")
            }
            let violations = try db.fetchAll(CopiedRow.self, sql: "PRAGMA foreign_key_check")
            guard violations.isEmpty else {
                throw FaultIssue(.halfApplied, "\(violations.count) foreign key violations")
            }
            return isNew
        }
    }

    @Test func selfManagingTableRebuild() throws {
        try SweepSettings.run(Rebuild(), named: "self-managing table rebuild", coverage: .sample(24))
    }

    @Test func migrator() throws {
        try SweepSettings.run(Migrations(), named: "migrator", coverage: .sample(24))
    }
}

/// What the migrator's callbacks reported, gathered on its thread and handed to the context after.
final class DoneLog: @unchecked Sendable {
    // @unchecked Sendable: the migrator calls back on the thread that runs it, the one reading the
    // log afterwards; the lock makes that plain.
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) {
        lock.withLock { entries.append(entry) }
    }

    func forward(to context: FaultRunContext) {
        for entry in lock.withLock({ entries }) {
            if entry.hasPrefix("attempt ") {
                context.attempt(String(entry.dropFirst(8)))
            } else if entry.hasPrefix("done ") {
                context.reportDone(String(entry.dropFirst(5)))
            }
        }
    }
}
