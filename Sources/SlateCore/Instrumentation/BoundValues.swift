import CSQLite
import Foundation

/// Reads back the values bound to a statement, for logs whose user asked to see them.
///
/// SQLite has no call that returns a bound value; `sqlite3_expanded_sql` writes them into the SQL
/// as literals. The statement's SQL and its expansion are the same tokens except where a parameter
/// stands, so reading both with ``SQLLexer`` (the project's one lexer) side by side finds each
/// parameter's literal, which is then read back as a value.
enum BoundValues {
    /// The values in the order the parameters appear in the SQL, or `nil` when SQLite could not
    /// expand the SQL (out of memory, or longer than the length limit) or the texts do not line up.
    static func read(_ statement: OpaquePointer) -> [SQLValue]? {
        guard sqlite3_bind_parameter_count(statement) > 0 else { return [] }
        guard let sql = sqlite3_sql(statement), let expanded = sqlite3_expanded_sql(statement) else { return nil }
        defer { sqlite3_free(expanded) }
        return values(original: SQLLexer(cString: sql), expanded: SQLLexer(cString: expanded))
    }

    /// The literal values that `expanded` has where `original` has parameters, or `nil` when the
    /// two texts differ anywhere else.
    static func values(original: SQLLexer, expanded: SQLLexer) -> [SQLValue]? {
        var original = original
        var expanded = expanded
        var values: [SQLValue] = []
        while let token = original.next() {
            if token.kind == .parameter {
                guard let value = literal(&expanded) else { return nil }
                values.append(value)
            } else {
                guard let other = expanded.next(), other.kind == token.kind,
                    original.bytes[token.range].elementsEqual(expanded.bytes[other.range])
                else { return nil }
            }
        }
        return expanded.next() == nil ? values : nil
    }

    /// The literal `sqlite3_expanded_sql` wrote for a parameter (`NULL`, a number, possibly
    /// negative, `'text'` or `x'blob'`), read from `lexer`.
    private static func literal(_ lexer: inout SQLLexer) -> SQLValue? {
        guard let token = lexer.next() else { return nil }
        switch token.kind {
        case .word where lexer.isKeyword(token, "NULL"):
            return .null
        case .string:
            return .text(lexer.value(of: token))
        case .blob:
            return blob(hexadecimal: Array(lexer.value(of: token).utf8))
        case .integer, .real:
            return number(lexer.text(of: token), isReal: token.kind == .real)
        case .symbol where lexer.text(of: token) == "-":
            guard let digits = lexer.next(), digits.kind == .integer || digits.kind == .real else { return nil }
            return number("-" + lexer.text(of: digits), isReal: digits.kind == .real)
        default:
            return nil
        }
    }

    private static func number(_ text: String, isReal: Bool) -> SQLValue? {
        if !isReal, let integer = Int64(text) { return .integer(integer) }
        return Double(text).map { .real($0) }
    }

    private static func blob(hexadecimal digits: [UInt8]) -> SQLValue? {
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return .blob(Data(bytes))
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
