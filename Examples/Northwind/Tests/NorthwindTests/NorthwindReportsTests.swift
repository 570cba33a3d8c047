import Foundation
import NorthwindStore
import Slate
import SlateTestingCore
import Testing

/// The reports' queries, each shown as SQL one clause per line and checked against its rows, on an
/// in-memory copy of the bundled database.
@Suite struct NorthwindReportsTests {
    /// A copy of the bundled database that a test may change.
    static func northwind() throws -> Database {
        try Database.inMemoryCopy(ofFile: try #require(NorthwindDatabase.bundledFilePath))
    }

    @Test func topCustomers() throws {
        let query = NorthwindReports.topCustomers(limit: 3)
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "Customers"."CompanyName", count("Orders"."OrderID")
                FROM "Customers"
                JOIN "Orders" ON "Customers"."CustomerID" = "Orders"."CustomerID"
                GROUP BY "Customers"."CustomerID"
                ORDER BY count("Orders"."OrderID") DESC, "Customers"."CompanyName"
                LIMIT ?
                -- arguments: 3
                """)
        #expect(
            try ResultTable(query.sql, in: Self.northwind()).description == """
                ┌──────────────────────┬───────────────────────────┐
                │ CompanyName          │ count("Orders"."OrderID") │
                ├──────────────────────┼───────────────────────────┤
                │ 'Save-a-lot Markets' │ 31                        │
                │ 'Ernst Handel'       │ 30                        │
                │ 'QUICK-Stop'         │ 28                        │
                └──────────────────────┴───────────────────────────┘
                """)
    }

    @Test func expensiveGermanProducts() throws {
        let query = NorthwindReports.expensiveProducts(fromSuppliersIn: "Germany", over: 30)
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "Products"."ProductName", "Products"."UnitPrice"
                FROM "Products"
                WHERE "Products"."UnitPrice" > ?
                  AND "Products"."SupplierID" IN (
                    SELECT "Suppliers"."SupplierID"
                    FROM "Suppliers"
                    WHERE "Suppliers"."Country" = ?
                  )
                ORDER BY "Products"."UnitPrice" DESC
                -- arguments: 30.0, 'Germany'
                """)
        #expect(
            try ResultTable(query.sql, in: Self.northwind()).description == """
                ┌─────────────────────────────┬───────────┐
                │ ProductName                 │ UnitPrice │
                ├─────────────────────────────┼───────────┤
                │ 'Thüringer Rostbratwurst'   │ 123.79    │
                │ 'Rössle Sauerkraut'         │ 45.6      │
                │ 'Schoggi Schokolade'        │ 43.9      │
                │ 'Wimmers gute Semmelknödel' │ 33.25     │
                │ 'Gumbär Gummibärchen'       │ 31.23     │
                └─────────────────────────────┴───────────┘
                """)
    }

    @Test func discontinuingAProductChangesTheCopyOnly() throws {
        let db = try Self.northwind()
        let before = try db.dump()
        #expect(try NorthwindReports.discontinue(productID: 1, in: db))
        #expect(try !NorthwindReports.discontinue(productID: 999_999, in: db))
        #expect(try db.fetchValue(String.self, "SELECT Discontinued FROM Products WHERE ProductID = 1") == "1")
        #expect(try db.dump() != before)
        // The bundled file, and so a fresh copy, still sells it.
        #expect(try Self.northwind().dump() == before)
    }

    @Test func aSeededDatabaseForAnEdgeCase() throws {
        // A customer without orders is not among the top customers, however few there are.
        let db = try Database.seeded { db in
            try db.execute(
                sql: """
                    CREATE TABLE Customers(CustomerID TEXT PRIMARY KEY, CompanyName TEXT);
                    CREATE TABLE Orders(OrderID INTEGER PRIMARY KEY, CustomerID TEXT);
                    INSERT INTO Customers VALUES ('ALFKI', 'Alfreds'), ('NOORD', 'No orders');
                    INSERT INTO Orders VALUES (1, 'ALFKI'), (2, 'ALFKI');
                    """)
        }
        #expect(try NorthwindReports.topCustomers(limit: 5).fetchAll(db).map(\.0) == ["Alfreds"])
    }
}
