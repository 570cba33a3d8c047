import Foundation
import Testing

/// Runs `swift` (the toolchain running these tests) with `arguments`; returns the exit status and
/// the output and error together.
///
/// On a thread of its own, awaited: a `swift build` takes minutes on a loaded machine, and blocking
/// one of the cooperative pool's threads (one per core) that long starved the concurrency tests'
/// tasks, which then never started within their time limit.
private func swiftCommand(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["swift"] + arguments
                process.currentDirectoryURL = directory
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = pipe
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}

/// The repository holding this test, which the fixture package depends on by path.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The command plugin, run as a user runs it: `swift package --allow-writing-to-package-directory
/// slate-generate` on a package that depends on Slate, then `swift build` of that package. The
/// package lives in `.build/plugin-test-package` (ignored by git), so later runs reuse its build:
/// about a minute the first time on two cores, half that later. `SLATE_PLUGIN_TESTS=0` skips it.
@Suite(
    "SlateGenerateCommand",
    .enabled(
        if: ProcessInfo.processInfo.environment["SLATE_PLUGIN_TESTS"] != "0",
        "SLATE_PLUGIN_TESTS=0 skips the plugin runs"),
    .serialized)
struct CommandPluginTests {
    let package = repositoryRoot.appendingPathComponent(".build/plugin-test-package")

    /// Writes the fixture package: the recommended setup for this plugin (`Catalog`: schema and
    /// queries in an excluded `Schema` directory), two databases with the same file name
    /// (`Reports`), and a target holding only an excluded `.sql` file (`OnlySQL`), which SwiftPM
    /// skips until it has a Swift file.
    func writePackage() throws {
        let manager = FileManager.default
        let sources = package.appendingPathComponent("Sources")
        if manager.fileExists(atPath: sources.path) { try manager.removeItem(at: sources) }
        func write(_ path: String, _ text: String) throws {
            let url = package.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        func copy(_ resource: String, to path: String) throws {
            let url = package.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: TestFiles.resource(resource), to: url)
        }
        try write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "PluginFixture",
                dependencies: [.package(name: "Slate", path: \(String(reflecting: repositoryRoot.path)))],
                targets: [
                    .target(name: "Catalog", dependencies: [.product(name: "Slate", package: "Slate")], exclude: ["Schema"]),
                    .target(name: "Reports", dependencies: [.product(name: "Slate", package: "Slate")], exclude: ["a", "b", "slate.json"]),
                    .target(name: "OnlySQL", dependencies: [.product(name: "Slate", package: "Slate")], exclude: ["schema.sql"]),
                ],
                swiftLanguageModes: [.v6]
            )
            """)
        try write("Sources/Catalog/Catalog.swift", "public enum Catalog {}\n")
        try write(
            "Sources/Catalog/Schema/schema.sql",
            """
            CREATE TABLE product (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL);
            """)
        try write(
            "Sources/Catalog/Schema/queries.sql",
            """
            -- name: cheapProducts
            SELECT id, name, price FROM product WHERE price < :limit ORDER BY price;
            """)
        try write("Sources/Reports/Reports.swift", "public enum Reports {}\n")
        // Two databases in one module: their records (both have a Customer) are nested in their
        // database types. No `inputs`: the files are found under the target's directory.
        try write("Sources/Reports/slate.json", #"{"nestRecords": true}"#)
        try copy("chinook.sqlite", to: "Sources/Reports/a/data.sqlite")
        try copy("northwind.sqlite", to: "Sources/Reports/b/data.sqlite")
        try write("Sources/OnlySQL/schema.sql", "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL);\n")
    }

    func generate(_ extra: [String] = []) async throws -> (status: Int32, output: String) {
        try await swiftCommand(
            ["package", "--package-path", package.path, "--allow-writing-to-package-directory", "slate-generate"]
                + extra,
            in: package)
    }

    @Test func generatesForExcludedInputsCollidingNamesAndTargetsWithoutSwiftFiles() async throws {
        try writePackage()
        let run = try await generate()
        #expect(run.status == 0, "\(run.output)")
        let sources = package.appendingPathComponent("Sources")
        let catalog = try String(
            contentsOf: sources.appendingPathComponent("Catalog/Catalog+Slate.swift"), encoding: .utf8)
        #expect(catalog.contains("enum CatalogDatabase"))
        #expect(
            catalog.contains("static func cheapProducts(limit: Double) -> SQLQuery<CatalogDatabase.CheapProductsRow>"))
        let first = try String(
            contentsOf: sources.appendingPathComponent("Reports/a_data+Slate.swift"), encoding: .utf8)
        let second = try String(
            contentsOf: sources.appendingPathComponent("Reports/b_data+Slate.swift"), encoding: .utf8)
        #expect(first.contains("enum ADataDatabase"))
        #expect(second.contains("enum BDataDatabase"))
        #expect(
            FileManager.default.fileExists(atPath: sources.appendingPathComponent("OnlySQL/schema+Slate.swift").path))
        #expect(run.output.contains("SwiftPM skips a target without Swift files"))

        // What was written compiles, and no input is an unhandled file.
        let build = try await swiftCommand(["build", "--package-path", package.path], in: package)
        #expect(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("unhandled"))

        // Asking for one target processes that one only.
        try FileManager.default.removeItem(at: sources.appendingPathComponent("Catalog/Catalog+Slate.swift"))
        let only = try await generate(["--target", "OnlySQL"])
        #expect(only.status == 0, "\(only.output)")
        #expect(
            !FileManager.default.fileExists(atPath: sources.appendingPathComponent("Catalog/Catalog+Slate.swift").path))
    }

    @Test func aMalformedConfigurationNamesItsFile() async throws {
        try writePackage()
        let config = package.appendingPathComponent("Sources/Catalog/slate.json")
        try #"{"style": raw}"#.write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let run = try await generate(["--target", "Catalog"])
        #expect(run.status != 0)
        #expect(run.output.contains(config.path))
        #expect(run.output.contains("not valid JSON"))
        let unknown = try await generate(["--target", "NoSuchTarget"])
        #expect(unknown.status != 0)
        #expect(unknown.output.contains("no target NoSuchTarget"))
    }
}
