import Foundation

struct Diagnostic {
    var file: String
    var line: Int
    var severity: String
    var message: String
    var text: String
    /// The lines of the notes that follow the diagnostic ("consumed here").
    var noteLines: [Int] = []
}

/// Warnings that every snippet has by nature (values shown but not used afterwards).
let allowedWarnings = try! NSRegularExpression(
    pattern: #"was never used|is unused|never read|was written to, but never read"#)

func parseDiagnostics(_ output: String) -> [Diagnostic] {
    let pattern = try! NSRegularExpression(pattern: #"^(.+?):(\d+):(\d+): (error|warning|note|remark): (.*)$"#)
    var diagnostics: [Diagnostic] = []
    for line in output.components(separatedBy: "\n") {
        let range = NSRange(line.startIndex..., in: line)
        if let match = pattern.firstMatch(in: line, range: range) {
            func group(_ index: Int) -> String {
                Range(match.range(at: index), in: line).map { String(line[$0]) } ?? ""
            }
            let diagnostic = Diagnostic(
                file: group(1), line: Int(group(2)) ?? 0, severity: group(4), message: group(5), text: line)
            if diagnostic.severity == "note",
                let last = diagnostics.indices.last(where: { diagnostics[$0].severity != "note" })
            {
                diagnostics[last].noteLines.append(diagnostic.line)
            }
            diagnostics.append(diagnostic)
        } else if !diagnostics.isEmpty, !line.isEmpty {
            diagnostics[diagnostics.count - 1].text += "\n" + line
        }
    }
    return diagnostics
}

func run(_ executable: String, _ arguments: [String], in directory: String) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do { try process.run() } catch { return (127, "cannot run \(executable): \(error)") }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

struct BuildConfiguration {
    var moduleDirectories: [String]
    var flags: [String]
    var plugins: [String]
}

struct Outcome {
    var unit: Unit
    var passed: Bool
    var report: String
    var seconds: Double
    var note = ""
}

func compile(_ unit: Unit, options: Options) -> Outcome {
    let started = Date()
    let moduleCache = "\(options.work)/ModuleCache"
    // SIL, not just -typecheck: the ownership checker (a row that escapes), definite
    // initialization and other flow diagnostics run on SIL.
    var arguments = [
        "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-diagnostic-style", "llvm", "-module-cache-path",
        moduleCache,
    ]
    let path: String
    switch unit.kind {
    case .manifest:
        guard let manifestAPI = options.manifestAPI else {
            return Outcome(
                unit: unit, passed: false, report: "no --manifest-api to check a package manifest", seconds: 0)
        }
        path = "\(options.work)/\(unit.file)"
        // The PackageDescription API of the manifest's tools version (`traits:` needs 6.1).
        let toolsVersion =
            unit.blocks[0].lines.first { $0.hasPrefix("// swift-tools-version") }
            .flatMap { $0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) } ?? "6.0"
        arguments += [
            "-I", manifestAPI, "-Xfrontend", "-package-description-version", "-Xfrontend", toolsVersion, "-module-name",
            "main", path,
        ]
    case .snippets, .failureCase:
        path = unit.kind == .failureCase ? unit.document : "\(options.work)/\(unit.file)"
        arguments += ["-parse-as-library", "-module-name", "Snippets"]
        var build = BuildConfiguration(
            moduleDirectories: options.moduleDirectories, flags: options.flags, plugins: options.plugins)
        if let traits = unit.traits {
            guard let traitBuild = options.traitBuilds[traits] else {
                let message =
                    "no build with package trait \(traits): build it (see .ci/run) or pass --allow-missing-traits"
                return Outcome(
                    unit: unit, passed: options.allowMissingTraits, report: message, seconds: 0,
                    note: options.allowMissingTraits ? "not compiled: no build with trait \(traits)" : "")
            }
            guard let flags = buildFlags(description: traitBuild.description, directory: traitBuild.modules) else {
                return Outcome(
                    unit: unit, passed: false,
                    report: "\(traitBuild.description) has no command that built Slate into \(traitBuild.modules)",
                    seconds: 0)
            }
            build = BuildConfiguration(
                moduleDirectories: [traitBuild.modules], flags: flags.flags, plugins: flags.plugins)
        }
        for directory in build.moduleDirectories { arguments += ["-I", directory] }
        for plugin in build.plugins { arguments += ["-load-plugin-executable", plugin] }
        arguments += build.flags + [path]
    }
    if unit.kind != .failureCase {
        do {
            try unit.source.write(toFile: "\(options.root)/\(path)", atomically: true, encoding: .utf8)
        } catch {
            return Outcome(unit: unit, passed: false, report: "cannot write \(path): \(error)", seconds: 0)
        }
    }
    let result = run(options.swiftc, arguments, in: options.root)
    let seconds = Date().timeIntervalSince(started)
    let diagnostics = parseDiagnostics(result.output)

    if unit.kind == .failureCase {
        return checkFailureCase(
            unit, status: result.status, output: result.output, diagnostics: diagnostics, seconds: seconds)
    }
    let problems = diagnostics.filter { diagnostic in
        diagnostic.severity == "error"
            || diagnostic.severity == "warning"
                && allowedWarnings.firstMatch(
                    in: diagnostic.message, range: NSRange(diagnostic.message.startIndex..., in: diagnostic.message))
                    == nil
    }
    if result.status == 0 && problems.isEmpty {
        return Outcome(unit: unit, passed: true, report: "", seconds: seconds)
    }
    var report = problems.map(\.text).joined(separator: "\n")
    if report.isEmpty { report = result.output }
    report += "\n(generated file: \(path))"
    return Outcome(unit: unit, passed: false, report: report, seconds: seconds)
}

/// A compile-failure case passes when it does not compile, every `// expected-error: TEXT`
/// comment has an error containing TEXT on its line (or whose note is on its line, as the
/// ownership checker reports the declaration and notes the use), and no other error is reported.
func checkFailureCase(_ unit: Unit, status: Int32, output: String, diagnostics: [Diagnostic], seconds: Double)
    -> Outcome
{
    let source = (try? String(contentsOfFile: unit.document, encoding: .utf8)) ?? ""
    var expectations: [(line: Int, text: String)] = []
    for (index, line) in source.components(separatedBy: "\n").enumerated() {
        if let marker = line.range(of: "// expected-error: ") {
            expectations.append((index + 1, line[marker.upperBound...].trimmingCharacters(in: .whitespaces)))
        }
    }
    let errors = diagnostics.filter { $0.severity == "error" && $0.file.hasSuffix(unit.document) }
    // A case that crashes a known compiler says so (`// known-compiler-crash: WHY`): the crash
    // is accepted while no error is reported; once the compiler diagnoses the code instead, the
    // expected errors must match as usual.
    let crashed = status != 0 && (output.contains("Program crashed") || output.contains("Stack dump:"))
    if crashed, errors.isEmpty {
        if source.contains("// known-compiler-crash:") {
            return Outcome(
                unit: unit, passed: true, report: "", seconds: seconds, note: "crashes the compiler, as known")
        }
        return Outcome(
            unit: unit, passed: false, report: "\(unit.document): the compiler crashed:\n\(output.prefix(3000))",
            seconds: seconds)
    }
    var problems: [String] = []
    if expectations.isEmpty { problems.append("\(unit.document): no `// expected-error: TEXT` comment") }
    if status == 0 { problems.append("\(unit.document): compiled, but must not") }
    func isAt(_ error: Diagnostic, _ line: Int) -> Bool { error.line == line || error.noteLines.contains(line) }
    for expectation in expectations
    where !errors.contains(where: { isAt($0, expectation.line) && $0.message.contains(expectation.text) }) {
        let found = errors.filter { isAt($0, expectation.line) }.map(\.message)
        problems.append(
            "\(unit.document):\(expectation.line): expected an error containing “\(expectation.text)”; found \(found.isEmpty ? "none" : found.map { "“\($0)”" }.joined(separator: ", "))"
        )
    }
    for error in errors where !expectations.contains(where: { isAt(error, $0.line) }) {
        problems.append("unexpected error (the case may fail for the wrong reason):\n\(error.text)")
    }
    if status != 0, errors.isEmpty { problems.append(output) }
    return Outcome(unit: unit, passed: problems.isEmpty, report: problems.joined(separator: "\n"), seconds: seconds)
}

/// Compiles every unit, `jobs` at a time, keeping the outcomes in order.
final class ParallelCompiler: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var outcomes: [Int: Outcome] = [:]
    private let units: [Unit]
    private let options: Options

    init(units: [Unit], options: Options) {
        self.units = units
        self.options = options
    }

    func run(jobs: Int) -> [Outcome] {
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, units.count)) {
            group.enter()
            Thread.detachNewThread {
                while let index = self.take() {
                    let outcome = compile(self.units[index], options: self.options)
                    self.lock.lock()
                    self.outcomes[index] = outcome
                    self.lock.unlock()
                }
                group.leave()
            }
        }
        group.wait()
        return units.indices.compactMap { outcomes[$0] }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < units.count else { return nil }
        next += 1
        return next - 1
    }
}

// MARK: - Build flags

/// The C module flags and macro plugins SwiftPM passed when it built Slate, SlateMacros,
/// SlatePostgres (whose SwiftNIO C modules the PostgreSQL snippets load), SlateTesting (whose
/// swift-syntax C module the testing snippets load) and SlatePostgresTesting into
/// `directory`: the snippets need the same to load the modules (the C modules' maps and header
/// paths change with the package's traits and layout).
func buildFlags(description path: String, directory: String) -> (flags: [String], plugins: [String])? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    var flags: [String] = []
    var plugins: [String] = []
    var found = false
    for line in text.components(separatedBy: "\n") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("args: ["),
            ["Slate", "SlateMacros", "SlatePostgres", "SlateTesting", "SlatePostgresTesting"].contains(where: {
                module in
                trimmed.contains("\"-module-name\",\"\(module)\"")
                    && trimmed.contains("\"\(directory)/\(module).swiftmodule\"")
            }),
            let data = trimmed.dropFirst("args: ".count).data(using: .utf8),
            let arguments = try? JSONSerialization.jsonObject(with: data) as? [String]
        else { continue }
        found = true
        var index = 0
        while index + 1 < arguments.count {
            if arguments[index] == "-Xcc" {
                let flag = ["-Xcc", arguments[index + 1]]
                // -I takes its value as the next -Xcc argument.
                if arguments[index + 1] == "-I", index + 3 < arguments.count {
                    let pair = flag + ["-Xcc", arguments[index + 3]]
                    if !contains(flags, pair) { flags += pair }
                    index += 4
                    continue
                }
                if !contains(flags, flag) { flags += flag }
            } else if arguments[index] == "-load-plugin-executable" {
                // Passed to the frontend as -Xfrontend -load-plugin-executable -Xfrontend VALUE.
                let value =
                    arguments[index + 1] == "-Xfrontend" && index + 2 < arguments.count
                    ? arguments[index + 2] : arguments[index + 1]
                if !plugins.contains(value) { plugins.append(value) }
            }
            index += 1
        }
    }
    return found ? (flags, plugins) : nil
}

/// Whether `list` holds `sequence` at an even position (as a flag and its value).
func contains(_ list: [String], _ sequence: [String]) -> Bool {
    stride(from: 0, to: list.count - sequence.count + 1, by: 2).contains {
        Array(list[$0..<$0 + sequence.count]) == sequence
    }
}
