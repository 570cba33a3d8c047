import SlateCore
import SlateQuery

// Walking a statement's tokens (`SQLLexer.lexemes`) the way the analyser needs: at the top level
// (outside parentheses, and `CASE … END` for most), splitting at separators, matching brackets.

extension ArraySlice where Element == SQLLexer.Lexeme {
    /// The indexes of tokens satisfying `predicate` outside parentheses and `CASE … END`.
    func topLevelIndices(where predicate: (SQLLexer.Lexeme) -> Bool) -> [Int] {
        var result: [Int] = []
        var depth = 0
        var caseDepth = 0
        for index in indices {
            let token = self[index]
            if token.isSymbol("(") {
                depth += 1
            } else if token.isSymbol(")") {
                depth -= 1
            } else if depth == 0 && token.isKeyword("CASE") {
                caseDepth += 1
            } else if depth == 0 && caseDepth > 0 && token.isKeyword("END") {
                caseDepth -= 1
            } else if depth == 0 && caseDepth == 0 && predicate(token) {
                result.append(index)
            }
        }
        return result
    }

    /// The last index satisfying `predicate` outside parentheses and `CASE … END`.
    func lastTopLevelIndex(where predicate: (SQLLexer.Lexeme) -> Bool) -> Int? {
        topLevelIndices(where: predicate).last
    }

    /// Splits at tokens satisfying `isSeparator` outside parentheses and `CASE … END`.
    func splitTopLevel(_ isSeparator: (SQLLexer.Lexeme) -> Bool) -> [ArraySlice<SQLLexer.Lexeme>] {
        var parts: [ArraySlice<SQLLexer.Lexeme>] = []
        var start = startIndex
        for index in topLevelIndices(where: isSeparator) {
            parts.append(self[start..<index])
            start = index + 1
        }
        parts.append(self[start..<endIndex])
        return parts
    }

    /// Splits at a symbol outside parentheses and `CASE … END`.
    func splitTopLevel(on symbol: String) -> [ArraySlice<SQLLexer.Lexeme>] {
        splitTopLevel { $0.isSymbol(symbol) }
    }

    /// The index of the `)` closing the `(` at `index`.
    func matchingParenthesis(at index: Int) -> Int? {
        guard index < endIndex, self[index].isSymbol("(") else { return nil }
        var depth = 0
        for position in index..<endIndex {
            if self[position].isSymbol("(") { depth += 1 }
            if self[position].isSymbol(")") {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }

    /// The index of the `END` closing the `CASE` at `index`.
    func matchingEnd(at index: Int) -> Int? {
        guard index < endIndex, self[index].isKeyword("CASE") else { return nil }
        var depth = 0
        var parentheses = 0
        for position in index..<endIndex {
            let token = self[position]
            if token.isSymbol("(") { parentheses += 1 }
            if token.isSymbol(")") { parentheses -= 1 }
            guard parentheses == 0 else { continue }
            if token.isKeyword("CASE") { depth += 1 }
            if token.isKeyword("END") {
                depth -= 1
                if depth == 0 { return position }
            }
        }
        return nil
    }

    /// The index of the first token at parenthesis depth 0 satisfying `predicate`.
    func firstTopLevelIndex(where predicate: (SQLLexer.Lexeme) -> Bool) -> Int? {
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

/// Renders type-name tokens (`VARCHAR ( 10 )`) as SQL text (`VARCHAR(10)`).
enum SQLTypeText {
    static func render(_ tokens: ArraySlice<SQLLexer.Lexeme>) -> String {
        var text = ""
        var previous: SQLLexer.Lexeme?
        for token in tokens {
            if let previous, token.isName || token.kind == .integer || token.kind == .real,
                previous.isName || previous.kind == .integer
            {
                text += " "
            }
            text += token.kind == .word ? token.text.uppercased() : token.text
            previous = token
        }
        return text
    }
}
