#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlateTestSupport
    import SlatePostgres
    import SlatePostgresTesting
    import Testing

    /// Ordering terms chosen at random, as one term of an `ORDER BY`.
    struct OrderingTerms: OrderingTerm {
        let orderingFragment: SQL

        init(_ terms: [any OrderingTerm]) {
            orderingFragment = SQL.joined(terms.map(\.orderingFragment), separator: ", ")
        }
    }

    /// Thousands of random builder queries over Chinook (`RandomTrees`), each run on SQLite and on
    /// PostgreSQL: every query gives the same rows in the same order on both (reals up to the
    /// order of summation, `group_concat` parts as a set), or PostgreSQL refuses it before
    /// anything runs, with a reason the *PostgreSQL* article lists. A PostgreSQL error at run
    /// time, or other rows, is a failure.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct RandomBuilderQueryTests {
        static let seed: UInt64 = 0x5EED_0029
        static let queryCount = 2_400

        /// One generated query: how it reads on each engine, as rows of cells.
        struct Generated {
            var label: String
            var isOrdered: Bool
            var onSQLite: (Database) throws -> [[Cell]]
            var onPostgreSQL: (PostgreSQLDatabase) async throws -> [[Cell]]
        }

        /// The tally of a run.
        struct Tally {
            var equal = 0
            var refused = 0
            var failures: [String] = []
            var refusals: [String: Int] = [:]
        }

        @Test func randomQueriesGiveTheSameRowsOrARefusalOnBothEngines() async throws {
            let sqlite = try Database.chinook()
            let pg = try await ChinookCorpus.postgres.value
            var trees = RandomTrees(random: SeededGenerator(state: Self.seed))
            var tally = Tally()
            var nonEmpty = 0
            for index in 0..<Self.queryCount {
                let query = Self.make(index % 6, &trees)
                let onSQLite: [[Cell]]
                do {
                    onSQLite = try query.onSQLite(sqlite)
                } catch {
                    tally.failures.append("\(query.label): SQLite failed: \(error)")
                    continue
                }
                if !onSQLite.isEmpty { nonEmpty += 1 }
                do {
                    let onPostgreSQL = try await query.onPostgreSQL(pg)
                    let same =
                        query.isOrdered
                        ? onSQLite == onPostgreSQL
                        : Self.sorted(onSQLite) == Self.sorted(onPostgreSQL)
                    if same {
                        tally.equal += 1
                    } else {
                        tally.failures.append(
                            "\(query.label): SQLite \(onSQLite.prefix(3)) (\(onSQLite.count)), PostgreSQL \(onPostgreSQL.prefix(3)) (\(onPostgreSQL.count))"
                        )
                    }
                } catch let error as DatabaseError where error.refusingDialect == .postgreSQL {
                    tally.refused += 1
                    let reason = error.message.split(separator: ":").last.map(String.init) ?? error.message
                    tally.refusals[reason, default: 0] += 1
                } catch {
                    tally.failures.append("\(query.label): PostgreSQL failed: \(error)")
                }
            }
            let report = tally.failures.prefix(8).joined(separator: "\n")
            print(
                "RandomBuilderQueryTests: \(Self.queryCount) queries: \(tally.equal) equal, \(tally.refused) refused before running, \(tally.failures.count) failing"
            )
            #expect(tally.failures.isEmpty, "\(tally.failures.count) of \(Self.queryCount) fail:\n\(report)")
            #expect(tally.equal + tally.refused == Self.queryCount)
            // Most queries run: refusals are the few SQLite-only constructs the generator mixes in.
            #expect(tally.refused < Self.queryCount / 10)
            #expect(nonEmpty > Self.queryCount / 2)
        }

        static func sorted(_ rows: [[Cell]]) -> [[Cell]] {
            rows.sorted { $0.description < $1.description }
        }

        // MARK: Shapes

        static func make(_ shape: Int, _ trees: inout RandomTrees) -> Generated {
            switch shape {
            case 0, 1: return rows(&trees)
            case 2: return groups(&trees)
            case 3: return counts(&trees)
            case 4: return distinctValues(&trees)
            default: return existence(&trees)
            }
        }

        /// Rows of tracks: a filter, an ordering made total by the key, a limit, and four
        /// expressions selected.
        static func rows(_ trees: inout RandomTrees) -> Generated {
            let filter = trees.condition(3)
            let ordering = (0..<trees.random.int(0...2)).map { _ in trees.ordering(2) }
            let (limit, offset) = trees.limit()
            let selected = (trees.int(3), trees.real(2), trees.text(2), trees.condition(2))
            var query = Track.where { filter.build($0) }
            if !ordering.isEmpty || limit != nil || offset != nil {
                query = query.order { track in
                    OrderingTerms(ordering.map { $0.build(track) } + [track.trackId])
                }
            }
            if let limit { query = query.limit(limit) }
            if let offset { query = query.offset(offset) }
            let selection = query.select { track in
                (selected.0.build(track), selected.1.build(track), selected.2.build(track), selected.3.build(track))
            }
            return Generated(
                label:
                    "rows where \(filter) order \(ordering) limit \(String(describing: limit)) offset \(String(describing: offset)) select \(selected)",
                isOrdered: !ordering.isEmpty || limit != nil || offset != nil,
                onSQLite: { db in try selection.fetchAll(db).map(cells) },
                onPostgreSQL: { pg in try await selection.fetchAll(pg).map(cells) })
        }

        static func cells(_ row: (Int64?, Double?, String?, Bool?)) -> [Cell] {
            [.int(row.0), .real(row.1), .text(row.2), .bool(row.3)]
        }

        /// Groups of tracks by an expression: the key and aggregates, a condition on the groups,
        /// ordered by the key.
        static func groups(_ trees: inout RandomTrees) -> Generated {
            let filter = trees.condition(2)
            let key = trees.random.bool() ? trees.int(2) : .column(trees.random.element([.genreId, .albumId]))
            let summed = trees.int(2)
            let averaged = trees.real(1)
            let concatenated = trees.text(1)
            let minimum = trees.random.int(0...5)
            let descending = trees.random.bool()
            let query = Track.where { filter.build($0) }
                .group { key.build($0) }
                .having { _ in count() > minimum }
                .order { track -> Ordering in
                    descending ? key.build(track).descending() : key.build(track).ascending()
                }
                .select { track in
                    (
                        key.build(track), count(), summed.build(track).sum(), averaged.build(track).avg(),
                        averaged.build(track).total(), concatenated.build(track).min(), summed.build(track).max(),
                        concatenated.build(track).groupConcat(separator: "|"), summed.build(track).count(distinct: true)
                    )
                }
            let cells = { (row: (Int64?, Int, Int64?, Double?, Double, String?, Int64?, String?, Int)) -> [Cell] in
                [
                    .int(row.0), .int(Int64(row.1)), .int(row.2), .real(row.3), .real(row.4), .text(row.5), .int(row.6),
                    Cell.groupParts(row.7), .int(Int64(row.8)),
                ]
            }
            return Generated(
                label:
                    "groups by \(key) where \(filter) having count > \(minimum): sum \(summed), avg \(averaged), text \(concatenated)",
                isOrdered: true,
                onSQLite: { db in try query.fetchAll(db).map(cells) },
                onPostgreSQL: { pg in try await query.fetchAll(pg).map(cells) })
        }

        /// The number of rows of a filtered, limited, or grouped query.
        static func counts(_ trees: inout RandomTrees) -> Generated {
            let filter = trees.condition(3)
            let (limit, offset) = trees.limit()
            let grouping = trees.random.int(0...2) == 0 ? trees.int(1) : nil
            var query = Track.where { filter.build($0) }
            if let grouping { query = query.group { grouping.build($0) } }
            if let limit { query = query.limit(limit) }
            if let offset { query = query.offset(offset) }
            return Generated(
                label:
                    "count where \(filter) group \(String(describing: grouping)) limit \(String(describing: limit)) offset \(String(describing: offset))",
                isOrdered: true,
                onSQLite: { db in [[.int(Int64(try query.fetchCount(db)))]] },
                onPostgreSQL: { pg in [[.int(Int64(try await query.fetchCount(pg)))]] })
        }

        /// The distinct values of an expression, ordered by it.
        static func distinctValues(_ trees: inout RandomTrees) -> Generated {
            let filter = trees.condition(2)
            let value = trees.int(2)
            let descending = trees.random.bool()
            let query = Track.where { filter.build($0) }.select { value.build($0) }.distinct()
                .order { track -> Ordering in
                    descending ? value.build(track).descending() : value.build(track).ascending()
                }
                .limit(trees.random.int(1...50))
            return Generated(
                label: "distinct \(value) where \(filter)", isOrdered: true,
                onSQLite: { db in try query.fetchAll(db).map { [.int($0)] } },
                onPostgreSQL: { pg in try await query.fetchAll(pg).map { [.int($0)] } })
        }

        /// Whether a filtered, grouped query has a row.
        static func existence(_ trees: inout RandomTrees) -> Generated {
            let filter = trees.condition(3)
            let key = trees.int(1)
            let minimum = trees.random.int(0...40)
            let grouped = trees.random.bool()
            let base = Track.where { filter.build($0) }
            let query = grouped ? base.group { key.build($0) }.having { _ in count() > minimum } : base
            return Generated(
                label: "exists where \(filter)\(grouped ? " group by \(key) having count > \(minimum)" : "")",
                isOrdered: true,
                onSQLite: { db in [[.bool(try query.exists(db))]] },
                onPostgreSQL: { pg in [[.bool(try await query.exists(pg))]] })
        }
    }
#endif
