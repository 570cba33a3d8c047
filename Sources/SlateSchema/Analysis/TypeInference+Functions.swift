import SlateCore
import SlateQuery

// The one set of function rules: what each SQLite function returns, and when it is never `NULL`.
// Named queries and views both read them here.

extension TypeInference {
    /// The aggregate functions (window functions too, with `OVER`).
    static let aggregateFunctions: Set<String> = [
        "COUNT", "SUM", "TOTAL", "AVG", "MIN", "MAX", "GROUP_CONCAT", "STRING_AGG", "JSON_GROUP_ARRAY",
        "JSON_GROUP_OBJECT", "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT",
    ]

    /// Functions whose result is never `NULL`, whatever their arguments.
    static let neverNullFunctions: [String: String] = [
        "COUNT": "INTEGER", "TOTAL": "REAL", "HEX": "TEXT", "QUOTE": "TEXT", "TYPEOF": "TEXT", "CHAR": "TEXT",
        "CONCAT": "TEXT", "RANDOM": "INTEGER", "RANDOMBLOB": "BLOB", "CHANGES": "INTEGER", "TOTAL_CHANGES": "INTEGER",
        "LAST_INSERT_ROWID": "INTEGER", "SQLITE_VERSION": "TEXT", "SQLITE_SOURCE_ID": "TEXT",
        "JSON_GROUP_ARRAY": "TEXT",
        "JSON_GROUP_OBJECT": "TEXT", "ROW_NUMBER": "INTEGER", "RANK": "INTEGER", "DENSE_RANK": "INTEGER",
        "NTILE": "INTEGER", "PERCENT_RANK": "REAL", "CUME_DIST": "REAL",
    ]
    /// Functions whose result is non-`NULL` when every argument is.
    static let strictFunctions: [String: String?] = [
        "ABS": nil, "LENGTH": "INTEGER", "OCTET_LENGTH": "INTEGER", "INSTR": "INTEGER", "LOWER": "TEXT",
        "UPPER": "TEXT",
        "TRIM": "TEXT", "LTRIM": "TEXT", "RTRIM": "TEXT", "REPLACE": "TEXT", "SUBSTR": "TEXT", "SUBSTRING": "TEXT",
        "ROUND": "REAL", "ZEROBLOB": "BLOB",
    ]

    /// A function call: `name(arguments) [FILTER (WHERE …)] [OVER …]`.
    func functionFact(_ tokens: Tokens, close: Int, in scope: Scope) -> Fact {
        let name = tokens[tokens.startIndex].text.uppercased()
        var argumentTokens = tokens[(tokens.startIndex + 2)..<close]
        if let first = argumentTokens.first, first.isKeyword("DISTINCT") { argumentTokens = argumentTokens.dropFirst() }
        let argumentList =
            argumentTokens.isEmpty || (argumentTokens.count == 1 && argumentTokens.first?.isSymbol("*") == true)
            ? [] : argumentTokens.splitTopLevel(on: ",")
        let isWindow = Self.isWindowCall(tokens, after: close)
        var hasFilter = false
        if close + 1 < tokens.endIndex, tokens[close + 1].isKeyword("FILTER") { hasFilter = true }
        // Whatever follows the call (FILTER, OVER) is part of it; anything else is not understood.
        if close + 1 < tokens.endIndex && !hasFilter && !isWindow { return .unknown }

        let isAggregate =
            Self.aggregateFunctions.contains(name) && !((name == "MIN" || name == "MAX") && argumentList.count > 1)
        let argumentScope = isAggregate && !isWindow ? scope.insideAggregate : scope
        let arguments = argumentList.map { fact(of: $0, in: argumentScope) }
        func argument(_ index: Int) -> Fact { index < arguments.count ? arguments[index] : .unknown }
        let allNeverNull = arguments.allSatisfy(\.isNeverNull)

        if let type = Self.neverNullFunctions[name] { return .value(type, neverNull: true) }
        if isWindow {
            switch name {
            case "LAG", "LEAD":
                let neverNull = arguments.count >= 3 && argument(0).isNeverNull && argument(2).isNeverNull
                return .value(Self.combine([argument(0), argument(2)])?.type ?? argument(0).type, neverNull: neverNull)
            case "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE":
                return .value(argument(0).type, neverNull: false)
            default:
                break  // aggregates over a window frame, which may be empty
            }
        }
        // Aggregates: non-NULL over a group (never empty) of non-NULL values.
        let overNonEmptyGroups = scope.groupsAreNonEmpty && !hasFilter && !isWindow
        switch name {
        case "SUM":
            let affinity = argument(0).type.map(TableSchema.Affinity.init(declaredType:))
            let type = affinity == .integer ? "INTEGER" : affinity == nil ? nil : "REAL"
            return .value(type, neverNull: overNonEmptyGroups && allNeverNull)
        case "AVG":
            return .value("REAL", neverNull: overNonEmptyGroups && allNeverNull)
        case "MIN", "MAX":
            if argumentList.count == 1 {
                return .value(argument(0).type, neverNull: overNonEmptyGroups && allNeverNull)
            }
            return .value(Self.combine(arguments)?.type, neverNull: allNeverNull)
        case "GROUP_CONCAT", "STRING_AGG":
            return .value("TEXT", neverNull: overNonEmptyGroups && allNeverNull)
        case "COALESCE", "IFNULL":
            return .value(Self.combine(arguments)?.type, neverNull: arguments.contains(where: \.isNeverNull))
        case "NULLIF":
            return .value(argument(0).type, neverNull: false)
        case "IIF":
            let results = [argument(1), argument(2)]
            return .value(
                Self.combine(results)?.type, neverNull: arguments.count == 3 && results.allSatisfy(\.isNeverNull))
        case "LIKELY", "UNLIKELY", "LIKELIHOOD":
            var result = argument(0)
            result.origin = nil
            return result
        case "CONCAT_WS":
            return .value("TEXT", neverNull: argument(0).isNeverNull)
        case "PRINTF", "FORMAT":
            return .value("TEXT", neverNull: argument(0).isNeverNull)
        default:
            break
        }
        if let type = Self.strictFunctions[name] {
            return .value(type ?? argument(0).type, neverNull: !isWindow && allNeverNull)
        }
        // Known result types, possibly NULL.
        if Self.textFunctions.contains(name) { return .value("TEXT", neverNull: false) }
        if Self.integerFunctions.contains(name) { return .value("INTEGER", neverNull: false) }
        if Self.realFunctions.contains(name) { return .value("REAL", neverNull: false) }
        if Self.blobFunctions.contains(name) { return .value("BLOB", neverNull: false) }
        return .unknown
    }

    /// Functions known to return text, an integer, a real or a blob (or `NULL`).
    static let textFunctions: Set<String> = [
        "LOWER", "UPPER", "TRIM", "LTRIM", "RTRIM", "SUBSTR", "SUBSTRING", "REPLACE", "PRINTF", "FORMAT", "QUOTE",
        "HEX", "CHAR", "DATE", "TIME", "DATETIME", "STRFTIME", "TYPEOF", "GROUP_CONCAT", "STRING_AGG", "SOUNDEX",
        "SQLITE_VERSION", "JSON", "JSON_ARRAY", "JSON_OBJECT", "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT", "JSON_TYPE",
        "JSON_QUOTE", "JSON_SET", "JSON_INSERT", "JSON_REPLACE", "JSON_REMOVE", "JSON_PATCH", "CONCAT", "CONCAT_WS",
        "UNISTR", "TIMEDIFF", "SQLITE_SOURCE_ID",
    ]
    static let integerFunctions: Set<String> = [
        "LENGTH", "OCTET_LENGTH", "INSTR", "UNICODE", "RANDOM", "CHANGES", "TOTAL_CHANGES", "LAST_INSERT_ROWID",
        "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE", "UNIXEPOCH", "SIGN", "JSON_VALID", "JSON_ARRAY_LENGTH", "GLOB",
        "LIKE",
    ]
    static let realFunctions: Set<String> = [
        "JULIANDAY", "ROUND", "PERCENT_RANK", "CUME_DIST", "AVG", "TOTAL", "PI", "SQRT", "EXP", "LN", "LOG", "LOG2",
        "LOG10", "POW", "POWER", "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "DEGREES", "RADIANS",
    ]
    static let blobFunctions: Set<String> = ["RANDOMBLOB", "ZEROBLOB", "UNHEX"]
}
