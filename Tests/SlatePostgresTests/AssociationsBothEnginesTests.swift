#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestSupport
    import Testing

    /// Each eager load on PostgreSQL equals the hand-written N+1 loop's result on PostgreSQL, and
    /// the same eager load on SQLite (Chinook loaded into a server the tests start).
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct AssociationsBothEnginesTests {
        @Test func albumsOrderedAndLimitedPerArtistWithEmptyChildren() async throws {
            let pg = try await ChinookCorpus.postgres.value
            let sqlite = try Database.chinook()
            let load = Artist.all().order(by: \.artistId).including(all: \.albums) {
                $0.order { $0.title.descending() }.limit(2).including(all: \.tracks) {
                    $0.order { ($0.milliseconds.descending(), $0.trackId) }.limit(3)
                }
            }
            let eager = try await load.fetchAll(pg)
            var loop: [(Artist, [(Album, [Track])])] = []
            for artist in try await Artist.all().order(by: \.artistId).fetchAll(pg) {
                var albums: [(Album, [Track])] = []
                for album in try await Album.where({ $0.artistId == artist.artistId! }).order({ $0.title.descending() })
                    .limit(2).fetchAll(pg)
                {
                    let tracks = try await Track.where { $0.albumId == album.albumId }
                        .order { ($0.milliseconds.descending(), $0.trackId) }.limit(3).fetchAll(pg)
                    albums.append((album, tracks))
                }
                loop.append((artist, albums))
            }
            let onSQLite = try load.fetchAll(sqlite)
            #expect(eager.map { $0.0 } == loop.map { $0.0 })
            #expect(eager.map { $0.1.map { $0.0 } } == loop.map { $0.1.map { $0.0 } })
            #expect(eager.map { $0.1.map { $0.1 } } == loop.map { $0.1.map { $0.1 } })
            #expect(eager.map { $0.1.map { $0.1 } } == onSQLite.map { $0.1.map { $0.1 } })
            #expect(eager.contains { $0.1.isEmpty })
            #expect(eager.count == 275)
        }

        @Test func employeesWithManagerAndReports() async throws {
            let pg = try await ChinookCorpus.postgres.value
            let load = Employee.all().order(by: \.employeeId).including(optional: \.manager)
                .including(all: \.reports) { $0.order(by: \.employeeId) }
            let eager = try await load.fetchAll(pg)
            var loop: [(Employee, Employee?, [Employee])] = []
            for employee in try await Employee.all().order(by: \.employeeId).fetchAll(pg) {
                let manager = try await employee.reportsTo.asyncMap { try await Employee.find($0).fetchOne(pg) } ?? nil
                let reports = try await Employee.where { $0.reportsTo == employee.employeeId }.order(by: \.employeeId)
                    .fetchAll(pg)
                loop.append((employee, manager, reports))
            }
            #expect(eager.map { $0.0 } == loop.map { $0.0 })
            #expect(eager.map { $0.1 } == loop.map { $0.1 })
            #expect(eager.map { $0.2 } == loop.map { $0.2 })
            let onSQLite = try load.fetchAll(try Database.chinook())
            #expect(eager.map { $0.2 } == onSQLite.map { $0.2 })
            #expect(eager.contains { $0.1 == nil } && eager.contains { $0.2.count == 3 })
        }

        @Test func playlistTracksThroughTheLinkingTable() async throws {
            let pg = try await ChinookCorpus.postgres.value
            let load = Playlist.all().order(by: \.playlistId)
                .including(all: \.tracks) { $0.order { ($0.name, $0.trackId) }.limit(4, offset: 1) }
            let eager = try await load.fetchAll(pg)
            var loop: [(Playlist, [Track])] = []
            for playlist in try await Playlist.all().order(by: \.playlistId).fetchAll(pg) {
                let ids = PlaylistTrack.where { $0.playlistId == playlist.playlistId! }.select { $0.trackId }
                loop.append(
                    (
                        playlist,
                        try await Track.where { $0.trackId.in(ids) }.order { ($0.name, $0.trackId) }.limit(4, offset: 1)
                            .fetchAll(pg)
                    ))
            }
            #expect(eager.map { $0.0 } == loop.map { $0.0 })
            #expect(eager.map { $0.1 } == loop.map { $0.1 })
            #expect(eager.map { $0.1 } == (try load.fetchAll(try Database.chinook())).map { $0.1 })
            #expect(eager.contains { $0.1.isEmpty } && eager.contains { $0.1.count == 4 })
        }

        @Test func requiredArtistAndCountsInATransaction() async throws {
            let pg = try await ChinookCorpus.postgres.value
            let load = Album.all().order(by: \.albumId).limit(10)
                .annotated { $0.tracks.count() }
                .including(required: \.artist) { $0.where { $0.name.hasPrefix("A") } }
            let eager = try await pg.transaction { tx in try await load.fetchAll(tx) }
            let onSQLite = try load.fetchAll(try Database.chinook())
            #expect(eager.map { $0.0 } == onSQLite.map { $0.0 })
            #expect(eager.map { $0.1 } == onSQLite.map { $0.1 })
            #expect(eager.map { $0.2 } == onSQLite.map { $0.2 })
            #expect(eager.count == 10)
            var loop: [Int] = []
            for (album, _, _) in eager {
                loop.append(try await Track.where { $0.albumId == album.albumId }.fetchCount(pg))
            }
            #expect(eager.map { $0.1 } == loop)
        }

        @Test func filtersThroughAnAssociation() async throws {
            let pg = try await ChinookCorpus.postgres.value
            let query = Artist.where { $0.albums.count() >= 3 && !$0.albums.exists { $0.title.hasPrefix("Greatest") } }
                .order(by: \.artistId).select { ($0.artistId, $0.albums.count()) }
            let onPostgreSQL = try await query.fetchAll(pg)
            let onSQLite = try query.fetchAll(try Database.chinook())
            #expect(onPostgreSQL.map { $0.0 } == onSQLite.map { $0.0 })
            #expect(onPostgreSQL.map { $0.1 } == onSQLite.map { $0.1 })
            #expect(!onSQLite.isEmpty)
        }
    }

    extension Optional {
        /// The wrapped value transformed by an async function.
        fileprivate func asyncMap<Result>(_ transform: (Wrapped) async throws -> Result) async rethrows -> Result? {
            guard let value = self else { return nil }
            return try await transform(value)
        }
    }
#endif
