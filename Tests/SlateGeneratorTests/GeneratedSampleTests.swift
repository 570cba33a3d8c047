import Foundation
import Slate
import Testing

// `ChinookDatabase` and `NorthwindDatabase` are generated at build time by SlateBuildPlugin from
// Resources/chinook.sqlite and Resources/northwind.sqlite (see slate.json: records are nested).
// If the generated code did not compile, this target would not build.

@Suite("Generated code on the sample databases")
struct GeneratedSampleTests {
    @Test func bundledDatabaseOpensReadOnlyFromTheModuleResources() throws {
        let chinook = try ChinookDatabase.bundled()
        #expect(chinook.database.isReadOnly)
        #expect(try chinook.artists.fetchCount() == 275)
        let northwind = try NorthwindDatabase.bundled()
        #expect(try northwind.customers.fetchCount() == 93)
        #expect(ChinookDatabase.resourceName == "chinook")
        #expect(ChinookDatabase.resourceExtension == "sqlite")
        #expect(throws: DatabaseError.self) { try ChinookDatabase.bundled(in: Bundle.main) }
    }

    @Test func countsMatchTheDocumentedRowCounts() throws {
        let chinook = try ChinookDatabase.bundled()
        #expect(try chinook.albums.fetchCount() == 347)
        #expect(try chinook.tracks.fetchCount() == 3503)
        #expect(try chinook.playlistTracks.fetchCount() == 8715)
        #expect(try chinook.invoiceLines.fetchCount() == 2240)
        let northwind = try NorthwindDatabase.bundled()
        #expect(try northwind.orders.fetchCount() == 830)
        #expect(try northwind.orderDetails.fetchCount() == 2155)
        #expect(try northwind.employeeTerritories.fetchCount() == 49)
        #expect(try northwind.customerCustomerDemos.fetchCount() == 0)
    }

    @Test func everyRowOfEveryTableAndViewDecodes() throws {
        let chinook = try ChinookDatabase.bundled()
        #expect(try chinook.tracks.fetchAll().count == 3503)
        #expect(try chinook.employees.fetchAll().allSatisfy { $0.birthDate != nil })
        #expect(try chinook.invoices.fetchAll().count == 412)
        let northwind = try NorthwindDatabase.bundled()
        #expect(try northwind.products.fetchAll().count == 77)
        #expect(try northwind.categories.fetchAll().allSatisfy { $0.picture?.isEmpty == false })
        #expect(try northwind.orders.fetchAll().count == 830)
        // Views, with declared and inferred column types: every row reads.
        #expect(try northwind.invoices.fetchAll().count == 2155)
        #expect(try northwind.orderSubtotals.fetchAll().count == 830)
        #expect(try northwind.orderDetailsExtendeds.fetchAll().count == 2155)
        #expect(try northwind.alphabeticalListOfProducts.fetchAll().count > 0)
        #expect(try northwind.customerAndSuppliersByCities.fetchAll().count > 0)
        #expect(try northwind.ordersQries.fetchAll().count == 830)
        #expect(try northwind.productDetailsVs.fetchAll().count == 77)
        #expect(try northwind.productsAboveAveragePrices.fetchAll().count > 0)
        #expect(try northwind.summaryOfSalesByYears.fetchAll().count > 0)
        #expect(try northwind.categorySalesFor1997.fetchAll().isEmpty)  // the data moved past 1997
        let subtotal = try #require(try northwind.orderSubtotals.fetchOne { $0.orderID == 10248 })
        let amount: Double? = subtotal.subtotal  // SUM(real expression) is a Double
        #expect(amount == 440)
    }

    @Test func findByPrimaryKeyIncludingCompositeAndTextKeys() throws {
        let chinook = try ChinookDatabase.bundled()
        let artist = try #require(try chinook.artists.find(1))
        #expect(artist.name == "AC/DC")
        #expect(artist.id == 1)
        #expect(try chinook.artists.find(100_000) == nil)
        let entry = try #require(try chinook.playlistTracks.find((1, 3402)))
        #expect(entry.id == ChinookDatabase.PlaylistTrack.ID(playlistId: 1, trackId: 3402))
        let northwind = try NorthwindDatabase.bundled()
        let customer = try #require(try northwind.customers.find("ALFKI"))
        #expect(customer.companyName == "Alfreds Futterkiste")
        let detail = try #require(try northwind.orderDetails.find((10248, 11)))
        #expect(detail.quantity == 12)
        #expect(detail.unitPrice == 14)
    }

    @Test func relatedRecordsThroughForeignKeys() throws {
        let chinook = try ChinookDatabase.bundled()
        let artist = try #require(try chinook.artists.find(1))
        let albums = try chinook.albums.fetch(for: artist)
        #expect(albums.map(\.title) == ["For Those About To Rock We Salute You", "Let There Be Rock"])
        #expect(try artist.fetchAlbums(in: chinook.database) == albums)
        #expect(try albums[0].fetchArtist(in: chinook.database) == artist)
        // A self-referencing key: the manager and the reports.
        let manager = try #require(try chinook.employees.find(1))
        let reports = try chinook.employees.fetch(for: manager)
        #expect(reports.map(\.employeeId) == [2, 6])
        #expect(try reports[0].fetchReportsTo(in: chinook.database) == manager)
        #expect(try manager.fetchReportsTo(in: chinook.database) == nil)  // NULL key: no parent
        // Composite-key child rows.
        let northwind = try NorthwindDatabase.bundled()
        let order = try #require(try northwind.orders.find(10248))
        #expect(try northwind.orderDetails.fetch(for: order).count == 3)
        #expect(try order.fetchOrderDetails(in: northwind.database).map(\.productID) == [11, 42, 72])
        #expect(try order.fetchCustomer(in: northwind.database)?.customerID == "VINET")
        #expect(try order.fetchShipVia(in: northwind.database)?.companyName == "Federal Shipping")
    }

    @Test func typedPredicatesSwiftFiltersAndChosenColumns() throws {
        let chinook = try ChinookDatabase.bundled()
        #expect(try chinook.tracks.fetchCount { $0.milliseconds > 1_000_000 } == 215)
        let long = try chinook.tracks.fetchAll { $0.milliseconds > 5_000_000 }
        #expect(long.allSatisfy { $0.milliseconds > 5_000_000 })
        let noComposer = try chinook.tracks.filter { $0.composer == nil }
        #expect(noComposer.count == 977)
        let pairs = try chinook.select(from: \.artists, \.artistId, \.name) { $0.artistId <= 3 }
        #expect(pairs.map(\.1) == ["AC/DC", "Accept", "Aerosmith"])
        let names: [String?] = try chinook.artists.select(\.name) { $0.artistId == 2 }
        #expect(names == ["Accept"])
        let northwind = try NorthwindDatabase.bundled()
        let expensive = try northwind.products.select(\.productName, \.unitPrice) { $0.unitPrice > 100.0 }
        #expect(Set(expensive.map(\.0)) == ["Thüringer Rostbratwurst", "Côte de Blaye"])
        let dates = try northwind.orders.select(\.orderDate) { $0.orderID == 10248 }
        #expect(dates.first??.timeIntervalSince1970 == 1_467_590_400)  // 2016-07-04
    }

    @Test func transactionsInsertUpdateDeleteAndUpdateOneColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = ChinookDatabase(try writableCopy(of: "chinook.sqlite", in: directory))

        // Insert returns the new key.
        let inserted = try db.transaction { tx in
            try tx.artists.insert(ChinookDatabase.Artist(name: "Slate Quartet"))
        }
        let key = try #require(inserted.artistId)
        #expect(key == 276)
        #expect(try db.artists.find(key)?.name == "Slate Quartet")

        // Update, delete.
        var renamed = inserted
        renamed.name = "Slate Quintet"
        #expect(try db.update(renamed))
        #expect(try db.artists.find(key)?.name == "Slate Quintet")
        #expect(try db.delete(renamed))
        #expect(try db.artists.find(key) == nil)
        #expect(try db.delete(renamed) == false)

        // A throwing body rolls everything back.
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.transaction { tx in
                _ = try tx.insert(ChinookDatabase.Artist(name: "Never"))
                throw Abort()
            }
        }
        #expect(try db.artists.fetchCount { $0.name == "Never" } == 0)

        // One column for every matching row.
        let changed = try db.update(\.tracks, set: \.composer, to: "Unknown") { $0.composer == nil }
        #expect(changed == 977)
        #expect(try db.tracks.fetchCount { $0.composer == "Unknown" } == 977)
        try db.artists.insert(ChinookDatabase.Artist(name: "Temporary"))
        try db.artists.insert(ChinookDatabase.Artist(name: "Temporary"))
        #expect(try db.artists.delete { $0.name == "Temporary" } == 2)

        // Composite keys and text keys write too.
        let northwindDirectory = try TemporaryDirectory()
        defer { northwindDirectory.remove() }
        let northwind = NorthwindDatabase(try writableCopy(of: "northwind.sqlite", in: northwindDirectory))
        let line = NorthwindDatabase.OrderDetail(orderID: 10248, productID: 1, unitPrice: 18, quantity: 2, discount: 0)
        try northwind.orderDetails.insert(line)
        #expect(try northwind.orderDetails.find((10248, 1)) == line)
        #expect(try northwind.orderDetails.delete(line))
        let customer = NorthwindDatabase.Customer(customerID: "SLATE", companyName: "Slate Inc.")
        try northwind.customers.insert(customer)
        #expect(try northwind.customers.find("SLATE")?.companyName == "Slate Inc.")
    }

    @Test func operationsAttachedToRecordTypes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try writableCopy(of: "chinook.sqlite", in: directory)
        typealias Genre = ChinookDatabase.Genre
        #expect(try Genre.fetchCount(in: db) == 25)
        #expect(try Genre.fetch(in: db).count == 25)
        #expect(try Genre.fetch(in: db) { $0.name == "Jazz" }.count == 1)
        var genre = Genre(name: "Slatecore")
        try genre.insert(into: db)
        #expect(genre.genreId == 26)
        genre.name = "Slate Core"
        #expect(try genre.update(in: db))
        #expect(try Genre.find(26, in: db)?.name == "Slate Core")
        #expect(try genre.fetchTracks(in: db).isEmpty)
        #expect(try genre.delete(from: db))
        #expect(try Genre.fetchCount(in: db) == 25)
    }
}
