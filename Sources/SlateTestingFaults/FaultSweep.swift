import Foundation
import SlateCore

/// Runs a ``FaultScenario`` once per fault point, as SQLite's own `ioerr` tests do: once without
/// faults to count the scenario's I/O calls per ``FaultInjector/Operation``, then, for each kind of
/// fault and each operation it applies to, once with the fault at call N, for N = 1…count (or a
/// sample of them).
///
/// After each run the sweep powers the injector back on if the fault cut the power, checks the
/// error the operation threw, opens the database without faults, runs `PRAGMA integrity_check`, and
/// hands the database to the scenario's ``FaultScenario/verify(_:outcome:context:)``:
///
/// ```swift
/// let report = try FaultSweep(coverage: .every).run(InsertTransaction(), named: "insert")
/// #expect(report.issues.isEmpty, "\(report.issues)")
/// print(report)
/// ```
public struct FaultSweep: Sendable {
    /// Which fault points run, per operation and kind.
    public enum Coverage: Sendable, Hashable {
        /// Every call, 1…count.
        case every
        /// At most this many calls, always the first and the last, the others spread evenly with a
        /// seeded jitter.
        case sample(Int)
    }

    /// The kinds of faults injected.
    public var kinds: [FaultInjector.Kind]
    /// The operations faulted; `nil`: every operation each kind applies to.
    public var operations: [FaultInjector.Operation]?
    /// Which fault points run.
    public var coverage: Coverage
    /// The seed of the sample's jitter.
    public var seed: UInt64
    /// Whether the faults persist (every later call of the operation fails too).
    public var isPersistent: Bool
    /// The primary codes an operation may fail with when a fault was injected.
    public var expectedCodes: Set<ResultCode> = [.ioError, .full, .cantOpen]

    /// Every kind of fault: I/O errors, a full disk, short writes, power losses and torn power
    /// losses.
    public static let allKinds: [FaultInjector.Kind] = [.ioError, .diskFull, .shortWrite, .powerLoss, .tornPowerLoss()]

    /// Creates a sweep.
    public init(
        kinds: [FaultInjector.Kind] = FaultSweep.allKinds,
        operations: [FaultInjector.Operation]? = nil,
        coverage: Coverage = .every,
        seed: UInt64 = 34,
        isPersistent: Bool = false
    ) {
        self.kinds = kinds
        self.operations = operations
        self.coverage = coverage
        self.seed = seed
        self.isPersistent = isPersistent
    }

    /// Runs `scenario` under every fault point, in a new temporary directory deleted afterwards.
    ///
    /// - Returns: What ran and what was found; the sweep never stops at a finding.
    /// - Throws: When the scenario cannot be prepared, or its counting run (without faults) fails.
    public func run<Scenario: FaultScenario>(_ scenario: Scenario, named name: String) throws -> FaultSweepReport {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-fault-sweep-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: root + "/template", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try scenario.prepare(at: root + "/template/db.sqlite")

        let injector = try FaultInjector()
        var report = FaultSweepReport(name: name)
        let started = Date()

        // The counting run: no fault, and it must pass its own checks.
        let counting = try runOnce(scenario, fault: nil, injector: injector, root: root, report: &report).counts
        report.callCounts = counting
        if !report.issues.isEmpty {
            throw FaultIssue(.verification, "the run without faults failed its checks: \(report.issues)")
        }
        for kind in kinds {
            for operation in kind.operations where operations?.contains(operation) ?? true {
                let total = counting[operation] ?? 0
                guard total > 0 else { continue }
                var line = FaultSweepReport.Line(kind: kind, operation: operation, calls: total)
                for occurrence in points(total: total, operation: operation, kind: kind) {
                    let fault = FaultInjector.Fault(
                        operation, occurrence: occurrence, kind: kind, isPersistent: isPersistent)
                    let before = report.issues.count
                    let run = try runOnce(scenario, fault: fault, injector: injector, root: root, report: &report)
                    line.pointsRun += 1
                    if run.injected { line.injected += 1 }
                    if run.injected && run.failed { line.surfaced += 1 }
                    if run.injected && !run.failed { line.absorbed += 1 }
                    line.issues += report.issues.count - before
                }
                report.lines.append(line)
            }
        }
        report.duration = Date().timeIntervalSince(started)
        return report
    }

    /// The occurrences to fault, out of `total` calls.
    func points(total: Int, operation: FaultInjector.Operation, kind: FaultInjector.Kind) -> [Int] {
        switch coverage {
        case .every:
            return Array(1...total)
        case .sample(let limit):
            guard total > limit, limit >= 2 else { return Array(1...total) }
            var generator = SplitMix64(
                seed: seed ^ (UInt64(operation.rawValue) << 32)
                    ^ UInt64(truncatingIfNeeded: kind.description.hashValueStable))
            var chosen: Set<Int> = [1, total]
            let step = Double(total - 1) / Double(limit - 1)
            for index in 1..<(limit - 1) {
                let jitter = Double(generator.next() % 1000) / 1000 - 0.5
                let point = Int((Double(index) + jitter) * step) + 1
                chosen.insert(min(max(point, 1), total))
            }
            return chosen.sorted()
        }
    }

    /// What one run did.
    private struct RunResult {
        /// The calls it made, per operation.
        var counts: [FaultInjector.Operation: Int]
        /// Whether the fault was injected.
        var injected: Bool
        /// Whether the operation threw.
        var failed: Bool
    }

    /// One run: copies the template, runs the scenario with `fault` scheduled, powers back on,
    /// checks, and adds what it found to `report`.
    private func runOnce<Scenario: FaultScenario>(
        _ scenario: Scenario, fault: FaultInjector.Fault?, injector: FaultInjector, root: String,
        report: inout FaultSweepReport
    ) throws -> RunResult {
        let directory = root + "/run"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.copyItem(atPath: root + "/template", toPath: directory)
        let path = directory + "/db.sqlite"

        injector.schedule(nil)
        injector.resetCounts()
        let injectedBefore = injector.injectedFaultCount
        let context = FaultRunContext(injector: injector, path: path, fault: fault)
        if !scenario.startsFaultsItself { injector.schedule(fault) }
        let outcome: Result<Scenario.Outcome, any Error> = Result { try scenario.run(context) }
        injector.schedule(nil)
        let counts = injector.counts
        let injected = injector.injectedFaultCount > injectedBefore
        // Connections a pool closes on another thread: the database is checked once they are gone.
        let deadline = Date().addingTimeInterval(10)
        while injector.openFileCount > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        if injector.openFileCount > 0 {
            context.record(FaultIssue(.verification, "the scenario left \(injector.openFileCount) files open"))
        }
        if injector.isPoweredOff {
            do { try injector.restorePower() } catch { context.record(FaultIssue(.verification, "\(error)")) }
        }

        if case .failure(let error) = outcome {
            if !injected {
                context.record(FaultIssue(.unclearError, "the operation failed where no fault was injected: \(error)"))
            } else if let databaseError = scenario.databaseError(in: error) {
                if !expectedCodes.contains(databaseError.resultCode.primary) {
                    context.record(
                        FaultIssue(
                            .unclearError,
                            "the error does not carry SQLite's code for the fault (\(expectedCodes.map(\.rawValue).sorted())): \(error)"
                        ))
                } else {
                    report.surfacedCodes[databaseError.extendedResultCode.rawValue, default: 0] += 1
                }
            } else {
                context.record(FaultIssue(.unclearError, "the error is not a DatabaseError: \(error)"))
            }
        }
        verify(scenario, outcome: outcome, context: context)
        for var issue in context.issues {
            issue.fault = fault
            report.issues.append(issue)
        }
        for (name, amount) in context.tallies { report.tallies[name, default: 0] += amount }
        report.runs += 1
        let failed: Bool
        if case .failure = outcome { failed = true } else { failed = false }
        return RunResult(counts: counts, injected: injected, failed: failed)
    }

    /// Opens the database without faults, checks its integrity and runs the scenario's checks.
    private func verify<Scenario: FaultScenario>(
        _ scenario: Scenario, outcome: Result<Scenario.Outcome, any Error>, context: FaultRunContext
    ) {
        do {
            let db = try scenario.open(at: context.path, context: context)
            defer { try? db.close() }
            let integrity = try db.fetchAll(String.self, sql: "PRAGMA integrity_check")
            guard integrity == ["ok"] else {
                context.record(FaultIssue(.integrity, integrity.prefix(5).joined(separator: "; ")))
                return
            }
            context.tally("integrity checks passed")
            try scenario.verify(db, outcome: outcome, context: context)
        } catch let issue as FaultIssue {
            context.record(issue)
        } catch let error as DatabaseError where error.resultCode == .corrupt || error.resultCode == .notADatabase {
            context.record(FaultIssue(.integrity, "\(error)"))
        } catch {
            context.record(FaultIssue(.verification, "\(error)"))
        }
    }
}

/// What a ``FaultSweep`` ran and found.
public struct FaultSweepReport: Sendable, CustomStringConvertible {
    /// The fault points of one kind of fault at one operation.
    public struct Line: Sendable, Hashable {
        /// The kind of fault.
        public var kind: FaultInjector.Kind
        /// The operation faulted.
        public var operation: FaultInjector.Operation
        /// How many calls of the operation the counting run made.
        public var calls: Int
        /// How many fault points ran.
        public var pointsRun = 0
        /// In how many runs the fault was injected (a run may end before its fault point).
        public var injected = 0
        /// In how many runs the operation threw SQLite's error.
        public var surfaced = 0
        /// In how many runs SQLite absorbed the fault (it retried, or the call did not matter) and
        /// the operation succeeded, with a verified result.
        public var absorbed = 0
        /// How many findings the runs recorded.
        public var issues = 0
    }

    /// The sweep's name.
    public var name: String
    /// The calls of the counting run, per operation.
    public var callCounts: [FaultInjector.Operation: Int] = [:]
    /// One line per kind and operation.
    public var lines: [Line] = []
    /// Every finding, with its fault.
    public var issues: [FaultIssue] = []
    /// The scenario's counters, summed over the runs.
    public var tallies: [String: Int] = [:]
    /// How many times each extended code surfaced.
    public var surfacedCodes: [Int32: Int] = [:]
    /// How many runs, the counting run included.
    public var runs = 0
    /// How long the sweep took, in seconds.
    public var duration: TimeInterval = 0

    /// The findings of one category.
    public func issues(_ category: FaultIssue.Category) -> [FaultIssue] {
        issues.filter { $0.category == category }
    }

    /// The fault points run, over every line.
    public var pointsRun: Int { lines.reduce(0) { $0 + $1.pointsRun } }
    /// The runs in which the operation threw SQLite's error.
    public var surfaced: Int { lines.reduce(0) { $0 + $1.surfaced } }
    /// The runs in which a fault was injected.
    public var injected: Int { lines.reduce(0) { $0 + $1.injected } }

    /// The fault points per kind, summed over operations: `[kind: (run, calls)]`.
    public func points(of kind: FaultInjector.Kind) -> (run: Int, calls: Int) {
        lines.filter { $0.kind == kind }.reduce((0, 0)) { ($0.0 + $1.pointsRun, $0.1 + $1.calls) }
    }

    /// A one-line summary: points per kind, surfaced errors and findings per category.
    public var summary: String {
        let kinds = FaultSweep.allKinds.compactMap { kind -> String? in
            let points = points(of: kind)
            return points.run == 0 ? nil : "\(kind) \(points.run)/\(points.calls)"
        }
        let findings = FaultIssue.Category.allCases.map { "\(issues($0).count) \($0)" }.joined(separator: ", ")
        return
            "fault sweep \(name): \(pointsRun) fault points (\(kinds.joined(separator: ", "))), \(injected) injected, "
            + "\(surfaced) surfaced; findings: \(findings); \(String(format: "%.1f", duration)) s"
    }

    public var description: String {
        description(issueLimit: 20)
    }

    /// The summary, the lines, the tallies and the first `issueLimit` findings.
    public func description(issueLimit: Int) -> String {
        var text = summary + "\n"
        for line in lines {
            text +=
                "  \(line.kind) at \(line.operation): \(line.pointsRun) of \(line.calls) points, \(line.injected) injected, "
                + "\(line.surfaced) surfaced, \(line.absorbed) absorbed, \(line.issues) findings\n"
        }
        for (name, amount) in tallies.sorted(by: { $0.key < $1.key }) { text += "  \(name): \(amount)\n" }
        for issue in issues.prefix(issueLimit) { text += "  ! \(issue)\n" }
        if issues.count > issueLimit { text += "  ! … and \(issues.count - issueLimit) more\n" }
        return text
    }
}

/// A small seeded generator for the sample's jitter.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    /// FNV-1a of the UTF-8 bytes: stable across runs, unlike `hashValue`.
    fileprivate var hashValueStable: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
