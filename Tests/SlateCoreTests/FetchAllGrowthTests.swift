import Foundation
import Slate
import Testing

/// `fetchAll` builds its array without `append`, growing it by moving the elements into larger
/// storage: every row arrives once and in order across the growth steps, and a failure on any row
/// destroys exactly the elements built before it.
@Suite struct FetchAllGrowthTests {
    struct Numbered: RowDecodable, Equatable {
        var number: Int
        var label: String
        init(number: Int, label: String) {
            self.number = number
            self.label = label
        }
        init(row: borrowing Row) throws {
            number = try row.decode(at: 0)
            label = try row.decode(at: 1)
        }
    }

    /// Counts the elements alive: each one holds a token that decrements the count when destroyed.
    final class LiveCount {
        var value = 0
    }

    final class Token {
        let count: LiveCount
        let number: Int
        init(_ count: LiveCount, number: Int) {
            self.count = count
            self.number = number
            count.value += 1
        }
        deinit { count.value -= 1 }
    }

    /// `count` rows `(i, 'row i')` for i = 1 … count; with `failingAt`, that row's number is text,
    /// which an `Int` read refuses.
    static func numbersSQL(count: Int, failingAt failing: Int = 0) -> String {
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
        SELECT CASE WHEN i = \(failing) THEN 'not a number' ELSE i END, 'row ' || i FROM n WHERE i <= \(count)
        """
    }

    static func expected(count: Int) -> [Numbered] {
        var records: [Numbered] = []
        for number in 0..<count {
            records.append(Numbered(number: number + 1, label: "row \(number + 1)"))
        }
        return records
    }

    @Test(arguments: [0, 1, 7, 8, 9, 16, 17, 1000])
    func everyRowOnceInOrder(count: Int) throws {
        let db = try Database.memory()
        let sql: String = Self.numbersSQL(count: count)
        let expected: [Numbered] = Self.expected(count: count)

        let records: [Numbered] = try db.fetchAll(Numbered.self, sql: sql)
        #expect(records == expected)

        let labels: [String] = try db.fetchAll(SQL(sql: sql)) { row in try row.decode(String.self, at: 1) }
        let expectedLabels: [String] = expected.map(\.label)
        #expect(labels == expectedLabels)

        let numbers: [Int] = try db.fetchAll(Int.self, sql: sql)
        let expectedNumbers: [Int] = expected.map(\.number)
        #expect(numbers == expectedNumbers)
    }

    @Test(arguments: [1, 8, 9, 17, 300])
    func failureDestroysTheBuiltElements(failingAt failing: Int) throws {
        let db = try Database.memory()
        let live = LiveCount()
        let sql = SQL(sql: Self.numbersSQL(count: 500, failingAt: failing))
        var built = 0
        let error: DatabaseError = try #require(throws: DatabaseError.self) {
            _ = try db.fetchAll(sql) { row -> Token in
                let token = Token(live, number: try row.decode(at: 0))
                built += 1
                return token
            }
        }
        #expect(error.resultCode == .mismatch)
        #expect(built == failing - 1)
        // Every element built before the failing row was destroyed, none twice.
        #expect(live.value == 0)

        // The statement is usable again: a full fetch keeps every token alive until it is dropped.
        var tokens: [Token]? = try db.fetchAll(SQL(sql: Self.numbersSQL(count: 500))) { row in
            Token(live, number: try row.decode(at: 0))
        }
        let numbers: [Int] = tokens?.map(\.number) ?? []
        let expectedNumbers: [Int] = Array(1...500)
        #expect(numbers == expectedNumbers)
        #expect(live.value == 500)
        tokens = nil
        #expect(live.value == 0)
    }

    @Test func failingStepDestroysTheBuiltElements() throws {
        let db = try Database.memory()
        let live = LiveCount()
        // abs(Int64.min) fails at run time, on row 20, after 19 rows were built (two growth steps).
        let sql = SQL(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
                SELECT CASE WHEN i = 20 THEN abs(-9223372036854775807 - 1) ELSE i END FROM n
                """)
        let error: DatabaseError = try #require(throws: DatabaseError.self) {
            _ = try db.fetchAll(sql) { row in Token(live, number: try row.decode(at: 0)) }
        }
        #expect(error.sql?.contains("abs(") == true)
        #expect(live.value == 0)
    }
}
