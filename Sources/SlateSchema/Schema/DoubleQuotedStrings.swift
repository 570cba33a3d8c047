import CSQLite
import SlateCore
import SlateQuery

// Schema files the sqlite3 shell accepts. The shell (and SQLite's defaults) reads a double-quoted
// name that matches no column as a string literal: `INSERT INTO tags VALUES ("canine")`,
// `CASE is_cool WHEN 1 THEN "cool" ELSE "lame" END`. Slate's connections refuse that misfeature,
// so that a misspelled `"column"` is an error rather than text. For schema files, which often
// come from elsewhere, `slate generate` accepts what the shell accepts, with a warning naming the
// file and line: the statement is run (or the view read) with the misfeature on, once. Named
// queries, which users write for Slate, keep it off.

/// Something `slate generate` accepted in a schema but warns about.
public struct SchemaWarning: Sendable, Hashable, CustomStringConvertible {
    /// The `.sql` file, when the warning is about one of its statements.
    public var file: String?
    /// The line of the statement in ``file``.
    public var line: Int?
    /// What was accepted, the risk, and what to write instead.
    public var message: String

    /// Creates a warning.
    public init(file: String? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: warning: message`, the form compilers and IDEs show.
    public var description: String {
        guard let file else { return "warning: \(message)" }
        return "\(file):\(line.map(String.init) ?? "1"): warning: \(message)"
    }
}

enum DoubleQuotedStrings {
    /// Runs `body` with double-quoted string literals accepted on `db`, then refused again.
    static func accepting<Result>(on db: Database, _ body: () throws -> Result) rethrows -> Result {
        _ = slate_set_double_quoted_strings(db.handle, 1)
        defer { _ = slate_set_double_quoted_strings(db.handle, 0) }
        return try body()
    }

    /// The double-quoted tokens of `sql` (`"canine"`), for messages.
    static func quotedNames(in sql: String) -> [String] {
        var lexer = SQLLexer(sql)
        var names: [String] = []
        while let token = lexer.next() {
            if token.kind == .quotedIdentifier, lexer.bytes[token.start] == UInt8(ascii: "\"") {
                names.append(lexer.text(of: token))
            }
        }
        return names
    }

    /// The warning for a schema statement SQLite refused with `message` and ran with double-quoted
    /// strings accepted.
    static func statementWarning(_ message: String, statement: String) -> String {
        let named = quotedNames(in: statement).prefix(3).joined(separator: ", ")
        return "the statement uses double-quoted string literals (\(named)), which SQLite refuses by default here "
            + "(\(message)); it was run as the sqlite3 shell runs it, reading a double-quoted name that matches no "
            + "column as a string. A misspelled column name would be read the same way: write strings in single quotes"
    }

    /// The warning for a view that can only be read with double-quoted strings accepted.
    static func viewWarning(_ message: String, view: DatabaseSchema.View) -> String {
        let named = quotedNames(in: view.sql).prefix(3).joined(separator: ", ")
        return "the view \(view.name) uses double-quoted string literals (\(named)) (\(message)); its columns were "
            + "read as the sqlite3 shell reads them. Slate's connections refuse them: reading the view needs "
            + "Database.Configuration.acceptsDoubleQuotedStringLiterals, or write its strings in single quotes"
    }
}
