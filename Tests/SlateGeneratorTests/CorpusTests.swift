import Foundation
import Slate
import SlateSchema
import Testing

// The named queries of Queries/chinook.queries.sql and Queries/northwind.queries.sql, which
// SlateBuildPlugin turned into functions on ChinookDatabase and NorthwindDatabase at build time.
// Every function runs on the real data: a NULL read into a non-optional property throws, so each
// run proves the generated types hold on that data; the expectations show that the NULLs the data
// has do come back, in optionals.

private func date(_ text: String) -> Date {
    var components = DateComponents()
    let parts = text.split(separator: "-").compactMap { Int($0) }
    components.year = parts[0]
    components.month = parts[1]
    components.day = parts[2]
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    return calendar.date(from: components) ?? Date(timeIntervalSince1970: 0)
}

@Suite("Named queries over Chinook, generated and run")
struct ChinookCorpusTests {
    typealias Chinook = ChinookDatabase

    @Test func selectsWithParametersJoinsAndNulls() throws {
        let db = try sampleDatabase("chinook")
        let tracks = try Chinook.tracksOfAlbum(albumId: 1).fetchAll(db)
        #expect(tracks.count == 10)
        #expect(tracks.first?.name == "For Those About To Rock (We Salute You)")
        #expect(tracks.first?.composer == "Angus Young, Malcolm Young, Brian Johnson")
        let first = try Chinook.tracksOfAlbum(albumId: 1).fetchOne(db)
        #expect(first == tracks.first)
        let cursor = try Chinook.tracksOfAlbum(albumId: 1).fetchCursor(db)
        var streamed = 0
        while try cursor.next() != nil { streamed += 1 }
        #expect(streamed == 10)
        #expect(try Chinook.tracksOfAlbum(albumId: 9999).fetchOne(db) == nil)
        // Composer is optional because the column allows NULL, and NULLs do come back.
        let anotherAlbum = try Chinook.tracksOfAlbum(albumId: 8).fetchAll(db)
        #expect(anotherAlbum.count == 14)
        #expect(anotherAlbum.allSatisfy { $0.composer == nil })

        let albums = try Chinook.albumsWithArtists(limit: 5).fetchAll(db)
        #expect(albums.map(\.albumId) == [1, 2, 3, 4, 5])
        #expect(albums.first?.artistName == "AC/DC")

        let lonely = try Chinook.artistsWithoutAlbums().fetchAll(db)
        #expect(lonely.count == 71)
        #expect(lonely.allSatisfy { $0.albumTitle == nil })  // the LEFT JOIN's NULLs, in an optional

        let managers = try Chinook.employeesAndManagers().fetchAll(db)
        #expect(managers.count == 8)
        #expect(managers.filter { $0.managerFirstName == nil }.count == 1)  // the general manager

        let contacts = try Chinook.customerContacts().fetchAll(db)
        #expect(contacts.count == 59)
        #expect(contacts.filter { $0.company == "private" }.count == 49)  // coalesce: never NULL
        #expect(contacts.first?.fullName == "Luís Gonçalves")

        let bands = try Chinook.trackPriceBands(albumId: 1).fetchAll(db)
        #expect(bands.allSatisfy { $0.band == "standard" && $0.composerKnown == "known" })

        let rep = try Chinook.customersOfRep(employeeId: 3).fetchAll(db)
        #expect(rep.count == 21)
        #expect(rep.contains { $0.company == nil })

        let playlist = try Chinook.playlistTracks(playlistId: 17).fetchAll(db)
        #expect(playlist.count == 26)
        #expect(playlist.first?.playlist == "Heavy Metal Classic")

        let byRowid = try Chinook.tracksByRowid(first: 3, last: 5).fetchAll(db)
        #expect(byRowid.map(\.rowNumber) == [3, 4, 5])

        let search = try Chinook.searchTracks(pattern: "%Rock%").fetchAll(db)
        #expect(search.count == 10)
        let countries = try Chinook.customersInCountries(first: "Norway", second: "Chile").fetchAll(db)
        #expect(countries.map(\.country) == ["Norway", "Chile"])
    }

    @Test func aggregatesGroupsWindowsAndCompounds() throws {
        let db = try sampleDatabase("chinook")
        #expect(try Chinook.artistCount().fetchOne(db) == 275)
        #expect(try Chinook.longestTrackOfGenre(genreId: 1).fetchOne(db) == .some(.some(1_612_329)))
        // max over no row: one row holding NULL, in the optional.
        #expect(try Chinook.longestTrackOfGenre(genreId: 9999).fetchAll(db) == [nil])

        let totals = try Chinook.invoiceTotalsByCountry(minInvoices: 20).fetchAll(db)
        #expect(totals.first?.billingCountry == "USA")
        #expect(totals.first?.invoices == 91)
        #expect(totals.allSatisfy { $0.invoices >= 20 && $0.total > 0 && $0.average > 0 })
        #expect(totals.first?.firstInvoice == date("2021-01-11"))

        let best = try Chinook.topSellingTracks(limit: 3).fetchAll(db)
        #expect(best.count == 3)
        #expect(best.allSatisfy { $0.sold >= 1 && $0.revenue > 0 })

        let genres = try Chinook.genreTrackCounts().fetchAll(db)
        #expect(genres.count == 25)
        #expect(genres.reduce(0) { $0 + $1.tracks } == 3503)

        let playlists = try Chinook.playlistsWithTrackCounts().fetchAll(db)
        #expect(playlists.filter { $0.tracks == 0 }.count == 4)  // count over the LEFT JOIN's NULLs: 0

        let summary = try #require(try Chinook.albumSummary(minMilliseconds: 1_000_000_000, albumId: 1).fetchOne(db))
        #expect(summary.trackCount == 10)
        #expect(summary.longestName == nil)  // the scalar subquery found no row

        let names = try Chinook.artistAndAlbumNames(limit: 3).fetchAll(db)
        #expect(names.count == 3)
        let people = try Chinook.peopleFirstNames().fetchAll(db)
        #expect(people.count == 8 + 59)

        let ranked = try Chinook.tracksInAlbumRanked(albumId: 1).fetchAll(db)
        #expect(ranked.first?.previousName == nil)  // lag() of the first row
        #expect(ranked.dropFirst().allSatisfy { $0.previousName != nil })
        #expect(Set(ranked.map(\.lengthRank)) == Set(1...10))

        let none = try #require(try Chinook.customerInvoiceSummary(customerId: 9999).fetchOne(db))
        #expect(none.invoices == 0)
        #expect(none.total == nil)
        #expect(none.latest == nil)
        let some = try #require(try Chinook.customerInvoiceSummary(customerId: 1).fetchOne(db))
        #expect(some.invoices == 7)
        #expect(some.total != nil)

        // Dates are bound as text in the connection's ISO-8601 form, which is SQLite's own for whole
        // seconds, as the stored text is: the invoice of 2021-01-02 00:00:00 is at the lower bound.
        let january = try Chinook.invoicesBetween(from: date("2021-01-02"), to: date("2021-01-31")).fetchAll(db)
        #expect(january.count == 5)
        #expect(january.allSatisfy { $0.invoiceDate >= date("2021-01-02") && $0.invoiceDate < date("2021-01-31") })

        #expect(try Chinook.longestTrackName(albumId: 1).fetchOne(db) == "For Those About To Rock (We Salute You)")
    }

    @Test func writesWithAndWithoutReturning() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try writableCopy(of: "chinook.sqlite", in: directory)
        let inserted = try #require(try Chinook.insertArtist(name: "Slate Quartet").fetchOne(db))
        #expect(inserted.artistId == 276)
        #expect(inserted.name == "Slate Quartet")
        let unnamed = try #require(try Chinook.insertArtist(name: nil).fetchOne(db))
        #expect(unnamed.name == nil)
        #expect(try Chinook.renameArtist(name: "Slate Trio", artistId: inserted.artistId).execute(db) == 1)
        #expect(try Chinook.renameArtist(name: "Nobody", artistId: 9999).execute(db) == 0)
        #expect(
            try db.fetchOne(String.self, "SELECT Name FROM Artist WHERE ArtistId = \(inserted.artistId)")
                == "Slate Trio")
        try db.execute(sql: "DELETE FROM PlaylistTrack WHERE PlaylistId = 18")
        #expect(try Chinook.deletePlaylist(playlistId: 18).fetchAll(db) == ["On-The-Go 1"])
        #expect(try Chinook.deletePlaylist(playlistId: 18).fetchAll(db) == [])
        // A constraint failure is an error with SQLite's code and the SQL.
        do {
            _ = try Chinook.renameArtist(name: "x", artistId: 1).execute(try sampleDatabase("chinook"))
            Issue.record("a write to a read-only database succeeded")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .readOnly)
            #expect(error.sql?.contains("UPDATE Artist SET Name") == true)
        }
    }
}

@Suite("Named queries written for other tools, generated and run")
struct ForeignStyleCorpusTests {
    typealias Chinook = ChinookDatabase

    @Test func positionalParametersAndCasts() throws {
        let db = try sampleDatabase("chinook")
        let albums = try Chinook.albumsOfArtistSqlcStyle(artistId: 1, limit: 5).fetchAll(db)
        #expect(albums.map(\.albumId) == [1, 4])
        #expect(try Chinook.albumsOfArtistSqlcStyle(artistId: 1, limit: 1).fetchAll(db).count == 1)
        let every = try Chinook.tracksLongOrEvery(albumId: 1, everyTrack: true).fetchAll(db)
        let long = try Chinook.tracksLongOrEvery(albumId: 1, everyTrack: false).fetchAll(db)
        #expect(every.count == 10)
        #expect(long.count < every.count)
    }
}

@Suite("Named queries over Northwind, generated and run")
struct NorthwindCorpusTests {
    typealias Northwind = NorthwindDatabase

    @Test func everyQueryRunsAndItsNullsAreOptional() throws {
        let db = try sampleDatabase("northwind")
        let beverages = try Northwind.productsInCategory(categoryId: 1).fetchAll(db)
        #expect(beverages.count == 12)
        let largest = try Northwind.largestOrders(limit: 3).fetchAll(db)
        #expect(largest.count == 3)
        #expect(largest[0].subtotal >= largest[1].subtotal)
        let without = try Northwind.customersWithoutOrders().fetchAll(db)
        #expect(without.count == 4)
        #expect(without.allSatisfy { $0.orderID == nil })
        let orders = try Northwind.ordersOfCustomer(customerId: "ALFKI").fetchAll(db)
        #expect(!orders.isEmpty)
        #expect(orders.allSatisfy { $0.orderDate != nil })
        let unshipped = try Northwind.unshippedOrders().fetchAll(db)
        #expect(unshipped.count == 21)
        #expect(unshipped.allSatisfy { $0.shippedDate == nil })
        let sales = try Northwind.salesByEmployee().fetchAll(db)
        #expect(sales.count == 9)
        #expect(sales.reduce(0) { $0 + $1.orders } == 830)
        let expensive = try Northwind.productsAboveAverage().fetchAll(db)
        #expect(expensive.first?.productName == "Côte de Blaye")
        let revenue = try Northwind.categoryRevenue(minRevenue: 100_000).fetchAll(db)
        #expect(!revenue.isEmpty)
        #expect(revenue.allSatisfy { $0.revenue > 100_000 })
        let companies = try Northwind.shippersAndSuppliers().fetchAll(db)
        #expect(companies.count == 3 + 29)
        let hierarchy = try Northwind.employeeHierarchy().fetchAll(db)
        #expect(hierarchy.count == 9)
        #expect(hierarchy.first?.depth == 0)
        let lines = try Northwind.orderLines(orderId: 10248).fetchAll(db)
        #expect(lines.count == 3)
        let discounted = try Northwind.discountedLines(minDiscount: 0.2).fetchAll(db)
        #expect(discounted.allSatisfy { $0.discount >= 0.2 })
        let discontinued = try Northwind.productCountsByDiscontinued().fetchAll(db)
        #expect(discontinued.reduce(0) { $0 + $1.products } == 77)
    }

    @Test func writes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try writableCopy(of: "northwind.sqlite", in: directory)
        let shipper = try #require(try Northwind.insertShipper(companyName: "Slate Freight", phone: nil).fetchOne(db))
        #expect(shipper.companyName == "Slate Freight")
        #expect(shipper.phone == nil)
        #expect(try Northwind.deleteShipper(shipperId: shipper.shipperID).execute(db) == 1)
        #expect(try Northwind.deleteShipper(shipperId: shipper.shipperID).execute(db) == 0)
    }
}

/// The analysis behind the generated types, checked on the data of every query of the corpus: a
/// column described as never `NULL` holds no `NULL` in any row, with arguments that make the
/// queries return rows and with arguments that make them return none.
@Suite("Named queries: the corpus's nullability holds on the data")
struct CorpusNullabilityTests {
    /// Arguments for each query, by name: each set is run.
    static let arguments: [String: [[String: any SQLBindable]]] = [
        "tracksOfAlbum": [["albumId": 1], ["albumId": 8], ["albumId": -1]],
        "albumsWithArtists": [["limit": 400]],
        "longestTrackOfGenre": [["genreId": 1], ["genreId": 9999]],
        "invoiceTotalsByCountry": [["minInvoices": 0], ["minInvoices": 1000]],
        "trackPriceBands": [["albumId": 1], ["albumId": 251]],
        "topSellingTracks": [["limit": 5000]],
        "albumSummary": [["minMilliseconds": 0, "albumId": 1], ["minMilliseconds": 1_000_000_000, "albumId": 1]],
        "customersOfRep": [["employeeId": 3], ["employeeId": 1]],
        "playlistTracks": [["playlistId": 1], ["playlistId": 2]],
        "tracksByRowid": [["first": 1, "last": 4000]],
        "invoicesBetween": [["from": "2000-01-01", "to": "2100-01-01"]],
        "artistAndAlbumNames": [["limit": 1000]],
        "tracksInAlbumRanked": [["albumId": 1], ["albumId": 23]],
        "customerInvoiceSummary": [["customerId": 1], ["customerId": 9999]],
        "searchTracks": [["pattern": "%a%"]],
        "customersInCountries": [["first": "USA", "second": "Brazil"]],
        "longestTrackName": [["albumId": 1]],
        "albumsOfArtistSqlcStyle": [["ArtistId": 1, "limit": 10], ["ArtistId": -1, "limit": 10]],
        "tracksLongOrEvery": [["albumId": 1, "everyTrack": true], ["albumId": 1, "everyTrack": false]],
        "productsInCategory": [["categoryId": 1], ["categoryId": 8]],
        "largestOrders": [["limit": 1000]],
        "ordersOfCustomer": [["customerId": "ALFKI"], ["customerId": "NONE"]],
        "categoryRevenue": [["minRevenue": 0.0]],
        "orderLines": [["orderId": 10248], ["orderId": 11077]],
        "discountedLines": [["minDiscount": 0.0]],
    ]

    /// The writes of the corpus run on copies in the other suites.
    static let writes: Set<String> = [
        "insertArtist", "renameArtist", "deletePlaylist", "insertShipper", "deleteShipper",
    ]

    @Test(arguments: ["chinook", "northwind"])
    func nonOptionalColumnsAreNeverNull(_ name: String) throws {
        let loaded = try SchemaLoader.loadSchemaAndQueries(from: [
            TestFiles.resource("\(name).sqlite"),
            TestFiles.directory.appendingPathComponent("Queries/\(name).queries.sql"),
        ])
        let db = try sampleDatabase(name)
        var ran = 0
        var nullsSeen = 0
        for query in loaded.queries where !Self.writes.contains(query.name) {
            let sets = Self.arguments[query.name] ?? [[:]]
            for values in sets {
                let rows = try db.fetchAll(
                    CopiedRow.self, sql: query.sql, arguments: StatementArguments([], named: values.mapValues { $0 }))
                for row in rows {
                    for (index, column) in query.columns.enumerated() where row.isNull(at: index) {
                        nullsSeen += 1
                        #expect(column.isNullable, "\(query.name).\(column.name) is NULL but typed non-optional")
                    }
                }
                ran += 1
            }
        }
        #expect(ran >= (name == "chinook" ? 30 : 15))
        #expect(nullsSeen > 0)
        let described = loaded.queries.flatMap(\.columns)
        #expect(described.contains { !$0.isNullable })
        #expect(described.contains { $0.isNullable })
    }

    @Test func theCorpusHasAtLeastThirtyQueries() throws {
        var count = 0
        for name in ["chinook", "northwind"] {
            count += try SchemaLoader.loadSchemaAndQueries(from: [
                TestFiles.resource("\(name).sqlite"),
                TestFiles.directory.appendingPathComponent("Queries/\(name).queries.sql"),
            ]).queries.count
        }
        #expect(count >= 30)
    }
}
