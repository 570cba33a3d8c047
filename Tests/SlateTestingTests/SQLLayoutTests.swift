import Foundation
import Slate
import SlateTestSupport
import SlateTesting
import Testing

/// SQL laid out one clause per line: the text of each line is the original text, and clause
/// keywords inside strings, identifiers or subqueries that fit never start a line.
@Suite struct SQLLayoutTests {
    @Test func eachClauseStartsALine() {
        let sql =
            #"""
            SELECT "player"."name", count(*) FROM "player" \#
            LEFT JOIN "team" ON "team"."id" = "player"."teamId" WHERE "player"."score" > ? \#
            GROUP BY "player"."name" HAVING count(*) > 1 ORDER BY "player"."name" LIMIT ? OFFSET ?
            """#
        #expect(
            SQLLayout.lines(sql) == """
                SELECT "player"."name", count(*)
                FROM "player"
                LEFT JOIN "team" ON "team"."id" = "player"."teamId"
                WHERE "player"."score" > ?
                GROUP BY "player"."name"
                HAVING count(*) > 1
                ORDER BY "player"."name"
                LIMIT ? OFFSET ?
                """)
    }

    @Test func keywordsInsideStringsAndIdentifiersStayPut() {
        let sql = #"SELECT 'a FROM b', "WHERE" FROM "select" WHERE "order" = 'ORDER BY x'"#
        #expect(
            SQLLayout.lines(sql) == """
                SELECT 'a FROM b', "WHERE"
                FROM "select"
                WHERE "order" = 'ORDER BY x'
                """)
    }

    @Test func joiningTheLinesWithSpacesGivesTheTextBack() {
        // Every line break stands for one space of the original text, or for none around a
        // subquery's parentheses.
        let sql =
            #"""
            INSERT INTO "t" ("a", "b") VALUES (?, ?) \#
            ON CONFLICT ("a") DO UPDATE SET "b" = "excluded"."b" WHERE "t"."b" < ? RETURNING "a"
            """#
        let laidOut = SQLLayout.lines(sql)
        #expect(
            laidOut == """
                INSERT INTO "t" ("a", "b")
                VALUES (?, ?)
                ON CONFLICT ("a") DO UPDATE SET "b" = "excluded"."b"
                WHERE "t"."b" < ?
                RETURNING "a"
                """)
        #expect(laidOut.replacingOccurrences(of: "\n", with: " ") == sql)
    }

    @Test func aLongListPutsEachItemOnALine() {
        let sql =
            #"""
            SELECT "Track"."TrackId", "Track"."Name", "Track"."AlbumId", "Track"."MediaTypeId", "Track"."GenreId" \#
            FROM "Track" WHERE "Track"."Milliseconds" > ? AND "Track"."Name" LIKE ? \#
            AND "Track"."UnitPrice" BETWEEN ? AND ?
            """#
        #expect(
            SQLLayout.lines(sql, width: 60) == """
                SELECT
                  "Track"."TrackId",
                  "Track"."Name",
                  "Track"."AlbumId",
                  "Track"."MediaTypeId",
                  "Track"."GenreId"
                FROM "Track"
                WHERE "Track"."Milliseconds" > ?
                  AND "Track"."Name" LIKE ?
                  AND "Track"."UnitPrice" BETWEEN ? AND ?
                """)
    }

    @Test func aLongSubqueryIsLaidOutInsideItsParentheses() {
        let sql =
            #"""
            SELECT "a"."name" FROM "a" WHERE "a"."id" IN (SELECT "b"."aId" FROM "b" \#
            WHERE "b"."kind" = ?) ORDER BY "a"."name"
            """#
        #expect(
            SQLLayout.lines(sql, width: 40) == """
                SELECT "a"."name"
                FROM "a"
                WHERE "a"."id" IN (
                  SELECT "b"."aId"
                  FROM "b"
                  WHERE "b"."kind" = ?
                )
                ORDER BY "a"."name"
                """)
        // Short enough, it stays on its line.
        #expect(SQLLayout.lines(sql).split(separator: "\n").count == 4)
    }

    @Test func aLongWindowDefinitionIsLaidOutInsideItsParentheses() {
        let sql =
            #"SELECT avg("t"."x") OVER (PARTITION BY "t"."g" ORDER BY "t"."d" ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM "t""#
        #expect(
            SQLLayout.lines(sql, width: 60) == """
                SELECT avg("t"."x") OVER (
                  PARTITION BY "t"."g"
                  ORDER BY "t"."d"
                  ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING
                )
                FROM "t"
                """)
    }

    @Test func aLongTableDefinitionPutsEachColumnOnALine() {
        let sql =
            #"CREATE TABLE "pet" ("id" INTEGER PRIMARY KEY, "#
            + #""ownerId" INTEGER REFERENCES "person" ("id") ON DELETE CASCADE, "#
            + #""name" TEXT NOT NULL DEFAULT 'a, b', CHECK ("id" > 0)) STRICT"#
        #expect(
            SQLLayout.lines(sql) == """
                CREATE TABLE "pet" (
                  "id" INTEGER PRIMARY KEY,
                  "ownerId" INTEGER REFERENCES "person" ("id") ON DELETE CASCADE,
                  "name" TEXT NOT NULL DEFAULT 'a, b',
                  CHECK ("id" > 0)
                ) STRICT
                """)
        // Short enough, or made from a select, it stays as it is.
        #expect(SQLLayout.lines(#"CREATE TABLE "t" ("a", "b")"#) == #"CREATE TABLE "t" ("a", "b")"#)
        #expect(
            SQLLayout.lines(#"CREATE TABLE "t" AS SELECT "a" FROM "u""#, width: 10) == """
                CREATE TABLE "t" AS
                SELECT "a"
                FROM "u"
                """)
    }

    @Test func compoundSelectsAndCommonTableExpressions() {
        let sql = #"WITH "x" AS (SELECT 1 AS "n") SELECT "n" FROM "x" UNION ALL SELECT 2 EXCEPT SELECT 3"#
        #expect(
            SQLLayout.lines(sql) == """
                WITH "x" AS (SELECT 1 AS "n")
                SELECT "n"
                FROM "x"
                UNION ALL SELECT 2
                EXCEPT SELECT 3
                """)
    }

    @Test func updatesAndDeletes() {
        #expect(
            SQLLayout.lines(#"UPDATE "t" SET "a" = ?, "b" = replace("b", 'x', 'y') WHERE "t"."id" = ?"#) == """
                UPDATE "t"
                SET "a" = ?, "b" = replace("b", 'x', 'y')
                WHERE "t"."id" = ?
                """)
        #expect(
            SQLLayout.lines(#"DELETE FROM "t" WHERE "t"."a" IS NOT DISTINCT FROM ? RETURNING *"#) == """
                DELETE FROM "t"
                WHERE "t"."a" IS NOT DISTINCT FROM ?
                RETURNING *
                """)
    }

    @Test func argumentsAndBuildErrorsFollowTheText() throws {
        let sql: SQL = "SELECT \(5), \("it's"), \(2.5), \(Data([1, 255])), \(nil as Int?)"
        #expect(
            SQLLayout.lines(sql) == """
                SELECT ?, ?, ?, ?, ?
                -- arguments: 5, 'it''s', 2.5, X'01FF', NULL
                """)
        let named = SQL(sql: "SELECT :score", arguments: ["score": 7])
        #expect(SQLLayout.lines(named) == "SELECT :score\n-- :score = 7")
    }

    @Test func theBuildersQueriesAreLaidOutTheSameWay() throws {
        let query = Person.where { $0.age > 30 }.order(by: \.name).select { ($0.name, $0.age) }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "person"."name", "person"."age"
                FROM "person"
                WHERE "person"."age" > ?
                ORDER BY "person"."name"
                -- arguments: 30
                """)
    }
}
