import SlateConcurrency
import SlateCore

// Pattern matching on text expressions: LIKE, GLOB, and Swift-style hasPrefix/hasSuffix/contains.
// Each is `NULL` when the text is: `Bool?` for an optional text expression.

extension QueryExpression where QueryValue: TextQueryValue {
    /// `self LIKE ?`: SQL pattern matching, where `%` matches any text and `_` any character.
    /// ASCII letters match case-insensitively.
    ///
    /// Pass `escape` to match `%` or `_` literally: `$0.code.like("100\\%", escape: "\\")`.
    ///
    /// On PostgreSQL, whose `LIKE` is case-sensitive and escapes with `\` by default, this renders
    /// `ILIKE ? ESCAPE ''` (or `ESCAPE ?`): every letter matches case-insensitively there, not only
    /// ASCII ones.
    public func like(_ pattern: String, escape: Character? = nil) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, likeOperator("LIKE", pattern, escape: escape), precedence: .equality)
    }

    /// `self NOT LIKE ?`.
    public func notLike(_ pattern: String, escape: Character? = nil) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, likeOperator("NOT LIKE", pattern, escape: escape), precedence: .equality)
    }

    /// `self GLOB ?`: case-sensitive Unix-style matching, where `*` matches any text, `?` any
    /// character, and `[…]` a set of characters.
    ///
    /// PostgreSQL has no `GLOB`: there, a statement using it throws before it runs.
    /// ``hasPrefix(_:)``, ``hasSuffix(_:)`` and ``contains(_:)`` work on both.
    public func glob(_ pattern: String) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(
            self,
            SQL(
                sqlite: " GLOB \(pattern)",
                unsupportedOnPostgreSQL: "use like(_:escape:), hasPrefix(_:), hasSuffix(_:) or contains(_:)"),
            precedence: .equality)
    }

    /// Whether the text starts with `prefix`, case-sensitively like `String.hasPrefix`.
    ///
    /// Renders `self GLOB ?` with the prefix's `*`, `?` and `[` escaped, so every character
    /// matches itself, including `%` and `_`.
    ///
    /// On PostgreSQL: `self LIKE ? ESCAPE '\'`, with `%`, `_` and `\` escaped (PostgreSQL's `LIKE`
    /// is case-sensitive).
    public func hasPrefix(_ prefix: String) -> SQLExpression<QueryValue.SQLCondition> {
        literalMatch(glob: globEscaped(prefix) + "*", like: likeEscaped(prefix) + "%")
    }

    /// Whether the text ends with `suffix`, case-sensitively like `String.hasSuffix`.
    public func hasSuffix(_ suffix: String) -> SQLExpression<QueryValue.SQLCondition> {
        literalMatch(glob: "*" + globEscaped(suffix), like: "%" + likeEscaped(suffix))
    }

    /// Whether the text contains `substring`, case-sensitively like `String.contains(_:)`.
    public func contains(_ substring: String) -> SQLExpression<QueryValue.SQLCondition> {
        literalMatch(glob: "*" + globEscaped(substring) + "*", like: "%" + likeEscaped(substring) + "%")
    }

    /// `self GLOB ?` on SQLite, `self LIKE ? ESCAPE '\'` on PostgreSQL: the same case-sensitive
    /// match of a literal text, each in its engine's pattern language.
    private func literalMatch(glob: String, like: String) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, SQL(sqlite: " GLOB \(glob)", postgreSQL: " LIKE \(like) ESCAPE '\\'"), precedence: .equality)
    }
}

/// ` LIKE ?[ ESCAPE ?]` on SQLite; ` ILIKE ? ESCAPE ''|?` on PostgreSQL, where `LIKE` is
/// case-sensitive and `\` escapes unless told otherwise.
private func likeOperator(_ keyword: String, _ pattern: String, escape: Character?) -> SQL {
    let postgreSQLKeyword = keyword == "LIKE" ? "ILIKE" : "NOT ILIKE"
    if let escape {
        let escapeText = String(escape)
        return SQL(
            sqlite: " \(raw: keyword) \(pattern) ESCAPE \(escapeText)",
            postgreSQL: " \(raw: postgreSQLKeyword) \(pattern) ESCAPE \(escapeText)")
    }
    return SQL(sqlite: " \(raw: keyword) \(pattern)", postgreSQL: " \(raw: postgreSQLKeyword) \(pattern) ESCAPE ''")
}

/// `text` as a LIKE pattern (escaped with `\`) matching only itself.
func likeEscaped(_ text: String) -> String {
    var pattern = ""
    pattern.reserveCapacity(text.utf8.count)
    for character in text {
        if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
        pattern.append(character)
    }
    return pattern
}

/// `text` as a GLOB pattern matching only itself: `*`, `?` and `[` become one-character sets.
/// (`]` is literal outside a set.)
func globEscaped(_ text: String) -> String {
    var pattern = ""
    pattern.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "*": pattern += "[*]"
        case "?": pattern += "[?]"
        case "[": pattern += "[[]"
        default: pattern.append(character)
        }
    }
    return pattern
}
