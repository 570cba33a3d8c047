// Context for the "Typed queries" article (see docs/snippets/README.md): the tables its snippets
// query, shaped like the test suite's Person and Chinook tables.
import Foundation
import SlateMacros

@Table("person") struct Person {
    var id: Int64?
    var name: String
    var age: Int64 = 0
    @Unique var email: String?
    var score: Double = 0
    var settings: String?
}

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
    @Column("Bytes") var bytes: Int64?
}

@Table struct Employee {
    @Column("EmployeeId") var employeeId: Int64?
    @Column("LastName") var lastName: String
    @Column("ReportsTo") var reportsTo: Int64?
}

@Table struct Customer {
    @Column("CustomerId") var customerId: Int64?
    @Column("LastName") var lastName: String
    @Column("Company") var company: String?
    @Column("State") var state: String?
    @Column("Country") var country: String?
    @Column("Email") var email: String
}

@Table struct Invoice {
    @Column("InvoiceId") var invoiceId: Int64?
    @Column("CustomerId") var customerId: Int64
    @Column("InvoiceDate") var invoiceDate: Date
    @Column("Total") var total: Double
}

@Table("spending") struct Spending {
    var customerId: Int64
    var spent: Double?
}

@Table struct Score {
    @PrimaryKey var player: String
    var points: Int64
}

@Table struct Playlist {
    @Column("PlaylistId") var playlistId: Int64?
    @Column("Name") var name: String?
}

@Table struct Genre {
    @Column("GenreId") var genreId: Int64?
    @Column("Name") var name: String?
}

@Table("post") struct Post {
    var id: Int64?
    var title: String
    var body: String
}

@Table("post_search", fullTextSearch: "content='post', content_rowid='id'") struct PostSearch {
    var title: String?
    var body: String?
}

struct GadgetSpecs: Codable, Sendable {
    var brand: String
    var colors: [String]
}

@Table("gadget") struct Gadget {
    var id: Int64?
    @Column(storage: .json) var specs: GadgetSpecs
    var tags: String?
}

func snippetFixtures(
    db: Database, person: Person, people: [Person], artist: Artist, album: Album, boss: Employee, theme: String,
    score: Score, userText: String, ids: [Int64]
) {}
