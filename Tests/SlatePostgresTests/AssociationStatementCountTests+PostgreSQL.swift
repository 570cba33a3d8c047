#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestSupport
    import Testing

    /// On PostgreSQL as on SQLite, an eager load costs one statement per level whatever the number
    /// of parents: counted by a queryable that records each statement's text and hands it on to a
    /// transaction.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct PostgresAssociationStatementCountTests {
        @Test(arguments: [1, 10, nil] as [Int?])
        func costsOneStatementPerLevel(parents: Int?) async throws {
            let pg = try await ChinookCorpus.postgres.value
            var query = Artist.all().order(by: \.artistId)
            if let parents { query = query.limit(parents) }
            let load = query.including(all: \.albums) {
                $0.order(by: \.albumId).including(all: \.tracks) { $0.order(by: \.trackId) }
            }
            let (loaded, statements) = try await pg.transaction { tx in
                let recording = StatementRecordingQueryable(base: tx)
                let loaded = try await load.fetchAll(recording)
                return (loaded, await recording.log.texts)
            }
            #expect(statements.count == 3)
            #expect(statements.allSatisfy { $0.hasPrefix("SELECT") })
            #expect(loaded.count == (parents ?? 275))
            // The same records, in the same order, as on SQLite (each level is ordered: without an
            // order, PostgreSQL and SQLite may return the children of a level in different orders).
            let onSQLite = try load.fetchAll(try Database.chinook())
            #expect(loaded.map { $0.0 } == onSQLite.map { $0.0 })
            #expect(loaded.map { $0.1.map { $0.0 } } == onSQLite.map { $0.1.map { $0.0 } })
            #expect(loaded.map { $0.1.map { $0.1 } } == onSQLite.map { $0.1.map { $0.1 } })
        }
    }

    /// The statements run through a ``StatementRecordingQueryable``, in order.
    actor StatementLog {
        private(set) var texts: [String] = []

        func record(_ text: String) { texts.append(text) }
    }

    /// A queryable that records each statement's SQL text, then runs it on `base`.
    struct StatementRecordingQueryable<Base: PostgreSQLQueryable>: PostgreSQLQueryable {
        let base: Base
        let log = StatementLog()

        func forEachRow(_ sql: SQL, _ body: (borrowing Row) throws -> Void) async throws {
            await log.record(sql.text)
            try await base.forEachRow(sql, body)
        }
    }
#endif
