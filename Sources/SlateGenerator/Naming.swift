import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery

/// Turns SQL names into readable, valid Swift identifiers.
///
/// Names are split into words at spaces, punctuation, underscores, and case changes
/// (`"Order Details"`, `"order_details"` and `"OrderDetails"` all give `Order`, `Details`), then
/// joined in camel case with acronyms kept whole (`CustomerID` → `customerID`, `URLString` →
/// `urlString`). Names starting with a digit get a leading underscore for properties (`_2fa`) and a
/// leading `T` for types (`T2fa`); Swift keywords are escaped with backticks where they are used.
public enum Naming {
    /// The words of `name`: runs of letters and digits, split at case changes.
    ///
    /// ```swift
    /// Naming.words("Order Details")   // ["Order", "Details"]
    /// Naming.words("customer_ID")     // ["customer", "ID"]
    /// Naming.words("URLString")       // ["URL", "String"]
    /// Naming.words("ship/via")        // ["ship", "via"]
    /// ```
    public static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = []
        }
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if let previous = current.last {
                let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
                if previous.isLowercase && character.isUppercase {
                    flush()  // fooBar
                } else if previous.isUppercase && character.isUppercase, let next, next.isLowercase {
                    flush()  // URLString → URL, String
                } else if previous.isNumber && character.isLetter && character.isUppercase {
                    flush()  // 2Fa → 2, Fa
                } else if previous.isLetter && character.isNumber {
                    flush()  // For1997 → For, 1997
                }
            }
            current.append(character)
        }
        flush()
        return words
    }

    /// An UpperCamelCase type name: `"order details"` → `OrderDetails`. Empty names give
    /// `"Unnamed"`; a leading digit gets a `T` prefix.
    public static func typeName(_ name: String) -> String {
        let parts = words(name).map(capitalizedWord)
        var result = parts.joined()
        if result.isEmpty { result = "Unnamed" }
        if let first = result.first, first.isNumber { result = "T" + result }
        return result
    }

    /// A lowerCamelCase property name: `"CustomerID"` → `customerID`, `"Unit Price"` → `unitPrice`.
    /// Empty names give `"unnamed"`; a leading digit gets a `_` prefix.
    public static func propertyName(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "unnamed" }
        var result = lowercasedWord(first) + parts.dropFirst().map(capitalizedWord).joined()
        if let character = result.first, character.isNumber { result = "_" + result }
        return result
    }

    /// A snake_case name for raw C-style functions: `OrderDetail` → `order_detail`.
    public static func snakeName(_ name: String) -> String {
        let parts = words(name).map { $0.lowercased() }
        let result = parts.joined(separator: "_")
        return result.isEmpty ? "unnamed" : result
    }

    /// `"id"` → `"Id"`, `"ID"` → `"ID"`, `"name"` → `"Name"`.
    static func capitalizedWord(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// The first word of a lowerCamel name: all lowercase when it is an acronym (`ID` → `id`,
    /// `URL` → `url`), else with a lowercase first letter (`Customer` → `customer`).
    static func lowercasedWord(_ word: String) -> String {
        if word.allSatisfy({ !$0.isLowercase }) { return word.lowercased() }
        guard let first = word.first else { return word }
        return first.lowercased() + word.dropFirst()
    }

    // MARK: Keywords

    /// Swift keywords that must be escaped with backticks when used as identifiers.
    public static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static",
        "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do",
        "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type",
        "Protocol", "async", "package", "consume", "copy", "discard", "each", "some", "any", "borrowing", "consuming",
        "macro", "actor", "nonisolated", "isolated", "sending",
    ]

    /// Names that cannot be used after a dot or as a member even with backticks (`x.init`,
    /// `x.self`, `x.Type`), so such columns are renamed with a `Value` suffix.
    static let memberReserved: Set<String> = [
        "init", "self", "Self", "Type", "Protocol", "deinit", "subscript", "super", "inout", "var", "let",
    ]

    /// `name`, wrapped in backticks when it is a keyword.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    // MARK: Plurals

    /// Words whose singular and plural forms are irregular, in lowercase.
    static let irregularPlurals: [String: String] = [
        "person": "people", "child": "children", "man": "men", "woman": "women", "mouse": "mice", "goose": "geese",
        "foot": "feet", "tooth": "teeth", "ox": "oxen", "datum": "data", "criterion": "criteria",
        "index": "indexes", "matrix": "matrices", "vertex": "vertices", "status": "statuses", "quiz": "quizzes",
        "shelf": "shelves", "half": "halves", "wolf": "wolves", "calf": "calves", "knife": "knives", "wife": "wives",
        "thief": "thieves",
    ]
    /// Words with the same singular and plural, in lowercase.
    static let uncountable: Set<String> = [
        "data", "info", "information", "series", "species", "equipment", "news", "metadata", "fish", "sheep",
        "deer", "media", "settings", "analytics", "staff", "software", "feedback", "music", "money",
    ]

    /// The singular of the last word of `name`, keeping the rest: `"OrderDetails"` →
    /// `"OrderDetail"`, `"Categories"` → `"Category"`, `"people"` → `"person"`.
    public static func singular(_ name: String) -> String {
        replacingLastWord(of: name) { word in
            let lower = word.lowercased()
            if uncountable.contains(lower) { return word }
            if let singular = irregularPlurals.first(where: { $0.value == lower })?.key {
                return matchCase(singular, to: word)
            }
            if irregularPlurals[lower] != nil { return word }  // already singular
            for (suffix, replacement) in [
                ("ies", "y"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x"), ("zzes", "z"),
            ]
            where lower.hasSuffix(suffix) && lower.count > suffix.count + 1 {
                if suffix == "ies" && ["movies", "cookies", "pies", "ties", "lies", "series"].contains(lower) {
                    return String(word.dropLast())
                }
                return String(word.dropLast(suffix.count))
                    + matchCase(replacement, to: String(word.suffix(suffix.count)))
            }
            if lower.hasSuffix("s") && !lower.hasSuffix("ss") && !lower.hasSuffix("us") && !lower.hasSuffix("is")
                && lower.count > 2
            {
                return String(word.dropLast())
            }
            return word
        }
    }

    /// The plural of the last word of `name`: `"OrderDetail"` → `"OrderDetails"`, `"Category"`
    /// → `"Categories"`, `"Box"` → `"Boxes"`. A word that is already plural stays as it is.
    public static func plural(_ name: String) -> String {
        replacingLastWord(of: name) { word in
            let lower = word.lowercased()
            if uncountable.contains(lower) { return word }
            if let plural = irregularPlurals[lower] { return matchCase(plural, to: word) }
            if irregularPlurals.values.contains(lower) { return word }
            if singular(word) != word { return word }  // already plural
            let uppercase = word.count > 1 && word.allSatisfy { !$0.isLowercase }
            func suffix(_ text: String) -> String { uppercase ? text.uppercased() : text }
            if lower.hasSuffix("y"), lower.count > 1 {
                let beforeY = lower.dropLast().last ?? "a"
                if !"aeiou".contains(beforeY) { return String(word.dropLast()) + suffix("ies") }
            }
            if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("z") || lower.hasSuffix("ch")
                || lower.hasSuffix("sh")
            {
                return word + suffix("es")
            }
            return word + suffix("s")
        }
    }

    /// Applies `transform` to the last word (by case change or separator) of an identifier.
    static func replacingLastWord(of name: String, _ transform: (String) -> String) -> String {
        let characters = Array(name)
        // The last word starts at the last uppercase letter following a lowercase one, or after the
        // last non-alphanumeric character.
        var start = 0
        for index in characters.indices.dropFirst() {
            let previous = characters[index - 1]
            let character = characters[index]
            if !(previous.isLetter || previous.isNumber) { start = index }
            if previous.isLowercase && character.isUppercase { start = index }
        }
        let head = String(characters[..<start])
        let last = String(characters[start...])
        guard !last.isEmpty, last.first?.isLetter == true, last.last?.isLetter == true else { return name }
        return head + transform(last)
    }

    /// `replacement` with the case of `original`: all caps, capitalized, or lowercase.
    static func matchCase(_ replacement: String, to original: String) -> String {
        if original.count > 1 && original.allSatisfy({ !$0.isLowercase }) { return replacement.uppercased() }
        if original.first?.isUppercase == true { return capitalizedWord(replacement) }
        return replacement
    }
}

/// Hands out unique names: the first request for a name gets it, later ones get a number suffix.
struct NameRegistry {
    private var used: Set<String>

    /// A registry where `reserved` names are already taken.
    init(reserved: Set<String> = []) {
        used = reserved
    }

    /// `name`, or `name2`, `name3` … when taken. The result is taken from then on.
    mutating func claim(_ name: String) -> String {
        if used.insert(name).inserted { return name }
        var counter = 2
        while !used.insert("\(name)\(counter)").inserted { counter += 1 }
        return "\(name)\(counter)"
    }

    /// Whether `name` is taken.
    func contains(_ name: String) -> Bool { used.contains(name) }
}
