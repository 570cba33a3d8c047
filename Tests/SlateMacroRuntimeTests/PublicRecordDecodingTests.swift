import Foundation
import SlateMacros
import Synchronization
import Testing

/// A value stored as TEXT whose live instances are counted: a record that fails to decode must
/// release the tokens it already read.
public final class DecodeToken: SQLValueConvertible, SQLColumnTypeProviding, Sendable {
    public static let sqlColumnType = "TEXT"
    /// The instances alive now.
    static let live = Atomic<Int>(0)
    /// The instances made so far.
    static let made = Atomic<Int>(0)

    public let text: String

    public init(_ text: String) {
        self.text = text
        Self.live.add(1, ordering: .sequentiallyConsistent)
        Self.made.add(1, ordering: .sequentiallyConsistent)
    }

    public convenience init(sqlValue: SQLValue) throws {
        guard case .text(let text) = sqlValue else {
            throw DatabaseError(resultCode: .mismatch, message: "a token is stored as text, not \(sqlValue)")
        }
        self.init(text)
    }

    deinit { Self.live.subtract(1, ordering: .sequentiallyConsistent) }

    public var sqlValue: SQLValue { .text(text) }
}

/// A public `@Table` record with its own initializer, so without the synthesized one: its
/// `init(row:)` reads every column before assigning (no stored property has an initial value).
@Table
public struct Consignment {
    public var id: Optional<Int64>
    public var token: DecodeToken
    public var weight: Double
    public var label: String

    public init(id: Int64? = nil, token: DecodeToken, weight: Double, label: String) {
        self.id = id
        self.token = token
        self.weight = weight
        self.label = label
    }
}

/// Public generated records (`PublicShipments+Slate.swift`, the generator's output for
/// `accessLevel: public`, kept by the generator's GoldenTests) and public `@Table` records with a
/// declared initializer decode every column, and a read that throws in the middle of a record
/// gives no record and leaks nothing.
@Suite(.serialized)
struct PublicRecordDecodingTests {
    @Test func generatedPublicRecordDecodesEveryColumn() throws {
        let db = try Database()
        try db.createTable(for: Shipment.self)
        try db.insert(Shipment(label: "crate", carrier: "post", weight: 2.5, parcels: 3, note: nil))
        try db.insert(
            Shipment(label: "letter", carrier: nil, weight: nil, parcels: nil, note: "by hand", sentAt: "2026-01-02"))
        let shipments: [Shipment] = try Shipment.all().order(by: \.id).fetchAll(db)
        #expect(shipments.count == 2)
        let first: Shipment = try #require(shipments.first)
        let firstExpected = Shipment(
            id: 1, label: "crate", carrier: "post", weight: 2.5, parcels: 3, note: nil, sentAt: first.sentAt)
        #expect(first == firstExpected)
        #expect(first.sentAt != nil)  // the column's SQL default, read back
        let second: Shipment = try #require(shipments.last)
        let secondExpected = Shipment(
            id: 2, label: "letter", carrier: nil, weight: nil, parcels: nil, note: "by hand", sentAt: "2026-01-02")
        #expect(second == secondExpected)
    }

    @Test func generatedPublicRecordThrowsOnALossyReadInTheMiddle() throws {
        let db = try Database()
        try db.createTable(for: Shipment.self)
        // `parcels` (column 4 of 7) holds text that is no integer: the record must not decode.
        try db.execute(
            """
            INSERT INTO shipment(id, label, carrier, weight, parcels, note)
            VALUES (1, 'crate', 'post', 2.5, 'many', 'x')
            """
        )
        let error: DatabaseError = try #require(throws: DatabaseError.self) { try Shipment.all().fetchAll(db) }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("parcels"))
        let found: Shipment? = try? Shipment.find(1).fetchOne(db)
        #expect(found == nil)
    }

    @Test func publicTableRecordWithDeclaredInitializerDecodesEveryColumn() throws {
        let db = try Database()
        try db.createTable(for: Consignment.self)
        let before: Int = DecodeToken.live.load(ordering: .sequentiallyConsistent)
        do {
            try db.insert(Consignment(token: DecodeToken("t1"), weight: 1.25, label: "box"))
            let records: [Consignment] = try Consignment.all().fetchAll(db)
            #expect(records.count == 1)
            let record: Consignment = try #require(records.first)
            #expect(record.id == 1)
            #expect(record.token.text == "t1")
            #expect(record.weight == 1.25)
            #expect(record.label == "box")
        }
        let after: Int = DecodeToken.live.load(ordering: .sequentiallyConsistent)
        #expect(after == before)
    }

    @Test func publicTableRecordReleasesWhatItReadWhenAReadThrows() throws {
        let db = try Database()
        try db.createTable(for: Consignment.self)
        // The token (column 1) decodes, then `weight` (column 2) is text that is no number.
        try db.execute("INSERT INTO Consignment(id, token, weight, label) VALUES (1, 't1', 'heavy', 'box')")
        let liveBefore: Int = DecodeToken.live.load(ordering: .sequentiallyConsistent)
        let madeBefore: Int = DecodeToken.made.load(ordering: .sequentiallyConsistent)
        let error: DatabaseError = try #require(throws: DatabaseError.self) { try Consignment.all().fetchAll(db) }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("weight"))
        let liveAfter: Int = DecodeToken.live.load(ordering: .sequentiallyConsistent)
        let madeAfter: Int = DecodeToken.made.load(ordering: .sequentiallyConsistent)
        #expect(madeAfter == madeBefore + 1)  // the token was read before `weight` threw…
        #expect(liveAfter == liveBefore)  // …and released
    }
}
