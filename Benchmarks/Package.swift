// swift-tools-version: 6.0
// The Slate benchmark harness. A separate package, so that Slate itself never depends on GRDB.
//
//     swift run -c release --package-path Benchmarks slate-bench [--quick] [--json FILE] [--filter TEXT]
import PackageDescription

let package = Package(
    name: "SlateBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `name:` pins the package identity to "Slate" whatever the clone's directory is called.
        .package(name: "Slate", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "slate-bench",
            dependencies: [
                .product(name: "Slate", package: "Slate"),
                // The `@Table` macro (`slate-macro` contenders); builds swift-syntax for the host.
                .product(name: "SlateMacros", package: "Slate"),
                .product(name: "CSQLite", package: "Slate"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // slate.json configures the build plugin (it is read by the plugin, not compiled).
            exclude: ["slate.json"],
            resources: [.copy("Resources/northwind.sqlite"), .copy("Schema/item.sql")],
            // Generates `GeneratedItem` from Schema/item.sql at build time (`slate-generated`), and
            // builds the `SlateCLI` tool that the `codegen-*` scenarios run.
            plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
