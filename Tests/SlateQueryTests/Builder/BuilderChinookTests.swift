import Foundation
import Slate
import SlateTestSupport
import Testing

/// Each builder query on Chinook returns the same rows as the same query written in raw SQL.
@Suite struct BuilderChinookTests {
    let db: Database

    init() throws {
        db = try Database.chinook()
    }

    // MARK: Filters

    @Test func filtersLikeRawSQL() throws {
        let tracks = try Track.where {
            $0.milliseconds > 300_000 && $0.genreId == 1 && $0.composer != nil && $0.unitPrice <= 0.99
                || $0.name.hasPrefix("Z")
        }.fetchAll(db)
        let expected = try db.fetchAll(
            Int64.self,
            """
            SELECT TrackId FROM Track
            WHERE Milliseconds > 300000 AND GenreId = 1 AND Composer IS NOT NULL AND UnitPrice <= 0.99 OR Name GLOB 'Z*'
            """)
        #expect(tracks.count == expected.count)
        #expect(tracks.compactMap(\.trackId) == expected)
        #expect(tracks.count > 10)
    }

    @Test func matchesTextCaseSensitivelyWithEscaping() throws {
        let containsLower = try Track.where { $0.name.contains("love") }.fetchCount(db)
        let containsCapital = try Track.where { $0.name.contains("Love") }.fetchCount(db)
        #expect(
            containsLower == (try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE instr(Name, 'love') > 0")))
        #expect(
            containsCapital == (try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE instr(Name, 'Love') > 0"))
        )
        #expect(containsLower != containsCapital)
        let likeCount = try Track.where { $0.name.like("%love%") }.fetchCount(db)
        #expect(likeCount == (try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE Name LIKE '%love%'")))
        let prefixed = try Track.where { $0.name.hasPrefix("The ") }.fetchCount(db)
        #expect(
            prefixed == (try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE substr(Name, 1, 4) = 'The '")))
        let suffixed = try Album.where { $0.title.hasSuffix("[Live]") }.select { $0.title }.fetchAll(db)
        let expectedSuffixed = try db.fetchAll(
            String.self, "SELECT Title FROM Album WHERE substr(Title, -6) = '[Live]' ORDER BY AlbumId")
        #expect(suffixed == expectedSuffixed)
        // `?` in a title is matched literally, not as a GLOB wildcard.
        let questions = try Track.where { $0.name.contains("?") }.select { $0.name }.fetchAll(db)
        #expect(
            questions
                == (try db.fetchAll(String.self, "SELECT Name FROM Track WHERE instr(Name, '?') > 0 ORDER BY TrackId")))
        #expect(!questions.isEmpty)
    }

    @Test func comparesCaseInsensitivelyWithCollation() throws {
        let artists = try Artist.where { $0.name.collate(.nocase) == "ac/dc" }.fetchAll(db)
        #expect(artists.map(\.name) == ["AC/DC"])
        #expect(try Artist.where { $0.name == "ac/dc" }.fetchAll(db).isEmpty)
        let lowered = try Artist.where { $0.name.lower() == "ac/dc" }.fetchOne(db)
        #expect(lowered?.artistId == 1)
    }

    @Test func filtersWithInAndBetween() throws {
        let tracks = try Track.where { $0.genreId.in([1, 3, nil]) && $0.milliseconds.between(200_000, and: 210_000) }
            .select { $0.trackId }
            .fetchAll(db)
        let expected = try db.fetchAll(
            Int64?.self,
            "SELECT TrackId FROM Track WHERE GenreId IN (1, 3) AND Milliseconds BETWEEN 200000 AND 210000")
        #expect(tracks == expected)
        #expect(try Track.where { $0.trackId.in([Int64?]()) }.fetchCount(db) == 0)
        #expect(try Track.where { $0.trackId.notIn([Int64?]()) }.fetchCount(db) == 3503)
    }

    // MARK: Ordering, limit, distinct

    @Test func ordersWithNullsFirstAndLast() throws {
        let last = try Track.order { ($0.composer.descending(nulls: .last), $0.name, $0.trackId) }.select { $0.trackId }
            .fetchAll(db)
        let expectedLast = try db.fetchAll(
            Int64?.self, "SELECT TrackId FROM Track ORDER BY Composer DESC NULLS LAST, Name, TrackId")
        #expect(last == expectedLast)
        let first = try Track.order { ($0.composer.ascending(nulls: .last), $0.trackId.descending()) }.limit(5)
            .fetchAll(db)
        #expect(first.allSatisfy { $0.composer != nil })
        let nullsFirst = try Track.order { ($0.composer.descending(nulls: .first), $0.trackId) }.limit(3).fetchAll(db)
        #expect(nullsFirst.allSatisfy { $0.composer == nil })
        #expect(
            nullsFirst.compactMap(\.trackId)
                == (try db.fetchAll(
                    Int64.self, "SELECT TrackId FROM Track WHERE Composer IS NULL ORDER BY TrackId LIMIT 3")))
    }

    @Test func limitsAndOffsets() throws {
        let page = try Track.order(by: \.name, \.trackId).limit(10, offset: 20).fetchAll(db)
        let expected = try db.fetchAll(
            Int64.self, "SELECT TrackId FROM Track ORDER BY Name, TrackId LIMIT 10 OFFSET 20")
        #expect(page.compactMap(\.trackId) == expected)
        #expect(try Track.all().limit(3).fetchCount(db) == 3)
        #expect(try Track.all().limit(10, offset: 3500).fetchCount(db) == 3)
    }

    @Test func selectsDistinctValues() throws {
        let countries = try Customer.select { $0.country }.distinct().order(by: \.country).fetchAll(db)
        let expected = try db.fetchAll(String?.self, "SELECT DISTINCT Country FROM Customer ORDER BY Country")
        #expect(countries == expected)
        #expect(try Customer.select { $0.country }.distinct().fetchCount(db) == expected.count)
    }

    // MARK: Aggregates

    @Test func groupsWithHavingAndAggregates() throws {
        let rows = try Track.group(by: \.genreId)
            .having { _ in count() > 100 }
            .order { $0.trackId.count().descending() }
            .select { ($0.genreId, count(), $0.milliseconds.avg(), $0.unitPrice.sum(), $0.bytes.max(), $0.name.min()) }
            .fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT GenreId, count(*), avg(Milliseconds), sum(UnitPrice), max(Bytes), min(Name) FROM Track
            GROUP BY GenreId HAVING count(*) > 100 ORDER BY count(TrackId) DESC
            """
        ) { row in
            (
                try row[0] as Int64?, try row[1] as Int, try row[2] as Double?, try row[3] as Double?,
                try row[4] as Int64?,
                try row[5] as String?
            )
        }
        #expect(rows.count == expected.count)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0 && row.1 == raw.1 && row.2 == raw.2)
            #expect(row.3 == raw.3 && row.4 == raw.4 && row.5 == raw.5)
        }
        #expect(try Track.group(by: \.genreId).having { _ in count() > 100 }.fetchCount(db) == rows.count)
    }

    @Test func aggregatesWholeTable() throws {
        let stats = try Invoice.select {
            (
                count(), $0.total.sum(), $0.total.total(), $0.total.avg(), $0.total.min(), $0.total.max(),
                $0.billingCountry.count(distinct: true)
            )
        }.fetchOne(db)
        let row = try #require(
            try db.fetchOne(
                CopiedRow.self,
                """
                SELECT count(*), sum(Total), total(Total), avg(Total), min(Total), max(Total),
                  count(DISTINCT BillingCountry)
                FROM Invoice
                """
            ))
        let values = try #require(stats)
        #expect(values.0 == (try row[0] as Int))
        #expect(values.1 == (try row[1] as Double?))
        #expect(values.2 == (try row[2] as Double))
        #expect(values.3 == (try row[3] as Double?))
        #expect(values.4 == (try row[4] as Double?))
        #expect(values.5 == (try row[5] as Double?))
        #expect(values.6 == (try row[6] as Int))
        let names = try Genre.where { $0.genreId <= 3 }.select { $0.name.groupConcat(separator: "|") }.fetchOne(db)
        #expect(names == "Rock|Jazz|Metal")
    }

    // MARK: Joins

    @Test func joinsTwoTables() throws {
        let rows: [(Album, Artist)] = try Album.join(
            Artist.self, on: { album, artist in album.artistId == artist.artistId }
        )
        .where { _, artist in artist.name == "AC/DC" }
        .order(by: \.0.albumId)
        .fetchAll(db)
        let expected = try db.fetchAll(
            String.self,
            """
            SELECT Album.Title
            FROM Album
            JOIN Artist ON Album.ArtistId = Artist.ArtistId
            WHERE Artist.Name = 'AC/DC'
            ORDER BY Album.AlbumId
            """
        )
        #expect(rows.map(\.0.title) == expected)
        #expect(rows.allSatisfy { $0.1.name == "AC/DC" && $0.0.artistId == $0.1.artistId })
        #expect(rows.count == 2)
    }

    @Test func joinsThreeTables() throws {
        let rows: [(Track, Album, Artist)] = try Track.all()
            .join(Album.self, on: { track, album in track.albumId == album.albumId })
            .join(Artist.self, on: { _, album, artist in album.artistId == artist.artistId })
            .where { track, _, artist in artist.name == "Queen" && track.milliseconds > 200_000 }
            .order { track, album, _ in (album.title, track.name) }
            .fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT Track.Name, Album.Title FROM Track JOIN Album ON Track.AlbumId = Album.AlbumId
            JOIN Artist ON Album.ArtistId = Artist.ArtistId
            WHERE Artist.Name = 'Queen' AND Track.Milliseconds > 200000 ORDER BY Album.Title, Track.Name
            """
        ) { row in (try row[0] as String, try row[1] as String) }
        #expect(rows.count == expected.count)
        #expect(rows.map { $0.0.name } == expected.map(\.0))
        #expect(rows.map { $0.1.title } == expected.map(\.1))
        #expect(rows.allSatisfy { $0.2.name == "Queen" })
        let count = try Track.join(Album.self, on: { $0.albumId == $1.albumId })
            .join(Artist.self, on: { $1.artistId == $2.artistId })
            .where { _, _, artist in artist.name == "Queen" }
            .fetchCount(db)
        #expect(
            count
                == (try db.fetchValue(
                    Int.self,
                    """
                    SELECT count(*)
                    FROM Track
                    JOIN Album USING (AlbumId)
                    JOIN Artist USING (ArtistId)
                    WHERE Artist.Name = 'Queen'
                    """
                )))
    }

    @Test func leftJoinDecodesMissingRowsAsNil() throws {
        let rows: [(Artist, Album?)] = try Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId })
            .order { artist, album in (artist.artistId, album.albumId) }
            .fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT Artist.ArtistId, Album.AlbumId
            FROM Artist
            LEFT JOIN Album ON Artist.ArtistId = Album.ArtistId
            ORDER BY 1, 2
            """
        ) { row in (try row[0] as Int64, try row[1] as Int64?) }
        #expect(rows.map { $0.0.artistId } == expected.map(\.0))
        #expect(rows.map { $0.1?.albumId } == expected.map(\.1))
        let unmatched: Int = rows.filter { $0.1 == nil }.count
        #expect(unmatched == 71)
        let withoutAlbums = try Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId })
            .where { _, album in album.albumId == nil }
            .fetchCount(db)
        #expect(withoutAlbums == 71)
    }

    @Test func selfJoinsThroughAliases() throws {
        let manager = TableAlias<Employee>("manager")
        let rows: [(Employee, Employee?)] = try Employee.all()
            .leftJoin(manager, on: { employee, manager in employee.reportsTo == manager.employeeId })
            .order(by: \.0.employeeId)
            .fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT e.LastName, m.LastName
            FROM Employee e
            LEFT JOIN Employee m ON e.ReportsTo = m.EmployeeId
            ORDER BY e.EmployeeId
            """
        ) { row in (try row[0] as String, try row[1] as String?) }
        #expect(rows.map(\.0.lastName) == expected.map(\.0))
        #expect(rows.map { $0.1?.lastName } == expected.map(\.1))
        let withoutManager: [Int64?] = rows.filter { $0.1 == nil }.map { $0.0.employeeId }
        #expect(withoutManager == [1])

        let pairs: [(String, String)] = try Employee.aliased("e")
            .join(Employee.self, as: "m", on: { e, m in e.reportsTo == m.employeeId })
            .where { _, m in m.lastName == "Adams" }
            .order { e, _ in e.lastName }
            .select { e, m in (e.lastName, m.lastName) }
            .fetchAll(db)
        let expectedPairs = try db.fetchAll(
            """
            SELECT e.LastName, m.LastName FROM Employee e JOIN Employee m ON e.ReportsTo = m.EmployeeId
            WHERE m.LastName = 'Adams' ORDER BY e.LastName
            """
        ) { row in (try row[0] as String, try row[1] as String) }
        #expect(pairs.map(\.0) == expectedPairs.map(\.0))
        #expect(pairs.map(\.1) == expectedPairs.map(\.1))
    }

    @Test func joinsCustomersToSupportRepsAndInvoices() throws {
        let rows = try Customer.leftJoin(Employee.self, on: { $0.supportRepId == $1.employeeId })
            .join(Invoice.self, on: { customer, _, invoice in invoice.customerId == customer.customerId })
            .where { customer, _, invoice in customer.country == "France" && invoice.total > 10 }
            .order { _, _, invoice in invoice.invoiceId }
            .fetchAll(db)
        let expected = try db.fetchAll(
            Int64.self,
            """
            SELECT Invoice.InvoiceId FROM Customer LEFT JOIN Employee ON Customer.SupportRepId = Employee.EmployeeId
            JOIN Invoice ON Invoice.CustomerId = Customer.CustomerId
            WHERE Customer.Country = 'France' AND Invoice.Total > 10 ORDER BY Invoice.InvoiceId
            """)
        #expect(rows.compactMap { $0.2.invoiceId } == expected)
        #expect(rows.allSatisfy { $0.1?.employeeId == $0.0.supportRepId })
    }

    // MARK: Subqueries

    @Test func filtersWithInSubquery() throws {
        let artists = try Artist.where {
            $0.artistId.in(Album.where { $0.title.contains("Greatest") }.select { $0.artistId })
        }
        .order(by: \.artistId)
        .fetchAll(db)
        let expected = try db.fetchAll(
            Int64.self,
            """
            SELECT ArtistId
            FROM Artist
            WHERE ArtistId IN (SELECT ArtistId FROM Album WHERE instr(Title, 'Greatest') > 0)
            ORDER BY ArtistId
            """
        )
        #expect(artists.compactMap(\.artistId) == expected)
        #expect(!expected.isEmpty)
    }

    @Test func filtersWithExists() throws {
        let withoutAlbums = try Artist.where { artist in !exists(Album.where { $0.artistId == artist.artistId }) }
            .fetchAll(db)
        let expected = try db.fetchAll(
            Int64.self,
            "SELECT ArtistId FROM Artist a WHERE NOT EXISTS (SELECT 1 FROM Album WHERE Album.ArtistId = a.ArtistId)")
        #expect(withoutAlbums.compactMap(\.artistId) == expected)
        #expect(withoutAlbums.count == 71)
        #expect(try Artist.where { $0.name == "AC/DC" }.exists(db))
        #expect(try !Artist.where { $0.name == "Nobody" }.exists(db))
    }

    @Test func comparesWithScalarSubquery() throws {
        let aboveAverage = try Invoice.where { $0.total > Invoice.select { $0.total.avg() } }.fetchCount(db)
        #expect(
            aboveAverage
                == (try db.fetchValue(
                    Int.self, "SELECT count(*) FROM Invoice WHERE Total > (SELECT avg(Total) FROM Invoice)")))
    }

    // MARK: Selections

    @Test func selectsColumnTuples() throws {
        let rows: [(Int64?, Double, String?)] = try Invoice.where { $0.total > 20 }
            .order(by: \.invoiceId)
            .select { ($0.invoiceId, $0.total, $0.billingCountry) }
            .fetchAll(db)
        let expected = try db.fetchAll(
            "SELECT InvoiceId, Total, BillingCountry FROM Invoice WHERE Total > 20 ORDER BY InvoiceId"
        ) { row in (try row[0] as Int64, try row[1] as Double, try row[2] as String?) }
        #expect(rows.map(\.0) == expected.map(\.0))
        #expect(rows.map(\.1) == expected.map(\.1))
        #expect(rows.map(\.2) == expected.map(\.2))
        let names: [String] = try Genre.order(by: \.genreId).select { $0.name ?? "?" }.fetchAll(db)
        #expect(names == (try db.fetchAll(String.self, "SELECT Name FROM Genre ORDER BY GenreId")))
        let computed = try Track.where { $0.trackId == 1 }.select {
            ($0.milliseconds / 1000, $0.unitPrice * 2, $0.name.length())
        }
        .fetchOne(db)
        let row = try #require(computed)
        #expect(row.0 == 343 && row.1 == 1.98 && row.2 == 39)
    }

    // MARK: Counting and fetching

    @Test func countsRows() throws {
        #expect(try Track.all().fetchCount(db) == 3503)
        #expect(try Track.all().fetchCount(db) == 3503)
        #expect(
            try Track.where { $0.genreId == 1 }.fetchCount(db)
                == (try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE GenreId = 1")))
        #expect(
            try Track.select { $0.genreId }.distinct().fetchCount(db)
                == (try db.fetchValue(Int.self, "SELECT count(DISTINCT GenreId) FROM Track")))
        #expect(
            try Track.group(by: \.albumId).fetchCount(db)
                == (try db.fetchValue(Int.self, "SELECT count(DISTINCT AlbumId) FROM Track")))
        #expect(try Track.all().limit(10, offset: 5).fetchCount(db) == 10)
    }

    @Test func fetchesOneAndThroughCursors() throws {
        let first = try Track.order(by: \.name).fetchOne(db)
        #expect(first?.trackId == (try db.fetchOne(Int64.self, "SELECT TrackId FROM Track ORDER BY Name LIMIT 1")))
        #expect(try Track.where { $0.trackId == -1 }.fetchOne(db) == nil)

        let cursor = try Track.where { $0.genreId == 2 }.order(by: \.trackId).fetchCursor(db)
        var ids: [Int64] = []
        while let track = try cursor.next() { ids.append(try #require(track.trackId)) }
        #expect(ids == (try db.fetchAll(Int64.self, "SELECT TrackId FROM Track WHERE GenreId = 2 ORDER BY TrackId")))

        let joined = try Album.join(Artist.self, on: { $0.artistId == $1.artistId }).where { $1.artistId == 1 }
            .fetchCursor(db)
        #expect(try joined.collect().map(\.0.title) == ["For Those About To Rock We Salute You", "Let There Be Rock"])
        let titles = try Album.where { $0.artistId == 1 }.select { $0.title }.fetchCursor(db)
        #expect(try titles.collect().count == 2)
    }

    @Test func runsEachQueryShapeOnce() throws {
        let before = db.cachedStatementCount
        for id in 1...20 {
            _ = try Track.where { $0.trackId == Int64(id) }.fetchOne(db)
        }
        #expect(db.cachedStatementCount == before + 1)
    }

    // MARK: Keys and relationships

    @Test func findsByPrimaryKey() throws {
        #expect(try Artist.find(1).fetchOne(db)?.name == "AC/DC")
        #expect(try Artist.find(1).fetchOne(db)?.name == "AC/DC")
        #expect(try Artist.find(100_000).fetchOne(db) == nil)
        #expect(try Artist.find(nil).fetchOne(db) == nil)
        let entry = try PlaylistTrack.find((1, 3402)).fetchOne(db)
        #expect(entry == PlaylistTrack(playlistId: 1, trackId: 3402))
        #expect(try PlaylistTrack.find((1, 1)).fetchOne(db) != nil)
        #expect(try PlaylistTrack.find((2, 1)).fetchOne(db) == nil)  // playlist 2 is empty
        let countInPlaylist = try PlaylistTrack.where { $0.playlistId == 1 }.fetchCount(db)
        #expect(
            countInPlaylist == (try db.fetchValue(Int.self, "SELECT count(*) FROM PlaylistTrack WHERE PlaylistId = 1")))
    }

    @Test func fetchesThroughForeignKeys() throws {
        let acdc = try #require(try Artist.find(1).fetchOne(db))
        let albums = try Album.belonging(to: acdc).fetchAll(db)
        #expect(albums.map(\.title) == ["For Those About To Rock We Salute You", "Let There Be Rock"])
        #expect(try Album.belonging(to: acdc).order { $0.title.descending() }.fetchAll(db).map(\.albumId) == [4, 1])

        let album = try #require(albums.first)
        #expect(try Artist.referenced(by: album).fetchOne(db) == acdc)
        #expect(try Artist.referenced(by: album).fetchAll(db) == [acdc])

        // A self-referencing key: the employees reporting to the general manager.
        let manager = try #require(try Employee.find(1).fetchOne(db))
        let reports = try Employee.belonging(to: manager).fetchAll(db)
        #expect(reports.compactMap(\.employeeId) == [2, 6])
        #expect(try Employee.referenced(by: manager).fetchOne(db) == nil)  // ReportsTo is NULL

        // Tables with several foreign keys to different tables.
        let line = try #require(try InvoiceLine.find(1).fetchOne(db))
        #expect(try Invoice.referenced(by: line).fetchOne(db)?.invoiceId == line.invoiceId)
        #expect(try Track.referenced(by: line).fetchOne(db)?.trackId == line.trackId)
        let playlist = try #require(try Playlist.find(1).fetchOne(db))
        #expect(
            try PlaylistTrack.belonging(to: playlist).fetchAll(db).count
                == (try db.fetchValue(Int.self, "SELECT count(*) FROM PlaylistTrack WHERE PlaylistId = 1")))
        let rep = try #require(try Employee.find(3).fetchOne(db))
        #expect(
            try Customer.belonging(to: rep).fetchCount(db)
                == (try db.fetchValue(Int.self, "SELECT count(*) FROM Customer WHERE SupportRepId = 3")))
    }

    @Test func reportsMissingForeignKeys() throws {
        let acdc = try #require(try Artist.find(1).fetchOne(db))
        #expect {
            try Track.belonging(to: acdc).fetchAll(db)
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .misuse
                && (error as? DatabaseError)?.message.contains("Track has no foreign key to Artist") == true
        }
    }
}
