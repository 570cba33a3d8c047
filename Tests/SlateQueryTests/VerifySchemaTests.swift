import Foundation
import Slate
import SlateTestSupport
import Testing

/// `db.verifySchema(of:)`: the tables `Person` and `Pet` declare, against databases made from SQL.
@Suite("Database.verifySchema(of:)")
struct VerifySchemaTests {
    /// The SQL that creates exactly what `Person` and `Pet` declare.
    static let matching = """
        CREATE TABLE person (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, age INTEGER NOT NULL DEFAULT 0,
          email TEXT UNIQUE COLLATE NOCASE, score REAL NOT NULL DEFAULT 0.0);
        CREATE INDEX person_on_name ON person (name);
        CREATE TABLE pet (id INTEGER PRIMARY KEY, ownerId INTEGER REFERENCES person (id) ON DELETE CASCADE, name TEXT NOT NULL,
          species TEXT NOT NULL DEFAULT 'cat');
        """

    func differences(_ sql: String) throws -> [SchemaDifference] {
        let db = try Database(location: .inMemory)
        try db.execute(sql: sql)
        return try db.verifySchema(of: [Person.self, Pet.self])
    }

    /// `sql` with `original` replaced by `replacement` (which must occur).
    func matching(replacing original: String, with replacement: String) -> String {
        #expect(Self.matching.contains(original), "\(original)")
        return Self.matching.replacingOccurrences(of: original, with: replacement)
    }

    @Test func theSameSchemaHasNoDifference() throws {
        #expect(try differences(Self.matching) == [])
        // The tables made from the types themselves agree too, and other tables are not reported.
        let db = try Database(location: .inMemory)
        try db.createTable(for: Person.self)
        try db.createTable(for: Pet.self)
        try db.execute(sql: "CREATE TABLE unrelated (x)")
        #expect(try db.verifySchema(of: [Person.self, Pet.self, Person.self]) == [])
    }

    @Test func spellingIsNeverADifference() throws {
        let cosmetic = """
            create   table "PERSON" ( -- people
              [ID] integer primary key autoincrement,
              `Name` text not null,
              "age" INTEGER NOT NULL DEFAULT (0),
              email   TEXT unique collate nocase,
              score real not null default ( 0.0 )  /* a comment */
            );
            CREATE INDEX "Person_On_Name" ON "person" ("NAME");
            CREATE TABLE Pet ("id" INTEGER PRIMARY KEY, OWNERID integer references "PERSON" on delete cascade,
              name text not null, species text NOT NULL DEFAULT ('cat'));
            """
        #expect(try differences(cosmetic) == [])
    }

    @Test func eachKindOfDifferenceIsReported() throws {
        func kinds(_ sql: String) throws -> [SchemaDifference.Kind] { try differences(sql).map(\.kind) }
        #expect(try kinds(matching(replacing: "CREATE TABLE pet", with: "CREATE TABLE other")) == [.missingTable])
        let missing = try differences(matching(replacing: ",\n  species TEXT NOT NULL DEFAULT 'cat'", with: ""))
        #expect(missing.map(\.description) == ["column pet.species is missing (expected TEXT NOT NULL DEFAULT 'cat')"])
        let extra = try differences(
            matching(replacing: "name TEXT NOT NULL,\n  species", with: "name TEXT NOT NULL, color TEXT,\n  species"))
        #expect(extra.map(\.description) == ["column pet.color is not expected (found TEXT)"])
        #expect(try kinds(matching(replacing: "age INTEGER NOT NULL", with: "age TEXT NOT NULL")) == [.affinity])
        #expect(
            try kinds(matching(replacing: "name TEXT NOT NULL, age", with: "name VARCHAR(20) NOT NULL, age")) == [
                .declaredType
            ])
        let nullability = try differences(matching(replacing: "name TEXT NOT NULL, age", with: "name TEXT, age"))
        #expect(nullability.map(\.description) == ["column person.name: nullability expected NOT NULL, found nullable"])
        #expect(try kinds(matching(replacing: "DEFAULT 0,", with: "DEFAULT 1,")) == [.defaultValue])
        #expect(try kinds(matching(replacing: "email TEXT UNIQUE", with: "email TEXT")) == [.unique])
        #expect(try kinds(matching(replacing: "COLLATE NOCASE", with: "")) == [.collation])
        #expect(try kinds(matching(replacing: "PRIMARY KEY AUTOINCREMENT", with: "PRIMARY KEY")) == [.autoIncrement])
        #expect(try kinds(matching(replacing: "ON DELETE CASCADE", with: "")) == [.foreignKey, .foreignKey])
        #expect(try kinds(matching(replacing: "CREATE INDEX person_on_name ON person (name);", with: "")) == [.index])
        #expect(try kinds(matching(replacing: "ON person (name)", with: "ON person (age)")) == [.index])
        let key = try differences(
            matching(replacing: "CREATE TABLE pet (id INTEGER PRIMARY KEY,", with: "CREATE TABLE pet (id INTEGER,"))
        #expect(key.map(\.kind) == [.primaryKey])
        #expect(key.first?.description == "table pet: primary key expected id, found none")
        let generated = try kinds(
            matching(
                replacing: "species TEXT NOT NULL DEFAULT 'cat'",
                with: "species TEXT NOT NULL GENERATED ALWAYS AS ('cat') STORED"))
        #expect(generated.contains(.generated))
        let strict = try kinds(matching(replacing: "DEFAULT 'cat');", with: "DEFAULT 'cat') STRICT;"))
        #expect(strict == [.strict])
    }

    @Test func viewsCompareTheirColumns() throws {
        struct NamesView: Table {
            var name: String?
            static let schema = TableSchema(
                name: "names", kind: .view, columns: [.init(name: "name", type: "TEXT", isNotNull: true)])
            struct Columns: TableColumns {
                init(qualifier: String) {}
            }
            init(row: borrowing Row) throws { name = try row.decode(at: 0) }
            func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
                try encoder.encode(name)
            }
        }
        let db = try Database(location: .inMemory)
        try db.execute(sql: Self.matching)
        #expect(try db.verifySchema(of: [NamesView.self]).map(\.kind) == [.missingView])
        try db.execute(sql: "CREATE VIEW names AS SELECT name FROM person")
        #expect(try db.verifySchema(of: [NamesView.self]) == [])  // nullability of a view's column is not known
        try db.execute(sql: "DROP VIEW names; CREATE VIEW names AS SELECT age AS name FROM person")
        #expect(try db.verifySchema(of: [NamesView.self]).map(\.kind) == [.affinity])
    }

    @Test func theCheckOnlyReads() throws {
        let db = try Database(location: .inMemory)
        try db.execute(sql: Self.matching)
        let before = try db.fetchAll(CopiedRow.self, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name")
        _ = try db.verifySchema(of: [Person.self, Pet.self])
        let after = try db.fetchAll(CopiedRow.self, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY name")
        #expect(before == after)
        #expect(db.totalChangesCount == 0)
    }
}
