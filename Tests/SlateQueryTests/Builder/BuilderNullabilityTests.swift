import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// Conditions and arithmetic over nullable values are typed as SQL evaluates them: optional
/// (`Bool?`, `Int64?`) when an operand can be `NULL`, and still accepted by `where`.
@Suite struct BuilderNullabilityTests {
    @Test func aConditionOverANullableColumnIsOptionalWhenSelected() throws {
        let db = try Database.chinook()
        let query = Customer.order(by: \.customerId).select {
            ($0.customerId, $0.state.in(["CA", "WA"]), $0.company == "Apple Inc.")
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "Customer"."CustomerId", "Customer"."State" IN (?, ?), "Customer"."Company" = ?
                FROM "Customer"
                ORDER BY "Customer"."CustomerId"
                -- arguments: 'CA', 'WA', 'Apple Inc.'
                """)
        let rows: [(Int64?, Bool?, Bool?)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            "SELECT CustomerId, State IN ('CA', 'WA'), Company = 'Apple Inc.' FROM Customer ORDER BY CustomerId"
        ) { row in
            (try row.decode(Int64?.self, at: 0), try row.decode(Bool?.self, at: 1), try row.decode(Bool?.self, at: 2))
        }
        #expect(rows.count == 59 && expected.count == 59)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0)
            #expect(row.1 == raw.1)
            #expect(row.2 == raw.2)
        }
        // Three values each: true, false and NULL.
        let states = Set(rows.map { $0.1.map { $0 ? 1 : 0 } ?? -1 })
        #expect(states == [1, 0, -1])
        // A condition over non-optional columns stays `Bool`.
        let flags: [Bool] = try Track.where { $0.trackId <= 10 }.order(by: \.trackId).select {
            $0.milliseconds > 300_000
        }.fetchAll(db)
        let expectedFlags = try db.fetchAll(
            Bool.self, "SELECT Milliseconds > 300000 FROM Track WHERE TrackId <= 10 ORDER BY TrackId")
        #expect(flags == expectedFlags)
        #expect(Set(flags).count == 2)
        // Comparing two nullable columns, and a non-optional with an optional one.
        let same: [Bool?] = try Invoice.join(Customer.self, on: { $0.customerId == $1.customerId })
            .where { invoice, _ in invoice.invoiceId <= 5 }
            .select { invoice, customer in invoice.billingState == customer.state }.fetchAll(db)
        #expect(same.count == 5 && same.contains(nil))
    }

    @Test func whereAcceptsConditionsThatCanBeNull() throws {
        let db = try Database.chinook()
        let inStates = Customer.where { $0.state.in(["CA", "WA"]) && $0.country == "USA" }
        #expect(
            SQLLayout.lines(inStates.select { $0.customerId }.sql) == """
                SELECT "Customer"."CustomerId"
                FROM "Customer"
                WHERE "Customer"."State" IN (?, ?) AND "Customer"."Country" = ?
                -- arguments: 'CA', 'WA', 'USA'
                """)
        #expect(
            try inStates.fetchCount(db)
                == (try db.fetchValue(
                    Int.self, "SELECT count(*) FROM Customer WHERE State IN ('CA', 'WA') AND Country = 'USA'")))
        // NOT of a NULL condition is NULL: rows without a state match neither side.
        let notIn = try Customer.where { !$0.state.in(["CA", "WA"]) }.fetchCount(db)
        #expect(notIn == (try db.fetchValue(Int.self, "SELECT count(*) FROM Customer WHERE NOT State IN ('CA', 'WA')")))
        #expect(notIn + 4 < 59)
        // Mixed `Bool` and `Bool?` operands, `||`, in joins, HAVING and CASE.
        let mixed = try Track.where { $0.milliseconds > 400_000 || $0.composer == "U2" }.fetchCount(db)
        #expect(
            mixed
                == (try db.fetchValue(
                    Int.self, "SELECT count(*) FROM Track WHERE Milliseconds > 400000 OR Composer = 'U2'")))
        let labels: [String] = try Track.where { $0.trackId <= 100 }.order(by: \.trackId)
            .select { Case.when($0.composer == "AC/DC", then: "acdc").else("other") }.fetchAll(db)
        let expectedLabels = try db.fetchAll(
            String.self,
            """
            SELECT CASE WHEN Composer = 'AC/DC' THEN 'acdc' ELSE 'other' END
            FROM Track
            WHERE TrackId <= 100
            ORDER BY TrackId
            """
        )
        #expect(labels == expectedLabels)
        #expect(labels.contains("acdc"))
        let nullableElse: [Bool?] = try Track.where { $0.trackId <= 100 }.order(by: \.trackId)
            .select { Case.when($0.milliseconds > 300_000, then: true).else($0.composer == "AC/DC") }.fetchAll(db)
        let expectedElse = try db.fetchAll(
            Bool?.self,
            """
            SELECT CASE WHEN Milliseconds > 300000 THEN 1 ELSE Composer = 'AC/DC' END
            FROM Track
            WHERE TrackId <= 100
            ORDER BY TrackId
            """
        )
        #expect(nullableElse == expectedElse)
        #expect(nullableElse.contains(nil))
        #expect(nullableElse.contains(false))
    }

    @Test func plainSwiftLogicStillTypeChecksAsPlainSwift() {
        // The `Bool?` overloads of `&&` and `||` take `SQLExpression` operands only: plain Swift
        // logic in a module importing Slate does not explore them (the 50 ms budget watches this line).
        let ids: [Int?] = [3]
        let names = ["a"]
        let plain = (ids.first ?? nil) == 3 && names.count + 1 > 2 * 3 - 1
        #expect(plain == false)
    }

    @Test func arithmeticMixingOptionalAndNonOptionalIsOptional() throws {
        let db = try Database.chinook()
        let query = Track.where { $0.trackId <= 3 }.order(by: \.trackId).select {
            ($0.bytes + $0.milliseconds, $0.milliseconds - $0.bytes, $0.trackId % 2)
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  "Track"."Bytes" + "Track"."Milliseconds",
                  "Track"."Milliseconds" - "Track"."Bytes",
                  "Track"."TrackId" % ?
                FROM "Track"
                WHERE "Track"."TrackId" <= ?
                ORDER BY "Track"."TrackId"
                -- arguments: 2, 3
                """)
        let rows: [(Int64?, Int64?, Int64?)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT Bytes + Milliseconds, Milliseconds - Bytes, TrackId % 2
            FROM Track
            WHERE TrackId <= 3
            ORDER BY TrackId
            """
        ) { row in
            (try row.decode(Int64?.self, at: 0), try row.decode(Int64?.self, at: 1), try row.decode(Int64.self, at: 2))
        }
        #expect(rows.map(\.0) == expected.map(\.0))
        #expect(rows.map(\.1) == expected.map(\.1))
        let remainders: [Int64?] = [1, 0, 1]
        #expect(rows.map(\.2) == remainders)
        // Two non-optional columns stay non-optional.
        let products: [Double] = try Track.where { $0.trackId <= 2 }.order(by: \.trackId).select {
            $0.unitPrice * $0.unitPrice
        }.fetchAll(db)
        #expect(products.count == 2)
    }

    @Test func aNonOptionalExpressionIsAssignedToAnOptionalColumn() throws {
        let db = try Database.chinookCopy()
        let update = Track.update { $0.composer.set(to: $0.name) }.where { $0.composer == nil && $0.albumId == 1 }
        #expect(
            SQLLayout.lines(update.sql) == """
                UPDATE "Track"
                SET "Composer" = "Track"."Name"
                WHERE "Track"."Composer" IS NULL AND "Track"."AlbumId" = ?
                -- arguments: 1
                """)
        let before = try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE Composer IS NULL")
        #expect(try update.execute(db) == 0)
        let changed = try Track.update { $0.composer.set(to: $0.name.upper()) }.where { $0.composer == nil }.execute(db)
        #expect(changed == before && changed > 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE Composer IS NULL") == 0)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE Composer = upper(Name)") >= changed)
    }

    @Test func scalarSubqueriesAndLeftJoinedColumnsCompareWithLiteralsAndNil() throws {
        let db = try Database.chinook()
        // A scalar subquery (Int?) compared with a literal and with a column.
        let busy = Customer.where { customer in
            Invoice.where { $0.customerId == customer.customerId }.select { _ in count() } == 7
        }
        #expect(
            try busy.fetchCount(db)
                == (try db.fetchValue(
                    Int.self,
                    """
                    SELECT count(*)
                    FROM Customer c
                    WHERE (SELECT count(*) FROM Invoice i WHERE i.CustomerId = c.CustomerId) = 7
                    """
                )))
        let aboveAverage = try Invoice.where { $0.total > Invoice.select { $0.total.avg() } }.fetchCount(db)
        #expect(
            aboveAverage
                == (try db.fetchValue(
                    Int.self, "SELECT count(*) FROM Invoice WHERE Total > (SELECT avg(Total) FROM Invoice)")))
        // `== nil` and `!= nil` on the optional side of a left join.
        let joined = Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId })
        let without = try joined.where { _, album in album.title == nil }.fetchCount(db)
        let with = try joined.where { _, album in album.title != nil }.fetchCount(db)
        #expect(
            without
                == (try db.fetchValue(
                    Int.self,
                    "SELECT count(*) FROM Artist a LEFT JOIN Album b ON a.ArtistId = b.ArtistId WHERE b.Title IS NULL"))
        )
        #expect(with == 347 && without > 0)
    }
}
