import SlateCore
import SlateQuery

/// A parameter annotation, `:name AS TYPE` or `:name AS TYPE?`: Slate's, not SQL, so SQLite sees
/// blanks in its place.
///
/// ```sql
/// -- name: playersAbove
/// SELECT name FROM player WHERE score > :minimum AS INTEGER;
/// ```
///
/// `AS` after a parameter inside `CAST(…)` is SQL, never an annotation: `CAST(:flag AS BOOLEAN)`
/// stays as written.
struct ParameterAnnotation {
    /// The parameter as written: `:albumId`.
    var parameter: String
    /// The SQL type: `INTEGER`, `VARCHAR(10)`.
    var type: String
    var isOptional: Bool
    /// The bytes of ` AS TYPE?` in the statement, leading space included.
    var range: Range<Int>

    /// Words that start a type annotation after `AS`.
    static let typeWords: Set<String> = [
        "INTEGER", "INT", "BIGINT", "SMALLINT", "TINYINT", "MEDIUMINT", "INT2", "INT4", "INT8", "UNSIGNED", "REAL",
        "DOUBLE",
        "FLOAT", "NUMERIC", "DECIMAL", "BOOLEAN", "BOOL", "DATE", "DATETIME", "TIMESTAMP", "TEXT", "VARCHAR",
        "NVARCHAR",
        "CHAR", "NCHAR", "CHARACTER", "VARYING", "CLOB", "BLOB", "UUID", "GUID", "JSON",
    ]

    /// The annotations of a statement's tokens.
    static func annotations(in tokens: [SQLLexer.Lexeme], fail: (String, Int) -> SchemaError) throws
        -> [ParameterAnnotation]
    {
        var result: [ParameterAnnotation] = []
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            let token = tokens[index]
            guard token.kind == .parameter, index + 2 < tokens.count, tokens[index + 1].isKeyword("AS"),
                tokens[index + 2].kind == .word, typeWords.contains(tokens[index + 2].text.uppercased()),
                !isInsideCast(tokens, at: index)
            else { continue }
            var end = index + 2
            while end + 1 < tokens.count, tokens[end + 1].kind == .word,
                typeWords.contains(tokens[end + 1].text.uppercased())
            { end += 1 }
            if end + 1 < tokens.count, tokens[end + 1].isSymbol("(") {
                var close = end + 1
                while close < tokens.count, !tokens[close].isSymbol(")") { close += 1 }
                guard close < tokens.count else {
                    throw fail("the annotation of \(token.text) has no closing parenthesis", tokens[end + 1].start)
                }
                end = close
            }
            var isOptional = false
            if end + 1 < tokens.count, tokens[end + 1].kind == .parameter, tokens[end + 1].text == "?",
                tokens[end + 1].start == tokens[end].end
            {
                isOptional = true
                end += 1
            }
            let typeTokens = tokens[(index + 2)...(isOptional ? end - 1 : end)]
            result.append(
                ParameterAnnotation(
                    parameter: token.text, type: SQLTypeText.render(typeTokens), isOptional: isOptional,
                    range: token.end..<tokens[end].end))
            index = end
        }
        return result
    }

    /// Whether the token at `index` is inside the parentheses of `CAST(… AS type)`, whose `AS` is
    /// SQL.
    static func isInsideCast(_ tokens: [SQLLexer.Lexeme], at index: Int) -> Bool {
        var depth = 0
        var position = index - 1
        while position >= 0 {
            let token = tokens[position]
            if token.isSymbol(")") {
                depth += 1
            } else if token.isSymbol("(") {
                if depth == 0 { return position > 0 && tokens[position - 1].isKeyword("CAST") }
                depth -= 1
            }
            position -= 1
        }
        return false
    }
}
