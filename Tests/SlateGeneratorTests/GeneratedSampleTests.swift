import Foundation
import Slate
import Testing

// `ChinookDatabase` and `NorthwindDatabase` are generated at build time by SlateBuildPlugin from
// Resources/chinook.sqlite and Resources/northwind.sqlite (see slate.json: records are nested).
// If the generated code did not compile, this target would not build.

@Suite("Generated code on the sample databases")
struct GeneratedSampleTests {
    typealias Artist = ChinookDatabase.Artist
    typealias Album = ChinookDatabase.Album
    typealias Track = ChinookDatabase.Track
    typealias Employee = ChinookDatabase.Employee
    typealias Genre = ChinookDatabase.Genre
    typealias PlaylistTrack = ChinookDatabase.PlaylistTrack

    @Test func bundledDatabaseOpensReadOnlyFromTheModuleResources() throws {
        let chinook = try ChinookDatabase.bundled()
        #expect(try chinook.read { $0.isReadOnly })
        #expect(try chinook.read { try Artist.all().fetchCount($0) } == 275)
        let northwind = try NorthwindDatabase.bundled()
        #expect(try northwind.read { try NorthwindDatabase.Customer.all().fetchCount($0) } == 93)
        #expect(ChinookDatabase.resourceName == "chinook")
        #expect(ChinookDatabase.resourceExtension == "sqlite")
        #expect(throws: DatabaseError.self) { try ChinookDatabase.bundled(in: Bundle.main) }
        #expect(ChinookDatabase.tables.count == 11)
        #expect(ChinookDatabase.tables.contains { $0 == Artist.self })
    }

    @Test func theDatabaseTypeHasAsyncReadsAndTransactions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.file("chinook.sqlite")
        try FileManager.default.copyItem(at: TestFiles.resource("chinook.sqlite"), to: url)
        let db = try ChinookDatabase.open(path: url.path)
        let inserted = try await db.write { db in try db.insert(Artist(name: "Async Ensemble")) }
        #expect(inserted.artistId == 276)
        let name = try await db.read { db in try Artist.find(276).fetchOne(db)?.name }
        #expect(name == "Async Ensemble")
    }

    @Test func countsMatchTheDocumentedRowCounts() throws {
        let db = try sampleDatabase("chinook")
        #expect(try Album.all().fetchCount(db) == 347)
        #expect(try Track.all().fetchCount(db) == 3503)
        #expect(try PlaylistTrack.all().fetchCount(db) == 8715)
        #expect(try ChinookDatabase.InvoiceLine.all().fetchCount(db) == 2240)
        let northwind = try sampleDatabase("northwind")
        #expect(try NorthwindDatabase.Order.all().fetchCount(northwind) == 830)
        #expect(try NorthwindDatabase.OrderDetail.all().fetchCount(northwind) == 2155)
        #expect(try NorthwindDatabase.EmployeeTerritory.all().fetchCount(northwind) == 49)
        #expect(try NorthwindDatabase.CustomerCustomerDemo.all().fetchCount(northwind) == 0)
    }

    @Test func everyRowOfEveryTableAndViewDecodes() throws {
        let db = try sampleDatabase("chinook")
        #expect(try Track.all().fetchAll(db).count == 3503)
        let allBorn = try Employee.all().fetchAll(db).allSatisfy { employee in employee.birthDate != nil }
        #expect(allBorn)
        #expect(try ChinookDatabase.Invoice.all().fetchAll(db).count == 412)
        let northwind = try sampleDatabase("northwind")
        typealias N = NorthwindDatabase
        #expect(try N.Product.all().fetchAll(northwind).count == 77)
        let allPictured = try N.Category.all().fetchAll(northwind).allSatisfy { category in
            category.picture?.isEmpty == false
        }
        #expect(allPictured)
        #expect(try N.Order.all().fetchAll(northwind).count == 830)
        // Views, with declared and inferred column types: every row reads.
        #expect(try N.Invoice.all().fetchAll(northwind).count == 2155)
        #expect(try N.OrderSubtotal.all().fetchAll(northwind).count == 830)
        #expect(try N.OrderDetailsExtended.all().fetchAll(northwind).count == 2155)
        #expect(try N.AlphabeticalListOfProduct.all().fetchAll(northwind).count > 0)
        #expect(try N.CustomerAndSuppliersByCity.all().fetchAll(northwind).count > 0)
        #expect(try N.OrdersQry.all().fetchAll(northwind).count == 830)
        #expect(try N.ProductDetailsV.all().fetchAll(northwind).count == 77)
        #expect(try N.ProductsAboveAveragePrice.all().fetchAll(northwind).count > 0)
        #expect(try N.SummaryOfSalesByYear.all().fetchAll(northwind).count > 0)
        #expect(try N.CategorySalesFor1997.all().fetchAll(northwind).isEmpty)  // the data moved past 1997
        let subtotal = try #require(try N.OrderSubtotal.where { $0.orderID == 10248 }.fetchOne(northwind))
        let amount: Double? = subtotal.subtotal  // SUM(real expression) is a Double
        #expect(amount == 440)
    }

    @Test func findByPrimaryKeyIncludingCompositeAndTextKeys() throws {
        let db = try sampleDatabase("chinook")
        let artist = try #require(try Artist.find(1).fetchOne(db))
        #expect(artist.name == "AC/DC")
        #expect(artist.id == 1)
        #expect(try Artist.find(100_000).fetchOne(db) == nil)
        let entry = try #require(try PlaylistTrack.find((1, 3402)).fetchOne(db))
        #expect(entry.id == PlaylistTrack.ID(playlistId: 1, trackId: 3402))
        let northwind = try sampleDatabase("northwind")
        let customer = try #require(try NorthwindDatabase.Customer.find("ALFKI").fetchOne(northwind))
        #expect(customer.companyName == "Alfreds Futterkiste")
        let detail = try #require(try NorthwindDatabase.OrderDetail.find((10248, 11)).fetchOne(northwind))
        #expect(detail.quantity == 12)
        #expect(detail.unitPrice == 14)
    }

    @Test func relatedRecordsThroughForeignKeys() throws {
        let db = try sampleDatabase("chinook")
        let artist = try #require(try Artist.find(1).fetchOne(db))
        let albums = try Album.belonging(to: artist).fetchAll(db)
        #expect(albums.map(\.title) == ["For Those About To Rock We Salute You", "Let There Be Rock"])
        #expect(try Artist.referenced(by: albums[0]).fetchOne(db) == artist)
        // A self-referencing key: the manager and the reports.
        let manager = try #require(try Employee.find(1).fetchOne(db))
        let reports = try Employee.belonging(to: manager).fetchAll(db)
        #expect(reports.map(\.employeeId) == [2, 6])
        #expect(try Employee.referenced(by: reports[0]).fetchOne(db) == manager)
        #expect(try Employee.referenced(by: manager).fetchOne(db) == nil)  // NULL key: no parent
        // Composite-key child rows, and a table with several keys to other tables.
        let northwind = try sampleDatabase("northwind")
        typealias N = NorthwindDatabase
        let order = try #require(try N.Order.find(10248).fetchOne(northwind))
        #expect(try N.OrderDetail.belonging(to: order).fetchAll(northwind).map(\.productID) == [11, 42, 72])
        #expect(try N.Customer.referenced(by: order).fetchOne(northwind)?.customerID == "VINET")
        #expect(try N.Shipper.referenced(by: order).fetchOne(northwind)?.companyName == "Federal Shipping")
    }

    @Test func typedPredicatesAndChosenColumns() throws {
        let db = try sampleDatabase("chinook")
        #expect(try Track.where { $0.milliseconds > 1_000_000 }.fetchCount(db) == 215)
        let long = try Track.where { $0.milliseconds > 5_000_000 }.fetchAll(db)
        let allLong = long.allSatisfy { track in track.milliseconds > 5_000_000 }
        #expect(allLong)
        #expect(try Track.where { $0.composer == nil }.fetchCount(db) == 977)
        let pairs = try Artist.where { $0.artistId <= 3 }.select { ($0.artistId, $0.name) }.fetchAll(db)
        #expect(pairs.map(\.1) == ["AC/DC", "Accept", "Aerosmith"])
        let names: [String?] = try Artist.where { $0.artistId == 2 }.select { $0.name }.fetchAll(db)
        #expect(names == ["Accept"])
        let northwind = try sampleDatabase("northwind")
        typealias Product = NorthwindDatabase.Product
        let expensive = try Product.where { $0.unitPrice > 100.0 }.select { ($0.productName, $0.unitPrice) }.fetchAll(
            northwind)
        #expect(Set(expensive.map(\.0)) == ["Thüringer Rostbratwurst", "Côte de Blaye"])
        let dates = try NorthwindDatabase.Order.where { $0.orderID == 10248 }.select { $0.orderDate }.fetchAll(
            northwind)
        #expect(dates.first??.timeIntervalSince1970 == 1_467_590_400)  // 2016-07-04
    }

    @Test func transactionsInsertUpdateDeleteAndUpdateOneColumn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try writableCopy(of: "chinook.sqlite", in: directory)

        // Insert returns the new key.
        let inserted = try db.transaction { try db.insert(Artist(name: "Slate Quartet")) }
        let key = try #require(inserted.artistId)
        #expect(key == 276)
        #expect(try Artist.find(key).fetchOne(db)?.name == "Slate Quartet")

        // Update, delete.
        var renamed = inserted
        renamed.name = "Slate Quintet"
        #expect(try db.update(renamed))
        #expect(try Artist.find(key).fetchOne(db)?.name == "Slate Quintet")
        #expect(try db.delete(renamed))
        #expect(try Artist.find(key).fetchOne(db) == nil)
        #expect(try db.delete(renamed) == false)

        // A throwing body rolls everything back.
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try db.transaction {
                _ = try db.insert(Artist(name: "Never"))
                throw Abort()
            }
        }
        #expect(try Artist.where { $0.name == "Never" }.fetchCount(db) == 0)

        // One column for every matching row.
        let changed = try Track.update { $0.composer.set(to: "Unknown") }.where { $0.composer == nil }.execute(db)
        #expect(changed == 977)
        #expect(try Track.where { $0.composer == "Unknown" }.fetchCount(db) == 977)
        try db.insert(Artist(name: "Temporary"))
        try db.insert(Artist(name: "Temporary"))
        #expect(try Artist.delete().where { $0.name == "Temporary" }.execute(db) == 2)

        // Composite keys and text keys write too.
        let northwindDirectory = try TemporaryDirectory()
        defer { northwindDirectory.remove() }
        let northwind = try writableCopy(of: "northwind.sqlite", in: northwindDirectory)
        let line = NorthwindDatabase.OrderDetail(orderID: 10248, productID: 1, unitPrice: 18, quantity: 2, discount: 0)
        try northwind.insert(line)
        #expect(try NorthwindDatabase.OrderDetail.find((10248, 1)).fetchOne(northwind) == line)
        #expect(try northwind.delete(line))
        let customer = NorthwindDatabase.Customer(customerID: "SLATE", companyName: "Slate Inc.")
        try northwind.insert(customer)
        #expect(try NorthwindDatabase.Customer.find("SLATE").fetchOne(northwind)?.companyName == "Slate Inc.")
    }

    @Test func theGeneratedSchemaMatchesTheDatabase() throws {
        let db = try sampleDatabase("chinook")
        for table in ChinookDatabase.tables {
            let actual = try #require(try db.tableSchema(named: table.schema.name))
            #expect(table.schema.differences(from: actual) == [], "\(table.schema.name)")
        }
    }
}
