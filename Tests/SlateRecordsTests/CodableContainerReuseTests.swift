import Foundation
import Slate
import Testing

@testable import SlateRecords

/// Decoders keep their key lookups per statement, and binders keep one keyed container per
/// statement for every record; these tests pin down that the reuse never carries one type's keys or
/// one row's values over, and that what is kept is released with its owner.
@Suite struct CodableContainerReuseTests {
    struct KindOnly: Decodable, Equatable {
        var kind: String
    }

    struct LabelAndRadius: Decodable, Equatable {
        var label: String?
        var radius: Double?
    }

    struct Pair: Codable, Equatable {
        var a: Int
        var b: String?
    }

    func shapes() throws -> Database {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE shape(kind TEXT, radius REAL, label TEXT);
                INSERT INTO shape VALUES ('circle', 1.5, 'a'), ('square', NULL, NULL), ('circle', 3, 'c');
                """)
        return db
    }

    @Test func oneDecoderAlternatingTwoTypesOnOneStatementReadsEachTypesKeys() throws {
        let db = try shapes()
        let decoder = RowDecoder()
        let rows = try db.fetchAll("SELECT kind, radius, label FROM shape ORDER BY rowid") { row in
            (try decoder.decode(KindOnly.self, from: row), try decoder.decode(LabelAndRadius.self, from: row))
        }
        let kinds = rows.map(\.0)
        let rest = rows.map(\.1)
        #expect(kinds == [KindOnly(kind: "circle"), KindOnly(kind: "square"), KindOnly(kind: "circle")])
        #expect(
            rest == [
                LabelAndRadius(label: "a", radius: 1.5), LabelAndRadius(label: nil, radius: nil),
                LabelAndRadius(label: "c", radius: 3),
            ])
    }

    @Test func eachRowDecodesItsOwnValuesThroughTheKeptContainer() throws {
        let db = try shapes()
        let decoder = RowDecoder()
        let first = try db.fetchAll("SELECT kind FROM shape ORDER BY rowid") {
            try decoder.decode(KindOnly.self, from: $0)
        }
        // Another statement (other SQL): the decoder starts over, and the rows are this statement's.
        let second = try db.fetchAll("SELECT kind FROM shape ORDER BY rowid DESC") {
            try decoder.decode(KindOnly.self, from: $0)
        }
        #expect(first.map(\.kind) == ["circle", "square", "circle"])
        #expect(second.map(\.kind) == ["circle", "square", "circle"].reversed())
    }

    @Test func aDecodersStateIsReleasedWithTheDecoder() throws {
        let db = try shapes()
        weak var kept: RowDecodingState?
        weak var replaced: RowDecodingState?
        do {
            let decoder = RowDecoder()
            _ = try db.fetchAll("SELECT kind FROM shape") { try decoder.decode(KindOnly.self, from: $0) }
            replaced = decoder.state
            _ = try db.fetchAll("SELECT kind FROM shape WHERE radius > 1") {
                try decoder.decode(KindOnly.self, from: $0)
            }
            kept = decoder.state
        }
        let replacedAfterwards = replaced
        let keptAfterwards = kept
        // Each state kept a keyed container that refers back to it; neither cycle outlives its owner.
        #expect(replacedAfterwards == nil)
        #expect(keptAfterwards == nil)
    }

    @Test func aStatementsRecordBinderIsReleasedWithTheStatement() throws {
        let db = try Database()
        try db.execute(sql: "CREATE TABLE pair(a INTEGER, b TEXT)")
        weak var released: RecordBinder?
        do {
            let statement = try db.prepare(sql: "INSERT INTO pair(a, b) VALUES (?, ?)")
            let pairs: [Pair] = [Pair(a: 1, b: "x"), Pair(a: 2, b: nil), Pair(a: 3, b: "z")]
            for pair in pairs {
                let binder: RecordBinder = try statement.recordBinder(for: Pair.self, startingAt: 1) {
                    try RecordBinder(statement: statement, columns: ["a", "b"], columnNames: [:])
                }.takeUnretainedValue()
                try binder.bind(pair)
                released = binder
                try statement.run()
                try statement.reset()
            }
        }
        let afterwards = released
        #expect(afterwards == nil)
        let stored = try db.fetchAll(CopiedRow.self, "SELECT a, b FROM pair ORDER BY a").map { row in
            "\(try row.decode(Int.self, at: 0)):\(try row.decode(String?.self, at: 1) ?? "NULL")"
        }
        #expect(stored == ["1:x", "2:NULL", "3:z"])
    }
}
