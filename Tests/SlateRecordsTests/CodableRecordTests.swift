import Foundation
import Slate
import Testing

struct Address: Codable, Equatable {
    var city: String
    var zip: String?
}

enum Mood: String, Codable, CaseIterable {
    case happy, grumpy
}

struct Contact: CodableRecord, Equatable {
    var id: Int64?
    var name: String
    var email: String?
    var score: Double
    var isFavorite: Bool
    var mood: Mood
    var address: Address
    var tags: [String]
    var birthday: Date?
    var token: UUID
    var avatar: Data?

    static let columnNames = ["isFavorite": "is_favorite"]

    mutating func didInsert(rowID: Int64) { id = rowID }
}

struct Tag: CodableRecord, Equatable {
    var name: String
    var uses: Int
    static let primaryKeyColumns = ["name"]
    static let tableName = "tags"
}

struct LogLine: CodableRecord, Equatable {
    var message: String
    var level: Int
}

@Suite struct CodableRecordTests {
    let sample = Contact(
        id: nil, name: "Ada", email: nil, score: 9.5, isFavorite: true, mood: .grumpy,
        address: Address(city: "London", zip: nil), tags: ["math", "engines"],
        birthday: Date(timeIntervalSince1970: 1_000_000), token: UUID(), avatar: Data([1, 2, 3]))

    @Test func columnsAreInferredFromTheCodableShape() throws {
        let schema = Contact.schema
        #expect(schema.name == "Contact")
        let columns = schema.columns.map {
            "\($0.name) \($0.declaredType)\($0.isNullable ? "" : " NOT NULL")\($0.isPrimaryKey ? " KEY" : "")"
        }
        #expect(
            columns == [
                "id INTEGER NOT NULL KEY", "name TEXT NOT NULL", "email TEXT", "score REAL NOT NULL",
                "is_favorite INTEGER NOT NULL", "mood TEXT NOT NULL", "address TEXT NOT NULL", "tags TEXT NOT NULL",
                "birthday DATETIME", "token TEXT NOT NULL", "avatar BLOB",
            ])
        #expect(schema.rowIDAlias?.name == "id")
        #expect(Tag.schema.primaryKey == ["name"])
        #expect(LogLine.schema.primaryKey.isEmpty)
    }

    @Test func saveInsertsThenUpdatesByKey() throws {
        let db = try Database()
        var contact = try db.save(sample)
        #expect(contact.id == 1)
        contact.score = 7
        contact.email = "ada@example.com"
        try db.save(contact)
        #expect(try Contact.all().fetchCount(db) == 1)
        let fetched = try Contact.where { $0.id == 1 }.fetchOne(db)
        #expect(fetched == contact)
    }

    @Test func nestedValuesAreJSONAndQueryable() throws {
        let db = try Database()
        try db.save(sample)
        let json = try db.fetchValue(String.self, "SELECT address FROM Contact")
        #expect(json == #"{"city":"London"}"#)
        let city = try db.fetchValue(String.self, "SELECT json_extract(address, '$.city') FROM Contact")
        #expect(city == "London")
        let tagged = try Contact.where(sql: "EXISTS (SELECT 1 FROM json_each(tags) WHERE value = \("engines"))")
            .fetchAll(db)
        #expect(tagged.count == 1)
        #expect(try db.fetchValue(String.self, "SELECT mood FROM Contact") == "grumpy")
    }

    @Test func saveArraysFetchWithFilterDeleteByKeyFilterAndAll() throws {
        let db = try Database()
        let tags = [Tag(name: "a", uses: 1), Tag(name: "b", uses: 2), Tag(name: "c", uses: 3)]
        try db.save(contentsOf: tags)
        try db.save(Tag(name: "b", uses: 20))
        #expect(try Tag.order { $0.name }.fetchAll(db) == [tags[0], Tag(name: "b", uses: 20), tags[2]])
        #expect(try Tag.where { $0.uses > 2 }.order { $0.uses.descending() }.fetchAll(db).map(\.name) == ["b", "c"])
        #expect(try Tag.where(sql: "uses > \(2)").order(sql: "uses DESC").fetchAll(db).map(\.name) == ["b", "c"])
        #expect(try db.delete(tags[0]))
        #expect(try Tag.find("a").fetchOne(db) == nil)
        #expect(try Tag.delete().where { $0.uses == 3 }.execute(db) == 1)
        #expect(try Tag.delete().execute(db) == 1)
        try db.dropTable(for: Tag.self)
        #expect(try db.fetchOne(Int.self, "SELECT 1 FROM sqlite_schema WHERE name = 'tags'") == nil)
    }

    @Test func recordsWithoutKeyAreAlwaysInsertedAndCannotBeDeletedByKey() throws {
        let db = try Database()
        try db.save(contentsOf: [LogLine(message: "a", level: 1), LogLine(message: "a", level: 1)])
        #expect(try LogLine.all().fetchCount(db) == 2)
        #expect(throws: DatabaseError.self) { try db.delete(LogLine(message: "a", level: 1)) }
    }

    @Test func rowDecoderAndEncoderWorkOnTheirOwn() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(city TEXT, zip TEXT)")
        let values = try RowEncoder().encode(Address(city: "Paris", zip: "75001"))
        #expect(values.columns == ["city", "zip"])
        try db.execute("INSERT INTO t VALUES (\(values["city"] as? String), \(values["zip"] as? String))")
        let decoder = RowDecoder()
        let decoded = try db.fetchAll("SELECT * FROM t") { try decoder.decode(Address.self, from: $0) }
        #expect(decoded == [Address(city: "Paris", zip: "75001")])
    }

    @Test func decodingErrorsNameTheColumn() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(city TEXT)")
        try db.execute(sql: "INSERT INTO t VALUES (NULL)")
        let decoder = RowDecoder()
        #expect(throws: (any Error).self) {
            _ = try db.fetchAll("SELECT * FROM t") { try decoder.decode(Address.self, from: $0) }
        }
    }
}

/// Codable records read numbers by the exact rules of `SQLExtractable`, like every other row read.
@Suite struct CodableExactReadTests {
    struct Reading: CodableRecord, Equatable {
        var id: Int64?
        var count: Int
        var small: Int8
        var ratio: Double
        var extra: Int?
        var flag: Bool
    }

    func database(_ values: String) throws -> Database {
        let db = try Database(location: .inMemory)
        try db.execute(
            sql:
                """
                CREATE TABLE Reading(id INTEGER PRIMARY KEY, count, small, ratio, extra, flag);
                INSERT INTO Reading VALUES \(values)
                """
        )
        return db
    }

    @Test func losslessConversionsRead() throws {
        let db = try database("(1, '42', 3.0, 5, NULL, 1)")
        let reading = try #require(try Reading.find(1).fetchOne(db))
        #expect(reading == Reading(id: 1, count: 42, small: 3, ratio: 5, extra: nil, flag: true))
        #expect(try Reading.all().fetchAll(db) == [reading])
    }

    @Test(arguments: [
        "(1, 3.7, 1, 1.5, NULL, 0)",
        "(1, '12abc', 1, 1.5, NULL, 0)",
        "(1, 1e300, 1, 1.5, NULL, 0)",
        "(1, 1, 128, 1.5, NULL, 0)",
        "(1, 1, 1, 9007199254740993, NULL, 0)",
        "(1, 1, 1, 1.5, 2.5, 0)",
        "(1, 1, 1, 1.5, NULL, 0.5)",
    ])
    func lossyConversionsThrow(_ values: String) throws {
        let db = try database(values)
        for (path, read) in [
            ("find", { _ = try Reading.find(1).fetchOne(db) }),
            ("query", { _ = try Reading.all().fetchAll(db) }),
            ("raw SQL", { _ = try db.fetchAll(Reading.self, "SELECT * FROM Reading") }),
        ] as [(String, () throws -> Void)] {
            do {
                try read()
                Issue.record("\(path): \(values) read without an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .mismatch, "\(path): \(error)")
            }
        }
    }
}

extension CodableExactReadTests {
    struct LooseLine: CodableRecord, Equatable {
        var id: Int64?
        var quantity: Lenient<Int>
        var discount: Lenient<Double>?
    }

    @Test func lenientPropertiesOptInToSQLitesConversions() throws {
        let db = try Database(location: .inMemory)
        try db.execute(
            sql:
                """
                CREATE TABLE LooseLine(id INTEGER PRIMARY KEY, quantity, discount);
                INSERT INTO LooseLine VALUES (1, '12abc', NULL), (2, 3.7, '0.5x')
                """
        )
        let lines = try LooseLine.all().fetchAll(db)
        #expect(
            lines == [
                LooseLine(id: 1, quantity: Lenient(12), discount: nil),
                LooseLine(id: 2, quantity: Lenient(3), discount: Lenient(0.5)),
            ])
        let inserted = try db.insert(LooseLine(id: nil, quantity: Lenient(7), discount: Lenient(1.5)))
        #expect(inserted.id == 3)
        #expect(
            try db.fetchValue(String.self, "SELECT typeof(quantity) || typeof(discount) FROM LooseLine WHERE id = 3")
                == "integerreal")
    }
}
