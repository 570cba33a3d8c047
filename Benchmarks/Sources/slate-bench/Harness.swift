import CallgrindControl
import Foundation

// The harness: scenarios, contenders, the interleaved run loop, and result verification.
//
// A scenario builds its fixture once (untimed) and hands back its contenders. Every round runs each
// contender once, in the order listed in even rounds and in the reverse order in odd ones
// (A B C, C B A, A B C …), so that drift in the machine's load, and whatever one contender leaves
// behind for the next, hit all of them alike. The first `warmupRounds` rounds are discarded; the
// next `timedRounds` are kept.
//
// A contender is one function `(Stopwatch) throws -> Checksum`: it does any per-iteration setup it
// needs, wraps exactly the work being compared in `stopwatch.measure { … }`, then returns a
// checksum of what it produced. The harness compares that checksum with the scenario's expected one
// after every iteration, warm-up included, so a contender that skips or botches work fails the run.

/// What one iteration produced: a row count and an order-sensitive hash of every value read or
/// written. Two contenders agree only if they saw the same values in the same rows in the same order.
struct Checksum: Equatable, CustomStringConvertible {
    private(set) var rows = 0
    private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a offset basis

    init() {}

    /// Starts a new row.
    mutating func nextRow() {
        rows += 1
        mix(0x9e37_79b9_7f4a_7c15)
    }

    mutating func mix(_ bits: UInt64) {
        hash = (hash ^ bits) &* 0x0000_0100_0000_01b3  // FNV-1a prime
    }

    mutating func combine(_ value: Int) { mix(UInt64(bitPattern: Int64(value))) }
    mutating func combine(_ value: Int64) { mix(UInt64(bitPattern: value)) }
    mutating func combine(_ value: Double) { mix(value.bitPattern) }
    mutating func combine(_ value: String) {
        mix(UInt64(value.utf8.count))
        for byte in value.utf8 { mix(UInt64(byte)) }
    }
    mutating func combine(_ value: Int?) { if let value { combine(value) } else { mix(0xdead) } }
    mutating func combine(_ value: Double?) { if let value { combine(value) } else { mix(0xdead) } }
    mutating func combine(_ value: String?) { if let value { combine(value) } else { mix(0xdead) } }

    /// A checksum of aggregate facts, such as `count(*)` and `SUM(…)` read back after an insert.
    init(rows: Int, values: [Int64]) {
        self.rows = rows
        for value in values { combine(value) }
    }

    var description: String { "\(rows) rows, hash \(String(hash, radix: 16))" }
}

/// Something that folds itself into a checksum: the records every scenario fetches.
protocol Checksummable {
    func combine(into checksum: inout Checksum)
}

extension Sequence where Element: Checksummable {
    /// The checksum of every element, in order.
    var checksum: Checksum {
        var checksum = Checksum()
        for element in self {
            checksum.nextRow()
            element.combine(into: &checksum)
        }
        return checksum
    }
}

/// Counting instructions (`--instructions`): in the child process the harness runs under callgrind,
/// the label of the timed iteration that is running, whose region callgrind counts and dumps.
enum InstructionCounting {
    /// `scenario|contender` while a counted iteration runs, `nil` otherwise (always, outside the
    /// callgrind child).
    nonisolated(unsafe) static var label: String?
}

/// Times the one region of an iteration that is being compared.
final class Stopwatch {
    private(set) var elapsed: Duration?
    /// The iteration's peak memory, for scenarios that measure it (see `Memory`).
    private(set) var peakMemoryBytes: Int?

    /// Records how much memory the compared work took at its peak.
    func recordPeakMemory(bytes: Int) {
        peakMemoryBytes = max(peakMemoryBytes ?? 0, bytes)
    }

    /// Runs `body`, recording its wall-clock duration. Call it exactly once per iteration.
    @inline(never)
    func measure<Result>(_ body: () throws -> Result) rethrows -> Result {
        precondition(elapsed == nil, "Stopwatch.measure called twice in one iteration")
        let clock = ContinuousClock()
        let label = InstructionCounting.label
        let start = clock.now
        if label != nil { slate_bench_callgrind_begin() }
        let result = try body()
        if let label { label.withCString { slate_bench_callgrind_end($0) } }
        let end = clock.now
        elapsed = end - start
        return result
    }
}

/// One implementation being compared: `raw`, `slate-…` or `grdb-…`. Counterparts share a suffix.
struct Contender {
    let name: String
    let iteration: (Stopwatch) throws -> Checksum

    init(_ name: String, _ iteration: @escaping (Stopwatch) throws -> Checksum) {
        self.name = name
        self.iteration = iteration
    }
}

/// A scenario whose fixture is built and whose contenders are ready to run.
struct PreparedScenario {
    /// The rows each iteration fetches, inserts or looks up.
    let rows: Int
    /// What every iteration of every contender must produce.
    let expected: Checksum
    var contenders: [Contender]
    /// The first contender's name, the baseline of every ratio: `raw` (the C API) by default,
    /// `sqlite3-shell` for the CSV import. Scenarios with no equivalent to compare with (code
    /// generation) have none: their results have no ratio (`null` in JSON).
    var baseline: String? = "raw"
}

/// A benchmark scenario: a name, a one-line summary, and how to build its fixture and contenders.
struct Scenario: Sendable {
    let name: String
    let summary: String
    /// Whether `--instructions` counts its contenders' instructions: not where the timed work is
    /// another process (code generation, the shell's CSV import), which callgrind does not see.
    var countsInstructions = true
    let prepare: @Sendable (BenchmarkContext) throws -> PreparedScenario
}

/// What a scenario needs to know about the run.
struct BenchmarkContext: Sendable {
    let quick: Bool
    /// A fresh, empty directory for this scenario's database files, deleted after the scenario.
    let directory: URL

    /// `full` rows in a full run, `quick` rows with `--quick`.
    func size(full: Int, quick: Int) -> Int { self.quick ? quick : full }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// The timings of one contender in one scenario.
struct ContenderResult {
    let contender: String
    let samples: [Double]  // seconds, one per timed round
    let median: Double
    let min: Double
    let max: Double
    /// This contender's median over the baseline's median; `nil` in a scenario without baseline.
    var ratioToBaseline: Double?
    /// The largest peak memory of the timed rounds, when the scenario measures it.
    let peakMemoryBytes: Int?
    /// The instructions of one timed iteration, counted by callgrind (`--instructions`).
    var instructions: Int?
    /// `instructions` over the baseline's.
    var instructionRatio: Double?

    init(contender: String, samples: [Double], peakMemoryBytes: Int? = nil) {
        self.contender = contender
        self.samples = samples
        self.peakMemoryBytes = peakMemoryBytes
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        self.median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        self.min = sorted.first ?? 0
        self.max = sorted.last ?? 0
    }
}

struct ScenarioResult {
    let name: String
    let rows: Int
    /// `results[0]`'s name when it is the baseline of `ratioToBaseline`: `raw` or `sqlite3-shell`.
    let baseline: String?
    var results: [ContenderResult]
}

struct VerificationFailure: Error, CustomStringConvertible {
    let scenario: String
    let contender: String
    let round: Int
    let expected: Checksum
    let actual: Checksum

    var description: String {
        "\(scenario) / \(contender), round \(round): result does not verify: expected \(expected), got \(actual)"
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Runner {
    let quick: Bool
    /// When not empty, only the contenders whose name contains one of these run (and `raw`, always).
    let contenderFilters: [String]
    let warmupRounds: Int
    let timedRounds: Int
    /// In the callgrind child of `--instructions`: label each timed iteration so that its region is
    /// counted and dumped.
    var countsRegions = false

    /// Prepares `scenario`, runs its contenders interleaved, verifies every iteration. Returns `nil`
    /// when `--contender` leaves a scenario without baseline no contender to run.
    func run(_ scenario: Scenario, progress: (String) -> Void) throws -> ScenarioResult? {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-bench-\(ProcessInfo.processInfo.processIdentifier)-\(scenario.name)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let context = BenchmarkContext(quick: quick, directory: directory)
        progress("\(scenario.name): preparing fixture…")
        var prepared = try scenario.prepare(context)
        if let baseline = prepared.baseline {
            guard prepared.contenders.first?.name == baseline else {
                throw HarnessError("\(scenario.name): the first contender must be the baseline, \"\(baseline)\"")
            }
        } else if prepared.contenders.contains(where: { $0.name == "raw" }) {
            throw HarnessError("\(scenario.name): a scenario without raw baseline has a \"raw\" contender")
        }
        if !contenderFilters.isEmpty {
            prepared.contenders = prepared.contenders.filter { contender in
                contender.name == prepared.baseline || contenderFilters.contains { contender.name.contains($0) }
            }
            guard !prepared.contenders.isEmpty else {
                progress("\(scenario.name): skipped, no contender matches \(contenderFilters)")
                return nil
            }
        }

        var samples = Array(repeating: [Double](), count: prepared.contenders.count)
        var peaks = Array(repeating: Int?.none, count: prepared.contenders.count)
        let rounds = warmupRounds + timedRounds
        for round in 0..<rounds {
            // Even rounds run the contenders in the listed order, odd rounds in reverse.
            let order = round % 2 == 0 ? Array(prepared.contenders.indices) : prepared.contenders.indices.reversed()
            for index in order {
                let contender = prepared.contenders[index]
                let stopwatch = Stopwatch()
                InstructionCounting.label =
                    countsRegions && round >= warmupRounds ? "\(scenario.name)|\(contender.name)" : nil
                defer { InstructionCounting.label = nil }
                let checksum = try contender.iteration(stopwatch)
                guard let elapsed = stopwatch.elapsed else {
                    throw HarnessError(
                        "\(scenario.name) / \(contender.name): the iteration never called Stopwatch.measure")
                }
                guard checksum == prepared.expected else {
                    throw VerificationFailure(
                        scenario: scenario.name, contender: contender.name, round: round,
                        expected: prepared.expected, actual: checksum)
                }
                if round >= warmupRounds {
                    samples[index].append(elapsed.seconds)
                    if let peak = stopwatch.peakMemoryBytes { peaks[index] = max(peaks[index] ?? 0, peak) }
                }
            }
            progress("\(scenario.name): round \(round + 1)/\(rounds)\(round < warmupRounds ? " (warm-up)" : "")")
        }

        var results = prepared.contenders.indices.map {
            ContenderResult(contender: prepared.contenders[$0].name, samples: samples[$0], peakMemoryBytes: peaks[$0])
        }
        if let baseline = prepared.baseline {
            let baselineMedian = results[0].median
            guard baselineMedian > 0 else {
                throw HarnessError("\(scenario.name): the \(baseline) contender's median is zero")
            }
            for index in results.indices {
                results[index].ratioToBaseline = results[index].median / baselineMedian
            }
        }
        return ScenarioResult(name: scenario.name, rows: prepared.rows, baseline: prepared.baseline, results: results)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
