import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateRecords

/// A Codable integer property reads an INTEGER of a live row in the container's own `decode` (session
/// 42); every other case goes on to the integer rules of `SQLExtractable`: these tests check both.
@Suite struct CodableIntegerReadTests {
    struct Small: Decodable, Equatable {
        var a: Int8
        var b: UInt16
        var c: Int
    }

    func fetch(_ sql: SQL) throws -> [Small] {
        let db = try Database()
        let decoder = RowDecoder()
        return try db.fetchAll(sql) { row in try decoder.decode(Small.self, from: row) }
    }

    /// Whether `body` threw a ``DatabaseError`` with ``ResultCode/mismatch``.
    func mismatch(_ body: () throws -> Void) -> Bool {
        capturedDatabaseError(body)?.resultCode == .mismatch
    }

    @Test func integersThatFitReadAsStored() throws {
        let rows = try fetch("SELECT -128 AS a, 65535 AS b, 9223372036854775807 AS c UNION ALL SELECT 127, 0, -1")
        #expect(rows == [Small(a: -128, b: 65535, c: .max), Small(a: 127, b: 0, c: -1)])
    }

    @Test func anIntegerOutOfRangeThrowsRatherThanWrapping() {
        #expect(mismatch { _ = try fetch("SELECT 128 AS a, 0 AS b, 0 AS c") })
        #expect(mismatch { _ = try fetch("SELECT 0 AS a, -1 AS b, 0 AS c") })
        #expect(mismatch { _ = try fetch("SELECT 0 AS a, 65536 AS b, 0 AS c") })
    }

    @Test func otherStorageClassesFollowTheExactRules() throws {
        // A whole REAL and integer TEXT read exactly, as `extract` reads them.
        let rows = try fetch("SELECT 3.0 AS a, '42' AS b, 7 AS c")
        #expect(rows == [Small(a: 3, b: 42, c: 7)])
        #expect(mismatch { _ = try fetch("SELECT 2.5 AS a, 0 AS b, 0 AS c") })
        #expect(mismatch { _ = try fetch("SELECT 0 AS a, 'x' AS b, 0 AS c") })
        #expect(mismatch { _ = try fetch("SELECT 0 AS a, 0 AS b, X'00' AS c") })
    }

    @Test func aNullForANonOptionalIntegerThrows() {
        #expect(throws: (any Error).self) { _ = try fetch("SELECT NULL AS a, 0 AS b, 0 AS c") }
    }

    @Test func aCopiedRowReadsTheSameValues() throws {
        let db = try Database()
        let copies = try db.fetchAll(CopiedRow.self, "SELECT 5 AS a, 6 AS b, 7 AS c")
        let decoder = RowDecoder()
        let rows = try copies.map { try decoder.decode(Small.self, from: $0) }
        #expect(rows == [Small(a: 5, b: 6, c: 7)])
        let outOfRange = try db.fetchAll(CopiedRow.self, "SELECT 300 AS a, 6 AS b, 7 AS c")
        #expect(mismatch { _ = try decoder.decode(Small.self, from: outOfRange[0]) })
    }
}
