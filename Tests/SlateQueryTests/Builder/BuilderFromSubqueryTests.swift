import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// A select used as a table source, with typed columns, alone and joined.
@Suite struct BuilderFromSubqueryTests {
    static func spending(since year: String) -> Selection<Invoice.Columns, (Int64, Double?)> {
        Invoice.where { $0.invoiceDate.strftime("%Y") >= year }.group(by: \.customerId).select {
            ($0.customerId, $0.total.sum())
        }
    }

    @Test func selectsFromASubquery() throws {
        let db = try Database.chinook()
        let query = Spending.from(Self.spending(since: "2024")).where { $0.spent > 20.0 }.order {
            ($0.spent.descending(), $0.customerId)
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                WITH "spending"("customerId", "spent") AS (
                  SELECT "Invoice"."CustomerId", sum("Invoice"."Total")
                  FROM "Invoice"
                  WHERE strftime(?, "Invoice"."InvoiceDate") >= ?
                  GROUP BY "Invoice"."CustomerId"
                )
                SELECT "spending"."customerId", "spending"."spent"
                FROM "spending"
                WHERE "spending"."spent" > ?
                ORDER BY "spending"."spent" DESC, "spending"."customerId"
                -- arguments: '%Y', '2024', 20.0
                """)
        let rows = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT s.CustomerId, s.spent FROM (SELECT CustomerId, sum(Total) AS spent FROM Invoice WHERE strftime('%Y', InvoiceDate) >= '2024'
              GROUP BY CustomerId) AS s WHERE s.spent > 20 ORDER BY s.spent DESC, s.CustomerId
            """
        ) { row in Spending(customerId: try row.decode(at: 0), spent: try row.decode(at: 1)) }
        #expect(rows == expected)
        #expect(!rows.isEmpty)
    }

    @Test func joinsASubquery() throws {
        let db = try Database.chinook()
        let query = Customer.join(
            Spending.self, from: Self.spending(since: "2021"), on: { $0.customerId == $1.customerId }
        )
        .where { customer, spending in customer.country == "USA" && spending.spent >= 38.0 }
        .order { customer, _ in customer.customerId }
        .select { customer, spending in (customer.lastName, spending.spent) }
        #expect(query.sql.text.hasPrefix(#"WITH "spending"("customerId", "spent") AS (SELECT "#))
        #expect(
            query.sql.text.contains(
                #"FROM "Customer" JOIN "spending" ON "Customer"."CustomerId" = "spending"."customerId""#))
        let rows: [(String, Double?)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT c.LastName, s.spent FROM Customer c JOIN (SELECT CustomerId, sum(Total) AS spent FROM Invoice
              WHERE strftime('%Y', InvoiceDate) >= '2021' GROUP BY CustomerId) AS s ON c.CustomerId = s.CustomerId
            WHERE c.Country = 'USA' AND s.spent >= 38 ORDER BY c.CustomerId
            """
        ) { row in (try row.decode(String.self, at: 0), try row.decode(Double?.self, at: 1)) }
        #expect(rows.map(\.0) == expected.map(\.0))
        #expect(rows.map(\.1) == expected.map(\.1))
        #expect(rows.count > 3)
        // A left join keeps the customers the subquery has no row for.
        let left: [(Customer, Spending?)] = try Customer.leftJoin(
            Spending.self, from: Self.spending(since: "2025"), on: { $0.customerId == $1.customerId }
        )
        .fetchAll(db)
        let unmatched = left.filter { $0.1 == nil }.count
        #expect(left.count == 59)
        #expect(
            unmatched
                == (try db.fetchValue(
                    Int.self,
                    """
                    SELECT count(*)
                    FROM Customer
                    WHERE CustomerId NOT IN (SELECT CustomerId FROM Invoice WHERE strftime('%Y', InvoiceDate) >= '2025')
                    """
                )))
    }
}
