import SlateConcurrency
import SlateCore

/// Renders and classifies column `DEFAULT` expressions, shared by `CREATE TABLE` rendering and
/// self-managing table migrations.
package enum DefaultExpression {
    /// A `DEFAULT` expression as SQLite requires it: literals and `CURRENT_*` keywords as they are,
    /// anything else in parentheses.
    package static func rendered(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return isConstantLiteral(trimmed) || isKeywordDefault(trimmed) || isParenthesized(trimmed)
            ? trimmed : "(" + trimmed + ")"
    }

    /// `CURRENT_TIME`, `CURRENT_DATE`, `CURRENT_TIMESTAMP`: allowed bare, but not constant (so
    /// `ALTER TABLE ADD COLUMN` refuses them).
    package static func isKeywordDefault(_ text: String) -> Bool {
        ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"].contains(text.uppercased())
    }

    /// Whether `text` is a constant literal: a number, a string, a blob, `NULL`, `TRUE` or `FALSE`.
    package static func isConstantLiteral(_ text: String) -> Bool {
        let upper = text.uppercased()
        if ["NULL", "TRUE", "FALSE"].contains(upper) { return true }
        if let first = text.first, "+-.0123456789".contains(first) {
            if Double(text) != nil && !upper.contains("INF") && !upper.contains("NAN") { return true }
            let unsigned = text.drop { $0 == "+" || $0 == "-" }
            return unsigned.lowercased().hasPrefix("0x") && Int64(unsigned.dropFirst(2), radix: 16) != nil
        }
        var body = Substring(text)
        if upper.hasPrefix("X'") { body = body.dropFirst() }
        return isSingleQuoted(body)
    }

    /// Whether `text` is exactly one single-quoted SQL string.
    private static func isSingleQuoted(_ text: Substring) -> Bool {
        guard text.count >= 2, text.first == "'", text.last == "'" else { return false }
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            if text[index] == "'" {
                let next = text.index(after: index)
                if next == text.endIndex { return true }
                guard text[next] == "'" else { return false }
                index = text.index(after: next)
            } else {
                index = text.index(after: index)
            }
        }
        return false
    }

    /// Whether `text` is one parenthesized group, as in `(datetime('now'))`.
    static func isParenthesized(_ text: String) -> Bool {
        guard text.first == "(", text.last == ")" else { return false }
        var depth = 0
        var inString = false
        for (offset, character) in text.enumerated() {
            if character == "'" { inString.toggle() }
            if inString { continue }
            if character == "(" { depth += 1 }
            if character == ")" {
                depth -= 1
                if depth == 0 && offset != text.count - 1 { return false }
            }
        }
        return depth == 0
    }
}
