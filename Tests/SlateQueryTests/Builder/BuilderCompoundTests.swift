import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// `UNION`, `UNION ALL`, `INTERSECT` and `EXCEPT`.
@Suite struct BuilderCompoundTests {
    @Test func rendersEachOperatorWithOrderingAndLimitForTheWhole() throws {
        let artists = Artist.where { $0.artistId < 3 }.select { $0.name }
        let genres = Genre.where { $0.genreId < 3 }.select { $0.name }
        #expect(
            SQLLayout.lines(artists.union(genres).order { $0.name.descending() }.limit(3).sql) == """
                SELECT "Artist"."Name"
                FROM "Artist"
                WHERE "Artist"."ArtistId" < ?
                UNION SELECT "Genre"."Name"
                FROM "Genre"
                WHERE "Genre"."GenreId" < ?
                ORDER BY "Artist"."Name" DESC
                LIMIT ?
                -- arguments: 3, 3, 3
                """)
        #expect(artists.unionAll(genres).sql.text.contains(" UNION ALL SELECT "))
        #expect(artists.intersect(genres).sql.text.contains(" INTERSECT SELECT "))
        #expect(artists.except(genres).except(artists).sql.text.components(separatedBy: " EXCEPT ").count == 3)
        // A member with its own ordering and limit keeps them, wrapped.
        #expect(
            SQLLayout.lines(artists.union(Genre.order(by: \.name).limit(2).select { $0.name }).sql) == """
                SELECT "Artist"."Name"
                FROM "Artist"
                WHERE "Artist"."ArtistId" < ?
                UNION SELECT *
                FROM (SELECT "Genre"."Name" FROM "Genre" ORDER BY "Genre"."Name" LIMIT ?)
                -- arguments: 3, 2
                """)
    }

    @Test func runsLikeHandWrittenSQL() throws {
        let db = try Database.chinook()
        let rock = Track.where { $0.genreId == 1 }.select { $0.albumId }
        let long = Track.where { $0.milliseconds > 400_000 }.select { $0.albumId }
        func expected(_ op: String) throws -> [Int64?] {
            try db.fetchAll(
                Int64?.self,
                sql:
                    """
                    SELECT AlbumId FROM Track WHERE GenreId = 1
                    \(op)
                    SELECT AlbumId FROM Track WHERE Milliseconds > 400000
                    ORDER BY 1
                    """
            )
        }
        let union: [Int64?] = try rock.union(long).order { $0.albumId }.fetchAll(db)
        #expect(union == (try expected("UNION")))
        let unionAll = try rock.unionAll(long).order { $0.albumId }.fetchAll(db)
        #expect(unionAll == (try expected("UNION ALL")))
        let intersect = try rock.intersect(long).order { $0.albumId }.fetchAll(db)
        #expect(intersect == (try expected("INTERSECT")))
        let except = try rock.except(long).order { $0.albumId }.fetchAll(db)
        #expect(except == (try expected("EXCEPT")))
        #expect(!intersect.isEmpty && !except.isEmpty && unionAll.count > union.count)
        #expect(try rock.union(long).fetchCount(db) == union.count)
        #expect(try rock.union(long).order { $0.albumId }.fetchOne(db) == union.first)
        // Whole records.
        let records = try Artist.where { $0.artistId <= 2 }.union(Artist.where { $0.artistId == 5 }).order {
            $0.artistId
        }.fetchAll(db)
        #expect(records.map(\.artistId) == [1, 2, 5])
    }
}
