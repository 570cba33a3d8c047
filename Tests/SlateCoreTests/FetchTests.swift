import Foundation
import Slate
import Testing

/// S6: every query shape.
@Suite struct FetchTests {
    struct Car: RowDecodable, Equatable {
        var name: String
        var price: Int?
        init(name: String, price: Int?) {
            self.name = name
            self.price = price
        }
        init(row: borrowing Row) throws {
            name = try row.decode(at: 0)
            price = try row.decode(at: 1)
        }
    }

    func cars() throws -> Database {
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE car(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price INTEGER);
                INSERT INTO car(name, price) VALUES ('Audi', 52642), ('Mercedes', 57127), ('Trabant', NULL);
                """)
        return db
    }

    @Test func singleAndOptionalValues() throws {
        let db = try cars()
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM car") == 3)
        #expect(try db.fetchOne(Int.self, "SELECT price FROM car WHERE name = \("Audi")") == 52642)
        #expect(try db.fetchOne(Int.self, "SELECT price FROM car WHERE name = \("Trabant")") == nil)
        #expect(try db.fetchOne(Int.self, "SELECT price FROM car WHERE name = \("Lada")") == nil)
        #expect(try db.fetchValue(Int?.self, "SELECT max(price) FROM car WHERE price < 0") == nil)
        let error = try #require(throws: DatabaseError.self) {
            try db.fetchValue(Int.self, "SELECT price FROM car WHERE 0")
        }
        #expect(error.resultCode == .notFound)
    }

    @Test func arraysOfValues() throws {
        let db = try cars()
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM car ORDER BY name DESC") == ["Trabant", "Mercedes", "Audi"])
        #expect(try db.fetchAll(Int?.self, "SELECT price FROM car ORDER BY id") == [52642, 57127, nil])
        #expect(try db.fetchAll(Int.self, sql: "SELECT id FROM car WHERE price > ?", arguments: [53_000]) == [2])
    }

    @Test func oneRowAndAllRowsByIndexAndName() throws {
        let db = try cars()
        let row = try #require(try db.fetchOne(CopiedRow.self, "SELECT name, price FROM car WHERE id = \(1)"))
        #expect(try row[0] as String == "Audi")
        #expect(try row["price"] as Int == 52642)
        #expect(try row["PRICE"] as Int == 52642)
        #expect(row.columnNames == ["name", "price"])
        #expect(row.value(named: "name") == .text("Audi"))
        #expect(row.value(named: "nope") == nil)
        let missing = try #require(throws: DatabaseError.self) { try row["nope"] as Int }
        #expect(missing.resultCode == .range)
        #expect(missing.message.contains("name, price"))

        let rows = try db.fetchAll(CopiedRow.self, "SELECT name, price FROM car ORDER BY id")
        #expect(rows.count == 3)
        let values: [[SQLValue]] = rows.map { $0.values }
        let expectedValues: [[SQLValue]] = [
            [.text("Audi"), .integer(52642)], [.text("Mercedes"), .integer(57127)], [.text("Trabant"), .null],
        ]
        #expect(values.elementsEqual(expectedValues))
        #expect(rows[2].isNull(at: 1))
    }

    @Test func decodedTypes() throws {
        let db = try cars()
        #expect(
            try db.fetchAll(Car.self, "SELECT name, price FROM car ORDER BY id") == [
                Car(name: "Audi", price: 52642), Car(name: "Mercedes", price: 57127), Car(name: "Trabant", price: nil),
            ])
        #expect(
            try db.fetchOne(Car.self, sql: "SELECT name, price FROM car WHERE name = ?", arguments: ["Mercedes"])
                == Car(name: "Mercedes", price: 57127))
        #expect(try db.fetchOne(Car.self, "SELECT name, price FROM car WHERE 0") == nil)
    }

    @Test func dictionariesFromRows() throws {
        let db = try cars()
        let prices = try db.fetchDictionary(
            String.self, Int.self, "SELECT name, price FROM car WHERE price > \(20_000)")
        #expect(prices == ["Audi": 52642, "Mercedes": 57127])
        let lengths = try db.fetchDictionary("SELECT id, name FROM car") { row in
            (try row.decode(Int.self, at: 0), try row.decode(String.self, at: 1).count)
        }
        #expect(lengths == [1: 4, 2: 8, 3: 7])
        #expect(
            try db.fetchAll("SELECT name FROM car ORDER BY id") { try $0.decode(String.self, at: 0).uppercased() } == [
                "AUDI", "MERCEDES", "TRABANT",
            ])
    }

    @Test func decodingErrorInsideFetchLeavesConnectionUsable() throws {
        let db = try cars()
        let error = try #require(throws: DatabaseError.self) {
            try db.fetchAll(Int.self, "SELECT price FROM car ORDER BY id")
        }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("price"))
        #expect(
            try db.fetchAll(Int.self, "SELECT price FROM car WHERE price IS NOT NULL ORDER BY id") == [52642, 57127])
    }
}

@Suite struct CursorTests {
    @Test func cursorStreamsRowsWithoutMaterializing() throws {
        let db = try Database.memory()
        let cursor = try db.fetchCursor(
            Int.self, "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n")
        // The series is infinite: only a streaming cursor can take its first values.
        var taken: [Int] = []
        while taken.count < 5, let value = try cursor.next() { taken.append(value) }
        cursor.close()
        #expect(taken == [1, 2, 3, 4, 5])
        #expect(try cursor.next() == nil)
    }

    @Test func recordCursorDecodesEachRowAndFinishes() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y')")
        let cursor = try db.fetchCursor(FetchTests.Car.self, "SELECT b, a FROM t ORDER BY a")
        #expect(try cursor.next() == FetchTests.Car(name: "x", price: 1))
        #expect(try cursor.collect() == [FetchTests.Car(name: "y", price: 2)])
        #expect(try cursor.next() == nil)
        var seen: [String] = []
        try db.fetchCursor(CopiedRow.self, sql: "SELECT b FROM t ORDER BY a").forEach {
            seen.append(try $0.decode(at: 0))
        }
        #expect(seen == ["x", "y"])
    }

    @Test func cursorErrorClosesIt() throws {
        let db = try Database.memory()
        let cursor = try db.fetchCursor(Int.self, "SELECT 1 UNION ALL SELECT NULL")
        #expect(try cursor.next() == 1)
        #expect(throws: DatabaseError.self) { try cursor.next() }
        #expect(try cursor.next() == nil)
    }

    @Test func cursorBoundByArguments() throws {
        let db = try Database.memory()
        let cursor = try db.fetchCursor(Int.self, sql: "SELECT ? + 1", arguments: [41])
        #expect(try cursor.collect() == [42])
    }
}

@Suite struct SQLInterpolationTests {
    @Test func valuesBecomeParameters() throws {
        let name = "O'Brien"
        let limit: Int? = nil
        let sql: SQL = "SELECT * FROM player WHERE name = \(name) AND score > \(10) AND bonus IS \(limit)"
        #expect(sql.text == "SELECT * FROM player WHERE name = ? AND score > ? AND bonus IS ?")
        #expect(sql.arguments.positional.count == 3)
        let values: [SQLValue] = try sql.arguments.positional.map { try $0?.sqlValue ?? .null }
        let expectedValues: [SQLValue] = [.text("O'Brien"), .integer(10), .null]
        #expect(values.elementsEqual(expectedValues))
    }

    @Test func identifiersAreQuotedAndRawTextIsVerbatim() throws {
        let table = "odd \"name\""
        let sql: SQL = "CREATE TABLE \(identifier: table) (\(raw: "x INTEGER"))"
        #expect(sql.text == #"CREATE TABLE "odd ""name""" (x INTEGER)"#)
        let db = try Database.memory()
        try db.execute(sql)
        try db.execute("INSERT INTO \(identifier: table) VALUES (\(1))")
        #expect(try db.fetchValue(Int.self, "SELECT x FROM \(identifier: table)") == 1)
        #expect(
            try db.fetchValue(Int.self, "SELECT count(*) FROM \(identifier: "sqlite_schema", qualifiedBy: "main")") == 1
        )
    }

    @Test func fragmentsComposeWithTheirArguments() throws {
        let condition: SQL = "x > \(1)"
        var query: SQL = "SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3) WHERE \(sql: condition)"
        query.append(" AND x < \(3)")
        #expect(query.text.hasSuffix("WHERE x > ? AND x < ?"))
        let db = try Database.memory()
        #expect(try db.fetchAll(Int.self, query) == [2])
        let joined = SQL.joined(["a = \(1)", "b = \(2)"], separator: " AND ")
        #expect(joined.text == "a = ? AND b = ?")
        #expect(joined.arguments.positional.count == 2)
    }

    @Test func listsExpandToParameters() throws {
        let db = try Database.memory()
        let ids = [1, 3]
        #expect(
            try db.fetchAll(
                Int.self, "SELECT value FROM json_each('[1,2,3]') WHERE value IN (\(list: ids)) ORDER BY value") == [
                    1, 3,
                ])
        #expect(
            try db.fetchAll(Int.self, "SELECT value FROM json_each('[1,2,3]') WHERE value IN (\(list: [Int]()))") == [])
    }
}
