import CSQLite
import Foundation
import GRDB
import Slate

/// Insert rows of `item(i0 … i9 INT)` in one transaction into a fresh database file.
///
/// Untimed, per iteration: delete the file, open a new connection, set `PRAGMA synchronous = OFF`,
/// create the table. Timed: the transaction, from BEGIN to COMMIT, including preparing the INSERT
/// statement once; the commit writes the pages but does not wait for the disk (no fsync), which
/// would otherwise dominate the spread of the timings on a shared machine while being the same
/// work for every contender. Untimed again: close the connection and verify the file with
/// `count(*)` and SUM checksums.
enum Insert {
    static let scenario = Scenario(
        name: "insert-50k",
        summary: "insert 50,000 rows of ten INT columns in one transaction into a fresh file"
    ) { context in
        let fixture = Fixture(context)
        return PreparedScenario(
            rows: fixture.items.count,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-positional", fixture.slatePositional),
                Contender("slate-record", fixture.slateRecord),
            ] + fixture.macroContenders + [
                Contender("slate-codable", fixture.slateCodable),
                Contender("codable-floor", fixture.codableFloor),
                Contender("grdb-positional", fixture.grdbPositional),
                Contender("grdb-record", fixture.grdbRecord),
                Contender("grdb-codable", fixture.grdbCodable),
            ]
                + ServerPeers.insert(
                    items: fixture.items, path: fixture.path,
                    prepareFile: {
                        fixture.removeFile()
                        try RawConnection(path: fixture.path).execute(Item.createTable)
                    }, verify: fixture.verify))
    }

    final class Fixture {
        let items: [Item]
        /// The same values in the other record types, built once, untimed.
        let codableItems: [CodableItem]
        let expected: Checksum
        let path: String

        init(_ context: BenchmarkContext) {
            items = (0..<context.size(full: 50_000, quick: 5_000)).map { Item.generated(row: $0) }
            codableItems = items.map(CodableItem.init)
            path = context.path("insert.sqlite")
            expected = Self.checksum(
                rows: items.count,
                sums: [
                    items.reduce(0) { $0 + Int64($1.i0) }, items.reduce(0) { $0 + Int64($1.i1) },
                    items.reduce(0) { $0 + Int64($1.i2) }, items.reduce(0) { $0 + Int64($1.i3) },
                    items.reduce(0) { $0 + Int64($1.i4) }, items.reduce(0) { $0 + Int64($1.i5) },
                    items.reduce(0) { $0 + Int64($1.i6) }, items.reduce(0) { $0 + Int64($1.i7) },
                    items.reduce(0) { $0 + Int64($1.i8) }, items.reduce(0) { $0 + Int64($1.i9) },
                    // Order-sensitive: rows must land in order, with i0 and i9 not swapped.
                    items.enumerated().reduce(0) {
                        $0 + Int64(($1.offset + 1) % 997) * Int64($1.element.i0 - $1.element.i9)
                    },
                ])
        }

        /// Every contender's connection, untimed: the commit writes its pages without an fsync.
        static let noSync = "PRAGMA synchronous = OFF"

        static let verificationSQL = """
            SELECT count(*), sum(i0), sum(i1), sum(i2), sum(i3), sum(i4), sum(i5), sum(i6), sum(i7), sum(i8), sum(i9), \
            sum((rowid % 997) * (i0 - i9)) FROM item
            """

        static func checksum(rows: Int, sums: [Int64]) -> Checksum {
            Checksum(rows: rows, values: sums)
        }

        /// Deletes the database file left by the previous iteration.
        func removeFile() {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }

        /// Reads the file back with the C API once the contender's connection is closed.
        func verify() throws -> Checksum {
            let values = try RawConnection(path: path, readOnly: true).integers(Self.verificationSQL)
            return Self.checksum(rows: Int(values[0]), sums: Array(values.dropFirst()))
        }

        // MARK: Contenders

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            removeFile()
            do {
                let connection = try RawConnection(path: path)
                try connection.execute(Self.noSync)
                try connection.execute(Item.createTable)
                try stopwatch.measure {
                    try connection.execute("BEGIN")
                    let statement = try RawStatement(connection, Item.insert)
                    try withExtendedLifetime(statement) {
                        let handle = statement.handle
                        for item in items {
                            statement.bind(item, startingAt: 1)
                            guard sqlite3_step(handle) == SQLITE_DONE else { throw connection.failure("insert") }
                            sqlite3_reset(handle)
                        }
                    }
                    try connection.execute("COMMIT")
                }
            }
            return try verify()
        }

        /// One Slate iteration: a fresh file and connection with the table created (and `prepare`
        /// run), untimed; `body` timed; the connection closed, then the file verified.
        func slateIteration(
            _ stopwatch: Stopwatch, prepare: (Slate.Database) throws -> Void = { _ in },
            _ body: (Slate.Database) throws -> Void
        ) throws -> Checksum {
            removeFile()
            do {
                let db = try Slate.Database(path: path)
                try db.execute(sql: Self.noSync)
                try db.execute(sql: Item.createTable)
                try prepare(db)
                try stopwatch.measure { try body(db) }
            }
            return try verify()
        }

        /// One GRDB iteration, like `slateIteration`: `body` runs timed inside `dbQueue.write`.
        func grdbIteration(_ stopwatch: Stopwatch, _ body: (GRDB.Database) throws -> Void) throws -> Checksum {
            removeFile()
            do {
                let dbQueue = try GRDB.DatabaseQueue(path: path)
                try dbQueue.inDatabase { db in
                    try db.execute(sql: Self.noSync)
                    try db.execute(sql: Item.createTable)
                }
                try stopwatch.measure { try dbQueue.write(body) }
            }
            return try verify()
        }

        func slatePositional(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch) { db in
                try db.transaction {
                    let statement = try db.prepare(sql: Item.insert)
                    for item in items {
                        try statement.bind(item.i0, at: 1)
                        try statement.bind(item.i1, at: 2)
                        try statement.bind(item.i2, at: 3)
                        try statement.bind(item.i3, at: 4)
                        try statement.bind(item.i4, at: 5)
                        try statement.bind(item.i5, at: 6)
                        try statement.bind(item.i6, at: 7)
                        try statement.bind(item.i7, at: 8)
                        try statement.bind(item.i8, at: 9)
                        try statement.bind(item.i9, at: 10)
                        try statement.run()
                        try statement.reset()
                    }
                }
            }
        }

        /// The typed layer's bulk insert: `INSERT INTO "item" ("i0", …) VALUES (?, …)` prepared once
        /// (inside a savepoint, here nested in the transaction), `Item.encode(to:)` bound per record.
        func slateRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch) { db in try db.transaction { _ = try db.insert(contentsOf: items) } }
        }

        /// `CodableRecord`'s bulk save: the table has no primary key, so every record is inserted,
        /// through one prepared `INSERT`; each record's `Encodable.encode(to:)` binds straight into
        /// its parameters, with the key order cached on the statement. Untimed:
        /// `prepareTable`, which checks once that the table matches the type (it does, so no
        /// migration), as `create table` is untimed for the others.
        func slateCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch, prepare: { db in try db.prepareTable(for: CodableItem.self) }) { db in
                try db.transaction { _ = try db.save(contentsOf: codableItems) }
            }
        }

        /// GRDB at its best documented setting for bulk inserts: one cached statement, arguments set
        /// with `setUncheckedArguments` (no validation per row), then `execute()`.
        func grdbPositional(_ stopwatch: Stopwatch) throws -> Checksum {
            try grdbIteration(stopwatch) { db in
                let statement = try db.cachedStatement(sql: Item.insert)
                for item in items {
                    statement.setUncheckedArguments([
                        item.i0, item.i1, item.i2, item.i3, item.i4,
                        item.i5, item.i6, item.i7, item.i8, item.i9,
                    ])
                    try statement.execute()
                }
            }
        }

        func grdbRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            try grdbIteration(stopwatch) { db in
                for item in items { try item.insert(db) }
            }
        }

        /// GRDB's `Encodable` support: `PersistableRecord.insert(db)` with the synthesized
        /// `encode(to: Encoder)`, the counterpart of `slate-codable`.
        func grdbCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try grdbIteration(stopwatch) { db in
                for item in codableItems { try item.insert(db) }
            }
        }
    }
}
