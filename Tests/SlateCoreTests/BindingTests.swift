import Foundation
import Slate
import Testing

/// S4: every standard type binds and reads back, through both the fast path (a live row) and the
/// boxed path (a copied row).
@Suite struct BindingTests {
    func roundTrip<Value: SQLValueConvertible & Equatable>(_ value: Value, expectStorage storage: String? = nil) throws
    {
        let db = try Database.memory()
        let live = try db.fetchValue(Value.self, "SELECT \(value)")
        #expect(live == value)
        let copied = try #require(try db.fetchOne(CopiedRow.self, "SELECT \(value) AS v"))
        #expect(try copied.decode(Value.self, at: 0) == value)
        #expect(try Value(sqlValue: value.sqlValue) == value)
        if let storage {
            #expect(try db.fetchValue(String.self, "SELECT typeof(\(value))") == storage)
        }
    }

    @Test func integersOfEveryWidth() throws {
        try roundTrip(Int.max, expectStorage: "integer")
        try roundTrip(Int.min)
        try roundTrip(Int8.min)
        try roundTrip(Int8.max)
        try roundTrip(Int16.min)
        try roundTrip(Int32.max)
        try roundTrip(Int64.min)
        try roundTrip(UInt.min)
        try roundTrip(UInt8.max)
        try roundTrip(UInt16.max)
        try roundTrip(UInt32.max)
        try roundTrip(UInt64(Int64.max))
    }

    @Test func boolsAreIntegers() throws {
        try roundTrip(true, expectStorage: "integer")
        try roundTrip(false)
        let db = try Database.memory()
        #expect(try db.fetchValue(Int.self, "SELECT \(true)") == 1)
        #expect(try db.fetchValue(Bool.self, "SELECT 7") == true)
    }

    @Test func floatingPoint() throws {
        try roundTrip(3.25, expectStorage: "real")
        try roundTrip(Float(1.5))
        try roundTrip(-Double.greatestFiniteMagnitude)
        let db = try Database.memory()
        #expect(try db.fetchValue(Double.self, "SELECT 3") == 3.0)
    }

    @Test func textAndBytes() throws {
        try roundTrip("héllo wörld 🌍", expectStorage: "text")
        try roundTrip("")
        try roundTrip("with\u{0}nul")
        try roundTrip(Data([0, 1, 2, 255]), expectStorage: "blob")
        try roundTrip(Data(), expectStorage: "blob")
        try roundTrip([UInt8]([9, 8, 7]), expectStorage: "blob")
    }

    @Test func foundationTypes() throws {
        try roundTrip(URL(string: "https://example.com/a?b=c")!, expectStorage: "text")
        try roundTrip(UUID(), expectStorage: "text")
        try roundTrip(Decimal(string: "12345678901234567890.123456789")!, expectStorage: "text")
        try roundTrip(Date(timeIntervalSince1970: 1_700_000_000.123), expectStorage: "text")
    }

    @Test func uuidReadsEitherCaseAndSixteenByteBlobs() throws {
        let db = try Database.memory()
        let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try db.fetchValue(UUID.self, "SELECT 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'") == uuid)
        #expect(try db.fetchValue(UUID.self, "SELECT \(UUIDStorage.blob.sqlValue(for: uuid))") == uuid)
        #expect(try db.fetchValue(Int.self, "SELECT length(\(UUIDStorage.blob.sqlValue(for: uuid)))") == 16)
        let statement = try db.prepare(sql: "SELECT typeof(?)")
        try statement.bind(uuid, at: 1, storage: .blob)
        #expect(try statement.step())
        #expect(try statement.withCurrentRow { try $0.decode(String.self, at: 0) } == "blob")
    }

    @Test func optionalsBindNullAndReadNil() throws {
        let db = try Database.memory()
        let missing: Int? = nil
        #expect(try db.fetchValue(String.self, "SELECT typeof(\(missing))") == "null")
        #expect(try db.fetchValue(Int?.self, "SELECT NULL") == nil)
        #expect(try db.fetchValue(Int?.self, "SELECT 4") == 4)
        #expect(try db.fetchValue(String?.self, "SELECT \(Optional("x"))") == "x")
    }

    enum DownloadState: Int, SQLValueConvertible {
        case pending, downloading, downloaded
    }

    enum Colour: String, SQLValueConvertible {
        case red, green
    }

    @Test func rawRepresentableEnums() throws {
        try roundTrip(DownloadState.downloaded, expectStorage: "integer")
        try roundTrip(Colour.green, expectStorage: "text")
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) { try db.fetchValue(DownloadState.self, "SELECT 9") }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("no such raw value"))
    }

    /// A user type adopting the public protocols through its boxed form only.
    struct Cents: SQLValueConvertible, Equatable {
        var amount: Int
        init(amount: Int) { self.amount = amount }
        var sqlValue: SQLValue { .integer(Int64(amount)) }
        init(sqlValue: SQLValue) throws { amount = try Int(sqlValue: sqlValue) }
    }

    /// A user type that implements the fast path too.
    struct Point: SQLValueConvertible, Equatable {
        var x: Int32, y: Int32
        var sqlValue: SQLValue { .text("\(x),\(y)") }
        func bind(to statement: Statement, at index: Int) throws { try statement.bindText("\(x),\(y)", at: index) }
        init(x: Int32, y: Int32) {
            self.x = x
            self.y = y
        }
        init(sqlValue: SQLValue) throws {
            let parts = try String(sqlValue: sqlValue).split(separator: ",").compactMap { Int32($0) }
            guard parts.count == 2 else { throw DatabaseError(resultCode: .mismatch, message: "not a point") }
            (x, y) = (parts[0], parts[1])
        }
    }

    @Test func userTypesThroughPublicProtocols() throws {
        try roundTrip(Cents(amount: 1250), expectStorage: "integer")
        try roundTrip(Point(x: 3, y: -4), expectStorage: "text")
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) { try db.fetchValue(Point.self, "SELECT 'nope'") }
        #expect(error.message.contains("not a point"))
        #expect(error.message.contains("column 0"))
    }

    @Test func uint64AboveInt64MaxCannotBeBound() throws {
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT \(UInt64.max)") }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("18446744073709551615"))
    }
}

/// Strict extraction: what converts, and what throws.
@Suite struct ExtractionTests {
    @Test func nullIntoNonOptionalThrowsMismatchWithColumnAndSQL() throws {
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT NULL AS score") }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("NULL"))
        #expect(error.message.contains("score"))
        #expect(error.sql == "SELECT NULL AS score")
        for query: SQL in ["SELECT NULL"] {
            #expect(throws: DatabaseError.self) { try db.fetchValue(String.self, query) }
            #expect(throws: DatabaseError.self) { try db.fetchValue(Double.self, query) }
            #expect(throws: DatabaseError.self) { try db.fetchValue(Data.self, query) }
            #expect(throws: DatabaseError.self) { try db.fetchValue(Date.self, query) }
            #expect(throws: DatabaseError.self) { try db.fetchValue(UUID.self, query) }
        }
    }

    @Test func integerOverflowOnExtractionThrows() throws {
        let db = try Database.memory()
        #expect(try db.fetchValue(UInt8.self, "SELECT 255") == 255)
        let error = try #require(throws: DatabaseError.self) { try db.fetchValue(UInt8.self, "SELECT 256") }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("overflow"))
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int8.self, "SELECT -129") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int32.self, "SELECT 4294967296") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(UInt.self, "SELECT -1") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(UInt64.self, "SELECT -1") }
        // The boxed path checks too.
        let row = try #require(try db.fetchOne(CopiedRow.self, "SELECT 300"))
        #expect(throws: DatabaseError.self) { try row.decode(UInt8.self, at: 0) }
    }

    @Test func losslessConversionsSucceed() throws {
        let db = try Database.memory()
        #expect(try db.fetchValue(Int.self, "SELECT 4.0") == 4)
        #expect(try db.fetchValue(Int.self, "SELECT '42'") == 42)
        #expect(try db.fetchValue(Double.self, "SELECT '2.5'") == 2.5)
        #expect(try db.fetchValue(String.self, "SELECT 12") == "12")
        #expect(try db.fetchValue(Data.self, "SELECT 'ab'") == Data("ab".utf8))
    }

    @Test func lossyRealsThrowOnBothPaths() throws {
        // Reals used to truncate on the live path (4.5 → 4, 1e300 → Int64.max); now neither row
        // kind changes a value silently (every rule: ExactReadTests).
        let db = try Database.memory()
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT 4.5") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT -2.7") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int64.self, "SELECT 1e300") }
        let row = try #require(try db.fetchOne(CopiedRow.self, "SELECT 4.5, 1e300"))
        #expect(throws: DatabaseError.self) { try row.decode(Int.self, at: 0) }
        #expect(throws: DatabaseError.self) { try row.decode(Int64.self, at: 1) }
        #expect(try db.fetchValue(Lenient<Int64>.self, "SELECT 1e300").value == .max)
    }

    @Test func meaninglessConversionsThrow() throws {
        let db = try Database.memory()
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT 'forty-two'") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Double.self, "SELECT 'forty-two'") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Double.self, "SELECT NULL") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT x'00'") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(String.self, "SELECT x'00'") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(URL.self, "SELECT 5") }
    }

    @Test func columnIndexOutOfRangeThrowsRange() throws {
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) {
            try db.fetchAll("SELECT 1") { row in try row.decode(Int.self, at: 3) }
        }
        #expect(error.resultCode == .range)
        let optional = try #require(throws: DatabaseError.self) {
            try db.fetchAll("SELECT 1") { row in try row.decode(Int?.self, at: 3) }
        }
        #expect(optional.resultCode == .range)
    }
}
