import Foundation
import Slate
import SlateTestingCore

// Hand-written `Table` conformances for the Chinook sample database.
//
// They follow the documented pattern exactly, and are the reference for what `slate generate` and
// the `@Table` macro emit: a `TableSchema`, a `Columns` struct of typed `Column`s, `init(row:)`
// decoding by position, `encode(to:)` handing out the values by position, `didInsert` for an
// INTEGER PRIMARY KEY, and the primary key.

package struct Artist: PrimaryKeyedTable, Hashable, Sendable {
    package var artistId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "Artist",
        columns: [
            .init(name: "ArtistId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let artistId: Column<Artist, Int64?>
        package let name: Column<Artist, String?>
        package init(qualifier: String) {
            artistId = Column(qualifier, "ArtistId")
            name = Column(qualifier, "Name")
        }
    }

    package init(artistId: Int64? = nil, name: String?) {
        self.artistId = artistId
        self.name = name
    }

    package init(row: borrowing Row) throws {
        artistId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(artistId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { artistId = rowID }

    package var primaryKey: Int64? { artistId }
}

package struct Album: PrimaryKeyedTable, Hashable, Sendable {
    package var albumId: Int64?
    package var title: String
    package var artistId: Int64

    package static let schema = TableSchema(
        name: "Album",
        columns: [
            .init(name: "AlbumId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Title", type: "NVARCHAR(160)", isNotNull: true),
            .init(name: "ArtistId", type: "INTEGER", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["ArtistId"], referencedTable: "Artist", referencedColumns: ["ArtistId"])
        ],
        indexes: [
            .init(name: "IFK_AlbumArtistId", columns: ["ArtistId"])
        ])

    package struct Columns: TableColumns {
        package let albumId: Column<Album, Int64?>
        package let title: Column<Album, String>
        package let artistId: Column<Album, Int64>
        package init(qualifier: String) {
            albumId = Column(qualifier, "AlbumId")
            title = Column(qualifier, "Title")
            artistId = Column(qualifier, "ArtistId")
        }
    }

    package init(albumId: Int64? = nil, title: String, artistId: Int64) {
        self.albumId = albumId
        self.title = title
        self.artistId = artistId
    }

    package init(row: borrowing Row) throws {
        albumId = try row.decode(at: 0)
        title = try row.decode(at: 1)
        artistId = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(albumId)
        try encoder.encode(title)
        try encoder.encode(artistId)
    }

    package mutating func didInsert(rowID: Int64) { albumId = rowID }

    package var primaryKey: Int64? { albumId }
}

package struct Genre: PrimaryKeyedTable, Hashable, Sendable {
    package var genreId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "Genre",
        columns: [
            .init(name: "GenreId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let genreId: Column<Genre, Int64?>
        package let name: Column<Genre, String?>
        package init(qualifier: String) {
            genreId = Column(qualifier, "GenreId")
            name = Column(qualifier, "Name")
        }
    }

    package init(genreId: Int64? = nil, name: String?) {
        self.genreId = genreId
        self.name = name
    }

    package init(row: borrowing Row) throws {
        genreId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(genreId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { genreId = rowID }

    package var primaryKey: Int64? { genreId }
}

package struct MediaType: PrimaryKeyedTable, Hashable, Sendable {
    package var mediaTypeId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "MediaType",
        columns: [
            .init(name: "MediaTypeId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let mediaTypeId: Column<MediaType, Int64?>
        package let name: Column<MediaType, String?>
        package init(qualifier: String) {
            mediaTypeId = Column(qualifier, "MediaTypeId")
            name = Column(qualifier, "Name")
        }
    }

    package init(row: borrowing Row) throws {
        mediaTypeId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(mediaTypeId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { mediaTypeId = rowID }

    package var primaryKey: Int64? { mediaTypeId }
}

package struct Track: PrimaryKeyedTable, Hashable, Sendable {
    package var trackId: Int64?
    package var name: String
    package var albumId: Int64?
    package var mediaTypeId: Int64
    package var genreId: Int64?
    package var composer: String?
    package var milliseconds: Int64
    package var bytes: Int64?
    package var unitPrice: Double

    package static let schema = TableSchema(
        name: "Track",
        columns: [
            .init(name: "TrackId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(200)", isNotNull: true),
            .init(name: "AlbumId", type: "INTEGER"),
            .init(name: "MediaTypeId", type: "INTEGER", isNotNull: true),
            .init(name: "GenreId", type: "INTEGER"),
            .init(name: "Composer", type: "NVARCHAR(220)"),
            .init(name: "Milliseconds", type: "INTEGER", isNotNull: true),
            .init(name: "Bytes", type: "INTEGER"),
            .init(name: "UnitPrice", type: "NUMERIC(10,2)", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["AlbumId"], referencedTable: "Album", referencedColumns: ["AlbumId"]),
            .init(columns: ["MediaTypeId"], referencedTable: "MediaType", referencedColumns: ["MediaTypeId"]),
            .init(columns: ["GenreId"], referencedTable: "Genre", referencedColumns: ["GenreId"]),
        ])

    package struct Columns: TableColumns {
        package let trackId: Column<Track, Int64?>
        package let name: Column<Track, String>
        package let albumId: Column<Track, Int64?>
        package let mediaTypeId: Column<Track, Int64>
        package let genreId: Column<Track, Int64?>
        package let composer: Column<Track, String?>
        package let milliseconds: Column<Track, Int64>
        package let bytes: Column<Track, Int64?>
        package let unitPrice: Column<Track, Double>
        package init(qualifier: String) {
            trackId = Column(qualifier, "TrackId")
            name = Column(qualifier, "Name")
            albumId = Column(qualifier, "AlbumId")
            mediaTypeId = Column(qualifier, "MediaTypeId")
            genreId = Column(qualifier, "GenreId")
            composer = Column(qualifier, "Composer")
            milliseconds = Column(qualifier, "Milliseconds")
            bytes = Column(qualifier, "Bytes")
            unitPrice = Column(qualifier, "UnitPrice")
        }
    }

    package init(row: borrowing Row) throws {
        trackId = try row.decode(at: 0)
        name = try row.decode(at: 1)
        albumId = try row.decode(at: 2)
        mediaTypeId = try row.decode(at: 3)
        genreId = try row.decode(at: 4)
        composer = try row.decode(at: 5)
        milliseconds = try row.decode(at: 6)
        bytes = try row.decode(at: 7)
        unitPrice = try row.decode(at: 8)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(trackId)
        try encoder.encode(name)
        try encoder.encode(albumId)
        try encoder.encode(mediaTypeId)
        try encoder.encode(genreId)
        try encoder.encode(composer)
        try encoder.encode(milliseconds)
        try encoder.encode(bytes)
        try encoder.encode(unitPrice)
    }

    package mutating func didInsert(rowID: Int64) { trackId = rowID }

    package var primaryKey: Int64? { trackId }
}

package struct Playlist: PrimaryKeyedTable, Hashable, Sendable {
    package var playlistId: Int64?
    package var name: String?

    package static let schema = TableSchema(
        name: "Playlist",
        columns: [
            .init(name: "PlaylistId", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "Name", type: "NVARCHAR(120)"),
        ])

    package struct Columns: TableColumns {
        package let playlistId: Column<Playlist, Int64?>
        package let name: Column<Playlist, String?>
        package init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            name = Column(qualifier, "Name")
        }
    }

    package init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(name)
    }

    package mutating func didInsert(rowID: Int64) { playlistId = rowID }

    package var primaryKey: Int64? { playlistId }
}

/// A composite primary key: the key is a tuple, and `primaryKeyArguments` lists its elements.
package struct PlaylistTrack: PrimaryKeyedTable, Hashable, Sendable {
    package var playlistId: Int64
    package var trackId: Int64

    package static let schema = TableSchema(
        name: "PlaylistTrack",
        columns: [
            .init(name: "PlaylistId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "TrackId", type: "INTEGER", isNotNull: true, primaryKeyPosition: 2),
        ],
        foreignKeys: [
            .init(columns: ["PlaylistId"], referencedTable: "Playlist", referencedColumns: ["PlaylistId"]),
            .init(columns: ["TrackId"], referencedTable: "Track", referencedColumns: ["TrackId"]),
        ])

    package struct Columns: TableColumns {
        package let playlistId: Column<PlaylistTrack, Int64>
        package let trackId: Column<PlaylistTrack, Int64>
        package init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            trackId = Column(qualifier, "TrackId")
        }
    }

    package init(playlistId: Int64, trackId: Int64) {
        self.playlistId = playlistId
        self.trackId = trackId
    }

    package init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        trackId = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(trackId)
    }

    package var primaryKey: (Int64, Int64) { (playlistId, trackId) }

    package static func encode<Encoder: ColumnEncoder>(primaryKey key: (Int64, Int64), to encoder: inout Encoder)
        throws(Encoder
        .Failure)
    {
        try encoder.encode(key.0)
        try encoder.encode(key.1)
    }
}

extension Database {
    /// The bundled Chinook database, read-only.
    package static func chinook() throws -> Database {
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        return try Database(path: Fixtures.path("chinook.sqlite"), configuration: configuration)
    }
}

extension Database {
    /// A writable in-memory copy of the bundled Chinook database.
    package static func chinookCopy() throws -> Database {
        try Database.inMemoryCopy(ofFile: Fixtures.path("chinook.sqlite"))
    }
}
