import SlateCore
import SlateQuery

// Positional parameters (`?`, `?NNN`), as queries written for SQLDelight, sqlc or drift use them.
// A Swift function needs a label for each argument, so each positional parameter is given a name,
// as sqlc does: the column it is compared with, assigned to or inserted into (`id`, `name`), `limit`
// or `offset` for a row count, else `p` and its number (`p1`). The statement is then analysed as
// if it had been written with those names (`:id`), which is also the SQL the generated code runs.

/// The names given to a statement's positional parameters, and the statement written with them.
struct PositionalParameters {
    /// The statement with each positional parameter written `:name`.
    var text: String
    /// The parameter as the user wrote it (`?`, `?2`), by the name it was given (`:id`): for
    /// messages.
    var spellings: [String: String]

    /// Names the positional parameters of `text`, a statement of named queries whose annotations
    /// are at `annotations` (byte ranges); `nil` when it has none.
    static func naming(
        _ text: String, annotations: [Range<Int>], schema: DatabaseSchema
    ) -> PositionalParameters? {
        let lexer = SQLLexer(text)
        // The parameters SQLite sees: the `?` of an annotation `AS TEXT?` is not one.
        let tokens = Array(lexer).filter { token in
            token.kind == .parameter && !annotations.contains { $0.contains(token.start) }
        }
        let positional = tokens.filter { lexer.bytes[$0.start] == UInt8(ascii: "?") }
        guard !positional.isEmpty else { return nil }

        // SQLite's numbering: `?` takes the next number, `?NNN` the number NNN, a name the next
        // number the first time it appears.
        var numbers: [Range<Int>: Int] = [:]
        var namedNumbers: [String: Int] = [:]
        var highest = 0
        for token in tokens {
            let spelling = lexer.text(of: token)
            let number: Int
            if spelling == "?" {
                number = highest + 1
            } else if spelling.hasPrefix("?") {
                number = Int(spelling.dropFirst()) ?? highest + 1
            } else {
                number = namedNumbers[spelling] ?? highest + 1
                namedNumbers[spelling] = number
            }
            highest = max(highest, number)
            numbers[token.range] = number
        }

        // What each place says, read from the statement without its annotations.
        var analysed = Array(text.utf8)
        for range in annotations.sorted(by: { $0.lowerBound > $1.lowerBound }) where range.upperBound <= analysed.count
        {
            analysed.replaceSubrange(range, with: repeatElement(UInt8(ascii: " "), count: range.count))
        }
        let lexemes = SQLLexer.lexemes(of: String(decoding: analysed, as: UTF8.self))[...]
        let types = TypeInference(schema: schema)
        _ = types.resultColumns(of: lexemes)
        let places = ParameterInference(tokens: lexemes, schema: schema, types: types)

        // A name per number, unique among the statement's parameter names (compared as the
        // analyser compares them: without prefix, ignoring case).
        var taken = Set(namedNumbers.keys.map { String($0.dropFirst()).lowercased() })
        var names: [Int: String] = [:]
        for token in positional {
            guard let number = numbers[token.range], names[number] == nil else { continue }
            let index = lexemes.firstIndex { $0.start == token.start } ?? lexemes.endIndex
            var stem = index < lexemes.endIndex ? suggestedName(at: index, in: lexemes, places: places) : nil
            stem = stem.map(identifier).flatMap { $0.isEmpty ? nil : $0 }
            var name = stem ?? "p\(number)"
            var suffix = 2
            while taken.contains(name.lowercased()) {
                name = (stem ?? "p\(number)") + "_\(suffix)"
                suffix += 1
            }
            taken.insert(name.lowercased())
            names[number] = name
        }

        // The statement with the names: a space after a name when a byte that would continue it
        // follows.
        var rewritten: [UInt8] = []
        var spellings: [String: String] = [:]
        var position = 0
        for token in positional {
            guard let number = numbers[token.range], let name = names[number] else { continue }
            rewritten += lexer.bytes[position..<token.start]
            rewritten += Array(":\(name)".utf8)
            let next = token.end < lexer.bytes.count ? lexer.bytes[token.end] : 0
            if SQLLexer.isIdentifierByte(next) || next == UInt8(ascii: ":") || next == UInt8(ascii: "(") {
                rewritten.append(UInt8(ascii: " "))
            }
            spellings[":" + name] = spellings[":" + name] ?? lexer.text(of: token)
            position = token.end
        }
        rewritten += lexer.bytes[position...]
        return PositionalParameters(text: String(decoding: rewritten, as: UTF8.self), spellings: spellings)
    }

    /// The name sqlc would give the parameter at `index`: the column it is compared with, assigned
    /// to or inserted into, or `limit` / `offset`.
    private static func suggestedName(
        at index: Int, in tokens: ArraySlice<SQLLexer.Lexeme>, places: ParameterInference
    ) -> String? {
        if index > tokens.startIndex {
            let previous = tokens[index - 1]
            let next = index + 1 < tokens.endIndex ? tokens[index + 1] : nil
            if previous.isKeyword("OFFSET") { return "offset" }
            if previous.isKeyword("LIMIT") { return next?.isSymbol(",") == true ? "offset" : "limit" }
            if previous.isSymbol(","), index - 3 >= tokens.startIndex, tokens[index - 3].isKeyword("LIMIT") {
                return "limit"
            }
        }
        return places.use(at: index)?.column
    }

    /// `name` as a parameter name: ASCII letters, digits and `_`, not starting with a digit.
    private static func identifier(_ name: String) -> String {
        var bytes = name.utf8.map { byte -> UInt8 in
            let isLetter = byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
            let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            return isLetter || isDigit || byte == UInt8(ascii: "_") ? byte : UInt8(ascii: "_")
        }
        if let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            bytes.insert(UInt8(ascii: "_"), at: 0)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
