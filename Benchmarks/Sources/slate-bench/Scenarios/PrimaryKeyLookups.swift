import CSQLite
import GRDB
import Slate

/// Look rows of `keyed_item(id INTEGER PRIMARY KEY, i0 … i9 INT)` up one at a time by primary key.
///
/// Every id is looked up once, in a fixed shuffled order. Each contender does all its lookups in one
/// read transaction (raw: BEGIN … COMMIT, Slate: `transaction`, GRDB: `read`), so no contender pays
/// for per-statement locking that the others skip.
enum PrimaryKeyLookups {
    static let scenario = Scenario(
        name: "pk-lookups-100k",
        summary: "100,000 single-row lookups by INTEGER PRIMARY KEY on a 100,000-row table"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.ids.count,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-cached", fixture.slateCached),
                Contender("slate-find", fixture.slateFind),
                Contender("grdb-cached", fixture.grdbCached),
                Contender("grdb-find", fixture.grdbFind),
            ] + (try ServerPeers.primaryKeyLookups(path: fixture.path, ids: fixture.ids)))
    }

    final class Fixture {
        /// The ids to look up, in lookup order.
        let ids: [Int]
        let expected: Checksum
        let path: String
        let rawConnection: RawConnection
        let rawSelect: RawStatement
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            let rowCount = context.size(full: 100_000, quick: 10_000)
            path = context.path("pk-lookups.sqlite")
            let rows = (1...rowCount).map { KeyedItem(id: $0, item: Item.generated(row: $0)) }
            var generator = SplitMix64(seed: 0x5eed)
            ids = rows.map(\.id).shuffled(using: &generator)
            expected = ids.map { rows[$0 - 1] }.checksum

            let writer = try RawConnection(path: path)
            try writer.execute(KeyedItem.createTable)
            try writer.transaction { try writer.insert(rows) }

            rawConnection = try RawConnection(path: path)
            rawSelect = try RawStatement(rawConnection, KeyedItem.selectByID)
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)
        }

        // MARK: Contenders

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            let statement = rawSelect.handle
            return try stopwatch.measure {
                var found: [KeyedItem] = []
                try rawConnection.transaction {
                    for id in ids {
                        sqlite3_bind_int64(statement, 1, Int64(id))
                        guard sqlite3_step(statement) == SQLITE_ROW else {
                            sqlite3_reset(statement)
                            throw rawConnection.failure("no row for id \(id)")
                        }
                        found.append(
                            KeyedItem(id: Int(sqlite3_column_int64(statement, 0)), item: rawSelect.item(startingAt: 1)))
                        sqlite3_reset(statement)
                    }
                }
                return found
            }.checksum
        }

        func slateCached(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try slate.transaction {
                    var found: [KeyedItem] = []
                    for id in ids {
                        guard
                            let item = try slate.fetchOne(
                                KeyedItem.self,
                                "SELECT id, i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM keyed_item WHERE id = \(id)")
                        else { throw HarnessError("slate-cached: no row for id \(id)") }
                        found.append(item)
                    }
                    return found
                }
            }.checksum
        }

        /// The typed layer's primary-key lookup, `KeyedItem.find(id).fetchOne(db)` on the hand-written
        /// `PrimaryKeyedTable`: the statement is rendered once per record type and connection, and
        /// each call binds the key by position.
        func slateFind(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try slate.transaction {
                    var found: [KeyedItem] = []
                    for id in ids {
                        guard let item = try KeyedItem.find(id).fetchOne(slate) else {
                            throw HarnessError("slate-find: no row for id \(id)")
                        }
                        found.append(item)
                    }
                    return found
                }
            }.checksum
        }

        /// The counterpart of `slate-cached`: the statement comes from GRDB's cache by its SQL text on
        /// every lookup, and the record decodes by position.
        func grdbCached(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.read { db in
                    var found: [KeyedItem] = []
                    for id in ids {
                        let statement = try db.cachedStatement(sql: KeyedItem.selectByID)
                        guard let item = try KeyedItem.fetchOne(statement, arguments: [id]) else {
                            throw HarnessError("grdb-cached: no row for id \(id)")
                        }
                        found.append(item)
                    }
                    return found
                }
            }.checksum
        }

        /// GRDB's idiomatic primary-key lookup, `fetchOne(db, key:)`, which builds its request and
        /// statement through the query interface on every call: the counterpart of `slate-find`.
        func grdbFind(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.read { db in
                    var found: [KeyedItem] = []
                    for id in ids {
                        guard let item = try KeyedItem.fetchOne(db, key: id) else {
                            throw HarnessError("grdb-find: no row for id \(id)")
                        }
                        found.append(item)
                    }
                    return found
                }
            }.checksum
        }
    }
}
