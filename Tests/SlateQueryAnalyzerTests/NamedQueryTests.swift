import Foundation
import Slate
import SlateSchema
import SlateTestSupport
import Testing

/// A schema with the shapes the nullability rules care about.
let namedQuerySchema = """
    CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT);
    CREATE TABLE album (
      id INTEGER PRIMARY KEY, artist_id INTEGER NOT NULL REFERENCES artist(id), title TEXT NOT NULL,
      year INTEGER, price REAL NOT NULL DEFAULT 9.99, released DATETIME
    );
    CREATE TABLE tag (code TEXT PRIMARY KEY, label TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE loose (key TEXT PRIMARY KEY, value TEXT);
    CREATE TABLE plain (a TEXT NOT NULL, b INTEGER);
    CREATE VIEW album_artist AS SELECT album.title, artist.name FROM album JOIN artist ON artist.id = album.artist_id;
    CREATE VIEW artist_albums AS SELECT artist.name, album.title FROM artist LEFT JOIN album ON album.artist_id = artist.id;
    """

/// The named queries of `queries` over `schema`.
func namedQueries(_ queries: String, schema: String = namedQuerySchema) throws -> [NamedQuery] {
    let scratch = try TemporaryDirectory()
    defer { scratch.remove() }
    let schemaFile = try scratch.write("1_schema.sql", schema)
    let queriesFile = try scratch.write("2_queries.sql", queries)
    return try SchemaLoader.loadSchemaAndQueries(from: [schemaFile, queriesFile]).queries
}

/// The one query of `sql` (labelled `q`).
func namedQuery(_ sql: String, schema: String = namedQuerySchema) throws -> NamedQuery {
    let queries = try namedQueries("-- name: q\n" + sql, schema: schema)
    return try #require(queries.first)
}

/// `name: nullable` for each result column, for compact expectations.
func nullability(_ sql: String, schema: String = namedQuerySchema) throws -> [String: Bool] {
    let query = try namedQuery(sql, schema: schema)
    return Dictionary(query.columns.map { ($0.name, $0.isNullable) }, uniquingKeysWith: { first, _ in first })
}

/// The error a query gives, as text.
func namedQueryError(_ sql: String, schema: String = namedQuerySchema) -> String {
    do {
        _ = try namedQueries("-- name: q\n" + sql, schema: schema)
        return "no error"
    } catch {
        return "\(error)"
    }
}

@Suite("Named queries: labels and files")
struct NamedQueryFileTests {
    @Test func labelledStatementsAreQueriesAndTheRestIsSchema() throws {
        let queries = try namedQueries(
            """
            CREATE TABLE extra (id INTEGER PRIMARY KEY);

            -- name: artistNames
            -- The names of every artist.
            -- In name order.
            SELECT name FROM artist ORDER BY name;

            -- A plain comment, not a label.
            CREATE INDEX extra_id ON extra (id);

            -- name: extraIds
            SELECT id FROM extra
            """)
        #expect(queries.map(\.name) == ["artistNames", "extraIds"])
        #expect(queries[0].documentation == ["The names of every artist.", "In name order."])
        #expect(queries[0].line == 3)
        #expect(queries[0].sql == "SELECT name FROM artist ORDER BY name")
        #expect(queries[1].line == 11)
        #expect(queries[1].documentation == [])
    }

    @Test func queriesAreNotPartOfTheSchema() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let file = try scratch.write(
            "all.sql",
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY);
            -- name: make
            CREATE TABLE not_schema (x);
            """)
        let schema = try SchemaLoader.load(from: [file])
        #expect(schema.tables.map(\.name) == ["t"])
        let loaded = try SchemaLoader.loadSchemaAndQueries(from: [file])
        #expect(loaded.schema.tables.map(\.name) == ["t"])
        #expect(loaded.queries.map(\.name) == ["make"])
        #expect(loaded.queries[0].returnsRows == false)
        #expect(loaded.queries[0].isReadOnly == false)
    }

    @Test func badLabelsAreErrorsWithFileAndLine() throws {
        #expect(namedQueryError("SELECT 1") == "no error")
        do {
            _ = try namedQueries("SELECT 1;\n-- name: 2bad\nSELECT 2")
            Issue.record("a bad name was accepted")
        } catch let error as SchemaError {
            #expect("\(error)".contains("2_queries.sql:2: query 2bad: \"2bad\" is not a query name"))
        }
        do {
            _ = try namedQueries("-- name: a\n-- name: b\nSELECT 2")
            Issue.record("two labels were accepted")
        } catch let error as SchemaError {
            #expect("\(error)".contains(":2: query b: the label \"-- name: a\" (line 1) has no statement of its own"))
        }
        do {
            _ = try namedQueries("SELECT 1;\n\n-- name: dangling\n")
            Issue.record("a dangling label was accepted")
        } catch let error as SchemaError {
            #expect("\(error)".contains(":3: query dangling: no statement follows"))
        }
        do {
            _ = try namedQueries("-- name: twice\nSELECT 1;\n-- name: twice\nSELECT 2;")
            Issue.record("a name used twice was accepted")
        } catch let error as SchemaError {
            #expect("\(error)".contains(":3: query twice: the name is already used by the query at"))
        }
    }

    @Test func statementsSQLiteRefusesAreErrorsWithFileLineAndMessage() throws {
        do {
            _ = try namedQueries(
                """
                -- name: ok
                SELECT 1;

                -- name: broken
                SELECT name
                FROM artist
                WHERE nope = 1;
                """)
            Issue.record("a bad query was accepted")
        } catch let error as SchemaError {
            guard case .invalidQuery(let file, let line, let name, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(file.hasSuffix("2_queries.sql"))
            #expect(line == 7)  // the line SQLite points at
            #expect(name == "broken")
            #expect(message.contains("no such column: nope"))
            #expect(message.contains("SQLite refused it"))
        }
    }

    @Test func databaseFilesTakeQueryFilesButNotSchemaFiles() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let chinook = TestData.chinook
        let queries = try scratch.write("chinook.queries.sql", "-- name: artistCount\nSELECT count(*) FROM Artist;")
        let loaded = try SchemaLoader.loadSchemaAndQueries(from: [chinook, queries])
        #expect(loaded.queries.map(\.name) == ["artistCount"])
        #expect(loaded.schema.table(named: "Track") != nil)
        let schemaFile = try scratch.write("more.sql", "CREATE TABLE more (x);")
        #expect(throws: SchemaError.self) { try SchemaLoader.loadSchemaAndQueries(from: [chinook, schemaFile]) }
        let message = (try? SchemaLoader.load(from: [chinook, schemaFile])).map { _ in "" } ?? "refused"
        #expect(message == "refused")
    }

    @Test func nulBytesAreNotSQL() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let url = scratch.url.appendingPathComponent("nul.sql")
        try Data([0, 0x43, 0x52]).write(to: url)
        do {
            _ = try SchemaLoader.load(from: [url])
            Issue.record("a NUL-prefixed file loaded")
        } catch let error as SchemaError {
            #expect("\(error)".contains("NUL bytes"))
        }
    }
}

/// The sample databases of the generator's tests.
enum TestData {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SlateGeneratorTests/Resources")
    static let chinook = resources.appendingPathComponent("chinook.sqlite")
    static let northwind = resources.appendingPathComponent("northwind.sqlite")
}

@Suite("Named queries: nullability is never optimistic")
struct NamedQueryNullabilityTests {
    @Test func notNullColumnsKeysAndRowidAreNonOptional() throws {
        let columns = try nullability("SELECT id, name, country, rowid AS r FROM artist")
        #expect(columns == ["id": false, "name": false, "country": true, "r": false])
        // A WITHOUT ROWID key cannot be NULL; the key of a rowid table that is not the rowid can.
        #expect(try nullability("SELECT code, label FROM tag") == ["code": false, "label": false])
        #expect(try nullability("SELECT key, value FROM loose") == ["key": true, "value": true])
        #expect(
            try nullability("SELECT p.a, p.b, p.rowid AS r FROM plain AS p") == ["a": false, "b": true, "r": false])
    }

    @Test func outerJoinsNullTheirSide() throws {
        let left = try nullability(
            "SELECT album.title, artist.name FROM album LEFT JOIN artist ON artist.id = album.artist_id")
        #expect(left == ["title": false, "name": true])
        let inner = try nullability(
            "SELECT album.title, artist.name FROM album JOIN artist ON artist.id = album.artist_id")
        #expect(inner == ["title": false, "name": false])
        let right = try nullability(
            "SELECT album.title, artist.name FROM album RIGHT JOIN artist ON artist.id = album.artist_id")
        #expect(right == ["title": true, "name": false])
        let full = try nullability(
            "SELECT album.title, artist.name FROM album FULL OUTER JOIN artist ON artist.id = album.artist_id")
        #expect(full == ["title": true, "name": true])
        // An inner join after a left join does not null its own table.
        let chain = try nullability(
            """
            SELECT a.title, ar.name, t.label FROM album a LEFT JOIN artist ar ON ar.id = a.artist_id
            JOIN tag t ON t.code = a.title
            """)
        #expect(chain == ["title": false, "name": true, "label": false])
        // Unqualified columns, USING and stars.
        let star = try namedQuery("SELECT * FROM album LEFT JOIN artist ON artist.id = album.artist_id")
        #expect(star.columns.map(\.isNullable) == [false, false, false, true, false, true, true, true, true])
        let using = try namedQuery("SELECT * FROM plain JOIN plain AS other USING (a)")
        #expect(using.columns.map(\.name) == ["a", "b", "b"])
    }

    @Test func viewsCteAndSubqueriesAreFollowedToTheirTables() throws {
        #expect(try nullability("SELECT title, name FROM album_artist") == ["title": false, "name": false])
        #expect(try nullability("SELECT name, title FROM artist_albums") == ["name": false, "title": true])
        let cte = try nullability(
            """
            WITH named AS (SELECT a.title AS t, ar.name AS n FROM album a LEFT JOIN artist ar ON ar.id = a.artist_id)
            SELECT t, n FROM named
            """)
        #expect(cte == ["t": false, "n": true])
        let subquery = try nullability("SELECT s.t FROM (SELECT title AS t FROM album) AS s")
        #expect(subquery == ["t": false])
        // A subquery on the right of a LEFT JOIN is nulled as a whole.
        let joined = try nullability(
            """
            SELECT artist.name, s.t FROM artist LEFT JOIN (SELECT artist_id, title AS t FROM album) s ON s.artist_id = artist.id
            """)
        #expect(joined == ["name": false, "t": true])
    }

    @Test func scalarSubqueriesMayReturnNoRow() throws {
        let columns = try nullability(
            "SELECT (SELECT name FROM artist WHERE id = 999) AS n, EXISTS (SELECT 1 FROM artist) AS e")
        #expect(columns == ["n": true, "e": false])
    }

    @Test func aggregatesOverPossiblyEmptyInput() throws {
        let ungrouped = try nullability(
            """
            SELECT count(*) AS c, count(year) AS cy, total(price) AS t, sum(price) AS s, max(title) AS mx, avg(price) AS av,
                   group_concat(title) AS g, title
            FROM album
            """)
        #expect(
            ungrouped == [
                "c": false, "cy": false, "t": false, "s": true, "mx": true, "av": true, "g": true, "title": true,
            ])
        // Groups are never empty: aggregates of NOT NULL columns and bare NOT NULL columns are not NULL.
        let grouped = try nullability(
            """
            SELECT artist_id, sum(price) AS s, max(title) AS mx, min(year) AS my, avg(price) AS av, title
            FROM album GROUP BY artist_id
            """)
        #expect(grouped == ["artist_id": false, "s": false, "mx": false, "my": true, "av": false, "title": false])
        // FILTER may leave a group empty.
        let filtered = try nullability(
            "SELECT sum(price) FILTER (WHERE year > 2000) AS s FROM album GROUP BY artist_id")
        #expect(filtered == ["s": true])
        // A group over the right side of a LEFT JOIN may hold only NULLs.
        let outer = try nullability(
            """
            SELECT artist.name, max(album.title) AS latest, count(album.id) AS n
            FROM artist LEFT JOIN album ON album.artist_id = artist.id GROUP BY artist.id
            """)
        #expect(outer == ["name": false, "latest": true, "n": false])
    }

    @Test func coalesceCaseAndOperators() throws {
        let columns = try nullability(
            """
            SELECT coalesce(country, 'none') AS c1, coalesce(country, year) AS c2, ifnull(year, 0) AS c3,
                   CASE WHEN year > 2000 THEN 'new' END AS case1,
                   CASE WHEN year > 2000 THEN 'new' ELSE 'old' END AS case2,
                   CASE WHEN year > 2000 THEN 'new' ELSE country END AS case3,
                   price * 2 AS p1, price / 2 AS p2, price / year AS p3, year + 1 AS p4, title || ' by ' || artist_id AS p5,
                   title = 'x' AS b1, year = 1 AS b2, year IS NULL AS b3, year IS 1 AS b4, title LIKE 'a%' AS b5,
                   -price AS n1, CAST(price AS TEXT) AS n2, upper(title) AS f1, upper(country) AS f2, length(title) AS f3,
                   nullif(title, 'x') AS f4, date(released) AS f5, abs(price) AS f6, iif(year > 1, 'a', 'b') AS f7,
                   year BETWEEN 1 AND 2 AS b6, album.id IN (1, 2, 3) AS b7, album.id IN (SELECT id FROM artist) AS b8, NOT (title = 'x') AS b9,
                   (price) AS paren, price % 3 AS m1, 1 AS l1, 'x' AS l2, NULL AS l3, x'00' AS l4, CURRENT_TIMESTAMP AS l5
            FROM album JOIN artist ON artist.id = album.artist_id
            """)
        let expected: [String: Bool] = [
            "c1": false, "c2": true, "c3": false, "case1": true, "case2": false, "case3": true,
            "p1": false, "p2": false, "p3": true, "p4": true, "p5": false,
            "b1": false, "b2": true, "b3": false, "b4": false, "b5": false,
            "n1": false, "n2": false, "f1": false, "f2": true, "f3": false, "f4": true, "f5": true, "f6": false,
            "f7": false,
            "b6": true, "b7": false, "b8": true, "b9": false, "paren": false, "m1": false,
            "l1": false, "l2": false, "l3": true, "l4": false, "l5": false,
        ]
        for (name, isNullable) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(columns[name] == isNullable, "\(name)")
        }
    }

    @Test func windowFunctions() throws {
        let columns = try nullability(
            """
            SELECT row_number() OVER (ORDER BY id) AS rn, rank() OVER w AS rk, sum(price) OVER w AS s,
                   count(*) OVER w AS c, lag(title) OVER w AS l1, lag(title, 1, '') OVER w AS l2, first_value(title) OVER w AS fv, title
            FROM album WINDOW w AS (ORDER BY id)
            """)
        #expect(
            columns == [
                "rn": false, "rk": false, "s": true, "c": false, "l1": true, "l2": false, "fv": true, "title": false,
            ])
    }

    @Test func compoundSelects() throws {
        #expect(try nullability("SELECT title FROM album UNION ALL SELECT name FROM artist") == ["title": false])
        #expect(try nullability("SELECT title FROM album UNION SELECT country FROM artist") == ["title": true])
        #expect(try nullability("SELECT title FROM album UNION SELECT NULL") == ["title": true])
        // INTERSECT keeps values of both sides, so none is NULL here; but SQLite reports the left column
        // (which allows NULL) as the origin, and a column SQLite says may be NULL is never typed otherwise.
        #expect(try nullability("SELECT country FROM artist INTERSECT SELECT title FROM album") == ["country": true])
        #expect(try nullability("SELECT title FROM album INTERSECT SELECT country FROM artist") == ["title": false])
        #expect(try nullability("SELECT country FROM artist EXCEPT SELECT title FROM album") == ["country": true])
        #expect(try namedQuery("VALUES (1, 'a'), (2, NULL)").columns.map(\.isNullable) == [false, true])
    }

    @Test func writesWithReturning() throws {
        let insert = try namedQuery(
            """
            INSERT INTO album (artist_id, title)
            VALUES (:artistId, :title)
            RETURNING id, title, year, price * 2 AS double
            """
        )
        #expect(insert.columns.map(\.isNullable) == [false, false, true, false])
        #expect(insert.isReadOnly == false)
        let update = try namedQuery("UPDATE artist SET country = :country WHERE id = :id RETURNING *")
        #expect(update.columns.map(\.name) == ["id", "name", "country"])
        #expect(update.columns.map(\.isNullable) == [false, false, true])
        let delete = try namedQuery("DELETE FROM tag WHERE code = :code")
        #expect(delete.columns.isEmpty)
        #expect(!delete.returnsRows)
    }

    @Test func overridesWin() throws {
        let query = try namedQuery(
            "SELECT max(title) AS \"latest!\", name AS \"name?\", country AS [country!] FROM album, artist")
        #expect(query.columns.map(\.name) == ["latest", "name", "country"])
        #expect(query.columns.map(\.isNullable) == [false, true, false])
        #expect(query.columns.map(\.nullabilityOverride) == [.nonNull, .nullable, .nonNull])
    }

    @Test func typesComeFromSQLiteThenFromTheExpression() throws {
        let query = try namedQuery(
            """
            SELECT title, price, count(*) AS n, avg(price) AS a, sum(year) AS s, title || 'x' AS t, CAST(year AS REAL) AS r,
                   max(released) AS m, json_extract(title, '$.a') AS j
            FROM album GROUP BY title
            """)
        let types = query.columns.map(\.declaredType)
        #expect(types == ["TEXT", "REAL", "INTEGER", "REAL", "INTEGER", "TEXT", "REAL", "DATETIME", nil])
        #expect(query.columns.map(\.isInferredType) == [false, false, true, true, true, true, true, true, false])
        #expect(query.columns[0].table == "album")
        #expect(query.columns[0].column == "title")
    }
}

@Suite("Named queries: parameters")
struct NamedQueryParameterTests {
    @Test func typesComeFromTheColumnsTheyMeet() throws {
        let query = try namedQuery(
            """
            SELECT a.title FROM album a JOIN artist ar ON ar.id = a.artist_id
            WHERE a.artist_id = :artistId AND ar.name LIKE :pattern AND :minYear <= a.year AND a.year BETWEEN :low AND :high
              AND a.id IN (:first, :second) AND ar.country IS :country AND released > :after
            ORDER BY a.title LIMIT :limit OFFSET :offset
            """)
        let byName = Dictionary(query.parameters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(
            query.parameters.map(\.name) == [
                "artistId", "pattern", "minYear", "low", "high", "first", "second", "country", "after", "limit",
                "offset",
            ])
        #expect(byName["artistId"]?.declaredType == "INTEGER")
        #expect(byName["artistId"]?.table == "album")
        #expect(byName["artistId"]?.column == "artist_id")
        #expect(byName["artistId"]?.isOptional == false)
        #expect(byName["pattern"]?.declaredType == "TEXT")
        #expect(byName["minYear"]?.declaredType == "INTEGER")
        #expect(byName["low"]?.declaredType == "INTEGER")
        #expect(byName["high"]?.declaredType == "INTEGER")
        #expect(byName["first"]?.declaredType == "INTEGER")
        #expect(byName["second"]?.declaredType == "INTEGER")
        #expect(byName["country"]?.isOptional == true)  // compared with IS: NULL is meaningful
        #expect(byName["after"]?.declaredType == "DATETIME")
        #expect(byName["limit"]?.declaredType == "INTEGER")
        #expect(byName["offset"]?.declaredType == "INTEGER")
    }

    @Test func assignedAndInsertedValuesAreOptionalWhereTheColumnIs() throws {
        let update = try namedQuery("UPDATE album SET title = :title, year = :year WHERE id = :id")
        #expect(update.parameters.map(\.name) == ["title", "year", "id"])
        #expect(update.parameters.map(\.isOptional) == [false, true, false])
        #expect(update.parameters.map(\.declaredType) == ["TEXT", "INTEGER", "INTEGER"])
        let insert = try namedQuery(
            "INSERT INTO album (id, artist_id, title, year) VALUES (:id, :artistId, :title, :year)")
        // a NULL rowid alias takes the next rowid
        #expect(insert.parameters.map(\.isOptional) == [true, false, false, true])
        let positional = try namedQuery("INSERT INTO artist VALUES (:id, :name, :country)")
        #expect(positional.parameters.map(\.declaredType) == ["INTEGER", "TEXT", "TEXT"])
        let upsert = try namedQuery(
            "INSERT INTO tag (code, label) VALUES (:code, :label) ON CONFLICT (code) DO UPDATE SET label = :newLabel")
        #expect(upsert.parameters.map(\.name) == ["code", "label", "newLabel"])
        #expect(upsert.parameters.map(\.declaredType) == ["TEXT", "TEXT", "TEXT"])
    }

    @Test func annotationsGiveTypesAndAreRemovedFromTheSQL() throws {
        let query = try namedQuery(
            """
            SELECT :label AS TEXT AS label, title
            FROM album
            WHERE year > abs(:delta AS INTEGER) AND :maybe AS REAL? IS NULL
            """
        )
        #expect(query.parameters.map(\.declaredType) == ["TEXT", "INTEGER", "REAL"])
        #expect(query.parameters.map(\.isOptional) == [false, false, true])
        #expect(
            query.sql == """
                SELECT :label AS label, title
                FROM album
                WHERE year > abs(:delta) AND :maybe IS NULL
                """)
        #expect(query.columns.first?.isNullable == false)  // a non-optional parameter
    }

    @Test func unknownTypesAskForAnAnnotation() throws {
        let message = namedQueryError("SELECT title FROM album WHERE year > abs(:delta)")
        #expect(message.contains("cannot tell the type of parameter :delta"))
        #expect(message.contains(":delta AS INTEGER"))
        #expect(message.contains("2_queries.sql:2: query q"))
        let expression = namedQueryError("SELECT title FROM album WHERE year = :x + 1")
        #expect(expression.contains("cannot tell the type of parameter :x"))
        let conflicting = namedQueryError("SELECT title FROM album WHERE year = :x OR title = :x")
        #expect(conflicting.contains("parameter :x is used as values of different types"))
        // A positional parameter is named for its column; without one, the same error names it.
        let positional = namedQueryError("SELECT title FROM album WHERE year > abs(?)")
        #expect(positional.contains("cannot tell the type of parameter ? (named p1 in Swift)"))
    }
}
