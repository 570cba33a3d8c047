import Foundation
import Slate
import SlateSchema
import Testing

/// Queries written for SQLDelight, sqlc or drift use `?` and `?NNN`: each positional parameter is
/// named after the column it is compared with, assigned to or inserted into (as sqlc does), `limit`
/// or `offset`, else `p` and its number; the statement is read as written with those names.
@Suite("Named queries: positional parameters")
struct PositionalParameterTests {
    @Test func aComparedParameterIsNamedAfterItsColumn() throws {
        let query = try namedQuery("SELECT title FROM album WHERE year = ?")
        #expect(query.parameters.map(\.name) == ["year"])
        #expect(query.parameters.map(\.sqlName) == [":year"])
        #expect(query.parameters.map(\.declaredType) == ["INTEGER"])
        #expect(query.parameters.first?.origin == "compared with album.year")
        #expect(query.sql == "SELECT title FROM album WHERE year = :year")
        #expect(query.parameters.first?.ranges == [37..<42])
    }

    @Test func insertedAndAssignedParametersAreNamedAfterTheirColumns() throws {
        // SQLDelight's style: a labelled INSERT and UPDATE with `?`.
        let insert = try namedQuery("INSERT INTO artist (name, country) VALUES (?, ?)")
        #expect(insert.parameters.map(\.name) == ["name", "country"])
        #expect(insert.parameters.map(\.isOptional) == [false, true])
        #expect(insert.sql == "INSERT INTO artist (name, country) VALUES (:name, :country)")
        let update = try namedQuery("UPDATE album SET title = ?, price = ? WHERE id = ?")
        #expect(update.parameters.map(\.name) == ["title", "price", "id"])
        #expect(update.parameters.map(\.declaredType) == ["TEXT", "REAL", "INTEGER"])
    }

    @Test func sqlcStyleLabelsAndRowCounts() throws {
        let queries = try namedQueries(
            """
            -- name: GetArtist :one
            SELECT id, name FROM artist WHERE id = ? LIMIT 1;

            -- name: ListAlbums :many
            SELECT title FROM album ORDER BY title LIMIT ? OFFSET ?;

            -- name: PageOfAlbums :many
            SELECT title FROM album ORDER BY title LIMIT ?, ?;
            """)
        #expect(queries.map(\.name) == ["GetArtist", "ListAlbums", "PageOfAlbums"])
        #expect(queries[0].parameters.map(\.name) == ["id"])
        #expect(queries[1].parameters.map(\.name) == ["limit", "offset"])
        #expect(queries[1].parameters.map(\.declaredType) == ["INTEGER", "INTEGER"])
        // `LIMIT a, b` is `LIMIT b OFFSET a`.
        #expect(queries[2].parameters.map(\.name) == ["offset", "limit"])
    }

    @Test func twoParametersOfOneColumnGetDistinctNames() throws {
        let query = try namedQuery("SELECT title FROM album WHERE year BETWEEN ? AND ?")
        #expect(query.parameters.map(\.name) == ["year", "year_2"])
        #expect(query.sql == "SELECT title FROM album WHERE year BETWEEN :year AND :year_2")
        // A named parameter keeps its name; the positional one moves aside.
        let mixed = try namedQuery("SELECT title FROM album WHERE year = ? AND artist_id = :year")
        #expect(mixed.parameters.map(\.name) == ["year_2", "year"])
    }

    @Test func numberedParametersAreOneParameterEachAsInSQLite() throws {
        // drift's style: `?1` used twice is one parameter.
        let query = try namedQuery("SELECT title FROM album WHERE artist_id = ?1 OR id = ?1")
        #expect(query.parameters.map(\.name) == ["artist_id"])
        #expect(query.parameters.first?.ranges.count == 2)
        #expect(query.sql == "SELECT title FROM album WHERE artist_id = :artist_id OR id = :artist_id")
        // The parameters follow the statement as it runs, written with their names.
        let reversed = try namedQuery("SELECT title FROM album WHERE title = ?2 AND year = ?1")
        #expect(reversed.parameters.map(\.name) == ["title", "year"])
    }

    @Test func dollarParametersAsDriftWritesThem() throws {
        let query = try namedQuery("SELECT title FROM album WHERE id = $id")
        #expect(query.parameters.map(\.sqlName) == ["$id"])
        #expect(query.parameters.map(\.declaredType) == ["INTEGER"])
    }

    @Test func namesAreIdentifiersAndFallBackToTheNumber() throws {
        let schema = namedQuerySchema + "\nCREATE TABLE odd (\"release year\" INTEGER, \"2nd\" TEXT);"
        let query = try namedQuery("SELECT 1 FROM odd WHERE \"release year\" = ? AND \"2nd\" = ?", schema: schema)
        #expect(query.parameters.map(\.name) == ["release_year", "_2nd"])
        // No column to name it after: `p` and its number, typed by an annotation or a cast.
        let annotated = try namedQuery("SELECT title FROM album WHERE year > abs(? AS INTEGER)")
        #expect(annotated.parameters.map(\.name) == ["p1"])
        #expect(annotated.parameters.map(\.declaredType) == ["INTEGER"])
        #expect(annotated.sql == "SELECT title FROM album WHERE year > abs(:p1)")
        let cast = try namedQuery("SELECT CAST(? AS TEXT) AS label")
        #expect(cast.parameters.map(\.name) == ["p1"])
        #expect(cast.parameters.map(\.declaredType) == ["TEXT"])
    }

    @Test func theClearErrorStaysWhereNoTypeCanBeFound() {
        let message = namedQueryError("SELECT title FROM album WHERE year > abs(?)")
        #expect(message.contains("cannot tell the type of parameter ? (named p1 in Swift)"))
        #expect(message.contains("`? AS INTEGER`"))
        #expect(message.contains("2_queries.sql:2: query q"))
    }

    @Test func aNameFollowedByANameByteStaysApart() throws {
        // `?` then a word: SQLite reads two tokens, and so must the renamed statement.
        let message = namedQueryError("SELECT title FROM album WHERE year = ?x")
        #expect(message.contains("SQLite refused it"))
        let query = try namedQuery("SELECT title FROM album WHERE year=?")
        #expect(query.sql == "SELECT title FROM album WHERE year=:year")
    }
}

/// `AS` after a parameter is an annotation only where it cannot be SQL: never inside `CAST(…)`.
@Suite("Named queries: annotations and SQL")
struct AnnotationAndSQLTests {
    @Test func castKeepsItsAs() throws {
        let query = try namedQuery("SELECT title FROM album WHERE CAST(:flag AS boolean) AND year > 0")
        #expect(query.sql == "SELECT title FROM album WHERE CAST(:flag AS boolean) AND year > 0")
        #expect(query.parameters.map(\.declaredType) == ["BOOLEAN"])
        #expect(query.parameters.first?.origin == "cast to BOOLEAN")
        let nested = try namedQuery("SELECT CAST(1 + :n AS TEXT) AS next, :m AS INTEGER FROM album WHERE id = :n")
        #expect(nested.sql == "SELECT CAST(1 + :n AS TEXT) AS next, :m FROM album WHERE id = :n")
        #expect(nested.parameters.map(\.name) == ["n", "m"])
        #expect(nested.parameters.map(\.declaredType) == ["INTEGER", "INTEGER"])
    }

    @Test func anAnnotationOutsideACastIsTakenOut() throws {
        let query = try namedQuery("SELECT title FROM album WHERE title = :title AS TEXT")
        #expect(query.sql == "SELECT title FROM album WHERE title = :title")
        #expect(query.parameters.first?.declaredType == "TEXT")
    }
}

/// Queries users write for Slate keep refusing double-quoted string literals, which schema files
/// may use (SlateSchemaTests' DoubleQuotedStringSchemaTests); the error says what to write.
@Suite("Named queries: double-quoted strings")
struct NamedQueryDoubleQuotedStringTests {
    @Test func namedQueriesKeepRefusingThem() {
        let message = namedQueryError(#"SELECT title FROM album WHERE title = "Blue""#)
        #expect(message.contains("no such column: Blue"))
        #expect(message.contains("write strings in single quotes ('Blue')"))
    }

}
