// swift-tools-version: 6.0
// The Slate benchmark harness. A separate package, so that Slate itself never depends on GRDB.
//
//     swift run -c release --package-path Benchmarks slate-bench [--quick] [--json FILE] [--filter TEXT]
//
// SLATE_BENCH_WITHOUT_MACRO=1 leaves out the `@Table` macro and its `slate-macro` contenders, so that
// swift-syntax is not built in release (minutes on a small machine): CI's quick run uses it.
// SLATE_BENCH_WITHOUT_PEERS=1 leaves out the Vapor-stack peers (SQLiteNIO and Fluent in slate-bench,
// Fluent on PostgreSQL in slate-pg-bench), which build SwiftNIO, SQLiteNIO's own SQLite and Fluent:
// CI's quick run uses it too.
import Foundation
import PackageDescription

let withoutMacro = ProcessInfo.processInfo.environment["SLATE_BENCH_WITHOUT_MACRO"] == "1"
let withoutPeers = ProcessInfo.processInfo.environment["SLATE_BENCH_WITHOUT_PEERS"] == "1"

/// What server-side Swift users pick instead (README: Peers): SQLiteNIO with raw SQL and Fluent models.
let sqlitePeers: [Target.Dependency] =
    withoutPeers
    ? []
    : [
        .product(name: "SQLiteNIO", package: "sqlite-nio"),
        .product(name: "FluentKit", package: "fluent-kit"),
        .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
    ]
/// Fluent on PostgreSQL, beside the hand-written postgres-nio of slate-pg-bench.
let postgresPeers: [Target.Dependency] =
    withoutPeers
    ? []
    : [
        .product(name: "FluentKit", package: "fluent-kit"),
        .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
    ]
let peerSettings: [SwiftSetting] = withoutPeers ? [.define("SLATE_BENCH_WITHOUT_PEERS")] : []

let package = Package(
    name: "SlateBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `name:` pins the package identity to "Slate" whatever the clone's directory is called.
        .package(name: "Slate", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // The hand-written contender of slate-pg-bench; the version SlatePostgres uses.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ]
        + (withoutPeers
            ? []
            : [
                .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
                .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
                .package(url: "https://github.com/vapor/fluent-sqlite-driver", exact: "4.9.0"),
                .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
            ]),
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
                + sqlitePeers
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
            swiftSettings: (withoutMacro ? [.define("SLATE_BENCH_WITHOUT_MACRO")] : []) + peerSettings,
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
            ] + postgresPeers,
            swiftSettings: peerSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
