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
        postfix(self, SQL(.construct(.like(pattern: pattern, negated: false, escape: escape))), precedence: .membership)
    }

    /// `self NOT LIKE ?`.
    public func notLike(_ pattern: String, escape: Character? = nil) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, SQL(.construct(.like(pattern: pattern, negated: true, escape: escape))), precedence: .membership)
    }

    /// `self GLOB ?`: case-sensitive Unix-style matching, where `*` matches any text, `?` any
    /// character, and `[…]` a set of characters.
    ///
    /// PostgreSQL has no `GLOB`: there, a statement using it throws before it runs.
    /// ``hasPrefix(_:)``, ``hasSuffix(_:)`` and ``contains(_:)`` work on both.
    public func glob(_ pattern: String) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, SQL(.construct(.glob(pattern: pattern))), precedence: .membership)
    }

    /// Whether the text starts with `prefix`, case-sensitively like `String.hasPrefix`.
    ///
    /// Renders `self GLOB ?` with the prefix's `*`, `?` and `[` escaped, so every character
    /// matches itself, including `%` and `_`.
    ///
    /// On PostgreSQL: `self LIKE ? ESCAPE '\'`, with `%`, `_` and `\` escaped (PostgreSQL's `LIKE`
    /// is case-sensitive).
    public func hasPrefix(_ prefix: String) -> SQLExpression<QueryValue.SQLCondition> {
        literalMatch(prefix, .prefix)
    }

    /// Whether the text ends with `suffix`, case-sensitively like `String.hasSuffix`.
    public func hasSuffix(_ suffix: String) -> SQLExpression<QueryValue.SQLCondition> {
        literalMatch(suffix, .suffix)
    }

    /// Whether the text contains `substring`, case-sensitively like `String.contains(_:)`.
    public func contains(_ substring: String) -> SQLExpression<QueryValue.SQLCondition> {
        literalMatch(substring, .anywhere)
    }

    /// `self GLOB ?` on SQLite, `self LIKE ? ESCAPE '\'` on PostgreSQL: the same case-sensitive
    /// match of a literal text, each in its engine's pattern language.
    private func literalMatch(_ text: String, _ position: SQLTextPosition) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, SQL(.construct(.literalMatch(text, position))), precedence: .membership)
    }
}
