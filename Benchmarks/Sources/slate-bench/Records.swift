import Foundation
import GRDB
import Slate

// The structs every contender fills. One plain struct per table serves the raw C API, both
// libraries' row-reading paths, and both libraries' hand-written positional record protocols
// (`Slate.Table` and `GRDB.FetchableRecord` each add an `init(row:)` for their own `Row`).
// Codable decoding needs a type whose `Codable` conformance both libraries use, so it gets its own
// struct. The `@Table` macro's struct is in MacroRecords.swift (a file that does not import GRDB,
// whose `Table` type would clash with the macro's name); the generated one is written at build time
// by SlateBuildPlugin from Schema/item.sql.
//
// Slate and GRDB both define `Row`, `Database`, `Statement`, `SQL`, `Table` and `Column`: always
// qualify them here.

// MARK: - item(i0 … i9 INTEGER NOT NULL)

struct Item: Equatable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    /// Deterministic values for row `row`: mixed bits, roughly ±2^30, both signs, never all zero.
    static func generated(row: Int) -> Item {
        func value(_ column: Int) -> Int {
            var bits =
                UInt64(truncatingIfNeeded: row) &* 0x9e37_79b9_7f4a_7c15 &+ UInt64(column) &* 0xbf58_476d_1ce4_e5b9
            bits ^= bits >> 31
            bits = bits &* 0x94d0_49bb_1331_11eb
            return Int(Int64(bitPattern: bits) >> 33)
        }
        return Item(
            i0: value(0), i1: value(1), i2: value(2), i3: value(3), i4: value(4),
            i5: value(5), i6: value(6), i7: value(7), i8: value(8), i9: value(9))
    }

    static let columnList = "i0, i1, i2, i3, i4, i5, i6, i7, i8, i9"
    /// The table every `item` scenario uses. `NOT NULL`, like the non-optional `Int` properties of
    /// every record type here; Schema/item.sql holds the same statement (checked at run time).
    static let createTable = """
        CREATE TABLE item(i0 INTEGER NOT NULL, i1 INTEGER NOT NULL, i2 INTEGER NOT NULL, i3 INTEGER NOT NULL, \
        i4 INTEGER NOT NULL, i5 INTEGER NOT NULL, i6 INTEGER NOT NULL, i7 INTEGER NOT NULL, i8 INTEGER NOT NULL, \
        i9 INTEGER NOT NULL)
        """
    static let selectAll = "SELECT \(columnList) FROM item"
    static let insert = "INSERT INTO item(\(columnList)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
}

extension Item: Checksummable {
    func combine(into checksum: inout Checksum) {
        checksum.combine(i0)
        checksum.combine(i1)
        checksum.combine(i2)
        checksum.combine(i3)
        checksum.combine(i4)
        checksum.combine(i5)
        checksum.combine(i6)
        checksum.combine(i7)
        checksum.combine(i8)
        checksum.combine(i9)
    }
}

/// A hand-written `Slate.Table` conformance: what the `@Table` macro and `slate generate` write,
/// spelled out. `init(row:)` alone is what `db.fetchAll(Item.self, sql:)` (`slate-record`) uses.
extension Item: Slate.Table {
    static let schema = TableSchema(
        name: "item", columns: (0..<10).map { TableSchema.Column(name: "i\($0)", type: "INTEGER", isNotNull: true) })

    struct Columns: TableColumns {
        let i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Slate.Column<Item, Int>
        init(qualifier: String) {
            i0 = Slate.Column(qualifier, "i0")
            i1 = Slate.Column(qualifier, "i1")
            i2 = Slate.Column(qualifier, "i2")
            i3 = Slate.Column(qualifier, "i3")
            i4 = Slate.Column(qualifier, "i4")
            i5 = Slate.Column(qualifier, "i5")
            i6 = Slate.Column(qualifier, "i6")
            i7 = Slate.Column(qualifier, "i7")
            i8 = Slate.Column(qualifier, "i8")
            i9 = Slate.Column(qualifier, "i9")
        }
    }

    init(row: borrowing Slate.Row) throws {
        i0 = try row.decode(at: 0)
        i1 = try row.decode(at: 1)
        i2 = try row.decode(at: 2)
        i3 = try row.decode(at: 3)
        i4 = try row.decode(at: 4)
        i5 = try row.decode(at: 5)
        i6 = try row.decode(at: 6)
        i7 = try row.decode(at: 7)
        i8 = try row.decode(at: 8)
        i9 = try row.decode(at: 9)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(i0)
        try encoder.encode(i1)
        try encoder.encode(i2)
        try encoder.encode(i3)
        try encoder.encode(i4)
        try encoder.encode(i5)
        try encoder.encode(i6)
        try encoder.encode(i7)
        try encoder.encode(i8)
        try encoder.encode(i9)
    }
}

extension Item: GRDB.FetchableRecord, GRDB.PersistableRecord {
    static let databaseTableName = "item"

    init(row: GRDB.Row) throws {
        i0 = row[0]
        i1 = row[1]
        i2 = row[2]
        i3 = row[3]
        i4 = row[4]
        i5 = row[5]
        i6 = row[6]
        i7 = row[7]
        i8 = row[8]
        i9 = row[9]
    }

    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0
        container["i1"] = i1
        container["i2"] = i2
        container["i3"] = i3
        container["i4"] = i4
        container["i5"] = i5
        container["i6"] = i6
        container["i7"] = i7
        container["i8"] = i8
        container["i9"] = i9
    }
}

/// `Item` as a plain `Codable` struct, coded by column name through each library's `Codable`
/// support: Slate's `CodableRecord` (`RowDecoder`/`RowEncoder`) and GRDB's `FetchableRecord` /
/// `PersistableRecord`. The synthesized `Codable` conformance is the same for both.
struct CodableItem: Codable, Slate.CodableRecord, GRDB.FetchableRecord, GRDB.PersistableRecord, Checksummable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    static let tableName = "item"  // Slate
    static let databaseTableName = "item"  // GRDB

    init(_ item: Item) {
        (i0, i1, i2, i3, i4) = (item.i0, item.i1, item.i2, item.i3, item.i4)
        (i5, i6, i7, i8, i9) = (item.i5, item.i6, item.i7, item.i8, item.i9)
    }

    func combine(into checksum: inout Checksum) {
        Item(i0: i0, i1: i1, i2: i2, i3: i3, i4: i4, i5: i5, i6: i6, i7: i7, i8: i8, i9: i9)
            .combine(into: &checksum)
    }
}

// MARK: - keyed_item(id INTEGER PRIMARY KEY, i0 … i9 INT)

struct KeyedItem: Equatable {
    var id: Int
    var item: Item

    static let createTable =
        "CREATE TABLE keyed_item(id INTEGER PRIMARY KEY, i0 INT, i1 INT, i2 INT, i3 INT, i4 INT, i5 INT, i6 INT, i7 INT, i8 INT, i9 INT)"
    static let insert = "INSERT INTO keyed_item(id, \(Item.columnList)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let selectByID = "SELECT id, \(Item.columnList) FROM keyed_item WHERE id = ?"
    static let selectRange = "SELECT id, \(Item.columnList) FROM keyed_item WHERE id BETWEEN ? AND ?"
}

extension KeyedItem: Checksummable {
    func combine(into checksum: inout Checksum) {
        checksum.combine(id)
        item.combine(into: &checksum)
    }
}

/// Hand-written, like `Item`'s: `init(row:)` serves `slate-cached`, the whole conformance
/// `KeyedItem.find(id).fetchOne(db)` (`slate-find`).
extension KeyedItem: Slate.PrimaryKeyedTable {
    static let schema = TableSchema(
        name: "keyed_item",
        columns: [TableSchema.Column(name: "id", type: "INTEGER", primaryKeyPosition: 1)]
            + (0..<10).map { TableSchema.Column(name: "i\($0)", type: "INT") })

    struct Columns: TableColumns {
        let id: Slate.Column<KeyedItem, Int>
        init(qualifier: String) { id = Slate.Column(qualifier, "id") }
    }

    var primaryKey: Int { id }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try item.encode(to: &encoder)
    }

    init(row: borrowing Slate.Row) throws {
        id = try row.decode(at: 0)
        item = Item(
            i0: try row.decode(at: 1), i1: try row.decode(at: 2), i2: try row.decode(at: 3),
            i3: try row.decode(at: 4), i4: try row.decode(at: 5), i5: try row.decode(at: 6),
            i6: try row.decode(at: 7), i7: try row.decode(at: 8), i8: try row.decode(at: 9),
            i9: try row.decode(at: 10))
    }
}

extension KeyedItem: GRDB.FetchableRecord, GRDB.TableRecord {
    static let databaseTableName = "keyed_item"

    init(row: GRDB.Row) throws {
        id = row[0]
        item = Item(
            i0: row[1], i1: row[2], i2: row[3], i3: row[4], i4: row[5],
            i5: row[6], i6: row[7], i7: row[8], i8: row[9], i9: row[10])
    }
}

// MARK: - Northwind Orders

/// A Northwind order. Dates are stored as TEXT (`2016-07-04`) and read as strings by every
/// contender, so no contender pays for date parsing the others skip. `Freight` is NUMERIC, stored
/// as INTEGER or REAL, and read as `Double`.
struct Order: Equatable {
    var orderID: Int
    var customerID: String?
    var employeeID: Int?
    var orderDate: String?
    var requiredDate: String?
    var shippedDate: String?
    var shipVia: Int?
    var freight: Double?
    var shipName: String?
    var shipAddress: String?
    var shipCity: String?
    var shipRegion: String?
    var shipPostalCode: String?
    var shipCountry: String?

    static let selectAll = """
        SELECT OrderID, CustomerID, EmployeeID, OrderDate, RequiredDate, ShippedDate, ShipVia, Freight, \
        ShipName, ShipAddress, ShipCity, ShipRegion, ShipPostalCode, ShipCountry FROM Orders ORDER BY OrderID
        """
}

extension Order {
    /// The same order, from the record `slate generate` wrote (for the checksum, untimed).
    init(_ order: GeneratedOrder) {
        self.init(
            orderID: order.orderID ?? -1, customerID: order.customerID, employeeID: order.employeeID,
            orderDate: order.orderDate, requiredDate: order.requiredDate, shippedDate: order.shippedDate,
            shipVia: order.shipVia, freight: order.freight, shipName: order.shipName,
            shipAddress: order.shipAddress, shipCity: order.shipCity, shipRegion: order.shipRegion,
            shipPostalCode: order.shipPostalCode, shipCountry: order.shipCountry)
    }
}

extension Order: Checksummable {
    func combine(into checksum: inout Checksum) {
        checksum.combine(orderID)
        checksum.combine(customerID)
        checksum.combine(employeeID)
        checksum.combine(orderDate)
        checksum.combine(requiredDate)
        checksum.combine(shippedDate)
        checksum.combine(shipVia)
        checksum.combine(freight)
        checksum.combine(shipName)
        checksum.combine(shipAddress)
        checksum.combine(shipCity)
        checksum.combine(shipRegion)
        checksum.combine(shipPostalCode)
        checksum.combine(shipCountry)
    }
}

extension Order: Slate.RowDecodable {
    // Through the synthesized memberwise initializer, like `MixedItem`'s (see *Defining tables*).
    init(row: borrowing Slate.Row) throws {
        self.init(
            orderID: try row.decode(at: 0), customerID: try row.decode(at: 1), employeeID: try row.decode(at: 2),
            orderDate: try row.decode(at: 3), requiredDate: try row.decode(at: 4), shippedDate: try row.decode(at: 5),
            shipVia: try row.decode(at: 6), freight: try row.decode(at: 7), shipName: try row.decode(at: 8),
            shipAddress: try row.decode(at: 9), shipCity: try row.decode(at: 10), shipRegion: try row.decode(at: 11),
            shipPostalCode: try row.decode(at: 12), shipCountry: try row.decode(at: 13))
    }
}

extension Order: GRDB.FetchableRecord {
    init(row: GRDB.Row) throws {
        orderID = row[0]
        customerID = row[1]
        employeeID = row[2]
        orderDate = row[3]
        requiredDate = row[4]
        shippedDate = row[5]
        shipVia = row[6]
        freight = row[7]
        shipName = row[8]
        shipAddress = row[9]
        shipCity = row[10]
        shipRegion = row[11]
        shipPostalCode = row[12]
        shipCountry = row[13]
    }
}

/// `Order` decoded through GRDB's `Decodable` support (columns matched by name).
struct CodableOrder: Codable, GRDB.FetchableRecord, Checksummable {
    var orderID: Int
    var customerID: String?
    var employeeID: Int?
    var orderDate: String?
    var requiredDate: String?
    var shippedDate: String?
    var shipVia: Int?
    var freight: Double?
    var shipName: String?
    var shipAddress: String?
    var shipCity: String?
    var shipRegion: String?
    var shipPostalCode: String?
    var shipCountry: String?

    enum CodingKeys: String, CodingKey {
        case orderID = "OrderID"
        case customerID = "CustomerID"
        case employeeID = "EmployeeID"
        case orderDate = "OrderDate"
        case requiredDate = "RequiredDate"
        case shippedDate = "ShippedDate"
        case shipVia = "ShipVia"
        case freight = "Freight"
        case shipName = "ShipName"
        case shipAddress = "ShipAddress"
        case shipCity = "ShipCity"
        case shipRegion = "ShipRegion"
        case shipPostalCode = "ShipPostalCode"
        case shipCountry = "ShipCountry"
    }

    func combine(into checksum: inout Checksum) {
        Order(
            orderID: orderID, customerID: customerID, employeeID: employeeID, orderDate: orderDate,
            requiredDate: requiredDate, shippedDate: shippedDate, shipVia: shipVia, freight: freight,
            shipName: shipName, shipAddress: shipAddress, shipCity: shipCity, shipRegion: shipRegion,
            shipPostalCode: shipPostalCode, shipCountry: shipCountry
        ).combine(into: &checksum)
    }
}

// MARK: - Generated from Schema/item.sql

/// `GeneratedItem` (and `ItemDatabase`, its database type) are written at build time by
/// SlateBuildPlugin from Schema/item.sql, as configured by slate.json. The generator maps
/// `INTEGER NOT NULL` to `Int64`.
extension GeneratedItem: Checksummable {
    func combine(into checksum: inout Checksum) {
        checksum.combine(i0)
        checksum.combine(i1)
        checksum.combine(i2)
        checksum.combine(i3)
        checksum.combine(i4)
        checksum.combine(i5)
        checksum.combine(i6)
        checksum.combine(i7)
        checksum.combine(i8)
        checksum.combine(i9)
    }
}

// MARK: - Schema checks

enum ItemSchema {
    /// Checks, once per fixture, that the record types agree with the `item` table `slate`'s file
    /// holds: Schema/item.sql (the generator's input) is `Item.createTable`, and `CodableItem`'s
    /// inferred table needs no migration (else its first fetch or save would rebuild the table).
    static func check(_ slate: Slate.Database) throws {
        guard let url = Bundle.module.url(forResource: "item", withExtension: "sql") else {
            throw HarnessError("item.sql is missing from the slate-bench resources")
        }
        let script = try String(contentsOf: url, encoding: .utf8)
        let normalized = { (text: String) in
            text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                .replacingOccurrences(of: ";", with: "")
        }
        guard normalized(script) == normalized(Item.createTable) else {
            throw HarnessError("Schema/item.sql differs from Item.createTable:\n\(script)\n\(Item.createTable)")
        }
        let plan = try slate.migrationPlan(for: CodableItem.self)
        guard plan.isEmpty else {
            throw HarnessError("CodableItem does not match the item table; its fetches would migrate it:\n\(plan)")
        }
    }
}
