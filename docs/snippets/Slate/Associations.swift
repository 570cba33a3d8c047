// Context for the Associations article (see docs/snippets/README.md): Chinook's tables, without
// the associations the article declares by hand (`Artist.albums`, `Employee.manager` and
// `Employee.reports`, `Playlist.tracks`).
import Foundation
import Slate
import SlateMacros

func snippetFixtures(db: Database) {}

@Table struct Artist {
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
    var milliseconds: Int64
    @ForeignKey(Album.self) var albumId: Int64?
}

@Table struct Employee {
    @PrimaryKey var employeeId: Int64?
    var lastName: String
    var reportsTo: Int64?
}

@Table struct Playlist {
    @PrimaryKey var playlistId: Int64?
    var name: String
}

@Table struct PlaylistTrack {
    @PrimaryKey @ForeignKey(Playlist.self) var playlistId: Int64
    @PrimaryKey @ForeignKey(Track.self) var trackId: Int64
}
