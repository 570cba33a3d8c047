import CSQLite
import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateCore

/// The one PRAGMA reader reads the same through a `Database` and on the C handle (the region
/// tracker's way), for the main database and an attached one.
@Suite struct SchemaIntrospectionTests {
    @Test func bothConnectionsReadTheSameTables() throws {
        let db = try Database(location: .inMemory)
        try db.execute(
            sql: """
                CREATE TABLE "T x" (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x', g INTEGER AS (id * 2));
                CREATE INDEX t_name ON "T x"(name) WHERE name <> '';
                CREATE TABLE u (a INTEGER, b INTEGER, FOREIGN KEY (a, b) REFERENCES "T x"(id, id) ON DELETE CASCADE);
                CREATE TABLE v (k INTEGER PRIMARY KEY DESC);
                """)
        for connection in [SchemaIntrospection.Connection.database(db), .handle(db.handle)] {
            let object = try #require(try SchemaIntrospection.object(named: "t X", in: connection))
            #expect(object.type == "table")
            #expect(object.name == "T x")
            let columns = try SchemaIntrospection.columns(ofTable: "T x", in: connection)
            #expect(columns.map(\.name) == ["id", "name", "g"])
            #expect(columns.map(\.primaryKeyPosition) == [1, 0, 0])
            #expect(columns[1].isNotNull && columns[1].defaultSQL == "'x'")
            #expect(columns[2].hidden == (Database.sqliteVersionNumber >= 3_026_000 ? 2 : 0))
            let indexes = try SchemaIntrospection.indexes(ofTable: "T x", in: connection)
            #expect(indexes.map(\.name) == ["t_name"])
            #expect(indexes.first?.isPartial == true)
            #expect(try SchemaIntrospection.indexColumns(ofIndex: "t_name", in: connection) == ["name"])
            #expect(
                try SchemaIntrospection.indexSQL(named: "t_name", in: connection)?.hasSuffix("WHERE name <> ''") == true
            )
            let keys = try SchemaIntrospection.foreignKeyColumns(ofTable: "u", in: connection)
            #expect(keys.map(\.column) == ["a", "b"])
            #expect(keys.first?.onDelete == "CASCADE")
            // `INTEGER PRIMARY KEY DESC` keeps an index for its key: no rowid alias.
            #expect(try SchemaIntrospection.indexes(ofTable: "v", in: connection).map(\.origin) == ["pk"])
            #expect(SchemaIntrospection.columnMetadata(table: "T x", column: "rowid", in: connection) != nil)
            #expect(SchemaIntrospection.columnMetadata(table: "T x", column: "nope", in: connection) == nil)
            #expect(try SchemaIntrospection.object(named: "missing", in: connection) == nil)
        }
    }

    @Test func attachedSchemasAreRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(location: .inMemory)
        try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [directory.path("other.sqlite")])
        try db.execute(sql: "CREATE TABLE other.w (id INTEGER PRIMARY KEY, note TEXT)")
        let columns = try SchemaIntrospection.columns(ofTable: "w", schema: "other", in: .handle(db.handle))
        #expect(columns.map(\.name) == ["id", "note"])
        #expect(try SchemaIntrospection.object(named: "w", in: .handle(db.handle)) == nil)
    }

    /// With no schema, a table is found as an unqualified name in a statement finds it: `temp`
    /// first, then `main`, then attached databases (the CSV importer's lookup).
    @Test func unqualifiedNamesAreFoundAsStatementsFindThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(location: .inMemory)
        try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [directory.path("other.sqlite")])
        try db.execute(
            sql: """
                CREATE TABLE other.only_attached (a INTEGER);
                CREATE TABLE shadowed (in_main INTEGER);
                CREATE TEMP TABLE shadowed (in_temp INTEGER);
                """)
        for connection in [SchemaIntrospection.Connection.database(db), .handle(db.handle)] {
            let shadowed = try SchemaIntrospection.columns(ofTable: "shadowed", schema: nil, in: connection)
            #expect(shadowed.map(\.name) == ["in_temp"])
            #expect(try SchemaIntrospection.columns(ofTable: "shadowed", in: connection).map(\.name) == ["in_main"])
            let attached = try SchemaIntrospection.columns(ofTable: "only_attached", schema: nil, in: connection)
            #expect(attached.map(\.name) == ["a"])
            #expect(try SchemaIntrospection.columns(ofTable: "missing", schema: nil, in: connection).isEmpty)
        }
    }

    /// The statements on the C handle that are alive (prepared and not finalized).
    static func liveStatementCount(_ db: Database) -> Int {
        var count = 0
        var statement = sqlite3_next_stmt(db.handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(db.handle, current)
        }
        return count
    }

    /// The look-ups in `sqlite_schema` run through statements the connection keeps: reused, they
    /// answer for the schema as it is now — after `ALTER TABLE`, after a table is dropped and made
    /// again, after a rename — and no statement is added per read nor enters the statement cache.
    @Test func keptLookupsAnswerAfterSchemaChanges() throws {
        let db = try Database(location: .inMemory)
        try db.execute(
            sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT);
                CREATE INDEX t_a ON t(a);
                """)
        let first = try #require(try db.tableSchema(named: "T"))
        #expect(first.name == "t")
        #expect(first.columns.map(\.name) == ["id", "a"])
        #expect(first.indexes.map(\.name) == ["t_a"])
        #expect(first.indexes.first?.sql == "CREATE INDEX t_a ON t(a)")
        // A table named otherwise than stored still gets its indexes' statements (through the
        // look-up by index name, a second kept statement).
        let respelled = try SchemaIntrospection.readTable(
            db, name: "T", kind: .table(isWithoutRowID: false, isStrict: false))
        #expect(respelled.indexes.first?.sql == "CREATE INDEX t_a ON t(a)")
        let kept = Self.liveStatementCount(db)
        // The look-up of the index statements and the one by index name; before `PRAGMA
        // table_list` (3.37), also the look-up of the table.
        #expect(kept == (SchemaIntrospection.hasTableList ? 2 : 3))
        #expect(db.cachedStatementCount == 0)

        try db.execute(
            sql: """
                ALTER TABLE t ADD COLUMN b INTEGER NOT NULL DEFAULT 0;
                CREATE UNIQUE INDEX t_b ON t(b) WHERE b > 0;
                """)
        let altered = try #require(try db.tableSchema(named: "t"))
        #expect(altered.columns.map(\.name) == ["id", "a", "b"])
        #expect(altered.indexes.map(\.name) == ["t_a", "t_b"])
        #expect(altered.indexes.last?.sql == "CREATE UNIQUE INDEX t_b ON t(b) WHERE b > 0")
        #expect(altered.indexes.last?.condition == "b > 0")

        try db.execute(
            sql: """
                DROP TABLE t;
                CREATE TABLE t (key TEXT PRIMARY KEY, v REAL UNIQUE) WITHOUT ROWID;
                CREATE INDEX t_a ON t(v DESC, key);
                """)
        let remade = try #require(try db.tableSchema(named: "t"))
        #expect(remade.columns.map(\.name) == ["key", "v"])
        #expect(remade.isWithoutRowID)
        #expect(remade.columns.last?.isUnique == true)
        #expect(remade.indexes.map(\.name) == ["t_a"])
        #expect(remade.indexes.first?.sql == "CREATE INDEX t_a ON t(v DESC, key)")

        try db.execute(sql: "ALTER TABLE t RENAME TO renamed")
        #expect(try db.tableSchema(named: "t") == nil)
        #expect(
            try db.tableSchema(named: "renamed")?.indexes.first?.sql == "CREATE INDEX t_a ON \"renamed\"(v DESC, key)")

        // The same statements served every read.
        #expect(Self.liveStatementCount(db) == kept)
        #expect(db.cachedStatementCount == 0)
        // And the connection closes: they are finalized with it.
        try db.close()
    }

    /// A kept look-up of `main` never answers for an attached database with the same table name,
    /// nor the other way round.
    @Test func keptLookupsKeepTheirSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(location: .inMemory)
        try db.execute(sql: "ATTACH DATABASE ? AS other", arguments: [directory.path("other.sqlite")])
        try db.execute(
            sql: """
                CREATE TABLE main.t (a INTEGER);
                CREATE INDEX main.t_main ON t(a);
                CREATE TABLE other.t (b TEXT, c TEXT);
                CREATE INDEX other.t_other ON t(c, b);
                """)
        for _ in 0..<2 {
            let main = try #require(try db.tableSchema(named: "t"))
            #expect(main.columns.map(\.name) == ["a"])
            #expect(main.indexes.map(\.sql) == ["CREATE INDEX t_main ON t(a)"])
            let connection = SchemaIntrospection.Connection.database(db)
            #expect(
                try SchemaIntrospection.indexSQLs(ofTable: "t", schema: "other", in: connection)
                    == ["t_other": "CREATE INDEX t_other ON t(c, b)"])
            #expect(
                try SchemaIntrospection.indexSQLs(ofTable: "t", in: connection) == [
                    "t_main": "CREATE INDEX t_main ON t(a)"
                ])
            #expect(
                try SchemaIntrospection.object(named: "t", schema: "other", in: connection)?.sql.contains("b TEXT")
                    == true)
            if SchemaIntrospection.hasTableList {
                #expect(
                    try SchemaIntrospection.tableListEntry(ofTable: "t", schema: "other", in: connection)?.name == "t")
            }
        }
        try db.execute(sql: "DETACH DATABASE other")
        #expect(try db.tableSchema(named: "t")?.columns.map(\.name) == ["a"])
        try db.close()
    }

    /// The schema table is not a table of `sqlite_schema`: no schema is read for it, under any of
    /// its names; views and virtual tables are told apart by `PRAGMA table_list` (SQLite 3.37+,
    /// which `STRICT` tables need too).
    @Test(.enabled(if: Database.sqliteVersionNumber >= 3_037_000)) func kindsAndTheSchemaTable() throws {
        let db = try Database(location: .inMemory)
        try db.execute(
            sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, s TEXT) STRICT;
                CREATE VIEW v AS SELECT id FROM t;
                CREATE VIRTUAL TABLE f USING fts5(title, body);
                """)
        for name in ["sqlite_master", "sqlite_schema", "SQLITE_MASTER", "sqlite_temp_master", "missing"] {
            #expect(try db.tableSchema(named: name) == nil, "\(name)")
        }
        #expect(try db.tableSchema(named: "sqlite_sequence")?.columns.map(\.name) == ["name", "seq"])
        #expect(try db.tableSchema(named: "V")?.kind == .view)
        #expect(try db.tableSchema(named: "f")?.kind == .virtual(module: "fts5", arguments: "title, body"))
        let table = try #require(try db.tableSchema(named: "t"))
        #expect(table.isStrict)
        #expect(table.columns.first?.isAutoIncrement == true)
    }

    @Test func virtualTableModules() {
        #expect(SchemaIntrospection.virtualModule("CREATE VIRTUAL TABLE s USING fts5(title, body)")?.module == "fts5")
        #expect(
            SchemaIntrospection.virtualModule("CREATE VIRTUAL TABLE s USING fts5( title, body )")?.arguments
                == "title, body")
        #expect(
            SchemaIntrospection.virtualModule("create /* x */ virtual table \"using\" using FTS4")?.module == "fts4")
        #expect(SchemaIntrospection.virtualModule("CREATE TABLE confusing (a)") == nil)
    }
}
