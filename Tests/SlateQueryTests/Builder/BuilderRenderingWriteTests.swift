import Foundation
import Slate
import SlateTestSupport
import Testing

/// The exact SQL of inserts, upserts, updates, deletes, RETURNING, key lookups and CREATE TABLE.
@Suite struct BuilderRenderingWriteTests {
    let arthur = Person(name: "Arthur", age: 42)
    let insertPerson = #"INSERT INTO "person" ("id", "name", "age", "email", "score") VALUES (?, ?, ?, ?, ?)"#

    // MARK: Insert

    @Test func rendersInserts() throws {
        try expectSQL(Person.insert(arthur), insertPerson, [.null, "Arthur", 42, .null, 0.0])
        try expectSQL(
            Person.insert(arthur, or: .ignore),
            #"""
            INSERT OR IGNORE INTO "person" ("id", "name", "age", "email", "score")
            VALUES (?, ?, ?, ?, ?)
            """#,
            [.null, "Arthur", 42, .null, 0.0])
        try expectSQL(
            Person.insert([arthur, arthur], or: .replace),
            #"""
            INSERT OR REPLACE INTO "person" ("id", "name", "age", "email", "score")
            VALUES (?, ?, ?, ?, ?)
            """#,
            [.null, "Arthur", 42, .null, 0.0])
        for resolution in ConflictResolution.allCases {
            #expect(Person.insert(arthur, or: resolution).sql.text.hasPrefix("INSERT OR \(resolution.rawValue) INTO"))
        }
        try expectSQL(
            PlaylistTrack.insert(PlaylistTrack(playlistId: 1, trackId: 2)),
            #"""
            INSERT INTO "PlaylistTrack" ("PlaylistId", "TrackId")
            VALUES (?, ?)
            """#, [1, 2])
    }

    @Test func rendersUpserts() throws {
        try expectSQL(
            Person.upsert(arthur),
            insertPerson + #" ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name", "age" = "excluded"."age", "#
                + #""email" = "excluded"."email", "score" = "excluded"."score""#,
            [.null, "Arthur", 42, .null, 0.0])
        try expectSQL(
            PlaylistTrack.upsert(PlaylistTrack(playlistId: 1, trackId: 2)),
            #"""
            INSERT INTO "PlaylistTrack" ("PlaylistId", "TrackId")
            VALUES (?, ?)
            ON CONFLICT ("PlaylistId", "TrackId") DO NOTHING
            """#,
            [1, 2])
        try expectSQL(
            Person.insert(arthur).onConflict(\.email) { existing, excluded in
                existing.name.set(to: excluded.name)
                existing.age.set(to: existing.age + 1)
                existing.score.set(to: 5)
            },
            insertPerson
                + #" ON CONFLICT ("email") DO UPDATE SET "name" = "excluded"."name", "age" = "person"."age" + ?, "#
                + #""score" = ?"#,
            [.null, "Arthur", 42, .null, 0.0, 1, 5.0])
        try expectSQL(
            Shelf.insert(Shelf(building: "A", number: 1)).onConflict(\.building, \.number) { existing, excluded in
                existing.label.set(to: excluded.label.coalesce(existing.label))
            },
            #"INSERT INTO "shelf" ("building", "number", "label") VALUES (?, ?, ?) ON CONFLICT ("building", "number")"#
                + #" DO UPDATE SET "label" = coalesce("excluded"."label", "shelf"."label")"#,
            ["A", 1, .null])
        try expectSQL(
            Person.insert(arthur).onConflictDoNothing(\.email), insertPerson + #" ON CONFLICT ("email") DO NOTHING"#,
            [.null, "Arthur", 42, .null, 0.0])
        try expectSQL(
            Person.insert(arthur).onConflictDoNothing(), insertPerson + " ON CONFLICT DO NOTHING",
            [.null, "Arthur", 42, .null, 0.0])
    }

    @Test func rendersReturning() throws {
        try expectSQL(
            Person.insert(arthur).returning(\.id), insertPerson + #" RETURNING "person"."id""#,
            [.null, "Arthur", 42, .null, 0.0])
        try expectSQL(
            Person.insert(arthur).returning { ($0.id, $0.age + 1) },
            insertPerson + #" RETURNING "person"."id", "person"."age" + ?"#, [.null, "Arthur", 42, .null, 0.0, 1])
        try expectSQL(
            Person.insert(arthur).returning(), insertPerson + " RETURNING \(personColumns)",
            [.null, "Arthur", 42, .null, 0.0])
        try expectSQL(
            Person.update { $0.age.set(to: 1) }.where { $0.id == 2 }.returning(\.name),
            #"""
            UPDATE "person"
            SET "age" = ?
            WHERE "person"."id" = ?
            RETURNING "person"."name"
            """#, [1, 2])
        try expectSQL(
            Person.delete().where { $0.age < 18 }.returning(),
            """
            DELETE FROM "person"
            WHERE "person"."age" < ?
            RETURNING \(personColumns)
            """, [18])
    }

    // MARK: Update

    @Test func rendersUpdates() throws {
        try expectSQL(
            Person.update {
                $0.name.set(to: "Bob")
                $0.age.set(to: $0.age + 1)
            }
            .where { $0.id == 3 },
            #"""
            UPDATE "person"
            SET "name" = ?, "age" = "person"."age" + ?
            WHERE "person"."id" = ?
            """#, ["Bob", 1, 3])
        try expectSQL(
            Person.update(or: .replace) { $0.email.set(to: nil) }.where { $0.age > 1 }.where {
                $0.age < 9 || $0.name == "x"
            },
            #"""
            UPDATE OR REPLACE "person"
            SET "email" = ?
            WHERE "person"."age" > ? AND ("person"."age" < ? OR "person"."name" = ?)
            """#,
            [.null, 1, 9, "x"])
        try expectSQL(
            Person.update { $0.score.set(to: $0.score * 2) },
            #"""
            UPDATE "person"
            SET "score" = "person"."score" * ?
            """#,
            [2.0])
    }

    @Test func rendersRecordUpdatesWithNumberedParameters() throws {
        try expectSQL(
            UpdateRecord(Person(id: 1, name: "Arthur", age: 42)),
            #"""
            UPDATE "person"
            SET "name" = ?2, "age" = ?3, "email" = ?4, "score" = ?5
            WHERE "id" = ?1
            """#,
            [1, "Arthur", 42, .null, 0.0])
        try expectSQL(
            UpdateRecord(Shelf(building: "A", number: 2, label: "x")),
            #"""
            UPDATE "shelf"
            SET "label" = ?3
            WHERE "building" = ?1 AND "number" = ?2
            """#, ["A", 2, "x"])
        try expectSQL(
            UpdateRecord(PlaylistTrack(playlistId: 1, trackId: 2)),
            #"""
            UPDATE "PlaylistTrack"
            SET "PlaylistId" = ?1, "TrackId" = ?2
            WHERE "PlaylistId" = ?1 AND "TrackId" = ?2
            """#,
            [1, 2])
    }

    // MARK: Delete and find

    @Test func rendersDeletesAndKeyLookups() throws {
        try expectSQL(Person.delete(), #"DELETE FROM "person""#)
        try expectSQL(
            Person.delete().where { $0.age < 18 },
            #"""
            DELETE FROM "person"
            WHERE "person"."age" < ?
            """#, [18])
        try expectSQL(
            Person.delete(key: 3),
            #"""
            DELETE FROM "person"
            WHERE "person"."id" = ?
            """#, [3])
        try expectSQL(
            PlaylistTrack.delete(key: (1, 2)),
            #"""
            DELETE FROM "PlaylistTrack"
            WHERE "PlaylistTrack"."PlaylistId" = ? AND "PlaylistTrack"."TrackId" = ?
            """#,
            [1, 2])
        try expectSQL(
            Person.find(1),
            """
            SELECT \(personColumns)
            FROM "person"
            WHERE "person"."id" = ?
            """, [1])
        try expectSQL(
            PlaylistTrack.find((1, 3402)).where { $0.trackId > 0 },
            #"SELECT "PlaylistTrack"."PlaylistId", "PlaylistTrack"."TrackId" FROM "PlaylistTrack""#
                + #" WHERE "PlaylistTrack"."PlaylistId" = ? AND "PlaylistTrack"."TrackId" = ? AND "PlaylistTrack"."TrackId" > ?"#,
            [1, 3402, 0])
    }

    // MARK: CREATE TABLE

    @Test func rendersCreateTable() throws {
        try expectSQL(
            Person.createTable().sql,
            #"CREATE TABLE "person" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "#
                + #""age" INTEGER NOT NULL DEFAULT 0, "email" TEXT UNIQUE COLLATE "NOCASE", "score" REAL NOT NULL DEFAULT 0.0)"#
        )
        #expect(
            Person.createTable().indexStatements.map(\.text) == [#"CREATE INDEX "person_on_name" ON "person" ("name")"#]
        )
        try expectSQL(
            Pet.createTable(ifNotExists: true).sql,
            #"CREATE TABLE IF NOT EXISTS "pet" ("id" INTEGER PRIMARY KEY, "ownerId" INTEGER REFERENCES "person" ("id") "#
                + #"ON DELETE CASCADE, "name" TEXT NOT NULL, "species" TEXT NOT NULL DEFAULT 'cat')"#)
        try expectSQL(
            Shelf.createTable().sql,
            #"CREATE TABLE "shelf" ("building" TEXT NOT NULL, "number" INTEGER NOT NULL, "label" TEXT, "#
                + #"PRIMARY KEY ("building", "number")) WITHOUT ROWID"#)
        try expectSQL(
            Message.createTable().sql,
            #"CREATE TABLE "message" ("id" INTEGER PRIMARY KEY, "senderId" INTEGER NOT NULL REFERENCES "person", "#
                + #""recipientId" INTEGER NOT NULL REFERENCES "person", "body" TEXT NOT NULL)"#)
        try expectSQL(
            Artist.createTable().sql, #"CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY, "Name" NVARCHAR(120))"#)
        try expectSQL(
            PlaylistTrack.createTable().sql,
            #"CREATE TABLE "PlaylistTrack" ("PlaylistId" INTEGER NOT NULL REFERENCES "Playlist" ("PlaylistId"), "#
                + #""TrackId" INTEGER NOT NULL REFERENCES "Track" ("TrackId"), PRIMARY KEY ("PlaylistId", "TrackId"))"#)
    }

    @Test func rendersMultiColumnForeignKeysAndIndexes() throws {
        let book = Book.createTable(ifNotExists: true)
        try expectSQL(
            book.sql,
            #"CREATE TABLE IF NOT EXISTS "book" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL COLLATE "NOCASE", "#
                + #""building" TEXT, "shelfNumber" INTEGER, FOREIGN KEY ("building", "shelfNumber") REFERENCES "shelf" "#
                + #"("building", "number") ON DELETE SET NULL ON UPDATE CASCADE)"#)
        #expect(
            book.indexStatements.map(\.text) == [
                #"CREATE INDEX IF NOT EXISTS "book_on_shelf" ON "book" ("building", "shelfNumber")"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "book_on_title" ON "book" ("title")"#,
            ])
        #expect(book.statements.count == 3)
        #expect(
            Album.createTable().description == #"""
                CREATE TABLE "Album" ("AlbumId" INTEGER PRIMARY KEY, "Title" NVARCHAR(160) NOT NULL, "ArtistId" INTEGER NOT NULL REFERENCES "Artist" ("ArtistId"));
                CREATE INDEX "IFK_AlbumArtistId" ON "Album" ("ArtistId")
                """#)
    }

    @Test func rendersDefaultExpressionsAsSQLiteRequires() throws {
        try expectSQL(
            Defaults.createTable().sql,
            #"CREATE TABLE "defaults" ("a" TEXT DEFAULT CURRENT_TIMESTAMP, "b" TEXT DEFAULT (datetime('now')), "#
                + #""c" INTEGER DEFAULT (1 + 2), "d" INTEGER DEFAULT -1, "e" TEXT DEFAULT 'it''s', "f" TEXT DEFAULT ('a' || 'b'), "#
                + #""g" BLOB DEFAULT x'00FF', "h" INTEGER DEFAULT 0x1F, "i" TEXT DEFAULT NULL, "j" REAL DEFAULT 1.5e3, "#
                + #""k" TEXT DEFAULT ('a') || ('b'))"#.replacingOccurrences(
                    of: "('a') || ('b'))", with: "(('a') || ('b')))"))
        let db = try Database.memory()
        try db.createTable(for: Defaults.self)
        try db.execute(sql: "INSERT INTO defaults DEFAULT VALUES")
        let row = try #require(try db.fetchOne(CopiedRow.self, "SELECT c, d, e, f, g, h, i, j, k FROM defaults"))
        let expected: [SQLValue] = [3, -1, "it's", "ab", .blob(Data([0, 255])), 31, .null, 1500.0, "ab"]
        #expect(row.values == expected)
    }
}

/// Default expressions of every form.
struct Defaults: Table {
    static let schema = TableSchema(
        name: "defaults",
        columns: [
            .init(name: "a", type: "TEXT", defaultSQL: "CURRENT_TIMESTAMP"),
            .init(name: "b", type: "TEXT", defaultSQL: "datetime('now')"),
            .init(name: "c", type: "INTEGER", defaultSQL: "(1 + 2)"),
            .init(name: "d", type: "INTEGER", defaultSQL: "-1"),
            .init(name: "e", type: "TEXT", defaultSQL: "'it''s'"),
            .init(name: "f", type: "TEXT", defaultSQL: "'a' || 'b'"),
            .init(name: "g", type: "BLOB", defaultSQL: "x'00FF'"),
            .init(name: "h", type: "INTEGER", defaultSQL: "0x1F"),
            .init(name: "i", type: "TEXT", defaultSQL: "NULL"),
            .init(name: "j", type: "REAL", defaultSQL: " 1.5e3 "),
            .init(name: "k", type: "TEXT", defaultSQL: "('a') || ('b')"),
        ])
    struct Columns: TableColumns {
        init(qualifier: String) {}
    }
    init(row: borrowing Row) throws {}
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {}
}
