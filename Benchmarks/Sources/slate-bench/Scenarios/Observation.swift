import CSQLite
import Dispatch
import Foundation
import GRDB
import Slate

// Live queries against GRDB's `ValueObservation`, on a WAL pool each.
//
// - `observe-write-20k` (a harness scenario): a 20,000-row write transaction into a pool that 0 or
//   100 live queries of an unrelated table observe. The ratio of `slate-observers-100` to
//   `slate-observers-0` is the cost live queries add to the writes they do not care about.
// - `--observation-report` (not a harness scenario, since it counts and takes percentiles rather
//   than timing one region): refetches caused by 1,000 unrelated commits, and commit-to-delivery
//   latency for 1 and 100 observers.

/// The table the live queries read, and the statements both libraries run.
enum ObservedSchema {
    static let createTables = """
        CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
        CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE other(id INTEGER PRIMARY KEY, x INTEGER NOT NULL);
        """
    static let seed = """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
        INSERT INTO player(id, name, score) SELECT i, 'p' || i, i FROM n;
        INSERT INTO other(x) SELECT score FROM player;
        """
}

/// `player(id INTEGER PRIMARY KEY, name, score)` for Slate's typed queries (row-level regions).
struct ObservedPlayer: Slate.PrimaryKeyedTable {
    var id: Int64?
    var name: String
    var score: Int64

    static let schema = TableSchema(
        name: "player",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "score", type: "INTEGER", isNotNull: true),
        ])

    struct Columns: TableColumns {
        let id: Slate.Column<ObservedPlayer, Int64?>
        let name: Slate.Column<ObservedPlayer, String>
        let score: Slate.Column<ObservedPlayer, Int64>
        init(qualifier: String) {
            id = Slate.Column(qualifier, "id")
            name = Slate.Column(qualifier, "name")
            score = Slate.Column(qualifier, "score")
        }
    }

    init(row: borrowing Slate.Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        score = try row.decode(at: 2)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(score)
    }

    var primaryKey: Int64? { id }
}

/// A counter and a latch, shared with observation callbacks on other threads.
final class ObservationProbe: @unchecked Sendable {
    // @unchecked Sendable: every stored property is only touched while `lock` is held.
    private let lock = NSLock()
    private var fetches = 0
    private var expected: String?
    private var pending = 0
    private var start: ContinuousClock.Instant?
    private var samples: [Duration] = []
    private let done = DispatchSemaphore(value: 0)

    func fetched() {
        lock.lock()
        fetches += 1
        lock.unlock()
    }

    var fetchCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return fetches
    }

    /// Expects `count` deliveries of `value`; the write that produces it calls `markCommit()`.
    func expect(_ value: String, count: Int) {
        lock.lock()
        expected = value
        pending = count
        start = nil
        lock.unlock()
    }

    /// Called inside the write, after its last statement: the commit follows.
    func markCommit() {
        lock.lock()
        start = ContinuousClock.now
        lock.unlock()
    }

    func delivered(_ value: String?) {
        let now = ContinuousClock.now
        lock.lock()
        guard let expected, value == expected, pending > 0 else {
            lock.unlock()
            return
        }
        if let start { samples.append(now - start) }
        pending -= 1
        let finished = pending == 0
        if finished { self.expected = nil }
        lock.unlock()
        if finished { done.signal() }
    }

    /// Waits for the expected deliveries; throws after 30 s.
    func wait() throws {
        guard done.wait(timeout: .now() + 30) == .success else { throw HarnessError("live query value never arrived") }
    }

    var latencies: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return samples
    }

    func resetLatencies() {
        lock.lock()
        samples = []
        lock.unlock()
    }
}

enum ObservationBenchmarks {
    // MARK: - observe-write-20k

    static let writeScenario = Scenario(
        name: "observe-write-20k",
        summary: "a 20,000-row write transaction into a WAL pool with 0 and 100 live queries of an unrelated table"
    ) { context in
        let fixture = try WriteFixture(context)
        return PreparedScenario(
            rows: fixture.items.count,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-observers-0", fixture.slateUnobserved),
                Contender("slate-observers-100", fixture.slateObserved),
                Contender("grdb-observers-0", fixture.grdbUnobserved),
                Contender("grdb-observers-100", fixture.grdbObserved),
            ])
    }

    final class WriteFixture {
        let items: [Item]
        let expected: Checksum
        let rawPath: String
        let slateUnobservedPool: Slate.DatabasePool
        let slateObservedPool: Slate.DatabasePool
        let grdbUnobservedPool: GRDB.DatabasePool
        let grdbObservedPool: GRDB.DatabasePool
        /// Kept for the scenario's lifetime: the live queries of the `-100` contenders.
        var slateTokens: [DatabaseObservationToken] = []
        var grdbCancellables: [AnyDatabaseCancellable] = []
        static let observerCount = 100

        init(_ context: BenchmarkContext) throws {
            items = (0..<context.size(full: 20_000, quick: 2_000)).map { Item.generated(row: $0) }
            expected = Checksum(rows: items.count, values: [items.reduce(0) { $0 + Int64($1.i0) }])
            rawPath = context.path("raw.sqlite")
            let raw = try RawConnection(path: rawPath)
            try raw.execute("PRAGMA journal_mode = WAL")
            try raw.execute(Item.createTable)

            func prepare(_ name: String) -> String { context.path(name) }
            slateUnobservedPool = try Slate.DatabasePool(path: prepare("slate-0.sqlite"))
            slateObservedPool = try Slate.DatabasePool(path: prepare("slate-100.sqlite"))
            for pool in [slateUnobservedPool, slateObservedPool] {
                try pool.write { db in
                    try db.execute(sql: ObservedSchema.createTables + Item.createTable)
                    try db.execute(sql: ObservedSchema.seed)
                }
            }
            grdbUnobservedPool = try GRDB.DatabasePool(path: prepare("grdb-0.sqlite"))
            grdbObservedPool = try GRDB.DatabasePool(path: prepare("grdb-100.sqlite"))
            for pool in [grdbUnobservedPool, grdbObservedPool] {
                try pool.write { db in
                    try db.execute(sql: ObservedSchema.createTables + Item.createTable)
                    try db.execute(sql: ObservedSchema.seed)
                }
            }

            // 100 live queries of `other`, each its own threshold; all started before timing.
            let probe = ObservationProbe()
            probe.expect("ready", count: Self.observerCount * 2)
            let queue = DispatchQueue(label: "slate-bench.observers")
            for index in 0..<Self.observerCount {
                slateTokens.append(
                    slateObservedPool.observe(
                        { db in
                            try db.fetchValue(Int.self, "SELECT count(*) FROM other WHERE x > \(index * 10)")
                        }, queue: queue, onError: { print("slate observation failed: \($0)") },
                        onChange: { _ in probe.delivered("ready") }))
                grdbCancellables.append(
                    ValueObservation.tracking { db in
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM other WHERE x > ?", arguments: [index * 10])
                    }.start(
                        in: grdbObservedPool, scheduling: .async(onQueue: queue),
                        onError: { print("GRDB observation failed: \($0)") },
                        onChange: { _ in probe.delivered("ready") }))
            }
            try probe.wait()
        }

        static let verificationSQL = "SELECT count(*), sum(i0) FROM item"

        func verify(_ path: String) throws -> Checksum {
            let values = try RawConnection(path: path, readOnly: true).integers(Self.verificationSQL)
            return Checksum(rows: Int(values[0]), values: [values[1]])
        }

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            let connection = try RawConnection(path: rawPath)
            try connection.execute("DELETE FROM item")
            try stopwatch.measure {
                try connection.execute("BEGIN IMMEDIATE")
                let statement = try RawStatement(connection, Item.insert)
                try withExtendedLifetime(statement) {
                    for item in items {
                        statement.bind(item, startingAt: 1)
                        guard sqlite3_step(statement.handle) == SQLITE_DONE else { throw connection.failure("insert") }
                        sqlite3_reset(statement.handle)
                    }
                }
                try connection.execute("COMMIT")
            }
            return try verify(rawPath)
        }

        func slateUnobserved(_ stopwatch: Stopwatch) throws -> Checksum {
            try slate(slateUnobservedPool, stopwatch)
        }

        func slateObserved(_ stopwatch: Stopwatch) throws -> Checksum {
            try slate(slateObservedPool, stopwatch)
        }

        func slate(_ pool: Slate.DatabasePool, _ stopwatch: Stopwatch) throws -> Checksum {
            try pool.write { db in try db.execute(sql: "DELETE FROM item") }
            try stopwatch.measure { try slateInsertItems(items, into: pool) }
            return try pool.read { db in
                let row = try db.fetchAll(Int64.self, "SELECT count(*) FROM item UNION ALL SELECT sum(i0) FROM item")
                return Checksum(rows: Int(row[0]), values: [row[1]])
            }
        }

        func grdbUnobserved(_ stopwatch: Stopwatch) throws -> Checksum {
            try grdb(grdbUnobservedPool, stopwatch)
        }

        func grdbObserved(_ stopwatch: Stopwatch) throws -> Checksum {
            try grdb(grdbObservedPool, stopwatch)
        }

        func grdb(_ pool: GRDB.DatabasePool, _ stopwatch: Stopwatch) throws -> Checksum {
            try pool.write { db in try db.execute(sql: "DELETE FROM item") }
            try stopwatch.measure { try grdbInsertItems(items, into: pool) }
            return try pool.read { db in
                let count = try Int64.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0
                let sum = try Int64.fetchOne(db, sql: "SELECT sum(i0) FROM item") ?? 0
                return Checksum(rows: Int(count), values: [sum])
            }
        }
    }

    // MARK: - The report: refetch counts and latency

    /// Runs both measurements for both libraries and prints them.
    static func report(quick: Bool, directory: URL) throws {
        let commits = quick ? 100 : 10_000
        let latencyRounds = quick ? 200 : 10_000
        print("Live queries: refetches caused by \(commits) commits to unrelated columns, rows and tables")
        print("(the read: name of player 1, a typed query pinned on the primary key; one commit cycles through")
        print(" UPDATE player SET score … WHERE id = 1, UPDATE player SET name … WHERE id = 2,")
        print(" INSERT INTO team, UPDATE team SET name)")
        let slateRefetches = try slateRefetchCount(
            commits: commits, path: directory.appendingPathComponent("r-slate.sqlite").path)
        let grdbRefetches = try grdbRefetchCount(
            commits: commits, path: directory.appendingPathComponent("r-grdb.sqlite").path)
        print("  slate: \(slateRefetches) refetches    grdb: \(grdbRefetches) refetches")
        print()
        print("Live queries: commit-to-delivery latency (from the last statement of the")
        print("write transaction, so the commit itself is included, to the callback on a serial queue)")
        print("Both libraries at synchronous = NORMAL (GRDB's pool default), then both at FULL (Slate's).")
        for (observers, level) in [(1, Durability.normal), (100, .normal), (1, .full)] {
            // 100 observers: a tenth of the commits, each delivered 100 times. At FULL each commit
            // waits for the disk's flush: a tenth of the commits too.
            let rounds = observers == 1 && level == .normal ? latencyRounds : latencyRounds / 10
            let name = "\(observers)-\(level.rawValue)"
            let slate = try slateLatencies(
                observers: observers, rounds: rounds, level: level,
                path: directory.appendingPathComponent("l-slate-\(name).sqlite").path)
            let grdb = try grdbLatencies(
                observers: observers, rounds: rounds, level: level,
                path: directory.appendingPathComponent("l-grdb-\(name).sqlite").path)
            print(
                "  \(level.rawValue), \(observers) observer(s), \(rounds) commits:"
                    + " slate p50 \(format(percentile(slate, 0.5))) p99 \(format(percentile(slate, 0.99)))"
                    + "    grdb p50 \(format(percentile(grdb, 0.5))) p99 \(format(percentile(grdb, 0.99)))")
        }
    }

    static func percentile(_ samples: [Duration], _ fraction: Double) -> Duration {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .zero }
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index]
    }

    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        return microseconds >= 1000
            ? String(format: "%.2f ms", microseconds / 1000) : String(format: "%.0f µs", microseconds)
    }

    /// The unrelated write number `index`: another column of the row read, another row, another
    /// table (insert, then update).
    static func unrelatedWrite(_ index: Int) -> String {
        switch index % 4 {
        case 0: "UPDATE player SET score = score + 1 WHERE id = 1"
        case 1: "UPDATE player SET name = 'n\(index)' WHERE id = 2"
        case 2: "INSERT INTO team(name) VALUES ('t\(index)')"
        default: "UPDATE team SET name = 'u\(index)'"
        }
    }

    static func slateRefetchCount(commits: Int, path: String) throws -> Int {
        let pool = try Slate.DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: ObservedSchema.createTables)
            try db.execute(sql: ObservedSchema.seed)
        }
        let probe = ObservationProbe()
        probe.expect("p1", count: 1)
        let token = pool.observe(
            { db in
                probe.fetched()
                return try ObservedPlayer.where { $0.id == 1 }.select { $0.name }.fetchAll(db).first
            }, queue: DispatchQueue(label: "slate-bench.refetch"),
            onError: { print("slate observation failed: \($0)") },
            onChange: { probe.delivered($0) })
        try probe.wait()
        for index in 0..<commits {
            try pool.write { db in try db.execute(sql: unrelatedWrite(index)) }
        }
        probe.expect("last", count: 1)
        try pool.write { db in try db.execute(sql: "UPDATE player SET name = 'last' WHERE id = 1") }
        try probe.wait()
        token.cancel()
        return probe.fetchCount - 2  // the first fetch and the one after the related write
    }

    static func grdbRefetchCount(commits: Int, path: String) throws -> Int {
        let pool = try GRDB.DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: ObservedSchema.createTables)
            try db.execute(sql: ObservedSchema.seed)
        }
        let probe = ObservationProbe()
        probe.expect("p1", count: 1)
        let request = GRDB.Table<GRDB.Row>("player").all().filter(key: 1).select(GRDB.Column("name"), as: String.self)
        let cancellable = ValueObservation.tracking { db in
            probe.fetched()
            return try request.fetchOne(db)
        }.start(
            in: pool, scheduling: .async(onQueue: DispatchQueue(label: "grdb-bench.refetch")),
            onError: { print("GRDB observation failed: \($0)") }, onChange: { probe.delivered($0) })
        try probe.wait()
        for index in 0..<commits {
            try pool.write { db in try db.execute(sql: unrelatedWrite(index)) }
        }
        probe.expect("last", count: 1)
        try pool.write { db in try db.execute(sql: "UPDATE player SET name = 'last' WHERE id = 1") }
        try probe.wait()
        cancellable.cancel()
        return probe.fetchCount - 2
    }

    static func slateLatencies(observers: Int, rounds: Int, level: Durability, path: String) throws -> [Duration] {
        let pool = try Slate.DatabasePool(path: path, configuration: Durability.slate(level))
        try Durability.check(pool, level)
        try pool.write { db in
            try db.execute(sql: ObservedSchema.createTables)
            try db.execute(sql: ObservedSchema.seed)
        }
        let probe = ObservationProbe()
        probe.expect("p1", count: observers)
        let tokens = (0..<observers).map { index in
            pool.observe(
                { db in try db.fetchValue(String.self, "SELECT name FROM player WHERE id = 1") },
                queue: DispatchQueue(label: "slate-bench.latency.\(index)"),
                onError: { print("slate observation failed: \($0)") },
                onChange: { probe.delivered($0) })
        }
        try probe.wait()
        probe.resetLatencies()
        for round in 0..<rounds {
            probe.expect("v\(round)", count: observers)
            try pool.write { db in
                try db.execute(sql: "UPDATE player SET name = 'v\(round)' WHERE id = 1")
                probe.markCommit()
            }
            try probe.wait()
        }
        for token in tokens { token.cancel() }
        return probe.latencies
    }

    static func grdbLatencies(observers: Int, rounds: Int, level: Durability, path: String) throws -> [Duration] {
        let pool = try Durability.grdbPool(path: path, level)
        try pool.write { db in
            try db.execute(sql: ObservedSchema.createTables)
            try db.execute(sql: ObservedSchema.seed)
        }
        let probe = ObservationProbe()
        probe.expect("p1", count: observers)
        let cancellables = (0..<observers).map { index in
            ValueObservation.tracking { db in try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 1") }
                .start(
                    in: pool, scheduling: .async(onQueue: DispatchQueue(label: "grdb-bench.latency.\(index)")),
                    onError: { print("GRDB observation failed: \($0)") }, onChange: { probe.delivered($0) })
        }
        try probe.wait()
        probe.resetLatencies()
        for round in 0..<rounds {
            probe.expect("v\(round)", count: observers)
            try pool.write { db in
                try db.execute(sql: "UPDATE player SET name = 'v\(round)' WHERE id = 1")
                probe.markCommit()
            }
            try probe.wait()
        }
        for cancellable in cancellables { cancellable.cancel() }
        return probe.latencies
    }
}

/// The timed part of `slate-observers-*`, a function of its own so that callgrind reports it.
@inline(never)
func slateInsertItems(_ items: [Item], into pool: Slate.DatabasePool) throws {
    try pool.write { db in
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

/// The timed part of `grdb-observers-*`.
@inline(never)
func grdbInsertItems(_ items: [Item], into pool: GRDB.DatabasePool) throws {
    try pool.write { db in
        let statement = try db.cachedStatement(sql: Item.insert)
        for item in items {
            try statement.execute(arguments: [
                item.i0, item.i1, item.i2, item.i3, item.i4,
                item.i5, item.i6, item.i7, item.i8, item.i9,
            ])
        }
    }
}
