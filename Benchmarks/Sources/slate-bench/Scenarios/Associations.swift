import CSQLite
import Foundation
import GRDB
import Slate

/// Artists with their albums and the albums' tracks: Slate's eager load (one statement per level)
/// against GRDB's `including(all:)`, a hand-written N+1 loop over Slate's builder, and the floor, a
/// hand-written prefetch over the raw C API (one statement per level, grouped by key in Swift).
///
/// The fixture makes 500 artists (50 with `--quick`), every seventh without albums, the others with
/// three albums of eight tracks: Chinook's shape, larger.
enum AssociationsBenchmark {
    static let scenario = Scenario(
        name: "associations-artists-albums-tracks",
        summary: "500 artists with their albums and the albums' tracks (1,287 albums, 10,296 tracks), ordered"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.artistCount,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-eager", fixture.slateEager),
                Contender("slate-n-plus-1", fixture.slateLoop),
                Contender("grdb-eager", fixture.grdbEager),
            ])
    }

    final class Fixture {
        let artistCount: Int
        private(set) var expected = Checksum()
        let rawConnection: RawConnection
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            // Locals until every member is set: the setup closure must not capture `self`.
            let artistCount = context.size(full: 500, quick: 50)
            self.artistCount = artistCount
            let path = context.path("music.sqlite")
            let rawConnection = try RawConnection(path: path)
            self.rawConnection = rawConnection
            try rawConnection.execute(
                """
                CREATE TABLE artist(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE album(id INTEGER PRIMARY KEY, title TEXT NOT NULL, artistId INTEGER NOT NULL REFERENCES artist(id));
                CREATE INDEX album_artistId ON album(artistId);
                CREATE TABLE track(id INTEGER PRIMARY KEY, name TEXT NOT NULL, albumId INTEGER NOT NULL REFERENCES album(id), milliseconds INTEGER NOT NULL);
                CREATE INDEX track_albumId ON track(albumId);
                """)
            try rawConnection.transaction {
                var album = 0
                var track = 0
                for artist in 1...artistCount {
                    try rawConnection.execute("INSERT INTO artist VALUES (\(artist), 'Artist \(artist)')")
                    guard artist % 7 != 0 else { continue }
                    for _ in 0..<3 {
                        album += 1
                        try rawConnection.execute("INSERT INTO album VALUES (\(album), 'Album \(album)', \(artist))")
                        for _ in 0..<8 {
                            track += 1
                            try rawConnection.execute(
                                "INSERT INTO track VALUES (\(track), 'Track \(track)', \(album), \(180_000 + track % 97 * 1000))"
                            )
                        }
                    }
                }
            }
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)
            let reference = try readRaw()
            guard reference.count == artistCount else {
                throw HarnessError("associations: expected \(artistCount) artists, read \(reference.count)")
            }
            expected = Self.checksum(reference)
        }

        /// The artists, in id order, with their albums and tracks in id order.
        static func checksum(_ artists: [(MusicArtist, [(MusicAlbum, [MusicTrack])])]) -> Checksum {
            var checksum = Checksum()
            for (artist, albums) in artists {
                checksum.nextRow()
                checksum.combine(artist.id)
                checksum.combine(artist.name)
                checksum.combine(albums.count)
                for (album, tracks) in albums {
                    checksum.combine(album.id)
                    checksum.combine(album.title)
                    checksum.combine(album.artistId)
                    checksum.combine(tracks.count)
                    for track in tracks {
                        checksum.combine(track.id)
                        checksum.combine(track.name)
                        checksum.combine(track.albumId)
                        checksum.combine(track.milliseconds)
                    }
                }
            }
            return checksum
        }

        /// The floor: one statement per level, each row grouped under its parent's key.
        private func readRaw() throws -> [(MusicArtist, [(MusicAlbum, [MusicTrack])])] {
            let artists = try RawStatement(rawConnection, "SELECT id, name FROM artist ORDER BY id").readAll { row in
                MusicArtist(id: Int(sqlite3_column_int64(row.handle, 0)), name: row.string(at: 1))
            }
            let albums = try RawStatement(
                rawConnection,
                "SELECT id, title, artistId FROM album WHERE artistId IN (SELECT id FROM artist) ORDER BY id"
            ).readAll { row in
                MusicAlbum(
                    id: Int(sqlite3_column_int64(row.handle, 0)), title: row.string(at: 1),
                    artistId: Int(sqlite3_column_int64(row.handle, 2)))
            }
            let tracks = try RawStatement(
                rawConnection,
                """
                SELECT id, name, albumId, milliseconds FROM track
                WHERE albumId IN (SELECT id FROM album WHERE artistId IN (SELECT id FROM artist)) ORDER BY id
                """
            ).readAll { row in
                MusicTrack(
                    id: Int(sqlite3_column_int64(row.handle, 0)), name: row.string(at: 1),
                    albumId: Int(sqlite3_column_int64(row.handle, 2)),
                    milliseconds: Int(sqlite3_column_int64(row.handle, 3)))
            }
            var tracksByAlbum: [Int: [MusicTrack]] = [:]
            for track in tracks { tracksByAlbum[track.albumId, default: []].append(track) }
            var albumsByArtist: [Int: [(MusicAlbum, [MusicTrack])]] = [:]
            for album in albums {
                albumsByArtist[album.artistId, default: []].append((album, tracksByAlbum[album.id] ?? []))
            }
            return artists.map { ($0, albumsByArtist[$0.id] ?? []) }
        }

        // MARK: Contenders

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            Self.checksum(try stopwatch.measure { try readRaw() })
        }

        /// `MusicArtist.order(by: \.id).including(all: \.albums) { … including(all: \.tracks) … }`.
        func slateEager(_ stopwatch: Stopwatch) throws -> Checksum {
            let artists = try stopwatch.measure {
                try MusicArtist.order(by: \.id).including(all: \.albums) {
                    $0.order(by: \.id).including(all: \.tracks) { $0.order(by: \.id) }
                }.fetchAll(slate)
            }
            return Self.checksum(artists)
        }

        /// The loop users write first: the albums of each artist, the tracks of each album.
        func slateLoop(_ stopwatch: Stopwatch) throws -> Checksum {
            let artists = try stopwatch.measure {
                try MusicArtist.order(by: \.id).fetchAll(slate).map { artist in
                    let albums = try MusicAlbum.where { $0.artistId == artist.id }.order(by: \.id).fetchAll(slate)
                    return (
                        artist,
                        try albums.map { album in
                            (album, try MusicTrack.where { $0.albumId == album.id }.order(by: \.id).fetchAll(slate))
                        }
                    )
                }
            }
            return Self.checksum(artists)
        }

        /// GRDB's `including(all:)`, decoded into `Decodable` records.
        func grdbEager(_ stopwatch: Stopwatch) throws -> Checksum {
            let infos = try stopwatch.measure {
                try grdb.read { db in
                    try MusicArtist.order(GRDB.Column("id"))
                        .including(
                            all: MusicArtist.grdbAlbums.order(GRDB.Column("id"))
                                .including(all: MusicAlbum.grdbTracks.order(GRDB.Column("id")))
                        )
                        .asRequest(of: GRDBArtistInfo.self)
                        .fetchAll(db)
                }
            }
            return Self.checksum(infos.map { ($0.artist, $0.albums.map { ($0.album, $0.tracks) }) })
        }
    }
}

// MARK: - Records

struct MusicArtist: Equatable, Decodable {
    var id: Int
    var name: String
}

struct MusicAlbum: Equatable, Decodable {
    var id: Int
    var title: String
    var artistId: Int
}

struct MusicTrack: Equatable, Decodable {
    var id: Int
    var name: String
    var albumId: Int
    var milliseconds: Int
}

extension MusicArtist: Slate.PrimaryKeyedTable {
    static let schema = Slate.TableSchema(
        name: "artist",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
        ])
    struct Columns: Slate.TableColumns {
        let id: Slate.Column<MusicArtist, Int>
        let name: Slate.Column<MusicArtist, String>
        init(qualifier: String) {
            id = Slate.Column(qualifier, "id")
            name = Slate.Column(qualifier, "name")
        }
        var albums: HasMany<MusicArtist, MusicAlbum> { .hasMany(id.qualifier) }
    }
    init(row: borrowing Slate.Row) throws {
        self.init(id: try row.decode(at: 0), name: try row.decode(at: 1))
    }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
    }
    var primaryKey: Int { id }
}

extension MusicAlbum: Slate.PrimaryKeyedTable {
    static let schema = Slate.TableSchema(
        name: "album",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "title", type: "TEXT", isNotNull: true),
            .init(name: "artistId", type: "INTEGER", isNotNull: true),
        ],
        foreignKeys: [.init(columns: ["artistId"], referencedTable: "artist", referencedColumns: ["id"])])
    struct Columns: Slate.TableColumns {
        let id: Slate.Column<MusicAlbum, Int>
        let title: Slate.Column<MusicAlbum, String>
        let artistId: Slate.Column<MusicAlbum, Int>
        init(qualifier: String) {
            id = Slate.Column(qualifier, "id")
            title = Slate.Column(qualifier, "title")
            artistId = Slate.Column(qualifier, "artistId")
        }
        var tracks: HasMany<MusicAlbum, MusicTrack> { .hasMany(id.qualifier) }
    }
    init(row: borrowing Slate.Row) throws {
        self.init(id: try row.decode(at: 0), title: try row.decode(at: 1), artistId: try row.decode(at: 2))
    }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(artistId)
    }
    var primaryKey: Int { id }
}

extension MusicTrack: Slate.PrimaryKeyedTable {
    static let schema = Slate.TableSchema(
        name: "track",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "albumId", type: "INTEGER", isNotNull: true),
            .init(name: "milliseconds", type: "INTEGER", isNotNull: true),
        ],
        foreignKeys: [.init(columns: ["albumId"], referencedTable: "album", referencedColumns: ["id"])])
    struct Columns: Slate.TableColumns {
        let id: Slate.Column<MusicTrack, Int>
        let name: Slate.Column<MusicTrack, String>
        let albumId: Slate.Column<MusicTrack, Int>
        let milliseconds: Slate.Column<MusicTrack, Int>
        init(qualifier: String) {
            id = Slate.Column(qualifier, "id")
            name = Slate.Column(qualifier, "name")
            albumId = Slate.Column(qualifier, "albumId")
            milliseconds = Slate.Column(qualifier, "milliseconds")
        }
    }
    init(row: borrowing Slate.Row) throws {
        self.init(
            id: try row.decode(at: 0), name: try row.decode(at: 1), albumId: try row.decode(at: 2),
            milliseconds: try row.decode(at: 3))
    }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(albumId)
        try encoder.encode(milliseconds)
    }
    var primaryKey: Int { id }
}

extension MusicArtist: GRDB.FetchableRecord, GRDB.TableRecord {
    static let databaseTableName = "artist"
    static let grdbAlbums = hasMany(MusicAlbum.self, key: "albums")
}

extension MusicAlbum: GRDB.FetchableRecord, GRDB.TableRecord {
    static let databaseTableName = "album"
    static let grdbTracks = hasMany(MusicTrack.self, key: "tracks")
}

extension MusicTrack: GRDB.FetchableRecord, GRDB.TableRecord {
    static let databaseTableName = "track"
}

/// An artist with its albums, as GRDB decodes `including(all:)`.
struct GRDBArtistInfo: Decodable, GRDB.FetchableRecord {
    var artist: MusicArtist
    var albums: [GRDBAlbumInfo]
}

/// An album with its tracks.
struct GRDBAlbumInfo: Decodable, GRDB.FetchableRecord {
    var album: MusicAlbum
    var tracks: [MusicTrack]
}
