import Foundation
import Slate
import SlateTestSupport
import Testing

/// An FTS5 index of Chinook's track names (external content).
struct TrackSearch: Table {
    var name: String?

    static let schema = TableSchema(
        name: "TrackSearch",
        kind: .virtual(module: "fts5", arguments: "Name, content='Track', content_rowid='TrackId'"),
        columns: [.init(name: "Name")])

    struct Columns: FullTextColumns {
        let rowid: Column<TrackSearch, Int64>
        let name: Column<TrackSearch, String?>
        init(qualifier: String) {
            rowid = Column(qualifier, "rowid")
            name = Column(qualifier, "Name")
        }
    }

    init(row: borrowing Row) throws {
        name = try row.decode(at: 0)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(name)
    }
}

/// The shapes of issue 18's writes, FTS5 and JSON, generated from a seed over Chinook and compared
/// with the same statements written by hand: table contents after writes, rows (in order where
/// ordered) and raw values after reads.
@Suite struct BuilderWriteDifferentialTests {
    static let seed: UInt64 = 0x5EED_018B
    static let caseCount = 120
    static let shapeCount = 6
    static let words = [
        "love", "rock", "night", "blue", "man", "time", "world", "heart", "girl", "fire", "dance", "sun",
    ]

    static func sql(_ db: Database, _ text: String, _ arguments: [any SQLBindable] = []) throws -> [RawRow] {
        try BuilderDifferentialTests.sql(db, text, arguments)
    }

    /// A Chinook copy with the track-name index built.
    static func indexedChinook() throws -> Database {
        let db = try Database.chinookCopy()
        try db.createTable(for: TrackSearch.self)
        try db.execute("INSERT INTO TrackSearch(TrackSearch) VALUES ('rebuild')")
        return db
    }

    @Test func generatedStatementsMatchHandWrittenSQL() throws {
        var random = SeededGenerator(state: Self.seed)
        let indexed = try Self.indexedChinook()
        var mismatches: [String] = []
        var nonEmpty = 0
        var shapes: Set<Int> = []
        for index in 0..<Self.caseCount {
            let shape = index % Self.shapeCount
            shapes.insert(shape)
            let item = try Self.makeCase(shape: shape, indexed: indexed, random: &random)
            let builder = item.isOrdered ? item.builder : item.builder.sorted(by: BuilderDifferentialTests.precedes)
            let handWritten =
                item.isOrdered ? item.handWritten : item.handWritten.sorted(by: BuilderDifferentialTests.precedes)
            if builder != handWritten {
                mismatches.append(
                    "\(item.label): builder \(builder.prefix(3)) … (\(builder.count)), SQL \(handWritten.prefix(3)) … (\(handWritten.count))"
                )
            }
            if !builder.isEmpty { nonEmpty += 1 }
        }
        let report = mismatches.prefix(10).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(Self.caseCount) differ:\n\(report)")
        #expect(shapes.count == Self.shapeCount)
        #expect(nonEmpty > Self.caseCount * 3 / 4)
    }

    // swiftlint:disable:next function_body_length
    static func makeCase(shape: Int, indexed: Database, random: inout SeededGenerator) throws -> DifferentialCase {
        switch shape {
        case 0:
            // INSERT … SELECT, with a computed key and OR IGNORE.
            let maximum = random.int64(1...25)
            let offset = random.element([0, 1000] as [Int64])
            let built = try Database.chinookCopy()
            let written = try Database.chinookCopy()
            try Playlist.insert(or: .ignore) {
                ($0.playlistId, $0.name)
            } select: {
                Genre.where { $0.genreId <= maximum }.select { ($0.genreId + offset, $0.name) }
            }.execute(built)
            try written.execute(
                SQL(
                    sql:
                        "INSERT OR IGNORE INTO Playlist (PlaylistId, Name) SELECT GenreId + ?, Name FROM Genre WHERE GenreId <= ?",
                    arguments: [offset, maximum]))
            return DifferentialCase(
                label: "insert genres <= \(maximum) + \(offset) into playlists",
                builder: try BuilderDifferentialTests.contents(built, "Playlist"),
                handWritten: try BuilderDifferentialTests.contents(written, "Playlist"), isOrdered: true)
        case 1:
            // ON CONFLICT … DO UPDATE … WHERE.
            let key = random.int64(1...300)
            let name = random.element(["Alpha", "Blues", "Metal", "Zydeco", "Rock", "Led"])
            let built = try Database.chinookCopy()
            let written = try Database.chinookCopy()
            try Artist.insert(Artist(artistId: key, name: name)).onConflict(\.artistId) { existing, excluded in
                existing.name.set(to: excluded.name)
            } where: { existing, excluded in
                existing.name < excluded.name
            }.execute(built)
            try written.execute(
                SQL(
                    sql:
                        "INSERT INTO Artist (ArtistId, Name) VALUES (?, ?) ON CONFLICT (ArtistId) DO UPDATE SET Name = excluded.Name WHERE Artist.Name < excluded.Name",
                    arguments: [key, name]))
            return DifferentialCase(
                label: "upsert artist \(key) \(name) where greater",
                builder: try BuilderDifferentialTests.contents(built, "Artist"),
                handWritten: try BuilderDifferentialTests.contents(written, "Artist"), isOrdered: true)
        case 2:
            // FTS5 MATCH ordered by rank, joined back to the content table.
            let word = random.element(Self.words)
            let query: FullTextQuery = random.bool() ? .phrase(word) : .prefix(String(word.prefix(3)))
            let limit = random.int(5...40)
            let rows = try Track.join(TrackSearch.self, on: { $0.trackId == $1.rowid })
                .where { _, search in search.match(query) }
                .order { track, search in (search.rank, track.trackId) }.limit(limit)
                .select { track, _ in (track.trackId, track.name) }.fetchAll(indexed)
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
            let rows = try TrackSearch.where { $0.match(.phrase(word)) }.order { ($0.bm25(), $0.rowid) }.limit(20)
                .select { ($0.rowid, $0.name.highlight(open: "[", close: "]")) }.fetchAll(indexed)
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
            let rows = try Album.where { $0.artistId <= maximum }.group(by: \.artistId).order(by: \.artistId)
                .select {
                    (
                        $0.artistId,
                        jsonObject(as: ArtistSummary.self, ["id": $0.albumId, "name": $0.title]).jsonGroupArray()
                    )
                }
                .fetchAll(indexed)
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
            let rows = try Track.where { $0.trackId.in(JSONEach<Int64>.of(array: ids).select { $0.value }) }
                .order(by: \.trackId).select { ($0.trackId, $0.name) }.fetchAll(indexed)
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
