// Context for the "Schema drift" article (see docs/snippets/README.md): the tables it checks, a
// generated database type's drift check, and the app's error type.
import Foundation
import SlateMacros

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
    @Column("AlbumId") var albumId: Int64?
    @Column("GenreId") var genreId: Int64?
    @Column("Composer") var composer: String?
    @Column("Milliseconds") var milliseconds: Int64
}

enum ChinookDatabase {
    static let tables: [any Table.Type] = [Artist.self, Album.self, Track.self]
    static func verifySchema(_ db: Database) throws -> [SchemaDifference] { try db.verifySchema(of: tables) }
}

struct IncompatibleDatabase: Error {
    var differences: [String]
    init(_ differences: [String]) { self.differences = differences }
}

func snippetFixtures(db: Database, path: String) {}
