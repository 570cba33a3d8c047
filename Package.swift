// swift-tools-version: 6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

let package = Package(
    name: "Slate",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Slate", targets: ["Slate"]),
        .library(name: "CSQLite", targets: ["CSQLite"]),
        // The `@Table` macro: a separate product, so users of `Slate` alone never build swift-syntax.
        .library(name: "SlateMacros", targets: ["SlateMacros"]),
        // Schema first: the schema reader, `slate generate` and its plugins. Only the executable and
        // the plugins need swift-argument-parser, so users of `Slate` alone never build it.
        .library(name: "SlateSchema", targets: ["SlateSchema"]),
        .executable(name: "slate", targets: ["SlateCLI"]),
        // The same tool under its target's name, which is how SwiftPM finds a plugin's tool.
        .executable(name: "SlateCLI", targets: ["SlateCLI"]),
        .plugin(name: "SlateBuildPlugin", targets: ["SlateBuildPlugin"]),
        .plugin(name: "SlateGenerateCommand", targets: ["SlateGenerateCommand"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
        ),
        .target(
            name: "Slate",
            dependencies: ["CSQLite"]
        ),
        .testTarget(
            name: "SlateTests",
            dependencies: ["Slate", "CSQLite"],
            resources: [.copy("Resources")]
        ),
        // MARK: Code first: the @Table macro, Codable records, self-managing tables
        // The one emitter of `Table` conformances, for the macro plugin and the generator: it
        // depends on nothing, so the two cannot drift apart.
        .target(name: "SlateCodeModel"),
        .macro(
            name: "SlateMacrosPlugin",
            dependencies: [
                "SlateCodeModel",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "SlateMacros",
            dependencies: ["Slate", "SlateMacrosPlugin"]
        ),
        .testTarget(
            name: "SlateMacrosTests",
            dependencies: [
                "SlateMacrosPlugin", "SlateCodeModel",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "SlateMacroRuntimeTests",
            dependencies: ["SlateMacros"],
            // The generator's version of Schema/gadgets.sql, next to the macro's and a hand-written
            // one: the one-table-model tests compare the three.
            exclude: ["slate.json", "Schema"],
            plugins: ["SlateBuildPlugin"]
        ),
        // Codable records and self-managing tables need no macro.
        .testTarget(
            name: "SlateRecordTests",
            dependencies: ["Slate"]
        ),
        // MARK: Schema first: schema reader, generator, `slate` tool and plugins
        .target(
            name: "SlateSchema",
            dependencies: ["Slate", "CSQLite"]
        ),
        .target(
            name: "SlateGenerator",
            dependencies: ["SlateSchema", "SlateCodeModel"]
        ),
        // The `slate` command. Its module is not called `slate`, which would clash with `Slate` on
        // case-insensitive file systems.
        .executableTarget(
            name: "SlateCLI",
            dependencies: [
                "SlateGenerator", "SlateSchema", "Slate",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .plugin(
            name: "SlateBuildPlugin",
            capability: .buildTool(),
            dependencies: ["SlateCLI"]
        ),
        .plugin(
            name: "SlateGenerateCommand",
            capability: .command(
                intent: .custom(
                    verb: "slate-generate",
                    description: "Write Swift code for the SQLite databases and .sql files of targets into their sources"),
                permissions: [.writeToPackageDirectory(reason: "Writes the generated Swift files into the targets' directories")]
            ),
            dependencies: ["SlateCLI"]
        ),
        .testTarget(
            name: "SlateSchemaTests",
            dependencies: ["SlateSchema", "Slate"]
        ),
        // The build plugin generates code for the bundled databases and the hard-case fixtures
        // (slate.json), so the target builds only if that code compiles.
        .testTarget(
            name: "SlateGeneratorTests",
            dependencies: ["SlateGenerator", "SlateSchema", "Slate"],
            exclude: ["slate.json", "Fixtures", "Queries", "Resources/chinook.schema.sql", "Resources/northwind.schema.sql"],
            resources: [.copy("Resources/chinook.sqlite"), .copy("Resources/northwind.sqlite")],
            plugins: ["SlateBuildPlugin"]
        ),
        // Raw-style generated code, with SQLite alone: no Slate.
        .testTarget(
            name: "SlateRawGenerationTests",
            dependencies: ["CSQLite"],
            exclude: ["slate.json"],
            plugins: ["SlateBuildPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI's ThreadSanitizer run (.ci/sanitize-thread.sh) needs only the core and its tests. With
// SLATE_CORE_ONLY=1 the manifest leaves out the macro and generator targets, so that run does not
// build swift-syntax and swift-argument-parser a second time under TSan. Users never set it.
if ProcessInfo.processInfo.environment["SLATE_CORE_ONLY"] == "1" {
    let core: Set<String> = ["CSQLite", "Slate", "SlateTests"]
    package.targets.removeAll { !core.contains($0.name) }
    package.products.removeAll { !["Slate", "CSQLite"].contains($0.name) }
    package.dependencies.removeAll()
}
