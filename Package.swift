// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Slate",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Slate", targets: ["Slate"]),
        .library(name: "CSQLite", targets: ["CSQLite"]),
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
    ],
    swiftLanguageModes: [.v6]
)
