import Foundation
import PackagePlugin

/// Generates Swift code at build time for the SQLite databases (`.sqlite`, `.sqlite3`, `.db`,
/// `.db3`) and SQL files (`.sql`) of a target, with `slate generate`.
///
/// The recommended setup: the schema and named queries as `.sql` files in a folder of the target,
/// next to at least one Swift file (SwiftPM skips a target without one), and nothing to declare:
///
/// ```swift
/// .target(
///     name: "Catalog",
///     dependencies: [.product(name: "Slate", package: "Slate")],
///     plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")])
/// ```
///
/// The inputs are every such file under the target's directory — plain, declared as resources, or
/// excluded — or, when the target's `slate.json` has an `inputs` list, the files it names. Each
/// database file becomes one database type, with the named queries of the `.sql` files named after
/// it (`catalog.sqlite` ↔ `catalog.queries.sql`); the other `.sql` files of the target together
/// form one schema with its named queries, applied in name order. A database file declared as a
/// resource (`resources: [.copy("catalog.sqlite")]`) also gets `bundled()`, which opens it
/// read-only from `Bundle.module`; `.sql` files never do. Inputs with the same file name get
/// distinct output files and type names. `slate.json` (excluded from the target) configures the
/// generator; a malformed one is reported with its path.
///
/// Editing `slate.json` regenerates the code on the next build. Changing its `inputs` list changes
/// which commands the plugin creates, and SwiftPM asks the plugin again only when it re-plans the
/// package: touch `Package.swift` (or add or remove a file of the target) after editing it.
@main
struct SlateBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles.map { InputFile(url: $0.url, isResource: $0.type == .resource) }
        return try SlateInputs.commands(
            tool: try context.tool(named: "SlateGenerateTool").url, targetName: target.name,
            targetDirectory: target.directoryURL,
            files: files, workDirectory: context.pluginWorkDirectoryURL, bundleAccessors: true)
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension SlateBuildPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            // Xcode app targets have no `Bundle.module`: `bundled(in: .main)` opens bundled files.
            let files = target.inputFiles.map { InputFile(url: $0.url, isResource: $0.type == .resource) }
            return try SlateInputs.commands(
                tool: try context.tool(named: "SlateGenerateTool").url, targetName: target.displayName,
                targetDirectory: context.xcodeProject.directoryURL, files: files,
                workDirectory: context.pluginWorkDirectoryURL, bundleAccessors: false)
        }
    }
#endif
