import Foundation
import Slate
import Testing

/// A live `Row` cannot outlive its step: the compiler refuses code that keeps one
/// (`Tests/CompileFailures`, checked by `.ci/check-snippets.sh`). These tests show that the ways
/// to keep a row's values do keep them, whatever happens to the statement afterwards: stepping on,
/// reset, finalized by the statement cache, closed, or never cached at all. CI runs them under
/// AddressSanitizer (`.ci/sanitize-address.sh`), which reports any read of freed SQLite memory.
@Suite struct RowLifetimeTests {
    static let rowCount = 40
    static var select: SQL { "SELECT id, name, payload, score, note FROM item ORDER BY id" }

    /// Rows whose text and blobs are long enough to live in SQLite's heap, not in a page buffer.
    static func database(statementCacheCapacity: Int = 256) throws -> Database {
        let db = try Database.memory { $0.statementCacheCapacity = statementCacheCapacity }
        try db.execute(
            sql: """
                CREATE TABLE item(
                  id INTEGER PRIMARY KEY, name TEXT NOT NULL, payload BLOB NOT NULL, score REAL NOT NULL, note TEXT
                )
                """
        )
        for id in 1...rowCount {
            try db.execute(
                """
                INSERT INTO item(id, name, payload, score, note)
                VALUES (\(id), \(name(id)), \(payload(id)), \(score(id)), \(id.isMultiple(of: 3) ? nil : "note \(id)"))
                """)
        }
        return db
    }

    static func name(_ id: Int) -> String { "item \(id) " + String(repeating: "é", count: 50 + id * 7) }
    static func payload(_ id: Int) -> Data { Data((0..<(100 + id * 31)).map { UInt8(truncatingIfNeeded: $0 &* id) }) }
    static func score(_ id: Int) -> Double { Double(id) / 4 }

    /// Checks every value of a kept row against what was inserted.
    static func expectItem(_ row: CopiedRow, id: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(row.columnNames == ["id", "name", "payload", "score", "note"], sourceLocation: sourceLocation)
        #expect(try row[0] as Int == id, sourceLocation: sourceLocation)
        #expect(try row["name"] as String == name(id), sourceLocation: sourceLocation)
        #expect(try row.decode(Data.self, at: 2) == payload(id), sourceLocation: sourceLocation)
        #expect(try row["score"] as Double == score(id), sourceLocation: sourceLocation)
        #expect(
            try row["note"] as String? == (id.isMultiple(of: 3) ? nil : "note \(id)"), sourceLocation: sourceLocation)
    }

    static func expectItems(_ rows: [CopiedRow], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(rows.count == rowCount, sourceLocation: sourceLocation)
        for (index, row) in rows.enumerated() { try expectItem(row, id: index + 1, sourceLocation: sourceLocation) }
    }

    struct Item: RowDecodable, Equatable {
        var id: Int
        var name: String
        var payload: Data
        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            name = try row.decode(at: 1)
            payload = try row.decode(at: 2)
        }
    }

    @Test(arguments: [256, 1, 0])
    func copiesKeepTheirValuesPastTheirStep(statementCacheCapacity: Int) throws {
        let db = try Self.database(statementCacheCapacity: statementCacheCapacity)
        let copied = try db.fetchAll(Self.select) { $0.copy() }
        let fetched = try db.fetchAll(CopiedRow.self, Self.select)
        // The statement has stepped past every row, been reset, and maybe finalized.
        try Self.expectItems(copied)
        try Self.expectItems(fetched)
        #expect(copied == fetched)
    }

    @Test(arguments: [256, 1, 0])
    func cursorCopiesKeepTheirValuesWhileTheCursorStepsOn(statementCacheCapacity: Int) throws {
        let db = try Self.database(statementCacheCapacity: statementCacheCapacity)
        let cursor = try db.fetchCursor(CopiedRow.self, Self.select)
        var kept: [CopiedRow] = []
        while let row = try cursor.next() {
            kept.append(row)
            // Every earlier row is still right after the statement moved on.
            try Self.expectItem(kept[0], id: 1)
            try Self.expectItem(row, id: kept.count)
        }
        try Self.expectItems(kept)
    }

    @Test func copiesSurviveClearingTheStatementCache() throws {
        let db = try Self.database()
        let kept = try db.fetchAll(CopiedRow.self, Self.select)
        let first = try #require(
            try db.fetchOne(CopiedRow.self, "SELECT id, name, payload, score, note FROM item WHERE id = \(1)"))
        #expect(db.cachedStatementCount > 0)
        db.clearStatementCache()
        #expect(db.cachedStatementCount == 0)
        // New statements and values take the memory the finalized statements gave back.
        try db.execute("UPDATE item SET name = upper(name), payload = zeroblob(\(4096))")
        _ = try db.fetchAll(CopiedRow.self, Self.select)
        try Self.expectItems(kept)
        try Self.expectItem(first, id: 1)
        // And the statement prepared again reads the new values.
        #expect(try db.fetchOne(Data.self, "SELECT payload FROM item WHERE id = \(1)") == Data(count: 4096))
    }

    @Test func copiesSurviveClosingTheirCursorAndAnother() throws {
        let db = try Self.database()
        let first = try db.fetchCursor(CopiedRow.self, Self.select)
        let fromFirst = try #require(try first.next())
        // The same SQL while the first cursor holds the cached statement: a second statement.
        let second = try db.fetchCursor(CopiedRow.self, Self.select)
        let fromSecond = try #require(try second.next())
        _ = try second.next()
        second.close()
        try Self.expectItem(fromFirst, id: 1)
        try Self.expectItem(fromSecond, id: 1)
        // The first cursor goes on unharmed, then is closed in its turn.
        let next = try #require(try first.next())
        try Self.expectItem(next, id: 2)
        first.close()
        #expect(try first.next() == nil)
        try Self.expectItem(fromFirst, id: 1)
        try Self.expectItem(next, id: 2)
    }

    @Test func copiesSurviveTheirStatement() throws {
        let db = try Self.database()
        var statement: Statement? = try db.prepare(Self.select)
        var kept: [CopiedRow] = []
        while try statement?.step() == true {
            if let row = statement?.withCurrentRow({ $0.copy() }) { kept.append(row) }
        }
        statement = nil  // finalized
        try Self.expectItems(kept)
    }

    @Test(arguments: [256, 0])
    func aLiveRowReadsTheSameValuesAroundNestedQueries(statementCacheCapacity: Int) throws {
        let db = try Self.database(statementCacheCapacity: statementCacheCapacity)
        let ids = try db.fetchAll(Self.select) { row in
            let id: Int = try row[0]
            let before = row.copy()
            // The same SQL, stepped to its end, and another statement, while this row is lent.
            let inner = try db.fetchAll(CopiedRow.self, Self.select)
            #expect(inner.count == Self.rowCount)
            #expect(
                try db.fetchValue(String.self, "SELECT name FROM item WHERE id = \(Self.rowCount + 1 - id)")
                    == Self.name(Self.rowCount + 1 - id))
            #expect(row.copy() == before)
            try Self.expectItem(row.copy(), id: id)
            return id
        }
        #expect(ids == Array(1...Self.rowCount))
    }

    @Test func withoutAStatementCacheEveryReadReturnsItsOwnValue() throws {
        let db = try Self.database(statementCacheCapacity: 0)
        for id in [1, Self.rowCount, 2, 2, 17] {
            #expect(try db.fetchValue(String.self, "SELECT name FROM item WHERE id = \(id)") == Self.name(id))
            #expect(
                try db.fetchOne(Item.self, "SELECT id, name, payload FROM item WHERE id = \(id)")?.payload
                    == Self.payload(id))
            let row = try #require(
                try db.fetchOne(CopiedRow.self, "SELECT id, name, payload, score, note FROM item WHERE id = \(id)"))
            try Self.expectItem(row, id: id)
        }
        #expect(db.cachedStatementCount == 0)
        let items = try db.fetchAll(Item.self, Self.select)
        #expect(items.map(\.id) == Array(1...Self.rowCount))
        #expect(items.allSatisfy { $0.name == Self.name($0.id) && $0.payload == Self.payload($0.id) })
    }
}
