import Foundation
import Slate
import SlateTestSupport
import Testing

/// Issue 18's constructs on PostgreSQL: the ones PostgreSQL writes exactly alike are rendered in
/// its spelling; the others throw Slate's misuse error naming the construct, before anything runs.
extension DialectRenderingTests {
    /// The message of the error rendering `statement` for PostgreSQL throws, or `nil`.
    func refusal(_ statement: some QueryStatement) -> String? {
        postgreSQLError(statement)?.message
    }

    @Test func rendersWindowFunctionsWithIntegerArguments() throws {
        let query = Track.select { track in
            (
                rowNumber().over(.partition(by: track.albumId).order(by: track.milliseconds.descending())),
                ntile(4).over(),
                track.milliseconds.lag(offset: 2, default: 0).over(.order(by: track.trackId)),
                track.name.nthValue(3).over(.order(by: track.trackId).rows(.preceding(2), .currentRow)),
                track.milliseconds.lead().over(.order(by: track.trackId).groups(.unboundedPreceding, .following(1)))
            )
        }
        #expect(
            query.sql.text
                == #"SELECT row_number() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC), ntile(?) OVER (), lag("Track"."Milliseconds", ?, ?) OVER (ORDER BY "Track"."TrackId"), nth_value("Track"."Name", ?) OVER (ORDER BY "Track"."TrackId" ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), lead("Track"."Milliseconds", ?) OVER (ORDER BY "Track"."TrackId" GROUPS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM "Track""#
        )
        let rendered = try query.sql.rendered(for: .postgreSQL)
        #expect(
            rendered.text
                == #"SELECT row_number() OVER (PARTITION BY "Track"."AlbumId" ORDER BY "Track"."Milliseconds" DESC), ntile(CAST($1 AS integer)) OVER (), lag("Track"."Milliseconds", CAST($2 AS integer), $3) OVER (ORDER BY "Track"."TrackId"), nth_value("Track"."Name", CAST($4 AS integer)) OVER (ORDER BY "Track"."TrackId" ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), lead("Track"."Milliseconds", CAST($5 AS integer)) OVER (ORDER BY "Track"."TrackId" GROUPS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM "Track""#
        )
        #expect(
            try rendered.arguments.map { try $0?.sqlValue } == [
                .integer(4), .integer(2), .integer(0), .integer(3), .integer(1),
            ])
        let ranks = Track.select {
            (
                $0.trackId, rank().over(), denseRank().over(), percentRank().over(), cumeDist().over(),
                $0.name.firstValue().over(), $0.name.lastValue().over()
            )
        }
        #expect(
            try postgreSQL(ranks)
                == #"SELECT "Track"."TrackId", rank() OVER (), dense_rank() OVER (), percent_rank() OVER (), cume_dist() OVER (), first_value("Track"."Name") OVER (), last_value("Track"."Name") OVER () FROM "Track""#
        )
    }

    @Test func rendersInstrAsStrposAndSubstrWithIntegerArguments() throws {
        let query = Track.where { $0.name.instr("Love") > 0 }.select {
            ($0.composer.instr("a"), $0.name.substr(2), $0.name.substr(1, 3))
        }
        #expect(
            query.sql.text
                == #"SELECT instr("Track"."Composer", ?), substr("Track"."Name", ?), substr("Track"."Name", ?, ?) FROM "Track" WHERE instr("Track"."Name", ?) > ?"#
        )
        let rendered = try query.sql.rendered(for: .postgreSQL)
        #expect(
            rendered.text
                == #"SELECT strpos("Track"."Composer", $1), substr("Track"."Name", CAST($2 AS integer)), substr("Track"."Name", CAST($3 AS integer), CAST($4 AS integer)) FROM "Track" WHERE strpos("Track"."Name", $5) > $6"#
        )
        #expect(
            try rendered.arguments.map { try $0?.sqlValue } == [
                .text("a"), .integer(2), .integer(1), .integer(3), .text("Love"), .integer(0),
            ])
        // SQLite counts a negative start from the end; PostgreSQL does not.
        let fromEnd = Track.select { $0.name.substr(-3) }
        #expect(fromEnd.sql.text == #"SELECT substr("Track"."Name", ?) FROM "Track""#)
        #expect(
            refusal(fromEnd)?.hasPrefix(
                "PostgreSQL has no equivalent of `substr(\"Track\".\"Name\", ?)`: PostgreSQL's substr does not count")
                == true)
        #expect(refusal(Track.select { $0.name.substr(1, -2) }) != nil)
    }

    @Test func rendersCastsThatGiveTheSameValue() throws {
        let query = Track.select {
            (
                $0.unitPrice.cast(as: Int.self), $0.bytes.cast(as: Int64.self), $0.milliseconds.cast(as: Double.self),
                $0.milliseconds.cast(as: String.self), $0.name.cast(as: String.self)
            )
        }
        #expect(
            query.sql.text
                == #"SELECT CAST("Track"."UnitPrice" AS INTEGER), CAST("Track"."Bytes" AS INTEGER), CAST("Track"."Milliseconds" AS REAL), CAST("Track"."Milliseconds" AS TEXT), CAST("Track"."Name" AS TEXT) FROM "Track""#
        )
        #expect(
            try postgreSQL(query)
                == #"SELECT CAST(trunc("Track"."UnitPrice") AS bigint), CAST("Track"."Bytes" AS bigint), CAST("Track"."Milliseconds" AS double precision), CAST("Track"."Milliseconds" AS text), CAST("Track"."Name" AS text) FROM "Track""#
        )
        // Text read leniently by SQLite, a Double's text, and BLOB: refused.
        #expect(
            refusal(Track.select { $0.name.cast(as: Int.self) })?.hasPrefix(
                #"PostgreSQL has no equivalent of `CAST("Track"."Name" AS INTEGER)`: PostgreSQL's CAST"#) == true)
        #expect(
            refusal(Track.select { $0.name.cast(as: Double.self) })?.contains(#"`CAST("Track"."Name" AS REAL)`"#)
                == true)
        #expect(
            refusal(Track.select { $0.unitPrice.cast(as: String.self) })?.contains(
                #"`CAST("Track"."UnitPrice" AS TEXT)`"#) == true)
        #expect(
            refusal(Track.select { $0.name.cast(as: Data.self) })?.contains(#"`CAST("Track"."Name" AS BLOB)`"#) == true)
    }

    @Test func rendersInsertSelectAndRefusesItsSQLiteConflictClauses() throws {
        let plain = Playlist.insert {
            $0.name
        } select: {
            Genre.where { $0.genreId <= 3 }.select { $0.name }
        }
        #expect(
            plain.sql.text
                == #"INSERT INTO "Playlist" ("Name") SELECT "Genre"."Name" FROM "Genre" WHERE "Genre"."GenreId" <= ?"#)
        #expect(
            try postgreSQL(plain)
                == #"INSERT INTO "Playlist" ("Name") SELECT "Genre"."Name" FROM "Genre" WHERE "Genre"."GenreId" <= $1"#)
        let abort = Playlist.insert(or: .abort) {
            $0.name
        } select: {
            Genre.where { $0.genreId <= 3 }.select { $0.name }
        }
        #expect(
            abort.sql.text
                == #"INSERT OR ABORT INTO "Playlist" ("Name") SELECT "Genre"."Name" FROM "Genre" WHERE "Genre"."GenreId" <= ?"#
        )
        #expect(
            try postgreSQL(abort)
                == #"INSERT INTO "Playlist" ("Name") SELECT "Genre"."Name" FROM "Genre" WHERE "Genre"."GenreId" <= $1"#)
        let ignore = Playlist.insert(or: .ignore) {
            $0.name
        } select: {
            Genre.where { $0.genreId <= 3 }.select { $0.name }
        }
        #expect(
            ignore.sql.text
                == #"INSERT OR IGNORE INTO "Playlist" ("Name") SELECT "Genre"."Name" FROM "Genre" WHERE "Genre"."GenreId" <= ?"#
        )
        #expect(
            refusal(ignore)
                == "PostgreSQL has no equivalent of `INSERT OR IGNORE INTO`: write INSERT … SELECT … ON CONFLICT DO NOTHING in raw SQL"
        )
        let replace = Playlist.insert(or: .replace) {
            $0.name
        } select: {
            Genre.where { $0.genreId <= 3 }.select { $0.name }
        }
        #expect(
            refusal(replace)?.hasPrefix("PostgreSQL has no equivalent of `INSERT OR REPLACE INTO`: use an upsert")
                == true)
    }

    @Test func refusesFullTextSearch() throws {
        let reason =
            "FTS5 full-text search is SQLite's; PostgreSQL's full-text search (tsvector, tsquery, ts_rank) ranks and parses queries differently"
        let cases: [(String, String?)] = [
            (#""post_search"."post_search" MATCH ?"#, refusal(PostSearch.matching("swift"))),
            (#""post_search"."title" MATCH ?"#, refusal(PostSearch.where { $0.title.match("swift") })),
            (#""post_search"."rank""#, refusal(PostSearch.all().order { $0.rank })),
            (#"bm25("post_search"."post_search")"#, refusal(PostSearch.select { $0.bm25() })),
            (#"bm25("post_search"."post_search", ?, ?)"#, refusal(PostSearch.select { $0.bm25(weights: 2, 1) })),
            (
                #"snippet("post_search"."post_search", -1, ?, ?, ?, ?)"#,
                refusal(PostSearch.select { $0.snippet(open: "[", close: "]") })
            ),
            (
                #"snippet("post_search"."post_search", 1, ?, ?, ?, ?)"#,
                refusal(PostSearch.select { $0.body.snippet(open: "[", close: "]") })
            ),
            (
                #"highlight("post_search"."post_search", 0, ?, ?)"#,
                refusal(PostSearch.select { $0.title.highlight(open: "[", close: "]") })
            ),
        ]
        for (construct, message) in cases {
            #expect(message == "PostgreSQL has no equivalent of `\(construct)`: \(reason)")
        }
        // SQLite's text is unchanged.
        #expect(
            PostSearch.matching("swift").sql.text
                == #"SELECT "post_search"."title", "post_search"."body" FROM "post_search" WHERE "post_search"."post_search" MATCH ? ORDER BY "post_search"."rank""#
        )
    }

    @Test func refusesSQLiteJSONFunctions() throws {
        let cases: [(String, String, String?)] = [
            (
                #""gadget"."specs" ->> ?"#,
                "PostgreSQL's ->> takes a key or an index, not a JSON path, and returns text",
                refusal(Gadget.where { $0.specs.json("$.brand", as: String.self) == "Acme" })
            ),
            (
                #"json_extract("gadget"."specs", ?)"#,
                "PostgreSQL reads JSON paths with jsonb_path_query_first, which returns jsonb, not an SQL value",
                refusal(Gadget.select { $0.specs.jsonExtract("$.brand", as: String.self) })
            ),
            (
                #"json_array_length("gadget"."tags")"#,
                "PostgreSQL's json_array_length fails on a JSON value that is not an array, where SQLite's returns 0",
                refusal(Gadget.select { $0.tags.jsonArrayLength() })
            ),
            (
                "json_each(?)",
                "PostgreSQL's json_each takes only objects and has other columns (key, value); use jsonb_array_elements in raw SQL",
                refusal(JSONEach<String>.of(array: ["a"]))
            ),
            (
                #"json_group_array("Track"."Name")"#,
                "PostgreSQL's json_agg returns NULL, not [], for no rows, and writes booleans and numbers differently",
                refusal(Track.select { $0.name.jsonGroupArray() })
            ),
            (
                #"json_object(?, "Artist"."ArtistId", ?, "Artist"."Name")"#,
                "PostgreSQL's json_build_object writes booleans and numbers differently from SQLite's json_object",
                refusal(Artist.select { jsonObject(as: ArtistSummary.self, ["id": $0.artistId, "name": $0.name]) })
            ),
        ]
        for (construct, reason, message) in cases {
            #expect(message == "PostgreSQL has no equivalent of `\(construct)`: \(reason)")
        }
        let grouped = Artist.select { jsonObject(as: ArtistSummary.self, ["id": $0.artistId]).jsonGroupArray() }
        #expect(
            grouped.sql.text == #"SELECT json_group_array(json(json_object(?, "Artist"."ArtistId"))) FROM "Artist""#)
        #expect(
            refusal(grouped)?.hasPrefix("PostgreSQL has no equivalent of `json_group_array(json(json_object(") == true)
    }

    @Test func refusesSQLiteDateFunctions() throws {
        let reason =
            "SQLite's date and time functions read dates as Slate stores them in SQLite; on PostgreSQL use its date functions (date_trunc, to_char, extract) in raw SQL"
        let cases: [(String, String?)] = [
            (
                #"date("Invoice"."InvoiceDate", ?, ?)"#,
                refusal(Invoice.select { $0.invoiceDate.date(.startOfMonth, .days(14)) })
            ),
            (#"time("Invoice"."InvoiceDate")"#, refusal(Invoice.select { $0.invoiceDate.time() })),
            (#"datetime("Invoice"."InvoiceDate", ?)"#, refusal(Invoice.select { $0.invoiceDate.datetime(.hours(-1)) })),
            (#"julianday("Invoice"."InvoiceDate")"#, refusal(Invoice.select { $0.invoiceDate.julianDay() })),
            (#"unixepoch("Invoice"."InvoiceDate")"#, refusal(Invoice.select { $0.invoiceDate.unixEpoch() })),
            (
                #"strftime(?, "Invoice"."InvoiceDate")"#,
                refusal(Invoice.group { $0.invoiceDate.strftime("%Y") }.select { $0.invoiceDate.strftime("%Y") })
            ),
        ]
        for (construct, message) in cases {
            #expect(message == "PostgreSQL has no equivalent of `\(construct)`: \(reason)")
        }
    }
}
