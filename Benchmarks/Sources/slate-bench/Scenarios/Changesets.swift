import CSQLite
import Foundation
import GRDB
import Slate
import SlateSync

/// Changesets (issue 35): the same rows of `keyed_item(id INTEGER PRIMARY KEY, i0 … i9 INT)`
/// applied as a changeset, and written as plain inserts, each in one transaction into a fresh file;
/// and sync round trips between two replicas.
enum Changesets {
    static let applyScenario = Scenario(
        name: "changeset-apply-50k",
        summary: "the same 50,000 keyed rows of ten INT columns, applied as a changeset or inserted, one transaction"
    ) { context in
        let fixture = try ApplyFixture(context)
        return PreparedScenario(
            rows: fixture.items.count,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-apply", fixture.slateApply),
                Contender("slate-apply-unchecked", fixture.slateApplyUnchecked),
                Contender("slate-positional", fixture.slatePositional),
                Contender("grdb-positional", fixture.grdbPositional),
            ])
    }

    /// With `SLATE_BENCH_SYNC_URL` set to a server's sync routes (`Examples/TodoServer`, started
    /// on loopback with an empty data directory), the same round trips also run over HTTP.
    static let syncScenario = Scenario(
        name: "sync-round-trip",
        summary: "a row written on one replica, pushed, and pulled by another (in memory; HTTP on loopback when "
            + "SLATE_BENCH_SYNC_URL is set)"
    ) { context in
        let fixture = SyncFixture(context)
        var contenders = [Contender("slate-sync-memory", fixture.inMemory)]
        if let url = ProcessInfo.processInfo.environment["SLATE_BENCH_SYNC_URL"].flatMap(URL.init(string:)) {
            contenders.append(Contender("slate-sync-http") { try fixture.http($0, url: url) })
        }
        return PreparedScenario(
            rows: fixture.roundTrips,
            expected: Checksum(rows: fixture.roundTrips, values: [Int64(fixture.roundTrips)]),
            contenders: contenders,
            baseline: nil)
    }

    final class ApplyFixture {
        let items: [KeyedItem]
        let changeset: Changeset
        let expected: Checksum
        let path: String

        init(_ context: BenchmarkContext) throws {
            // A local: the transaction's closure below must not capture `self` before every member is set.
            let items = (0..<context.size(full: 50_000, quick: 5_000)).map {
                KeyedItem(id: $0 + 1, item: Item.generated(row: $0))
            }
            self.items = items
            path = context.path("changeset.sqlite")
            // The changeset, recorded once, untimed: the inserts of every row.
            let scratch = try Slate.Database(location: .inMemory)
            try scratch.execute(sql: KeyedItem.createTable)
            let session = try DatabaseSession(scratch)
            try scratch.transaction {
                let statement = try scratch.prepare(sql: KeyedItem.insert)
                for row in items {
                    try Self.bind(row, to: statement)
                    try statement.run()
                    try statement.reset()
                }
            }
            changeset = try session.changeset()
            let patchset = try session.patchset()
            session.close()
            expected = Checksum(
                rows: items.count,
                values: [
                    Int64(items.count), items.reduce(0) { $0 + Int64($1.id) },
                    items.reduce(0) { $0 + Int64($1.item.i0) },
                    items.reduce(0) { $0 + Int64($1.item.i9) },
                ])
            print(
                String(
                    format: "    changeset: %d bytes for %d rows (%.1f bytes a row); patchset %d bytes",
                    changeset.data.count, items.count, Double(changeset.data.count) / Double(items.count),
                    patchset.data.count))
        }

        static func bind(_ row: KeyedItem, to statement: Slate.Statement) throws {
            try statement.bind(row.id, at: 1)
            let values = [
                row.item.i0, row.item.i1, row.item.i2, row.item.i3, row.item.i4, row.item.i5, row.item.i6, row.item.i7,
                row.item.i8, row.item.i9,
            ]
            for (index, value) in values.enumerated() { try statement.bind(value, at: index + 2) }
        }

        func removeFile() {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
        }

        func verify() throws -> Checksum {
            let values = try RawConnection(path: path, readOnly: true).integers(
                "SELECT count(*), count(*), sum(id), sum(i0), sum(i9) FROM keyed_item")
            return Checksum(rows: Int(values[0]), values: Array(values.dropFirst()))
        }

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            removeFile()
            do {
                let connection = try RawConnection(path: path)
                try connection.execute("PRAGMA synchronous = OFF")
                try connection.execute(KeyedItem.createTable)
                try stopwatch.measure {
                    try connection.execute("BEGIN")
                    let statement = try RawStatement(connection, KeyedItem.insert)
                    try withExtendedLifetime(statement) {
                        let handle = statement.handle
                        for row in items {
                            sqlite3_bind_int64(handle, 1, Int64(row.id))
                            statement.bind(row.item, startingAt: 2)
                            guard sqlite3_step(handle) == SQLITE_DONE else { throw connection.failure("insert") }
                            sqlite3_reset(handle)
                        }
                    }
                    try connection.execute("COMMIT")
                }
            }
            return try verify()
        }

        func slateIteration(_ stopwatch: Stopwatch, _ body: (Slate.Database) throws -> Void) throws -> Checksum {
            removeFile()
            do {
                let db = try Slate.Database(path: path)
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: KeyedItem.createTable)
                try stopwatch.measure { try body(db) }
            }
            return try verify()
        }

        /// `Database.apply`: the changeset's structure and tables checked, then
        /// `sqlite3changeset_apply_v2` with a conflict handler (never called: no conflict).
        func slateApply(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch) { db in
                try db.transaction { try db.apply(changeset) { _ in .abort } }
            }
        }

        /// The same without the table check (the structure is still checked).
        func slateApplyUnchecked(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch) { db in
                try db.transaction {
                    try db.apply(changeset, options: ChangesetApplyOptions(checksTables: false)) { _ in .abort }
                }
            }
        }

        func slatePositional(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch) { db in
                try db.transaction {
                    let statement = try db.prepare(sql: KeyedItem.insert)
                    for row in items {
                        try Self.bind(row, to: statement)
                        try statement.run()
                        try statement.reset()
                    }
                }
            }
        }

        func grdbPositional(_ stopwatch: Stopwatch) throws -> Checksum {
            removeFile()
            do {
                let dbQueue = try GRDB.DatabaseQueue(path: path)
                try dbQueue.inDatabase { db in
                    try db.execute(sql: "PRAGMA synchronous = OFF")
                    try db.execute(sql: KeyedItem.createTable)
                }
                try stopwatch.measure {
                    try dbQueue.write { db in
                        let statement = try db.cachedStatement(sql: KeyedItem.insert)
                        for row in items {
                            statement.setUncheckedArguments([
                                row.id, row.item.i0, row.item.i1, row.item.i2, row.item.i3, row.item.i4, row.item.i5,
                                row.item.i6, row.item.i7, row.item.i8, row.item.i9,
                            ])
                            try statement.execute()
                        }
                    }
                }
            }
            return try verify()
        }
    }

    final class SyncFixture {
        let roundTrips: Int

        init(_ context: BenchmarkContext) {
            roundTrips = context.size(full: 200, quick: 20)
        }

        /// A replica of the benchmark's one table, in memory.
        static func replica(_ id: String) throws -> SyncReplica {
            let queue = try Slate.DatabaseQueue(location: .inMemory)
            try queue.write { db in try db.execute(sql: "CREATE TABLE note(id TEXT PRIMARY KEY, text TEXT NOT NULL)") }
            var configuration = SyncConfiguration(tables: ["note"])
            configuration.replicaID = id
            return try SyncReplica(writer: queue, configuration: configuration)
        }

        /// Untimed: two replicas, the second brought up to date with the log. Timed: `roundTrips`
        /// times, a row written on the first replica, its sync (push, then the pull of its own
        /// entry), and the second replica's sync, which applies it.
        func measureRoundTrips(_ stopwatch: Stopwatch, transport: some SyncTransport) throws -> Checksum {
            let run = UUID().uuidString
            let writer = try Self.replica("writer-" + run)
            let reader = try Self.replica("reader-" + run)
            try blocking { try await reader.sync(with: transport) }
            let trips = roundTrips
            try stopwatch.measure {
                try blocking {
                    for index in 0..<trips {
                        try await writer.write { db in
                            try db.execute("INSERT INTO note VALUES (\(run + "-\(index)"), 'hi')")
                        }
                        try await writer.sync(with: transport)
                        try await reader.sync(with: transport)
                    }
                }
            }
            let count = try reader.writer.read { db in
                try db.fetchValue(Int.self, "SELECT count(*) FROM note WHERE id LIKE \(run + "-%")")
            }
            return Checksum(rows: count, values: [Int64(count)])
        }

        /// Through the in-memory transport, to a server in memory made for the iteration.
        func inMemory(_ stopwatch: Stopwatch) throws -> Checksum {
            let server = try SyncServer(writer: try Slate.DatabaseQueue(location: .inMemory))
            return try measureRoundTrips(stopwatch, transport: InMemorySyncTransport(server: server))
        }

        /// Through HTTP (`HTTPSyncTransport`, URLSession) to the server at `url`.
        func http(_ stopwatch: Stopwatch, url: URL) throws -> Checksum {
            try measureRoundTrips(stopwatch, transport: HTTPSyncTransport(baseURL: url))
        }
    }

    /// Runs async work from the synchronous harness and waits for it.
    static func blocking(_ work: @escaping @Sendable () async throws -> Void) throws {
        final class Box: @unchecked Sendable {
            // @unchecked Sendable: written once before the semaphore is signalled, read after.
            var error: (any Error)?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await work() } catch { box.error = error }
            done.signal()
        }
        done.wait()
        if let error = box.error { throw error }
    }
}
