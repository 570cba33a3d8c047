import Foundation
import Slate
import Testing

@Suite struct StatementTests {
    func carDatabase() throws -> Database {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE car(id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL, price INTEGER)")
        return db
    }

    @Test func chainedPositionalBindAndRun() throws {
        let db = try carDatabase()
        let insert = try db.prepare(sql: "INSERT INTO car(name, price) VALUES (?, ?)")
        try insert.bind("Audi", 52_642).run()
        try insert.reset().bind("Mercedes", 57_127).run()
        #expect(try db.fetchAll(String.self, "SELECT name FROM car ORDER BY id") == ["Audi", "Mercedes"])
    }

    @Test func numberedParameters() throws {
        let db = try carDatabase()
        try db.prepare(sql: "INSERT INTO car(name, price) VALUES (?2, ?1)").bind(100, "Twice").run()
        #expect(try db.fetchValue(Int.self, "SELECT price FROM car WHERE name = 'Twice'") == 100)
    }

    @Test(arguments: [":", "@", "$"])
    func namedParametersWithEveryPrefix(prefix: String) throws {
        let db = try carDatabase()
        let statement = try db.prepare(sql: "INSERT INTO car(name, price) VALUES (\(prefix)name, \(prefix)price)")
        try statement.bind(["name": "Audi", "\(prefix)price": 1]).run()
        #expect(statement.parameterCount == 2)
        #expect(statement.parameterName(at: 1) == "\(prefix)name")
        #expect(statement.parameterIndex(named: "price") == 2)
        #expect(try db.fetchValue(Int.self, "SELECT price FROM car WHERE name = 'Audi'") == 1)
    }

    @Test func bindingByNameOneAtATime() throws {
        let db = try carDatabase()
        let statement = try db.prepare(sql: "INSERT INTO car(name, price) VALUES (:name, :price)")
        try statement.bind("Audi", named: "name").bind(5, named: ":price").run()
        #expect(try db.fetchValue(Int.self, "SELECT price FROM car") == 5)
        let error = try #require(throws: DatabaseError.self) { try statement.bind(1, named: "nope") }
        #expect(error.resultCode == .range)
    }

    @Test func wrongParameterNameThrowsRange() throws {
        let db = try carDatabase()
        let statement = try db.prepare(sql: "INSERT INTO car(name, price) VALUES (:name, :price)")
        let error = try #require(throws: DatabaseError.self) {
            try statement.bind(["name": "Audi", "price": 1, "colour": "red"])
        }
        #expect(error.resultCode == .range)
        #expect(error.message.contains("colour"))
        let missing = try #require(throws: DatabaseError.self) { try statement.bind(["name": "Audi"]) }
        #expect(missing.resultCode == .range)
        #expect(missing.message.contains(":price"))
    }

    @Test func wrongParameterCountThrowsRange() throws {
        let db = try carDatabase()
        let statement = try db.prepare(sql: "INSERT INTO car(name, price) VALUES (?, ?)")
        let tooFew = try #require(throws: DatabaseError.self) { try statement.bind("Audi") }
        #expect(tooFew.resultCode == .range)
        #expect(tooFew.message.contains("wrong number of arguments"))
        let tooMany = try #require(throws: DatabaseError.self) { try statement.bind("Audi", 1, 2) }
        #expect(tooMany.resultCode == .range)
        let outOfRange = try #require(throws: DatabaseError.self) { try statement.bind(1, at: 3) }
        #expect(outOfRange.resultCode == .range)
    }

    @Test func clearBindingsResetsToNull() throws {
        let db = try carDatabase()
        let statement = try db.prepare(sql: "SELECT ?")
        try statement.bind(5)
        #expect(try statement.step())
        #expect(try statement.withCurrentRow { try $0.decode(Int.self, at: 0) } == 5)
        try statement.reset()
        statement.clearBindings()
        #expect(try statement.step())
        #expect(statement.withCurrentRow { $0.isNull(at: 0) })
    }

    @Test func columnMetadata() throws {
        let db = try carDatabase()
        let statement = try db.prepare(sql: "SELECT id AS identifier, name, price * 2 FROM car")
        #expect(statement.columnCount == 3)
        #expect(statement.columnNames == ["identifier", "name", "price * 2"])
        #expect(statement.declaredType(at: 1) == "VARCHAR(40)")
        #expect(statement.declaredType(at: 2) == nil)
        #expect(statement.originTableName(at: 0) == "car")
        #expect(statement.originColumnName(at: 0) == "id")
        #expect(statement.originDatabaseName(at: 1) == "main")
        #expect(statement.originColumnName(at: 2) == nil)
        #expect(statement.columnIndex(named: "NAME") == 1)
        #expect(statement.isReadOnly)
        #expect(try !db.prepare(sql: "DELETE FROM car").isReadOnly)
    }

    @Test func expandedSQLShowsBoundValues() throws {
        let db = try carDatabase()
        let statement = try db.prepare("SELECT * FROM car WHERE name = \("O'Brien") AND price > \(10)")
        #expect(statement.sql == "SELECT * FROM car WHERE name = ? AND price > ?")
        #expect(statement.expandedSQL == "SELECT * FROM car WHERE name = 'O''Brien' AND price > 10")
    }

    @Test func prepareRejectsMultipleStatementsAndEmptySQL() throws {
        let db = try carDatabase()
        let multiple = try #require(throws: DatabaseError.self) { try db.prepare(sql: "SELECT 1; SELECT 2") }
        #expect(multiple.resultCode == .misuse)
        let empty = try #require(throws: DatabaseError.self) { try db.prepare(sql: "  -- nothing") }
        #expect(empty.resultCode == .misuse)
        // A trailing semicolon and comment are fine.
        #expect(try db.prepare(sql: "SELECT 1; -- done").columnCount == 1)
    }

    @Test func statementCacheReusesStatementsByText() throws {
        let db = try carDatabase()
        db.clearStatementCache()
        for price in 0..<10 { try db.execute("INSERT INTO car(name, price) VALUES ('x', \(price))") }
        #expect(db.cachedStatementCount == 1)
        let first = try db.cachedStatement(sql: "SELECT count(*) FROM car")
        let second = try db.cachedStatement(sql: "SELECT count(*) FROM car")
        #expect(first === second)
        #expect(db.cachedStatementCount == 2)
    }

    @Test func nestedQueriesWithTheSameTextGetDistinctStatements() throws {
        let db = try carDatabase()
        try db.execute(sql: "INSERT INTO car(name, price) VALUES ('a', 1), ('b', 2)")
        let cursor = try db.fetchCursor(String.self, "SELECT name FROM car ORDER BY id")
        var pairs: [String] = []
        while let outer = try cursor.next() {
            for inner in try db.fetchAll(String.self, "SELECT name FROM car ORDER BY id") {
                pairs.append(outer + inner)
            }
        }
        #expect(pairs == ["aa", "ab", "ba", "bb"])
    }

    @Test func statementCacheCapacityIsRespected() throws {
        let db = try Database.memory { $0.statementCacheCapacity = 3 }
        for value in 0..<10 { _ = try db.fetchValue(Int.self, SQL(sql: "SELECT \(value)")) }
        #expect(db.cachedStatementCount <= 3)
    }

    @Test func stepErrorResetsStatementSoItCanRunAgain() throws {
        let db = try carDatabase()
        let insert = try db.prepare(sql: "INSERT INTO car(id, name) VALUES (?, 'x')")
        try insert.bind(1).run()
        let error = try #require(throws: DatabaseError.self) { try insert.reset().bind(1).run() }
        #expect(error.extendedResultCode == .constraintPrimaryKey)
        #expect(error.arguments == [.integer(1)])
        try insert.reset().bind(2).run()
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM car") == 2)
    }
}

/// Scripts with arguments that do not match apply nothing (issue 13).
@Suite struct ScriptArgumentTests {
    @Test func anExtraPositionalArgumentIsReportedBeforeAnyStatementRuns() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a)")
        let error = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2, 3])
        }
        #expect(error.resultCode == .range)
        #expect(error.message.contains("the SQL uses 2, got 3"))
        let count = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
        #expect(count == 0, "no statement of the script ran")
    }

    @Test func anUnusedNameIsReportedBeforeAnyStatementRuns() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a)")
        let error = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO t VALUES (:a)", arguments: ["a": 1, "b": 2])
        }
        #expect(error.message.contains("no parameter named b"))
        let count = try db.fetchValue(Int.self, "SELECT count(*) FROM t")
        #expect(count == 0)
    }

    @Test func aScriptThatCreatesItsTablesRollsBackOnAMismatch() throws {
        // The INSERT cannot be prepared before the CREATE ran: the script runs in a savepoint.
        let db = try Database()
        let error = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?)", arguments: [1, 2])
        }
        #expect(error.resultCode == .range)
        let tables = try db.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'table'")
        #expect(tables.isEmpty, "the CREATE TABLE was rolled back")
    }

    @Test func matchingArgumentsRunEveryStatementOnce() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2])
        let values = try db.fetchAll(Int.self, "SELECT a FROM t ORDER BY a")
        #expect(values == [1, 2])
    }
}

/// Error messages show a bounded piece of a value, whatever its size (issue 13).
@Suite struct ErrorMessageTruncationTests {
    @Test func aHugeBlobReadAsTheWrongTypeGivesAShortMessage() throws {
        let db = try Database()
        let blob = Data(repeating: 0xAB, count: 8 * 1024 * 1024)
        try db.execute(sql: "CREATE TABLE t(b)")
        try db.execute("INSERT INTO t VALUES (\(blob))")
        let error = try #require(throws: DatabaseError.self) { _ = try db.fetchOne(Int.self, "SELECT b FROM t") }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.utf8.count < 1_000)
        #expect(error.message.contains("(8388608 bytes)"))
        let copied = try #require(try db.fetchOne(CopiedRow.self, "SELECT b FROM t"))
        let copiedError = try #require(throws: DatabaseError.self) { let _: Int = try copied[0] }
        #expect(copiedError.message.utf8.count < 1_000)
    }

    @Test func hugeTextArgumentsAreShortInDescriptions() throws {
        let text = String(repeating: "x", count: 1_000_000)
        let error = DatabaseError(resultCode: .error, message: "m", sql: "SELECT ?", arguments: [.text(text)])
        #expect(error.description.utf8.count < 1_000)
        #expect(error.description.contains("(1000000 bytes)"))
    }
}
