import Foundation
import Slate
import Testing

// The associations `slate generate` writes from Chinook's foreign keys (the build plugin generated
// `ChinookDatabase` from Resources/chinook.sqlite): the same results as the hand-written N+1 loop,
// one statement per level.

@Suite("Generated associations")
struct GeneratedAssociationTests {
    typealias Artist = ChinookDatabase.Artist
    typealias Album = ChinookDatabase.Album
    typealias Track = ChinookDatabase.Track
    typealias Employee = ChinookDatabase.Employee
    typealias Playlist = ChinookDatabase.Playlist
    typealias PlaylistTrack = ChinookDatabase.PlaylistTrack

    /// The number of `SELECT` statements `body` runs.
    func selectCount(_ db: Database, _ body: () throws -> Void) rethrows -> Int {
        var count = 0
        let observation = db.trace(.statement) { event in
            if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT") { count += 1 }
        }
        defer { observation.cancel() }
        try body()
        return count
    }

    @Test func hasManyAndBelongsToFromTheForeignKeys() throws {
        let db = try sampleDatabase("chinook")
        var artists: [(Artist, [(Album, [Track])])] = []
        let count = try selectCount(db) {
            artists = try Artist.all().order(by: \.artistId)
                .including(all: \.albums) {
                    $0.order(by: \.albumId).including(all: \.tracks) { $0.order(by: \.trackId) }
                }
                .fetchAll(db)
        }
        #expect(count == 3)
        #expect(artists.count == 275)
        let loop = try Artist.all().order(by: \.artistId).fetchAll(db).map { artist in
            try Album.belonging(to: artist).order(by: \.albumId).fetchAll(db).map { album in
                (album, try Track.belonging(to: album).order(by: \.trackId).fetchAll(db))
            }
        }
        #expect(artists.map { $0.1.map(\.0) } == loop.map { $0.map(\.0) })
        #expect(artists.map { $0.1.map(\.1) } == loop.map { $0.map(\.1) })
        let albums = try Album.where { $0.albumId <= 3 }.order(by: \.albumId).including(required: \.artist).fetchAll(db)
        #expect(albums.map(\.1.name) == ["AC/DC", "Accept", "Accept"])
    }

    @Test func selfReferenceNamesAvoidTheColumn() throws {
        let db = try sampleDatabase("chinook")
        // `ReportsTo` is a column property: the BelongsTo takes the parent type's name after it.
        let employees = try Employee.all().order(by: \.employeeId)
            .including(optional: \.reportsToEmployee)
            .including(all: \.employeesByReportsTo) { $0.order(by: \.employeeId) }
            .fetchAll(db)
        let loop = try Employee.all().order(by: \.employeeId).fetchAll(db).map { employee in
            try Employee.belonging(to: employee).order(by: \.employeeId).fetchAll(db)
        }
        #expect(employees.map(\.2) == loop)
        #expect(employees.map { $0.1?.employeeId } == employees.map(\.0.reportsTo))
    }

    @Test func manyToManyThroughTheLinkingTable() throws {
        let db = try sampleDatabase("chinook")
        let playlists = try Playlist.all().order(by: \.playlistId).including(all: \.tracks).fetchAll(db)
        // The N+1 loop: each playlist's links, then each link's track.
        let loop = try Playlist.all().order(by: \.playlistId).fetchAll(db).map { playlist in
            try PlaylistTrack.belonging(to: playlist).fetchAll(db).compactMap {
                try Track.referenced(by: $0).fetchOne(db)
            }
        }
        #expect(playlists.map { $0.1.map(\.name).sorted() } == loop.map { $0.map(\.name).sorted() })
        #expect(playlists.contains { $0.1.isEmpty })
    }
}
