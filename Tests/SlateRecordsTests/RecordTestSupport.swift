import Foundation
import Slate

/// A fresh directory under the system temporary directory, removed with `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-records-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension Database {
    /// Every table's rows, as text, in a stable order: compares database contents.
    func dump() throws -> String {
        var text = ""
        let objects = try fetchAll(
            CopiedRow.self,
            "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name")
        for object in objects {
            text += object.description + "\n"
            let type: String = try object.decode(at: 0)
            let name: String = try object.decode(at: 1)
            if type == "table" {
                for row in try fetchAll(
                    CopiedRow.self, sql: "SELECT rowid, * FROM \(name.quotedIdentifier) ORDER BY rowid")
                {
                    text += "  " + row.description + "\n"
                }
            }
        }
        return text
    }
}
