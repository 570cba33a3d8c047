// Context for the README's snippets (see docs/snippets/README.md).
import Foundation
import Slate

func snippetFixtures(db: Database, url: URL, passphrase: String, path: String) {}

/// The part of a generated database type the *Named queries* section calls, shaped as
/// `slate generate` writes it for that section's query.
enum ChinookDatabase {
    struct TracksOfAlbumRow: RowDecodable, Hashable, Sendable {
        var trackId: Int64
        var name: String
        var composer: String?

        init(row: borrowing Row) throws {
            trackId = try row.decode(Int64.self, at: 0)
            name = try row.decode(String.self, at: 1)
            composer = try row.decode(String?.self, at: 2)
        }
    }

    static func tracksOfAlbum(albumId: Int64) -> SQLQuery<TracksOfAlbumRow> {
        SQLQuery(
            SQL(
                sql: "SELECT TrackId, Name, Composer FROM Track WHERE AlbumId = :albumId ORDER BY TrackId",
                arguments: ["albumId": albumId]))
    }
}

// Chinook's artists, albums and tracks, as the associations example of "Typed tables and queries"
// reads them. Not in the programs compiled against the SQLCipher build, which has no macros.
#if canImport(SlateMacros)
    import SlateMacros

    @Table(associations: [.hasMany("albums", Album.self)])
    struct Artist {
        @PrimaryKey var artistId: Int64?
        var name: String
    }

    @Table(associations: [.hasMany("tracks", Track.self)])
    struct Album {
        @PrimaryKey var albumId: Int64?
        var title: String
        @ForeignKey(Artist.self) var artistId: Int64
    }

    @Table struct Track {
        @PrimaryKey var trackId: Int64?
        var name: String
        @ForeignKey(Album.self) var albumId: Int64?
    }
#endif
