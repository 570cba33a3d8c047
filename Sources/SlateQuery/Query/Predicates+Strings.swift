import SlateConcurrency
import SlateCore

// Pattern matching on text expressions: LIKE, GLOB, and Swift-style hasPrefix/hasSuffix/contains.
// Each is `NULL` when the text is: `Bool?` for an optional text expression.

extension QueryExpression where QueryValue: TextQueryValue {
    /// `self LIKE ?`: SQL pattern matching, where `%` matches any text and `_` any character.
    /// ASCII letters match case-insensitively.
    ///
    /// Pass `escape` to match `%` or `_` literally: `$0.code.like("100\\%", escape: "\\")`.
    public func like(_ pattern: String, escape: Character? = nil) -> SQLExpression<QueryValue.SQLCondition> {
        if let escape {
            return postfix(self, " LIKE \(pattern) ESCAPE \(String(escape))", precedence: .equality)
        }
        return postfix(self, " LIKE \(pattern)", precedence: .equality)
    }

    /// `self NOT LIKE ?`.
    public func notLike(_ pattern: String, escape: Character? = nil) -> SQLExpression<QueryValue.SQLCondition> {
        if let escape {
            return postfix(self, " NOT LIKE \(pattern) ESCAPE \(String(escape))", precedence: .equality)
        }
        return postfix(self, " NOT LIKE \(pattern)", precedence: .equality)
    }

    /// `self GLOB ?`: case-sensitive Unix-style matching, where `*` matches any text, `?` any
    /// character, and `[…]` a set of characters.
    public func glob(_ pattern: String) -> SQLExpression<QueryValue.SQLCondition> {
        postfix(self, " GLOB \(pattern)", precedence: .equality)
    }

    /// Whether the text starts with `prefix`, case-sensitively like `String.hasPrefix`.
    ///
    /// Renders `self GLOB ?` with the prefix's `*`, `?` and `[` escaped, so every character
    /// matches itself, including `%` and `_`.
    public func hasPrefix(_ prefix: String) -> SQLExpression<QueryValue.SQLCondition> {
        glob(globEscaped(prefix) + "*")
    }

    /// Whether the text ends with `suffix`, case-sensitively like `String.hasSuffix`.
    public func hasSuffix(_ suffix: String) -> SQLExpression<QueryValue.SQLCondition> {
        glob("*" + globEscaped(suffix))
    }

    /// Whether the text contains `substring`, case-sensitively like `String.contains(_:)`.
    public func contains(_ substring: String) -> SQLExpression<QueryValue.SQLCondition> {
        glob("*" + globEscaped(substring) + "*")
    }
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
