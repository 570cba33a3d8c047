import Foundation
import Slate

// `NorthwindDatabase` and its records (`Customer`, `Order`, `OrderDetail`, `Product` …) are
// generated at build time by SlateBuildPlugin from Resources/northwind.sqlite.
do {
    // The database ships read-only inside the executable's resource bundle; `bundled()` opens it on
    // a queue (one serialized connection, with blocking, async and completion-handler calls).
    let queue = try NorthwindDatabase.bundled()
    try queue.read { db in
        // Counts.
        let customers = try Customer.all().fetchCount(db)
        let orders = try Order.all().fetchCount(db)
        print("Northwind has \(customers) customers and \(orders) orders.")

        // A join through a foreign key (Orders.CustomerID → Customers), grouped and counted in SQL.
        print("\nTop 5 customers by number of orders:")
        let top = try Customer.all()
            .join(Order.self, on: { customer, order in customer.customerID == order.customerID })
            .group { customer, _ in customer.customerID }
            .order { customer, order in (order.orderID.count().descending(), customer.companyName) }
            .select { customer, order in (customer.companyName, order.orderID.count()) }
            .limit(5)
            .fetchAll(db)
        for (company, count) in top { print("  \(company ?? "?"): \(count)") }

        // A filtered select of chosen columns, decoded into typed tuples; a subquery keeps the
        // products of suppliers in one country.
        let country = "Germany"
        print("\nProducts from suppliers in \(country) costing more than $30:")
        let germanSuppliers = Supplier.where { $0.country == country }.select { $0.supplierID }
        let products =
            try Product
            .where { $0.unitPrice > 30.0 && $0.supplierID.in(germanSuppliers) }
            .order { $0.unitPrice.descending() }
            .select { ($0.productName, $0.unitPrice) }
            .fetchAll(db)
        for (name, price) in products { print("  \(name): $\(String(format: "%.2f", price ?? 0))") }

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
