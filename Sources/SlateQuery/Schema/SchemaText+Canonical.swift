// SQL text in a canonical form, so that schema comparisons (migration plans, drift checks) never
// report a difference of spelling: whitespace, comments, identifier quoting, the letter case of
// keywords and names.

extension SchemaText {
    /// `sql` with its tokens separated by single spaces: comments and whitespace dropped, keywords
    /// and identifiers (bare or quoted with `"…"`, `[…]`, `` `…` ``) lowercased and unquoted, `==`
    /// written `=` and `<>` written `!=`. String and blob literals are kept as written: their case
    /// is data.
    ///
    /// ```swift
    /// SchemaText.canonicalSQL("DATETIME( 'now' ) -- when")   // "datetime ( 'now' )"
    /// SchemaText.canonicalSQL("\"Active\" == 1")             // "active = 1"
    /// ```
    package static func canonicalSQL(_ sql: String) -> String {
        let bytes = Array(sql.utf8)
        var tokens: [String] = []
        var index = 0
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x24 || byte >= 0x80
        }
        /// The end of a quoted run starting after its opening byte, where a doubled `close`
        /// escapes it (except in `[…]`).
        func endOfQuoted(from start: Int, close: UInt8, doubling: Bool) -> Int {
            var position = start
            while position < bytes.count {
                if bytes[position] == close {
                    if doubling, position + 1 < bytes.count, bytes[position + 1] == close {
                        position += 2
                        continue
                    }
                    return position + 1
                }
                position += 1
            }
            return position
        }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

        while index < bytes.count {
            let byte = bytes[index]
            let next: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                index += 1
            case 0x2D where next == 0x2D:  // -- comment
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            case 0x2F where next == 0x2A:  // /* comment */
                index += 2
                while index < bytes.count
                    && !(bytes[index] == 0x2A && index + 1 < bytes.count && bytes[index + 1] == 0x2F)
                {
                    index += 1
                }
                index = min(bytes.count, index + 2)
            case 0x27:  // 'string': kept as written
                let end = endOfQuoted(from: index + 1, close: 0x27, doubling: true)
                tokens.append(text(index..<end))
                index = end
            case 0x78 where next == 0x27, 0x58 where next == 0x27:  // X'blob'
                let end = endOfQuoted(from: index + 2, close: 0x27, doubling: true)
                tokens.append("x" + text((index + 1)..<end).lowercased())
                index = end
            case 0x22, 0x60, 0x5B:  // "identifier", `identifier`, [identifier]
                let close: UInt8 = byte == 0x5B ? 0x5D : byte
                let end = endOfQuoted(from: index + 1, close: close, doubling: byte != 0x5B)
                var name = text((index + 1)..<max(index + 1, end - 1))
                if byte != 0x5B {
                    let quote = String(UnicodeScalar(byte))
                    name = name.replacingOccurrences(of: quote + quote, with: quote)
                }
                tokens.append(canonicalIdentifier(name))
                index = end
            default:
                if isWordByte(byte) {
                    let start = index
                    while index < bytes.count && isWordByte(bytes[index]) { index += 1 }
                    tokens.append(text(start..<index).lowercased())
                } else {
                    let pair = index + 1 < bytes.count ? text(index..<(index + 2)) : ""
                    switch pair {
                    case "==":
                        tokens.append("=")
                        index += 2
                    case "<>", "!=":
                        tokens.append("!=")
                        index += 2
                    case "<=", ">=", "||", "<<", ">>":
                        tokens.append(pair)
                        index += 2
                    case "->":
                        let isLong = index + 2 < bytes.count && bytes[index + 2] == 0x3E
                        tokens.append(isLong ? "->>" : "->")
                        index += isLong ? 3 : 2
                    default:
                        tokens.append(text(index..<(index + 1)))
                        index += 1
                    }
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
    /// regard to case, its arguments as ``SchemaText/canonicalSQL(_:)``.
    package func matches(_ other: TableSchema.Kind) -> Bool {
        switch (self, other) {
        case (.table, .table), (.view, .view):
            return true
        case (.virtual(let module, let arguments), .virtual(let otherModule, let otherArguments)):
            return module.lowercased() == otherModule.lowercased()
                && SchemaText.canonicalSQL(arguments) == SchemaText.canonicalSQL(otherArguments)
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
