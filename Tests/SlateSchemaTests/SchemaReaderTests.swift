import Foundation
import Slate
import SlateSchema
import Testing

/// The schema of `sql`, run on a fresh in-memory database.
func schema(_ sql: String) throws -> DatabaseSchema {
    let db = try Database(location: .inMemory)
    try SchemaLoader.apply(sql, file: "test.sql", to: db)
    return try SchemaReader.read(from: db)
}

/// The sample files shipped with the generator tests.
enum SampleData {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SlateGeneratorTests/Resources")

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

@Suite("SchemaReader")
struct SchemaReaderTests {
    @Test func affinityFollowsSQLitesRules() {
        typealias Affinity = TableSchema.Affinity
        #expect(Affinity(declaredType: "INTEGER") == .integer)
        #expect(Affinity(declaredType: "BIGINT") == .integer)
        #expect(Affinity(declaredType: "UNSIGNED BIG INT") == .integer)
        #expect(Affinity(declaredType: "FLOATING POINT") == .integer)  // "POINT" contains "INT": rule 1 wins
        #expect(Affinity(declaredType: "NVARCHAR(120)") == .text)
        #expect(Affinity(declaredType: "clob") == .text)
        #expect(Affinity(declaredType: "BLOB") == .blob)
        #expect(Affinity(declaredType: "") == .blob)
        #expect(Affinity(declaredType: "DOUBLE PRECISION") == .real)
        #expect(Affinity(declaredType: "FLOAT") == .real)
        #expect(Affinity(declaredType: "NUMERIC(10,2)") == .numeric)
        #expect(Affinity(declaredType: "DECIMAL") == .numeric)
        #expect(Affinity(declaredType: "BOOLEAN") == .numeric)
        #expect(Affinity(declaredType: "DATETIME") == .numeric)
        #expect(Affinity(declaredType: "STRING") == .numeric)
    }

    @Test func onlyIntegerPrimaryKeyIsARowIDAlias() throws {
        let schema = try schema(
            """
            CREATE TABLE a (id INTEGER PRIMARY KEY, x TEXT);
            CREATE TABLE b (id INT PRIMARY KEY, x TEXT);
            CREATE TABLE c (id BIGINT PRIMARY KEY, x TEXT);
            CREATE TABLE d (id INTEGER PRIMARY KEY DESC, x TEXT);
            CREATE TABLE e (id integer, x TEXT, CONSTRAINT pk PRIMARY KEY (id));
            CREATE TABLE f (id INTEGER PRIMARY KEY, x TEXT) WITHOUT ROWID;
            CREATE TABLE g (id INTEGER, x INTEGER, PRIMARY KEY (id, x));
            CREATE TABLE h (id INTEGER PRIMARY KEY AUTOINCREMENT);
            """)
        func alias(_ table: String) -> Bool { schema.table(named: table)?.rowIDAlias != nil }
        #expect(alias("a"))
        #expect(!alias("b"))
        #expect(!alias("c"))
        #expect(!alias("d"))
        #expect(alias("e"))
        #expect(!alias("f"))
        #expect(!alias("g"))
        #expect(alias("h"))
        #expect(schema.table(named: "h")?.columns[0].isAutoIncrement == true)
        #expect(schema.table(named: "a")?.columns[0].isAutoIncrement == false)
        // A rowid alias never holds NULL; other keys of rowid tables may.
        #expect(schema.table(named: "a")?.columns[0].isNullable == false)
        #expect(schema.table(named: "b")?.columns[0].isNullable == true)
    }

    @Test func columnsReportTypesDefaultsGenerationAndCollation() throws {
        let table = try #require(
            try schema(
                """
                CREATE TABLE t (
                  id INTEGER PRIMARY KEY,
                  name VARCHAR(40) NOT NULL DEFAULT 'none' COLLATE NOCASE,
                  price NUMERIC(10,2) DEFAULT (1.5 + 1),
                  untyped,
                  doubled INTEGER GENERATED ALWAYS AS (id * 2) STORED,
                  tripled AS (id * 3),
                  code TEXT UNIQUE
                );
                """
            ).table(named: "t"))
        #expect(table.columns.map(\.name) == ["id", "name", "price", "untyped", "doubled", "tripled", "code"])
        let name = try #require(table.column(named: "NAME"))
        #expect(name.declaredType == "VARCHAR(40)")
        #expect(name.affinity == .text)
        #expect(name.isNotNull)
        #expect(name.defaultSQL == "'none'")
        #expect(name.collation == "NOCASE")
        #expect(table.column(named: "price")?.defaultSQL == "1.5 + 1")
        #expect(table.column(named: "price")?.affinity == .numeric)
        #expect(table.column(named: "untyped")?.declaredType == "")
        #expect(table.column(named: "untyped")?.affinity == .blob)
        #expect(table.column(named: "doubled")?.generation == .stored)
        #expect(table.column(named: "tripled")?.generation == .virtual)
        #expect(table.column(named: "id")?.generation == TableSchema.Generation.none)
        #expect(table.column(named: "code")?.isUnique == true)
        #expect(table.column(named: "name")?.isUnique == false)
        #expect(table.primaryKey == ["id"])
    }

    @Test func compositeKeysAndMultiColumnForeignKeysWithActions() throws {
        let schema = try schema(
            """
            CREATE TABLE parent (a INTEGER, b TEXT, PRIMARY KEY (b, a));
            CREATE TABLE child (
              id INTEGER PRIMARY KEY,
              pa INTEGER, pb TEXT,
              other INTEGER REFERENCES parent,
              single INTEGER REFERENCES solo(x) ON DELETE SET NULL,
              FOREIGN KEY (pb, pa) REFERENCES parent (b, a) ON DELETE CASCADE ON UPDATE RESTRICT
            );
            """)
        let parent = try #require(schema.table(named: "parent"))
        #expect(parent.primaryKey == ["b", "a"])
        #expect(parent.column(named: "b")?.primaryKeyPosition == 1)
        #expect(parent.column(named: "a")?.primaryKeyPosition == 2)
        let keys = try #require(schema.table(named: "child")).foreignKeys
        #expect(keys.count == 3)
        // Declaration order.
        #expect(keys[0].columns == ["other"])
        #expect(keys[0].referencedTable == "parent")
        #expect(keys[0].referencedColumns.isEmpty)  // no columns named: the parent's primary key
        #expect(schema.referencedColumns(of: keys[0]) == ["b", "a"])
        #expect(keys[1].columns == ["single"])
        #expect(keys[1].referencedColumns == ["x"])
        #expect(keys[1].onDelete == .setNull)
        #expect(keys[2].columns == ["pb", "pa"])
        #expect(keys[2].referencedColumns == ["b", "a"])
        #expect(keys[2].onDelete == .cascade)
        #expect(keys[2].onUpdate == .restrict)
    }

    @Test func uniqueConstraintsAndIndexes() throws {
        let schema = try schema(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT, c TEXT, UNIQUE (a, b));
            CREATE UNIQUE INDEX t_c ON t (c);
            CREATE INDEX t_b ON t (b DESC, a);
            CREATE INDEX t_expr ON t (lower(a));
            CREATE INDEX t_partial ON t (a) WHERE a IS NOT NULL;
            """)
        let table = try #require(schema.table(named: "t"))
        let byName = Dictionary(uniqueKeysWithValues: table.indexes.map { ($0.name, $0) })
        #expect(byName["t_c"]?.isUnique == true)
        #expect(byName["t_c"]?.sql?.hasPrefix("CREATE UNIQUE INDEX") == true)
        #expect(byName["t_b"]?.columns == ["b", "a"])
        #expect(byName["t_expr"]?.hasExpressions == true)
        #expect(byName["t_partial"]?.isPartial == true)
        #expect(byName["t_partial"]?.condition == "a IS NOT NULL")
        // Constraints are not indexes in the model: the multi-column one is a unique constraint, and
        // a unique index makes the column unique.
        #expect(table.indexes.map(\.name).sorted() == ["t_b", "t_c", "t_expr", "t_partial"])
        #expect(table.uniqueConstraints == [["a", "b"]])
        #expect(table.isUniqueColumn("c"))
        #expect(table.column(named: "c")?.isUnique == false)  // no UNIQUE constraint of its own
        #expect(schema.indexes.count == table.indexes.count)
    }

    @Test func strictAndWithoutRowIDTables() throws {
        let schema = try schema(
            """
            CREATE TABLE s (id INTEGER PRIMARY KEY, v ANY) STRICT;
            CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
            CREATE TABLE both (k TEXT PRIMARY KEY, v INT) STRICT, WITHOUT ROWID;
            """)
        #expect(schema.table(named: "s")?.isStrict == true)
        #expect(schema.table(named: "s")?.isWithoutRowID == false)
        #expect(schema.table(named: "w")?.isWithoutRowID == true)
        #expect(schema.table(named: "w")?.isStrict == false)
        #expect(schema.table(named: "both")?.isStrict == true)
        #expect(schema.table(named: "both")?.isWithoutRowID == true)
        // A WITHOUT ROWID primary key is NOT NULL even when not declared so.
        #expect(schema.table(named: "w")?.columns[0].isNotNull == true)
    }

    @Test func virtualTablesAndTriggersAreRecordedNotTables() throws {
        let schema = try schema(
            """
            CREATE TABLE doc (id INTEGER PRIMARY KEY, body TEXT);
            CREATE VIRTUAL TABLE doc_search USING fts5(title, body);
            CREATE TRIGGER doc_added AFTER INSERT ON doc BEGIN
              INSERT INTO doc_search (title, body) VALUES ('', new.body);
            END;
            """)
        #expect(schema.tables.map(\.name) == ["doc"])  // no fts5 shadow tables
        let search = try #require(schema.virtualTable(named: "doc_search"))
        #expect(search.virtualModule == "fts5")
        #expect(search.isFullTextSearch)
        #expect(search.recordColumns.map(\.name) == ["title", "body"])  // hidden columns left out
        #expect(schema.triggers.map(\.name) == ["doc_added"])
        #expect(schema.triggers.first?.tableName == "doc")
        #expect(schema.triggerNames(of: "doc") == ["doc_added"])
    }

    @Test func viewColumnsHaveDeclaredOrInferredTypes() throws {
        let schema = try schema(
            """
            CREATE TABLE sale (id INTEGER PRIMARY KEY, amount REAL NOT NULL, quantity INTEGER, region NVARCHAR(20), day DATE);
            CREATE VIEW report AS
              SELECT s.region, count(*) AS n, sum(quantity) AS units, sum(amount) AS revenue, total(amount) AS t,
                     avg(quantity) AS mean, min(day) AS first, max(s.quantity) AS most, CAST(amount AS TEXT) AS text_amount,
                     region || '!' AS shout, 1 AS one, 2.5 AS half, 'a' AS letter, x'00' AS bytes, NULL AS nothing_here,
                     quantity * 2 AS doubled, quantity * amount AS product, amount > 2 AS big,
                     CASE WHEN quantity > 1 THEN 'many' ELSE 'one' END AS how_many,
                     coalesce(region, 'none') AS named, length(region) AS size, upper(region) AS loud,
                     (SELECT max(amount) FROM sale) AS best
              FROM sale AS s GROUP BY region;
            CREATE VIEW nested AS SELECT units + 1 AS more, revenue FROM report;
            CREATE VIEW star AS SELECT *, 1 AS extra FROM sale;
            """)
        let report = try #require(schema.view(named: "report"))
        let types = Dictionary(uniqueKeysWithValues: report.columns.map { ($0.name, $0.typeName) })
        #expect(types["region"] == "NVARCHAR(20)")
        #expect(report.columns[0].declaredType == "NVARCHAR(20)")
        #expect(report.columns[0].originTable == "sale")
        #expect(report.columns[0].originColumn == "region")
        #expect(types["n"] == "INTEGER")
        #expect(report.columns.first { $0.name == "n" }?.isNeverNull == true)
        #expect(types["units"] == "INTEGER")
        #expect(types["revenue"] == "REAL")
        #expect(types["t"] == "REAL")
        #expect(report.columns.first { $0.name == "t" }?.isNeverNull == true)
        #expect(types["mean"] == "REAL")
        #expect(types["first"] == "DATE")
        #expect(types["most"] == "INTEGER")
        #expect(types["text_amount"] == "TEXT")
        #expect(types["shout"] == "TEXT")
        #expect(types["one"] == "INTEGER")
        #expect(types["half"] == "REAL")
        #expect(types["letter"] == "TEXT")
        #expect(types["bytes"] == "BLOB")
        #expect(types["nothing_here"] == .some(nil))
        #expect(types["doubled"] == "INTEGER")
        #expect(types["product"] == "REAL")
        #expect(types["big"] == "INTEGER")
        #expect(types["how_many"] == "TEXT")
        #expect(types["named"] == "NVARCHAR(20)")
        #expect(report.columns.first { $0.name == "named" }?.isNeverNull == true)
        #expect(types["size"] == "INTEGER")
        #expect(types["loud"] == "TEXT")
        #expect(types["best"] == "REAL")
        let nested = try #require(schema.view(named: "nested"))
        #expect(nested.columns.map(\.typeName) == ["INTEGER", "REAL"])
        let star = try #require(schema.view(named: "star"))
        #expect(star.columns.map(\.name) == ["id", "amount", "quantity", "region", "day", "extra"])
        #expect(star.columns.last?.typeName == "INTEGER")
    }

    @Test func viewThatCannotBeReadIsAClearError() throws {
        #expect {
            _ = try schema("CREATE VIEW broken AS SELECT x FROM missing;")
        } throws: { error in
            "\(error)".contains("broken") && "\(error)".contains("missing")
        }
    }
}
