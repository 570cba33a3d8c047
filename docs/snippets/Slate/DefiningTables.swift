// Context for the "Defining tables" article (see docs/snippets/README.md).
import Foundation
import Slate
import SlateMacros

// What the article leaves out of `PlaylistTrack` ("Columns, init(row:) and encode(to:) as above").
extension PlaylistTrack {
    struct Columns: TableColumns {
        let playlistId: Column<PlaylistTrack, Int64>
        let trackId: Column<PlaylistTrack, Int64>
        init(qualifier: String) {
            playlistId = Column(qualifier, "PlaylistId")
            trackId = Column(qualifier, "TrackId")
        }
    }

    init(row: borrowing Row) throws {
        playlistId = try row.decode(at: 0)
        trackId = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(playlistId)
        try encoder.encode(trackId)
    }
}

/// The book of the article's `CREATE TABLE` printout.
@Table("book") struct Book {
    var id: Int64?
    var title: String
    var building: String?
    var shelfNumber: Int64?
}

func snippetFixtures(db: Database) {}
