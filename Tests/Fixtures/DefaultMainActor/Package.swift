// swift-tools-version: 6.2
import PackageDescription

// Slate in a module whose declarations are main-actor isolated by default (Swift 6.2's
// `.defaultIsolation(MainActor.self)`, which new app targets use): `@Table`, the query builder, a
// queue and a `LiveQuery` must compile without a warning (issue 32). CI builds it and runs it
// (.ci/default-main-actor.sh).
let package = Package(
    name: "DefaultMainActorFixture",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // Without the default traits, as the documentation's manifest for SQLite apps: CI neither
        // fetches nor resolves postgres-nio, SwiftNIO and the server packages for this fixture.
        .package(name: "Slate", path: "../../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "DefaultMainActorFixture",
            dependencies: [
                .product(name: "Slate", package: "Slate"),
                .product(name: "SlateMacros", package: "Slate"),
            ],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        )
    ],
    swiftLanguageModes: [.v6]
)
