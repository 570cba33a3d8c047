import Foundation
import Slate
import Testing

/// `Table.bindEach(of:to:startingAt:_:)`, the loop of a bulk insert: every record bound in order,
/// the statement reset before each one, `body` called with each position once — through the
/// default (a hand-written table) and through `CodableRecord`'s, which finds its binder once.
@Suite struct BindEachTests {
    struct CodablePair: Codable, CodableRecord, Equatable {
        static let tableName = "codable_pair"
        var a: Int
        var b: String?
    }

    struct HandWrittenPair: Table, Equatable {
        var a: Int
        var b: String?

        static let schema = TableSchema(
            name: "hand_written_pair",
            columns: [.init(name: "a", type: "INTEGER", isNotNull: true), .init(name: "b", type: "TEXT")])

        struct Columns: TableColumns {
            let a: Column<HandWrittenPair, Int>
            let b: Column<HandWrittenPair, String?>
            init(qualifier: String) {
                a = Column(qualifier, "a")
                b = Column(qualifier, "b")
            }
        }

        init(a: Int, b: String?) {
            self.a = a
            self.b = b
        }

        init(row: borrowing Row) throws {
            a = try row.decode(at: 0)
            b = try row.decode(at: 1)
        }

        func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
            try encoder.encode(a)
            try encoder.encode(b)
        }
    }

    /// Runs `bindEach` for `records` into `table(a, b)` through one statement, running it in
    /// `body`; returns the positions `body` saw and the rows stored, as "a:b" text.
    static func bindEach<Record: Table>(_ records: [Record], table: String) throws -> (positions: [Int], rows: [String])
    {
        let db: Database = try Database()
        try db.execute(sql: "CREATE TABLE \(table)(a INTEGER NOT NULL, b TEXT)")
        let statement: Statement = try db.prepare(sql: "INSERT INTO \(table)(a, b) VALUES (?, ?)")
        var positions: [Int] = []
        try records.withUnsafeBufferPointer { buffer in
            try Record.bindEach(of: buffer, to: statement, startingAt: 1) { position in
                positions.append(position)
                try statement.run()
            }
        }
        // The table name is the test's own constant, written into the SQL (an interpolation
        // in a `SQL` literal would bind it as a value).
        let rows: [String] = try db.fetchAll(SQL(sql: "SELECT a, b FROM \(table) ORDER BY rowid")) { row in
            "\(try row.decode(Int.self, at: 0)):\(try row.decode(String?.self, at: 1) ?? "NULL")"
        }
        return (positions, rows)
    }

    @Test func theDefaultBindsEveryRecordInOrder() throws {
        let records: [HandWrittenPair] = [
            HandWrittenPair(a: 1, b: "x"), HandWrittenPair(a: 2, b: nil), HandWrittenPair(a: 3, b: "z"),
        ]
        let result: (positions: [Int], rows: [String]) = try Self.bindEach(records, table: "hand_written_pair")
        #expect(result.positions == [0, 1, 2])
        #expect(result.rows == ["1:x", "2:NULL", "3:z"])
    }

    @Test func codableRecordsBindEveryRecordInOrder() throws {
        // A nil in the middle: synthesized Codable skips it, and the binder binds NULL there, not
        // the previous record's value.
        let records: [CodablePair] = [CodablePair(a: 1, b: "x"), CodablePair(a: 2, b: nil), CodablePair(a: 3, b: "z")]
        let result: (positions: [Int], rows: [String]) = try Self.bindEach(records, table: "codable_pair")
        #expect(result.positions == [0, 1, 2])
        #expect(result.rows == ["1:x", "2:NULL", "3:z"])
    }

    @Test func noRecordsCallNothing() throws {
        let empty: (positions: [Int], rows: [String]) = try Self.bindEach([CodablePair](), table: "codable_pair")
        let emptyDefault: (positions: [Int], rows: [String]) = try Self.bindEach(
            [HandWrittenPair](), table: "hand_written_pair")
        #expect(empty.positions.isEmpty)
        #expect(empty.rows.isEmpty)
        #expect(emptyDefault.positions.isEmpty)
        #expect(emptyDefault.rows.isEmpty)
    }

    /// A record that fails to bind stops the loop there: `body` is not called for it or after it.
    @Test func aRecordThatCannotBeBoundStopsTheLoop() throws {
        struct Wide: Codable, CodableRecord {
            static let tableName = "wide"
            var a: UInt64
            var b: String?
        }
        let db: Database = try Database()
        try db.execute(sql: "CREATE TABLE wide(a INTEGER NOT NULL, b TEXT)")
        let statement: Statement = try db.prepare(sql: "INSERT INTO wide(a, b) VALUES (?, ?)")
        let records: [Wide] = [Wide(a: 1, b: "x"), Wide(a: .max, b: "y"), Wide(a: 3, b: "z")]
        var positions: [Int] = []
        var code: ResultCode?
        do {
            try records.withUnsafeBufferPointer { buffer in
                try Wide.bindEach(of: buffer, to: statement, startingAt: 1) { position in
                    positions.append(position)
                    try statement.run()
                }
            }
        } catch let error as DatabaseError {
            code = error.resultCode
        }
        let count: Int? = try db.fetchOne(Int.self, "SELECT count(*) FROM wide")
        #expect(positions == [0])
        #expect(code == .mismatch)
        #expect(count == 1)
    }
}
