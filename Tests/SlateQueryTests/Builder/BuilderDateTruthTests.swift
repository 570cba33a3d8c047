import Foundation
import Slate
import SlateTestSupport
import Testing

/// A date stored as SQLite's own functions store it, in a table SQLite filled.
struct Stamp: PrimaryKeyedTable, Equatable {
    var id: Int64?
    var at: Date
    var day: Date?

    static let schema = TableSchema(
        name: "stamp",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "at", type: "DATETIME", isNotNull: true),
            .init(name: "day", type: "DATE"),
        ])

    struct Columns: TableColumns {
        let id: Column<Stamp, Int64?>
        let at: Column<Stamp, Date>
        let day: Column<Stamp, Date?>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            at = Column(qualifier, "at")
            day = Column(qualifier, "day", storage: .date(.iso8601Date))
        }
    }

    init(id: Int64? = nil, at: Date, day: Date?) {
        self.id = id
        self.at = at
        self.day = day
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        at = try row.decode(at: 1)
        day = try row.date(at: 2, strategy: .iso8601Date)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(at)
        try encoder.encode(day.map { EncodedDate($0, strategy: .iso8601Date) })
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

/// Dates the builder binds compare with the dates already in the database: those SQLite's
/// `datetime()`, `date()` and `CURRENT_TIMESTAMP` wrote, and Chinook's.
@Suite struct BuilderDateTruthTests {
    /// 2021-01-01 00:00:00 UTC.
    let newYear = Date(timeIntervalSince1970: 1_609_459_200)

    @Test func theDefaultFormIsSQLiteDatetimeWhenThereAreNoMilliseconds() throws {
        #expect(try DateStrategy.iso8601.sqlValue(for: newYear) == .text("2021-01-01 00:00:00"))
        #expect(
            try DateStrategy.iso8601.sqlValue(for: newYear.addingTimeInterval(0.25)) == .text("2021-01-01 00:00:00.250")
        )
        #expect(try DateStrategy.iso8601Milliseconds.sqlValue(for: newYear) == .text("2021-01-01 00:00:00.000"))
        #expect(try DateStrategy.iso8601Date.sqlValue(for: newYear) == .text("2021-01-01"))
        // A day cannot hold a time of day: storing one throws instead of dropping it.
        #expect(throws: DatabaseError.self) {
            try DateStrategy.iso8601Date.sqlValue(for: newYear.addingTimeInterval(3600))
        }
        // What SQLite's functions write, to the character.
        let db = try Database.memory()
        for seconds in [0.0, 1_609_459_200, 1_609_459_201.5, -86_400, 253_402_300_799, -62_167_219_200] {
            let date = Date(timeIntervalSince1970: seconds)
            let sqlite = try db.fetchValue(
                String.self,
                sql: """
                    SELECT CASE WHEN ? = round(?) THEN datetime(?, 'unixepoch')
                      ELSE strftime('%Y-%m-%d %H:%M:%f', ?, 'unixepoch') END
                    """,
                arguments: [seconds, seconds, seconds, seconds])
            #expect(try DateStrategy.iso8601.sqlValue(for: date) == .text(sqlite), "\(seconds)")
            // Exact round trip, and chronological text order across both forms.
            #expect(DateStrategy.iso8601.date(from: try DateStrategy.iso8601.sqlValue(for: date)) == date)
        }
        let texts = try [0.0, 0.001, 0.5, 1, 1.001, 59.999, 60].map { seconds -> String in
            guard case .text(let text) = try DateStrategy.iso8601.sqlValue(for: Date(timeIntervalSince1970: seconds))
            else { return "" }
            return text
        }
        #expect(texts == texts.sorted())
    }

    @Test func chinookInvoiceDatesMatchEqualityInAndRanges() throws {
        let db = try Database.chinook()
        let equal = try Invoice.where { $0.invoiceDate == newYear }.select { $0.invoiceId }.fetchAll(db)
        #expect(
            equal
                == (try db.fetchAll(
                    Int64?.self, "SELECT InvoiceId FROM Invoice WHERE InvoiceDate = '2021-01-01 00:00:00'")))
        #expect(!equal.isEmpty)
        let days = [newYear, newYear.addingTimeInterval(86_400), newYear.addingTimeInterval(2 * 86_400)]
        let inList = try Invoice.where { $0.invoiceDate.in(days) }.fetchCount(db)
        #expect(
            inList
                == (try db.fetchValue(
                    Int.self,
                    """
                    SELECT count(*)
                    FROM Invoice
                    WHERE InvoiceDate IN ('2021-01-01 00:00:00', '2021-01-02 00:00:00', '2021-01-03 00:00:00')
                    """
                )))
        #expect(inList == 3)
        // Equal instants fall on the right side of each bound.
        let before = try Invoice.where { $0.invoiceDate < newYear.addingTimeInterval(86_400) }.fetchCount(db)
        #expect(before == 1)
        let upTo = try Invoice.where { $0.invoiceDate <= newYear.addingTimeInterval(86_400) }.fetchCount(db)
        #expect(upTo == 2)
        let between = try Invoice.where { $0.invoiceDate.between(newYear, and: newYear.addingTimeInterval(86_400)) }
            .fetchCount(db)
        #expect(between == 2)
        let after = try Invoice.where { $0.invoiceDate > newYear }.fetchCount(db)
        #expect(
            after
                == (try db.fetchValue(
                    Int.self, "SELECT count(*) FROM Invoice WHERE InvoiceDate > '2021-01-01 00:00:00'")))
        #expect(after == 411)
    }

    @Test func updatesWriteTheFormOfTheRowsAround() throws {
        let db = try Database.chinookCopy()
        let changed = try Invoice.update { $0.invoiceDate.set(to: newYear.addingTimeInterval(7 * 86_400)) }
            .where { $0.invoiceId == 1 }.execute(db)
        #expect(changed == 1)
        #expect(
            try db.fetchValue(String.self, "SELECT InvoiceDate FROM Invoice WHERE InvoiceId = 1")
                == "2021-01-08 00:00:00")
        // Every row keeps SQLite's own form, so text comparisons stay chronological.
        #expect(
            try db.fetchValue(Int.self, "SELECT count(*) FROM Invoice WHERE InvoiceDate <> datetime(InvoiceDate)") == 0)
        var invoice = try #require(try Invoice.find(2).fetchOne(db))
        invoice.invoiceDate = newYear.addingTimeInterval(3 * 86_400 + 3600)
        try db.update(invoice)
        #expect(
            try db.fetchValue(String.self, "SELECT InvoiceDate FROM Invoice WHERE InvoiceId = 2")
                == "2021-01-04 01:00:00")
    }

    @Test func rowsWrittenBySQLiteFunctionsAreFoundByEqualityInRangesAndUpdates() throws {
        let db = try Database.memory()
        try db.createTable(for: Stamp.self)
        try db.execute(
            sql: """
                INSERT INTO stamp (at, day) VALUES
                  (datetime('2021-01-01 00:00:00'), date('2021-01-01')),
                  (datetime('2021-01-01 12:30:00'), date('2021-01-02')),
                  (CURRENT_TIMESTAMP, CURRENT_DATE)
                """)
        let noon = newYear.addingTimeInterval(12.5 * 3600)
        let atNoon = try Stamp.where { $0.at == noon }.select { $0.id }.fetchAll(db)
        #expect(atNoon == [2])
        #expect(try Stamp.where { $0.at.in([newYear, noon]) }.fetchCount(db) == 2)
        #expect(try Stamp.where { $0.at <= noon }.fetchCount(db) == 2)
        #expect(try Stamp.where { $0.at < noon }.fetchCount(db) == 1)
        let secondDay = try Stamp.where { $0.day == newYear.addingTimeInterval(86_400) }.select { $0.id }.fetchAll(db)
        #expect(secondDay == [2])
        #expect(
            try Stamp.where { $0.day.between(newYear, and: newYear.addingTimeInterval(86_400)) }.fetchCount(db) == 2)
        // A day column refuses a time of day rather than match nothing.
        #expect(throws: DatabaseError.self) { try Stamp.where { $0.day == noon }.fetchAll(db) }
        // Records read back the same instants, and written ones look like SQLite's.
        let stamps = try Stamp.order(by: \.id).fetchAll(db)
        #expect(stamps[1].at == noon && stamps[1].day == newYear.addingTimeInterval(86_400))
        try db.insert(Stamp(at: noon, day: newYear))
        try Stamp.update { $0.at.set(to: newYear) }.where { $0.id == 2 }.execute(db)
        #expect(
            try db.fetchValue(Int.self, "SELECT count(*) FROM stamp WHERE at <> datetime(at) OR day <> date(day)") == 0)
        #expect(try Stamp.where { $0.at == newYear }.fetchCount(db) == 2)
    }
}
