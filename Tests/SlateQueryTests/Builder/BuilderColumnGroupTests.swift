import Foundation
import Slate
import SlateTestingCore
import Testing

/// A hand-written column group: an address stored as two columns of its parent.
struct PostalAddress: ColumnGroup, Equatable {
    var street: String
    var city: String?

    static let groupColumns: [TableSchema.Column] = [
        .init(name: "street", type: "TEXT", isNotNull: true),
        .init(name: "city", type: "TEXT"),
    ]

    struct Columns<Root: Table>: Sendable {
        let street: Column<Root, String>
        let city: Column<Root, String?>
        init(qualifier: String) {
            street = Column(qualifier, "street")
            city = Column(qualifier, "city")
        }
    }

    init(street: String, city: String?) {
        self.street = street
        self.city = city
    }

    init(row: borrowing Row, startingAt index: Int) throws {
        street = try row.decode(at: index)
        city = try row.decode(at: index + 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(street)
        try encoder.encode(city)
    }
}

/// A table holding a group between two plain columns.
struct Shop: PrimaryKeyedTable, Equatable {
    var id: Int64?
    var address: PostalAddress
    var name: String

    static let schema = TableSchema(
        name: "shop",
        columns: [.init(name: "id", type: "INTEGER", primaryKeyPosition: 1)] + PostalAddress.groupColumns
            + [.init(name: "name", type: "TEXT", isNotNull: true)])

    struct Columns: TableColumns {
        let id: Column<Shop, Int64?>
        let address: PostalAddress.Columns<Shop>
        let name: Column<Shop, String>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            address = PostalAddress.Columns(qualifier: qualifier)
            name = Column(qualifier, "name")
        }
    }

    init(id: Int64? = nil, address: PostalAddress, name: String) {
        self.id = id
        self.address = address
        self.name = name
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        address = try PostalAddress(row: row, startingAt: 1)
        name = try row.decode(at: 1 + PostalAddress.groupColumns.count)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try address.encode(to: &encoder)
        try encoder.encode(name)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

/// Column groups: a struct stored as several columns, in predicates, inserts, updates and fetches.
@Suite struct BuilderColumnGroupTests {
    static let shops = [
        Shop(address: PostalAddress(street: "Karl Johans gate 1", city: "Oslo"), name: "Books"),
        Shop(address: PostalAddress(street: "Drottninggatan 2", city: "Stockholm"), name: "Tea"),
        Shop(address: PostalAddress(street: "Nowhere 3", city: nil), name: "Pop-up"),
    ]

    @Test func theGroupIsColumnsOfItsParent() throws {
        #expect(
            SQLLayout.lines(try Shop.schema.createTableSQL()) == """
                CREATE TABLE "shop" (
                  "id" INTEGER PRIMARY KEY,
                  "street" TEXT NOT NULL,
                  "city" TEXT,
                  "name" TEXT NOT NULL
                )
                """)
        #expect(
            SQLLayout.lines(Shop.where { $0.address.city == "Oslo" }.order { $0.address.street }.sql) == """
                SELECT "shop"."id", "shop"."street", "shop"."city", "shop"."name"
                FROM "shop"
                WHERE "shop"."city" = ?
                ORDER BY "shop"."street"
                -- arguments: 'Oslo'
                """)
        #expect(
            SQLLayout.lines(Shop.insert(Self.shops[0]).sql) == """
                INSERT INTO "shop" ("id", "street", "city", "name")
                VALUES (?, ?, ?, ?)
                -- arguments: NULL, 'Karl Johans gate 1', 'Oslo', 'Books'
                """)
    }

    @Test func groupsRoundTripAndFilter() throws {
        let db = try Database()
        try db.createTable(for: Shop.self)
        let inserted = try db.insert(contentsOf: Self.shops)
        let insertedIDs: [Int64?] = inserted.map(\.id)
        #expect(insertedIDs == [1, 2, 3])
        #expect(try Shop.order(by: \.id).fetchAll(db) == inserted)
        #expect(try Shop.where { $0.address.city == "Oslo" }.fetchAll(db).map(\.name) == ["Books"])
        #expect(try Shop.where { $0.address.city == nil }.fetchAll(db).map(\.name) == ["Pop-up"])
        let cities = try Shop.where { $0.address.street.hasPrefix("D") }.select { ($0.name, $0.address.city) }.fetchAll(
            db)
        #expect(cities.count == 1 && cities[0].0 == "Tea" && cities[0].1 == "Stockholm")
        // Updates of a group's columns, and of a whole record.
        try Shop.update { $0.address.city.set(to: "Bergen") }.where { $0.address.city == nil }.execute(db)
        var tea = inserted[1]
        tea.address.street = "Storgatan 9"
        try db.update(tea)
        #expect(try Shop.find(2).fetchOne(db) == tea)
        #expect(
            try db.fetchValue(String.self, "SELECT group_concat(city, ',') FROM (SELECT city FROM shop ORDER BY id)")
                == "Oslo,Stockholm,Bergen")
    }
}
