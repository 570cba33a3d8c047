import Foundation
import Testing

@Suite("slate check", .enabled(if: SlateExecutable.isAvailable, "the slate executable is not next to the test bundle"))
struct CheckCLITests {
    @Test func agreementExitsZero() throws {
        let result = try SlateExecutable.run([
            "check", TestFiles.resource("chinook.sqlite").path, "--against",
            TestFiles.resource("chinook.schema.sql").path,
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("matches"))
        #expect(result.output.contains("11 table(s)"))
        let json = try SlateExecutable.run([
            "check", TestFiles.resource("northwind.sqlite").path, "--against",
            TestFiles.resource("northwind.sqlite").path, "--json",
        ])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["matches"] as? Bool == true)
        #expect((object?["differences"] as? [Any])?.isEmpty == true)
    }

    @Test func driftExitsTwoWithTextAndJSON() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var schema = try String(contentsOf: TestFiles.resource("chinook.schema.sql"), encoding: .utf8)
        schema = schema.replacingOccurrences(of: "[Composer] NVARCHAR(220),", with: "")
        schema += "\nCREATE TABLE [Review] ([ReviewId] INTEGER PRIMARY KEY, [TrackId] INTEGER NOT NULL);\n"
        let source = try directory.write("expected.sql", schema)
        let database = TestFiles.resource("chinook.sqlite").path
        let text = try SlateExecutable.run(["check", database, "--against", source.path])
        #expect(text.status == 2)
        #expect(text.output.contains("column Track.Composer is not expected (found NVARCHAR(220))"))
        #expect(text.output.contains("table Review is missing"))
        #expect(text.output.contains("2 differences."))

        let json = try SlateExecutable.run(["check", database, "--against", source.path, "--json"])
        #expect(json.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["matches"] as? Bool == false)
        let differences = try #require(object["differences"] as? [[String: Any]])
        #expect(differences.count == 2)
        #expect(
            differences.contains {
                $0["kind"] as? String == "extraColumn" && $0["table"] as? String == "Track"
                    && $0["name"] as? String == "Composer"
            })
        #expect(differences.contains { $0["kind"] as? String == "missingTable" && $0["table"] as? String == "Review" })
    }

    @Test func errorsExitOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = TestFiles.resource("chinook.schema.sql").path
        let missing = try SlateExecutable.run(["check", directory.file("nope.sqlite").path, "--against", schema])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no such file"))
        let notADatabase = try SlateExecutable.run(["check", schema, "--against", schema])
        #expect(notADatabase.status == 1)
        #expect(notADatabase.error.contains("is not a SQLite database file"))
        let noSources = try SlateExecutable.run(["check", TestFiles.resource("chinook.sqlite").path])
        #expect(noSources.status == 1)
        #expect(noSources.error.contains("--against"))
        let unknownOption = try SlateExecutable.run([
            "check", TestFiles.resource("chinook.sqlite").path, "--frobnicate",
        ])
        #expect(unknownOption.status == 1)
        let broken = try directory.write("broken.sql", "CREATE TABLE t (x);\nCREATE TABLE oops (;\n")
        let badSource = try SlateExecutable.run([
            "check", TestFiles.resource("chinook.sqlite").path, "--against", broken.path,
        ])
        #expect(badSource.status == 1)
        #expect(badSource.error.contains("broken.sql:2"))
    }
}

@Suite(
    "slate generate: inputs without tables",
    .enabled(if: SlateExecutable.isAvailable, "the slate executable is not next to the test bundle"))
struct NoTablesCLITests {
    @Test(arguments: ["empty.sql", "nul.sql", "comments.sql", "select.sql", "empty.sqlite", "queries-only.sql"])
    func inputsWithoutTablesFailAndWriteNothing(_ name: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.file(name)
        switch name {
        case "nul.sql": try Data([0x00, 0x43, 0x52, 0x45, 0x41, 0x54, 0x45]).write(to: input)
        case "comments.sql": try "-- nothing here\n/* nor here */\n".write(to: input, atomically: true, encoding: .utf8)
        case "select.sql": try "SELECT 1;".write(to: input, atomically: true, encoding: .utf8)
        case "queries-only.sql": try "-- name: one\nSELECT 1;\n".write(to: input, atomically: true, encoding: .utf8)
        default: try Data().write(to: input)
        }
        let output = directory.file("Out.swift")
        let result = try SlateExecutable.run(["generate", input.path, "--output", output.path])
        #expect(result.status != 0)
        if name == "nul.sql" {
            #expect(result.error.contains("NUL bytes"))
        } else {
            #expect(result.error.contains("no tables found in \(input.path)"))
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func queriesNextToASchemaAreFine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write("1_schema.sql", "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL);")
        let queries = try directory.write("2_queries.sql", "-- name: names\nSELECT name FROM t ORDER BY name;\n")
        let result = try SlateExecutable.run(["generate", schema.path, queries.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("static func names() -> SQLQuery<String>"))
        let database = try SlateExecutable.run([
            "generate", TestFiles.resource("chinook.sqlite").path,
            TestFiles.directory.appendingPathComponent("Queries/chinook.queries.sql").path,
        ])
        #expect(database.status == 0, "\(database.error)")
        #expect(
            database.output.contains(
                "static func tracksOfAlbum(albumId: Int64) -> SQLQuery<ChinookDatabase.TracksOfAlbumRow>"))
        let failing = try directory.write("3_bad.sql", "-- name: broken\nSELECT nope FROM t;\n")
        let bad = try SlateExecutable.run(["generate", schema.path, failing.path])
        #expect(bad.status != 0)
        #expect(bad.error.contains("3_bad.sql:2: query broken: SQLite refused it"))
        #expect(bad.error.contains("no such column: nope"))
    }
}
