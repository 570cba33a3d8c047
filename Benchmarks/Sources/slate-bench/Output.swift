import Foundation

// The results table, the machine note, and the JSON report.

/// What the numbers were measured on.
struct MachineInfo: Encodable {
    let cpu: String
    let cores: Int
    let sqliteVersion: String
    let swiftVersion: String
    let grdbVersion: String
    let os: String
    let mode: String
    let warmupRounds: Int
    let timedRounds: Int
    let date: String
    /// How instructions were counted: `"callgrind, 1 iteration after 1 warm-up"`, or `nil` when
    /// they were not (no `--instructions`).
    let instructions: String?

    enum CodingKeys: String, CodingKey {
        case cpu, cores, os, mode, date, instructions
        case sqliteVersion = "sqlite_version"
        case swiftVersion = "swift_version"
        case grdbVersion = "grdb_version"
        case warmupRounds = "warmup_rounds"
        case timedRounds = "timed_rounds"
    }

    static func current(quick: Bool, warmupRounds: Int, timedRounds: Int, countsInstructions: Bool) -> MachineInfo {
        MachineInfo(
            cpu: cpuModel(),
            cores: ProcessInfo.processInfo.activeProcessorCount,
            sqliteVersion: sqliteLibraryVersion,
            swiftVersion: compilerVersion,
            grdbVersion: "7.10.0",
            os: ProcessInfo.processInfo.operatingSystemVersionString,
            mode: quick ? "quick" : "full",
            warmupRounds: warmupRounds,
            timedRounds: timedRounds,
            date: ISO8601DateFormatter().string(from: Date()),
            instructions: countsInstructions ? "callgrind, 1 iteration after 1 warm-up" : nil)
    }

    /// The `model name` line of /proc/cpuinfo (Linux), or "unknown" elsewhere.
    private static func cpuModel() -> String {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return "unknown"
    }

    /// `swift --version`'s first line (the toolchain `swift run` used), or failing that the
    /// compiler release the harness was built with.
    private static var compilerVersion: String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        process.standardOutput = pipe
        process.standardError = pipe
        if (try? process.run()) != nil {
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus == 0,
                let line = String(decoding: output, as: UTF8.self).split(separator: "\n").first(where: {
                    $0.contains("Swift version")
                })
            {
                return line.trimmingCharacters(in: .whitespaces)
            }
        }
        #if compiler(>=6.4)
            return "compiler >= 6.4"
        #elseif compiler(>=6.3)
            return "compiler 6.3"
        #elseif compiler(>=6.2)
            return "compiler 6.2"
        #elseif compiler(>=6.1)
            return "compiler 6.1"
        #else
            return "compiler 6.0"
        #endif
    }

    var summary: String {
        """
        machine: \(cpu), \(cores) cores; SQLite \(sqliteVersion); \(swiftVersion); GRDB \(grdbVersion)
        run: \(mode), \(warmupRounds) warm-up + \(timedRounds) timed rounds per scenario, contenders interleaved \
        (order reversed every other round)\(instructions.map { "; instructions: \($0)" } ?? "")
        connections: raw and Slate open with SQLITE_OPEN_NOMUTEX; GRDB cannot choose its threading mode, so its \
        connections take SQLite's mutex on every call
        """
    }
}

/// The JSON report: `{"machine": {…}, "scenarios": [{"name", "rows", "baseline", "results": [{…}]}]}`.
/// `baseline` is `"raw"`, `"sqlite3-shell"` (CSV import), or `null` for a scenario without
/// baseline, whose results have `"ratio_to_baseline": null`. `ratio_to_raw` is the same ratio
/// where the baseline is `raw`, and `null` elsewhere. `rows_per_s` is `rows` over the median;
/// `peak_memory_bytes` is `null` unless the scenario measures memory.
struct Report: Encodable {
    struct Scenario: Encodable {
        let name: String
        let rows: Int
        let baseline: String?
        let results: [Result]

        enum CodingKeys: String, CodingKey { case name, rows, baseline, results }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(rows, forKey: .rows)
            try container.encode(baseline, forKey: .baseline)  // `null` when there is none
            try container.encode(results, forKey: .results)
        }
    }

    struct Result: Encodable {
        let contender: String
        let medianSeconds: Double
        let minSeconds: Double
        let maxSeconds: Double
        let ratioToRaw: Double?
        let ratioToBaseline: Double?
        let rowsPerSecond: Double
        let peakMemoryBytes: Int?
        let instructions: Int?
        let instructionRatio: Double?

        enum CodingKeys: String, CodingKey {
            case contender
            case medianSeconds = "median_s"
            case minSeconds = "min_s"
            case maxSeconds = "max_s"
            case ratioToRaw = "ratio_to_raw"
            case ratioToBaseline = "ratio_to_baseline"
            case rowsPerSecond = "rows_per_s"
            case peakMemoryBytes = "peak_memory_bytes"
            case instructions
            case instructionRatio = "instruction_ratio"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(contender, forKey: .contender)
            try container.encode(medianSeconds, forKey: .medianSeconds)
            try container.encode(minSeconds, forKey: .minSeconds)
            try container.encode(maxSeconds, forKey: .maxSeconds)
            try container.encode(ratioToRaw, forKey: .ratioToRaw)  // `null` unless the baseline is raw
            try container.encode(ratioToBaseline, forKey: .ratioToBaseline)  // `null` without baseline
            try container.encode(rowsPerSecond, forKey: .rowsPerSecond)
            try container.encode(peakMemoryBytes, forKey: .peakMemoryBytes)  // `null` when not measured
            try container.encode(instructions, forKey: .instructions)  // `null` without --instructions
            try container.encode(instructionRatio, forKey: .instructionRatio)  // `null` without them or a baseline
        }
    }

    let machine: MachineInfo
    let scenarios: [Scenario]

    init(machine: MachineInfo, results: [ScenarioResult]) {
        self.machine = machine
        self.scenarios = results.map { scenario in
            Scenario(
                name: scenario.name, rows: scenario.rows, baseline: scenario.baseline,
                results: scenario.results.map {
                    Result(
                        contender: $0.contender, medianSeconds: $0.median, minSeconds: $0.min, maxSeconds: $0.max,
                        ratioToRaw: scenario.baseline == "raw" ? $0.ratioToBaseline : nil,
                        ratioToBaseline: $0.ratioToBaseline,
                        rowsPerSecond: $0.median > 0 ? Double(scenario.rows) / $0.median : 0,
                        peakMemoryBytes: $0.peakMemoryBytes,
                        instructions: $0.instructions, instructionRatio: $0.instructionRatio)
                })
        }
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(self)
        data.append(contentsOf: Array("\n".utf8))
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// The human-readable results table.
enum ResultsTable {
    static func render(_ results: [ScenarioResult]) -> String {
        // `x base`: the median over the baseline's, the scenario's first contender (`raw`, or
        // `sqlite3-shell` for the CSV import). `peak MB`: only where the scenario measures memory.
        // `instr M` and `x instr`: one iteration's instructions under callgrind and their ratio to the
        // baseline's, with `--instructions`.
        let header = [
            "scenario", "rows", "contender", "median ms", "min ms", "max ms", "x base", "rows/s", "peak MB", "instr M",
            "x instr",
        ]
        var rows: [[String]] = []
        for scenario in results {
            for (index, result) in scenario.results.enumerated() {
                rows.append([
                    index == 0 ? scenario.name : "",
                    index == 0 ? String(scenario.rows) : "",
                    result.contender,
                    milliseconds(result.median),
                    milliseconds(result.min),
                    milliseconds(result.max),
                    result.ratioToBaseline.map { format($0, decimals: 2) } ?? "-",
                    result.median > 0 ? rate(Double(scenario.rows) / result.median) : "-",
                    result.peakMemoryBytes.map { format(Double($0) / 1_048_576, decimals: 1) } ?? "-",
                    result.instructions.map { format(Double($0) / 1_000_000, decimals: 1) } ?? "-",
                    result.instructionRatio.map { format($0, decimals: 3) } ?? "-",
                ])
            }
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        // Text columns are left-aligned, numbers right-aligned.
        let leftAligned: Set<Int> = [0, 2]
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return leftAligned.contains(column) ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        var lines = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }

    /// A rate with a thousands separator: `812,345`.
    static func rate(_ perSecond: Double) -> String {
        let digits = String(Int(perSecond.rounded()))
        var grouped = ""
        for (index, digit) in digits.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return String(grouped.reversed())
    }

    static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        return format(ms, decimals: ms < 10 ? 3 : ms < 100 ? 2 : 1)
    }

    static func format(_ value: Double, decimals: Int) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
