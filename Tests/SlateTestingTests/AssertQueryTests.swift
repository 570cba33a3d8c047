import Foundation
import InlineSnapshotTesting
import Slate
import SlateTestSupport
import SlateTesting
import Testing

/// `assertQuery` shows a query's SQL one clause per line and its rows as a table, inline.
@Suite struct AssertQueryTests {
    static func people() throws -> Database {
        let db = try Database.withTestTables()
        try db.insert(contentsOf: [
            Person(name: "Arthur", age: 42, email: "arthur@example.com", score: 2.5),
            Person(name: "Ford", age: 200),
            Person(name: "Trillian", age: 30, email: "tricia@example.com", score: 9),
        ])
        return db
    }

    @Test func aBuilderQueryAndItsRows() throws {
        let db = try Self.people()
        assertQuery(Person.where { $0.age < 100 }.order(by: \.name).select { ($0.name, $0.email, $0.score) }, in: db) {
            """
            SELECT "person"."name", "person"."email", "person"."score"
            FROM "person"
            WHERE "person"."age" < ?
            ORDER BY "person"."name"
            -- arguments: 100
            """
        } results: {
            """
            ┌────────────┬──────────────────────┬───────┐
            │ name       │ email                │ score │
            ├────────────┼──────────────────────┼───────┤
            │ 'Arthur'   │ 'arthur@example.com' │ 2.5   │
            │ 'Trillian' │ 'tricia@example.com' │ 9.0   │
            └────────────┴──────────────────────┴───────┘
            """
        }
    }

    @Test func aJoinWithAnAggregate() throws {
        let db = try Database.chinook()
        assertQuery(
            Album.all()
                .join(Track.self, on: { album, track in album.albumId == track.albumId })
                .where { album, _ in album.artistId == 1 }
                .group { album, _ in album.albumId }
                .order { album, _ in album.title }
                .select { album, track in (album.title, track.trackId.count()) },
            in: db
        ) {
            """
            SELECT "Album"."Title", count("Track"."TrackId")
            FROM "Album"
            JOIN "Track" ON "Album"."AlbumId" = "Track"."AlbumId"
            WHERE "Album"."ArtistId" = ?
            GROUP BY "Album"."AlbumId"
            ORDER BY "Album"."Title"
            -- arguments: 1
            """
        } results: {
            """
            ┌─────────────────────────────────────────┬──────────────────────────┐
            │ Title                                   │ count("Track"."TrackId") │
            ├─────────────────────────────────────────┼──────────────────────────┤
            │ 'For Those About To Rock We Salute You' │ 10                       │
            │ 'Let There Be Rock'                     │ 8                        │
            └─────────────────────────────────────────┴──────────────────────────┘
            """
        }
    }

    @Test func handWrittenSQLAndAnError() throws {
        let db = try Self.people()
        assertQuery(SQL(sql: "SELECT name FROM person WHERE age > ? ORDER BY name", arguments: [35]), in: db) {
            """
            SELECT name
            FROM person
            WHERE age > ?
            ORDER BY name
            -- arguments: 35
            """
        } results: {
            """
            ┌──────────┐
            │ name     │
            ├──────────┤
            │ 'Arthur' │
            │ 'Ford'   │
            └──────────┘
            """
        }
        assertQuery(SQL(sql: "SELECT missing FROM person"), in: db) {
            """
            SELECT missing
            FROM person
            """
        } results: {
            """
            error: SQLite error 1: no such column: missing — while executing `SELECT missing FROM person`
            """
        }
    }

    @Test func aWriteWithReturningChangesTheDatabase() throws {
        let db = try Self.people()
        assertQuery(Person.insert(Person(name: "Zaphod", age: 150)).returning { ($0.id, $0.name) }, in: db) {
            """
            INSERT INTO "person" ("id", "name", "age", "email", "score")
            VALUES (?, ?, ?, ?, ?)
            RETURNING "person"."id", "person"."name"
            -- arguments: NULL, 'Zaphod', 150, NULL, 0.0
            """
        } results: {
            """
            ┌────┬──────────┐
            │ id │ name     │
            ├────┼──────────┤
            │ 4  │ 'Zaphod' │
            └────┴──────────┘
            """
        }
        #expect(try Person.all().fetchCount(db) == 4)
    }

    @Test func aDifferentSnapshotFails() throws {
        let db = try Self.people()
        withKnownIssue {
            assertQuery(Person.where { $0.name == "Ford" }.select { $0.age }, in: db) {
                """
                SELECT "person"."age"
                FROM "person"
                WHERE "person"."name" = ?
                -- arguments: 'Ford'
                """
            } results: {
                """
                ┌─────┐
                │ age │
                ├─────┤
                │ 201 │
                └─────┘
                """
            }
        }
    }
}
