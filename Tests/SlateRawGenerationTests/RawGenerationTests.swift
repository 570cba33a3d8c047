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

    /// An in-memory database with the hard-case schema.
    init(fixtures: [URL]) throws {
        guard sqlite3_open(":memory:", &handle) == SQLITE_OK else { throw RawError(code: SQLITE_CANTOPEN) }
        for url in fixtures {
            let code = sqlite3_exec(handle, try String(contentsOf: url, encoding: .utf8), nil, nil, nil)
            guard code == SQLITE_OK else { throw RawError(code: code) }
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
        #expect(sqlite3_prepare_v2(db, "SELECT typeof(id), length(id) FROM talent_profile LIMIT 1", -1, &statement, nil) == SQLITE_OK)
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
