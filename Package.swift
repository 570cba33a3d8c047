// swift-tools-version: 6.1
// 6.1 for package traits (SQLCipher).
import CompilerPluginSupport
import Foundation
import PackageDescription

let package = Package(
    name: "Slate",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        // Everything at run time: `import Slate` re-exports the four layers below.
        .library(name: "Slate", targets: ["Slate"]),
        // Each layer on its own, for users who want less: the C-API wrapper; plus queues, pools
        // and migrations; plus the table model and query builder; plus Codable records,
        // self-managing tables and CSV.
        .library(name: "SlateCore", targets: ["SlateCore"]),
        .library(name: "SlateConcurrency", targets: ["SlateConcurrency"]),
        .library(name: "SlateQuery", targets: ["SlateQuery"]),
        .library(name: "SlateRecords", targets: ["SlateRecords"]),
        .library(name: "CSQLite", targets: ["CSQLite"]),
        // Sync on top of the session extension (changesets): replicas, the server's log, transports
        // (in memory, HTTP over URLSession). A separate product: users who do not sync never build it.
        .library(name: "SlateSync", targets: ["SlateSync"]),
        // The same tables and queries on PostgreSQL, through postgres-nio: a separate product, so
        // users of `Slate` alone never build SwiftNIO (SwiftPM builds only the products used), and
        // behind the default trait `PostgreSQL`, so that a package that leaves it out
        // (`traits: []`) does not even fetch postgres-nio and its 12 dependencies.
        .library(name: "SlatePostgres", targets: ["SlatePostgres"]),
        // Slate in a server (issue 32): logs, spans and metrics through swift-log,
        // swift-distributed-tracing and swift-metrics; and pools and queues as swift-service-lifecycle
        // services. Separate products, so users of `Slate` alone never build them (Benchmarks/README.md
        // has what each adds to a clean build).
        .library(name: "SlateTelemetry", targets: ["SlateTelemetry"]),
        .library(name: "SlateLifecycle", targets: ["SlateLifecycle"]),
        // The `@Table` macro: a separate product, so users of `Slate` alone never build swift-syntax.
        .library(name: "SlateMacros", targets: ["SlateMacros"]),
        // Schema first: the schema reader, `slate generate` and its plugins. Only the executable and
        // the plugins need swift-argument-parser, so users of `Slate` alone never build it.
        .library(name: "SlateSchema", targets: ["SlateSchema"]),
        .executable(name: "slate", targets: ["SlateCLI"]),
        // The same tool under its target's name, which is how SwiftPM finds a plugin's tool.
        .executable(name: "SlateCLI", targets: ["SlateCLI"]),
        .plugin(name: "SlateBuildPlugin", targets: ["SlateBuildPlugin"]),
        // Reliability tools (issue 13): the fuzzer, the SIGKILL loop and the pool load run.
        .executable(name: "slate-fuzz", targets: ["SlateFuzz"]),
        .plugin(name: "SlateGenerateCommand", targets: ["SlateGenerateCommand"]),
        // For users' test targets: fixture copies, seeded databases, dumps, the migration check,
        // `assertQuery` (DocC article "Testing apps that use Slate") and the fault-injecting VFS with
        // its fault sweeps (issue 34). Apps that do not import it build none of it. `assertQuery`
        // needs swift-snapshot-testing, which builds swift-syntax; SlateTestingCore is the rest, for
        // test targets that must not build it.
        .library(name: "SlateTesting", targets: ["SlateTesting"]),
        .library(name: "SlateTestingCore", targets: ["SlateTestingCore"]),
        // A throwaway PostgreSQL server for users' PostgreSQL tests: a product of its own, so users of
        // SlateTesting with SQLite alone never build SwiftNIO.
        .library(name: "SlatePostgresTesting", targets: ["SlatePostgresTesting"]),
    ],
    // Opt-in: `.package(url: …, from: …, traits: ["SQLCipher"])` or `swift build --traits SQLCipher`.
    // `PostgreSQL` and `Server` are on by default (`traits: []` or `traits: ["SQLCipher"]` leave them
    // out): a SQLite-only client fetches 19 packages with them, 5 without (Benchmarks/clean-build-cost.sh).
    traits: [
        .trait(
            name: "PostgreSQL",
            description:
                "The SlatePostgres product: fetches postgres-nio and SwiftNIO. Leave it out (traits: []) when you use SQLite only"
        ),
        .trait(
            name: "Server",
            description:
                "The SlateTelemetry and SlateLifecycle products: fetches swift-log, swift-metrics, swift-distributed-tracing and swift-service-lifecycle. Leave it out (traits: []) when you do not use them"
        ),
        .default(enabledTraits: ["PostgreSQL", "Server"]),
        .trait(
            name: "SQLCipher",
            description: "Link SQLCipher instead of SQLite and enable encrypted databases (Database.Configuration.key)"),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Only for the SlatePostgres product, with the PostgreSQL trait.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // Only for the SlateTesting product (inline snapshots).
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
        // Only for the SlateTelemetry and SlateLifecycle products (and SlatePostgres, whose
        // postgres-nio already builds swift-log, swift-metrics and swift-service-lifecycle).
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", exact: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        // The C API: SQLite's, or SQLCipher's with the SQLCipher trait. Its header includes the
        // header of whichever library target is on the include path (Sources/CSQLite/shim.h),
        // and importing that target's module is what links the library: CSQLiteSystem links the
        // system sqlite3, CSQLCipher (a dependency with the trait only) links sqlcipher.
        .target(
            name: "CSQLite",
            dependencies: [
                "CSQLiteSystem",
                .target(name: "CSQLCipher", condition: .when(traits: ["SQLCipher"])),
            ],
            publicHeadersPath: "."  // shim.h and module.modulemap stay where the system library had them
        ),
        .target(name: "CSQLiteSystem"),
        .target(name: "CSQLCipher", linkerSettings: [.linkedLibrary("sqlcipher")]),
        // MARK: The runtime, one target per layer; arrows point down only:
        // SlateCore ← SlateConcurrency ← SlateQuery ← SlateRecords ← Slate.
        .target(
            name: "SlateCore",
            dependencies: ["CSQLite"]
        ),
        .target(
            name: "SlateConcurrency",
            dependencies: ["SlateCore"]
        ),
        .target(
            name: "SlateQuery",
            dependencies: ["SlateCore", "SlateConcurrency"]
        ),
        .target(
            name: "SlateRecords",
            dependencies: ["SlateCore", "SlateConcurrency", "SlateQuery"]
        ),
        // The umbrella users import, and the DocC catalog.
        .target(
            name: "Slate",
            dependencies: ["SlateCore", "SlateConcurrency", "SlateQuery", "SlateRecords"]
        ),
        // Sync: replicas that write offline and converge through a server's ordered log.
        .target(
            name: "SlateSync",
            dependencies: ["SlateCore", "SlateConcurrency", "SlateQuery", "CSQLite"]
        ),
        .testTarget(
            name: "SlateSyncTests",
            dependencies: ["SlateSync", "Slate", "SlateFuzzing"]
        ),
        // The PostgreSQL driver: the same tables and queries through postgres-nio.
        .target(
            name: "SlatePostgres",
            dependencies: [
                "SlateCore", "SlateConcurrency", "SlateQuery",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // MARK: Slate in a server (issue 32)
        // Logs, spans and metrics: `DatabaseTelemetry`, an implementation of SlateCore's
        // dependency-free `DatabaseInstrumentation` hooks.
        .target(
            name: "SlateTelemetry",
            dependencies: [
                "SlateCore", "SlateConcurrency",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"])),
            ]
        ),
        // `DatabasePool` and `DatabaseQueue` as services that shut down gracefully.
        .target(
            name: "SlateLifecycle",
            dependencies: [
                "SlateConcurrency",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ]
        ),
        .testTarget(
            name: "SlateServerTests",
            dependencies: [
                "Slate", "SlateTelemetry", "SlateLifecycle",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        // MARK: Tests of the runtime, one target per layer (Tests/README.md has the map)
        // What the runtime's tests share: temporary directories, the bundled Chinook and Northwind
        // databases with their hand-written tables, small test tables, helpers for concurrency tests.
        // A regular target (not a product), so every test target can depend on it.
        .target(
            name: "SlateTestSupport",
            dependencies: ["Slate", "SlateTestingCore"],
            path: "Tests/SlateTestSupport",
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "SlateCoreTests",
            dependencies: ["Slate", "CSQLite", "SlateTestSupport"]
        ),
        .testTarget(
            name: "SlateConcurrencyTests",
            dependencies: ["Slate", "CSQLite", "SlateTestSupport"]
        ),
        // The query builder's corpus: SLATE_TYPECHECK_BUDGET applies to this target (end of file).
        .testTarget(
            name: "SlateQueryTests",
            dependencies: ["Slate", "SlateTestSupport", "SlateTestingCore"]
        ),
        // Codable records and self-managing tables.
        .testTarget(
            name: "SlateRecordsTests",
            dependencies: ["Slate", "SlateTestSupport", "SlateTestingCore"]
        ),
        // CSV import and export (in SlateRecords).
        .testTarget(
            name: "SlateCSVTests",
            dependencies: ["Slate", "SlateTestSupport"]
        ),
        // SlatePostgres: the PostgreSQL dialect's rendering, and the shared Chinook corpus run on a
        // PostgreSQL server the tests start, or skipped with a message when no server binaries are
        // found.
        .testTarget(
            name: "SlatePostgresTests",
            dependencies: [
                "Slate", "SlatePostgres", "SlatePostgresTesting", "SlateTestSupport", "SlateTestingCore",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // MARK: Testing apps that use Slate: SlateTesting, SlateTestingCore, SlatePostgresTesting
        // The tools that need nothing beyond Slate and its schema reader (for the migration check).
        // Slate's own runtime tests use them too, so the target builds with SLATE_CORE_ONLY=1.
        .target(
            name: "SlateTestingCore",
            dependencies: ["Slate", "SlateSchema"]
        ),
        // What users import: SlateTestingCore and SlateTestingFaults, re-exported, and the inline
        // snapshots of `assertQuery`.
        .target(
            name: "SlateTesting",
            dependencies: [
                "SlateTestingCore", "SlateTestingFaults", "Slate",
                .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .target(
            name: "SlatePostgresTesting",
            dependencies: [
                "Slate", "SlatePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        .testTarget(
            name: "SlateTestingTests",
            dependencies: [
                "SlateTesting", "Slate", "SlateTestSupport",
                .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
            ],
            // The golden files of the `.dump` snapshot tests.
            exclude: ["__Snapshots__"]
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
            dependencies: ["SlateMacros", "SlateTestSupport", "SlateTestingCore"],
            // The generator's version of Schema/gadgets.sql, next to the macro's and a hand-written
            // one: the one-table-model tests compare the three.
            exclude: ["slate.json", "Schema"],
            plugins: ["SlateBuildPlugin"]
        ),
        // MARK: Schema first: schema reader, generator, `slate` tool and plugins
        // Only the runtime layers it reads schemas with, so that the plugins' tool builds no more.
        .target(
            name: "SlateSchema",
            dependencies: ["SlateCore", "SlateQuery", "CSQLite"]
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
        // The plugins' tool: `slate generate` alone, without swift-argument-parser, SlateRecords and
        // the other commands, so that the host build a plugin needs compiles less (issue 36).
        .executableTarget(
            name: "SlateGenerateTool",
            dependencies: ["SlateGenerator", "SlateSchema"]
        ),
        .plugin(
            name: "SlateBuildPlugin",
            capability: .buildTool(),
            dependencies: ["SlateGenerateTool"]
        ),
        .plugin(
            name: "SlateGenerateCommand",
            capability: .command(
                intent: .custom(
                    verb: "slate-generate",
                    description:
                        "Write Swift code for the SQLite databases and .sql files of targets into their sources"),
                permissions: [
                    .writeToPackageDirectory(reason: "Writes the generated Swift files into the targets' directories")
                ]
            ),
            dependencies: ["SlateGenerateTool"]
        ),
        .testTarget(
            name: "SlateSchemaTests",
            dependencies: ["SlateSchema", "Slate", "SlateTestSupport"]
        ),
        // The analyser of named queries (in SlateSchema): parameters, result columns, nullability.
        .testTarget(
            name: "SlateQueryAnalyzerTests",
            dependencies: ["SlateSchema", "Slate", "SlateTestSupport"]
        ),
        // The build plugin generates code for the bundled databases and the hard-case fixtures
        // (slate.json), so the target builds only if that code compiles.
        .testTarget(
            name: "SlateGeneratorTests",
            dependencies: ["SlateGenerator", "SlateSchema", "Slate"],
            exclude: [
                "slate.json", "Fixtures", "Queries", "Resources/chinook.schema.sql", "Resources/northwind.schema.sql",
            ],
            resources: [.copy("Resources/chinook.sqlite"), .copy("Resources/northwind.sqlite")],
            plugins: ["SlateBuildPlugin"]
        ),
        // Raw-style generated code, with SQLite alone: no Slate.
        .testTarget(
            name: "SlateRawGenerationTests",
            dependencies: ["CSQLite"],
            exclude: ["slate.json", "Schema"],
            plugins: ["SlateBuildPlugin"]
        ),
        // Raw-style generated code next to the library, on one connection: a date written by either
        // reads back the same through the other, for every date storage.
        .testTarget(
            name: "SlateRawInteropTests",
            dependencies: ["Slate", "CSQLite"],
            exclude: ["slate.json", "Schema"],
            plugins: ["SlateBuildPlugin"]
        ),
        // MARK: Reliability tools: fuzzing, crash safety and load (issue 13, docs/RELIABILITY.md)
        // Needs neither swift-syntax nor swift-argument-parser, so sanitizer builds can run it.
        .target(
            name: "SlateFuzzing",
            dependencies: ["Slate", "SlateSchema", "SlateGenerator", "CSQLite", "SlateSync"]
        ),
        .executableTarget(
            name: "SlateFuzz",
            dependencies: ["SlateFuzzing"]
        ),
        .testTarget(
            name: "SlateFuzzingTests",
            dependencies: ["SlateFuzzing", "Slate"]
        ),
        // MARK: Fault injection (in the product SlateTesting)
        // The fault-injecting VFS, in C over the default VFS of whichever library CSQLite links
        // (issue 34, docs/RELIABILITY.md), and its Swift API with the fault sweeps.
        .target(
            name: "SlateTestingFaultVFS",
            dependencies: ["CSQLite"]
        ),
        .target(
            name: "SlateTestingFaults",
            dependencies: ["SlateTestingFaultVFS", "SlateCore"]
        ),
        // Fault sweeps over Slate's multi-statement work (migrator, rebuild, CSV import, backup,
        // VACUUM INTO, pool, checkpoint, SQLCipher rekey) and PostgreSQL faults (a server of its own,
        // which the tests kill and restart).
        .testTarget(
            name: "SlateFaultTests",
            dependencies: [
                "SlateTestingFaults", "SlateTestSupport", "Slate", "CSQLite", "SlatePostgres", "SlatePostgresTesting",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI's sanitizer runs (.ci/sanitize-thread.sh, .ci/sanitize-address.sh) and its SQLCipher run need
// only the runtime and its tests. With SLATE_CORE_ONLY=1 the manifest keeps the runtime's targets and
// the test targets of its layers, and leaves out the macro, generator and PostgreSQL targets, so
// those runs do not build swift-syntax, swift-argument-parser or SwiftNIO a second time. Users never
// set it.
if ProcessInfo.processInfo.environment["SLATE_CORE_ONLY"] == "1" {
    let runtime: Set<String> = [
        "CSQLite", "CSQLiteSystem", "CSQLCipher", "SlateCore", "SlateConcurrency", "SlateQuery", "SlateRecords",
        "Slate", "SlateTestingFaultVFS", "SlateTestingFaults",
    ]
    let runtimeTests: Set<String> = [
        "SlateSchema", "SlateTestingCore", "SlateTestSupport", "SlateCoreTests", "SlateConcurrencyTests",
        "SlateQueryTests", "SlateRecordsTests", "SlateCSVTests", "SlateFaultTests",
    ]
    package.targets.removeAll { !runtime.contains($0.name) && !runtimeTests.contains($0.name) }
    // The fault tests' PostgreSQL part compiles only with SlatePostgres (`#if canImport`).
    let postgresTargets: Set<String> = ["SlatePostgres", "SlatePostgresTesting"]
    for target in package.targets where target.name == "SlateFaultTests" {
        target.dependencies.removeAll { dependency in
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): return postgresTargets.contains(name)
            default: return false
            }
        }
    }
    package.products.removeAll { !runtime.contains($0.name) }
    package.dependencies.removeAll()
}

// With the SQLCipher trait the package's own C, Swift and test targets see SLATE_SQLCIPHER in the C
// headers they import. The header choice itself travels with CSQLCipher's include path; this define
// keeps the clang module caches of the two configurations apart, so switching the trait in one
// build folder never reuses a CSQLite module built for the other library.
for target in package.targets where [.regular, .executable, .test].contains(target.type) {
    target.cSettings = (target.cSettings ?? []) + [.define("SLATE_SQLCIPHER", .when(traits: ["SQLCipher"]))]
}

// CI (`.ci/run`) sets SLATE_TYPECHECK_BUDGET=1: the test target that holds the query builder's
// corpus (the differential test among them) then warns about any expression that takes the type
// checker more than 50 ms, and CI fails on warnings. Only that target gets the flag.
// A number other than 1 sets another limit in milliseconds (a lower one finds expressions near
// the budget before a loaded CI machine pushes them over it).
if let budget = ProcessInfo.processInfo.environment["SLATE_TYPECHECK_BUDGET"].flatMap({ Int($0) }),
    budget > 0,
    let tests = package.targets.first(where: { $0.name == "SlateQueryTests" })
{
    let milliseconds = budget == 1 ? 50 : budget
    tests.swiftSettings =
        (tests.swiftSettings ?? []) + [
            .unsafeFlags(["-Xfrontend", "-warn-long-expression-type-checking=\(milliseconds)"])
        ]
}
