import Foundation
import PackagePlugin

/// Writes the code `slate generate` makes for a target's SQLite databases and `.sql` files into
/// the target's sources, where it can be read, reviewed and committed:
///
/// ```sh
/// swift package --allow-writing-to-package-directory slate-generate [--target Name …]
/// ```
///
/// Without `--target`, every target with inputs is processed. The inputs are the `.sqlite`,
/// `.sqlite3`, `.db`, `.db3` and `.sql` files under the target's directory, excluded ones included
/// (exclude them in `Package.swift`, so SwiftPM does not warn about unhandled files), or the
/// `inputs` listed in the target's `slate.json`. Each database file `x.sqlite` gives
/// `x+Slate.swift` next to the target's sources, with the named queries of `x.queries.sql`; the
/// other `.sql` files of a target together give one file. A database file the target declares as
/// a resource also gets `bundled()`, which opens it from `Bundle.module`. A `slate.json` in the
/// target's directory configures the generator.
///
/// SwiftPM leaves out a target that has no Swift file yet. A `Sources/<name>` (or `Tests/<name>`)
/// directory holding only inputs is processed all the same: the file written there makes the
/// target build from then on.
///
/// Use either this plugin or the build-tool plugin on a target, not both.
@main
struct SlateGenerateCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let tool = try context.tool(named: "SlateGenerateTool").url
        let known = context.package.targets

        var work: [(name: String, directory: URL, files: [InputFile])] = []
        for case let target as SourceModuleTarget in known where names.isEmpty || names.contains(target.name) {
            let files = target.sourceFiles.map { InputFile(url: $0.url, isResource: $0.type == .resource) }
            work.append((target.name, target.directoryURL, files))
        }
        // Directories of targets SwiftPM skipped because they hold no Swift file yet.
        let knownDirectories = Set(
            known.compactMap { ($0 as? SourceModuleTarget)?.directoryURL.standardizedFileURL.path })
        var skipped: [String] = []
        for base in ["Sources", "Tests"] {
            let parent = context.package.directoryURL.appendingPathComponent(base)
            let children =
                (try? FileManager.default.contentsOfDirectory(at: parent, includingPropertiesForKeys: [.isDirectoryKey]))
                ?? []
            for directory in children.sorted(by: { $0.path < $1.path }) {
                let name = directory.lastPathComponent
                guard (try? directory.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true,
                    !knownDirectories.contains(directory.standardizedFileURL.path),
                    names.isEmpty || names.contains(name),
                    !work.contains(where: { $0.name == name }), !SlateInputs.inputFiles(under: directory).isEmpty
                else { continue }
                work.append((name, directory, []))
                skipped.append(name)
            }
        }
        for name in names where !work.contains(where: { $0.name == name }) {
            throw SlateGenerateError(
                message:
                    "no target \(name) with SQLite database or .sql files (looked in the package's targets and in Sources/\(name) and Tests/\(name))"
            )
        }

        var generated = 0
        for (name, directory, files) in work {
            let commands = try SlateInputs.commands(
                tool: tool, targetName: name, targetDirectory: directory, files: files, workDirectory: directory,
                bundleAccessors: true)
            for command in commands {
                guard case .buildCommand(let displayName, let executable, let arguments, _, let outputs, _) = command
                else { continue }
                print("\(name): " + (displayName ?? "generating Swift"))
                try run(executable, arguments)
                generated += 1
                if skipped.contains(name), let output = outputs.first {
                    print(
                        "\(name): SwiftPM skips a target without Swift files; \(output.lastPathComponent) is its first, so it builds from now on"
                    )
                }
            }
        }
        if generated == 0 {
            Diagnostics.warning(
                "no target has SQLite database or .sql files to generate code for (looked for .sqlite, .sqlite3, .db, .db3 and .sql "
                    + "files under each target's directory, excluded ones included, and for the inputs of each target's slate.json)"
            )
        }
    }

    func run(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw SlateGenerateError(message: text)  // SwiftPM prints it once, as the command's error
        }
    }
}

struct SlateGenerateError: Error, CustomStringConvertible {
    var message: String
    var description: String { "slate generate failed: \(message)" }
}
