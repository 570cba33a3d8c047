// swift-tools-version: 6.0
// The Slate benchmark harness. A separate package, so that Slate itself never depends on GRDB.
//
//     swift run -c release --package-path Benchmarks slate-bench [--quick] [--json FILE] [--filter TEXT]
//
// SLATE_BENCH_WITHOUT_MACRO=1 leaves out the `@Table` macro and its `slate-macro` contenders, so that
// swift-syntax is not built in release (minutes on a small machine): CI's quick run uses it.
import Foundation
import PackageDescription

let withoutMacro = ProcessInfo.processInfo.environment["SLATE_BENCH_WITHOUT_MACRO"] == "1"

let package = Package(
    name: "SlateBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `name:` pins the package identity to "Slate" whatever the clone's directory is called.
        .package(name: "Slate", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The hand-written contender of slate-pg-bench; the version SlatePostgres uses.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        // Callgrind client requests, for `slate-bench --instructions` (no-ops outside valgrind, and
        // without valgrind's headers).
        .target(name: "CallgrindControl"),
        .executableTarget(
            name: "slate-bench",
            dependencies: [
                .product(name: "Slate", package: "Slate"),
                .product(name: "CSQLite", package: "Slate"),
                .product(name: "SlateSync", package: "Slate"),
                .product(name: "GRDB", package: "GRDB.swift"),
                "CallgrindControl",
            ]
                + (withoutMacro
                    ? []
                    : [
                        // The `@Table` macro (`slate-macro` contenders); builds swift-syntax for the host.
                        .product(name: "SlateMacros", package: "Slate")
                    ]),
            // slate.json configures the build plugin (it is read by the plugin, not compiled).
            exclude: ["slate.json"],
            resources: [
                .copy("Resources/northwind.sqlite"), .copy("Schema/item.sql"), .copy("Schema/checked_tables.sql"),
            ],
            swiftSettings: withoutMacro ? [.define("SLATE_BENCH_WITHOUT_MACRO")] : [],
            // Generates `GeneratedItem` from Schema/item.sql at build time (`slate-generated`) and
            // the 50 `checked_*` records of Schema/checked_tables.sql (`schema-check-50`), and
            // builds the `SlateCLI` tool that the `codegen-*` scenarios run.
            plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")]
        ),
        // SlatePostgres against hand-written postgres-nio on a server it starts (README: PostgreSQL).
        // A separate executable: run-quick.sh builds only slate-bench, so CI's quick run does not
        // build SwiftNIO in release.
        .executableTarget(
            name: "slate-pg-bench",
            dependencies: [
                .product(name: "Slate", package: "Slate"),
                .product(name: "SlatePostgres", package: "Slate"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                "CallgrindControl",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
