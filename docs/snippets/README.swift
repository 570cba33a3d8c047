// Context for the README's snippets (see docs/snippets/README.md).
import Foundation
import Slate
import SlateMacros

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

// The tables of the *Typed tables and queries* section's association example: Chinook's, with
// their associations (`@ForeignKey` gives `Album.artist` and `Track.album`).
@Table struct Artist {
    @Column("ArtistId") var artistId: Int64?
    @Column("Name") var name: String?
}

@Table struct Album {
    @Column("AlbumId") var albumId: Int64?
    @Column("Title") var title: String
    @Column("ArtistId") @ForeignKey(Artist.self) var artistId: Int64
}

@Table struct Track {
    @Column("TrackId") var trackId: Int64?
    @Column("Name") var name: String
    @Column("AlbumId") @ForeignKey(Album.self) var albumId: Int64?
}

extension Artist.Columns {
    var albums: HasMany<Artist, Album> { .hasMany(artistId.qualifier) }
}

extension Album.Columns {
    var tracks: HasMany<Album, Track> { .hasMany(albumId.qualifier) }
}
