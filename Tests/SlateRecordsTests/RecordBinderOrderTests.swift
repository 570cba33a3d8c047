import Foundation
import Slate
import Testing

@testable import SlateRecords

/// The record binder follows the first record's key order by comparing the keys' bits; these tests
/// pin down that a record that leaves that order (another order, a skipped or extra key, another key
/// type, a key type that is not plain data) still binds every column by name, and `NULL` to every
/// column it did not encode.
@Suite struct RecordBinderOrderTests {
    /// Encodes its keys in the order `order` names, leaving out the `nil` ones.
    struct Flexible: Encodable {
        enum CodingKeys: String, CodingKey { case a, b, c, d }

        var values: [(CodingKeys, Int?)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            for (key, value) in values {
                try container.encodeIfPresent(value, forKey: key)
            }
        }
    }

    /// Keys whose bits match `Flexible`'s (`d` is 0 here, `a` there), with other names.
    struct Reversed: Encodable {
        enum CodingKeys: String, CodingKey { case d, c, b, a }

        var d: Int
        var a: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(d, forKey: .d)
            try container.encode(a, forKey: .a)
        }
    }

    /// A key type that is not plain data: found by name for every record.
    struct NamedKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct ByName: Encodable {
        var pairs: [(String, Int)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            for (name, value) in pairs {
                try container.encode(value, forKey: NamedKey(stringValue: name))
            }
        }
    }

    /// Binds each record with one binder and inserts it; returns the rows as "a,b,c,d" text.
    func insert(_ records: [any Encodable], columnNames: [String: String] = [:]) throws -> [String] {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, b INTEGER, c INTEGER, d INTEGER)")
        let statement = try db.prepare(sql: "INSERT INTO t(a, b, c, d) VALUES (?, ?, ?, ?)")
        let binder = try RecordBinder(statement: statement, columns: ["a", "b", "c", "d"], columnNames: columnNames)
        // The binder keeps its keyed container, which refers back to it: outside a statement's
        // RecordBinderOwner, the test breaks that cycle itself (or the binder leaks).
        defer { binder.forgetKeyedContainer() }
        for record in records {
            try binder.bind(record)
            try statement.run()
            try statement.reset()
        }
        let rows: [CopiedRow] = try db.fetchAll(CopiedRow.self, "SELECT a, b, c, d FROM t ORDER BY rowid")
        return try rows.map { row in
            try (0..<4).map { index -> String in
                let value: Int? = try row.decode(Int?.self, at: index)
                return value.map(String.init) ?? "-"
            }.joined(separator: ",")
        }
    }

    @Test func recordsThatLeaveTheFirstOrderBindByName() throws {
        let records: [any Encodable] = [
            Flexible(values: [(.a, 1), (.b, 2), (.c, 3), (.d, 4)]),
            Flexible(values: [(.a, 5), (.b, 6), (.c, 7), (.d, 8)]),  // the same order
            Flexible(values: [(.d, 9), (.c, 10), (.b, 11), (.a, 12)]),  // reversed
            Flexible(values: [(.a, 13), (.b, nil), (.c, 15), (.d, 16)]),  // a key skipped in the middle
            Flexible(values: [(.a, 17), (.b, 18), (.c, nil), (.d, nil)]),  // trailing keys skipped
            Flexible(values: [(.a, nil), (.b, nil), (.c, nil), (.d, nil)]),  // nothing
            Flexible(values: [(.a, 19), (.b, 20), (.c, 21), (.d, 22)]),  // back in order
        ]
        let rows: [String] = try insert(records)
        #expect(rows == ["1,2,3,4", "5,6,7,8", "12,11,10,9", "13,-,15,16", "17,18,-,-", "-,-,-,-", "19,20,21,22"])
    }

    @Test func aFirstRecordWithoutSomeKeysLeavesThoseColumnsNull() throws {
        let records: [any Encodable] = [
            Flexible(values: [(.a, 1), (.c, 3)]),
            Flexible(values: [(.a, 5), (.c, 7)]),
            Flexible(values: [(.a, 8), (.b, 9), (.c, 10), (.d, 11)]),
            Flexible(values: [(.a, 12), (.c, 13)]),
        ]
        let rows: [String] = try insert(records)
        #expect(rows == ["1,-,3,-", "5,-,7,-", "8,9,10,11", "12,-,13,-"])
    }

    @Test func anotherKeyTypeWithTheSameBitsBindsByName() throws {
        let records: [any Encodable] = [
            Flexible(values: [(.a, 1), (.b, 2), (.c, 3), (.d, 4)]),
            Reversed(d: 40, a: 10),
            Flexible(values: [(.a, 5), (.b, 6), (.c, 7), (.d, 8)]),
        ]
        let rows: [String] = try insert(records)
        #expect(rows == ["1,2,3,4", "10,-,-,40", "5,6,7,8"])
    }

    @Test func keysThatAreNotPlainDataBindByName() throws {
        let records: [any Encodable] = [
            ByName(pairs: [("a", 1), ("b", 2), ("c", 3), ("d", 4)]),
            ByName(pairs: [("d", 5), ("a", 6)]),
            ByName(pairs: [("a", 7), ("b", 8), ("c", 9), ("d", 10)]),
        ]
        let rows: [String] = try insert(records)
        #expect(rows == ["1,2,3,4", "6,-,-,5", "7,8,9,10"])
    }

    @Test func extraKeysAreIgnoredAndRenamedKeysFindTheirColumn() throws {
        let records: [any Encodable] = [
            ByName(pairs: [("a", 1), ("extra", 99), ("renamed", 3)]),
            ByName(pairs: [("a", 4), ("extra", 98), ("renamed", 6)]),
        ]
        let rows: [String] = try insert(records, columnNames: ["renamed": "c"])
        #expect(rows == ["1,-,3,-", "4,-,6,-"])
        let flexible: [any Encodable] = [
            Flexible(values: [(.a, 1), (.b, 2)]),
            Flexible(values: [(.a, 3), (.b, 4)]),
        ]
        let renamed: [String] = try insert(flexible, columnNames: ["b": "d"])
        #expect(renamed == ["1,-,-,2", "3,-,-,4"])
    }

    @Test func twoKeysForOneColumnBindTheLastValueOnEveryRecord() throws {
        let records: [any Encodable] = [
            Flexible(values: [(.a, 1), (.b, 2)]),
            Flexible(values: [(.a, 3), (.b, 4)]),
            Flexible(values: [(.a, 5)]),
        ]
        // `b` is stored in column `a`: the later value wins, as it always did.
        let rows: [String] = try insert(records, columnNames: ["b": "a"])
        #expect(rows == ["2,-,-,-", "4,-,-,-", "5,-,-,-"])
    }

    @Test func aFirstRecordThatThrowsLeavesNoOrderBehind() throws {
        struct Failing: Encodable {
            enum CodingKeys: String, CodingKey { case a, b }
            var fails: Bool

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(1, forKey: .a)
                if fails {
                    throw EncodingError.invalidValue(0, EncodingError.Context(codingPath: [], debugDescription: "no"))
                }
                try container.encode(2, forKey: .b)
            }
        }
        let db = try Database()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, b INTEGER)")
        let statement = try db.prepare(sql: "INSERT INTO t(a, b) VALUES (?, ?)")
        let binder = try RecordBinder(statement: statement, columns: ["a", "b"], columnNames: [:])
        // The binder keeps its keyed container, which refers back to it: outside a statement's
        // RecordBinderOwner, the test breaks that cycle itself (or the binder leaks).
        defer { binder.forgetKeyedContainer() }
        #expect(throws: EncodingError.self) { try binder.bind(Failing(fails: true)) }
        try statement.reset()
        for _ in 0..<2 {
            try binder.bind(Failing(fails: false))
            try statement.run()
            try statement.reset()
        }
        let sums: [CopiedRow] = try db.fetchAll(CopiedRow.self, "SELECT count(*), sum(a), sum(b) FROM t")
        let count: Int = try sums[0].decode(Int.self, at: 0)
        let a: Int = try sums[0].decode(Int.self, at: 1)
        let b: Int = try sums[0].decode(Int.self, at: 2)
        #expect(count == 2)
        #expect(a == 2)
        #expect(b == 4)
    }

    /// Every integer width and `Bool`, at their extremes, through the binder's integer path; a
    /// `UInt64` too large for SQLite's INTEGER throws and leaves nothing inserted.
    struct Widths: CodableRecord, Equatable {
        static let tableName = "widths"
        var flag: Bool
        var i8: Int8
        var i16: Int16
        var i32: Int32
        var i64: Int64
        var int: Int
        var u8: UInt8
        var u16: UInt16
        var u32: UInt32
        var u64: UInt64
    }

    /// Parameters are `Int32`s to SQLite, and `bindColumns(to:startingAt:)` is public. A binder
    /// whose columns would lie outside `1...Int32.max` is refused with SQLite's range error (no
    /// overflow trap, no parameter taken for "not a column"); one whose last column is exactly `Int32.max` throws that error from SQLite
    /// for every record, the first and the later ones, and binds nothing elsewhere.
    @Test func parametersBeyondSQLitesRangeThrowInsteadOfTrapping() throws {
        let db: Database = try Database()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, b INTEGER, c INTEGER, d INTEGER)")
        let statement: Statement = try db.prepare(sql: "INSERT INTO t(a, b, c, d) VALUES (?, ?, ?, ?)")
        var refused: [ResultCode?] = []
        for firstIndex in [Int(Int32.max) - 2, Int(Int32.max), Int.max - 1, Int.max, 0, -3, Int.min] {
            do {
                _ = try RecordBinder(
                    statement: statement, columns: ["a", "b", "c", "d"], columnNames: [:], firstIndex: firstIndex)
                refused.append(nil)
            } catch let error as DatabaseError {
                refused.append(error.resultCode)
            }
        }
        let binder = try RecordBinder(
            statement: statement, columns: ["a", "b", "c", "d"], columnNames: [:], firstIndex: Int(Int32.max) - 3)
        // The binder keeps its keyed container, which refers back to it: outside a statement's
        // RecordBinderOwner, the test breaks that cycle itself (or the binder leaks).
        defer { binder.forgetKeyedContainer() }
        var codes: [ResultCode?] = []
        for value in 1...3 {
            do {
                try binder.bind(Flexible(values: [(.a, value), (.b, value), (.c, value), (.d, value)]))
                codes.append(nil)
            } catch let error as DatabaseError {
                codes.append(error.resultCode)
            }
        }
        let expectedRefusals: [ResultCode?] = [.range, .range, .range, .range, .range, .range, .range]
        let expectedCodes: [ResultCode?] = [.range, .range, .range]
        #expect(refused == expectedRefusals)
        #expect(codes == expectedCodes)
    }

    @Test func everyIntegerWidthBindsExactly() throws {
        let db = try Database()
        let low = Widths(
            flag: false, i8: .min, i16: .min, i32: .min, i64: .min, int: .min, u8: 0, u16: 0, u32: 0, u64: 0)
        let high = Widths(
            flag: true, i8: .max, i16: .max, i32: .max, i64: .max, int: .max, u8: .max, u16: .max, u32: .max, u64: 7)
        _ = try db.save(contentsOf: [low, high])
        let stored: [Widths] = try Widths.all().fetchAll(db)
        let expected: [Widths] = [low, high]
        #expect(stored == expected)
        let rows: [CopiedRow] = try db.fetchAll(
            CopiedRow.self, "SELECT typeof(flag), flag, i8, u32 FROM widths ORDER BY rowid")
        let raw: [String] = try rows.map { row in
            "\(try row.decode(String.self, at: 0)) \(try row.decode(Int64.self, at: 1)) \(try row.decode(Int64.self, at: 2)) \(try row.decode(Int64.self, at: 3))"
        }
        let expectedRaw: [String] = ["integer 0 -128 0", "integer 1 127 4294967295"]
        #expect(raw == expectedRaw)

        let tooLarge = Widths(flag: true, i8: 1, i16: 1, i32: 1, i64: 1, int: 1, u8: 1, u16: 1, u32: 1, u64: .max)
        var failure: DatabaseError?
        do {
            _ = try db.save(contentsOf: [high, tooLarge])
        } catch let error as DatabaseError {
            failure = error
        }
        let code: ResultCode? = failure?.resultCode
        #expect(code == .mismatch)
        let count: Int = try Widths.all().fetchCount(db)
        #expect(count == 2)
    }
}
