// Shared by SlateBuildPlugin and SlateGenerateCommand (plugins cannot share code): keep the two copies identical.
import Foundation
import PackagePlugin

/// One file of the target.
struct InputFile {
    var url: URL
    var isResource: Bool
}

/// Finds a target's inputs and makes one `slate generate` command per database.
enum SlateInputs {
    static let databaseExtensions: Set<String> = ["sqlite", "sqlite3", "db", "db3"]

    static func commands(
        tool: URL, targetName: String, targetDirectory: URL, files: [InputFile], workDirectory: URL, bundleAccessors: Bool
    ) throws -> [Command] {
        let configURL = targetDirectory.appendingPathComponent("slate.json")
        let hasConfig = FileManager.default.fileExists(atPath: configURL.path)
        var candidates = files
        if hasConfig, let inputs = try listedInputs(configURL) {
            let wanted = Set(inputs.map { targetDirectory.appendingPathComponent($0).standardizedFileURL.path })
            candidates = files.filter { wanted.contains($0.url.standardizedFileURL.path) }
            for path in inputs where !files.contains(where: { $0.url.standardizedFileURL.path == targetDirectory.appendingPathComponent(path).standardizedFileURL.path }) {
                // A listed file SwiftPM does not see (excluded from the target) is still used.
                candidates.append(InputFile(url: targetDirectory.appendingPathComponent(path), isResource: false))
            }
        }
        let databases = candidates.filter { databaseExtensions.contains($0.url.pathExtension.lowercased()) }
            .sorted { $0.url.path < $1.url.path }
        let scripts = candidates.filter { $0.url.pathExtension.lowercased() == "sql" }.sorted { $0.url.path < $1.url.path }
        let groupCount = databases.count + (scripts.isEmpty ? 0 : 1)

        var commands: [Command] = []
        for database in databases {
            let stem = database.url.deletingPathExtension().lastPathComponent
            let output = workDirectory.appendingPathComponent("\(stem)+Slate.swift")
            var arguments = ["generate", database.url.path, "--output", output.path]
            if hasConfig { arguments += ["--config", configURL.path] }
            if groupCount > 1 { arguments += ["--name", typeName(stem)] }
            if bundleAccessors && database.isResource {
                arguments.append("--module-bundle-accessor")
                let directory = database.url.deletingLastPathComponent().standardizedFileURL.path
                let root = targetDirectory.standardizedFileURL.path
                if directory.hasPrefix(root + "/") {
                    arguments += ["--resource-subdirectory", String(directory.dropFirst(root.count + 1))]
                }
            }
            commands.append(.buildCommand(
                displayName: "Generating Swift for \(database.url.lastPathComponent)",
                executable: tool, arguments: arguments,
                inputFiles: [database.url] + (hasConfig ? [configURL] : []), outputFiles: [output]))
        }
        if !scripts.isEmpty {
            let stem = scripts.count == 1 ? scripts[0].url.deletingPathExtension().lastPathComponent : targetName
            let output = workDirectory.appendingPathComponent("\(stem)+Slate.swift")
            var arguments = ["generate"] + scripts.map(\.url.path) + ["--output", output.path]
            if hasConfig { arguments += ["--config", configURL.path] }
            if groupCount > 1 || scripts.count > 1 { arguments += ["--name", typeName(stem)] }
            commands.append(.buildCommand(
                displayName: "Generating Swift for \(scripts.map(\.url.lastPathComponent).joined(separator: ", "))",
                executable: tool, arguments: arguments,
                inputFiles: scripts.map(\.url) + (hasConfig ? [configURL] : []), outputFiles: [output]))
        }
        return commands
    }

    /// The `inputs` of `slate.json`, or `nil` when it has none.
    static func listedInputs(_ url: URL) throws -> [String]? {
        let data = try Data(contentsOf: url)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["inputs"] as? [String]
    }

    /// `northwind.schema` → `NorthwindDatabase`, as `slate generate` names types.
    static func typeName(_ stem: String) -> String {
        let base = stem.split(separator: ".").first.map(String.init) ?? stem
        let words = base.split { !$0.isLetter && !$0.isNumber }.map { word in
            word.prefix(1).uppercased() + word.dropFirst()
        }
        var name = words.joined()
        if name.isEmpty { name = "Schema" }
        if let first = name.first, first.isNumber { name = "T" + name }
        return name.hasSuffix("Database") ? name : name + "Database"
    }
}
