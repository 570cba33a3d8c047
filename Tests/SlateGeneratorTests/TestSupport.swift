import Foundation
import Slate
import SlateGenerator
import SlateSchema

/// Files of this test target, read from the source tree.
enum TestFiles {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let fixtures = directory.appendingPathComponent("Fixtures")
    static let resources = directory.appendingPathComponent("Resources")

    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }
    static func resource(_ name: String) -> URL { resources.appendingPathComponent(name) }

    /// Every `.sql` fixture, in name order, then the peer-shaped schemas of `Fixtures/peers`:
    /// together they form the hard-case schema the build plugin generates
    /// `SlateGeneratorTestsDatabase` from.
    static var fixtureScripts: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        let peers = (try? FileManager.default.contentsOfDirectory(atPath: fixture("peers").path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.sorted().map(fixture)
            + peers.filter { $0.hasSuffix(".sql") }.sorted().map { fixture("peers/" + $0) }
    }
}

/// A fresh directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("slate-generator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func write(_ name: String, _ text: String) throws -> URL {
        let file = file(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// An in-memory database built from the hard-case fixtures.
func hardCaseDatabase() throws -> Database {
    let db = try Database(location: .inMemory)
    for url in TestFiles.fixtureScripts {
        try SchemaLoader.apply(try String(contentsOf: url, encoding: .utf8), file: url.path, to: db)
    }
    return db
}

/// A sample database bundled with the tests, opened read-only.
func sampleDatabase(_ name: String) throws -> Database {
    var configuration = Database.Configuration()
    configuration.isReadOnly = true
    return try Database(path: TestFiles.resource(name + ".sqlite").path, configuration: configuration)
}

/// A writable copy of a sample database, in `directory`.
func writableCopy(of name: String, in directory: TemporaryDirectory) throws -> Database {
    let url = directory.file(name)
    try FileManager.default.copyItem(at: TestFiles.resource(name), to: url)
    return try Database(path: url.path)
}
