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
        // One string or blob literal, nothing around it.
        var lexer = SQLLexer(text, includingTrivia: true)
        guard let token = lexer.next(), token.kind == .string || token.kind == .blob else { return false }
        return lexer.next() == nil
    }

    /// Whether `text` is one parenthesized group, as in `(datetime('now'))`.
    static func isParenthesized(_ text: String) -> Bool {
        guard text.first == "(", text.last == ")" else { return false }
        var lexer = SQLLexer(text)
        var depth = 0
        while let token = lexer.next() {
            if lexer.isSymbol(token, "(") {
                depth += 1
            } else if lexer.isSymbol(token, ")") {
                depth -= 1
                if depth == 0 { return token.end == lexer.bytes.count }
            }
        }
        return false
    }
}
