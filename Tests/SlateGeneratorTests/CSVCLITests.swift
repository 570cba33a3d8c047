import Foundation
import Slate
import Testing

@Suite(
    "slate import and export",
    .enabled(if: SlateExecutable.isAvailable, "the slate executable is not next to the test bundle"))
struct CSVCLITests {
    private func rows(_ path: String, _ sql: String) throws -> [[SQLValue]] {
        let db = try Database(path: path)
        return try db.fetchAll(SQL(sql: sql)) { $0.values }
    }

    @Test func importCreatesTheTableReportsProgressAndExitsZero() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = try directory.write(
            "cities.csv", "name,zip,population\nParis,75001,2102650\n\"Oslo, Norway\",0150,709037\n")
        let database = directory.file("app.sqlite").path
        let result = try SlateExecutable.run(["import", csv.path, "--into", database])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("imported 2 rows into \"cities\""))
        #expect(result.output.contains("created the table: name TEXT, zip TEXT, population INTEGER"))
        #expect(
            result.error.contains("progress: 100% — 2 rows imported"),
            "plain progress lines when standard error is not a terminal")
        #expect(
            try rows(database, "SELECT * FROM cities ORDER BY rowid") == [
                ["Paris", "75001", 2_102_650], ["Oslo, Norway", "0150", 709_037],
            ])
    }

    @Test func delimiterHeaderNullAndTableOptions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = directory.file("app.sqlite").path
        let db = try Database(path: database)
        try db.execute(sql: "CREATE TABLE sale(id INTEGER PRIMARY KEY, amount REAL, note TEXT)")
        let csv = try directory.write("data.txt", "1;9.5;\n2;10;\"\"\n")
        let result = try SlateExecutable.run([
            "import", csv.path, "--into", database, "--table", "sale", "--delimiter", ";", "--no-header",
            "--null-empty", "--quiet",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "--quiet: no progress")
        #expect(try rows(database, "SELECT * FROM sale ORDER BY id") == [[1, 9.5, nil], [2, 10.0, ""]])

        let tabs = try directory.write("more.tsv", "id\tamount\n3\t1.25\n")
        let tabResult = try SlateExecutable.run([
            "import", tabs.path, "--into", database, "--table", "sale", "--delimiter", "tab",
        ])
        #expect(tabResult.status == 0, "\(tabResult.error)")
        #expect(try rows(database, "SELECT amount FROM sale WHERE id = 3") == [[1.25]])
    }

    @Test func aBadRowFailsWithFileLineAndColumnAndImportsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = try directory.write("data.csv", "a,b\n1,2\n3\n4,5\n")
        let database = directory.file("app.sqlite").path
        let result = try SlateExecutable.run(["import", csv.path, "--into", database, "--table", "t"])
        #expect(result.status == 1)
        #expect(result.error.contains("data.csv:3: the row has 1 field, expected 2; row: 3"), "\(result.error)")
        #expect(try rows(database, "SELECT count(*) FROM sqlite_schema WHERE name = 't'") == [[0]])

        let skipped = try SlateExecutable.run([
            "import", csv.path, "--into", database, "--table", "t", "--skip-bad-rows",
        ])
        #expect(skipped.status == 0, "\(skipped.error)")
        #expect(skipped.output.contains("imported 2 rows"))
        #expect(skipped.error.contains("skipped 1 rows:"))
        #expect(skipped.error.contains("data.csv:3: the row has 1 field, expected 2"))

        let badOption = try SlateExecutable.run(["import", csv.path, "--into", database, "--delimiter", "ab"])
        #expect(badOption.status == 1)
        #expect(badOption.error.contains("the delimiter must be one ASCII character"))
        let missing = try SlateExecutable.run(["import", directory.file("missing.csv").path, "--into", database])
        #expect(missing.status == 1)
        #expect(missing.error.contains("missing.csv: cannot open the file"))
    }

    @Test func exportWritesATableOrAQueryThatImportsBackIdentically() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = TestFiles.resource("chinook.sqlite").path
        let output = directory.file("artists.csv").path
        let result = try SlateExecutable.run(["export", "--from", source, "--table", "Artist", "--output", output])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("exported 275 rows"))
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.hasPrefix("ArtistId,Name\r\n1,AC/DC\r\n2,Accept\r\n"))

        // Back into an empty copy of the table.
        let database = directory.file("copy.sqlite").path
        let copy = try Database(path: database)
        try copy.execute(sql: "CREATE TABLE Artist(ArtistId INTEGER PRIMARY KEY, Name NVARCHAR(120))")
        let back = try SlateExecutable.run(["import", output, "--into", database, "--table", "Artist", "--null-empty"])
        #expect(back.status == 0, "\(back.error)")
        #expect(
            try rows(database, "SELECT * FROM Artist ORDER BY ArtistId")
                == rows(source, "SELECT * FROM Artist ORDER BY ArtistId"))

        let query = try SlateExecutable.run([
            "export", "--from", source, "--query", "SELECT Name FROM Genre WHERE GenreId <= 2 ORDER BY GenreId",
            "--output", output,
            "--delimiter", ";", "--lf", "--no-header",
        ])
        #expect(query.status == 0, "\(query.error)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "Rock\nJazz\n")

        let badQuery = try SlateExecutable.run([
            "export", "--from", source, "--query", "SELECT nope FROM Genre", "--output", output,
        ])
        #expect(badQuery.status == 1)
        #expect(badQuery.error.contains("no such column: nope"))
        let neither = try SlateExecutable.run(["export", "--from", source, "--output", output])
        #expect(neither.status != 0)
        #expect(neither.error.contains("give either --table or --query"))
    }
}
