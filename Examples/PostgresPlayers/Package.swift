// swift-tools-version: 6.0
import PackageDescription

// The same table and typed queries on SQLite and on PostgreSQL (product SlatePostgres, on
// postgres-nio). A package of its own, so that the Northwind example never builds SwiftNIO.
// Run it from the repository root against a server (README, "Outgrowing one machine"):
//
//     DATABASE_URL=postgres://user:password@localhost:5432/db swift run --package-path Examples/PostgresPlayers
//     PGHOST=/tmp/pg PGUSER=postgres swift run --package-path Examples/PostgresPlayers   # a Unix socket
let package = Package(
    name: "PostgresPlayers",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Slate", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
    ],
    targets: [
        .executableTarget(
            name: "PostgresPlayers",
            dependencies: [
                .product(name: "Slate", package: "Slate"),
                .product(name: "SlatePostgres", package: "Slate"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
