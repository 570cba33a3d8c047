// Context for the "Named queries" article (see docs/snippets/README.md): the part of a generated
// database type its snippets call, shaped as `slate generate` writes it for the article's query.
import Foundation
import Slate

enum ChinookDatabase {
    struct TracksOfAlbumRow: RowDecodable, Hashable, Sendable {
        var trackId: Int64
        var name: String
        var composer: String?
        var milliseconds: Int64

        init(row: borrowing Row) throws {
            trackId = try row.decode(Int64.self, at: 0)
            name = try row.decode(String.self, at: 1)
            composer = try row.decode(String?.self, at: 2)
            milliseconds = try row.decode(Int64.self, at: 3)
        }
    }

    static func tracksOfAlbum(albumId: Int64) -> SQLQuery<TracksOfAlbumRow> {
        SQLQuery(
            SQL(
                sql:
                    "SELECT TrackId, Name, Composer, Milliseconds FROM Track WHERE AlbumId = :albumId ORDER BY TrackId",
                arguments: ["albumId": albumId]))
    }

    static func getAlbums(artistId: Int64, albumId: Int64, limit: Int64) -> SQLQuery<String> {
        SQLQuery(
            SQL(
                sql:
                    "SELECT Title FROM Album WHERE ArtistId = :ArtistId AND AlbumId > :AlbumId ORDER BY AlbumId LIMIT :limit",
                arguments: ["ArtistId": artistId, "AlbumId": albumId, "limit": limit]),
            column: String.self)
    }
}

func snippetFixtures(db: Database) {}
