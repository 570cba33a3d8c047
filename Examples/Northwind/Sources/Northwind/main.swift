import Foundation
import NorthwindStore
import Slate

// The reports of NorthwindStore (NorthwindReports.swift), on the Northwind database bundled with it.
do {
    // The database ships read-only inside the module's resource bundle; `bundled()` opens it on a
    // queue (one serialized connection, with blocking, async and completion-handler calls).
    let queue = try NorthwindDatabase.bundled()
    try queue.read { db in
        // Counts.
        let customers = try Customer.all().fetchCount(db)
        let orders = try Order.all().fetchCount(db)
        print("Northwind has \(customers) customers and \(orders) orders.")

        print("\nTop 5 customers by number of orders:")
        for (company, count) in try NorthwindReports.topCustomers(limit: 5).fetchAll(db) {
            print("  \(company ?? "?"): \(count)")
        }

        let country = "Germany"
        print("\nProducts from suppliers in \(country) costing more than $30:")
        for (name, price) in try NorthwindReports.expensiveProducts(fromSuppliersIn: country, over: 30).fetchAll(db) {
            print("  \(name): $\(String(format: "%.2f", price ?? 0))")
        }

        // Parents and children through foreign keys: the lines of one order, with their products.
        if let order = try Order.find(10248).fetchOne(db) {
            let customer = try Customer.referenced(by: order).fetchOne(db)
            print("\nOrder \(order.orderID ?? 0) for \(customer?.companyName ?? "?"):")
            for line in try OrderDetail.belonging(to: order).order({ $0.productID }).fetchAll(db) {
                let product = try Product.referenced(by: line).fetchOne(db)
                print(
                    "  \(line.quantity) × \(product?.productName ?? "?") at $\(String(format: "%.2f", line.unitPrice))")
            }
        }
    }
} catch {
    print("error: \(error)")
    exit(1)
}
