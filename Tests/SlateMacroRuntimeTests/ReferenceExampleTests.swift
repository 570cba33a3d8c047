import Foundation
import SlateMacros
import SlateTestSupport
import SlateTestingCore
import Testing

// MARK: - The SwiftSQLiteORM README example, written with @Table

/// Nested structs are stored as JSON text.
struct ExampleNested: Codable, Equatable, Sendable {
    let desc: String
    let index: Int
}

@Table("orm_example_type_t", databaseFile: "orm_example_database.sqlite")
struct ExampleType: Equatable, Sendable {
    @PrimaryKey let name: String
    @Column(storage: .json) let data: ExampleNested
}

/// A record with a user-defined primitive type.
@Table
struct Bookmark: Equatable {
    var id: Int64?
    var address: WebAddress
    var mirror: WebAddress?
    var title: String?
}

@Suite struct SwiftSQLiteORMExampleTests {
    @Test func readmeExample() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(directory: directory.url.appendingPathComponent("deep/er"))

        // insert / update
        let c = ExampleType(name: "c", data: ExampleNested(desc: "c", index: 1))
        let u = ExampleType(name: "u", data: ExampleNested(desc: "u", index: 2))
        try store.save([c, u])
        try store.save([ExampleType(name: "u", data: ExampleNested(desc: "u2", index: 3))])
        #expect(FileManager.default.fileExists(atPath: directory.path("deep/er/orm_example_database.sqlite")))

        // select
        let arr = try store.fetchAll(ExampleType.self) { $0.name == c.name }
        #expect(arr == [c])
        #expect(
            try store.fetchAll(ExampleType.self) { $0.name == "u" }.first?.data == ExampleNested(desc: "u2", index: 3))

        // the nested value is JSON, queryable with SQLite's JSON functions
        let index = try store.withDatabase(file: ExampleType.databaseFile) { db in
            try db.fetchValue(
                Int.self, "SELECT json_extract(data, '$.index') FROM orm_example_type_t WHERE name = \("u")")
        }
        #expect(index == 3)

        // delete
        #expect(try store.delete([c]) == 1)  // by primary key
        #expect(try store.deleteAll(ExampleType.self) { $0.name == u.name } == 1)
        #expect(try store.fetchAll(ExampleType.self) { $0.name == c.name }.isEmpty)

        // clear
        try store.save([c, u])
        #expect(try store.deleteAll(ExampleType.self) == 2)

        // drop table
        try store.drop(ExampleType.self)
        let tables = try store.withDatabase(file: ExampleType.databaseFile) { db in
            try db.fetchAll(String.self, "SELECT name FROM sqlite_schema WHERE type = 'table'")
        }
        #expect(tables.isEmpty)
        try store.close()
    }

    @Test func customPrimitiveTypesAndOptionals() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(path: directory.path("bookmarks.sqlite"))
        let saved = try store.save([
            Bookmark(id: nil, address: try WebAddress("https://swift.org"), mirror: nil, title: "Swift"),
            Bookmark(
                id: nil, address: try WebAddress("https://sqlite.org"),
                mirror: try WebAddress("https://www.sqlite.org"), title: nil),
        ])
        #expect(saved.map(\.id) == [1, 2])
        #expect(Bookmark.schema.columns.map(\.declaredType) == ["INTEGER", "TEXT", "TEXT", "TEXT"])
        let found = try store.fetchAll(Bookmark.self) {
            $0.address == (try? WebAddress("https://sqlite.org")) ?? saved[0].address
        }
        #expect(found == [saved[1]])
        let stored = try store.withDatabase { db in
            try db.fetchAll(String?.self, "SELECT mirror FROM Bookmark ORDER BY id")
        }
        #expect(stored == [nil, "https://www.sqlite.org"])
    }
}

// MARK: - The SwiftQL README example, written with @Table

@Table("samples")
struct Sample: Identifiable, Equatable {
    let id: String
    let value: Int
}

/// Every column type SwiftQL supports.
@Table
struct Everything: Equatable {
    var id: Int64?
    var flag: Bool
    var count: Int
    var ratio: Double
    var text: String
    var bytes: Data
    var link: URL
    var uuid: UUID
    var date: Date
}

@Suite struct SwiftQLExampleTests {
    @Test func createInsertSelectUpdateDeleteDrop() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("mydatabase.sqlite3"))

        // Create each table
        try db.createTable(for: Sample.self)
        #expect(
            try Sample.schema.createTableSQL()
                == #"CREATE TABLE "samples" ("id" TEXT PRIMARY KEY NOT NULL, "value" INTEGER NOT NULL)"#)

        // Insert data into the database
        try db.insert(Sample(id: "foo", value: 7))
        try db.insert(contentsOf: [Sample(id: "bar", value: 3), Sample(id: "baz", value: 12)])

        // Fetch data from the database
        #expect(try Sample.all().fetchAll(db).count == 3)
        let query = Sample.where { $0.value > 5 }.order { $0.id }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "samples"."id", "samples"."value"
                FROM "samples"
                WHERE "samples"."value" > ?
                ORDER BY "samples"."id"
                -- arguments: 5
                """)
        #expect(try query.fetchAll(db) == [Sample(id: "baz", value: 12), Sample(id: "foo", value: 7)])

        // Update and delete
        #expect(try Sample.update { $0.value.set(to: 8) }.where { $0.id == "foo" }.execute(db) == 1)
        #expect(try Sample.find("foo").fetchOne(db) == Sample(id: "foo", value: 8))
        #expect(try Sample.delete().where { $0.value < 5 }.execute(db) == 1)
        #expect(try Sample.all().fetchCount(db) == 2)

        // Drop
        try db.dropTable(for: Sample.self)
        #expect(try db.fetchOne(String.self, "SELECT name FROM sqlite_schema WHERE name = 'samples'") == nil)
    }

    @Test func everyColumnTypeRoundTrips() throws {
        let db = try Database()
        try db.createTable(for: Everything.self)
        let value = Everything(
            id: nil, flag: true, count: -3, ratio: 0.25, text: "héllo", bytes: Data([0, 255]),
            link: URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/"), uuid: UUID(),
            date: Date(timeIntervalSince1970: 1_700_000_000.5))
        let inserted = try db.insert(value)
        #expect(inserted.id == 1)
        #expect(
            try Everything.where { $0.flag == true && $0.date > Date(timeIntervalSince1970: 0) }.fetchAll(db) == [
                inserted
            ])
        let types = try db.fetchAll(String.self, "SELECT type FROM pragma_table_info('Everything')")
        #expect(types == ["INTEGER", "INTEGER", "INTEGER", "REAL", "TEXT", "BLOB", "TEXT", "TEXT", "DATETIME"])
    }
}
