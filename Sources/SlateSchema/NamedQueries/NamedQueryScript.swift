import Foundation
import SlateCore
import SlateQuery

/// A statement of a `.sql` file, with the `-- name:` label written above it, if any.
///
/// ```sql
/// -- name: tracksOfAlbum
/// -- The tracks of one album, in track order.
/// SELECT TrackId, Name FROM Track WHERE AlbumId = :albumId ORDER BY TrackId;
/// ```
///
/// A labelled statement is a named query: it is not part of the schema. The `--` comment lines
/// between the label and the statement document it.
struct ScriptEntry {
    /// The statement.
    var statement: SQLLexer.Statement
    /// The label's name, or `nil` for a schema statement.
    var name: String?
    /// The line of the label.
    var nameLine: Int
    /// The comment lines between the label and the statement, without their `--`.
    var documentation: [String]

    /// The statements of `script` with their labels.
    ///
    /// - Throws: ``SchemaError/invalidQuery(file:line:name:message:)`` for a label whose name is
    ///   not an identifier, two labels for one statement, or a label that no statement follows.
    static func entries(in script: String, file: String) throws -> [ScriptEntry] {
        let bytes = Array(script.utf8)
        let statements = SQLLexer.statements(in: script)
        var entries: [ScriptEntry] = []
        var gapStart = 0
        var gapLine = 1
        for statement in statements {
            let gap = String(decoding: bytes[gapStart..<statement.range.lowerBound], as: UTF8.self)
            let label = try Self.label(in: gap, firstLine: gapLine, file: file)
            entries.append(
                ScriptEntry(
                    statement: statement, name: label?.name, nameLine: label?.line ?? statement.line,
                    documentation: label?.documentation ?? []))
            gapStart = statement.range.upperBound
            gapLine = statement.line + statement.text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        let tail = String(decoding: bytes[min(gapStart, bytes.count)...], as: UTF8.self)
        if let label = try Self.label(in: tail, firstLine: gapLine, file: file) {
            throw SchemaError.invalidQuery(
                file: file, line: label.line, name: label.name,
                message: "no statement follows the label \"-- name: \(label.name)\"")
        }
        return entries
    }

    /// The `-- name: x` label among the comment lines of `gap` (text between two statements),
    /// with the comment lines after it.
    private static func label(in gap: String, firstLine: Int, file: String) throws -> (
        name: String, line: Int, documentation: [String]
    )? {
        var found: (name: String, line: Int, documentation: [String])?
        for (offset, rawLine) in gap.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("--") else { continue }
            let comment = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
            let lineNumber = firstLine + offset
            if comment.lowercased().hasPrefix("name:") {
                var name = comment.dropFirst(5).trimmingCharacters(in: .whitespaces)
                // sqlc writes what the query returns after the name (`-- name: GetAuthor :one`):
                // the result columns say that here.
                if let space = name.firstIndex(where: { $0 == " " || $0 == "\t" }),
                    name[space...].trimmingCharacters(in: .whitespaces).hasPrefix(":"),
                    isQueryName(String(name[..<space]))
                {
                    name = String(name[..<space])
                }
                guard isQueryName(name) else {
                    throw SchemaError.invalidQuery(
                        file: file, line: lineNumber, name: name,
                        message:
                            "\"\(name)\" is not a query name: use letters, digits and _, starting with a letter or _")
                }
                if let previous = found {
                    throw SchemaError.invalidQuery(
                        file: file, line: lineNumber, name: name,
                        message:
                            "the label \"-- name: \(previous.name)\" (line \(previous.line)) has no statement of its own"
                    )
                }
                found = (name, lineNumber, [])
            } else if found != nil {
                found?.documentation.append(comment)
            }
        }
        return found
    }

    /// Whether `name` is a letter or `_` followed by letters, digits or `_` (ASCII).
    static func isQueryName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == 0x5F || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            byte == 0x5F || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        }
    }
}
