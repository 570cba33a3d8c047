import Foundation
import Slate
import Testing

@testable import SlateRecords

/// SQLite re-prepares a statement transparently after a schema change, and its result columns can
/// change with it (`SELECT *` after a dropped column, a table recreated in another column order).
/// What a statement or decoder learned from the columns before — the position of a read by name,
/// a Codable decoder's key order — must not read another column afterwards: every read below
/// would return the wrong column's value (3 for `b`) if it were kept.
@Suite struct SchemaChangeReadTests {
    struct Pair: Codable, CodableRecord, Equatable {
        static let tableName = "pair"
        var a: Int
        var b: Int
    }

    /// A `pair` table with a column `x` between `a` and `b`, and one row (1, 99, 2, 3).
    func pairs() throws -> Database {
        let db: Database = try Database()
        try db.execute(
            sql: "CREATE TABLE pair(a INTEGER, x INTEGER, b INTEGER, c INTEGER); INSERT INTO pair VALUES (1, 99, 2, 3)")
        return db
    }

    static func bByName(_ db: Database) throws -> [Int] {
        try db.fetchAll("SELECT * FROM pair") { row in try row.decode(Int.self, named: "b") }
    }

    @Test func readsByNameFollowADroppedColumn() throws {
        let db: Database = try pairs()
        let before: [Int] = try Self.bByName(db)
        try db.execute(sql: "ALTER TABLE pair DROP COLUMN x")
        let after: [Int] = try Self.bByName(db)
        let again: [Int] = try Self.bByName(db)
        #expect(before == [2])
        #expect(after == [2])
        #expect(again == [2])
    }

    @Test func readsByNameFollowATableRecreatedInAnotherOrder() throws {
        let db: Database = try pairs()
        let before: [Int] = try Self.bByName(db)
        try db.execute(
            sql: """
                CREATE TABLE pair2(b INTEGER, c INTEGER, a INTEGER);
                INSERT INTO pair2 SELECT b, c, a FROM pair;
                DROP TABLE pair;
                ALTER TABLE pair2 RENAME TO pair;
                """)
        let after: [Int] = try Self.bByName(db)
        let copied: [CopiedRow] = try db.fetchAll("SELECT * FROM pair") { row in row.copy() }
        let copiedB: Int = try #require(copied.first).decode(named: "b")
        #expect(before == [2])
        #expect(after == [2])
        #expect(copiedB == 2)
    }

    @Test func codableRecordsFollowADroppedColumn() throws {
        let db: Database = try pairs()
        let before: [Pair] = try db.fetchAll(Pair.self, "SELECT * FROM pair")
        try db.execute(sql: "ALTER TABLE pair DROP COLUMN x")
        let after: [Pair] = try db.fetchAll(Pair.self, "SELECT * FROM pair")
        #expect(before == [Pair(a: 1, b: 2)])
        #expect(after == [Pair(a: 1, b: 2)])
    }

    @Test func aRowDecoderFollowsADroppedColumnAndKeepsItsOrderOtherwise() throws {
        let db: Database = try pairs()
        let decoder: RowDecoder = RowDecoder()
        let first: [Pair] = try db.fetchAll("SELECT * FROM pair") { row in try decoder.decode(Pair.self, from: row) }
        let firstState: RowDecodingState? = decoder.state
        let second: [Pair] = try db.fetchAll("SELECT * FROM pair") { row in try decoder.decode(Pair.self, from: row) }
        // No schema change: the key order learned from the first run is kept.
        let keptState: Bool = decoder.state === firstState
        try db.execute(sql: "ALTER TABLE pair DROP COLUMN x")
        let third: [Pair] = try db.fetchAll("SELECT * FROM pair") { row in try decoder.decode(Pair.self, from: row) }
        let replacedState: Bool = decoder.state !== firstState
        #expect(first == [Pair(a: 1, b: 2)])
        #expect(second == [Pair(a: 1, b: 2)])
        #expect(third == [Pair(a: 1, b: 2)])
        #expect(keptState)
        #expect(replacedState)
    }

    @Test func aDroppedColumnThatWasReadThrowsInsteadOfReadingAnother() throws {
        let db: Database = try pairs()
        let before: [Int] = try db.fetchAll("SELECT * FROM pair") { row in try row.decode(Int.self, named: "x") }
        try db.execute(sql: "ALTER TABLE pair DROP COLUMN x")
        var thrown: DatabaseError?
        do {
            _ = try db.fetchAll("SELECT * FROM pair") { row in try row.decode(Int.self, named: "x") }
        } catch let error as DatabaseError {
            thrown = error
        }
        #expect(before == [99])
        #expect(thrown != nil)
    }
}
