import CSQLite
import Foundation
import Slate
import Testing

/// SQLite's legacy misfeature reads a double-quoted name that matches no column as a string literal,
/// so a misspelled column silently becomes text. Slate turns it off on every connection.
@Suite struct DoubleQuotedStringTests {
    @Test func aMisspelledQuotedColumnIsAnErrorNotText() throws {
        let db = try Database(location: .inMemory)
        try db.execute(sql: "CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('a')")
        #expect(try db.fetchValue(String.self, #"SELECT "name" FROM t"#) == "a")
        let error = #expect(throws: DatabaseError.self) { try db.fetchValue(String.self, #"SELECT "nmae" FROM t"#) }
        #expect(error?.message.contains("no such column: nmae") == true)
        #expect(throws: DatabaseError.self) { try db.execute(sql: #"UPDATE t SET name = "b""#) }
        #expect(try db.fetchValue(String.self, "SELECT name FROM t") == "a")
    }

    @Test func existingSchemasThatUseTheMisfeatureStillOpenAndWork() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "slate-dqs-\(UUID().uuidString).sqlite"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Written with SQLite's defaults, as other tools do: "x" and "bad" are strings there.
        var raw: OpaquePointer?
        #expect(sqlite3_open(path, &raw) == SQLITE_OK)
        let script = #"""
            CREATE TABLE t(a TEXT DEFAULT "x", b CHECK (b <> "bad"));
            INSERT INTO t(b) VALUES (1);
            CREATE VIEW v AS SELECT a, "zz" AS c FROM t;
            """#
        #expect(sqlite3_exec(raw, script, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(raw)

        let db = try Database(path: path)
        #expect(try db.fetchValue(String.self, "SELECT a FROM t") == "x")
        // A view that relies on the misfeature fails clearly, and works when the user asks for it.
        let error = #expect(throws: DatabaseError.self) { try db.fetchValue(String.self, "SELECT c FROM v") }
        #expect(error?.message.contains("no such column: zz") == true)
        var legacy = Database.Configuration()
        legacy.acceptsDoubleQuotedStringLiterals = true
        #expect(try Database(path: path, configuration: legacy).fetchValue(String.self, "SELECT c FROM v") == "zz")
        try db.execute(sql: "INSERT INTO t(b) VALUES (2)")
        #expect(try db.fetchValue(String.self, "SELECT a FROM t WHERE b = 2") == "x")
        #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t(b) VALUES ('bad')") }
    }
}
