import Foundation
import SlateMacros
import SlateTestSupport
import Testing

// Successive versions of one record type, each a @Table struct stored in the table "Player".

@Table("Player")
struct PlayerV1: Equatable {
    var id: Int64?
    var name: String
    var score: Int
}

/// Gains columns: a NOT NULL one with a default, and an optional one.
@Table("Player")
struct PlayerAddedColumns: Equatable {
    var id: Int64?
    var name: String
    var score: Int
    var level: Int = 1
    var nickname: String?
}

/// `score` becomes a Double.
@Table("Player")
struct PlayerChangedType: Equatable {
    var id: Int64?
    var name: String
    var score: Double
}

/// `name` becomes optional.
@Table("Player")
struct PlayerOptionalName: Equatable {
    var id: Int64?
    var name: String?
    var score: Int
}

/// `score` is gone.
@Table("Player")
struct PlayerDroppedColumn: Equatable {
    var id: Int64?
    var name: String
}

/// The key is renamed from `id` to `playerId`, with an explicit mapping.
@Table("Player")
struct PlayerRenamedKey: Equatable {
    @PrimaryKey @Column(renamedFrom: "id") var playerId: Int64?
    var name: String
    var score: Int
}

/// The key renamed and `score` made a Double, at once.
@Table("Player")
struct PlayerRenamedKeyRealScore: Equatable {
    @PrimaryKey @Column(renamedFrom: "id") var playerId: Int64?
    var name: String
    var score: Double
}

/// Scores held as text in the first version...
@Table("Score")
struct ScoreText: Equatable {
    var id: Int64?
    var value: String
}

/// ...then as integers, which not every row can become.
@Table("Score")
struct ScoreInteger: Equatable {
    var id: Int64?
    var value: Int
}

@Suite(.serialized) struct MacroMigrationTests {
    let players = [
        PlayerV1(id: nil, name: "Arthur", score: 10),
        PlayerV1(id: nil, name: "Ford", score: 42),
        PlayerV1(id: nil, name: "Zaphod", score: -3),
    ]

    /// A file in a fresh directory with version 1 and three rows.
    func seeded(_ directory: TemporaryDirectory) throws -> Database {
        let db = try Database(path: directory.path("game.sqlite"))
        try db.migrateTable(for: PlayerV1.self)
        try db.insert(contentsOf: players)
        return db
    }

    @Test func addingColumnsAltersTheTableAndKeepsRows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let plan = try db.migrateTable(for: PlayerAddedColumns.self)
        #expect(plan.action == .alter)
        #expect(plan.addedColumns == ["level", "nickname"])
        #expect(
            try PlayerAddedColumns.all().fetchAll(db) == [
                PlayerAddedColumns(id: 1, name: "Arthur", score: 10, level: 1, nickname: nil),
                PlayerAddedColumns(id: 2, name: "Ford", score: 42, level: 1, nickname: nil),
                PlayerAddedColumns(id: 3, name: "Zaphod", score: -3, level: 1, nickname: nil),
            ])
    }

    @Test func changingATypeRebuildsAndConvertsEveryRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let plan = try db.migrateTable(for: PlayerChangedType.self)
        #expect(plan.action == .rebuild)
        #expect(plan.reasons == ["the type of column score changes from INTEGER to REAL"])
        #expect(
            try PlayerChangedType.all().fetchAll(db) == [
                PlayerChangedType(id: 1, name: "Arthur", score: 10),
                PlayerChangedType(id: 2, name: "Ford", score: 42),
                PlayerChangedType(id: 3, name: "Zaphod", score: -3),
            ])
        #expect(try db.fetchAll(String.self, "SELECT typeof(score) FROM Player") == ["real", "real", "real"])
        // The new rowid key goes on from the old rows.
        #expect(try db.insert(PlayerChangedType(id: nil, name: "Trillian", score: 1)).id == 4)
    }

    @Test func makingAColumnOptionalKeepsRowsAndAcceptsNull() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let plan = try db.migrateTable(for: PlayerOptionalName.self)
        #expect(plan.reasons == ["column name becomes nullable"])
        #expect(try PlayerOptionalName.all().fetchAll(db).map(\.name) == ["Arthur", "Ford", "Zaphod"])
        try db.insert(PlayerOptionalName(id: nil, name: nil, score: 0))
        #expect(try PlayerOptionalName.where { $0.name.isNull }.fetchCount(db) == 1)
    }

    @Test func droppingAColumnKeepsEveryRow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let untouched = try db.migrateTable(for: PlayerDroppedColumn.self)
        #expect(untouched.action == .none)
        #expect(untouched.keptColumns == ["score"])
        let plan = try db.migrateTable(
            for: PlayerDroppedColumn.self, options: TableMigrationOptions(dropping: ["score"]))
        #expect(plan.droppedColumns == ["score"])
        #expect(
            try PlayerDroppedColumn.all().fetchAll(db) == [
                PlayerDroppedColumn(id: 1, name: "Arthur"), PlayerDroppedColumn(id: 2, name: "Ford"),
                PlayerDroppedColumn(id: 3, name: "Zaphod"),
            ])
    }

    @Test func renamingTheKeyKeepsItsValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let plan = try db.migrateTable(for: PlayerRenamedKey.self)
        #expect(plan.renamedColumns == ["playerId": "id"])
        #expect(plan.statements == [#"ALTER TABLE "Player" RENAME COLUMN "id" TO "playerId""#])
        #expect(try PlayerRenamedKey.find(2).fetchOne(db) == PlayerRenamedKey(playerId: 2, name: "Ford", score: 42))
        #expect(try PlayerRenamedKey.all().fetchAll(db).map(\.playerId) == [1, 2, 3])
    }

    @Test func renamingTheKeyAlongsideATypeChangeRebuildsWithTheMapping() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let plan = try db.migrateTable(for: PlayerRenamedKeyRealScore.self)
        #expect(plan.action == .rebuild)
        #expect(plan.statements.contains(#"ALTER TABLE "Player" RENAME COLUMN "id" TO "playerId""#))
        #expect(
            try PlayerRenamedKeyRealScore.all().fetchAll(db) == [
                PlayerRenamedKeyRealScore(playerId: 1, name: "Arthur", score: 10),
                PlayerRenamedKeyRealScore(playerId: 2, name: "Ford", score: 42),
                PlayerRenamedKeyRealScore(playerId: 3, name: "Zaphod", score: -3),
            ])
    }

    @Test func aNewRequiredColumnWithoutDefaultIsRefusedWhenRowsExist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        try db.migrateTable(for: PlayerDroppedColumn.self, options: TableMigrationOptions(dropping: ["score"]))
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(for: PlayerV1.self) }
        #expect(error.extendedResultCode == .constraintNotNull)
        #expect(error.message.contains("new column score is NOT NULL without a default"))
        #expect(try PlayerDroppedColumn.all().fetchCount(db) == 3)
    }

    @Test func failingConversionLeavesTheFileByteForByteUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("scores.sqlite")
        do {
            let db = try Database(path: path)
            try db.migrateTable(for: ScoreText.self)
            try db.insert(contentsOf: [
                ScoreText(id: nil, value: "12"), ScoreText(id: nil, value: "n/a"), ScoreText(id: nil, value: "7"),
            ])
            try db.close()
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let db = try Database(path: path)
        let error = try #require(throws: DatabaseError.self) { try db.migrateTable(for: ScoreInteger.self) }
        #expect(error.resultCode == .mismatch)
        #expect(
            error.message
                == #"cannot migrate table "Score": column value becomes INTEGER, but the text value 'n/a' of rowid 2 cannot be converted to it; the database was left unchanged"#
        )
        try db.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        // Once the row is fixed, the same migration converts the rest.
        let fixed = try Database(path: path)
        try fixed.execute(sql: "UPDATE Score SET value = '0' WHERE value = 'n/a'")
        try fixed.migrateTable(for: ScoreInteger.self)
        #expect(try ScoreInteger.all().fetchAll(fixed).map(\.value) == [12, 0, 7])
    }

    @Test func dryRunPrintsThePlannedSQLAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try seeded(directory)
        let plan = try db.migrationPlan(for: PlayerChangedType.self)
        #expect(
            plan.description == """
                PRAGMA foreign_keys = OFF;
                BEGIN IMMEDIATE TRANSACTION;
                CREATE TABLE "slate_new_Player" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "score" REAL NOT NULL);
                INSERT INTO "slate_new_Player" ("id", "name", "score") SELECT "id", "name", "score" FROM "Player";
                DROP TABLE "Player";
                PRAGMA legacy_alter_table = ON;
                ALTER TABLE "slate_new_Player" RENAME TO "Player";
                PRAGMA legacy_alter_table = OFF;
                PRAGMA foreign_key_check;
                COMMIT TRANSACTION;
                PRAGMA foreign_keys = ON;
                """)
        #expect(try db.fetchAll(String.self, "SELECT typeof(score) FROM Player") == ["integer", "integer", "integer"])
        #expect(
            try db.migrationPlan(for: PlayerAddedColumns.self).description == """
                ALTER TABLE "Player" ADD COLUMN "level" INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE "Player" ADD COLUMN "nickname" TEXT;
                """)
        #expect(try db.migrationPlan(for: PlayerV1.self).isEmpty)
    }

    @Test func recordStoreMigratesWhenATypeIsFirstUsed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(path: directory.path("store/game.sqlite"))
        try store.save(players)
        // A read never migrates: the newer type's column is missing, and the error names it.
        let missing = try #require(throws: DatabaseError.self) { try store.fetchAll(PlayerAddedColumns.self) }
        #expect(missing.message.contains("level"))
        try store.migrate(PlayerAddedColumns.self)
        let added = try store.fetchAll(PlayerAddedColumns.self)
        #expect(added.map(\.level) == [1, 1, 1])
        try store.save([PlayerAddedColumns(id: 1, name: "Arthur", score: 11, level: 2, nickname: "Earthman")])
        #expect(try store.fetchAll(PlayerAddedColumns.self) { $0.nickname == "Earthman" }.map(\.score) == [11])
        #expect(try store.fetchAll(PlayerChangedType.self).map(\.score) == [11.0, 42.0, -3.0])
    }
}
