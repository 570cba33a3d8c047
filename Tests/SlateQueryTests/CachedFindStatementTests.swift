import Foundation
import Slate
import SlateTestSupport
import Testing

/// `find(key)` reuses the statement kept for its record type without resetting it first when
/// nothing stepped it since its last use; a statement that other code left on a row or at the end
/// of its rows (through the public `cachedStatement(sql:)`, which shares it) is reset before the
/// key is bound, so the lookup neither fails nor returns another row.
@Suite struct CachedFindStatementTests {
    /// The text of the statement `find` runs, as the connection traced it.
    private func findSQL(_ db: Database) throws -> String {
        final class Box: @unchecked Sendable { var text: String? }
        let box = Box()
        let observation = db.trace(.statement) { event in
            if case .statement(let statement) = event { box.text = statement.sql }
        }
        _ = try Employee.find(1).fetchOne(db)
        observation.cancel()
        return try #require(box.text)
    }

    @Test func aLookupAfterTheSharedStatementWasLeftOnARowFindsItsOwnRow() throws {
        let db = try Database.chinook()
        let sql = try findSQL(db)
        let shared = try db.cachedStatement(sql: sql)
        try shared.bindInt64(2, at: 1)
        let onRow = try shared.step()
        #expect(onRow)
        let found = try Employee.find(5).fetchOne(db)
        #expect(found?.employeeId == 5)
        let again = try Employee.find(6).fetchOne(db)
        #expect(again?.employeeId == 6)
    }

    @Test func aLookupAfterTheSharedStatementRanToTheEndFindsItsOwnRow() throws {
        let db = try Database.chinook()
        let sql = try findSQL(db)
        let shared = try db.cachedStatement(sql: sql)
        try shared.bindInt64(3, at: 1)
        let first = try shared.step()
        let second = try shared.step()
        #expect(first)
        #expect(!second)
        // At the end of its rows SQLite refuses new bindings until a reset: the lookup resets it.
        let found = try Employee.find(4).fetchOne(db)
        #expect(found?.employeeId == 4)
        let missing = try Employee.find(999).fetchOne(db)
        #expect(missing == nil)
        let afterMissing = try Employee.find(7).fetchOne(db)
        #expect(afterMissing?.employeeId == 7)
    }

    @Test func repeatedLookupsReturnEachKeysRow() throws {
        let db = try Database.chinook()
        let ids: [Int64] = [1, 8, 1, 3, 999, 2]
        for id in ids {
            let found = try Employee.find(id).fetchOne(db)
            let expected: Int64? = id == 999 ? nil : id
            #expect(found?.employeeId == expected)
        }
    }
}
