import Foundation
import Slate
import SlateTestSupport
import SlateTesting
import Testing

/// Dumps are the same for the same content, whatever the order of inserts, rowids or collations;
/// result tables show every value as an SQL literal.
@Suite struct DumpAndResultTableTests {
    static let schema = """
        CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, score REAL, photo BLOB,
          initial TEXT GENERATED ALWAYS AS (substr(name, 1, 1)));
        CREATE INDEX player_on_name ON player(name);
        CREATE TABLE tag(label TEXT NOT NULL);
        CREATE VIEW best AS SELECT name FROM player WHERE score > 5;
        CREATE TRIGGER tag_upper AFTER INSERT ON tag BEGIN SELECT 1; END;
        CREATE VIRTUAL TABLE note USING fts5(body);
        """

    @Test func theDumpHoldsTheSchemaThenTheRowsInAFixedOrder() throws {
        let db = try Database.seeded { db in
            try db.execute(sql: Self.schema)
            try db.execute(
                sql: """
                    INSERT INTO player(id, name, score, photo) VALUES (2, 'b', 2.5, X'00FF'), (1, 'A', NULL, NULL);
                    INSERT INTO tag VALUES ('it''s'), ('a');
                    INSERT INTO note VALUES ('virtual rows are not dumped');
                    """)
        }
        #expect(
            try db.dump() == """
                CREATE VIRTUAL TABLE note USING fts5(body);
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, score REAL, photo BLOB,
                  initial TEXT GENERATED ALWAYS AS (substr(name, 1, 1)));
                CREATE TABLE tag(label TEXT NOT NULL);
                CREATE INDEX player_on_name ON player(name);
                CREATE VIEW best AS SELECT name FROM player WHERE score > 5;
                CREATE TRIGGER tag_upper AFTER INSERT ON tag BEGIN SELECT 1; END;

                -- player: 2 rows
                INSERT INTO "player" ("id", "name", "score", "photo") VALUES (1, 'A', NULL, NULL);
                INSERT INTO "player" ("id", "name", "score", "photo") VALUES (2, 'b', 2.5, X'00FF');

                -- tag: 2 rows
                INSERT INTO "tag" ("label") VALUES ('a');
                INSERT INTO "tag" ("label") VALUES ('it''s');

                """)
    }

    @Test func theSameContentInsertedInAnotherOrderDumpsTheSame() throws {
        func make(_ rows: [(String, Int)]) throws -> Database {
            try Database.seeded { db in
                try db.execute(sql: "CREATE TABLE t(name TEXT COLLATE NOCASE, n INTEGER)")
                for (name, n) in rows { try db.execute("INSERT INTO t VALUES (\(name), \(n))") }
            }
        }
        // 'a' and 'A' are equal under NOCASE: only a binary order puts them in a fixed order.
        let first = try make([("a", 1), ("A", 1), ("b", 2)])
        let second = try make([("b", 2), ("A", 1), ("a", 1)])
        #expect(try first.dump() == second.dump())
        try second.execute(sql: "UPDATE t SET n = 3 WHERE name = 'b'")
        #expect(try first.dump() != second.dump())
    }

    @Test func rowIDsAreDumpedOnlyWhenAskedFor() throws {
        let db = try Database.seeded { db in
            try db.execute(sql: "CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('a'), ('b')")
            try db.execute(
                sql: "CREATE TABLE keyed(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO keyed VALUES (7, 'x')")
        }
        let before = try db.dump()
        let beforeWithRowIDs = try db.dump(includingRowIDs: true)
        #expect(
            beforeWithRowIDs.hasSuffix(
                """
                -- keyed: 1 row
                INSERT INTO "keyed" ("id", "name") VALUES (7, 'x');

                -- t: 2 rows
                INSERT INTO "t" (rowid, "name") VALUES (1, 'a');
                INSERT INTO "t" (rowid, "name") VALUES (2, 'b');

                """))
        // The same values under other rowids: equal without rowids, different with them.
        try db.execute(sql: "DELETE FROM t WHERE name = 'a'; INSERT INTO t VALUES ('a')")
        #expect(try db.dump() == before)
        #expect(try db.dump(includingRowIDs: true) != beforeWithRowIDs)
    }

    @Test func aDumpReplaysIntoTheSameDatabase() throws {
        let chinook = try Database.chinook()
        let dump = try chinook.dump()
        let replayed = try Database.seeded { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: dump)
        }
        #expect(try replayed.dump() == dump)
        #expect(dump.contains("-- Track: 3503 rows"))
    }

    @Test func aResultTableShowsLiteralsUnderTheColumnNames() throws {
        let db = try Database()
        let table = try ResultTable(
            "SELECT 42 AS answer, '42' AS text, NULL AS empty, 0.5 AS half, x'0A' AS bytes", in: db)
        #expect(table.rows == [[.integer(42), .text("42"), .null, .real(0.5), .blob(Data([10]))]])
        #expect(
            table.description == """
                ┌────────┬──────┬───────┬──────┬───────┐
                │ answer │ text │ empty │ half │ bytes │
                ├────────┼──────┼───────┼──────┼───────┤
                │ 42     │ '42' │ NULL  │ 0.5  │ X'0A' │
                └────────┴──────┴───────┴──────┴───────┘
                """)
        let empty = try ResultTable("SELECT 1 AS one WHERE 0", in: db)
        #expect(empty.rows.isEmpty)
        #expect(
            empty.description == """
                ┌─────┐
                │ one │
                └─────┘
                """)
        try db.execute(sql: "CREATE TABLE t(x)")
        #expect(try ResultTable("INSERT INTO t VALUES (1)", in: db).description == "(no result columns)")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
    }

    @Test func literalsKeepTypesApartAndStayOnOneLine() {
        #expect(SQLLiteral(.real(1)).text == "1.0")
        #expect(SQLLiteral(.real(1e-5)).text == "1e-05")
        #expect(SQLLiteral(.integer(-3)).text == "-3")
        #expect(SQLLiteral(.text("two\nlines\tand 'quotes'")).text == #"'two\nlines\tand ''quotes'''"#)
        #expect(SQLLiteral(.real(.infinity)).text == "9e999")
    }
}
