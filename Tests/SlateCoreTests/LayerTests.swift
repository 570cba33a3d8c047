import Foundation
import Testing

/// The runtime's layers point down only: SlateCore ← SlateConcurrency ← SlateQuery ← SlateRecords
/// ← Slate. The compiler enforces the package's target dependencies; this test keeps the
/// dependencies themselves honest, so a lower layer cannot start importing a higher one.
@Suite struct LayerTests {
    /// For each runtime target, the Slate modules its sources may import.
    static let allowedImports: [String: Set<String>] = [
        "SlateCore": ["CSQLite"],
        "SlateConcurrency": ["CSQLite", "SlateCore"],
        "SlateQuery": ["CSQLite", "SlateCore", "SlateConcurrency"],
        "SlateRecords": ["CSQLite", "SlateCore", "SlateConcurrency", "SlateQuery"],
        "Slate": ["SlateCore", "SlateConcurrency", "SlateQuery", "SlateRecords"],
        // Beside the layers, on the query layer (and postgres-nio); nothing below imports it.
        "SlatePostgres": ["SlateCore", "SlateConcurrency", "SlateQuery", "PostgresNIO", "ServiceLifecycle"],
        // The server integrations (issue 32), beside the layers; nothing below imports them.
        "SlateTelemetry": ["SlateCore", "SlateConcurrency", "Logging", "CoreMetrics", "Tracing"],
        "SlateLifecycle": ["SlateConcurrency", "Logging", "ServiceLifecycle"],
        // For tests, above the runtime; nothing in the runtime imports it.
        "SlateTestingCore": [
            "CSQLite", "SlateCore", "SlateConcurrency", "SlateQuery", "SlateRecords", "Slate", "SlateSchema",
        ],
        "SlatePostgresTesting": [
            "SlateCore", "SlateConcurrency", "SlateQuery", "Slate", "SlatePostgres", "PostgresNIO",
        ],
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Slate modules (and CSQLite) imported by the Swift files under `Sources/<target>`.
    static func slateImports(of target: String) throws -> [String: Set<String>] {
        let directory = packageRoot.appendingPathComponent("Sources/" + target)
        var imports: [String: Set<String>] = [:]
        let pattern =
            /^\s*(?:@_exported\s+|@testable\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var)\s+)?([A-Za-z_][A-Za-z0-9_]*)/
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return [:]
        }
        while let url = files.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let match = line.wholeMatch(of: pattern) else { continue }
                let module = String(match.1)
                if module == "CSQLite" || module.hasPrefix("Slate") {
                    imports[url.lastPathComponent, default: []].insert(module)
                }
            }
        }
        return imports
    }

    @Test(arguments: allowedImports.keys.sorted())
    func layersImportOnlyTheLayersBelow(_ target: String) throws {
        let allowed = Self.allowedImports[target] ?? []
        let imports = try Self.slateImports(of: target)
        #expect(!imports.isEmpty, "no Swift files found for \(target)")
        for (file, modules) in imports.sorted(by: { $0.key < $1.key }) {
            let upward = modules.subtracting(allowed)
            #expect(upward.isEmpty, "\(target)/\(file) imports \(upward.sorted()), which is not below \(target)")
        }
    }

    @Test func theManifestDeclaresTheSameArrows() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        for (target, allowed) in Self.allowedImports {
            // `.target(name: "X", dependencies: [...]` — the dependency list that follows the name.
            let declaration = Regex<Substring>(verbatim: ".target(").ignoresCase(false)
            let start = manifest.ranges(of: declaration).first { range in
                manifest[range.upperBound...].drop { $0.isWhitespace }.hasPrefix("name: \"\(target)\",")
            }
            guard let range = start else {
                Issue.record("Package.swift has no target \(target)")
                continue
            }
            // A trait condition's list (`condition: .when(traits: ["PostgreSQL"])`) names no target.
            let rest = String(manifest[range.upperBound...]).replacing(/traits: \[[^\]]*\]/, with: "")
            let list = rest.prefix { $0 != "]" }
            let dependencies = Set(list.matches(of: /"([A-Za-z]+)"/).map { String($0.1) }).subtracting([target])
            #expect(
                dependencies.isSubset(of: allowed), "\(target) depends on \(dependencies.subtracting(allowed).sorted())"
            )
        }
    }
}
