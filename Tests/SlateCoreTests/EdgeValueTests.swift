import Foundation
import Slate
import Testing

/// Values at the edges of what a type can hold: they bind, read back or throw, and never trap.
@Suite struct EdgeValueTests {
    @Test func datesBeyondMillisecondRangeThrowOrBindAsRealsInsteadOfTrapping() throws {
        let far = Date(timeIntervalSince1970: 1e17)  // 1e20 ms does not fit an Int64
        let iso = try Database.memory()
        // ISO-8601 text cannot hold the year: a clear error, not a value that does not read back.
        #expect(throws: DatabaseError.self) { try iso.fetchValue(String.self, "SELECT typeof(\(far))") }

        let milliseconds = try Database.memory { $0.dateStrategy = .unixMilliseconds }
        #expect(try milliseconds.fetchValue(Double.self, "SELECT \(far)") == 1e20)
        #expect(try milliseconds.fetchValue(Int64.self, "SELECT \(Date(timeIntervalSince1970: 1.5))") == 1500)
    }

    @Test func infiniteRealsDoNotConvertToDecimal() throws {
        let db = try Database.memory()
        do {
            _ = try db.fetchValue(Decimal.self, "SELECT 1e999")
            Issue.record("an infinite REAL read as Decimal should throw")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .mismatch)
        }
        #expect(try db.fetchValue(Decimal.self, "SELECT 2.5") == Decimal(2.5))
    }

    @Test func shiftedCopiesKeepValuesAlignedWithNames() throws {
        let db = try Database.memory()
        let row = try #require(try db.fetchOne(CopiedRow.self, "SELECT 1 AS a, 'two' AS b, 3.5 AS c"))
        row.withRow { row in
            let shifted = row.shifted(by: 1)
            #expect(shifted.columnNames == ["b", "c"])
            let expectedValues: [SQLValue] = [.text("two"), .real(3.5)]
            #expect(shifted.values.elementsEqual(expectedValues))
            #expect(shifted.copy().values.elementsEqual(expectedValues))
        }
    }
}
