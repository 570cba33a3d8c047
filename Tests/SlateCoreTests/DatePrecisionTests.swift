import Foundation
import Slate
import SlateTestSupport
import Testing

// Issue 36: a record inserted with `Date()` was not `==` to the same record read back, silently.
// Slate keeps an explicit, documented precision per strategy, and `storedDate(for:)` gives the date
// that reads back, for tests and for rounding before storing.
@Suite struct DatePrecisionTests {
    /// 2025-01-02 03:04:05.8885677 UTC: more digits than a millisecond.
    let date = Date(timeIntervalSince1970: 1_735_787_045.888_567_7)

    @Test(arguments: [
        DateStrategy.iso8601, .iso8601Milliseconds, .unixSeconds, .unixMilliseconds, .julianDay,
    ])
    func aStoredDateReadsBackAsStoredDateSays(_ strategy: DateStrategy) throws {
        let db = try Database.memory { $0.dateStrategy = strategy }
        try db.execute(sql: "CREATE TABLE event(at)")
        try db.execute("INSERT INTO event(at) VALUES (\(date))")
        let read = try db.fetchValue(Date.self, "SELECT at FROM event")
        let expected = try strategy.storedDate(for: date)
        #expect(read == expected)
        // Reading back again changes nothing: the stored date is a fixed point.
        #expect(try strategy.storedDate(for: expected) == expected)
    }

    @Test func theDefaultKeepsMillisecondsRoundedToTheNearest() throws {
        let stored = try DateStrategy.iso8601.storedDate(for: date)
        #expect(stored != date)  // the documented rounding: never `==` the full-precision date
        #expect(stored == Date(timeIntervalSince1970: 1_735_787_045.889))
        #expect(try DateStrategy.iso8601.sqlValue(for: date) == .text("2025-01-02 03:04:05.889"))
        #expect(abs(stored.timeIntervalSince(date)) <= 0.0005)
    }

    @Test func aDayStorageRefusesATimeOfDay() throws {
        #expect(throws: DatabaseError.self) { try DateStrategy.iso8601Date.storedDate(for: date) }
        let midnight = Date(timeIntervalSince1970: 1_735_776_000)
        #expect(try DateStrategy.iso8601Date.storedDate(for: midnight) == midnight)
    }
}
