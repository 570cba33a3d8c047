// swift-tools-version: 6.0
import PackageDescription

// A small program that opens the bundled Northwind sample database through code that Slate's
// build-tool plugin generates from it at build time, and prints the answers of a few typed
// queries; and the tests of those queries, on copies of the database. From the repository root:
//
//     swift run --package-path Examples/Northwind
//     swift test --package-path Examples/Northwind
let package = Package(
    name: "Northwind",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Slate", path: "../..")],
    targets: [
        // The generated tables (public, slate.json) and the queries of the reports.
        .target(
            name: "NorthwindStore",
            dependencies: [.product(name: "Slate", package: "Slate")],
            exclude: ["slate.json"],
            resources: [.copy("Resources/northwind.sqlite")],
            plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")]
        ),
        .executableTarget(
            name: "Northwind",
            dependencies: ["NorthwindStore", .product(name: "Slate", package: "Slate")]
        ),
        // SlateTestingCore: copies of the fixture, seeded databases, SQL one clause per line and
        // result tables. (SlateTesting adds `assertQuery`, which records them inline, and builds
        // swift-syntax for it.)
        .testTarget(
            name: "NorthwindTests",
            dependencies: [
                "NorthwindStore", .product(name: "Slate", package: "Slate"),
                .product(name: "SlateTestingCore", package: "Slate"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
