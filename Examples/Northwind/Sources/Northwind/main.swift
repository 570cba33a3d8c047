import Foundation
import Slate

// `NorthwindDatabase` and its records (`Customer`, `Order`, `OrderDetail`, `Product` …) are
// generated at build time by SlateBuildPlugin from Resources/northwind.sqlite.
do {
    // The database ships read-only inside the executable's resource bundle.
    let db = try NorthwindDatabase.bundled()

    // Counts.
    let customers = try db.customers.fetchCount()
    let orders = try db.orders.fetchCount()
    print("Northwind has \(customers) customers and \(orders) orders.")

    // A join through foreign keys: each customer's orders (Orders.CustomerID → Customers).
    print("\nTop 5 customers by number of orders:")
    var orderCounts: [(company: String, orders: Int)] = []
    for customer in try db.customers.fetchAll() {
        orderCounts.append((customer.companyName ?? "?", try db.orders.fetch(for: customer).count))
    }
    orderCounts.sort { ($0.orders, $1.company) > ($1.orders, $0.company) }
    for (company, count) in orderCounts.prefix(5) { print("  \(company): \(count)") }

    // A filtered select of chosen columns, decoded into typed tuples.
    let country = "Germany"
    print("\nProducts from suppliers in \(country) costing more than $30:")
    let germanSuppliers = try db.suppliers.select(\.supplierID) { $0.country == country }
    let products = try db.products.select(\.productName, \.unitPrice, \.supplierID) { $0.unitPrice > 30.0 }
        .filter { germanSuppliers.contains($0.2) }
        .sorted { ($0.1 ?? 0) > ($1.1 ?? 0) }
    for (name, price, _) in products { print("  \(name): $\(String(format: "%.2f", price ?? 0))") }

    // Parents through foreign keys: the lines of one order, with their products.
    if let order = try db.orders.find(10248) {
        print("\nOrder \(order.orderID ?? 0) for \(try order.fetchCustomer(in: db.database)?.companyName ?? "?"):")
        for line in try order.fetchOrderDetails(in: db.database) {
            let product = try line.fetchProduct(in: db.database)
            print("  \(line.quantity) × \(product?.productName ?? "?") at $\(String(format: "%.2f", line.unitPrice))")
        }
    }
} catch {
    print("error: \(error)")
    exit(1)
}
