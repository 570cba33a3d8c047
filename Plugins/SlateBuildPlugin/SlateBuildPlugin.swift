import Foundation
import PackagePlugin

/// Generates Swift code at build time for the SQLite databases (`.sqlite`, `.sqlite3`, `.db`,
/// `.db3`) and SQL schema files (`.sql`) of a target, with `slate generate`.
///
/// Apply it to a target and declare the database files as resources:
///
/// ```swift
/// .target(
///     name: "Catalog",
///     dependencies: [.product(name: "Slate", package: "Slate")],
///     resources: [.copy("catalog.sqlite")],
///     plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")])
/// ```
///
/// Each database file becomes one database type; all `.sql` files of the target together form
/// one schema, applied in name order. A database file declared as a resource also gets
/// `bundled()`, which opens it read-only from `Bundle.module`; `.sql` files never do. A
/// `slate.json` in the target's directory (excluded from the target) configures the generator,
/// and its `inputs` list, when present, names the files to use.
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
            tool: try context.tool(named: "SlateCLI").url, targetName: target.name, targetDirectory: target.directoryURL,
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
            tool: try context.tool(named: "SlateCLI").url, targetName: target.displayName,
            targetDirectory: context.xcodeProject.directoryURL, files: files,
            workDirectory: context.pluginWorkDirectoryURL, bundleAccessors: false)
    }
}
#endif
