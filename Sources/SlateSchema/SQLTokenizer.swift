/// A small SQL tokenizer: enough to find the parts of `CREATE` statements SQLite does not report
/// through pragmas (a virtual table's module, a view's select list and `FROM` clause), never to
/// validate SQL, which SQLite has already done.
struct SQLTokenizer {
    /// One token.
    struct Token: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            /// A bare word: a keyword or an unquoted identifier.
            case word
            /// A quoted identifier (`"a"`, `[a]`, `` `a` ``); ``Token/text`` is unquoted.
            case quotedIdentifier
            /// A string literal; ``Token/text`` is its content.
            case string
            /// A blob literal `X'…'`.
            case blob
            /// An integer literal.
            case integer
            /// A real literal.
            case real
            /// A bound parameter (`?`, `?1`, `:a`, `@a`, `$a`).
            case parameter
            /// An operator or punctuation.
            case symbol
        }

        var kind: Kind
        var text: String
        /// The token's first byte in the tokenized text (UTF-8 offset).
        var start = 0
        /// The byte after the token's last one.
        var end = 0

        /// The word, uppercased, for keyword comparisons; `nil` for other tokens.
        var keyword: String? { kind == .word ? text.uppercased() : nil }

        /// Whether the token is the keyword `word` (given in uppercase).
        func isKeyword(_ word: String) -> Bool { kind == .word && text.uppercased() == word }

        /// Whether the token is the symbol `symbol`.
        func isSymbol(_ symbol: String) -> Bool { kind == .symbol && text == symbol }

        /// Whether the token names something: a bare word or a quoted identifier.
        var isName: Bool { kind == .word || kind == .quotedIdentifier }
    }

    /// The tokens of `sql`, without whitespace and comments.
    static func tokenize(_ sql: String) -> [Token] {
        let bytes = Array(sql.utf8)
        var tokens: [Token] = []
        var index = 0
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x24 || byte >= 0x80
        }
        /// Reads a quoted run ending with `close`, where a doubled `close` escapes it.
        func quoted(from start: Int, close: UInt8, doubling: Bool) -> (String, Int) {
            var content: [UInt8] = []
            var position = start
            while position < bytes.count {
                if bytes[position] == close {
                    if doubling, position + 1 < bytes.count, bytes[position + 1] == close {
                        content.append(close)
                        position += 2
                        continue
                    }
                    return (String(decoding: content, as: UTF8.self), position + 1)
                }
                content.append(bytes[position])
                position += 1
            }
            return (String(decoding: content, as: UTF8.self), position)
        }

        while index < bytes.count {
            let tokenStart = index
            let countBefore = tokens.count
            defer {
                if tokens.count > countBefore {
                    tokens[tokens.count - 1].start = tokenStart
                    tokens[tokens.count - 1].end = index
                }
            }
            let byte = bytes[index]
            let next: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let isDigit = { (value: UInt8) in value >= 0x30 && value <= 0x39 }
            if (byte == 0x78 || byte == 0x58) && next == 0x27 {  // X'blob'
                let (content, end) = quoted(from: index + 2, close: 0x27, doubling: true)
                tokens.append(Token(kind: .blob, text: content))
                index = end
                continue
            }
            if isDigit(byte) || (byte == 0x2E && isDigit(next)) {
                let start = index
                var isReal = false
                if byte == 0x30, next == 0x78 || next == 0x58 {
                    index += 2
                    while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                } else {
                    while index < bytes.count {
                        let current = bytes[index]
                        if isDigit(current) || current == 0x5F {
                            index += 1
                        } else if current == 0x2E {
                            isReal = true
                            index += 1
                        } else if current == 0x65 || current == 0x45 {
                            isReal = true
                            index += 1
                            if index < bytes.count && (bytes[index] == 0x2B || bytes[index] == 0x2D) { index += 1 }
                        } else {
                            break
                        }
                    }
                }
                tokens.append(Token(kind: isReal ? .real : .integer, text: text(start..<index)))
                continue
            }
            if byte == 0x3F || ((byte == 0x3A || byte == 0x40) && isWordByte(next)) {
                let start = index
                index += 1
                while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                tokens.append(Token(kind: .parameter, text: text(start..<index)))
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                index += 1
            case 0x2D where index + 1 < bytes.count && bytes[index + 1] == 0x2D:  // -- comment
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            case 0x2F where index + 1 < bytes.count && bytes[index + 1] == 0x2A:  // /* comment */
                index += 2
                while index < bytes.count
                    && !(bytes[index] == 0x2A && index + 1 < bytes.count && bytes[index + 1] == 0x2F)
                {
                    index += 1
                }
                index = min(bytes.count, index + 2)
            case 0x27:  // 'string'
                let (content, end) = quoted(from: index + 1, close: 0x27, doubling: true)
                tokens.append(Token(kind: .string, text: content))
                index = end
            case 0x22:  // "identifier"
                let (content, end) = quoted(from: index + 1, close: 0x22, doubling: true)
                tokens.append(Token(kind: .quotedIdentifier, text: content))
                index = end
            case 0x60:  // `identifier`
                let (content, end) = quoted(from: index + 1, close: 0x60, doubling: true)
                tokens.append(Token(kind: .quotedIdentifier, text: content))
                index = end
            case 0x5B:  // [identifier]
                let (content, end) = quoted(from: index + 1, close: 0x5D, doubling: false)
                tokens.append(Token(kind: .quotedIdentifier, text: content))
                index = end
            default:
                if isWordByte(byte) {
                    let start = index
                    while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                    tokens.append(Token(kind: .word, text: text(start..<index)))
                } else {
                    let pair = index + 1 < bytes.count ? text(index..<index + 2) : ""
                    if ["||", "<=", ">=", "==", "!=", "<>", "<<", ">>", "->"].contains(pair) {
                        if pair == "->", index + 2 < bytes.count, bytes[index + 2] == 0x3E {
                            tokens.append(Token(kind: .symbol, text: "->>"))
                            index += 3
                        } else {
                            tokens.append(Token(kind: .symbol, text: pair))
                            index += 2
                        }
                    } else {
                        tokens.append(Token(kind: .symbol, text: text(index..<index + 1)))
                        index += 1
                    }
                }
            }
        }
        return tokens
    }

    // MARK: Statement facts

    /// Whether `sql` is `CREATE VIRTUAL TABLE …`.
    static func isCreateVirtualTable(_ sql: String) -> Bool {
        let tokens = tokenize(sql)
        return tokens.count > 2 && tokens[0].isKeyword("CREATE") && tokens[1].isKeyword("VIRTUAL")
    }

    /// The module of `CREATE VIRTUAL TABLE … USING module(…)`, lowercased.
    static func virtualTableModule(_ sql: String) -> String? {
        let tokens = tokenize(sql)
        guard let using = tokens.firstIndex(where: { $0.isKeyword("USING") }), using + 1 < tokens.count else {
            return nil
        }
        return tokens[using + 1].text.lowercased()
    }

    /// The table options after the closing parenthesis of `CREATE TABLE`.
    static func tableOptions(_ sql: String) -> (withoutRowID: Bool, strict: Bool) {
        let tokens = tokenize(sql)
        guard let close = tokens.lastIndex(where: { $0.isSymbol(")") }) else { return (false, false) }
        let options = tokens[(close + 1)...].compactMap(\.keyword)
        return (options.contains("ROWID"), options.contains("STRICT"))
    }
}

// MARK: - Token slices

extension ArraySlice where Element == SQLTokenizer.Token {
    /// Splits at `separator` symbols that are not inside parentheses.
    func splitAtTopLevel(_ isSeparator: (SQLTokenizer.Token) -> Bool) -> [ArraySlice<SQLTokenizer.Token>] {
        var parts: [ArraySlice<SQLTokenizer.Token>] = []
        var depth = 0
        var start = startIndex
        for index in indices {
            let token = self[index]
            if token.isSymbol("(") {
                depth += 1
            } else if token.isSymbol(")") {
                depth -= 1
            } else if depth == 0 && isSeparator(token) {
                parts.append(self[start..<index])
                start = index + 1
            }
        }
        parts.append(self[start..<endIndex])
        return parts
    }

    /// The index of the first token at parenthesis depth 0 satisfying `predicate`.
    func firstTopLevelIndex(where predicate: (SQLTokenizer.Token) -> Bool) -> Int? {
        var depth = 0
        for index in indices {
            let token = self[index]
            if token.isSymbol("(") {
                depth += 1
            } else if token.isSymbol(")") {
                depth -= 1
            } else if depth == 0 && predicate(token) {
                return index
            }
        }
        return nil
    }

    /// Whether the slice is one parenthesized group: `( … )`.
    var isParenthesized: Bool {
        guard let first, let last, first.isSymbol("("), last.isSymbol(")"), count >= 2 else { return false }
        var depth = 0
        for index in indices {
            if self[index].isSymbol("(") { depth += 1 }
            if self[index].isSymbol(")") {
                depth -= 1
                if depth == 0 && index != endIndex - 1 { return false }
            }
        }
        return true
    }
}
