import CSQLite
import GRDB
import Slate

/// Fetch every row of `item(i0 … i9 INT)` from a file database into an array of structs.
enum FetchIntegers {
    static let scenario = Scenario(
        name: "fetch-200k-ints",
        summary: "fetch 200,000 rows of ten INT columns into [Item]"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.rowCount,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-row-index", fixture.slateRowIndex),
                Contender("slate-row-name", fixture.slateRowName),
                Contender("slate-record", fixture.slateRecord),
            ] + fixture.macroContenders + [
                Contender("slate-generated", fixture.slateGenerated),
                Contender("slate-codable", fixture.slateCodable),
                Contender("codable-floor", fixture.codableFloor),
                Contender("codable-floor-per-row", fixture.codableFloorPerRow),
                Contender("grdb-row-index", fixture.grdbRowIndex),
                Contender("grdb-row-name", fixture.grdbRowName),
                Contender("grdb-record", fixture.grdbRecord),
                Contender("grdb-codable", fixture.grdbCodable),
            ] + (try ServerPeers.fetchIntegers(path: fixture.path)))
    }

    /// The database file and one open connection per library, shared by every iteration.
    final class Fixture {
        let rowCount: Int
        let expected: Checksum
        let path: String
        let rawConnection: RawConnection
        let rawSelect: RawStatement
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            rowCount = context.size(full: 200_000, quick: 20_000)
            path = context.path("fetch-ints.sqlite")
            let items = (0..<rowCount).map { Item.generated(row: $0) }
            expected = items.checksum

            try RawConnection(path: path).createItemTable(items)

            rawConnection = try RawConnection(path: path)
            rawSelect = try RawStatement(rawConnection, Item.selectAll)
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)
            try ItemSchema.check(slate)
        }

        // MARK: Contenders

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try rawSelect.readAll { $0.item(startingAt: 0) } }.checksum
        }

        func slateRowIndex(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure {
                try slate.fetchAll(Slate.SQL(sql: Item.selectAll)) { row in
                    Item(
                        i0: try row.decode(at: 0), i1: try row.decode(at: 1), i2: try row.decode(at: 2),
                        i3: try row.decode(at: 3), i4: try row.decode(at: 4), i5: try row.decode(at: 5),
                        i6: try row.decode(at: 6), i7: try row.decode(at: 7), i8: try row.decode(at: 8),
                        i9: try row.decode(at: 9))
                }
            }
            return items.checksum
        }

        func slateRowName(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure {
                try slate.fetchAll(Slate.SQL(sql: Item.selectAll)) { row in
                    Item(
                        i0: try row["i0"], i1: try row["i1"], i2: try row["i2"], i3: try row["i3"],
                        i4: try row["i4"], i5: try row["i5"], i6: try row["i6"], i7: try row["i7"],
                        i8: try row["i8"], i9: try row["i9"])
                }
            }
            return items.checksum
        }

        func slateRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure { try slate.fetchAll(Item.self, sql: Item.selectAll) }
            return items.checksum
        }

        /// The record `slate generate` wrote from Schema/item.sql, fetched with the typed builder.
        func slateGenerated(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try GeneratedItem.all().fetchAll(slate) }.checksum
        }

        /// A plain `Codable` struct, a `CodableRecord`: `CodableItem.all().fetchAll(db)` selects its
        /// columns and decodes each row by column name with the decoder cached on the statement.
        func slateCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try CodableItem.all().fetchAll(slate) }.checksum
        }

        func grdbRowIndex(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure {
                try grdb.inDatabase { db in
                    var items: [Item] = []
                    let rows = try GRDB.Row.fetchCursor(db, sql: Item.selectAll)
                    while let row = try rows.next() {
                        items.append(
                            Item(
                                i0: row[0], i1: row[1], i2: row[2], i3: row[3], i4: row[4],
                                i5: row[5], i6: row[6], i7: row[7], i8: row[8], i9: row[9]))
                    }
                    return items
                }
            }
            return items.checksum
        }

        func grdbRowName(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure {
                try grdb.inDatabase { db in
                    var items: [Item] = []
                    let rows = try GRDB.Row.fetchCursor(db, sql: Item.selectAll)
                    while let row = try rows.next() {
                        items.append(
                            Item(
                                i0: row["i0"], i1: row["i1"], i2: row["i2"], i3: row["i3"], i4: row["i4"],
                                i5: row["i5"], i6: row["i6"], i7: row["i7"], i8: row["i8"], i9: row["i9"]))
                    }
                    return items
                }
            }
            return items.checksum
        }

        func grdbRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure {
                try grdb.inDatabase { db in try Item.fetchAll(db, sql: Item.selectAll) }
            }
            return items.checksum
        }

        func grdbCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            let items = try stopwatch.measure {
                try grdb.inDatabase { db in try CodableItem.fetchAll(db, sql: Item.selectAll) }
            }
            return items.checksum
        }
    }
}
