// swift-tools-version: 6.1
import PackageDescription

// A JSON REST API for to-do lists and items on Hummingbird 2, with Slate underneath: SQLite by
// default (a file in a data directory), PostgreSQL when DATABASE_URL is set, one codebase. Logs,
// spans and metrics through SlateTelemetry; graceful shutdown through SlateLifecycle. A package of
// its own, outside Slate's products, so that Slate never depends on Hummingbird.
//
//     swift run --package-path Examples/TodoServer                  # SQLite in ./data, port 8080
//     DATABASE_URL=postgres://user:password@localhost:5432/todo swift run --package-path Examples/TodoServer
//
// The app's code is the TodoServerKit library, so that other route groups mount in the same
// application (the sync server of issue 35, under /sync); the executable only reads the
// environment and runs it.
let package = Package(
    name: "TodoServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "TodoServer", targets: ["TodoServer"]),
        .library(name: "TodoServerKit", targets: ["TodoServerKit"]),
    ],
    dependencies: [
        .package(name: "Slate", path: "../.."),
        // Without its default traits: the app reads its settings from the environment itself, so
        // swift-configuration is not built.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", exact: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
    ],
    targets: [
        .target(
            name: "TodoServerKit",
            dependencies: [
                .product(name: "Slate", package: "Slate"),
                .product(name: "SlatePostgres", package: "Slate"),
                .product(name: "SlateTelemetry", package: "Slate"),
                .product(name: "SlateLifecycle", package: "Slate"),
                .product(name: "SlateSync", package: "Slate"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "TodoServer", dependencies: ["TodoServerKit"]),
    ],
    swiftLanguageModes: [.v6]
)
