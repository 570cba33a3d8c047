// swift-tools-version: 6.1
import PackageDescription

// The TodoServer API (Examples/TodoServer) written with Fluent instead of Slate, on the same
// Hummingbird 2 server, for the load comparison in Benchmarks/README.md ("Slate in a server").
// SQLite by default (a file in DATA_DIR), PostgreSQL when DATABASE_URL is set. Outside Slate's
// products, and not built by CI (Fluent and its drivers take minutes): Benchmarks/todo-load.sh
// builds it in release and runs both servers under wrk.
let package = Package(
    name: "TodoServerFluent",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", exact: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
    ],
    targets: [
        .executableTarget(
            name: "TodoServerFluent",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQL", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
