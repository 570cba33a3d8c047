import Foundation
import Testing

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

// This target depends only on CSQLite. SlateBuildPlugin generates raw-style code (slate.json:
// "style": "raw") for Chinook and for the hard-case fixtures of SlateGeneratorTests; if that code
// needed Slate, or did not compile, this target would not build.

enum RawFiles {
    static let generatorTests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SlateGeneratorTests")
    static let chinook = generatorTests.appendingPathComponent("Resources/chinook.sqlite")
    static var fixtures: [URL] {
        let directory = generatorTests.appendingPathComponent("Fixtures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

/// An open connection, closed by `close()`.
final class Connection {
    var handle: OpaquePointer?

    init(path: String, readOnly: Bool) throws {
        let code = sqlite3_open_chinook(path, &handle, readOnly: readOnly)
        guard code == SQLITE_OK else {
            sqlite3_close(handle)
            throw RawError(code: code)
        }
    }

    /// An in-memory database with the hard-case schema: the statements of the fixtures, except
    /// the named queries (those labelled `-- name: …`), which are not schema.
    init(fixtures: [URL]) throws {
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { throw RawError(code: SQLITE_CANTOPEN) }
        for url in fixtures {
            let script = try String(contentsOf: url, encoding: .utf8)
            try script.withCString { start in
                var current: UnsafePointer<CChar>? = start
                while let text = current, text.pointee != 0 {
                    var statement: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    let code = sqlite3_prepare_v2(handle, text, -1, &statement, &tail)
                    guard code == SQLITE_OK else { throw RawError(code: code) }
                    defer { sqlite3_finalize(statement) }
                    let length = tail.map { $0 - text } ?? strlen(text)
                    let source = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
                    current = tail
                    guard let statement, !source.contains("-- name:") else { continue }
                    let stepped = sqlite3_step(statement)
                    guard stepped == SQLITE_DONE || stepped == SQLITE_ROW else { throw RawError(code: stepped) }
                }
            }
        }
    }

    func close() { sqlite3_close(handle) }
}

struct RawError: Error {
    var code: Int32
}

@Suite("Raw generation")
struct RawGenerationTests {
    @Test func findFetchAndFilterOnTheRealData() throws {
        let connection = try Connection(path: RawFiles.chinook.path, readOnly: true)
        defer { connection.close() }
        let db = connection.handle
        let artist = try #require(sqlite3_artist_find(db, 1))
        #expect(artist.name == "AC/DC")
        #expect(sqlite3_artist_find(db, 100_000) == nil)
        #expect(sqlite3_artists_fetch(db)?.count == 275)
        #expect(sqlite3_tracks_fetch(db) { $0.milliseconds > 1_000_000 }?.count == 215)
        let custom = sqlite3_artists_fetch(db, sql: #"SELECT "ArtistId", "Name" FROM "Artist" WHERE "ArtistId" < 4"#)
        #expect(custom?.map(\.name) == ["AC/DC", "Accept", "Aerosmith"])
        #expect(sqlite3_artists_fetch(db, sql: "SELECT nonsense") == nil)
        let entry = try #require(sqlite3_playlist_track_find(db, 1, 3402))
        #expect(entry.trackId == 3402)
        let employees = try #require(sqlite3_employees_fetch(db))
        #expect(employees.allSatisfy { $0.hireDate != nil })
        let invoice = try #require(sqlite3_invoice_find(db, 1))
        #expect(invoice.total == 1.98)
        #expect(invoice.invoiceDate.timeIntervalSince1970 == 1_609_459_200)  // 2021-01-01 00:00:00
    }

    @Test func fetchThroughForeignKeys() throws {
        let connection = try Connection(path: RawFiles.chinook.path, readOnly: true)
        defer { connection.close() }
        let db = connection.handle
        let artist = try #require(sqlite3_artist_find(db, 1))
        let albums = try #require(sqlite3_albums_fetch(db, for: artist))
        #expect(albums.map(\.title) == ["For Those About To Rock We Salute You", "Let There Be Rock"])
        #expect(artist.fetchAlbums(in: db) == albums)
        #expect(albums[0].fetchArtist(in: db) == artist)
        let manager = try #require(sqlite3_employee_find(db, 1))
        #expect(sqlite3_employees_fetch(db, for: manager)?.map(\.employeeId) == [2, 6])
        #expect(manager.fetchReportsTo(in: db) == nil)
    }

    @Test func insertUpdateDeleteOnACopy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slate-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chinook.sqlite")
        try FileManager.default.copyItem(at: RawFiles.chinook, to: url)
        let connection = try Connection(path: url.path, readOnly: false)
        defer { connection.close() }
        let db = connection.handle

        var artist = Artist(name: "Slate Quartet")
        #expect(sqlite3_artist_insert(db, &artist) == SQLITE_OK)
        #expect(artist.artistId == 276)
        artist.name = "Slate Quintet"
        #expect(sqlite3_artist_update(db, artist) == SQLITE_OK)
        #expect(Artist.find(276, in: db)?.name == "Slate Quintet")
        #expect(artist.delete(from: db) == SQLITE_OK)
        #expect(sqlite3_artist_find(db, 276) == nil)

        var genre = Genre(name: "Slatecore")
        #expect(genre.insert(into: db) == SQLITE_OK)
        #expect(genre.genreId == 26)
        genre.name = "Slate Core"
        #expect(genre.update(in: db) == SQLITE_OK)
        #expect(Genre.fetch(in: db) { $0.name == "Slate Core" }?.count == 1)

        // A constraint violation is reported as SQLite's result code.
        var duplicate = Genre(genreId: 1, name: "Rock again")
        #expect(sqlite3_genre_insert(db, &duplicate) & 0xFF == SQLITE_CONSTRAINT)
        var album = Album(title: "Nobody's", artistId: 1)
        #expect(sqlite3_album_insert(db, &album) == SQLITE_OK)
    }

    @Test func hardCasesWorkWithoutSlate() throws {
        let connection = try Connection(fixtures: RawFiles.fixtures)
        defer { connection.close() }
        let db = connection.handle

        // Rowid alias versus INT PRIMARY KEY.
        var alias = AliasKey(label: "a")
        #expect(sqlite3_alias_key_insert(db, &alias) == SQLITE_OK)
        #expect(alias.id == 1)
        var int = IntKey(id: 9, label: "nine")
        #expect(sqlite3_int_key_insert(db, &int) == SQLITE_OK)
        #expect(sqlite3_int_key_find(db, 9)?.label == "nine")

        // UUID keys with defaults, stored as 16 bytes (slate.json: "uuidStorage": "blob").
        let mentor = TalentProfile(name: "Mentor", homepage: URL(string: "https://example.com"))
        var student = TalentProfile(name: "Student", mentorId: mentor.id)
        var stored = mentor
        #expect(sqlite3_talent_profile_insert(db, &stored) == SQLITE_OK)
        #expect(sqlite3_talent_profile_insert(db, &student) == SQLITE_OK)
        let found = try #require(sqlite3_talent_profile_find(db, student.id))
        #expect(found.mentorId == mentor.id)
        #expect(found.fetchMentor(in: db)?.homepage == URL(string: "https://example.com"))
        var statement: OpaquePointer?
        #expect(
            sqlite3_prepare_v2(db, "SELECT typeof(id), length(id) FROM talent_profile LIMIT 1", -1, &statement, nil)
                == SQLITE_OK)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(String(cString: sqlite3_column_text(statement, 0)) == "blob")
        #expect(sqlite3_column_int(statement, 1) == 16)
        sqlite3_finalize(statement)

        // Composite keys, views, single columns, wide tables, keyword names.
        var mixtape = Mixtape(name: "Road")
        var song = Song(title: "Song")
        #expect(sqlite3_mixtape_insert(db, &mixtape) == SQLITE_OK)
        #expect(sqlite3_song_insert(db, &song) == SQLITE_OK)
        var entry = MixtapeSong(mixtapeId: 1, songId: 1)
        #expect(sqlite3_mixtape_song_insert(db, &entry) == SQLITE_OK)
        #expect(sqlite3_mixtape_song_find(db, 1, 1)?.position == 0)
        var sale = Sale(amount: 2.5, quantity: 2)
        #expect(sqlite3_sale_insert(db, &sale) == SQLITE_OK)
        let summary = try #require(sqlite3_sale_summaries_fetch(db)?.first)
        #expect(summary.sales == 1)
        #expect(summary.revenue == 2.5)
        var tag = Tag(name: "t")
        #expect(sqlite3_tag_insert(db, &tag) == SQLITE_OK)
        #expect(sqlite3_tags_fetch(db) == [tag])
        var wide = Wide(c001: 1, c210: "last")
        #expect(sqlite3_wide_insert(db, &wide) == SQLITE_OK)
        #expect(sqlite3_wide_find(db, 1) == wide)
        var keywords = Default(class: "c", selfValue: 1)
        #expect(sqlite3_default_insert(db, &keywords) == SQLITE_OK)
        #expect(sqlite3_defaults_fetch(db) == [keywords])
        var talents = Talents(name: "many")
        #expect(sqlite3_talents_insert(db, &talents) == SQLITE_OK)
        #expect(sqlite3_talents_all_fetch(db)?.count == 1)
    }

    /// The generated readers never hand back a number other than the stored one: a lossy value
    /// fails the row (`nil` from the fetch) instead of truncating, also in a nullable column.
    @Test func readsAreExactOrFail() throws {
        let connection = try Connection(fixtures: RawFiles.fixtures)
        defer { connection.close() }
        let db = connection.handle
        func read(_ values: String) -> [StrictKey]? { sqlite3_strict_keys_fetch(db, sql: "SELECT \(values)") }

        let plain = try #require(read("1, 2.5, 1")?.first)
        #expect(plain.id == 1 && plain.amount == 2.5 && plain.flag == 1)
        let converted = try #require(read("' 7 ', 42, 3.0")?.first)
        #expect(converted.id == 7 && converted.amount == 42 && converted.flag == 3)
        let spelled = try #require(read("NULL, '2.5', '1e3'")?.first)
        #expect(spelled.id == nil && spelled.amount == 2.5 && spelled.flag == 1000)

        for lossy in [
            "1, 2.5, 3.7", "1, 2.5, '12abc'", "1, 2.5, 1e300", "1, 2.5, 1e999", "1, 2.5, '0x1A'", "1, 2.5, x'01'",
            "1, 9007199254740993, 1", "1, '1e400', 1", "1, 'inf', 1", "1, 1.0, NULL",
            // A nullable column that holds a lossy value fails too, rather than reading as nil.
            "2.5, 1.0, 1", "'12abc', 1.0, 1",
        ] {
            #expect(read(lossy) == nil, "\(lossy)")
        }
    }
}

@Suite("Raw generation: named queries")
struct RawNamedQueryTests {
    @Test func queriesRunOverTheCAPI() throws {
        let connection = try Connection(path: RawFiles.chinook.path, readOnly: true)
        defer { connection.close() }
        let db = connection.handle
        let tracks = try #require(sqlite3_tracks_of_album(db, albumId: 1))
        #expect(tracks.count == 10)
        #expect(tracks[0].name == "For Those About To Rock (We Salute You)")
        // The cursor variant stops when asked.
        var seen = 0
        let code = sqlite3_tracks_of_album(db, albumId: 1) { _ in
            seen += 1
            return seen < 3
        }
        #expect(code == SQLITE_OK)
        #expect(seen == 3)
        // The first row, and no row.
        var first: TracksOfAlbumRow?
        #expect(sqlite3_tracks_of_album_one(db, albumId: 1, &first) == SQLITE_OK)
        #expect(first?.trackId == 1)
        #expect(sqlite3_tracks_of_album_one(db, albumId: 9999, &first) == SQLITE_OK)
        #expect(first == nil)
        // NULLs land in optionals.
        let lonely = try #require(sqlite3_artists_without_albums(db))
        #expect(lonely.count == 71)
        #expect(lonely.allSatisfy { $0.albumTitle == nil })
        // One column: its values.
        #expect(sqlite3_artist_count(db) == [275])
        #expect(sqlite3_longest_track_of_genre(db, genreId: 9999) == [nil])
        let summary = try #require(sqlite3_customer_invoice_summary(db, customerId: 9999)?.first)
        #expect(summary.invoices == 0)
        #expect(summary.total == nil)
        // A write to a read-only connection reports SQLite's code.
        #expect(sqlite3_rename_artist(db, name: "x", artistId: 1) == SQLITE_READONLY)
        // Dates: parameters stored as the column stores them, columns converted by SQLite.
        // (Bounds at noon: the stored text has no milliseconds, the bound text has, so a bound at
        // midnight would compare as later than the invoice of that midnight.)
        let from = Date(timeIntervalSince1970: 1_609_459_200 + 43_200)  // 2021-01-01 12:00 UTC
        let to = from.addingTimeInterval(30 * 86_400)  // 2021-01-31 12:00 UTC
        let invoices = try #require(sqlite3_invoices_between(db, from: from, to: to))
        #expect(invoices.count == 5)
        #expect(invoices.allSatisfy { $0.invoiceDate >= from && $0.invoiceDate < to })
        // 2021-01-02, as stored
        #expect(invoices.first?.invoiceDate == Date(timeIntervalSince1970: 1_609_459_200 + 86_400))
    }

    @Test func datesOfNamedQueriesRoundTripThroughSQLite() throws {
        let connection = try Connection(fixtures: RawFiles.fixtures)
        defer { connection.close() }
        let db = connection.handle
        #expect(
            sqlite3_exec(
                db, "INSERT INTO nq_author (id, name, born) VALUES (1, 'Ada', '1815-12-10'), (2, 'Alan', NULL)", nil,
                nil, nil) == SQLITE_OK)
        let born = try #require(sqlite3_authors_born_after(db, date: Date(timeIntervalSince1970: -5_000_000_000)))
        #expect(born.map(\.name) == ["Ada"])
        #expect(born.first?.born == Date(timeIntervalSince1970: -4_861_728_000))
        #expect(sqlite3_authors_born_after(db, date: Date(timeIntervalSince1970: 0)) == [])
        #expect(sqlite3_birth_date(db, id: 1) == [Date(timeIntervalSince1970: -4_861_728_000)])
        #expect(sqlite3_birth_date(db, id: 2) == [nil])
        // Text that is not a date fails the row instead of becoming some date.
        #expect(sqlite3_exec(db, "UPDATE nq_author SET born = 'soon' WHERE id = 2", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_birth_date(db, id: 2) == nil)
        var row: Date??
        #expect(sqlite3_birth_date_one(db, id: 2, &row) == SQLITE_MISMATCH)
        #expect(row == nil)
    }

    @Test func writesReportCodesAndReturnRows() throws {
        let connection = try Connection(fixtures: RawFiles.fixtures)
        defer { connection.close() }
        let db = connection.handle
        #expect(sqlite3_exec(db, "INSERT INTO nq_author (id, name) VALUES (1, 'Ada')", nil, nil, nil) == SQLITE_OK)
        let added = try #require(sqlite3_add_book(db, authorId: 1, title: "Notes", pages: nil))
        #expect(added == [1])
        #expect(sqlite3_retitle_book(db, title: "Sketch", id: 1) == SQLITE_OK)
        #expect(sqlite3_changes(db) == 1)
        let books = try #require(sqlite3_books_by_author(db, authorId: 1))
        #expect(books.map(\.title) == ["Sketch"])
        #expect(books[0].pages == nil)
        #expect(books[0].author == "Ada")
        var row: Int64?
        #expect(sqlite3_add_book_one(db, authorId: 1, title: "y", pages: 2, &row) == SQLITE_OK)
        #expect(row == 2)
        // An error is SQLite's code: the table is gone.
        #expect(sqlite3_exec(db, "DROP TABLE nq_book", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_retitle_book(db, title: "z", id: 1) == SQLITE_ERROR)
        #expect(sqlite3_books_by_author(db, authorId: 1) == nil)
    }
}
