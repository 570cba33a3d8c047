import CallgrindControl
import Foundation

/// `--instructions`: after the timed rounds, each scenario runs once more in a child process under
/// `valgrind --tool=callgrind --instr-atstart=no`, with one untimed warm-up round and one counted
/// round. Instrumentation is off except inside the counted round's `Stopwatch.measure` region,
/// which the child labels `scenario|contender` and dumps (callgrind client requests, see
/// `CallgrindControl`): each contender's count is exactly its timed work, one iteration, and the
/// fixture is built at valgrind's uninstrumented speed. Instruction counts do not move with the
/// machine's load, so they check what the wall-clock medians of a shared machine cannot.
enum InstructionPass {
    /// Counts the instructions of every contender of `result`'s scenario and stores them, with
    /// their ratio to the baseline's, in `result`.
    static func count(
        _ scenario: Scenario, into result: inout ScenarioResult, options: Options, progress: (String) -> Void
    ) throws {
        guard scenario.countsInstructions else { return }
        guard slate_bench_callgrind_available() != 0 else {
            throw HarnessError(
                "--instructions: slate-bench was built without valgrind/callgrind.h (apt-get install valgrind)")
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "slate-bench-callgrind-\(ProcessInfo.processInfo.processIdentifier)-\(scenario.name)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let executable = try childExecutable(in: directory)
        var arguments = [
            "--tool=callgrind", "--instr-atstart=no",
            "--callgrind-out-file=\(directory.appendingPathComponent("cg.out").path)",
            executable, "--scenario", scenario.name, "--callgrind-regions", "--warmup", "1", "--iterations", "1",
        ]
        if options.quick { arguments.append("--quick") }
        for filter in options.contenderFilters { arguments += ["--contender", filter] }

        progress("\(scenario.name): counting instructions under callgrind…")
        let log = directory.appendingPathComponent("child.log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw HarnessError("cannot create \(log.path)")
        }
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [ProcessInfo.processInfo.environment["VALGRIND"] ?? "valgrind"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw HarnessError(
                "\(scenario.name): the callgrind run failed (status \(process.terminationStatus)):\n"
                    + text.split(separator: "\n").suffix(20).joined(separator: "\n"))
        }

        let counts = try dumpedCounts(in: directory)
        for index in result.results.indices {
            let label = "\(scenario.name)|\(result.results[index].contender)"
            guard let count = counts[label] else {
                throw HarnessError("\(scenario.name): callgrind wrote no count for \(result.results[index].contender)")
            }
            result.results[index].instructions = count
        }
        if result.baseline != nil, let baseline = result.results.first?.instructions, baseline > 0 {
            for index in result.results.indices {
                result.results[index].instructionRatio = result.results[index].instructions.map {
                    Double($0) / Double(baseline)
                }
            }
        }
    }

    /// The executable the callgrind child runs: a copy of this one without debug information
    /// (`objcopy --strip-debug`), in `directory`. Valgrind 3.19 cannot read the DWARF 5 debug
    /// information of C modules (SQLiteNIO's SQLite, SwiftNIO's shims, in the build with the peers)
    /// and gives up on the whole program; the symbol table stays, so `callgrind_annotate` still
    /// names functions. Without `objcopy`, the executable itself.
    static func childExecutable(in directory: URL) throws -> String {
        let executable = (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).path
        let copy = directory.appendingPathComponent(URL(fileURLWithPath: executable).lastPathComponent).path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["objcopy", "--strip-debug", executable, copy]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return executable }
        return copy
    }

    /// The instruction count of every labelled dump in `directory`: `cg.out.1`, `cg.out.2`, … each
    /// with `desc: Trigger: Client Request: <label>` and `totals: <Ir>` (or `summary:`).
    static func dumpedCounts(in directory: URL) throws -> [String: Int] {
        let prefix = "desc: Trigger: Client Request: "
        var counts: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasPrefix("cg.out") {
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            var label: String?
            var total: Int?
            for line in text.split(separator: "\n") {
                if line.hasPrefix(prefix) {
                    label = String(line.dropFirst(prefix.count))
                } else if line.hasPrefix("totals:") || (total == nil && line.hasPrefix("summary:")) {
                    total = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                }
            }
            if let label, let total { counts[label, default: 0] += total }
        }
        return counts
    }
}
