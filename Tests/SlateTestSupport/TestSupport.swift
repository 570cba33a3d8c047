import Foundation
import Slate

/// A fresh directory under the system temporary directory, removed by the caller with `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

enum Fixtures {
    /// A bundled copy of a sample database (`chinook.sqlite`, `northwind.sqlite`).
    static func path(_ name: String) -> String {
        Bundle.module.url(forResource: "Resources/\(name)", withExtension: nil)?.path
            ?? Bundle.module.bundleURL.appendingPathComponent("Resources/\(name)").path
    }
}

extension Database {
    /// An in-memory connection, the default for tests.
    static func memory(_ configure: (inout Database.Configuration) -> Void = { _ in }) throws -> Database {
        var configuration = Database.Configuration()
        configure(&configuration)
        return try Database(location: .inMemory, configuration: configuration)
    }
}
