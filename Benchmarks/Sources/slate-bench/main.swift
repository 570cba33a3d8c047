import Foundation

// slate-bench: compares Slate with the raw SQLite C API and with GRDB.
//
//     swift run -c release --package-path Benchmarks slate-bench [options]
//
// See Benchmarks/README.md.

/// Every scenario, in run order. Add new scenarios here.
let allScenarios: [Scenario] = [
    FetchIntegers.scenario,
    FetchMixed.scenario,
    Insert.scenario,
    NorthwindOrders.scenario,
    BuilderFilterOrder.scenario,
    PrimaryKeyLookups.scenario,
    AssociationsBenchmark.scenario,
    Codegen.manyTables,
    Codegen.wideTable,
    CSVImport.scenario,
    SchemaCheck.scenario,
    ObservationBenchmarks.writeScenario,
    Changesets.applyScenario,
    Changesets.syncScenario,
]

struct Options {
    var quick = false
    var jsonPath: String?
    var filters: [String] = []
    var contenderFilters: [String] = []
    var warmupRounds: Int?
    var timedRounds: Int?
    var allowDebug = false
    var list = false
    var observationReport = false
    var concurrencyReport = false
    /// `--instructions`: count each contender's instructions under callgrind after the timed rounds.
    var instructions = false
    /// `--scenario NAME`: the one scenario called exactly `NAME` (the callgrind child's filter).
    var exactScenario: String?
    /// `--callgrind-regions`: the callgrind child; label each timed iteration's region.
    var callgrindRegions = false

    static let usage = """
        usage: slate-bench [--quick] [--json FILE] [--filter TEXT]... [--contender TEXT]... [--iterations N] [--warmup N]
                           [--instructions] [--list]

          --quick          short smoke run: fewer rows and rounds, every result still verified
          --json FILE      also write the results as JSON to FILE
          --filter TEXT    run only scenarios whose name contains TEXT (repeatable)
          --contender TEXT run only contenders whose name contains TEXT, and raw (repeatable; for profiling)
          --iterations N   timed rounds per scenario (default 10, or 3 with --quick)
          --warmup N       untimed warm-up rounds per scenario (default 2, or 1 with --quick)
          --instructions   also count each contender's instructions for one iteration under callgrind
                           (valgrind must be installed; a child process per scenario, several minutes)
          --list           list the scenarios and exit
          --observation-report
                           print live-query refetch counts and latencies (Slate and GRDB), no scenarios
          --concurrency-report
                           print DatabasePool read throughput with 1, 2, 4 and 8 readers beside a writer
                           (Slate and GRDB), no scenarios
          --allow-debug    run even though this is a debug build (numbers are meaningless)
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst() else { throw HarnessError("\(flag) needs a value\n\n\(usage)") }
            return value
        }
        func count(for flag: String, minimum: Int) throws -> Int {
            let text = try value(for: flag)
            guard let number = Int(text), number >= minimum else {
                throw HarnessError("\(flag) needs a whole number of at least \(minimum), got \(text)")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.jsonPath = try value(for: argument)
            case "--filter": options.filters.append(try value(for: argument))
            case "--contender": options.contenderFilters.append(try value(for: argument))
            case "--iterations": options.timedRounds = try count(for: argument, minimum: 1)
            case "--warmup": options.warmupRounds = try count(for: argument, minimum: 0)
            case "--allow-debug": options.allowDebug = true
            case "--list": options.list = true
            case "--observation-report": options.observationReport = true
            case "--concurrency-report": options.concurrencyReport = true
            case "--instructions": options.instructions = true
            case "--scenario": options.exactScenario = try value(for: argument)
            case "--callgrind-regions": options.callgrindRegions = true
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                throw HarnessError("unknown argument \(argument)\n\n\(usage)")
            }
        }
        return options
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

@MainActor
func main() -> Int32 {
    let options: Options
    do {
        options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        printError("slate-bench: \(error)")
        return 64
    }

    if options.list {
        for scenario in allScenarios { print("\(scenario.name)\t\(scenario.summary)") }
        return 0
    }

    #if DEBUG
        if !options.allowDebug {
            printError(
                """
                slate-bench: this is a debug build, whose timings mean nothing. Build and run in release:
                    swift run -c release --package-path Benchmarks slate-bench
                (pass --allow-debug to run anyway, for instance to check the harness itself)
                """)
            return 2
        }
        printError("slate-bench: WARNING: debug build; the timings are meaningless")
    #endif

    if options.observationReport || options.concurrencyReport {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-bench-\(ProcessInfo.processInfo.processIdentifier)-reports")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            print(
                MachineInfo.current(quick: options.quick, warmupRounds: 0, timedRounds: 0, countsInstructions: false)
                    .summary)
            print("")
            if options.concurrencyReport { try ConcurrencyReport.run(quick: options.quick, directory: directory) }
            if options.concurrencyReport && options.observationReport { print("") }
            if options.observationReport {
                try ObservationBenchmarks.report(quick: options.quick, directory: directory)
            }
        } catch {
            printError("slate-bench: report failed: \(error)")
            return 1
        }
        return 0
    }

    let scenarios = allScenarios.filter { scenario in
        if let exact = options.exactScenario { return scenario.name == exact }
        return options.filters.isEmpty || options.filters.contains { scenario.name.contains($0) }
    }
    guard !scenarios.isEmpty else {
        printError("slate-bench: no scenario matches \(options.filters); --list shows them")
        return 64
    }

    let runner = Runner(
        quick: options.quick,
        contenderFilters: options.contenderFilters,
        warmupRounds: options.warmupRounds ?? (options.quick ? 1 : 2),
        timedRounds: options.timedRounds ?? (options.quick ? 3 : 10),
        countsRegions: options.callgrindRegions)
    let machine = MachineInfo.current(
        quick: options.quick, warmupRounds: runner.warmupRounds, timedRounds: runner.timedRounds,
        countsInstructions: options.instructions)
    print(machine.summary)
    #if DEBUG
        print("build: DEBUG (timings meaningless)")
    #endif
    print("")

    let started = ContinuousClock.now
    var results: [ScenarioResult] = []
    for scenario in scenarios {
        do {
            if var result = try runner.run(scenario, progress: { printError("  \($0)") }) {
                if options.instructions {
                    try InstructionPass.count(
                        scenario, into: &result, options: options, progress: { printError("  \($0)") })
                }
                results.append(result)
            }
        } catch {
            printError("slate-bench: \(scenario.name) failed: \(error)")
            return 1
        }
    }

    print(ResultsTable.render(results))
    print("")
    print("total run time: \(ResultsTable.format((ContinuousClock.now - started).seconds, decimals: 1)) s")

    if let jsonPath = options.jsonPath {
        do {
            try Report(machine: machine, results: results).write(to: jsonPath)
            print("wrote \(jsonPath)")
        } catch {
            printError("slate-bench: cannot write \(jsonPath): \(error)")
            return 1
        }
    }
    return 0
}

exit(main())
