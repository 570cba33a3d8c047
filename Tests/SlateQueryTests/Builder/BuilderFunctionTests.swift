import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// The operators and functions of issue 18: `%`, `CAST`, `IS` / `IS NOT`, `nullif`, `substr`,
/// `instr`, the date functions, `DISTINCT` aggregates and `OFFSET` without `LIMIT`; each rendered
/// exactly and run on Chinook against the same SQL written by hand.
@Suite struct BuilderFunctionTests {
    @Test func remainderAndCast() throws {
        let db = try Database.chinook()
        let query = Track.where { $0.milliseconds % 1000 == 0 }.select {
            ($0.unitPrice.cast(as: Int.self), $0.composer.cast(as: Int.self), $0.milliseconds.cast(as: String.self))
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  CAST("Track"."UnitPrice" AS INTEGER),
                  CAST("Track"."Composer" AS INTEGER),
                  CAST("Track"."Milliseconds" AS TEXT)
                FROM "Track"
                WHERE "Track"."Milliseconds" % ? = ?
                -- arguments: 1000, 0
                """)
        let rows: [(Int, Int?, String)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT CAST(UnitPrice AS INTEGER), CAST(Composer AS INTEGER), CAST(Milliseconds AS TEXT)
            FROM Track
            WHERE Milliseconds % 1000 = 0
            """
        ) { row in
            (try row.decode(Int.self, at: 0), try row.decode(Int?.self, at: 1), try row.decode(String.self, at: 2))
        }
        #expect(rows.count == expected.count)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
        }
        // SQLite's CAST rules: 0.99 truncates to 0.
        #expect(try Track.where { $0.trackId == 1 }.select { $0.unitPrice.cast(as: Int.self) }.fetchOne(db) == 0)
        #expect(
            try Track.where { $0.trackId == 1 }.select { $0.unitPrice.cast(as: String.self) }.fetchOne(db) == "0.99")
        let remainders = try Track.group { $0.trackId % 3 }.order { $0.trackId % 3 }.select {
            ($0.trackId % 3, count())
        }.fetchAll(db)
        #expect(remainders.map(\.0) == [0, 1, 2] && remainders.map(\.1) == [1167, 1168, 1168])
    }

    @Test func nullSafeIsAndIsNot() throws {
        let db = try Database.chinook()
        let same = Invoice.join(Customer.self, on: { $0.customerId == $1.customerId }).where { invoice, customer in
            invoice.billingState.is(customer.state)
        }
        #expect(same.sql.text.hasSuffix(#"WHERE "Invoice"."BillingState" IS "Customer"."State""#))
        let count = try same.fetchCount(db)
        #expect(
            count
                == (try db.fetchValue(
                    Int.self,
                    """
                    SELECT count(*)
                    FROM Invoice i
                    JOIN Customer c ON i.CustomerId = c.CustomerId
                    WHERE i.BillingState IS c.State
                    """
                )))
        // `=` would miss the rows where both are NULL.
        let equal = try Invoice.join(Customer.self, on: { $0.customerId == $1.customerId }).where { invoice, customer in
            invoice.billingState == customer.state
        }.fetchCount(db)
        #expect(count == 412 && equal < count)
        let noState = Customer.where { $0.state.is(nil) }
        #expect(
            SQLLayout.lines(noState.select { $0.customerId }.sql) == """
                SELECT "Customer"."CustomerId"
                FROM "Customer"
                WHERE "Customer"."State" IS ?
                -- arguments: NULL
                """)
        #expect(try noState.fetchCount(db) == 29)
        let notCA = try Customer.where { $0.state.isNot("CA") }.fetchCount(db)
        #expect(notCA == 56)
        let differs: [Bool] = try Customer.order(by: \.customerId).limit(3).select { $0.state.isNot($0.country) }
            .fetchAll(db)
        #expect(differs == [true, true, true])
        // Mixed optionality: a non-optional column with an optional one.
        let named = try Employee.where { $0.lastName.is($0.title) }.fetchCount(db)
        #expect(named == 0)
    }

    @Test func nullifSubstrInstrAndFriends() throws {
        let db = try Database.chinook()
        let query = Customer.where { $0.customerId <= 5 }.order(by: \.customerId).select {
            (
                $0.state.nullif("SP"), $0.lastName.substr(2, 3), $0.lastName.substr(-2), $0.email.instr("@"),
                $0.company.instr("a"), $0.firstName.length()
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  nullif("Customer"."State", ?),
                  substr("Customer"."LastName", ?, ?),
                  substr("Customer"."LastName", ?),
                  instr("Customer"."Email", ?),
                  instr("Customer"."Company", ?),
                  length("Customer"."FirstName")
                FROM "Customer"
                WHERE "Customer"."CustomerId" <= ?
                ORDER BY "Customer"."CustomerId"
                -- arguments: 'SP', 2, 3, -2, '@', 'a', 5
                """)
        let rows: [(String?, String, String, Int, Int?, Int)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT nullif(State, 'SP'), substr(LastName, 2, 3), substr(LastName, -2), instr(Email, '@'),
              instr(Company, 'a'), length(FirstName)
            FROM Customer
            WHERE CustomerId <= 5
            ORDER BY CustomerId
            """
        ) { row in
            (
                try row.decode(String?.self, at: 0), try row.decode(String.self, at: 1),
                try row.decode(String.self, at: 2), try row.decode(Int.self, at: 3),
                try row.decode(Int?.self, at: 4), try row.decode(Int.self, at: 5)
            )
        }
        #expect(rows.count == 5)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
            #expect(row.3 == raw.3)
            #expect(row.4 == raw.4)
            #expect(row.5 == raw.5)
        }
        #expect(rows.contains { $0.0 == nil } && rows.contains { $0.4 == nil })
        // abs, round, lower and upper compose with the rest.
        let numbers = try InvoiceLine.where { $0.invoiceLineId == 1 }.select {
            (($0.unitPrice - 1.0).abs(), ($0.unitPrice * 3.0).rounded(toPlaces: 1), $0.quantity.nullif(1))
        }.fetchOne(db)
        #expect(numbers?.0 == 0.01 || abs((numbers?.0 ?? 0) - 0.01) < 1e-9)
        #expect(numbers?.1 == 3.0 && numbers?.2 == .some(nil))
    }

    @Test func dateFunctions() throws {
        let db = try Database.chinook()
        let query = Invoice.where { $0.invoiceId <= 3 }.order(by: \.invoiceId).select {
            (
                $0.invoiceDate.date(), $0.invoiceDate.time(.hours(5)), $0.invoiceDate.datetime(.startOfMonth, .days(1)),
                $0.invoiceDate.julianDay(),
                $0.invoiceDate.unixEpoch(), $0.invoiceDate.strftime("%Y/%m", .years(-1))
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  date("Invoice"."InvoiceDate"),
                  time("Invoice"."InvoiceDate", ?),
                  datetime("Invoice"."InvoiceDate", ?, ?),
                  julianday("Invoice"."InvoiceDate"),
                  unixepoch("Invoice"."InvoiceDate"),
                  strftime(?, "Invoice"."InvoiceDate", ?)
                FROM "Invoice"
                WHERE "Invoice"."InvoiceId" <= ?
                ORDER BY "Invoice"."InvoiceId"
                -- arguments: '+5 hours', 'start of month', '+1 days', '%Y/%m', '-1 years', 3
                """)
        let rows: [(String?, String?, String?, Double?, Int64?, String?)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT date(InvoiceDate), time(InvoiceDate, '+5 hours'), datetime(InvoiceDate, 'start of month', '+1 days'), julianday(InvoiceDate),
              unixepoch(InvoiceDate), strftime('%Y/%m', InvoiceDate, '-1 years') FROM Invoice WHERE InvoiceId <= 3 ORDER BY InvoiceId
            """
        ) { row in
            (
                try row.decode(String?.self, at: 0), try row.decode(String?.self, at: 1),
                try row.decode(String?.self, at: 2), try row.decode(Double?.self, at: 3),
                try row.decode(Int64?.self, at: 4), try row.decode(String?.self, at: 5)
            )
        }
        #expect(rows.count == 3)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
            #expect(row.3 == raw.3)
            #expect(row.4 == raw.4)
            #expect(row.5 == raw.5)
        }
        #expect(rows.first?.0 == "2021-01-01")
        #expect(rows.first?.1 == "05:00:00")
        #expect(rows.first?.5 == "2020/01")
        // The unixepoch of each invoice is the instant the builder reads.
        let invoice = try Invoice.find(1).fetchOne(db)
        #expect(rows.first?.4 == invoice.map { Int64($0.invoiceDate.timeIntervalSince1970) })
        // Grouping by year.
        let years: [(String?, Double?)] = try Invoice.group { $0.invoiceDate.strftime("%Y") }.order {
            $0.invoiceDate.strftime("%Y")
        }
        .select { ($0.invoiceDate.strftime("%Y"), $0.total.sum()) }.fetchAll(db)
        let expectedYears = try db.fetchAll(
            "SELECT strftime('%Y', InvoiceDate) y, sum(Total) FROM Invoice GROUP BY y ORDER BY y"
        ) { row in
            (try row.decode(String?.self, at: 0), try row.decode(Double?.self, at: 1))
        }
        #expect(years.map(\.0) == expectedYears.map(\.0))
        #expect(years.map(\.1) == expectedYears.map(\.1))
        #expect(years.count == 5)
    }

    @Test func dateFunctionsReadUnixTimeColumnsAsUnixTime() throws {
        let db = try Database.memory()
        try db.execute(
            "CREATE TABLE reminder (id INTEGER PRIMARY KEY, title TEXT NOT NULL, createdAt, priority INTEGER)")
        try db.execute(
            "INSERT INTO reminder VALUES (1, 'a', 1609459200, 1), (2, 'b', 1609459200000, 2), (3, 'c', NULL, 3)")
        let seconds = Column<Reminder, Date?>("reminder", "createdAt", storage: .date(.unixSeconds))
        let milliseconds = Column<Reminder, Date?>("reminder", "createdAt", storage: .date(.unixMilliseconds))
        #expect(
            SQLLayout.lines(seconds.datetime(.days(1)).queryFragment) == """
                datetime("reminder"."createdAt", ?, ?)
                -- arguments: 'unixepoch', '+1 days'
                """)
        #expect(
            SQLLayout.lines(milliseconds.date().queryFragment) == """
                date("reminder"."createdAt" / 1000.0, ?)
                -- arguments: 'unixepoch'
                """)
        let viaSeconds: [String?] = try Reminder.order(by: \.id).select { _ in seconds.datetime() }.fetchAll(db)
        let viaMilliseconds: [String?] = try Reminder.order(by: \.id).select { _ in milliseconds.date() }.fetchAll(db)
        #expect(viaSeconds.count == 3)
        #expect(viaSeconds.first == "2021-01-01 00:00:00")
        #expect(viaSeconds.last == .some(nil))
        #expect(viaMilliseconds == ["1970-01-19", "2021-01-01", nil])
        // Without the storage, SQLite reads the number as a Julian day: another instant.
        let asJulian: [String?] = try Reminder.order(by: \.id).select { $0.createdAt.date() }.fetchAll(db)
        #expect(asJulian.count == 3)
        #expect(asJulian.first != "2021-01-01")
    }

    @Test func distinctAggregatesAndOffsetWithoutLimit() throws {
        let db = try Database.chinook()
        let query = Track.select {
            (
                $0.unitPrice.sum(distinct: true), $0.unitPrice.avg(distinct: true),
                $0.mediaTypeId.count(distinct: true), $0.mediaTypeId.total(distinct: true)
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  sum(DISTINCT "Track"."UnitPrice"),
                  avg(DISTINCT "Track"."UnitPrice"),
                  count(DISTINCT "Track"."MediaTypeId"),
                  total(DISTINCT "Track"."MediaTypeId")
                FROM "Track"
                """)
        let row = try query.fetchOne(db)
        #expect(row?.0 == 2.98)
        #expect(row?.1 == 1.49)
        #expect(row?.2 == 5)
        #expect(row?.3 == 15.0)
        let genres = Track.where { $0.albumId == 1 }.select { $0.mediaTypeId.groupConcat(distinct: true) }
        #expect(
            SQLLayout.lines(genres.sql) == """
                SELECT group_concat(DISTINCT "Track"."MediaTypeId")
                FROM "Track"
                WHERE "Track"."AlbumId" = ?
                -- arguments: 1
                """)
        #expect(try genres.fetchOne(db) == .some("1"))
        let rest = Track.order(by: \.trackId).offset(3500).select { $0.trackId }
        #expect(
            SQLLayout.lines(rest.sql) == """
                SELECT "Track"."TrackId"
                FROM "Track"
                ORDER BY "Track"."TrackId"
                LIMIT -1 OFFSET ?
                -- arguments: 3500
                """)
        #expect(try rest.fetchAll(db) == [3501, 3502, 3503])
        #expect(try rest.fetchCount(db) == 3)
        // A later limit keeps the offset.
        #expect(
            try Track.order(by: \.trackId).offset(3500).limit(2).select { $0.trackId }.fetchAll(db) == [3501, 3502])
    }
}
