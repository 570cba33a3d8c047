import Foundation
import PackagePlugin

/// Writes the code `slate generate` makes for a target's SQLite databases and `.sql` files into
/// the target's sources, where it can be read, reviewed and committed:
///
/// ```sh
/// swift package --allow-writing-to-package-directory slate-generate [--target Name …]
/// ```
///
/// Without `--target`, every target with inputs is processed. Each database file `x.sqlite`
/// gives `x+Slate.swift` next to the target's sources; all `.sql` files of a target together give
/// one file. A database file the target declares as a resource also gets `bundled()`, which opens
/// it from `Bundle.module`. A `slate.json` in the target's directory configures the generator.
/// Use either this plugin or the build-tool plugin on a target, not both.
@main
struct SlateGenerateCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let tool = try context.tool(named: "SlateCLI").url
        var generated = 0
        for case let target as SourceModuleTarget in targets {
            let files = target.sourceFiles.map { InputFile(url: $0.url, isResource: $0.type == .resource) }
            let directory = target.directoryURL
            let commands = try SlateInputs.commands(
                tool: tool, targetName: target.name, targetDirectory: directory, files: files,
                workDirectory: directory, bundleAccessors: true)
            for command in commands {
                guard case .buildCommand(let displayName, let executable, let arguments, _, _, _) = command else { continue }
                print("\(target.name): " + (displayName ?? "generating Swift"))
                try run(executable, arguments)
                generated += 1
            }
        }
        if generated == 0 {
            Diagnostics.warning("no target has SQLite database or .sql files to generate code for")
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
