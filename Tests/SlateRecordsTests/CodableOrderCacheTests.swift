import Foundation
import Slate
import Testing

/// A record whose decoding asks for different keys depending on the row: the decoder's
/// per-statement key order must not carry one row's shape over to the next.
struct Shape: Decodable, Equatable {
    enum Kind: String, Decodable { case circle, rectangle }
    enum CodingKeys: String, CodingKey { case kind, radius, width, height, label }

    var kind: Kind
    var radius: Double?
    var width: Double?
    var height: Double?
    var label: String?

    init(kind: Kind, radius: Double? = nil, width: Double? = nil, height: Double? = nil, label: String? = nil) {
        self.kind = kind
        self.radius = radius
        self.width = width
        self.height = height
        self.label = label
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        switch kind {
        case .circle:
            radius = try container.decode(Double.self, forKey: .radius)
        case .rectangle:
            height = try container.decode(Double.self, forKey: .height)
            width = try container.decode(Double.self, forKey: .width)
        }
        label = try container.decodeIfPresent(String.self, forKey: .label)
    }
}

struct Reading: CodableRecord, Equatable {
    var id: Int64?
    var sensor: String
    var value: Double?
    var note: String?
    var takenAt: Date?
    var count: Int?

    static let columnNames = ["takenAt": "taken_at"]

    mutating func didInsert(rowID: Int64) { id = rowID }
}

@Suite struct CodableOrderCacheTests {
    @Test func rowsThatAskForDifferentKeysDecodeCorrectly() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE shape(kind TEXT, radius REAL, width REAL, height REAL, label TEXT);
                INSERT INTO shape VALUES ('circle', 1.5, NULL, NULL, 'a'), ('rectangle', NULL, 2, 3, NULL),
                    ('rectangle', NULL, 4, 5, 'c'), ('circle', 6, NULL, NULL, NULL), ('circle', 7, NULL, NULL, 'e');
                """)
        let decoder = RowDecoder()
        let shapes = try db.fetchAll("SELECT * FROM shape ORDER BY rowid") { try decoder.decode(Shape.self, from: $0) }
        #expect(
            shapes == [
                Shape(kind: .circle, radius: 1.5, label: "a"),
                Shape(kind: .rectangle, width: 2, height: 3),
                Shape(kind: .rectangle, width: 4, height: 5, label: "c"),
                Shape(kind: .circle, radius: 6),
                Shape(kind: .circle, radius: 7, label: "e"),
            ])
    }

    @Test func copiedAndHandMadeRowsDecodeLikeLiveOnes() throws {
        let db = try Database()
        try db.execute(
            sql: """
                CREATE TABLE shape(kind TEXT, radius REAL, width REAL, height REAL, label TEXT);
                INSERT INTO shape VALUES ('circle', 1.5, NULL, NULL, 'a'), ('rectangle', NULL, 2, 3, NULL);
                """)
        let decoder = RowDecoder()
        let copies = try db.fetchAll(CopiedRow.self, "SELECT * FROM shape ORDER BY rowid")
        #expect(
            try copies.map { try decoder.decode(Shape.self, from: $0) } == [
                Shape(kind: .circle, radius: 1.5, label: "a"), Shape(kind: .rectangle, width: 2, height: 3),
            ])
        let handMade = CopiedRow(
            columnNames: ["label", "kind", "radius"], values: [.text("h"), .text("circle"), .real(4)])
        #expect(try decoder.decode(Shape.self, from: handMade) == Shape(kind: .circle, radius: 4, label: "h"))
    }

    @Test func oneDecoderFollowsEachStatementsColumns() throws {
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE shape(kind TEXT, radius REAL, label TEXT); INSERT INTO shape VALUES ('circle', 2, 'x')")
        let decoder = RowDecoder()
        let first = try db.fetchAll("SELECT kind, radius, label FROM shape") {
            try decoder.decode(Shape.self, from: $0)
        }
        let reordered = try db.fetchAll("SELECT label, radius, kind FROM shape") {
            try decoder.decode(Shape.self, from: $0)
        }
        let withoutLabel = try db.fetchAll("SELECT radius, kind FROM shape") {
            try decoder.decode(Shape.self, from: $0)
        }
        #expect(first == [Shape(kind: .circle, radius: 2, label: "x")])
        #expect(reordered == first)
        #expect(withoutLabel == [Shape(kind: .circle, radius: 2)])

        do {
            _ = try db.fetchAll("SELECT kind, label FROM shape") { try decoder.decode(Shape.self, from: $0) }
            Issue.record("decoding a circle without a radius column should throw")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "radius")
            #expect(context.debugDescription.contains("no column radius"))
        }
    }

    @Test func bulkSaveBindsNullForEveryOptionalARecordLeavesOut() throws {
        let db = try Database()
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let readings = [
            Reading(sensor: "a", value: 1.5, note: "first", takenAt: date, count: 3),
            Reading(sensor: "b", value: nil, note: nil, takenAt: nil, count: nil),
            Reading(sensor: "c", value: 2.5, note: nil, takenAt: date, count: nil),
            Reading(sensor: "d", value: nil, note: "last", takenAt: nil, count: 7),
        ]
        let saved = try db.save(contentsOf: readings)
        #expect(saved.map(\.id) == [1, 2, 3, 4])
        #expect(try Reading.order { $0.id }.fetchAll(db) == saved)
        // The values previous records bound never leak into a later one's NULLs.
        let nulls = try db.fetchAll(
            CopiedRow.self,
            "SELECT value IS NULL, note IS NULL, taken_at IS NULL, count IS NULL FROM Reading ORDER BY id"
        )
        .map { row in try (0..<4).map { try row.decode(Bool.self, at: $0) } }
        #expect(
            nulls == [
                [false, false, false, false], [true, true, true, true], [false, true, false, true],
                [true, false, true, false],
            ])
    }

    @Test func bulkSaveUpdatesByKeyAndKeepsGivenKeys() throws {
        let db = try Database()
        try db.save(contentsOf: [Reading(id: 10, sensor: "a", value: 1), Reading(sensor: "b", value: 2)])
        let updated = try db.save(contentsOf: [
            Reading(id: 10, sensor: "a", value: nil, note: "changed"), Reading(sensor: "c"),
        ])
        #expect(updated.map(\.id) == [10, 12])
        #expect(
            try Reading.order { $0.id }.fetchAll(db).map {
                "\($0.id ?? 0):\($0.sensor):\($0.value ?? -1):\($0.note ?? "-")"
            } == [
                "10:a:-1.0:changed", "11:b:2.0:-", "12:c:-1.0:-",
            ])
    }

    /// Two key types whose cases have the same bits (`Forward.a` and `Backward.b` are both case 0),
    /// decoded alternately by one decoder from one statement: each key is found by its own name.
    @Test func keyTypesWithTheSameBitsDoNotShareAnOrder() throws {
        struct Forward: Decodable, Equatable {
            enum CodingKeys: String, CodingKey { case a, b }
            var a: Int
            var b: Int
        }
        struct Backward: Decodable, Equatable {
            enum CodingKeys: String, CodingKey { case b, a }
            var b: Int
            var a: Int
        }
        let db = try Database()
        try db.execute(
            sql: "CREATE TABLE t(a INTEGER, b INTEGER); INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)")
        let decoder = RowDecoder()
        var forward: [Forward] = []
        var backward: [Backward] = []
        var isForward = true
        let decoded: [Int] = try db.fetchAll("SELECT a, b FROM t ORDER BY a") { row -> Int in
            if isForward {
                forward.append(try decoder.decode(Forward.self, from: row))
            } else {
                backward.append(try decoder.decode(Backward.self, from: row))
            }
            isForward.toggle()
            return 0
        }
        #expect(decoded.count == 4)
        let expectedForward: [Forward] = [Forward(a: 1, b: 10), Forward(a: 3, b: 30)]
        let expectedBackward: [Backward] = [Backward(b: 20, a: 2), Backward(b: 40, a: 4)]
        #expect(forward == expectedForward)
        #expect(backward == expectedBackward)
    }

    @Test func quotedIdentifiersDoubleEmbeddedQuotes() {
        #expect("player".quotedIdentifier == #""player""#)
        #expect(#"say "hi""#.quotedIdentifier == #""say ""hi""""#)
        #expect(#"café "€""#.quotedIdentifier == #""café ""€""""#)
        #expect("".quotedIdentifier == #""""#)
    }
}
