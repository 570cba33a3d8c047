import Foundation
import Slate
import SlateSchema
import SlateTestSupport
import Testing

@Suite("SchemaLoader")
struct SchemaLoaderTests {
    @Test func sqlFilesAreAppliedInNameOrder() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        // 02 alters what 01 creates, so the other order fails.
        let second = try scratch.write("02_alter.sql", "ALTER TABLE item ADD COLUMN price REAL;")
        let first = try scratch.write("01_create.sql", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT);")
        let schema = try SchemaLoader.load(from: [second, first])
        #expect(schema.table(named: "item")?.columns.map(\.name) == ["id", "name", "price"])
        #expect(SchemaLoader.sortedScripts([second, first]) == [first, second])
    }

    @Test func badSQLReportsFileLineStatementAndMessage() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let file = try scratch.write(
            "schema.sql",
            """
            -- a comment
            CREATE TABLE ok (id INTEGER PRIMARY KEY);

            CREATE TABLE broken (
              id INTEGER PRIMARY KEY,
              oops TEXT NOT NUL
            );
            CREATE TABLE never (id INTEGER);
            """)
        do {
            _ = try SchemaLoader.load(from: [file])
            Issue.record("bad SQL loaded")
        } catch let error as SchemaError {
            guard case .statementFailed(let path, let line, let statement, let message) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(path == file.path)
            #expect(line == 4)
            #expect(statement.hasPrefix("CREATE TABLE broken"))
            #expect(statement.hasSuffix(");"))
            #expect(message.contains("syntax error") || message.contains("NUL"))
            let description = "\(error)"
            #expect(description.contains("schema.sql:4"))
            #expect(description.contains("CREATE TABLE broken"))
            #expect(description.contains(message))
        }
    }

    @Test func schemaDumpsWithSqliteSequenceLoad() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        // What `sqlite3 file .schema` prints for a database with AUTOINCREMENT, ANALYZE and FTS5.
        let dump = try scratch.write(
            "dump.sql",
            """
            CREATE TABLE t(a INTEGER PRIMARY KEY AUTOINCREMENT, b);
            CREATE TABLE sqlite_sequence(name,seq);
            CREATE VIRTUAL TABLE docs USING fts5(title, body)
            /* docs(title,body) */;
            CREATE TABLE IF NOT EXISTS 'docs_data'(id INTEGER PRIMARY KEY, block BLOB);
            CREATE TABLE IF NOT EXISTS 'docs_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS 'docs_content'(id INTEGER PRIMARY KEY, c0, c1);
            CREATE TABLE IF NOT EXISTS 'docs_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
            CREATE TABLE IF NOT EXISTS 'docs_config'(k PRIMARY KEY, v) WITHOUT ROWID;
            CREATE TABLE sqlite_stat1(tbl,idx,stat);
            """)
        let schema = try SchemaLoader.load(from: [dump])
        #expect(schema.tables.map(\.name) == ["t"])
        #expect(schema.virtualTables.map(\.name) == ["docs"])
    }

    @Test func realSchemaDumpsLoadLikeTheirDatabases() throws {
        for name in ["northwind", "chinook"] {
            var fromSQL = try SchemaLoader.load(from: [SampleData.url("\(name).schema.sql")])
            var fromFile = try SchemaLoader.load(from: [SampleData.url("\(name).sqlite")])
            #expect(fromSQL.tables.map(\.name) == fromFile.tables.map(\.name))
            #expect(fromSQL.views.map(\.name) == fromFile.views.map(\.name))
            #expect(fromSQL.tables == fromFile.tables)
            // The dump appends a comment to each view's SQL; everything else is the same.
            for index in fromSQL.views.indices { fromSQL.views[index].sql = "" }
            for index in fromFile.views.indices { fromFile.views[index].sql = "" }
            #expect(fromSQL.views == fromFile.views)
            #expect(fromSQL == fromFile)
        }
    }

    @Test func databaseFilesOpenReadOnlyAndStayUnchanged() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let url = scratch.url.appendingPathComponent("copy.sqlite")
        try FileManager.default.copyItem(at: SampleData.url("chinook.sqlite"), to: url)
        let before = try Data(contentsOf: url)
        let schema = try SchemaLoader.load(from: [url])
        #expect(schema.tables.count == 11)
        #expect(try Data(contentsOf: url) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
        #expect(leftovers == ["copy.sqlite"])  // no journal, no -wal, no -shm
        let db = try SchemaLoader.openReadOnly(url)
        #expect(db.isReadOnly)
        #expect(throws: DatabaseError.self) { try db.execute(sql: "CREATE TABLE x (y)") }
    }

    @Test func inputsAreClassified() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let sql = try scratch.write("a.sql", "CREATE TABLE a (x);")
        let database = SampleData.url("chinook.sqlite")
        // A database file is recognized by its header whatever its name.
        let renamed = scratch.url.appendingPathComponent("data.bin")
        try FileManager.default.copyItem(at: database, to: renamed)
        #expect(SchemaLoader.isDatabaseFile(renamed))
        #expect(!SchemaLoader.isDatabaseFile(sql))
        #expect(try SchemaLoader.classify([renamed]) == .databaseFile(renamed))
        #expect(try SchemaLoader.classify([sql]) == .sqlScripts([sql]))
        #expect(throws: SchemaError.noInput) { try SchemaLoader.classify([]) }
        #expect(throws: SchemaError.self) { try SchemaLoader.classify([database, sql]) }
        #expect(throws: SchemaError.self) { try SchemaLoader.classify([database, renamed]) }
        let missing = scratch.url.appendingPathComponent("missing.sql")
        #expect(throws: SchemaError.missingFile(path: missing.path)) { try SchemaLoader.classify([missing]) }
        let notADatabase = try scratch.write("fake.sqlite", "not a database")
        #expect(throws: SchemaError.self) { try SchemaLoader.load(from: [notADatabase]) }
    }

    @Test func sampleDatabasesReadAsDocumented() throws {
        let northwind = try SchemaLoader.load(from: [SampleData.url("northwind.sqlite")])
        #expect(northwind.tables.count == 13)  // sqlite_sequence left out
        #expect(northwind.views.count == 17)
        #expect(northwind.triggers.isEmpty)
        let details = try #require(northwind.table(named: "Order Details"))
        #expect(details.primaryKey == ["OrderID", "ProductID"])
        #expect(details.rowIDAlias == nil)
        #expect(details.column(named: "Quantity")?.defaultSQL == "1")
        #expect(northwind.table(named: "Categories")?.rowIDAlias?.isAutoIncrement == true)
        #expect(northwind.table(named: "Regions")?.rowIDAlias?.name == "RegionID")
        #expect(northwind.table(named: "Customers")?.rowIDAlias == nil)
        #expect(northwind.table(named: "Customers")?.primaryKey == ["CustomerID"])
        let employees = try #require(northwind.table(named: "Employees"))
        #expect(employees.foreignKeys.first?.referencedTable == "Employees")
        #expect(employees.foreignKeys.first?.columns == ["ReportsTo"])
        let subtotals = try #require(northwind.view(named: "Order Subtotals"))
        #expect(subtotals.columns.map(\.typeName) == ["INTEGER", "REAL"])
        let invoices = try #require(northwind.view(named: "Invoices"))
        #expect(invoices.columns.first { $0.name == "ExtendedPrice" }?.typeName == "REAL")
        #expect(invoices.columns.first { $0.name == "OrderDate" }?.declaredType == "DATETIME")

        let chinook = try SchemaLoader.load(from: [SampleData.url("chinook.sqlite")])
        #expect(chinook.tables.count == 11)
        #expect(chinook.tables.allSatisfy { $0.name == "PlaylistTrack" || $0.rowIDAlias != nil })
        #expect(chinook.table(named: "PlaylistTrack")?.primaryKey == ["PlaylistId", "TrackId"])
        #expect(chinook.indexes.count == 11)
        #expect(chinook.table(named: "Track")?.column(named: "UnitPrice")?.declaredType == "NUMERIC(10,2)")
    }
}

@Suite("Script statements")
struct ScriptStatementTests {
    @Test func statementsSplitOutsideQuotesCommentsAndTriggerBodies() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let file = try scratch.write(
            "script.sql",
            """
            CREATE TABLE "a;b" (x TEXT DEFAULT 'semi;colon', [y;z] INTEGER); -- trailing; comment
            /* block; comment */
            CREATE TRIGGER t AFTER INSERT ON "a;b" BEGIN
              UPDATE "a;b" SET x = 'one;' WHERE rowid = new.rowid;
              DELETE FROM "a;b" WHERE 0;
            END;
            CREATE TABLE last (`q;` TEXT)
            """)
        let schema = try SchemaLoader.load(from: [file])
        #expect(schema.tables.map(\.name) == ["a;b", "last"])
        #expect(schema.table(named: "a;b")?.column(named: "x")?.defaultSQL == "'semi;colon'")
        #expect(schema.table(named: "last")?.columns.map(\.name) == ["q;"])
        #expect(schema.triggers.map(\.name) == ["t"])
    }
}
