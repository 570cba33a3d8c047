import Foundation
import NIOCore
import PostgresNIO
import SlateCore

// Dates on PostgreSQL: `timestamptz` holds microseconds. Slate rounds a `Date` to the nearest
// microsecond (as SQLite's text storage rounds to the millisecond), and refuses one PostgreSQL
// cannot hold, where postgres-nio's own encoding truncates and traps beyond `Int64`.

/// A `timestamptz` parameter: microseconds since 2000-01-01 00:00:00 UTC, PostgreSQL's epoch.
struct PostgresTimestamp: PostgresNonThrowingEncodable {
    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    /// PostgreSQL's epoch, 2000-01-01 00:00:00 UTC.
    static let epoch = Date(timeIntervalSince1970: 946_684_800)
    /// The microseconds of 4714-11-24 00:00:00 BC and of 294277-01-01 00:00:00 AD (excluded):
    /// PostgreSQL's range of timestamps (`MIN_TIMESTAMP`, `END_TIMESTAMP`).
    static let range: Range<Int64> = -211_813_488_000_000_000..<9_223_371_331_200_000_000

    let microseconds: Int64

    /// `date`, rounded to the nearest microsecond.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/mismatch`` for a date that is not finite or
    ///   is outside PostgreSQL's range of timestamps (4713 BC to 294276 AD).
    init(_ date: Date) throws {
        let microseconds = (date.timeIntervalSince(Self.epoch) * 1_000_000).rounded()
        guard let exact = Int64(exactly: microseconds), Self.range.contains(exact) else {
            throw DatabaseError(
                resultCode: .mismatch,
                message:
                    "the date \(date.timeIntervalSince1970) seconds after 1970 is outside the range of PostgreSQL's "
                    + "timestamps (4713 BC to 294276 AD)")
        }
        self.microseconds = exact
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeInteger(microseconds)
    }

    /// The date PostgreSQL's `timestamptz` gives back: what postgres-nio decodes, computed as it does.
    var date: Date {
        Date(timeInterval: Double(microseconds) / 1_000_000, since: Self.epoch)
    }
}

extension PostgreSQLDatabase {
    /// The date a `timestamptz` column gives back after storing `date`: `date` rounded to the
    /// microsecond, PostgreSQL's precision. Compare with it in tests:
    ///
    /// ```swift
    /// let saved = try await pg.insert(Event(at: Date()))
    /// let read = try await Event.find(saved.id).fetchOne(pg)
    /// #expect(read?.at == (try PostgreSQLDatabase.storedDate(for: saved.at)))
    /// ```
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/mismatch`` for a date PostgreSQL cannot hold.
    public static func storedDate(for date: Date) throws -> Date {
        try PostgresTimestamp(date).date
    }
}
