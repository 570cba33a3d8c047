#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestSupport
    import Testing

    /// One corpus of builder queries on Chinook, each written once and run on SQLite and on
    /// PostgreSQL (Chinook loaded into a server the tests start): the results must be equal.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct ChinookBothEnginesTests {
        @Test(arguments: ChinookCorpus.cases)
        func sameResultsOnBothEngines(_ query: ChinookCorpus.Query) async throws {
            let sqlite = try Database.chinookCopy()
            let onSQLite = try await query.run(.sqlite(sqlite))
            let pg = try await ChinookCorpus.postgres.value
            // Each query runs in a transaction rolled back afterwards, so writes leave the shared
            // database as loaded.
            let onPostgreSQL: [String] = try await ChinookCorpus.rolledBack(pg) { tx in
                try await query.run(.postgreSQL(tx))
            }
            #expect(onSQLite == onPostgreSQL)
            #expect(!onSQLite.isEmpty)
        }

        @Test func loadsEveryRow() async throws {
            let sqlite = try Database.chinook()
            let pg = try await ChinookCorpus.postgres.value
            #expect(try await Track.all().fetchCount(pg) == 3503)
            #expect(try await InvoiceLine.all().fetchCount(pg) == (try InvoiceLine.all().fetchCount(sqlite)))
            #expect(
                try await Employee.all().order(by: \.employeeId).fetchAll(pg)
                    == (try Employee.all().order(by: \.employeeId).fetchAll(sqlite)))
        }
    }

    /// Where a corpus query runs.
    enum Engine {
        case sqlite(Database)
        case postgreSQL(PostgreSQLTransaction)

        func all<S: SelectStatement>(_ statement: S) async throws -> [S.Output] {
            switch self {
            case .sqlite(let db): try statement.fetchAll(db)
            case .postgreSQL(let pg): try await statement.fetchAll(pg)
            }
        }

        func one<S: SelectStatement>(_ statement: S) async throws -> S.Output? {
            switch self {
            case .sqlite(let db): try statement.fetchOne(db)
            case .postgreSQL(let pg): try await statement.fetchOne(pg)
            }
        }

        func count<S: SelectStatement>(_ statement: S) async throws -> Int {
            switch self {
            case .sqlite(let db): try statement.fetchCount(db)
            case .postgreSQL(let pg): try await statement.fetchCount(pg)
            }
        }

        func exists<S: SelectStatement>(_ statement: S) async throws -> Bool {
            switch self {
            case .sqlite(let db): try statement.exists(db)
            case .postgreSQL(let pg): try await statement.exists(pg)
            }
        }

        func execute<Root: Table>(_ insert: Insert<Root>) async throws -> [Root] {
            switch self {
            case .sqlite(let db): try insert.execute(db)
            case .postgreSQL(let pg): try await insert.execute(pg)
            }
        }

        func all<Root: Table, Output>(_ returning: Returning<Root, Output>) async throws -> [Output] {
            switch self {
            case .sqlite(let db): try returning.fetchAll(db)
            case .postgreSQL(let pg): try await returning.fetchAll(pg)
            }
        }

        func execute<Root: Table>(_ update: Update<Root>) async throws -> Int {
            switch self {
            case .sqlite(let db): try update.execute(db)
            case .postgreSQL(let pg): try await update.execute(pg)
            }
        }

        func execute<Root: Table>(_ delete: Delete<Root>) async throws -> Int {
            switch self {
            case .sqlite(let db): try delete.execute(db)
            case .postgreSQL(let pg): try await delete.execute(pg)
            }
        }

        func execute<Root: Table>(_ insert: InsertSelect<Root>) async throws -> Int {
            switch self {
            case .sqlite(let db): try insert.execute(db)
            case .postgreSQL(let pg): try await insert.execute(pg)
            }
        }
    }

    enum ChinookCorpus {
        /// One query of the corpus: its result, as text, on an engine.
        struct Query: Sendable, CustomTestStringConvertible {
            let name: String
            let run: @Sendable (Engine) async throws -> [String]
            var testDescription: String { name }
        }

        static func describe<T>(_ values: [T]) -> [String] { values.map { String(describing: $0) } }

        static let cases: [Query] = [
            // MARK: Filters
            Query(name: "filters") { db in
                describe(
                    try await db.all(
                        Track.where {
                            $0.milliseconds > 300_000 && $0.genreId == 1 && $0.composer != nil && $0.unitPrice <= 0.99
                                || $0.name.hasPrefix("Z")
                        }.order(by: \.trackId)))
            },
            Query(name: "case-sensitive contains, prefix, suffix") { db in
                let lower = try await db.count(Track.where { $0.name.contains("love") })
                let capital = try await db.count(Track.where { $0.name.contains("Love") })
                let prefixed = try await db.count(Track.where { $0.name.hasPrefix("The ") })
                let suffixed = try await db.all(
                    Album.where { $0.title.hasSuffix("[Live]") }.order(by: \.albumId).select { $0.title })
                let question = try await db.all(
                    Track.where { $0.name.contains("?") }.order(by: \.trackId).select { $0.name })
                return describe([lower, capital, prefixed]) + suffixed + question
            },
            Query(name: "like") { db in
                describe([
                    try await db.count(Track.where { $0.name.like("%love%") }),
                    try await db.count(Track.where { $0.name.notLike("a%") }),
                ])
            },
            Query(name: "in, between, empty lists") { db in
                let tracks = try await db.all(
                    Track.where { $0.genreId.in([1, 3, nil]) && $0.milliseconds.between(200_000, and: 210_000) }.order(
                        by: \.trackId
                    )
                    .select { $0.trackId })
                let none = try await db.count(Track.where { $0.trackId.in([Int64?]()) })
                let every = try await db.count(Track.where { $0.trackId.notIn([Int64?]()) })
                return describe(tracks) + describe([none, every])
            },
            Query(name: "is and is not") { db in
                describe(
                    try await db.all(
                        Track.where { $0.composer.is($0.composer) && $0.genreId.isNot(1) }.order(by: \.trackId).select {
                            $0.trackId
                        }))
            },
            Query(name: "ordering with nulls first and last") { db in
                let last = try await db.all(
                    Track.order { ($0.composer.descending(nulls: .last), $0.name, $0.trackId) }.limit(50).select {
                        $0.trackId
                    })
                let first = try await db.all(
                    Track.order { ($0.composer.descending(nulls: .first), $0.trackId) }.limit(5).select { $0.trackId })
                return describe(last + first)
            },
            Query(name: "limits and offsets") { db in
                let page = try await db.all(Track.order(by: \.name, \.trackId).limit(10, offset: 20))
                let counts = [
                    try await db.count(Track.all().limit(3)), try await db.count(Track.all().limit(10, offset: 3500)),
                ]
                return describe(page) + describe(counts)
            },
            Query(name: "distinct") { db in
                let countries = try await db.all(Customer.select { $0.country }.distinct().order(by: \.country))
                return describe(countries) + describe([try await db.count(Customer.select { $0.country }.distinct())])
            },
            // MARK: Aggregates
            Query(name: "group by, having, aggregates") { db in
                describe(
                    try await db.all(
                        Track.group(by: \.genreId)
                            .having { _ in count() > 100 }
                            .order { $0.trackId.count().descending() }
                            .select {
                                (
                                    $0.genreId, count(), $0.milliseconds.avg().rounded(toPlaces: 3),
                                    $0.unitPrice.sum().rounded(toPlaces: 2),
                                    $0.bytes.max(), $0.name.min()
                                )
                            }))
                    + describe([try await db.count(Track.group(by: \.genreId).having { _ in count() > 100 })])
            },
            Query(name: "whole-table aggregates") { db in
                let stats = try await db.one(
                    Invoice.select {
                        (
                            count(), $0.total.sum().rounded(toPlaces: 2), $0.total.total().rounded(toPlaces: 2),
                            $0.total.avg().rounded(toPlaces: 4),
                            $0.total.min(), $0.total.max(), $0.billingCountry.count(distinct: true)
                        )
                    })
                let names = try await db.one(
                    Genre.where { $0.genreId <= 3 }.select { $0.name.groupConcat(separator: "|") })
                return describe([stats]) + describe([names])
            },
            // MARK: Joins
            Query(name: "two-table join") { db in
                describe(
                    try await db.all(
                        Album.join(Artist.self, on: { album, artist in album.artistId == artist.artistId })
                            .where { _, artist in artist.name == "AC/DC" }
                            .order(by: \.0.albumId)))
            },
            Query(name: "three-table join") { db in
                let rows = try await db.all(
                    Track.all()
                        .join(Album.self, on: { track, album in track.albumId == album.albumId })
                        .join(Artist.self, on: { _, album, artist in album.artistId == artist.artistId })
                        .where { track, _, artist in artist.name == "Queen" && track.milliseconds > 200_000 }
                        .order { track, album, _ in (album.title, track.name) })
                let count = try await db.count(
                    Track.join(Album.self, on: { $0.albumId == $1.albumId }).join(
                        Artist.self, on: { $1.artistId == $2.artistId }
                    )
                    .where { _, _, artist in artist.name == "Queen" })
                return describe(rows) + describe([count])
            },
            Query(name: "left join") { db in
                let rows = try await db.all(
                    Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId }).order { artist, album in
                        (artist.artistId, album.albumId)
                    })
                let unmatched = try await db.count(
                    Artist.leftJoin(Album.self, on: { $0.artistId == $1.artistId }).where { _, album in
                        album.albumId == nil
                    })
                return describe(rows) + describe([unmatched])
            },
            Query(name: "self join through aliases") { db in
                let manager = TableAlias<Employee>("manager")
                let rows = try await db.all(
                    Employee.all().leftJoin(
                        manager, on: { employee, manager in employee.reportsTo == manager.employeeId }
                    )
                    .order(by: \.0.employeeId))
                let pairs = try await db.all(
                    Employee.aliased("e").join(Employee.self, as: "m", on: { e, m in e.reportsTo == m.employeeId })
                        .where { _, m in m.lastName == "Adams" }.order { e, _ in e.lastName }.select { e, m in
                            (e.lastName, m.lastName)
                        })
                return describe(rows) + describe(pairs)
            },
            Query(name: "left join then join") { db in
                describe(
                    try await db.all(
                        Customer.leftJoin(Employee.self, on: { $0.supportRepId == $1.employeeId })
                            .join(
                                Invoice.self, on: { customer, _, invoice in invoice.customerId == customer.customerId }
                            )
                            .where { customer, _, invoice in customer.country == "France" && invoice.total > 10 }
                            .order { _, _, invoice in invoice.invoiceId }))
            },
            // MARK: Subqueries
            Query(name: "in subquery") { db in
                describe(
                    try await db.all(
                        Artist.where {
                            $0.artistId.in(Album.where { $0.title.contains("Greatest") }.select { $0.artistId })
                        }
                        .order(by: \.artistId)))
            },
            Query(name: "exists") { db in
                let without = try await db.all(
                    Artist.where { artist in !exists(Album.where { $0.artistId == artist.artistId }) }.order(
                        by: \.artistId))
                let flags = [
                    try await db.exists(Artist.where { $0.name == "AC/DC" }),
                    try await db.exists(Artist.where { $0.name == "Nobody" }),
                ]
                return describe(without) + describe(flags)
            },
            Query(name: "scalar subquery") { db in
                describe([try await db.count(Invoice.where { $0.total > Invoice.select { $0.total.avg() } })])
            },
            // MARK: Selections and keys
            Query(name: "tuples and arithmetic") { db in
                let rows = try await db.all(
                    Invoice.where { $0.total > 20 }.order(by: \.invoiceId).select {
                        ($0.invoiceId, $0.total, $0.billingCountry, $0.invoiceDate)
                    })
                let names = try await db.all(Genre.order(by: \.genreId).select { $0.name ?? "?" })
                let computed = try await db.one(
                    Track.where { $0.trackId == 1 }.select {
                        ($0.milliseconds / 1000, $0.unitPrice * 2, $0.name.length(), $0.name.upper())
                    })
                return describe(rows) + describe(names) + describe([computed])
            },
            Query(name: "dates") { db in
                let start = Date(timeIntervalSince1970: 1_262_304_000)  // 2010-01-01 00:00:00 UTC
                let end = Date(timeIntervalSince1970: 1_264_982_400)  // 2010-02-01 00:00:00 UTC
                let january = try await db.all(
                    Invoice.where { $0.invoiceDate >= start && $0.invoiceDate < end }.order(by: \.invoiceId).select {
                        ($0.invoiceId, $0.invoiceDate)
                    })
                let onDay = try await db.count(Invoice.where { $0.invoiceDate == start })
                return describe(january) + describe([onDay])
            },
            Query(name: "find and relationships") { db in
                let acdc = try await db.one(Artist.find(1))
                let missing = try await db.one(Artist.find(100_000))
                let entry = try await db.one(PlaylistTrack.find((1, 3402)))
                guard let acdc, let manager = try await db.one(Employee.find(1)) else { return ["missing rows"] }
                let albums = try await db.all(Album.belonging(to: acdc).order { $0.title.descending() })
                let reports = try await db.all(Employee.belonging(to: manager))
                return describe([acdc]) + describe([missing]) + describe([entry]) + describe(albums) + describe(reports)
            },
            // MARK: Issue 18's constructs with a PostgreSQL spelling
            Query(name: "ranking window functions") { db in
                describe(
                    try await db.all(
                        Track.where { $0.albumId <= 3 }.order(by: \.trackId).select { track in
                            let window = Window.partition(by: track.albumId).order(
                                by: track.milliseconds.descending(), track.trackId)
                            return (
                                track.trackId, rowNumber().over(window), rank().over(.order(by: track.unitPrice)),
                                denseRank().over(.partition(by: track.albumId).order(by: track.genreId)),
                                ntile(3).over(window),
                                percentRank().over(window), cumeDist().over(window)
                            )
                        }))
            },
            Query(name: "value window functions and frames") { db in
                describe(
                    try await db.all(
                        Track.where { $0.albumId <= 3 }.order(by: \.trackId).select { track in
                            let byID = Window.partition(by: track.albumId).order(by: track.trackId)
                            return (
                                track.trackId, track.milliseconds.lag().over(byID),
                                track.milliseconds.lead(offset: 2, default: 0).over(byID),
                                track.name.firstValue().over(byID),
                                track.name.lastValue().over(byID.rows(.currentRow, .unboundedFollowing)),
                                track.trackId.nthValue(2).over(byID),
                                count().over(byID.rows(.preceding(1), .following(1))),
                                count().over(byID.groups(.unboundedPreceding, .currentRow)),
                                track.milliseconds.max().over(byID.range(.unboundedPreceding, .unboundedFollowing))
                            )
                        }))
            },
            Query(name: "instr, substr and casts") { db in
                let positions = try await db.all(
                    Track.where { $0.name.instr("Love") > 0 }.order(by: \.trackId)
                        .select { ($0.trackId, $0.name.instr("Love"), $0.name.instr("zzz"), $0.composer.instr("a")) })
                let parts = try await db.all(
                    Track.where { $0.trackId <= 20 }.order(by: \.trackId)
                        .select {
                            ($0.name.substr(2), $0.name.substr(1, 3), $0.composer.substr(0, 2), $0.name.substr(100))
                        })
                let casts = try await db.all(
                    Track.where { $0.trackId <= 20 || $0.unitPrice > 1 }.order(by: \.trackId).limit(40)
                        .select {
                            (
                                ($0.unitPrice * 3.7).cast(as: Int.self), ($0.unitPrice * -3.7).cast(as: Int64.self),
                                $0.milliseconds.cast(as: Double.self),
                                $0.bytes.cast(as: String.self), $0.name.cast(as: String.self),
                                $0.unitPrice.cast(as: Double.self), $0.trackId.cast(as: Int.self)
                            )
                        })
                return describe(positions) + describe(parts) + describe(casts)
            },
            // MARK: Writes (rolled back)
            Query(name: "insert returning and upsert") { db in
                let inserted = try await db.execute(Genre.insert(Genre(name: "Chiptune")))
                let genre = inserted.first ?? Genre(name: "?")
                let upserted = try await db.execute(Genre.upsert(Genre(genreId: genre.genreId, name: "8-bit")))
                let conflicting = try await db.execute(
                    Genre.insert(Genre(genreId: 1, name: "Stone")).onConflict(\.genreId) { existing, excluded in
                        existing.name.set(to: excluded.name)
                    })
                let skipped = try await db.execute(
                    Genre.insert(Genre(genreId: 2, name: "Skipped")).onConflictDoNothing(\.genreId))
                let ids = try await db.all(
                    Genre.insert(Genre(name: "Vaporwave")).returning { ($0.genreId, $0.name.upper()) })
                let after = try await db.all(Genre.all().order(by: \.genreId))
                return describe(inserted) + describe(upserted) + describe(conflicting) + describe(skipped)
                    + describe(ids) + describe(after)
            },
            Query(name: "insert select") { db in
                let copied = try await db.execute(
                    Playlist.insert {
                        $0.name
                    } select: {
                        Genre.where { $0.genreId > 20 }.select { $0.name }
                    })
                let none = try await db.execute(
                    Playlist.insert {
                        $0.name
                    } select: {
                        Genre.where { $0.genreId > 1_000 }.select { $0.name }
                    })
                let playlists = try await db.all(
                    Playlist.where { $0.playlistId > 18 }.order { $0.name }.select { $0.name })
                return describe([copied, none]) + describe(playlists)
            },
            Query(name: "update and delete returning") { db in
                let raised = try await db.all(
                    Track.update { $0.unitPrice.set(to: $0.unitPrice + 1) }.where { $0.albumId == 1 }.returning {
                        ($0.trackId, $0.unitPrice)
                    })
                let count = try await db.execute(Track.update { $0.composer.set(to: nil) }.where { $0.genreId == 25 })
                let deleted = try await db.all(
                    PlaylistTrack.delete().where { $0.playlistId == 1 && $0.trackId < 10 }.returning { $0.trackId })
                let deletedCount = try await db.execute(PlaylistTrack.delete().where { $0.playlistId == 5 })
                return describe(raised.sorted { ($0.0 ?? 0) < ($1.0 ?? 0) }) + describe([count, deletedCount])
                    + describe(deleted.sorted())
            },
        ]

        /// Chinook in PostgreSQL: every table created with `createTable(for:)` and every row copied
        /// from the bundled SQLite database, once per test process.
        static let postgres = Task<PostgreSQLDatabase, any Error> {
            let pg = try await PostgresTestServer.makeDatabase(named: "chinook")
            let sqlite = try Database.chinook()
            try await pg.transaction { tx in
                try await copy(Artist.self, from: sqlite, to: tx)
                try await copy(Genre.self, from: sqlite, to: tx)
                try await copy(MediaType.self, from: sqlite, to: tx)
                try await copy(Album.self, from: sqlite, to: tx)
                try await copy(Track.self, from: sqlite, to: tx)
                try await copy(Employee.self, from: sqlite, to: tx)
                try await copy(Customer.self, from: sqlite, to: tx)
                try await copy(Invoice.self, from: sqlite, to: tx)
                try await copy(InvoiceLine.self, from: sqlite, to: tx)
                try await copy(Playlist.self, from: sqlite, to: tx)
                try await copy(PlaylistTrack.self, from: sqlite, to: tx)
            }
            return pg
        }

        private static func copy<T: Table>(_ type: T.Type, from sqlite: Database, to pg: PostgreSQLTransaction)
            async throws
        {
            try await pg.createTable(for: T.self)
            let rows = try T.all().fetchAll(sqlite)
            try await pg.insert(contentsOf: rows)
            // Rows inserted with their keys leave the identity sequence behind: move it past them.
            try await resetIdentity(T.self, pg)
        }

        /// Moves the identity sequence of `T`'s key (if any) to the largest key: the next insert
        /// takes the key SQLite would choose.
        static func resetIdentity<T: Table>(_ type: T.Type, _ pg: some PostgreSQLQueryable) async throws {
            if let key = T.schema.rowIDAlias?.name {
                try await pg.execute(
                    "SELECT setval(pg_get_serial_sequence(\(T.tableName.quotedIdentifier), \(key)), (SELECT max(\(identifier: key)) FROM \(identifier: T.tableName)))"
                )
            }
        }

        /// Moves every table's identity sequence back to its largest key. Sequences are not
        /// transactional: a rolled-back insert leaves them advanced.
        static func resetIdentities(_ pg: some PostgreSQLQueryable) async throws {
            try await resetIdentity(Artist.self, pg)
            try await resetIdentity(Genre.self, pg)
            try await resetIdentity(MediaType.self, pg)
            try await resetIdentity(Album.self, pg)
            try await resetIdentity(Track.self, pg)
            try await resetIdentity(Employee.self, pg)
            try await resetIdentity(Customer.self, pg)
            try await resetIdentity(Invoice.self, pg)
            try await resetIdentity(InvoiceLine.self, pg)
            try await resetIdentity(Playlist.self, pg)
        }

        /// Runs `body` in a transaction that is rolled back afterwards.
        static func rolledBack<Result: Sendable>(
            _ pg: PostgreSQLDatabase, _ body: (PostgreSQLTransaction) async throws -> Result
        ) async throws -> Result {
            do {
                _ = try await pg.transaction { tx -> Int in
                    throw RolledBack(result: try await body(tx))
                }
            } catch let rollback as RolledBack<Result> {
                return rollback.result
            }
            throw PostgresTestServer.ServerError(message: "the transaction did not roll back")
        }
    }

    /// Carries a result out of a transaction that its error rolls back.
    struct RolledBack<Result: Sendable>: Error {
        let result: Result
    }
#endif
