import CSQLite
import Foundation
import Slate
import SlateTestSupport
import Testing

/// Eager loads on Chinook: each equals the hand-written N+1 loop's result, and costs one statement
/// per level whatever the number of parents.
@Suite struct EagerLoadTests {
    let db: Database

    init() throws {
        db = try Database.chinook()
    }

    /// The statements `body` runs on `db`, by their text.
    private func statements(_ body: () throws -> Void) rethrows -> [String] {
        var texts: [String] = []
        let observation = db.trace(.statement) { event in
            if case .statement(let statement) = event { texts.append(statement.sql) }
        }
        defer { observation.cancel() }
        try body()
        return texts
    }

    // MARK: Statement count

    @Test(arguments: [1, 10, nil] as [Int?])
    func costsOneStatementPerLevel(parents: Int?) throws {
        var query = Artist.all().order(by: \.artistId)
        if let parents { query = query.limit(parents) }
        let load = query.including(all: \.albums) { $0.order(by: \.albumId).including(all: \.tracks) }
        var loaded: [(Artist, [(Album, [Track])])] = []
        // Inside a transaction: exactly the parent statement and one per level.
        let inTransaction = try db.transaction { try statements { loaded = try load.fetchAll(db) } }
        #expect(inTransaction.count == 3)
        #expect(inTransaction.allSatisfy { $0.hasPrefix("SELECT") })
        #expect(loaded.count == (parents ?? 275))
        // Outside one, the same three statements run in a transaction of their own.
        let alone = try statements { _ = try load.fetchAll(db) }
        #expect(alone.filter { $0.hasPrefix("SELECT") }.count == 3)
        #expect(alone.count == 5)
        #expect(alone.first?.hasPrefix("BEGIN") == true)
        #expect(alone.last?.hasPrefix("COMMIT") == true)
    }

    @Test func runsNoStatementForALevelWithoutParents() throws {
        let texts = try statements {
            let none = try Artist.where { $0.artistId < 0 }.including(all: \.albums).fetchAll(db)
            #expect(none.isEmpty)
        }
        #expect(texts.filter { $0.hasPrefix("SELECT") }.count == 1)
    }

    @Test func rendersTheLevelStatement() throws {
        let texts = try db.transaction {
            try statements { _ = try Artist.where { $0.artistId <= 3 }.including(all: \.albums).fetchAll(db) }
        }
        // Typed lines, joined outside `#expect`: the nested literal took the type checker over the
        // CI budget (SLATE_TYPECHECK_BUDGET).
        let artistLines: [String] = [
            #"SELECT "Artist"."ArtistId", "Artist"."Name""#,
            #"FROM "Artist""#,
            #"WHERE "Artist"."ArtistId" <= ?"#,
        ]
        let albumLines: [String] = [
            #"SELECT "Album"."AlbumId", "Album"."Title", "Album"."ArtistId", "Album"."ArtistId" AS "slate_key_1""#,
            #"FROM "Album""#,
            #"WHERE "Album"."ArtistId" IN (?, ?, ?, ?)"#,
        ]
        let expected: [String] = [artistLines.joined(separator: " "), albumLines.joined(separator: " ")]
        #expect(texts == expected)
    }

    // MARK: Differential: eager load == N+1 loop

    @Test func matchesTheLoopWithEmptyChildren() throws {
        let eager = try Artist.all().order(by: \.artistId).including(all: \.albums) { $0.order(by: \.title) }
            .fetchAll(db)
        let loop = try Artist.all().order(by: \.artistId).fetchAll(db).map { artist in
            (artist, try Album.where { $0.artistId == artist.artistId! }.order(by: \.title).fetchAll(db))
        }
        #expect(eager.map(\.0) == loop.map(\.0))
        #expect(eager.map(\.1) == loop.map(\.1))
        #expect(eager.contains { $0.1.isEmpty })  // artists without albums get []
        #expect(eager.contains { $0.1.count > 5 })
    }

    @Test func keepsTheParentsWhereOrderAndLimit() throws {
        let eager = try Artist.where { $0.name.hasPrefix("A") }.order { $0.name.descending() }.limit(7)
            .including(all: \.albums).fetchAll(db)
        let parents = try Artist.where { $0.name.hasPrefix("A") }.order { $0.name.descending() }.limit(7).fetchAll(db)
        #expect(eager.map(\.0) == parents)
        for (artist, albums) in eager {
            #expect(Set(albums) == Set(try Album.belonging(to: artist).fetchAll(db)))
        }
    }

    @Test func ordersAndLimitsPerParent() throws {
        let eager = try Artist.all().order(by: \.artistId).including(all: \.albums) { albums in
            albums.order { $0.title.descending() }.limit(2, offset: 1).including(all: \.tracks) { tracks in
                tracks.where { $0.milliseconds > 200_000 }.order { ($0.milliseconds.descending(), $0.trackId) }.limit(3)
            }
        }.fetchAll(db)
        let loop = try Artist.all().order(by: \.artistId).fetchAll(db).map { artist in
            let albums = try Album.where { $0.artistId == artist.artistId! }.order { $0.title.descending() }
                .limit(2, offset: 1).fetchAll(db)
            return (
                artist,
                try albums.map { album in
                    (
                        album,
                        try Track.where { $0.albumId == album.albumId && $0.milliseconds > 200_000 }
                            .order { ($0.milliseconds.descending(), $0.trackId) }.limit(3).fetchAll(db)
                    )
                }
            )
        }
        #expect(eager.map(\.0) == loop.map(\.0))
        #expect(eager.map { $0.1.map(\.0) } == loop.map { $0.1.map(\.0) })
        #expect(eager.map { $0.1.map(\.1) } == loop.map { $0.1.map(\.1) })
        #expect(eager.contains { $0.1.count == 2 })
        #expect(eager.allSatisfy { $0.1.allSatisfy { $0.1.count <= 3 } })
    }

    @Test func loadsTheSelfReference() throws {
        let eager = try Employee.all().order(by: \.employeeId)
            .including(optional: \.manager)
            .including(all: \.reports) { $0.order(by: \.employeeId) }
            .fetchAll(db)
        let loop = try Employee.all().order(by: \.employeeId).fetchAll(db).map { employee in
            (
                employee,
                try employee.reportsTo.flatMap { try Employee.find($0).fetchOne(db) },
                try Employee.where { $0.reportsTo == employee.employeeId }.order(by: \.employeeId).fetchAll(db)
            )
        }
        #expect(eager.map(\.0) == loop.map(\.0))
        #expect(eager.map(\.1) == loop.map(\.1))
        #expect(eager.map(\.2) == loop.map(\.2))
        #expect(eager.contains { $0.1 == nil })  // the general manager
        #expect(eager.contains { $0.2.isEmpty } && eager.contains { $0.2.count >= 2 })
    }

    @Test func loadsManyToManyThroughTheLinkingTable() throws {
        let eager = try Playlist.all().order(by: \.playlistId)
            .including(all: \.tracks) { $0.order { ($0.name, $0.trackId) }.limit(5) }
            .fetchAll(db)
        let loop = try Playlist.all().order(by: \.playlistId).fetchAll(db).map { playlist in
            let ids = PlaylistTrack.where { $0.playlistId == playlist.playlistId! }.select { $0.trackId }
            return (
                playlist, try Track.where { $0.trackId.in(ids) }.order { ($0.name, $0.trackId) }.limit(5).fetchAll(db)
            )
        }
        #expect(eager.map(\.0) == loop.map(\.0))
        #expect(eager.map(\.1) == loop.map(\.1))
        #expect(eager.contains { $0.1.isEmpty })
        #expect(eager.contains { $0.1.count == 5 })
    }

    @Test func requiredToOneKeepsOnlyParentsWithAMatch() throws {
        let eager = try Album.all().order(by: \.albumId).limit(10)
            .including(required: \.artist) { $0.where { $0.name.hasPrefix("A") } }
            .fetchAll(db)
        let loop = try Album.all().order(by: \.albumId).fetchAll(db).compactMap { album -> (Album, Artist)? in
            guard let artist = try Artist.referenced(by: album).fetchOne(db), artist.name?.hasPrefix("A") == true
            else { return nil }
            return (album, artist)
        }.prefix(10)
        #expect(eager.map(\.0) == loop.map(\.0))
        #expect(eager.map(\.1) == loop.map(\.1))
        #expect(eager.count == 10)
    }

    @Test func optionalToOneGivesNilForAMissingRecord() throws {
        let db = try Database.chinookCopy()
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try db.execute(sql: "UPDATE Album SET ArtistId = 100000 WHERE AlbumId = 1")
        let optional = try Album.where { $0.albumId <= 3 }.order(by: \.albumId).including(optional: \.artist).fetchAll(
            db)
        #expect(optional.map { $0.1?.artistId } == [nil, 2, 2])
        let required = try Album.where { $0.albumId <= 3 }.order(by: \.albumId).including(required: \.artist).fetchAll(
            db)
        #expect(required.map(\.0.albumId) == [2, 3])
    }

    @Test func annotatesWithACountInTheParentStatement() throws {
        let texts = try db.transaction {
            try statements {
                let counted = try Artist.all().order(by: \.artistId).annotated { $0.albums.count() }.fetchAll(db)
                let loop = try Artist.all().order(by: \.artistId).fetchAll(db).map {
                    try Album.belonging(to: $0).fetchCount(db)
                }
                #expect(counted.map(\.1) == loop)
            }
        }
        #expect(texts.count == 1 + 1 + 275)  // the annotated load, then the loop's parents and counts
    }

    @Test func decodesIntoAStructByPosition() throws {
        struct ArtistInfo: Equatable {
            var artist: Artist
            var albumCount: Int
            var albums: [Album]
        }
        let infos = try Artist.where { $0.artistId <= 5 }.order(by: \.artistId)
            .annotated { $0.albums.count() }
            .including(all: \.albums) { $0.order(by: \.albumId) }
            .fetchAll(db, as: ArtistInfo.init)
        #expect(infos.map(\.artist.artistId) == [1, 2, 3, 4, 5])
        #expect(infos.allSatisfy { $0.albumCount == $0.albums.count })
        #expect(
            infos[0].albums.map(\.title)
                == (try Album.where { $0.artistId == 1 }.order(by: \.albumId).fetchAll(db)).map(\.title))
    }

    @Test func fetchOneLoadsTheFirstParent() throws {
        let one = try Artist.order(by: \.artistId).including(all: \.albums).fetchOne(db)
        #expect(one?.0.artistId == 1)
        #expect(one?.1.count == 2)
    }

    @Test func splitsKeysBeyondTheBoundValueLimit() throws {
        let db = try Database.chinookCopy()
        #expect(sqlite3Limit(db, to: 200) >= 200)
        var texts: [String] = []
        let observation = db.trace(.statement) {
            if case .statement(let statement) = $0 { texts.append(statement.sql) }
        }
        let eager = try db.transaction {
            try Track.all().order(by: \.trackId).including(optional: \.album).fetchAll(db)
        }
        observation.cancel()
        // 347 distinct albums, at most 128 keys (a power of two) per statement.
        #expect(texts.filter { $0.hasPrefix("SELECT") }.count == 1 + 3)
        let loop = try Track.all().order(by: \.trackId).fetchAll(db).map { track in
            try track.albumId.flatMap { try Album.find($0).fetchOne(db) }
        }
        #expect(eager.map(\.1) == loop)
    }
}

/// Lowers the connection's limit on bound values, returning the previous one.
private func sqlite3Limit(_ db: Database, to limit: Int32) -> Int {
    Int(sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, limit))
}
