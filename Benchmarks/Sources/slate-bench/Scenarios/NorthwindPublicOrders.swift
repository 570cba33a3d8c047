import Slate

// `slate-generated-public` in northwind-orders: `slate-generated` with the record `slate generate`
// writes for `"accessLevel": "public"` (PublicOrder+Slate.swift, which the generator's GoldenTests
// regenerate), whose `init(row:)` cannot call the memberwise initializer Swift synthesizes (that
// one is internal, and a public initializer with the same labels cannot sit beside it).

extension NorthwindOrders.Fixture {
    /// The public generated record, through the typed layer, like ``slateGenerated(_:)``.
    func slateGeneratedPublic(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure {
            try PublicGeneratedOrder.all().order(by: \.orderID).fetchAll(slate)
        }.map(Order.init).checksum
    }
}

extension Order {
    /// The same order, from the public generated record (for the checksum, untimed).
    init(_ order: PublicGeneratedOrder) {
        self.init(
            orderID: order.orderID ?? -1, customerID: order.customerID, employeeID: order.employeeID,
            orderDate: order.orderDate, requiredDate: order.requiredDate, shippedDate: order.shippedDate,
            shipVia: order.shipVia, freight: order.freight, shipName: order.shipName,
            shipAddress: order.shipAddress, shipCity: order.shipCity, shipRegion: order.shipRegion,
            shipPostalCode: order.shipPostalCode, shipCountry: order.shipCountry)
    }
}
