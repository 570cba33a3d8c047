import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// `CASE WHEN … THEN … [ELSE …] END`.
@Suite struct BuilderCaseTests {
    @Test func rendersSearchedCaseWithAndWithoutElse() throws {
        let query = Track.where { $0.trackId <= 3 }.select { track in
            (
                track.trackId,
                Case.when(track.milliseconds > 300_000, then: "long").when(track.milliseconds > 60_000, then: "medium")
                    .else("short"),
                Case.when(track.composer == nil, then: track.name)
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  "Track"."TrackId",
                  CASE WHEN "Track"."Milliseconds" > ? THEN ? WHEN "Track"."Milliseconds" > ? THEN ? ELSE ? END,
                  CASE WHEN "Track"."Composer" IS NULL THEN "Track"."Name" END
                FROM "Track"
                WHERE "Track"."TrackId" <= ?
                -- arguments: 300000, 'long', 60000, 'medium', 'short', 3
                """)
        // A CASE is atomic: no parentheses as an operand.
        let doubled = Case.when(Track.Columns(qualifier: "Track").milliseconds > 1, then: 2).else(3) * 2
        #expect(
            SQLLayout.lines(doubled.queryFragment) == """
                CASE WHEN "Track"."Milliseconds" > ? THEN ? ELSE ? END * ?
                -- arguments: 1, 2, 3, 2
                """)
    }

    @Test func runsLikeHandWrittenSQL() throws {
        let db = try Database.chinook()
        let rows: [(Int64?, String, String?)] = try Track.where { $0.trackId <= 100 }.order(by: \.trackId).select {
            track in
            (
                track.trackId,
                Case.when(track.milliseconds > 300_000, then: "long").when(track.milliseconds > 200_000, then: "medium")
                    .else("short"),
                Case.when(track.composer == nil, then: track.name)
            )
        }.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT TrackId, CASE WHEN Milliseconds > 300000 THEN 'long' WHEN Milliseconds > 200000 THEN 'medium' ELSE 'short' END,
              CASE WHEN Composer IS NULL THEN Name END FROM Track WHERE TrackId <= 100 ORDER BY TrackId
            """
        ) { row in
            (
                try row.decode(Int64?.self, at: 0), try row.decode(String.self, at: 1),
                try row.decode(String?.self, at: 2)
            )
        }
        #expect(rows.count == 100 && expected.count == 100)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0 && row.1 == raw.1 && row.2 == raw.2)
        }
        let labels: Set<String> = Set(rows.map { $0.1 })
        let expectedLabels: Set<String> = ["long", "medium", "short"]
        #expect(labels == expectedLabels)
        let nullCount: Int = rows.filter { $0.2 == nil }.count
        #expect(nullCount > 0 && nullCount < rows.count)
        // In a predicate, a grouping and an ordering.
        let grouped: [(String, Int)] = try Track.group {
            Case.when($0.milliseconds > 300_000, then: "long").else("short")
        }
        .order { Case.when($0.milliseconds > 300_000, then: "long").else("short") }
        .select { (Case.when($0.milliseconds > 300_000, then: "long").else("short"), count()) }.fetchAll(db)
        let groupedSQL = try db.fetchAll(
            """
            SELECT CASE WHEN Milliseconds > 300000 THEN 'long' ELSE 'short' END AS k, count(*)
            FROM Track
            GROUP BY k
            ORDER BY k
            """
        ) { row in (try row.decode(String.self, at: 0), try row.decode(Int.self, at: 1)) }
        #expect(grouped.map(\.0) == groupedSQL.map(\.0) && grouped.map(\.1) == groupedSQL.map(\.1))
        let long = try Track.where { Case.when($0.milliseconds > 300_000, then: true).else(false) }.fetchCount(db)
        #expect(long == (try db.fetchValue(Int.self, "SELECT count(*) FROM Track WHERE Milliseconds > 300000")))
    }
}
