// slate-pg-bench: typed fetch and typed insert through SlatePostgres against hand-written
// postgres-nio code, on the same PostgreSQL server in the same run.
//
//     swift run -c release --package-path Benchmarks slate-pg-bench [--quick] [--rounds N]
//
// It starts its own server as the tests do (initdb + pg_ctl on a temporary directory, a Unix socket,
// trust authentication; as the `postgres` user when run as root) and stops it at the end. Without
// PostgreSQL's server binaries it prints "skipped: no PostgreSQL server" and exits 0.
import Foundation
import Logging
import PostgresNIO
import Slate
import SlatePostgres

struct Item: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var name: String
    var score: Double
    var count: Int64

    static let schema = TableSchema(
        name: "item",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "score", type: "REAL", isNotNull: true),
            .init(name: "count", type: "INTEGER", isNotNull: true),
        ])

    struct Columns: TableColumns {
        let id: Column<Item, Int64?>
        let name: Column<Item, String>
        let score: Column<Item, Double>
        let count: Column<Item, Int64>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
            score = Column(qualifier, "score")
            count = Column(qualifier, "count")
        }
    }

    init(id: Int64? = nil, name: String, score: Double, count: Int64) {
        self.id = id
        self.name = name
        self.score = score
        self.count = count
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        score = try row.decode(at: 2)
        count = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(score)
        try encoder.encode(count)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}

// MARK: The server

func serverBinaries() -> String? {
    let fileManager = FileManager.default
    let versions = (try? fileManager.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
        let directory = "/usr/lib/postgresql/\(version)/bin"
        if fileManager.isExecutableFile(atPath: directory + "/initdb") { return directory }
    }
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    where fileManager.isExecutableFile(atPath: directory + "/initdb") {
        return String(directory)
    }
    return nil
}

struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

func run(_ executable: String, _ arguments: [String], asServerUser: Bool) throws {
    let asOther = asServerUser && getuid() == 0
    let command = asOther ? "/usr/sbin/runuser" : executable
    let all = asOther ? ["-u", "postgres", "--", executable] + arguments : arguments
    // posix_spawn and waitpid (Foundation's Process can miss pg_ctl's exit); output to a file the
    // server may inherit.
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("slate-pg-bench-command-\(getpid()).log").path
    defer { try? FileManager.default.removeItem(atPath: log) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv: [UnsafeMutablePointer<CChar>?] = ([command] + all).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawn(&pid, command, &actions, nil, argv, environ) == 0 else {
        throw CommandFailure(description: "cannot run \(command)")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else { throw CommandFailure(description: "waitpid failed for \(command)") }
    }
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        throw CommandFailure(description: "\(executable) failed: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
    }
}

// MARK: Measuring

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let elapsed = try await clock.measure { try await body() }
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// Times `contenders` in alternating order, round after round, and prints each one's median and
/// its ratio to the first (the hand-written code).
func compare(_ scenario: String, rounds: Int, _ contenders: [(String, () async throws -> Void)]) async throws {
    var times = Array(repeating: [Double](), count: contenders.count)
    for round in 0..<(rounds + 1) {
        let order = round % 2 == 0 ? Array(contenders.indices) : Array(contenders.indices.reversed())
        for index in order {
            let elapsed = try await seconds(contenders[index].1)
            if round > 0 { times[index].append(elapsed) }  // round 0 warms up
        }
    }
    let baseline = median(times[0])
    for (index, contender) in contenders.enumerated() {
        let value = median(times[index])
        print(
            String(
                format: "%-22@ %-22@ median %9.2f ms   min %9.2f ms   ratio %.3f", scenario as NSString,
                contender.0 as NSString, value * 1000, (times[index].min() ?? 0) * 1000, value / baseline))
    }
}

// MARK: Main

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let rounds = arguments.firstIndex(of: "--rounds").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? (quick ? 3 : 10)
let rowCount = quick ? 2_000 : 20_000
let insertCount = quick ? 500 : 5_000

guard let bin = serverBinaries() else {
    print("skipped: no PostgreSQL server (initdb not found in /usr/lib/postgresql/*/bin or on PATH)")
    exit(0)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slate-pg-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", directory], asServerUser: false) }
try run(bin + "/initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"], asServerUser: true)
try run(
    bin + "/pg_ctl",
    ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-o", "-k \(directory) -c listen_addresses='' -F", "start"],
    asServerUser: true)
defer {
    try? run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asServerUser: true)
    try? FileManager.default.removeItem(atPath: directory)
}

let client = PostgresClient(
    configuration: .init(unixSocketPath: directory + "/.s.PGSQL.5432", username: "postgres", password: nil, database: "postgres"))
let logger = Logger(label: "slate-pg-bench", factory: { _ in SwiftLogNoOpLogHandler() })
let runner = Task { await client.run() }
let pg = PostgreSQLDatabase(client: client)

print("PostgreSQL \(bin); \(rowCount) rows fetched, \(insertCount) rows inserted per iteration; \(rounds) rounds after 1 warm-up, alternating order")
try await pg.createTable(for: Item.self)
try await pg.transaction { tx in
    for index in 0..<rowCount {
        try await tx.insert(Item(name: "item \(index)", score: Double(index) / 4, count: Int64(index)))
    }
}

// Typed fetch: every row into a struct.
var checksum = 0
try await compare(
    "fetch-all-\(rowCount)", rounds: rounds,
    [
        (
            "postgres-nio", {
                let rows = try await client.query("SELECT id, name, score, count FROM item", logger: logger)
                var items: [Item] = []
                for try await (id, name, score, count) in rows.decode((Int64, String, Double, Int64).self) {
                    items.append(Item(id: id, name: name, score: score, count: count))
                }
                checksum &+= items.count
            }
        ),
        (
            "slate-postgres", {
                let items = try await Item.all().fetchAll(pg)
                checksum &+= items.count
            }
        ),
    ])

// Typed insert: one statement per record, in a transaction, reading back the key.
try await compare(
    "insert-\(insertCount)", rounds: rounds,
    [
        (
            "postgres-nio", {
                try await client.withTransaction(logger: logger) { connection in
                    for index in 0..<insertCount {
                        var item = Item(name: "new \(index)", score: 1.5, count: Int64(index))
                        let rows = try await connection.query(
                            "INSERT INTO item (name, score, count) VALUES (\(item.name), \(item.score), \(item.count)) RETURNING id",
                            logger: logger)
                        for try await id in rows.decode(Int64.self) { item.id = id }
                        checksum &+= Int(item.id ?? 0)
                    }
                }
            }
        ),
        (
            "slate-postgres", {
                checksum &+= try await insertThroughSlate(pg, count: insertCount)
            }
        ),
    ])
print("checksum \(checksum)")

/// The Slate contender of insert-N, outside the main actor: its transaction body captures only locals.
func insertThroughSlate(_ pg: PostgreSQLDatabase, count: Int) async throws -> Int {
    try await pg.transaction { tx in
        var sum = 0
        for index in 0..<count {
            let item = try await tx.insert(Item(name: "new \(index)", score: 1.5, count: Int64(index)))
            sum &+= Int(item.id ?? 0)
        }
        return sum
    }
}
runner.cancel()
