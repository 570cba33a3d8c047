// SQL text as SQLite reads it: the one lexer of the project. Every place that looks into SQL text
// (splitting scripts into statements, spotting features and savepoints, canonical schema text,
// the schema reader, named-query and view analysis, the PostgreSQL rendering of `?`) reads it
// through these tokens, so that they all agree with SQLite about where a string, a quoted name, a
// comment or a parameter starts and ends.

/// SQLite's tokenizer (`sqlite3GetToken` in SQLite's `tokenize.c`), in Swift.
///
/// The lexer yields one ``Token`` at a time: its ``Token/Kind`` and its bytes in the UTF-8 text. It
/// never allocates per token, never fails and always advances, so it ends on any byte sequence.
/// What SQLite would refuse (an unterminated string or quoted name, a malformed blob, a lone
/// `!`, a number running into letters, a byte no token starts with) comes back as an
/// ``Token/Kind/illegal`` token spanning what SQLite would report.
///
/// ```swift
/// var lexer = SQLLexer("SELECT name FROM \"player\" WHERE id = ?1 -- one")
/// while let token = lexer.next() {
///     print(token.kind, lexer.text(of: token))
/// }
/// // word SELECT, word name, word FROM, quotedIdentifier "player", word WHERE, word id,
/// // symbol =, parameter ?1
/// ```
///
/// Whitespace and comments are skipped unless the lexer is made with `includingTrivia: true`;
/// with them, the tokens cover the text exactly, end to end.
///
/// The rules, as SQLite has them:
/// - Whitespace is space, tab, line feed, form feed, carriage return, and a UTF-8 byte order mark.
/// - `-- …` runs to the end of the line (the line feed is not part of it); `/* … */` may be left
///   open at the end of the text.
/// - `'…'` is a string; `"…"` and `` `…` `` are quoted names, each escaping its quote by doubling
///   it; `[…]` is a quoted name that ends at the first `]`.
/// - `x'…'` (or `X'…'`) is a blob: an even number of hexadecimal digits.
/// - `?` and `?NNN` are positional parameters; `:name`, `@name`, `$name` and `#name` are named
///   ones (with Tcl's `$a::b` and `$a(b)` forms).
/// - Numbers are decimal (`1`, `1.5`, `.5`, `1e-3`) or hexadecimal (`0x1F`), with `_` between
///   digits as SQLite 3.46 accepts it.
/// - A word is a run of letters, digits, `_`, `$` and bytes from 0x80 up, not starting with a digit
///   or `$`: keywords and bare names alike.
/// - Operators: `||`, `<=`, `>=`, `==`, `!=`, `<>`, `<<`, `>>`, `->`, `->>` and single bytes.
package struct SQLLexer: Sequence, IteratorProtocol {
    /// One token: what it is and where it is.
    package struct Token: Hashable, Sendable {
        /// What a token is.
        package enum Kind: UInt8, Hashable, Sendable {
            /// Whitespace.
            case space
            /// `-- …` or `/* … */`.
            case comment
            /// A bare word: a keyword or an unquoted name.
            case word
            /// A name quoted with `"…"`, `` `…` `` or `[…]`.
            case quotedIdentifier
            /// A string literal `'…'`.
            case string
            /// A blob literal `x'…'`.
            case blob
            /// An integer literal.
            case integer
            /// A real literal.
            case real
            /// A parameter: `?`, `?NNN`, `:name`, `@name`, `$name`, `#name`.
            case parameter
            /// An operator or punctuation, `;` included.
            case symbol
            /// What SQLite refuses as a token (`TK_ILLEGAL`): an unterminated string or quoted name,
            /// a malformed blob, a lone `!`, a number running into letters, a stray byte.
            case illegal
        }

        /// What the token is.
        package var kind: Kind
        /// The token's first byte in the text (a UTF-8 offset).
        package var start: Int
        /// The offset after the token's last byte.
        package var end: Int

        package init(kind: Kind, start: Int, end: Int) {
            self.kind = kind
            self.start = start
            self.end = end
        }

        /// The token's bytes in the text.
        package var range: Range<Int> { start..<end }
        /// Whether the token is whitespace or a comment.
        package var isTrivia: Bool { kind == .space || kind == .comment }
    }

    /// The text, as UTF-8 bytes.
    package let bytes: [UInt8]
    /// Where the next token starts.
    package private(set) var position: Int
    private let includesTrivia: Bool

    /// A lexer over `sql`.
    package init(_ sql: String, includingTrivia: Bool = false) {
        self.init(bytes: Array(sql.utf8), includingTrivia: includingTrivia)
    }

    /// A lexer over UTF-8 bytes, starting at `position`.
    package init(bytes: [UInt8], from position: Int = 0, includingTrivia: Bool = false) {
        self.bytes = bytes
        self.position = Swift.max(0, Swift.min(position, bytes.count))
        self.includesTrivia = includingTrivia
    }

    /// A lexer over a NUL-terminated C string, such as `sqlite3_sql` returns.
    package init(cString: UnsafePointer<CChar>, includingTrivia: Bool = false) {
        var count = 0
        while cString[count] != 0 { count += 1 }
        self.init(bytes: Array(UnsafeRawBufferPointer(start: cString, count: count)), includingTrivia: includingTrivia)
    }

    /// The next token, or `nil` at the end of the text.
    package mutating func next() -> Token? {
        while position < bytes.count {
            let start = position
            let kind = scan()
            let token = Token(kind: kind, start: start, end: position)
            if includesTrivia || !token.isTrivia { return token }
        }
        return nil
    }

    /// The tokens of `sql`, trivia left out unless asked for.
    package static func tokens(of sql: String, includingTrivia: Bool = false) -> [Token] {
        Array(SQLLexer(sql, includingTrivia: includingTrivia))
    }

    // MARK: Reading tokens

    /// The token's text as written.
    package func text(of token: Token) -> String {
        String(decoding: bytes[clamped(token.range)], as: UTF8.self)
    }

    /// Whether `token` is the keyword (or bare word) `keyword`, compared as SQLite compares
    /// keywords: ASCII letters without regard to case.
    package func isKeyword(_ token: Token, _ keyword: StaticString) -> Bool {
        guard token.kind == .word, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
        return keyword.withUTF8Buffer { word in
            var index = 0
            while index < word.count {
                if Self.asciiUppercased(bytes[token.start + index]) != word[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// Whether `token` is the operator or punctuation `symbol`.
    package func isSymbol(_ token: Token, _ symbol: StaticString) -> Bool {
        guard token.kind == .symbol, token.end - token.start == symbol.utf8CodeUnitCount else { return false }
        return symbol.withUTF8Buffer { text in
            var index = 0
            while index < text.count {
                if bytes[token.start + index] != text[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// The value a token stands for: a quoted name or a string without its quotes (doubled quotes
    /// made single), a blob's hexadecimal digits, any other token as written.
    package func value(of token: Token) -> String {
        let range = clamped(token.range)
        guard range.count >= 2 else { return text(of: token) }
        switch token.kind {
        case .string, .quotedIdentifier:
            let open = bytes[range.lowerBound]
            if open == UInt8(ascii: "[") {
                return String(decoding: bytes[(range.lowerBound + 1)..<(range.upperBound - 1)], as: UTF8.self)
            }
            var content: [UInt8] = []
            content.reserveCapacity(range.count - 2)
            var index = range.lowerBound + 1
            while index < range.upperBound - 1 {
                let byte = bytes[index]
                content.append(byte)
                index += byte == open && bytes[index + 1] == open ? 2 : 1
            }
            return String(decoding: content, as: UTF8.self)
        case .blob:
            guard range.count >= 3 else { return "" }
            return String(decoding: bytes[(range.lowerBound + 2)..<(range.upperBound - 1)], as: UTF8.self)
        default:
            return text(of: token)
        }
    }

    /// Whether `token` is a string, quoted name, blob or block comment left open at the end of the
    /// text.
    package func isUnterminated(_ token: Token) -> Bool {
        let range = clamped(token.range)
        guard let first = range.first.map({ bytes[$0] }) else { return false }
        switch token.kind {
        case .comment:
            return first == UInt8(ascii: "/")
                && !(range.count >= 4 && bytes[range.upperBound - 2] == UInt8(ascii: "*")
                    && bytes[range.upperBound - 1] == UInt8(ascii: "/"))
        case .illegal:
            // Only an unterminated string or quoted name makes an illegal token that starts with a
            // quote; a blob is also illegal when malformed.
            switch first {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["): return true
            case UInt8(ascii: "x"), UInt8(ascii: "X"):
                return range.count >= 2 && bytes[range.lowerBound + 1] == UInt8(ascii: "'")
                    && (range.count == 2 || bytes[range.upperBound - 1] != UInt8(ascii: "'"))
            default: return false
            }
        default:
            return false
        }
    }

    private func clamped(_ range: Range<Int>) -> Range<Int> {
        range.clamped(to: 0..<bytes.count)
    }

    // MARK: Scanning

    /// The byte at `index`, or 0 past the end (SQLite reads a NUL-terminated text).
    private func byte(at index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// Scans the token at `position`, which is inside the text, and moves past it. Every branch
    /// moves at least one byte.
    private mutating func scan() -> Token.Kind {
        let first = bytes[position]
        let second = byte(at: position + 1)
        switch first {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20:
            position += 1
            while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
            return .space
        case 0xEF where second == 0xBB && byte(at: position + 2) == 0xBF:  // a byte order mark
            position += 3
            return .space
        case UInt8(ascii: "-"):
            if second == UInt8(ascii: "-") {
                position += 2
                while position < bytes.count, bytes[position] != 0x0A { position += 1 }
                return .comment
            }
            if second == UInt8(ascii: ">") {
                position += byte(at: position + 2) == UInt8(ascii: ">") ? 3 : 2
                return .symbol
            }
            position += 1
            return .symbol
        case UInt8(ascii: "/"):
            guard second == UInt8(ascii: "*") else {
                position += 1
                return .symbol
            }
            // SQLite looks for `*/` from the third byte on: `/*/` does not close.
            var index = position + 2
            while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
            {
                index += 1
            }
            position = index + 1 < bytes.count ? index + 2 : bytes.count
            return .comment
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ";"), UInt8(ascii: "+"), UInt8(ascii: "*"),
            UInt8(ascii: "%"), UInt8(ascii: ","), UInt8(ascii: "&"), UInt8(ascii: "~"):
            position += 1
            return .symbol
        case UInt8(ascii: "="):
            position += second == UInt8(ascii: "=") ? 2 : 1
            return .symbol
        case UInt8(ascii: "<"):
            let isPair =
                second == UInt8(ascii: "=") || second == UInt8(ascii: ">") || second == UInt8(ascii: "<")
            position += isPair ? 2 : 1
            return .symbol
        case UInt8(ascii: ">"):
            position += second == UInt8(ascii: "=") || second == UInt8(ascii: ">") ? 2 : 1
            return .symbol
        case UInt8(ascii: "!"):
            if second == UInt8(ascii: "=") {
                position += 2
                return .symbol
            }
            position += 1
            return .illegal
        case UInt8(ascii: "|"):
            position += second == UInt8(ascii: "|") ? 2 : 1
            return .symbol
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
            return scanQuoted(delimiter: first)
        case UInt8(ascii: "["):
            var index = position + 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
            if index < bytes.count {
                position = index + 1
                return .quotedIdentifier
            }
            position = bytes.count
            return .illegal
        case UInt8(ascii: "."):
            if Self.isDigit(second) { return scanNumber() }
            position += 1
            return .symbol
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return scanNumber()
        case UInt8(ascii: "?"):
            position += 1
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
            return .parameter
        case UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "#"):
            return scanNamedParameter()
        case UInt8(ascii: "x"), UInt8(ascii: "X"):
            if second == UInt8(ascii: "'") { return scanBlob() }
            return scanWord()
        default:
            if Self.isIdentifierByte(first) { return scanWord() }
            position += 1  // a NUL (where SQLite stops reading), a control byte, `\`, `^`, `{`, `}` …
            return .illegal
        }
    }

    private mutating func scanWord() -> Token.Kind {
        position += 1
        while position < bytes.count, Self.isIdentifierByte(bytes[position]) { position += 1 }
        return .word
    }

    /// `'…'`, `"…"` or `` `…` ``, a doubled delimiter standing for itself.
    private mutating func scanQuoted(delimiter: UInt8) -> Token.Kind {
        var index = position + 1
        while index < bytes.count {
            if bytes[index] == delimiter {
                if byte(at: index + 1) == delimiter {
                    index += 2
                    continue
                }
                position = index + 1
                return delimiter == UInt8(ascii: "'") ? .string : .quotedIdentifier
            }
            index += 1
        }
        position = bytes.count
        return .illegal
    }

    /// `x'…'`: an even number of hexadecimal digits; anything else is illegal up to the next `'`.
    private mutating func scanBlob() -> Token.Kind {
        var index = position + 2
        while index < bytes.count, Self.isHexDigit(bytes[index]) { index += 1 }
        var kind = Token.Kind.blob
        if byte(at: index) != UInt8(ascii: "'") || (index - position) % 2 != 0 {
            kind = .illegal
            while index < bytes.count, bytes[index] != UInt8(ascii: "'") { index += 1 }
        }
        position = index < bytes.count ? index + 1 : bytes.count
        return kind
    }

    /// A decimal or hexadecimal number; letters right after it make the whole run illegal.
    private mutating func scanNumber() -> Token.Kind {
        var kind = Token.Kind.integer
        var index = position
        func skipDigits(hexadecimal: Bool = false) {
            while index < bytes.count {
                let current = bytes[index]
                guard (hexadecimal ? Self.isHexDigit(current) : Self.isDigit(current)) || current == UInt8(ascii: "_")
                else { break }
                index += 1
            }
        }
        if bytes[index] == UInt8(ascii: "0"), byte(at: index + 1) | 0x20 == UInt8(ascii: "x"),
            Self.isHexDigit(byte(at: index + 2))
        {
            index += 2
            skipDigits(hexadecimal: true)
        } else {
            skipDigits()
            if byte(at: index) == UInt8(ascii: ".") {
                kind = .real
                index += 1
                skipDigits()
            }
            let next = byte(at: index + 1)
            if byte(at: index) | 0x20 == UInt8(ascii: "e"),
                Self.isDigit(next)
                    || ((next == UInt8(ascii: "+") || next == UInt8(ascii: "-")) && Self.isDigit(byte(at: index + 2)))
            {
                kind = .real
                index += 2
                skipDigits()
            }
        }
        while index < bytes.count, Self.isIdentifierByte(bytes[index]) {
            kind = .illegal
            index += 1
        }
        position = index
        return kind
    }

    /// `:name`, `@name`, `$name`, `#name`, with Tcl's `$a::b` and `$a(b)`; illegal without a name.
    private mutating func scanNamedParameter() -> Token.Kind {
        var index = position + 1
        var nameLength = 0
        var kind = Token.Kind.parameter
        while index < bytes.count {
            let current = bytes[index]
            if Self.isIdentifierByte(current) {
                nameLength += 1
                index += 1
            } else if current == UInt8(ascii: "("), nameLength > 0 {
                repeat {
                    index += 1
                } while index < bytes.count && !Self.isSpaceForTcl(bytes[index])
                    && bytes[index] != UInt8(ascii: ")")
                if index < bytes.count, bytes[index] == UInt8(ascii: ")") {
                    index += 1
                } else {
                    kind = .illegal
                }
                break
            } else if current == UInt8(ascii: ":"), byte(at: index + 1) == UInt8(ascii: ":") {
                index += 2
            } else {
                break
            }
        }
        position = index
        return nameLength == 0 ? .illegal : kind
    }

    // MARK: Character classes

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// `sqlite3Isspace`, which also takes a vertical tab: where a Tcl `$a(…)` name ends.
    private static func isSpaceForTcl(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// SQLite's `IdChar`: letters, digits, `_`, `$` and every byte from 0x80 up.
    package static func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || isDigit(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
    }

    /// An ASCII letter in upper case; any other byte as it is.
    static func asciiUppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
    }
}
