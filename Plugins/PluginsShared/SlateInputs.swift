// Shared by SlateBuildPlugin and SlateGenerateCommand: plugins cannot depend on a library target, so each plugin's folder links this one file.
import Foundation
import PackagePlugin

/// One file of the target.
struct InputFile {
    var url: URL
    var isResource: Bool
}

/// A problem with a target's inputs, said with the file it concerns.
struct SlateInputError: Error, CustomStringConvertible {
    var description: String
}

/// Finds a target's inputs and makes one `slate generate` command per database.
///
/// The inputs are the `.sqlite`, `.sqlite3`, `.db`, `.db3` and `.sql` files under the target's
/// directory — declared as resources, left for the build plugin, or excluded from the target: an
/// excluded file is still an input — or, when the target's `slate.json` has an `inputs` list, the
/// files it names. Each database file makes one database type, with the named queries of the
/// `.sql` files named after it (`chinook.sqlite` ↔ `chinook.queries.sql`); the other `.sql` files
/// together make one more (schema and named queries).
enum SlateInputs {
    static let databaseExtensions: Set<String> = ["sqlite", "sqlite3", "db", "db3"]

    static func commands(
        tool: URL, targetName: String, targetDirectory: URL, files: [InputFile], workDirectory: URL,
        bundleAccessors: Bool
    ) throws -> [Command] {
        try plans(
            targetName: targetName, targetDirectory: targetDirectory, files: files, bundleAccessors: bundleAccessors
        )
        .map { plan in
            let output = workDirectory.appendingPathComponent(plan.outputName)
            return .buildCommand(
                displayName: plan.displayName, executable: tool, arguments: plan.arguments + ["--output", output.path],
                inputFiles: plan.inputFiles, outputFiles: [output])
        }
    }

    /// One `slate generate` run: its arguments (without `--output`), inputs and output file name.
    struct Plan {
        var displayName: String
        var arguments: [String]
        var inputFiles: [URL]
        var outputName: String
    }

    static func plans(targetName: String, targetDirectory: URL, files: [InputFile], bundleAccessors: Bool) throws
        -> [Plan]
    {
        let configURL = targetDirectory.appendingPathComponent("slate.json")
        let hasConfig = FileManager.default.fileExists(atPath: configURL.path)
        func key(_ url: URL) -> String { url.standardizedFileURL.resolvingSymlinksInPath().path }
        var known: [String: InputFile] = [:]
        for file in files { known[key(file.url)] = file }

        var candidates: [InputFile]
        if hasConfig, let inputs = try listedInputs(configURL) {
            candidates = []
            for path in inputs {
                let url = targetDirectory.appendingPathComponent(path)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    throw SlateInputError(
                        description:
                            "\(configURL.path): the input \"\(path)\" does not exist (looked for \(url.standardizedFileURL.path))"
                    )
                }
                // A listed file SwiftPM does not see (excluded from the target) is still used.
                candidates.append(known[key(url)] ?? InputFile(url: url, isResource: false))
            }
        } else {
            // Every input file under the target's directory, excluded ones too.
            candidates = files.filter { isInput($0.url) }
            for url in inputFiles(under: targetDirectory) where known[key(url)] == nil {
                candidates.append(InputFile(url: url, isResource: false))
            }
        }
        let databases = candidates.filter { databaseExtensions.contains($0.url.pathExtension.lowercased()) }
            .sorted { $0.url.path < $1.url.path }
        var scripts = candidates.filter { $0.url.pathExtension.lowercased() == "sql" }.sorted {
            $0.url.path < $1.url.path
        }

        // A database's queries: `<stem>.queries.sql`, `<stem>.<anything>.queries.sql`.
        var groups: [(database: InputFile?, scripts: [InputFile])] = []
        for database in databases {
            let stem = database.url.deletingPathExtension().lastPathComponent.lowercased()
            let own = scripts.filter { script in
                let name = script.url.lastPathComponent.lowercased()
                return name.hasPrefix(stem + ".") && name.hasSuffix(".queries.sql")
            }
            scripts.removeAll { script in own.contains { $0.url == script.url } }
            groups.append((database, own))
        }
        if !scripts.isEmpty { groups.append((nil, scripts)) }

        // Output files and type names: from the stem; from the path, then with the extension, when
        // stems collide (Swift refuses two files of one name in a module).
        let root = key(targetDirectory)
        func relativeStem(_ url: URL, keepingExtension: Bool) -> String {
            var path = key(keepingExtension ? url : url.deletingPathExtension())
            if path.hasPrefix(root + "/") { path = String(path.dropFirst(root.count + 1)) }
            return path.split(whereSeparator: { $0 == "/" || $0 == "." }).joined(separator: "_")
        }
        var stems = groups.map { group -> String in
            if let database = group.database { return database.url.deletingPathExtension().lastPathComponent }
            return group.scripts.count == 1
                ? group.scripts[0].url.deletingPathExtension().lastPathComponent : targetName
        }
        for keepingExtension in [false, true] {
            let counts = Dictionary(stems.map { ($0.lowercased(), 1) }, uniquingKeysWith: +)
            for index in stems.indices where (counts[stems[index].lowercased()] ?? 0) > 1 {
                let file = groups[index].database ?? groups[index].scripts[0]
                stems[index] = relativeStem(
                    file.url, keepingExtension: keepingExtension || groups[index].database == nil)
            }
        }
        var typeNames: [String: URL] = [:]
        for (index, group) in groups.enumerated() where groups.count > 1 || group.scripts.count > 1 {
            let name = typeName(stems[index])
            if let other = typeNames[name.lowercased()] {
                throw SlateInputError(
                    description:
                        "\(other.path) and \((group.database ?? group.scripts[0]).url.path) would both generate \(name): rename one, or list the inputs to use in slate.json"
                )
            }
            typeNames[name.lowercased()] = (group.database ?? group.scripts[0]).url
        }

        var plans: [Plan] = []
        for (index, group) in groups.enumerated() {
            let inputs = (group.database.map { [$0] } ?? []) + group.scripts
            var arguments = ["generate"] + inputs.map(\.url.path)
            if hasConfig { arguments += ["--config", configURL.path] }
            if groups.count > 1 || group.scripts.count > 1 { arguments += ["--name", typeName(stems[index])] }
            if let database = group.database, bundleAccessors && database.isResource {
                arguments.append("--module-bundle-accessor")
                let directory = key(database.url.deletingLastPathComponent())
                if directory.hasPrefix(root + "/") {
                    arguments += ["--resource-subdirectory", String(directory.dropFirst(root.count + 1))]
                }
            }
            plans.append(
                Plan(
                    displayName: "Generating Swift for \(inputs.map(\.url.lastPathComponent).joined(separator: ", "))",
                    arguments: arguments, inputFiles: inputs.map(\.url) + (hasConfig ? [configURL] : []),
                    outputName: "\(stems[index])+Slate.swift"))
        }
        return plans
    }

    /// Whether `url` has an input's extension.
    static func isInput(_ url: URL) -> Bool {
        let pathExtension = url.pathExtension.lowercased()
        return pathExtension == "sql" || databaseExtensions.contains(pathExtension)
    }

    /// The input files under `directory`, skipping hidden directories and build directories.
    static func inputFiles(under directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var result: [URL] = []
        for case let url as URL in enumerator {
            if url.lastPathComponent.hasPrefix(".build") {
                enumerator.skipDescendants()
                continue
            }
            guard isInput(url), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else {
                continue
            }
            result.append(url)
        }
        return result.sorted { $0.path < $1.path }
    }

    /// The `inputs` of `slate.json`, or `nil` when it has none.
    static func listedInputs(_ url: URL) throws -> [String]? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SlateInputError(description: "\(url.path): cannot read the file: \(error.localizedDescription)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let reason =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            throw SlateInputError(description: "\(url.path): not valid JSON: \(reason)")
        }
        guard let dictionary = object as? [String: Any] else {
            throw SlateInputError(description: "\(url.path): expected a JSON object ({ … }) of options")
        }
        guard let inputs = dictionary["inputs"] else { return nil }
        guard let list = inputs as? [String] else {
            throw SlateInputError(
                description: "\(url.path): \"inputs\" must be a list of file paths relative to the target's directory")
        }
        return list
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
