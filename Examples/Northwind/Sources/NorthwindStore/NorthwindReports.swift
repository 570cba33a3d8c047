import Foundation
import Slate

// `NorthwindDatabase` and its records (`Customer`, `Order`, `OrderDetail`, `Product` …) are
// generated at build time by SlateBuildPlugin from Resources/northwind.sqlite, public (slate.json).
// The queries the program prints live here, as values, so that its tests can run them on a copy of
// the database.

extension NorthwindDatabase {
    /// The path of the database file bundled with this module, for tests that copy it.
    public static var bundledFilePath: String? {
        Bundle.module.url(forResource: resourceName, withExtension: resourceExtension)?.path
    }
}

/// The reports the Northwind program prints.
public enum NorthwindReports {
    /// The customers with the most orders, with their number of orders: a join through a foreign
    /// key (Orders.CustomerID → Customers), grouped and counted in SQL.
    public static func topCustomers(limit: Int) -> Selection<(Customer.Columns, Order.Columns), (String?, Int)> {
        Customer.all()
            .join(Order.self, on: { customer, order in customer.customerID == order.customerID })
            .group { customer, _ in customer.customerID }
            .order { customer, order in (order.orderID.count().descending(), customer.companyName) }
            .select { customer, order in (customer.companyName, order.orderID.count()) }
            .limit(limit)
    }

    /// The products of suppliers in `country` costing more than `price`, most expensive first: a
    /// filtered select of chosen columns, with a subquery.
    public static func expensiveProducts(
        fromSuppliersIn country: String, over price: Double
    ) -> Selection<Product.Columns, (String, Double?)> {
        let suppliers = Supplier.where { $0.country == country }.select { $0.supplierID }
        return
            Product
            .where { $0.unitPrice > price && $0.supplierID.in(suppliers) }
            .order { $0.unitPrice.descending() }
            .select { ($0.productName, $0.unitPrice) }
    }

    /// Marks a product discontinued; returns whether a product has that key.
    public static func discontinue(productID: Int64, in db: Database) throws -> Bool {
        try Product.update { $0.discontinued.set(to: "1") }.where { $0.productID == productID }.execute(db) == 1
    }
}
