import Foundation
import SlateMacros

/// A user-defined primitive stored as TEXT through the core's value protocols, like the reference
/// ORM's `URL: DBPrimitive` example.
struct WebAddress: SQLValueConvertible, SQLColumnTypeProviding, Codable, Hashable, Sendable {
    static let sqlColumnType = "TEXT"
    var url: URL

    init(_ text: String) throws {
        guard let url = URL(string: text) else {
            throw DatabaseError(resultCode: .mismatch, message: "not a URL: \(text)")
        }
        self.url = url
    }

    var sqlValue: SQLValue { .text(url.absoluteString) }

    init(sqlValue: SQLValue) throws {
        guard case .text(let text) = sqlValue else {
            throw DatabaseError(resultCode: .mismatch, message: "a web address is stored as text, not \(sqlValue)")
        }
        try self.init(text)
    }
}
