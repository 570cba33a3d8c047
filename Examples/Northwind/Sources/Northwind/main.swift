import Foundation
import Slate

// The database ships read-only inside the executable's resource bundle.
guard let url = Bundle.module.url(forResource: "northwind", withExtension: "sqlite") else {
    print("northwind.sqlite is missing from the bundle")
    exit(1)
}
var configuration = Database.Configuration()
configuration.isReadOnly = true

do {
    let db = try Database(path: url.path, configuration: configuration)

    let customers = try db.fetchValue(Int.self, "SELECT count(*) FROM Customers")
    let orders = try db.fetchValue(Int.self, "SELECT count(*) FROM Orders")
    print("Northwind has \(customers) customers and \(orders) orders.")

    print("\nTop 5 customers by number of orders:")
    let top = try db.fetchAll(
        """
        SELECT c.CompanyName, count(o.OrderID) AS orderCount
        FROM Customers c JOIN Orders o ON o.CustomerID = c.CustomerID
        GROUP BY c.CustomerID ORDER BY orderCount DESC, c.CompanyName LIMIT \(5)
        """
    ) { row in (try row.decode(String.self, at: 0), try row.decode(Int.self, at: 1)) }
    for (company, count) in top { print("  \(company): \(count)") }

    let country = "Germany"
    print("\nProducts from suppliers in \(country) costing more than $30:")
    let products = try db.fetchAll(
        """
        SELECT p.ProductName, p.UnitPrice FROM Products p
        JOIN Suppliers s ON s.SupplierID = p.SupplierID
        WHERE s.Country = \(country) AND p.UnitPrice > \(30.0) ORDER BY p.UnitPrice DESC
        """
    ) { row in (try row.decode(String.self, at: 0), try row.decode(Double.self, at: 1)) }
    for (name, price) in products { print("  \(name): $\(String(format: "%.2f", price))") }
} catch {
    print("error: \(error)")
    exit(1)
}
