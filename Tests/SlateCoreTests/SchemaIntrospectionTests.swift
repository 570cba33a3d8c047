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
