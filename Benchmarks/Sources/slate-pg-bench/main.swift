// slate-pg-bench: typed fetch and typed insert through SlatePostgres against hand-written
// postgres-nio code and Fluent (FluentPeers.swift), on the same PostgreSQL server in the same run.
// Before the timed rounds, each contender runs once and is checked (`Scenario.check`).
//
//     swift run -c release --package-path Benchmarks slate-pg-bench [--quick] [--rounds N] [--instructions]
//         [--scenario PREFIX] [--contenders NAMES] [--keep-callgrind DIRECTORY]
//
// `--scenario fetch` / `--scenario insert`: only the scenarios whose name starts with PREFIX (each
// with all its contenders, so the hand-written code is still measured in the same run).
// `--contenders slate-postgres`: only the contenders named (comma-separated) beside the hand-written
// baseline, which always runs (a partial run without Fluent's callgrind children takes a minute
// instead of seven).
// `--keep-callgrind DIRECTORY`: with `--instructions`, keeps each child's callgrind output there
// (`<scenario>_<contender>-<iterations>.out`, for `callgrind_annotate --inclusive=yes`).
//
// It starts its own server as the tests do (initdb + pg_ctl on a temporary directory, a Unix socket,
// trust authentication; as the `postgres` user when run as root) and stops it at the end. Without
// PostgreSQL's server binaries it prints "skipped: no PostgreSQL server" and exits 0.
//
// `--instructions`: after the timed rounds, each contender runs again in child processes of this
// executable under `valgrind --tool=callgrind`, connected to the same server: one process with a
// warm-up and 1 iteration, one with a warm-up and 3; half the difference of their totals is one
// iteration. The server is another process, which callgrind does not see, so the counts are the
// client's work only (Slate or the hand-written code, postgres-nio, SwiftNIO, in every thread of
// the process).
import CallgrindControl
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
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("slate-pg-bench-command-\(getpid()).log")
        .path
    defer { try? FileManager.default.removeItem(atPath: log) }
    try spawn(command, all, log: log)
}

/// Runs `command` with `arguments`, its output in `log`, and waits for it; throws when it fails.
func spawn(_ command: String, _ arguments: [String], log: String) throws {
    let executable = command
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv: [UnsafeMutablePointer<CChar>?] = ([command] + arguments).map { strdup($0) } + [nil]
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
        throw CommandFailure(
            description: "\(executable) failed: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
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

/// One way of doing a scenario's work.
struct Contender {
    let name: String
    let body: () async throws -> Void
    init(_ name: String, _ body: @escaping () async throws -> Void) {
        self.name = name
        self.body = body
    }
}

/// A scenario: its contenders, the hand-written code first (the baseline of the ratios), and what
/// runs after each contender's iteration, untimed and uncounted, so that every iteration starts
/// from the same table.
struct Scenario {
    let name: String
    var contenders: [Contender]
    var reset: () async throws -> Void = {}
    /// Checks one iteration of a contender, before `reset`: `produced` is what it added to the
    /// checksum. Throws when the contender did not do the scenario's work.
    var check: (_ produced: Int) async throws -> Void = { _ in }
}

/// Before the timed rounds: each of `scenario`'s contenders once, checked by the scenario's
/// `check`, so that a contender that reads or writes the wrong rows fails the run instead of
/// being timed.
func checkContenders(of scenario: Scenario) async throws {
    for contender in scenario.contenders {
        let before = checksum.total
        try await contender.body()
        do {
            try await scenario.check(checksum.total &- before)
        } catch {
            throw CommandFailure(description: "\(scenario.name) \(contender.name): \(error)")
        }
        try await scenario.reset()
    }
}

/// Times `scenario`'s contenders in alternating order, round after round, and returns each one's
/// median and minimum, in seconds.
func time(_ scenario: Scenario, rounds: Int) async throws -> [(median: Double, minimum: Double)] {
    let contenders = scenario.contenders
    var times = Array(repeating: [Double](), count: contenders.count)
    for round in 0..<(rounds + 1) {
        let order = round % 2 == 0 ? Array(contenders.indices) : Array(contenders.indices.reversed())
        for index in order {
            let elapsed = try await seconds(contenders[index].body)
            try await scenario.reset()
            if round > 0 { times[index].append(elapsed) }  // round 0 warms up
        }
    }
    return times.map { (median($0), $0.min() ?? 0) }
}

/// In a callgrind child: one warm-up iteration of `contender`, then `iterations` more, each
/// followed by the scenario's reset.
func repeatIterations(of contender: Contender, in scenario: Scenario, iterations: Int) async throws {
    for _ in 0...iterations {
        try await contender.body()
        try await scenario.reset()
    }
}

/// Runs this executable under callgrind, once per contender and iteration count, as a client of
/// the server in `socketDirectory`, and returns each `scenario|contender`'s instructions for one
/// iteration: the difference between a process that runs 3 iterations and one that runs 1 (each
/// after a warm-up), halved. Whole-process counts, because callgrind's per-region counts
/// (client requests that start and stop instrumentation and dump) came out inconsistent, even
/// negative, for regions where several threads take turns (the insert's round trips).
func countInstructions(_ scenarios: [Scenario], socketDirectory: String) throws -> [String: Int] {
    guard slate_bench_callgrind_available() != 0 else {
        throw CommandFailure(
            description:
                "--instructions: slate-pg-bench was built without valgrind/callgrind.h (apt-get install valgrind)")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "slate-pg-bench-callgrind-\(getpid())"
    ).path
    try? FileManager.default.removeItem(atPath: directory)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // Valgrind 3.19 cannot read the DWARF 5 debug information of the C modules (BoringSSL, …) and
    // gives up: the child is a copy without debug information (the symbol table stays, so
    // callgrind_annotate still names functions).
    let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).path
    try spawn(
        "/usr/bin/env", ["objcopy", "--strip-debug", executable, directory + "/slate-pg-bench"],
        log: directory + "/objcopy.log")
    var counts: [String: Int] = [:]
    for scenario in scenarios {
        for contender in scenario.contenders {
            var totals: [Int] = []
            for iterations in [1, 3] {
                let output = "\(directory)/cg.out"
                try? FileManager.default.removeItem(atPath: output)
                var childArguments = [
                    ProcessInfo.processInfo.environment["VALGRIND"] ?? "valgrind", "--tool=callgrind",
                    "--callgrind-out-file=\(output)",
                    directory + "/slate-pg-bench", "--callgrind-child", socketDirectory, "--child-contender",
                    "\(scenario.name)|\(contender.name)", "--child-iterations", String(iterations),
                ]
                if quick { childArguments.append("--quick") }
                try spawn("/usr/bin/env", childArguments, log: directory + "/child.log")
                if let keptCallgrindDirectory {
                    try? FileManager.default.createDirectory(
                        atPath: keptCallgrindDirectory, withIntermediateDirectories: true)
                    let kept = "\(keptCallgrindDirectory)/\(scenario.name)_\(contender.name)-\(iterations).out"
                    try? FileManager.default.removeItem(atPath: kept)
                    try FileManager.default.copyItem(atPath: output, toPath: kept)
                }
                // `summary: <Ir>`: the whole process's instructions, every thread.
                let text = try String(contentsOfFile: output, encoding: .utf8)
                guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
                    let total = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
                else {
                    throw CommandFailure(
                        description: "callgrind wrote no summary for \(scenario.name)|\(contender.name)")
                }
                totals.append(total)
            }
            counts["\(scenario.name)|\(contender.name)"] = (totals[1] - totals[0]) / 2
        }
    }
    return counts
}

// MARK: The contenders

enum BenchFailure: Error {
    case missingColumn
}

/// The scenarios, on `client`/`pg`; `checksum` accumulates what each contender produced.
func scenarios(
    client: PostgresClient, pg: PostgreSQLDatabase, fluent: FluentPostgres, logger: Logger, rowCount: Int,
    insertCount: Int
) -> [Scenario] {
    [
        // Typed fetch: every row into a struct.
        Scenario(
            name: "fetch-all-\(rowCount)",
            contenders: [
                // Hand-written the way postgres-nio's row API reads: each row's cells in order
                // through the row's iterator, each decoded with `PostgresCell.decode`.
                Contender("postgres-nio-cells") {
                    let rows = try await client.query("SELECT id, name, score, count FROM item", logger: logger)
                    var items: [Item] = []
                    for try await row in rows {
                        var cells = row.makeIterator()
                        guard let id = cells.next(), let name = cells.next(), let score = cells.next(),
                            let count = cells.next()
                        else {
                            throw BenchFailure.missingColumn
                        }
                        items.append(
                            Item(
                                id: try id.decode(Int64.self), name: try name.decode(String.self),
                                score: try score.decode(Double.self),
                                count: try count.decode(Int64.self)))
                    }
                    checksum.add(items.count)
                },
                // The same through `PostgresRandomAccessRow` (cells by index).
                Contender("postgres-nio-random") {
                    let rows = try await client.query("SELECT id, name, score, count FROM item", logger: logger)
                    var items: [Item] = []
                    for try await row in rows {
                        let cells = PostgresRandomAccessRow(row)
                        items.append(
                            Item(
                                id: try cells[0].decode(Int64.self), name: try cells[1].decode(String.self),
                                score: try cells[2].decode(Double.self), count: try cells[3].decode(Int64.self)))
                    }
                    checksum.add(items.count)
                },
                // postgres-nio's documented typed decode of whole rows (variadic tuples).
                Contender("postgres-nio-tuples") {
                    let rows = try await client.query("SELECT id, name, score, count FROM item", logger: logger)
                    var items: [Item] = []
                    for try await (id, name, score, count) in rows.decode((Int64, String, Double, Int64).self) {
                        items.append(Item(id: id, name: name, score: score, count: count))
                    }
                    checksum.add(items.count)
                },
                Contender("slate-postgres") {
                    let items = try await Item.all().fetchAll(pg)
                    checksum.add(items.count)
                },
            ] + fluent.contenders(scenario: "fetch-all", insertCount: insertCount),
            check: { produced in
                guard produced == rowCount else {
                    throw CommandFailure(description: "fetched \(produced) rows, expected \(rowCount)")
                }
            }),
        // Typed insert: one statement per record, in a transaction, reading back the key.
        Scenario(
            name: "insert-\(insertCount)",
            contenders: [
                Contender("postgres-nio") {
                    try await client.withTransaction(logger: logger) { connection in
                        for index in 0..<insertCount {
                            var item = Item(name: "new \(index)", score: 1.5, count: Int64(index))
                            let rows = try await connection.query(
                                "INSERT INTO item (name, score, count) VALUES (\(item.name), \(item.score), \(item.count)) RETURNING id",
                                logger: logger)
                            for try await id in rows.decode(Int64.self) { item.id = id }
                            checksum.add(Int(item.id ?? 0))
                        }
                    }
                },
                Contender("slate-postgres") {
                    checksum.add(try await insertThroughSlate(pg, count: insertCount))
                },
            ] + fluent.contenders(scenario: "insert", insertCount: insertCount),
            // The fetched rows have ids 1...rowCount: the inserted ones go, so that fetch-all
            // always reads rowCount rows (also in the callgrind child, which runs after).
            reset: { try await pg.execute("DELETE FROM item WHERE id > \(Int64(rowCount))") },
            // Each contender adds the keys it read back: the new rows' count and key sum must match.
            check: { produced in
                let rows = try await client.query(
                    "SELECT count(*)::bigint, coalesce(sum(id), 0)::bigint FROM item WHERE id > \(Int64(rowCount))",
                    logger: logger)
                for try await (count, keys) in rows.decode((Int64, Int64).self) {
                    guard count == Int64(insertCount), keys == Int64(produced) else {
                        throw CommandFailure(
                            description:
                                "\(count) new rows with key sum \(keys), expected \(insertCount) rows with key sum \(produced)"
                        )
                    }
                }
            }),
    ]
}

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

/// What the contenders produced, so that the optimizer cannot drop their work.
final class Checksum: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add(_ amount: Int) { lock.withLock { value &+= amount } }
    var total: Int { lock.withLock { value } }
}
let checksum = Checksum()

// MARK: Main

let arguments = CommandLine.arguments
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        """
        usage: slate-pg-bench [--quick] [--rounds N] [--instructions] [--scenario PREFIX] [--contenders NAMES]
              [--keep-callgrind DIRECTORY]
          --quick                     2,000 rows fetched and 500 inserted, 3 rounds (default 20,000 and 5,000, 10 rounds)
          --rounds N                  timed rounds after the warm-up round
          --instructions              then each contender's client instructions under valgrind --tool=callgrind
          --scenario PREFIX           only the scenarios whose name starts with PREFIX (fetch, insert)
          --contenders NAMES          only these contenders (comma-separated) beside the baseline
          --keep-callgrind DIRECTORY  with --instructions, keep each callgrind child's output there
        """)
    exit(0)
}
let quick = arguments.contains("--quick")
let rounds =
    arguments.firstIndex(of: "--rounds").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
    ?? (quick ? 3 : 10)
let rowCount = quick ? 2_000 : 20_000
let insertCount = quick ? 500 : 5_000
let childSocketDirectory = arguments.firstIndex(of: "--callgrind-child").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let childContender = arguments.firstIndex(of: "--child-contender").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let childIterations =
    arguments.firstIndex(of: "--child-iterations").flatMap {
        arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil
    } ?? 1
let countsInstructions = arguments.contains("--instructions")
let scenarioPrefix = arguments.firstIndex(of: "--scenario").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let contenderNames = arguments.firstIndex(of: "--contenders").flatMap {
    arguments.indices.contains($0 + 1) ? Set(arguments[$0 + 1].split(separator: ",").map(String.init)) : nil
}
let keptCallgrindDirectory = arguments.firstIndex(of: "--keep-callgrind").flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
}
let logger = Logger(label: "slate-pg-bench", factory: { _ in SwiftLogNoOpLogHandler() })

/// The benchmark, or the callgrind child. The top-level code is synchronous and waits for it on
/// a semaphore: an `async` top-level makes the main thread `dispatch_main`, whose thread exit and
/// `sigsuspend` crash valgrind 3.19.
func benchmark() async throws {
    if let childSocketDirectory {
        // The callgrind child: the server and its rows are the parent's.
        let client = PostgresClient(
            configuration: .init(
                unixSocketPath: childSocketDirectory + "/.s.PGSQL.5432", username: "postgres", password: nil,
                database: "postgres"))
        let runner = Task { await client.run() }
        let pg = PostgreSQLDatabase(client: client)
        let fluent = try FluentPostgres(socketDirectory: childSocketDirectory, logger: logger)
        for scenario in scenarios(
            client: client, pg: pg, fluent: fluent, logger: logger, rowCount: rowCount, insertCount: insertCount)
        {
            for contender in scenario.contenders where "\(scenario.name)|\(contender.name)" == childContender {
                try await repeatIterations(of: contender, in: scenario, iterations: childIterations)
            }
        }
        runner.cancel()
        return
    }

    guard let bin = serverBinaries() else {
        print("skipped: no PostgreSQL server (initdb not found in /usr/lib/postgresql/*/bin or on PATH)")
        return
    }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slate-pg-bench-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", directory], asServerUser: false) }
    try run(
        bin + "/initdb",
        ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"],
        asServerUser: true)
    try run(
        bin + "/pg_ctl",
        [
            "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-o",
            "-k \(directory) -c listen_addresses='' -F", "start",
        ],
        asServerUser: true)
    defer {
        try? run(bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asServerUser: true)
        try? FileManager.default.removeItem(atPath: directory)
    }

    let client = PostgresClient(
        configuration: .init(
            unixSocketPath: directory + "/.s.PGSQL.5432", username: "postgres", password: nil, database: "postgres"))
    let runner = Task { await client.run() }
    let pg = PostgreSQLDatabase(client: client)

    print(
        "PostgreSQL \(bin); \(rowCount) rows fetched, \(insertCount) rows inserted per iteration; \(rounds) rounds after 1 warm-up, alternating order"
            + (countsInstructions
                ? "; instructions: client process under callgrind, per iteration, (3 iterations - 1 iteration) / 2, each process after 1 warm-up"
                : ""))
    try await pg.createTable(for: Item.self)
    try await pg.transaction { tx in
        for index in 0..<rowCount {
            try await tx.insert(Item(name: "item \(index)", score: Double(index) / 4, count: Int64(index)))
        }
    }

    let fluent = try FluentPostgres(socketDirectory: directory, logger: logger)
    let every = scenarios(
        client: client, pg: pg, fluent: fluent, logger: logger, rowCount: rowCount, insertCount: insertCount)
    let all = every.filter { scenario in scenarioPrefix.map { scenario.name.hasPrefix($0) } ?? true }.map {
        scenario in
        guard let contenderNames else { return scenario }
        var kept = scenario
        kept.contenders = scenario.contenders.enumerated().filter {
            $0.offset == 0 || contenderNames.contains($0.element.name)
        }
        .map(\.element)
        return kept
    }
    for scenario in all {
        try await checkContenders(of: scenario)
    }
    print(
        "checked: each contender once, before timing (fetch: \(rowCount) rows; insert: \(insertCount) new rows, keys read back)"
    )
    var timings: [[(median: Double, minimum: Double)]] = []
    for scenario in all {
        timings.append(try await time(scenario, rounds: rounds))
    }
    let instructions = countsInstructions ? try countInstructions(all, socketDirectory: directory) : [:]
    for (scenario, times) in zip(all, timings) {
        let baseline = times[0].median
        let baselineInstructions = instructions["\(scenario.name)|\(scenario.contenders[0].name)"]
        for (contender, time) in zip(scenario.contenders, times) {
            var line = String(
                format: "%-18@ %-20@ median %9.2f ms   min %9.2f ms   ratio %.3f", scenario.name as NSString,
                contender.name as NSString, time.median * 1000, time.minimum * 1000, time.median / baseline)
            if let count = instructions["\(scenario.name)|\(contender.name)"], let baselineInstructions {
                line += String(
                    format: "   instr %8.1f M   x instr %.3f", Double(count) / 1e6,
                    Double(count) / Double(baselineInstructions))
            }
            print(line)
        }
    }
    print("checksum \(checksum.total)")
    runner.cancel()
}

final class Outcome: @unchecked Sendable {
    var error: (any Error)?
}
let outcome = Outcome()
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do { try await benchmark() } catch { outcome.error = error }
    finished.signal()
}
finished.wait()
if let error = outcome.error {
    print("error: \(error)")
    exit(1)
}
