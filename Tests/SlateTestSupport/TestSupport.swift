import Foundation
import Slate

/// A fresh directory under the system temporary directory, removed by the caller with `remove()`:
/// the one temporary directory of the tests (a database file alone is a `TemporaryDatabaseFile`
/// of SlateTestingCore).
package struct TemporaryDirectory {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` as UTF-8 to the file `name` in the directory, and returns the file's URL.
    package func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}

package enum Fixtures {
    /// A bundled copy of a sample database (`chinook.sqlite`, `northwind.sqlite`).
    package static func path(_ name: String) -> String {
        Bundle.module.url(forResource: "Resources/\(name)", withExtension: nil)?.path
            ?? Bundle.module.bundleURL.appendingPathComponent("Resources/\(name)").path
    }
}

extension Database {
    /// An in-memory connection, the default for tests.
    package static func memory(_ configure: (inout Database.Configuration) -> Void = { _ in }) throws -> Database {
        var configuration = Database.Configuration()
        configure(&configuration)
        return try Database(location: .inMemory, configuration: configuration)
    }
}
