// swift-tools-version: 6.0
import PackageDescription

// A small program that opens the bundled Northwind sample database through code that Slate's
// build-tool plugin generates from it at build time, and prints the answers of a few typed
// queries. Run it from the repository root:
//
//     swift run --package-path Examples/Northwind
let package = Package(
    name: "Northwind",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Slate", path: "../..")],
    targets: [
        .executableTarget(
            name: "Northwind",
            dependencies: [.product(name: "Slate", package: "Slate")],
            resources: [.copy("Resources/northwind.sqlite")],
            plugins: [.plugin(name: "SlateBuildPlugin", package: "Slate")]
        )
    ],
    swiftLanguageModes: [.v6]
)
