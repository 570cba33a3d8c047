// Tokens with their text, for the code that reads SQL for its meaning (the schema reader, the
// analyser of named queries and views, canonical schema text): slower than walking the lexer's
// tokens, since each carries a string, but easier to compare.

extension SQLLexer {
    /// A token with its text.
    package struct Lexeme: Hashable, Sendable {
        /// What the token is.
        package var kind: Token.Kind
        /// The value: a quoted name or a string without its quotes, a blob's hexadecimal digits,
        /// any other token as written.
        package var text: String
        /// The token's first byte in the text (a UTF-8 offset).
        package var start: Int
        /// The offset after the token's last byte.
        package var end: Int

        package init(kind: Token.Kind, text: String, start: Int = 0, end: Int = 0) {
            self.kind = kind
            self.text = text
            self.start = start
            self.end = end
        }

        /// The word with its ASCII letters uppercased, for keyword comparisons; `nil` for other
        /// tokens.
        package var keyword: String? { kind == .word ? SQLLexer.asciiUppercased(text) : nil }

        /// Whether the token is the keyword `word`, written in upper case.
        package func isKeyword(_ word: String) -> Bool {
            kind == .word && SQLLexer.asciiEqualsIgnoringCase(text, word)
        }

        /// Whether the token is the operator or punctuation `symbol`.
        package func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }

        /// Whether the token names something: a bare word or a quoted name.
        package var isName: Bool { kind == .word || kind == .quotedIdentifier }
    }

    /// The tokens of `sql` with their text, without whitespace and comments.
    ///
    /// ```swift
    /// SQLLexer.lexemes(of: "SELECT \"a\"\"b\" -- c").map(\.text)   // ["SELECT", "a\"b"]
    /// ```
    package static func lexemes(of sql: String) -> [Lexeme] {
        var lexer = SQLLexer(sql)
        var lexemes: [Lexeme] = []
        while let token = lexer.next() {
            lexemes.append(Lexeme(kind: token.kind, text: lexer.value(of: token), start: token.start, end: token.end))
        }
        return lexemes
    }

    /// `text` with its ASCII letters uppercased (SQL keywords are ASCII; other letters stay as
    /// they are, so no non-ASCII name can turn into a keyword).
    package static func asciiUppercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return text }
        return String(decoding: text.utf8.map(asciiUppercased), as: UTF8.self)
    }

    /// Whether two texts are equal but for the case of ASCII letters, as SQLite compares keywords
    /// and names.
    package static func asciiEqualsIgnoringCase(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count
            && zip(left.utf8, right.utf8).allSatisfy { asciiUppercased($0) == asciiUppercased($1) }
    }
}
