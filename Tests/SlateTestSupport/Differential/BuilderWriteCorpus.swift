import Foundation
import Slate

/// An FTS5 index of Chinook's track names (external content).
package struct TrackSearch: Table {
    package var name: String?

    package static let schema = TableSchema(
        name: "TrackSearch",
        kind: .virtual(module: "fts5", arguments: "Name, content='Track', content_rowid='TrackId'"),
        columns: [.init(name: "Name")])

    package struct Columns: FullTextColumns {
        package let rowid: Column<TrackSearch, Int64>
        package let name: Column<TrackSearch, String?>
        package init(qualifier: String) {
            rowid = Column(qualifier, "rowid")
            name = Column(qualifier, "Name")
        }
    }

    package init(row: borrowing Row) throws {
        name = try row.decode(at: 0)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(name)
    }
}

/// The shapes of issue 18's writes, FTS5 and JSON, generated from a seed over Chinook, each with
/// the same statement written by hand: table contents after writes, rows (in order where ordered)
/// and raw values after reads.
package enum BuilderWriteCorpus {
    package static let seed: UInt64 = 0x5EED_018B
    package static let caseCount = 120
    package static let shapeCount = 6
    package static let words = [
        "love", "rock", "night", "blue", "man", "time", "world", "heart", "girl", "fire", "dance", "sun",
    ]

    package static func sql(_ db: Database, _ text: String, _ arguments: [any SQLBindable] = []) throws -> [RawRow] {
        try BuilderCorpus.sql(db, text, arguments)
    }

    /// A Chinook copy with the track-name index built.
    package static func indexedChinook() throws -> Database {
        let db = try Database.chinookCopy()
        try db.createTable(for: TrackSearch.self)
        try db.execute("INSERT INTO TrackSearch(TrackSearch) VALUES ('rebuild')")
        return db
    }

    // swiftlint:disable:next function_body_length
    package static func makeCase(
        shape: Int, indexed: Database, engine: some QueryEngine, random: inout SeededGenerator
    ) async throws -> DifferentialCase {
        switch shape {
        case 0:
            // INSERT … SELECT, with a computed key and OR IGNORE.
            let maximum = random.int64(1...25)
            let offset = random.element([0, 1000] as [Int64])
            let insert = Playlist.insert(or: .ignore) {
                ($0.playlistId, $0.name)
            } select: {
                Genre.where { $0.genreId <= maximum }.select { ($0.genreId + offset, $0.name) }
            }
            let built = try await engine.onChinookCopy { copy in
                try await copy.execute(insert)
                return try await copy.contents(Playlist.self)
            }
            let written = try Database.chinookCopy()
            try written.execute(
                SQL(
                    sql:
                        "INSERT OR IGNORE INTO Playlist (PlaylistId, Name) SELECT GenreId + ?, Name FROM Genre WHERE GenreId <= ?",
                    arguments: [offset, maximum]))
            return DifferentialCase(
                label: "insert genres <= \(maximum) + \(offset) into playlists",
                builder: built,
                handWritten: try BuilderCorpus.contents(written, "Playlist"), isOrdered: true)
        case 1:
            // ON CONFLICT … DO UPDATE … WHERE.
            let key = random.int64(1...300)
            let name = random.element(["Alpha", "Blues", "Metal", "Zydeco", "Rock", "Led"])
            let upsert = Artist.insert(Artist(artistId: key, name: name)).onConflict(\.artistId) { existing, excluded in
                existing.name.set(to: excluded.name)
            } where: { existing, excluded in
                existing.name < excluded.name
            }
            let built = try await engine.onChinookCopy { copy in
                try await copy.execute(upsert)
                return try await copy.contents(Artist.self)
            }
            let written = try Database.chinookCopy()
            try written.execute(
                SQL(
                    sql:
                        "INSERT INTO Artist (ArtistId, Name) VALUES (?, ?) ON CONFLICT (ArtistId) DO UPDATE SET Name = excluded.Name WHERE Artist.Name < excluded.Name",
                    arguments: [key, name]))
            return DifferentialCase(
                label: "upsert artist \(key) \(name) where greater",
                builder: built,
                handWritten: try BuilderCorpus.contents(written, "Artist"), isOrdered: true)
        case 2:
            // FTS5 MATCH ordered by rank, joined back to the content table.
            let word = random.element(Self.words)
            let query: FullTextQuery = random.bool() ? .phrase(word) : .prefix(String(word.prefix(3)))
            let limit = random.int(5...40)
            let rows = try await engine.all(
                Track.join(TrackSearch.self, on: { $0.trackId == $1.rowid })
                    .where { _, search in search.match(query) }
                    .order { track, search in (search.rank, track.trackId) }.limit(limit)
                    .select { track, _ in (track.trackId, track.name) })
            return DifferentialCase(
                label: "tracks matching \(query) limit \(limit)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    indexed,
                    "SELECT t.TrackId, t.Name FROM Track t JOIN TrackSearch s ON t.TrackId = s.rowid WHERE TrackSearch MATCH ? ORDER BY s.rank, t.TrackId LIMIT ?",
                    [query.text, limit]),
                isOrdered: true)
        case 3:
            // FTS5 highlight and bm25 over the index alone.
            let word = random.element(Self.words)
            let rows = try await engine.all(
                TrackSearch.where { $0.match(.phrase(word)) }.order { ($0.bm25(), $0.rowid) }.limit(20)
                    .select { ($0.rowid, $0.name.highlight(open: "[", close: "]")) })
            return DifferentialCase(
                label: "highlight \(word)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    indexed,
                    "SELECT rowid, highlight(TrackSearch, 0, '[', ']') FROM TrackSearch WHERE TrackSearch MATCH ? ORDER BY bm25(TrackSearch), rowid LIMIT 20",
                    ["\"\(word)\""]),
                isOrdered: true)
        case 4:
            // json_group_array and json_object per group, compared as the JSON SQLite builds.
            let maximum = random.int64(1...40)
            let rows = try await engine.all(
                Album.where { $0.artistId <= maximum }.group(by: \.artistId).order(by: \.artistId)
                    .select {
                        (
                            $0.artistId,
                            jsonObject(as: ArtistSummary.self, ["id": $0.albumId, "name": $0.title]).jsonGroupArray()
                        )
                    }
            )
            let expected = try indexed.fetchAll(
                SQL(
                    sql:
                        "SELECT ArtistId, json_group_array(json_object('id', AlbumId, 'name', Title)) FROM Album WHERE ArtistId <= ? GROUP BY ArtistId ORDER BY ArtistId",
                    arguments: [maximum])
            ) { row in
                (try row.decode(Int64.self, at: 0), try row.decode(JSONEncoded<[ArtistSummary]>.self, at: 1).value)
            }
            return DifferentialCase(
                label: "albums of artists <= \(maximum) as JSON",
                builder: try rows.map {
                    try raw($0.0, $0.1.value.map(\.id).description, $0.1.value.map { $0.name ?? "" }.description)
                },
                handWritten: try expected.map {
                    try raw($0.0, $0.1.map(\.id).description, $0.1.map { $0.name ?? "" }.description)
                },
                isOrdered: true)
        default:
            // json_each over a bound array, in IN and as a source, and ->> on its values.
            let ids = (0..<random.int(1...12)).map { _ in random.int64(1...3503) }
            let rows = try await engine.all(
                Track.where { $0.trackId.in(JSONEach<Int64>.of(array: ids).select { $0.value }) }
                    .order(by: \.trackId).select { ($0.trackId, $0.name) })
            let text = "[" + ids.map(String.init).joined(separator: ",") + "]"
            return DifferentialCase(
                label: "tracks in \(ids)", builder: try rows.map { try raw($0.0, $0.1) },
                handWritten: try sql(
                    indexed,
                    "SELECT TrackId, Name FROM Track WHERE TrackId IN (SELECT value FROM json_each(?)) ORDER BY TrackId",
                    [text]),
                isOrdered: true)
        }
    }
}
