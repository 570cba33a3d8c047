import CSQLite
import Foundation
import Slate
import SlateSchema
import SlateTestSupport
import Testing

/// Schema files the `sqlite3` shell accepts load with a warning that names the file and line,
/// when they use double-quoted string literals; named queries keep refusing them.
@Suite("Schema files with double-quoted strings")
struct DoubleQuotedStringSchemaTests {
    @Test func aFixtureInsertWithDoubleQuotedStringsLoadsWithAWarning() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let file = try scratch.write(
            "schema.sql",
            """
            CREATE TABLE tags (name TEXT NOT NULL);
            INSERT INTO tags VALUES ("canine");
            INSERT INTO tags VALUES ('feline');
            """)
        let loaded = try SchemaLoader.loadSchemaAndQueries(from: [file])
        #expect(loaded.schema.tables.map(\.name) == ["tags"])
        #expect(loaded.warnings.count == 1)
        let warning = try #require(loaded.warnings.first)
        #expect(warning.file == file.path)
        #expect(warning.line == 2)
        #expect(warning.message.contains("\"canine\""))
        #expect(warning.message.contains("no such column: canine"))
        #expect(warning.message.contains("single quotes"))
        #expect("\(warning)".hasPrefix("\(file.path):2: warning: "))
    }

    @Test func viewsWithDoubleQuotedStringsLoadWithAWarningOnTheirLine() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let file = try scratch.write(
            "schema.sql",
            """
            CREATE TABLE person (name TEXT, last_name TEXT, is_cool INTEGER);
            CREATE VIEW personCool AS
              SELECT name, CASE is_cool WHEN 1 THEN "cool" ELSE "lame" END AS coolness FROM person;
            CREATE VIEW fullName AS SELECT name || " " || last_name AS full FROM person;
            """)
        let loaded = try SchemaLoader.loadSchemaAndQueries(from: [file])
        #expect(loaded.schema.views.map(\.name).sorted() == ["fullName", "personCool"])
        #expect(loaded.schema.view(named: "personCool")?.columns.map(\.name) == ["name", "coolness"])
        let lines = loaded.warnings.map { "\($0.file ?? "?"):\($0.line ?? 0)" }.sorted()
        #expect(lines == ["\(file.path):2", "\(file.path):4"])
        #expect(loaded.warnings.allSatisfy { $0.message.contains("acceptsDoubleQuotedStringLiterals") })
    }

    @Test func aDatabaseFileWithSuchAViewLoadsWithAWarning() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let path = scratch.url.appendingPathComponent("legacy.sqlite").path
        var raw: OpaquePointer?
        #expect(sqlite3_open(path, &raw) == SQLITE_OK)
        let script =
            #"CREATE TABLE person(name TEXT, is_cool INTEGER); CREATE VIEW v AS SELECT name, "zz" AS c FROM person;"#
        #expect(sqlite3_exec(raw, script, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(raw)
        let loaded = try SchemaLoader.loadSchemaAndQueries(from: [URL(fileURLWithPath: path)])
        #expect(loaded.schema.view(named: "v")?.columns.map(\.name) == ["name", "c"])
        #expect(
            loaded.warnings.map(\.message).first?.hasPrefix("the view v uses double-quoted string literals") == true)
        #expect(loaded.warnings.first?.file == nil)
    }

    @Test func whatTheShellRefusesStaysAnError() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let file = try scratch.write(
            "schema.sql", "CREATE TABLE tags (name TEXT);\nINSERT INTO tags VALUES (canine);\n")
        #expect {
            _ = try SchemaLoader.loadSchemaAndQueries(from: [file])
        } throws: { error in
            "\(error)".contains("schema.sql:2: SQLite refused a statement: no such column: canine")
        }
    }
}

/// The generated type is named after the database file, or the first `.sql` file given that holds
/// schema statements, whatever the order of the files.
@Suite("Naming input")
struct NamingInputTests {
    @Test func theSchemaFileNamesTheDatabaseInEitherOrder() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let schema = try scratch.write("schema.sql", "CREATE TABLE t (id INTEGER PRIMARY KEY);")
        let queries = try scratch.write("queries.sql", "-- name: ids\nSELECT id FROM t;")
        #expect(SchemaLoader.namingInput([schema, queries]) == schema)
        #expect(SchemaLoader.namingInput([queries, schema]) == schema)
        let other = try scratch.write("other.sql", "CREATE TABLE u (id INTEGER PRIMARY KEY);")
        #expect(SchemaLoader.namingInput([other, schema]) == other)
        #expect(SchemaLoader.namingInput([queries]) == queries)
    }
}
