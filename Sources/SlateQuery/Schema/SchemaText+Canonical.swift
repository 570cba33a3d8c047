// SQL text in a canonical form, so that schema comparisons (migration plans, drift checks) never
// report a difference of spelling: whitespace, comments, identifier quoting, the letter case of
// keywords and names. The tokens are SQLite's, from the one lexer (`SQLLexer`).

import SlateCore

extension SchemaText {
    /// `sql` with its tokens separated by single spaces: comments and whitespace dropped, keywords
    /// and identifiers (bare or quoted with `"…"`, `[…]`, `` `…` ``) lowercased and unquoted, `==`
    /// written `=` and `<>` written `!=`. String and blob literals are kept as written: their case
    /// is data.
    ///
    /// ```swift
    /// SchemaText.canonical("DATETIME( 'now' ) -- when")   // "datetime ( 'now' )"
    /// SchemaText.canonical("\"Active\" == 1")             // "active = 1"
    /// ```
    package static func canonical(_ sql: String) -> String {
        var lexer = SQLLexer(sql)
        var tokens: [String] = []
        while let token = lexer.next() {
            let text = lexer.text(of: token)
            switch token.kind {
            case .string, .illegal, .space, .comment:
                tokens.append(text)  // a string's case is data; what SQLite refuses stays as written
            case .blob:
                tokens.append("x" + text.dropFirst().lowercased())
            case .quotedIdentifier:
                tokens.append(canonicalIdentifier(lexer.value(of: token)))
            case .word, .integer, .real, .parameter:
                tokens.append(text.lowercased())
            case .symbol:
                switch text {
                case "==": tokens.append("=")
                case "<>": tokens.append("!=")
                default: tokens.append(text)
                }
            }
        }
        return tokens.joined(separator: " ")
    }

    /// A quoted identifier as its bare, lowercased spelling when it is one word, else quoted
    /// with `"…"`.
    private static func canonicalIdentifier(_ name: String) -> String {
        let lowered = name.lowercased()
        let isWord =
            !lowered.isEmpty
            && lowered.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
            } && !(lowered.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? true)
        return isWord ? lowered : "\"" + lowered.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension TableSchema.Kind {
    /// Whether two kinds are the same but for spelling: a virtual table's module compared without
    /// regard to case, its arguments as ``SchemaText/canonical(_:)``.
    package func matches(_ other: TableSchema.Kind) -> Bool {
        switch (self, other) {
        case (.table, .table), (.view, .view):
            return true
        case (.virtual(let module, let arguments), .virtual(let otherModule, let otherArguments)):
            return module.lowercased() == otherModule.lowercased()
                && SchemaText.canonical(arguments) == SchemaText.canonical(otherArguments)
        default:
            return false
        }
    }

    /// The two kinds in words for a report: with a virtual table's arguments when only they differ.
    package func descriptions(against other: TableSchema.Kind) -> (String, String) {
        if case .virtual(let module, let arguments) = self, case .virtual(let otherModule, let otherArguments) = other,
            module.lowercased() == otherModule.lowercased()
        {
            return ("\(description) (\(arguments))", "\(other.description) (\(otherArguments))")
        }
        return (description, other.description)
    }
}
