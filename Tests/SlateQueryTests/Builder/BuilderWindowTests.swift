import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

@testable import SlateQuery

/// Window functions: ranking and value functions, and aggregates over windows with frames; each
/// rendered exactly and run on Chinook against the same SQL written by hand.
@Suite struct BuilderWindowTests {
    @Test func rankingFunctions() throws {
        let db = try Database.chinook()
        let query = Track.where { $0.albumId <= 3 }.order { ($0.albumId, $0.trackId) }.select { track in
            let window = Window.partition(by: track.albumId).order(by: track.milliseconds.descending())
            return (
                track.trackId, rowNumber().over(window), rank().over(window),
                denseRank().over(.partition(by: track.albumId).order(by: track.unitPrice)),
                ntile(3).over(window), percentRank().over(window), cumeDist().over(window)
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  "Track"."TrackId",
                  row_number() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC),
                  rank() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC),
                  dense_rank() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."UnitPrice"),
                  ntile(?) OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC),
                  percent_rank() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC),
                  cume_dist() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC)
                FROM "Track"
                WHERE "Track"."AlbumId" <= ?
                ORDER BY "Track"."AlbumId", "Track"."TrackId"
                -- arguments: 3, 3
                """)
        let rows: [(Int64?, Int, Int, Int, Int, Double, Double)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT TrackId, row_number() OVER w, rank() OVER w, dense_rank() OVER (PARTITION BY AlbumId ORDER BY UnitPrice), ntile(3) OVER w,
              percent_rank() OVER w, cume_dist() OVER w
            FROM Track WHERE AlbumId <= 3 WINDOW w AS (PARTITION BY AlbumId ORDER BY Milliseconds DESC) ORDER BY AlbumId, TrackId
            """
        ) { row in
            (
                try row.decode(Int64?.self, at: 0), try row.decode(Int.self, at: 1), try row.decode(Int.self, at: 2),
                try row.decode(Int.self, at: 3),
                try row.decode(Int.self, at: 4), try row.decode(Double.self, at: 5), try row.decode(Double.self, at: 6)
            )
        }
        #expect(rows.count == expected.count)
        #expect(rows.count > 10)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
            #expect(row.3 == raw.3)
            #expect(row.4 == raw.4)
            #expect(row.5 == raw.5)
            #expect(row.6 == raw.6)
        }
        let distinctRanks: Set<Int> = Set(rows.map(\.1))
        #expect(distinctRanks.count > 5)
        // OVER () and a window function in ORDER BY.
        let longestFirst: [Int64?] = try Track.where { $0.albumId == 1 }.order {
            rank().over(.order(by: $0.milliseconds.descending()))
        }
        .limit(3).select { $0.trackId }.fetchAll(db)
        #expect(
            longestFirst
                == (try db.fetchAll(
                    Int64?.self, "SELECT TrackId FROM Track WHERE AlbumId = 1 ORDER BY Milliseconds DESC LIMIT 3")))
        // A window function without its window is not an expression: in `select { _ in rowNumber() }`
        // Swift discards the value (with an "unused" warning) and the selection of nothing renders
        // a fragment that throws rather than run `SELECT  FROM`.
        let nothing = Genre.all().clauses.selecting([selectedNothing]).render()
        #expect(nothing.buildError?.resultCode == .misuse)
        #expect(throws: DatabaseError.self) { try db.execute(nothing) }
        let counted: [Int] = try Genre.where { $0.genreId <= 3 }.select { _ in count().over() }.fetchAll(db)
        #expect(counted == [3, 3, 3])
    }

    @Test func valueFunctions() throws {
        let db = try Database.chinook()
        let query = Invoice.where { $0.customerId == 2 }.order(by: \.invoiceId).select { invoice in
            let byDate = Window.order(by: invoice.invoiceDate, invoice.invoiceId)
            return (
                invoice.total.lag().over(byDate), invoice.total.lead(offset: 2, default: 0).over(byDate),
                invoice.total.firstValue().over(byDate),
                invoice.total.lastValue().over(byDate.rows(.currentRow, .unboundedFollowing)),
                invoice.total.nthValue(2).over(byDate)
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  lag("Invoice"."Total", ?) OVER (ORDER BY "Invoice"."InvoiceDate", "Invoice"."InvoiceId"),
                  lead("Invoice"."Total", ?, ?) OVER (ORDER BY "Invoice"."InvoiceDate", "Invoice"."InvoiceId"),
                  first_value("Invoice"."Total") OVER (ORDER BY "Invoice"."InvoiceDate", "Invoice"."InvoiceId"),
                  last_value("Invoice"."Total") OVER (
                    ORDER BY "Invoice"."InvoiceDate", "Invoice"."InvoiceId"
                    ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING
                  ),
                  nth_value("Invoice"."Total", ?) OVER (ORDER BY "Invoice"."InvoiceDate", "Invoice"."InvoiceId")
                FROM "Invoice"
                WHERE "Invoice"."CustomerId" = ?
                ORDER BY "Invoice"."InvoiceId"
                -- arguments: 1, 2, 0.0, 2, 2
                """)
        let rows: [(Double?, Double, Double?, Double?, Double?)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT lag(Total) OVER w, lead(Total, 2, 0.0) OVER w, first_value(Total) OVER w,
              last_value(Total) OVER (ORDER BY InvoiceDate, InvoiceId ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), nth_value(Total, 2) OVER w
            FROM Invoice WHERE CustomerId = 2 WINDOW w AS (ORDER BY InvoiceDate, InvoiceId) ORDER BY InvoiceId
            """
        ) { row in
            (
                try row.decode(Double?.self, at: 0), try row.decode(Double.self, at: 1),
                try row.decode(Double?.self, at: 2), try row.decode(Double?.self, at: 3),
                try row.decode(Double?.self, at: 4)
            )
        }
        #expect(rows.count == 7 && expected.count == 7)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
            #expect(row.3 == raw.3)
            #expect(row.4 == raw.4)
        }
        // The first row has no predecessor and no second row yet: nil, not a decoding error.
        #expect(rows.first?.0 == nil)
        #expect(rows.first?.4 == nil)
        #expect(rows.last?.1 == 0)
    }

    @Test func aggregatesOverFramedWindows() throws {
        let db = try Database.chinook()
        let query = Invoice.where { $0.customerId == 2 }.order(by: \.invoiceId).select { invoice in
            let byDate = Window.partition(by: invoice.customerId).order(by: invoice.invoiceDate)
            return (
                invoice.total.sum().over(byDate), invoice.total.avg().over(byDate.rows(.preceding(1), .following(1))),
                count().over(byDate.groups(.unboundedPreceding, .currentRow)),
                invoice.total.max().over(byDate.range(.unboundedPreceding, .unboundedFollowing)),
                invoice.total.total().over()
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  sum("Invoice"."Total") OVER (
                    PARTITION BY "Invoice"."CustomerId"
                    ORDER BY "Invoice"."InvoiceDate"
                  ),
                  avg("Invoice"."Total") OVER (
                    PARTITION BY "Invoice"."CustomerId"
                    ORDER BY "Invoice"."InvoiceDate"
                    ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING
                  ),
                  count(*) OVER (
                    PARTITION BY "Invoice"."CustomerId"
                    ORDER BY "Invoice"."InvoiceDate"
                    GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
                  ),
                  max("Invoice"."Total") OVER (
                    PARTITION BY "Invoice"."CustomerId"
                    ORDER BY "Invoice"."InvoiceDate"
                    RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING
                  ),
                  total("Invoice"."Total") OVER ()
                FROM "Invoice"
                WHERE "Invoice"."CustomerId" = ?
                ORDER BY "Invoice"."InvoiceId"
                -- arguments: 2
                """)
        let rows: [(Double?, Double?, Int, Double?, Double)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT sum(Total) OVER w, avg(Total) OVER (w ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), count(*) OVER (w GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW),
              max(Total) OVER (w RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), total(Total) OVER ()
            FROM Invoice WHERE CustomerId = 2 WINDOW w AS (PARTITION BY CustomerId ORDER BY InvoiceDate) ORDER BY InvoiceId
            """
        ) { row in
            (
                try row.decode(Double?.self, at: 0), try row.decode(Double?.self, at: 1),
                try row.decode(Int.self, at: 2), try row.decode(Double?.self, at: 3),
                try row.decode(Double.self, at: 4)
            )
        }
        #expect(rows.count == 7 && expected.count == 7)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
            #expect(row.3 == raw.3)
            #expect(row.4 == raw.4)
        }
        #expect(rows.map(\.2) == [1, 2, 3, 4, 5, 6, 7])
        // A negative frame offset is SQLite's error, not a silently different frame.
        let negative = Invoice.select {
            $0.total.sum().over(.order(by: $0.invoiceId).rows(.preceding(-1), .currentRow))
        }
        #expect(negative.sql.text.contains("ROWS BETWEEN -1 PRECEDING AND CURRENT ROW"))
        #expect(throws: DatabaseError.self) { try negative.fetchAll(db) }
        // Without OVER, the same aggregate still aggregates a group.
        let sums: [Double?] = try Invoice.where { $0.customerId <= 2 }.group(by: \.customerId).order(by: \.customerId)
            .select { $0.total.sum() }.fetchAll(db)
        #expect(sums.count == 2)
        #expect(sums.last == rows.last?.0)
    }
}
