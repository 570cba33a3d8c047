import Foundation
import Slate
import Testing

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

// SlateBuildPlugin generates raw-style code (slate.json) for Schema/dates.sql: a pair of tables per
// date storage. The tests run it and Slate on one connection (`Database.handle`), and compare
// what each writes and reads with `DateStrategy`, the library's date logic.

/// The generated records of one storage, behind one interface.
protocol RawEvent: Equatable {
    static var table: String { get }
    static var strategy: DateStrategy { get }
    init(startAt: Date, endAt: Date?)
    var startAt: Date { get }
    var endAt: Date? { get set }
    static func rawFind(_ db: OpaquePointer?, _ key: Date) -> Self?
    static func rawFetch(_ db: OpaquePointer?, sql: String?) -> [Self]?
    static func rawInsert(_ db: OpaquePointer?, _ record: inout Self) -> Int32
    static func rawUpdate(_ db: OpaquePointer?, _ record: Self) -> Int32
    static func rawDelete(_ db: OpaquePointer?, _ record: Self) -> Int32
    /// Inserts a note referencing `event`, fetches the notes of `event` and the event of the note,
    /// and deletes the note.
    static func rawNoteRoundTrip(_ db: OpaquePointer?, _ event: Self) -> (notes: Int?, parent: Self?)
}

extension IsoEvent: RawEvent {
    static let table = "iso_event"
    static let strategy = DateStrategy.iso8601
    static func rawFind(_ db: OpaquePointer?, _ key: Date) -> Self? { sqlite3_iso_event_find(db, key) }
    static func rawFetch(_ db: OpaquePointer?, sql: String?) -> [Self]? { sqlite3_iso_events_fetch(db, sql: sql) }
    static func rawInsert(_ db: OpaquePointer?, _ record: inout Self) -> Int32 { sqlite3_iso_event_insert(db, &record) }
    static func rawUpdate(_ db: OpaquePointer?, _ record: Self) -> Int32 { sqlite3_iso_event_update(db, record) }
    static func rawDelete(_ db: OpaquePointer?, _ record: Self) -> Int32 { sqlite3_iso_event_delete(db, record) }
    static func rawNoteRoundTrip(_ db: OpaquePointer?, _ event: Self) -> (notes: Int?, parent: Self?) {
        var note = IsoNote(eventAt: event.startAt)
        guard sqlite3_iso_note_insert(db, &note) == SQLITE_OK else { return (nil, nil) }
        defer { sqlite3_iso_note_delete(db, note) }
        return (sqlite3_iso_notes_fetch(db, for: event)?.count, note.fetchEventAt(in: db))
    }
}

extension SecondsEvent: RawEvent {
    static let table = "seconds_event"
    static let strategy = DateStrategy.unixSeconds
    static func rawFind(_ db: OpaquePointer?, _ key: Date) -> Self? { sqlite3_seconds_event_find(db, key) }
    static func rawFetch(_ db: OpaquePointer?, sql: String?) -> [Self]? { sqlite3_seconds_events_fetch(db, sql: sql) }
    static func rawInsert(_ db: OpaquePointer?, _ record: inout Self) -> Int32 {
        sqlite3_seconds_event_insert(db, &record)
    }
    static func rawUpdate(_ db: OpaquePointer?, _ record: Self) -> Int32 { sqlite3_seconds_event_update(db, record) }
    static func rawDelete(_ db: OpaquePointer?, _ record: Self) -> Int32 { sqlite3_seconds_event_delete(db, record) }
    static func rawNoteRoundTrip(_ db: OpaquePointer?, _ event: Self) -> (notes: Int?, parent: Self?) {
        var note = SecondsNote(eventAt: event.startAt)
        guard sqlite3_seconds_note_insert(db, &note) == SQLITE_OK else { return (nil, nil) }
        defer { sqlite3_seconds_note_delete(db, note) }
        return (sqlite3_seconds_notes_fetch(db, for: event)?.count, note.fetchEventAt(in: db))
    }
}

extension MillisecondsEvent: RawEvent {
    static let table = "milliseconds_event"
    static let strategy = DateStrategy.unixMilliseconds
    static func rawFind(_ db: OpaquePointer?, _ key: Date) -> Self? { sqlite3_milliseconds_event_find(db, key) }
    static func rawFetch(_ db: OpaquePointer?, sql: String?) -> [Self]? {
        sqlite3_milliseconds_events_fetch(db, sql: sql)
    }
    static func rawInsert(_ db: OpaquePointer?, _ record: inout Self) -> Int32 {
        sqlite3_milliseconds_event_insert(db, &record)
    }
    static func rawUpdate(_ db: OpaquePointer?, _ record: Self) -> Int32 {
        sqlite3_milliseconds_event_update(db, record)
    }
    static func rawDelete(_ db: OpaquePointer?, _ record: Self) -> Int32 {
        sqlite3_milliseconds_event_delete(db, record)
    }
    static func rawNoteRoundTrip(_ db: OpaquePointer?, _ event: Self) -> (notes: Int?, parent: Self?) {
        var note = MillisecondsNote(eventAt: event.startAt)
        guard sqlite3_milliseconds_note_insert(db, &note) == SQLITE_OK else { return (nil, nil) }
        defer { sqlite3_milliseconds_note_delete(db, note) }
        return (sqlite3_milliseconds_notes_fetch(db, for: event)?.count, note.fetchEventAt(in: db))
    }
}

extension JulianEvent: RawEvent {
    static let table = "julian_event"
    static let strategy = DateStrategy.julianDay
    static func rawFind(_ db: OpaquePointer?, _ key: Date) -> Self? { sqlite3_julian_event_find(db, key) }
    static func rawFetch(_ db: OpaquePointer?, sql: String?) -> [Self]? { sqlite3_julian_events_fetch(db, sql: sql) }
    static func rawInsert(_ db: OpaquePointer?, _ record: inout Self) -> Int32 {
        sqlite3_julian_event_insert(db, &record)
    }
    static func rawUpdate(_ db: OpaquePointer?, _ record: Self) -> Int32 { sqlite3_julian_event_update(db, record) }
    static func rawDelete(_ db: OpaquePointer?, _ record: Self) -> Int32 { sqlite3_julian_event_delete(db, record) }
    static func rawNoteRoundTrip(_ db: OpaquePointer?, _ event: Self) -> (notes: Int?, parent: Self?) {
        var note = JulianNote(eventAt: event.startAt)
        guard sqlite3_julian_note_insert(db, &note) == SQLITE_OK else { return (nil, nil) }
        defer { sqlite3_julian_note_delete(db, note) }
        return (sqlite3_julian_notes_fetch(db, for: event)?.count, note.fetchEventAt(in: db))
    }
}

/// A storage under test, for parameterized tests.
enum Storage: String, CaseIterable, Sendable {
    case iso8601, unixSeconds, unixMilliseconds, julianDay

    var type: any RawEvent.Type {
        switch self {
        case .iso8601: IsoEvent.self
        case .unixSeconds: SecondsEvent.self
        case .unixMilliseconds: MillisecondsEvent.self
        case .julianDay: JulianEvent.self
        }
    }
}

/// A database with the schema of Schema/dates.sql.
func datesDatabase() throws -> Database {
    let db = try Database()
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schema/dates.sql")
    try db.execute(sql: String(contentsOf: schema, encoding: .utf8))
    return db
}

/// Dates at the edges: the epoch, either side of it, fractions of milliseconds and halves of them,
/// the first and last millisecond of the years 0000 to 9999 and just beyond, and a deterministic
/// spread over those years with and without sub-millisecond parts.
let sampleDates: [Date] = {
    var seconds: [Double] = [
        0, 0.001, -0.001, 0.0005, -0.0005, 0.0004999, -0.0015, 1.5, -1.5, 0.1, -0.1, 1e-7, -1e-7,
        1_672_576_496.789, 1_672_576_496.7894, 1_672_576_496.7895, -86_400.0005, -2_208_988_800.123,
        951_782_400, 1_073_741_823.999, 1_073_741_824.001, 2_147_483_647.999, 2_147_483_648.5, 4_102_444_800,
        -62_167_219_200, -62_167_219_199.999, -62_167_219_200.0004, -62_167_219_200.0005, -62_167_219_200.001,
        253_402_300_799.999, 253_402_300_799.9994, 253_402_300_799.9995, 253_402_300_800,
        1e15, -1e15, 1e17 + 0.5, 9.3e15, 1e300, -1e300, .infinity, -.infinity, .nan,
    ]
    var state: UInt64 = 0x5EED_D47E
    func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }
    for index in 0..<2000 {
        let milliseconds = Double(Int64(next() % 315_537_897_600_000) - 62_167_219_200_000)
        let fraction = index.isMultiple(of: 2) ? 0 : Double(next() % 1_000_000) / 1_000_000_000
        seconds.append(milliseconds / 1000 + fraction)
    }
    return seconds.map { Date(timeIntervalSince1970: $0) }
}()

/// The same SQL value, REALs compared bit for bit.
func same(_ a: SQLValue, _ b: SQLValue) -> Bool {
    if case .real(let x) = a, case .real(let y) = b { return x.bitPattern == y.bitPattern }
    return a == b
}

/// The same instant, bit for bit.
func same(_ a: Date?, _ b: Date?) -> Bool {
    a?.timeIntervalSince1970.bitPattern == b?.timeIntervalSince1970.bitPattern
}

@Suite("Raw dates interoperate with Slate")
struct RawDateInteropTests {
    @Test(arguments: Storage.allCases)
    func rawWritesWhatSlateWritesAndReadsWhatSlateReads(_ storage: Storage) throws {
        try check(storage.type)
    }

    func check<Event: RawEvent>(_: Event.Type) throws {
        let db = try datesDatabase()
        let strategy = Event.strategy
        var stored = 0
        for date in sampleDates {
            try db.execute(sql: "DELETE FROM \(Event.table)")
            let expected = try? strategy.sqlValue(for: date)
            var event = Event(startAt: date, endAt: date)
            let code = Event.rawInsert(db.handle, &event)
            guard let expected else {
                // Slate refuses the date: so does the raw code, and nothing is written.
                #expect(code == SQLITE_MISMATCH, "\(date.timeIntervalSince1970)")
                #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(Event.table)") == 0)
                continue
            }
            #expect(code == SQLITE_OK, "\(date.timeIntervalSince1970)")
            stored += 1
            // Written: what Slate writes, to the bit, in both columns.
            let row = try #require(
                try db.fetchOne(
                    SQLValueRow.self,
                    sql: "SELECT start_at, end_at FROM \(Event.table) WHERE rowid = last_insert_rowid()"))
            #expect(same(row.first, expected), "\(date.timeIntervalSince1970): \(row.first) ≠ \(expected)")
            #expect(same(row.second, expected), "\(date.timeIntervalSince1970)")
            // Read: what Slate reads, to the bit, through find (the key bound as stored) and fetch.
            let slateRead = strategy.date(from: expected)
            let found = Event.rawFind(db.handle, date)
            #expect(same(found?.startAt, slateRead), "\(date.timeIntervalSince1970)")
            #expect(same(found?.endAt, slateRead), "\(date.timeIntervalSince1970)")
            // The date Slate reads back finds the same row.
            if let slateRead { #expect(Event.rawFind(db.handle, slateRead) != nil, "\(date.timeIntervalSince1970)") }
        }
        #expect(stored > 2000)

        // The reverse: Slate writes, the raw code reads what Slate reads.
        var written = 0
        for date in sampleDates {
            guard let value = try? strategy.sqlValue(for: date) else { continue }
            try db.execute(sql: "DELETE FROM \(Event.table)")
            try db.execute(
                sql: "INSERT INTO \(Event.table) (start_at, end_at) VALUES (?, ?)", arguments: [value, value])
            written += 1
            let fetched = Event.rawFetch(db.handle, sql: nil)
            #expect(fetched?.count == 1, "\(date.timeIntervalSince1970)")
            #expect(same(fetched?.first?.startAt, strategy.date(from: value)), "\(date.timeIntervalSince1970)")
            #expect(same(fetched?.first?.endAt, strategy.date(from: value)), "\(date.timeIntervalSince1970)")
        }
        #expect(written == stored)
    }

    @Test(arguments: Storage.allCases)
    func updateDeleteAndForeignKeysBindDatesAsStored(_ storage: Storage) throws {
        try checkOperations(storage.type)
    }

    func checkOperations<Event: RawEvent>(_: Event.Type) throws {
        let db = try datesDatabase()
        let start = Date(timeIntervalSince1970: -2_208_988_800.123)
        var event = Event(startAt: start, endAt: nil)
        #expect(Event.rawInsert(db.handle, &event) == SQLITE_OK)
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(Event.table) WHERE end_at IS NULL") == 1)
        event.endAt = Date(timeIntervalSince1970: 1_672_576_496.789)
        #expect(Event.rawUpdate(db.handle, event) == SQLITE_OK)
        #expect(db.changesCount == 1)
        let end = try #require(try db.fetchOne(SQLValueRow.self, sql: "SELECT end_at, end_at FROM \(Event.table)"))
            .first
        let expectedEnd = try Event.strategy.sqlValue(for: Date(timeIntervalSince1970: 1_672_576_496.789))
        #expect(same(end, expectedEnd))
        let stored = try #require(Event.rawFind(db.handle, start))
        #expect(same(stored.endAt, Event.strategy.date(from: expectedEnd)))

        // A date the storage cannot hold is refused, not stored as NULL; the row keeps its value.
        var broken = event
        broken.endAt = Date(timeIntervalSince1970: .nan)
        #expect(Event.rawUpdate(db.handle, broken) == SQLITE_MISMATCH)
        #expect(Event.rawFind(db.handle, start) == stored)

        let (notes, parent) = Event.rawNoteRoundTrip(db.handle, event)
        #expect(notes == 1)
        #expect(parent == stored)
        #expect(
            try db.fetchValue(
                Int.self, sql: "SELECT count(*) FROM \(Event.table.replacingOccurrences(of: "event", with: "note"))")
                == 0)

        #expect(Event.rawDelete(db.handle, event) == SQLITE_OK)
        #expect(db.changesCount == 1)
        #expect(Event.rawFind(db.handle, start) == nil)
    }

    @Test func isoYearsOutsideZeroToNineThousandNineHundredNinetyNineAreRefused() throws {
        let db = try datesDatabase()
        for seconds in [-62_167_219_200.001, 253_402_300_800, -1e15, 1e15] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(throws: DatabaseError.self) { try DateStrategy.iso8601.sqlValue(for: date) }
            var event = IsoEvent(startAt: Date(timeIntervalSince1970: 0), endAt: date)
            #expect(sqlite3_iso_event_insert(db.handle, &event) == SQLITE_MISMATCH)
            #expect(sqlite3_iso_event_find(db.handle, date) == nil)
            // Unix seconds hold them.
            var seconds = SecondsEvent(startAt: date, endAt: date)
            #expect(sqlite3_seconds_event_insert(db.handle, &seconds) == SQLITE_OK)
        }
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM iso_event") == 0)
    }

    /// Text in the forms Slate reads is read the same; anything else is not a date.
    @Test(arguments: Storage.allCases)
    func textIsReadAsSlateReadsItOrNotAtAll(_ storage: Storage) throws {
        try checkText(storage.type)
    }

    static let texts = [
        "2023-01-01 12:34:56.789", "2023-01-01", "2023-01-01 12:34", "2023-01-01T12:34:56", "2023-01-01T12:34:56.789Z",
        "2023-01-01 12:34:56Z", "2023-01-01 12:34:56+02:00", "2023-01-01T12:34:56.5-07:30",
        "2023-01-01 12:34:56.123456",
        "2023-01-01 12:34:56.0005", "2023-01-01 12:34:56.1235", "2023-01-01 12:34:56.9999", "2023-01-01 23:59:59.9999",
        "1969-12-31 23:59:59.999", "0000-01-01 00:00:00.000", "9999-12-31 23:59:59.999", "2024-02-29", "0000-02-29",
        "2038-01-19 03:14:08+00:00", "2004-01-10 13:37:04.5+01:00", "2004-01-10 13:37:04.1+01:00",
        "2004-01-10 13:37:04.7+01:00",
        "2004-01-10 11:37:03.9-01:00", "2038-01-19 04:14:07.3+01:00", "1900-03-01 00:00:00.001",
    ]
    static let notDates = [
        "now", "2460000.5", "1700000000", "", "yesterday", "2023-02-30", "2023-04-31", "2023-02-29", "2023-13-01",
        "2023-00-10",
        "2023-01-00", "2023-01-01 24:00", "2023-01-01 12:60", "2023-01-01 12:00:60", "2023-01-01  12:00",
        "2023-01-01TT12:00",
        "2023-01-01 12:00 Z", "2023-01-01 12:00z", "-001-01-01", "12:00", "2023-01-01T", "2023-01-01 12:00:00.",
        "2023-01-01 12", "2023-1-01", "2023-01-01 12:00:00+02", "2023-01-01Z", "20230101",
        // The shape Slate writes, with values out of range.
        "2023-01-01 24:00:00.000", "2023-02-30 12:00:00.000", "2023-01-01 12:60:00.000", "2023-01-01 29:00:00.000",
    ]
    /// Forms Slate reads that SQLite's date functions do not: the raw code refuses them rather than
    /// read another date.
    static let slateOnly = [
        "2023-01-01 12:00:00+0200", "2023-01-01 12:00:00+15:00", " 2023-01-01 12:00", "2023-01-01 12:00 ",
    ]

    func checkText<Event: RawEvent>(_: Event.Type) throws {
        let db = try datesDatabase()
        func rawRead(_ value: SQLValue) throws -> Date? {
            try db.execute(sql: "DELETE FROM \(Event.table)")
            try db.execute(sql: "INSERT INTO \(Event.table) (start_at, end_at) VALUES (0, ?)", arguments: [value])
            guard let events = Event.rawFetch(db.handle, sql: nil) else { return nil }
            #expect(events.count == 1)
            return events.first?.endAt
        }
        for text in Self.texts {
            let slate = Event.strategy.date(from: .text(text))
            #expect(slate != nil, "\(text)")
            #expect(same(try rawRead(.text(text)), slate), "\(text)")
        }
        for text in Self.notDates {
            #expect(Event.strategy.date(from: .text(text)) == nil, "\(text)")
            #expect(try rawRead(.text(text)) == nil, "\(text)")
        }
        for text in Self.slateOnly {
            #expect(Event.strategy.date(from: .text(text)) != nil, "\(text)")
            #expect(try rawRead(.text(text)) == nil, "\(text)")
        }
        #expect(try rawRead(.blob(Data("2023-01-01".utf8))) == nil)
        // NULL is no date, in an optional column.
        try db.execute(sql: "DELETE FROM \(Event.table)")
        try db.execute(sql: "INSERT INTO \(Event.table) (start_at, end_at) VALUES (0, NULL)")
        #expect(Event.rawFetch(db.handle, sql: nil)?.first.map { $0.endAt == nil } == true)
        // Numbers are read as the storage says.
        for value: SQLValue in [.integer(86_400), .real(-1.25), .integer(2_440_588), .real(1_672_576_496_789.0)] {
            #expect(same(try rawRead(value), Event.strategy.date(from: value)), "\(value)")
        }
    }

    @Test func aQueryOfYourOwnIsConvertedAndKeepsItsOrder() throws {
        let db = try datesDatabase()
        for seconds in [3.5, -1.25, 2.0, 1_672_576_496.789] {
            var event = MillisecondsEvent(startAt: Date(timeIntervalSince1970: seconds), endAt: nil)
            #expect(sqlite3_milliseconds_event_insert(db.handle, &event) == SQLITE_OK)
            var iso = IsoEvent(startAt: Date(timeIntervalSince1970: seconds), endAt: nil)
            #expect(sqlite3_iso_event_insert(db.handle, &iso) == SQLITE_OK)
        }
        let descending = sqlite3_milliseconds_events_fetch(
            db.handle, sql: "SELECT * FROM milliseconds_event ORDER BY start_at DESC")
        #expect(descending?.map(\.startAt.timeIntervalSince1970) == [1_672_576_496.789, 3.5, 2.0, -1.25])
        let isoAscending = sqlite3_iso_events_fetch(
            db.handle, sql: "SELECT start_at, end_at FROM iso_event WHERE start_at > '1970' ORDER BY 1")
        #expect(isoAscending?.map(\.startAt.timeIntervalSince1970) == [2.0, 3.5, 1_672_576_496.789])
        // Stored values, converted once: not the seconds of `sqlite3_selectSQL` converted again.
        #expect(sqlite3_milliseconds_events_fetch(db.handle, sql: MillisecondsEvent.sqlite3_selectSQL)?.count == 4)
        #expect(
            sqlite3_milliseconds_events_fetch(
                db.handle, sql: MillisecondsEvent.sqlite3_selectSQL + " WHERE start_at = 3500")?
                .map(\.startAt) == [Date(timeIntervalSince1970: 3.5)])
        // A query of another shape fails rather than fill the record with whatever is there.
        #expect(sqlite3_milliseconds_events_fetch(db.handle, sql: "SELECT start_at FROM milliseconds_event") == nil)
        #expect(
            sqlite3_milliseconds_events_fetch(db.handle, sql: "SELECT start_at, end_at, 1 FROM milliseconds_event")
                == nil)
    }
}

/// Two columns as SQL values.
struct SQLValueRow: RowDecodable {
    var first: SQLValue
    var second: SQLValue

    init(row: borrowing Row) throws {
        first = row.value(at: 0)
        second = row.value(at: 1)
    }
}
