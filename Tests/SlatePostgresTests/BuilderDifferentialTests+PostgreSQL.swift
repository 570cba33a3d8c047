#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestSupport
    import Testing

    /// The PostgreSQL engine of the differential corpus: reads on the pool, writes in a
    /// transaction rolled back afterwards.
    struct PostgreSQLEngine<Queryable: PostgreSQLQueryable>: QueryEngine {
        let pg: Queryable

        func all<S: SelectStatement>(_ statement: S) async throws -> [S.Output] { try await statement.fetchAll(pg) }
        func count<S: SelectStatement>(_ statement: S) async throws -> Int { try await statement.fetchCount(pg) }
        func all<Scope, Output>(_ compound: CompoundSelect<Scope, Output>) async throws -> [Output] {
            try await compound.fetchAll(pg)
        }
        func execute<Root: Table>(_ update: Update<Root>) async throws { try await update.execute(pg) }
        func execute<Root: Table>(_ delete: Delete<Root>) async throws { try await delete.execute(pg) }
        func execute<Root: Table>(_ insert: Insert<Root>) async throws { try await insert.execute(pg) }
        func execute<Root: Table>(_ insert: InsertSelect<Root>) async throws { try await insert.execute(pg) }

        func contents<T: PrimaryKeyedTable>(_ type: T.Type) async throws -> [RawRow] {
            try await typedContents(T.self) { try await $0.fetchAll(pg) }
        }

        func onChinookCopy<Result: Sendable>(_ body: (any QueryEngine) async throws -> Result) async throws -> Result {
            guard let database = pg as? PostgreSQLDatabase else { return try await body(self) }
            return try await ChinookCorpus.rolledBack(database) { tx in
                try await ChinookCorpus.resetIdentities(tx)
                return try await body(PostgreSQLEngine<PostgreSQLTransaction>(pg: tx))
            }
        }
    }

    /// The builder side of the differential corpora (`BuilderCorpus`, its expressions, and
    /// `BuilderWriteCorpus`: hundreds of builder statements over Chinook, generated from their seeds) run on
    /// SQLite and on PostgreSQL: each gives the same rows on both — reals up to the order of
    /// summation, `group_concat` parts as a set, tables after writes as records — or PostgreSQL
    /// refuses it before anything runs, with a reason the *PostgreSQL* article lists.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct BuilderDifferentialPostgreSQLTests {
        /// The tally of a corpus on both engines.
        struct Tally {
            var equal = 0
            var refused = 0
            var failures: [String] = []

            /// Runs a case on SQLite (advancing `random`) and again on PostgreSQL from the same draws.
            mutating func compare(
                _ random: inout SeededGenerator,
                _ make: (any QueryEngine, inout SeededGenerator) async throws -> DifferentialCase,
                sqlite: any QueryEngine, postgreSQL: any QueryEngine
            ) async throws {
                var replay = random
                let onSQLite = try await make(sqlite, &random)
                do {
                    let onPostgreSQL = try await make(postgreSQL, &replay)
                    if Self.sameRows(onSQLite, onPostgreSQL) {
                        equal += 1
                    } else {
                        failures.append(
                            "\(onSQLite.label): SQLite \(onSQLite.builder.prefix(3)) (\(onSQLite.builder.count)), PostgreSQL \(onPostgreSQL.builder.prefix(3)) (\(onPostgreSQL.builder.count))"
                        )
                    }
                } catch let error as DatabaseError where error.refusingDialect == .postgreSQL {
                    refused += 1
                } catch {
                    failures.append("\(onSQLite.label): PostgreSQL failed: \(error)")
                }
            }

            static func sameRows(_ sqlite: DifferentialCase, _ postgreSQL: DifferentialCase) -> Bool {
                func normalized(_ rows: [RawRow]) -> [RawRow] {
                    let rows = rows.map { row in
                        row.enumerated().map { index, value -> SQLValue in
                            guard sqlite.unorderedTextColumns.contains(index), case .text(let text) = value else {
                                return value
                            }
                            return .text(text.split(separator: ",").sorted().joined(separator: ","))
                        }
                    }
                    return sqlite.isOrdered ? rows : rows.sorted(by: BuilderCorpus.precedes)
                }
                let lhs = normalized(sqlite.builder)
                let rhs = normalized(postgreSQL.builder)
                return lhs.count == rhs.count
                    && zip(lhs, rhs).allSatisfy { left, right in
                        left.count == right.count && zip(left, right).allSatisfy(sameValue)
                    }
            }

            /// Equal values; reals up to the order of summation.
            static func sameValue(_ lhs: SQLValue, _ rhs: SQLValue) -> Bool {
                if case .real(let a) = lhs, case .real(let b) = rhs {
                    return a == b || abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
                }
                return lhs == rhs
            }
        }

        @Test func builderCorpusGivesTheSameRowsOrARefusalOnBothEngines() async throws {
            let db = try Database.chinook()
            let indexed = try BuilderWriteCorpus.indexedChinook()
            let pg = try await ChinookCorpus.postgres.value
            let onPostgreSQL = PostgreSQLEngine(pg: pg)
            let invoiceDates = try db.fetchAll(Date.self, "SELECT DISTINCT InvoiceDate FROM Invoice ORDER BY 1")
            let states = try db.fetchAll(
                String.self, "SELECT DISTINCT State FROM Customer WHERE State IS NOT NULL ORDER BY 1")
            let countries = try db.fetchAll(String.self, "SELECT DISTINCT Country FROM Customer ORDER BY 1")
            let composers = try db.fetchAll(
                String.self, "SELECT DISTINCT Composer FROM Track WHERE Composer IS NOT NULL ORDER BY 1 LIMIT 60")
            let months = try db.fetchAll(
                String.self, "SELECT DISTINCT strftime('%Y-%m', InvoiceDate) FROM Invoice ORDER BY 1")

            var tally = Tally()
            var random = SeededGenerator(state: BuilderCorpus.seed)
            for index in 0..<BuilderCorpus.caseCount {
                try await tally.compare(
                    &random,
                    { engine, random in
                        try await BuilderCorpus.makeCase(
                            shape: index % BuilderCorpus.shapeCount, db: db, engine: engine, random: &random,
                            invoiceDates: invoiceDates,
                            states: states, countries: countries, composers: composers)
                    }, sqlite: SQLiteEngine(db: db, typed: true), postgreSQL: onPostgreSQL)
            }
            random = SeededGenerator(state: BuilderCorpus.expressionSeed)
            for index in 0..<BuilderCorpus.expressionCaseCount {
                try await tally.compare(
                    &random,
                    { engine, random in
                        try await BuilderCorpus.makeExpressionCase(
                            shape: index % BuilderCorpus.expressionShapeCount, db: db, engine: engine,
                            random: &random, states: states, months: months)
                    }, sqlite: SQLiteEngine(db: db, typed: true), postgreSQL: onPostgreSQL)
            }
            random = SeededGenerator(state: BuilderWriteCorpus.seed)
            for index in 0..<BuilderWriteCorpus.caseCount {
                try await tally.compare(
                    &random,
                    { engine, random in
                        try await BuilderWriteCorpus.makeCase(
                            shape: index % BuilderWriteCorpus.shapeCount, indexed: indexed, engine: engine,
                            random: &random)
                    }, sqlite: SQLiteEngine(db: indexed, typed: true), postgreSQL: onPostgreSQL)
            }
            let total =
                BuilderCorpus.caseCount + BuilderCorpus.expressionCaseCount
                + BuilderWriteCorpus.caseCount
            print(
                "BuilderDifferentialPostgreSQLTests: \(total) statements: \(tally.equal) equal, \(tally.refused) refused before running, \(tally.failures.count) failing"
            )
            let report = tally.failures.prefix(8).joined(separator: "\n")
            #expect(tally.failures.isEmpty, "\(tally.failures.count) of \(total) fail:\n\(report)")
            #expect(tally.equal + tally.refused == total)
            // Refusals are the shapes of SQLite's own features (dates, FTS5, JSON, lenient casts).
            #expect(tally.equal > total * 3 / 4)
        }
    }
#endif
