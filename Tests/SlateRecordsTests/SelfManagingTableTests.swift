import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// Migrations driven by `TableSchema`s, on files in a temporary directory.
@Suite struct SelfManagingTableTests {
    static let v1 = TableSchema(
        name: "item",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "price", type: "TEXT"),
        ], indexes: [.init(name: "item_name", columns: ["name"])])

    func open(_ directory: TemporaryDirectory) throws -> Database {
        var configuration = Database.Configuration()
        configuration.createsMissingDirectories = true
        return try Database(path: directory.path("nested/dir/items.sqlite"), configuration: configuration)
    }

    func seed(_ db: Database) throws {
        try db.migrateTable(to: Self.v1)
        try db.execute(sql: "INSERT INTO item (name, price) VALUES ('pen', '1.5'), ('ink', NULL), ('pad', '3')")
    }

    @Test func missingTableIsCreatedWithItsIndexes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        let plan = try db.migrateTable(to: Self.v1)
        #expect(plan.action == .create)
        #expect(FileManager.default.fileExists(atPath: directory.path("nested/dir/items.sqlite")))
        #expect(
            try db.fetchOne(String.self, "SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'item_name'")
                == "item_name")
        #expect(try db.migrateTable(to: Self.v1).action == .none)
    }

    @Test func gainingColumnsAltersTheTable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        var v2 = Self.v1
        v2.columns.append(.init(name: "stock", type: "INTEGER", isNotNull: true, defaultSQL: "0"))
        v2.columns.append(.init(name: "note", type: "TEXT"))
        let plan = try db.migrateTable(to: v2)
        #expect(plan.action == .alter)
        #expect(
            plan.statements == [
                #"ALTER TABLE "item" ADD COLUMN "stock" INTEGER NOT NULL DEFAULT 0"#,
                #"ALTER TABLE "item" ADD COLUMN "note" TEXT"#,
            ])
        #expect(try db.fetchAll(Int.self, "SELECT stock FROM item") == [0, 0, 0])
    }

    @Test func typeChangeRebuildsAndConvertsEveryRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        try db.execute(sql: "CREATE TRIGGER item_touch AFTER UPDATE ON item BEGIN SELECT 1; END")
        try db.execute(sql: "CREATE VIEW cheap AS SELECT name FROM item WHERE price < 2")
        var v2 = Self.v1
        v2.columns[2].declaredType = "REAL"
        let plan = try db.migrateTable(to: v2)
        #expect(plan.action == .rebuild)
        #expect(plan.reasons == ["the type of column price changes from TEXT to REAL"])
        let rows = try db.fetchAll(CopiedRow.self, "SELECT id, name, price, typeof(price) FROM item ORDER BY id")
        #expect(
            rows.map(\.values) == [
                [1, "pen", 1.5, "real"], [2, "ink", .null, "null"], [3, "pad", 3.0, "real"],
            ])
        let objects = try db.fetchAll(
            String.self, "SELECT name FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
        #expect(objects == ["cheap", "item", "item_name", "item_touch"])
        #expect(try db.fetchAll(String.self, "SELECT name FROM cheap") == ["pen"])
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
        #expect(try db.fetchValue(Bool.self, "PRAGMA foreign_keys"))
    }

    @Test func failingConversionLeavesTheFileUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        try db.execute(sql: "INSERT INTO item (name, price) VALUES ('gift', 'free')")
        let path = directory.path("nested/dir/items.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let dumpBefore = try db.dump(includingRowIDs: true)
        var v2 = Self.v1
        v2.columns[2].declaredType = "INTEGER"
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(to: v2) }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("column price becomes INTEGER"))
        #expect(error.message.contains("'free' of rowid 4"))
        #expect(error.message.contains("left unchanged"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try db.dump(includingRowIDs: true) == dumpBefore)
        #expect(try db.fetchValue(String.self, "PRAGMA integrity_check") == "ok")
        #expect(try db.fetchValue(Bool.self, "PRAGMA foreign_keys"))
        #expect(!db.isInTransaction)
    }

    @Test func nullIntoNotNullWithoutDefaultThrowsAndWithDefaultIsFilled() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        var v2 = Self.v1
        v2.columns[2].isNotNull = true
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(to: v2) }
        #expect(error.extendedResultCode == .constraintNotNull)
        #expect(error.message.contains("rowid 2 holds NULL"))
        v2.columns[2].defaultSQL = "'0'"
        try db.migrateTable(to: v2)
        #expect(try db.fetchAll(String.self, "SELECT price FROM item ORDER BY id") == ["1.5", "0", "3"])
    }

    @Test func undeclaredColumnsAreKeptUnlessNamedForDropping() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        try db.execute(sql: "CREATE INDEX item_price ON item (price)")
        var v2 = Self.v1
        v2.columns.removeLast()
        // Not named: kept, with its values, and nothing runs.
        let kept = try db.migrateTable(to: v2)
        #expect(kept.action == .none)
        #expect(kept.droppedColumns.isEmpty)
        #expect(kept.keptColumns == ["price"])
        #expect(try db.fetchAll(String?.self, "SELECT price FROM item ORDER BY id") == ["1.5", nil, "3"])
        // A rebuild for another reason keeps it too.
        var v3 = v2
        v3.columns[1].isNotNull = false
        let rebuilt = try db.migrateTable(to: v3)
        #expect(rebuilt.action == .rebuild)
        #expect(rebuilt.keptColumns == ["price"])
        #expect(try db.fetchAll(String?.self, "SELECT price FROM item ORDER BY id") == ["1.5", nil, "3"])
        #expect(
            try db.fetchOne(String.self, "SELECT name FROM sqlite_schema WHERE name = 'item_price'") == "item_price")
        // Naming a column the type still declares, or one the table lacks, is refused.
        #expect(throws: DatabaseError.self) {
            try db.migrateTable(to: v2, options: TableMigrationOptions(dropping: ["name"]))
        }
        #expect(throws: DatabaseError.self) {
            try db.migrateTable(to: v2, options: TableMigrationOptions(dropping: ["nope"]))
        }
        // Named: dropped.
        let plan = try db.migrateTable(to: v2, options: TableMigrationOptions(dropping: ["PRICE"]))
        #expect(plan.droppedColumns == ["price"])
        #expect(plan.droppedIndexes == ["item_price"])
        #expect(try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") == ["pen", "ink", "pad"])
        #expect(try db.fetchAll(String.self, "SELECT name FROM pragma_table_info('item')") == ["id", "name"])
    }

    @Test func renamedColumnsKeepTheirData() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        var v2 = Self.v1
        v2.columns[1].name = "title"
        v2.indexes = []
        let plan = try db.migrateTable(to: v2, options: TableMigrationOptions(renamedColumns: ["title": "name"]))
        #expect(plan.action == .alter)
        #expect(plan.statements == [#"ALTER TABLE "item" RENAME COLUMN "name" TO "title""#])
        #expect(try db.fetchAll(String.self, "SELECT title FROM item ORDER BY id") == ["pen", "ink", "pad"])
    }

    @Test func dryRunPlansWithoutChangingAnything() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        var v2 = Self.v1
        v2.columns[2].declaredType = "REAL"
        v2.columns[2].isNotNull = true
        v2.columns[2].defaultSQL = "0"
        let dump = try db.dump(includingRowIDs: true)
        let plan = try db.migrationPlan(for: v2)
        #expect(plan.action == .rebuild)
        #expect(
            plan.description == """
                PRAGMA foreign_keys = OFF;
                BEGIN IMMEDIATE TRANSACTION;
                CREATE TABLE "slate_new_item" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "price" REAL NOT NULL DEFAULT 0);
                INSERT INTO "slate_new_item" ("id", "name", "price") SELECT "id", "name", coalesce("price", 0) FROM "item";
                DROP TABLE "item";
                PRAGMA legacy_alter_table = ON;
                ALTER TABLE "slate_new_item" RENAME TO "item";
                PRAGMA legacy_alter_table = OFF;
                CREATE INDEX "item_name" ON "item" ("name");
                PRAGMA foreign_key_check;
                COMMIT TRANSACTION;
                PRAGMA foreign_keys = ON;
                """)
        #expect(try db.dump(includingRowIDs: true) == dump)
    }

    @Test func foreignKeysAreCheckedAndChildrenSurvive() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        try db.execute(
            sql: """
                CREATE TABLE review (id INTEGER PRIMARY KEY, itemId INTEGER REFERENCES item(id) ON DELETE CASCADE, body TEXT);
                INSERT INTO review (itemId, body) VALUES (1, 'great'), (3, 'fine');
                """)
        var v2 = Self.v1
        v2.columns[2].declaredType = "REAL"
        try db.migrateTable(to: v2)
        #expect(try db.fetchAll(String.self, "SELECT body FROM review ORDER BY id") == ["great", "fine"])

        // Dropping the key column that children reference would break them: refused.
        var v3 = v2
        v3.columns[0] = .init(name: "code", type: "TEXT", isNotNull: true, primaryKeyPosition: 1)
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(to: v3) }
        #expect(error.message.contains("cannot migrate table \"item\""))
        #expect(try db.fetchAll(String.self, "SELECT body FROM review ORDER BY id") == ["great", "fine"])
        #expect(try db.fetchAll(Int.self, "SELECT id FROM item ORDER BY id") == [1, 2, 3])
    }

    @Test func brokenForeignKeysAbortTheRebuild() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        try db.execute(sql: "CREATE TABLE category (id INTEGER PRIMARY KEY)")
        let dump = try db.dump(includingRowIDs: true)
        var v2 = Self.v1
        v2.columns.append(.init(name: "categoryId", type: "INTEGER", isNotNull: true, defaultSQL: "1"))
        v2.foreignKeys.append(.init(columns: ["categoryId"], referencedTable: "category"))
        let plan = try db.migrationPlan(for: v2)
        #expect(plan.action == .rebuild)
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(to: v2) }
        #expect(error.extendedResultCode == .constraintForeignKey)
        #expect(error.message.contains("would reference a missing row of category"))
        #expect(try db.dump(includingRowIDs: true) == dump)
        try db.execute(sql: "INSERT INTO category (id) VALUES (1)")
        try db.migrateTable(to: v2)
        #expect(try db.fetchAll(Int.self, "SELECT categoryId FROM item") == [1, 1, 1])
    }

    @Test func viewsAndTriggersThatWouldBreakAbortTheRebuild() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try open(directory)
        try seed(db)
        try db.execute(sql: "CREATE VIEW priced AS SELECT name, price FROM item")
        let dump = try db.dump(includingRowIDs: true)
        var v2 = Self.v1
        v2.columns.removeLast()
        let dropPrice = TableMigrationOptions(dropping: ["price"])
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(to: v2, options: dropPrice) }
        #expect(error.message.contains("view priced would no longer work"))
        #expect(try db.dump(includingRowIDs: true) == dump)

        try db.execute(
            sql: """
                DROP VIEW priced;
                CREATE TABLE audit (name TEXT);
                CREATE TRIGGER item_audit AFTER INSERT ON item BEGIN INSERT INTO audit VALUES (new.price); END;
                """)
        let triggerError = try #require(throws: DatabaseError.self) { try db.migrateTable(to: v2, options: dropPrice) }
        #expect(triggerError.message.contains("trigger item_audit refers to column price, which is dropped"))
        #expect(try db.fetchAll(String.self, "SELECT name FROM pragma_table_info('item')") == ["id", "name", "price"])
    }

    @Test func autoIncrementKeepsItsHighWaterMark() throws {
        let db = try Database()
        var v1 = Self.v1
        v1.columns[0].isAutoIncrement = true
        try db.migrateTable(to: v1)
        try db.execute(sql: "INSERT INTO item (name) VALUES ('a'), ('b'), ('c'); DELETE FROM item WHERE id = 3")
        var v2 = v1
        v2.columns[2].declaredType = "REAL"
        #expect(try db.migrateTable(to: v2).action == .rebuild)
        try db.execute(sql: "INSERT INTO item (name) VALUES ('d')")
        #expect(try db.fetchAll(Int.self, "SELECT id FROM item ORDER BY id") == [1, 2, 4])
    }

    @Test func prepareTableRunsOncePerSchemaVersion() throws {
        let db = try Database()
        try db.prepareTable(Self.v1)
        try db.prepareTable(Self.v1)
        #expect(try db.fetchCount(in: "item") == 0)
        try db.execute(sql: "DROP TABLE item")
        try db.prepareTable(Self.v1)
        #expect(try db.fetchCount(in: "item") == 0)
    }
}

extension Database {
    func fetchCount(in table: String) throws -> Int {
        try fetchValue(Int.self, sql: "SELECT count(*) FROM \(table.quotedIdentifier)")
    }
}
