// Context for the "Associations" article (see docs/snippets/README.md): Chinook's tables as the
// article's snippets use them. The article declares `Artist.albums`, `Employee.manager` and
// `.reports`, and `Playlist.tracks` itself (by hand); `@ForeignKey` gives `Album.artist`,
// `Track.album`, `PlaylistTrack.playlist` and `.track`.
import Foundation
import SlateMacros

func snippetFixtures(db: Database) {}

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
    @Column("Milliseconds") var milliseconds: Int64
}

@Table struct Employee {
    @Column("EmployeeId") var employeeId: Int64?
    @Column("LastName") var lastName: String
    @Column("ReportsTo") var reportsTo: Int64?
}

@Table struct Playlist {
    @Column("PlaylistId") var playlistId: Int64?
    @Column("Name") var name: String?
}

@Table struct PlaylistTrack {
    @Column("PlaylistId") @ForeignKey(Playlist.self) var playlistId: Int64
    @Column("TrackId") @ForeignKey(Track.self) var trackId: Int64
}

extension Album.Columns {
    var tracks: HasMany<Album, Track> { .hasMany(albumId.qualifier) }
}
