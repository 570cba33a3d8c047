import CSQLite

// SQL features that need a newer SQLite than the library in use.
//
// Slate builds against whatever SQLite the system has, or SQLCipher with the `SQLCipher` trait;
// Debian's SQLCipher 3.4.1 is built on SQLite 3.15.2. An older library rejects newer syntax with
// errors such as `near "RETURNING": syntax error`, which do not say why. When preparing fails on
// a library older than a feature the SQL uses, Slate rewrites the message to name the feature,
// the version it needs and the version in use, keeping SQLite's code and its original message.
// The library's version is read at run time (`sqlite3_libversion_number()`), not taken from the
// header Slate was compiled against.

/// A part of SQL that only newer SQLite libraries understand, such as `RETURNING` (3.35.0).
///
/// ```swift
/// if !SQLiteFeature.returning.isAvailable {
///     // insert, then read the row back with a second query
/// }
/// ```
///
/// When a statement uses a feature that the SQLite library in use is too old for, preparing it
/// throws a ``DatabaseError`` whose message names the feature, the version it needs and the
/// library's version, for example: `RETURNING clause needs SQLite 3.35.0 or later, but this
/// library is SQLite 3.15.2 (SQLite said: near "RETURNING": syntax error)`. The error keeps
/// SQLite's result code.
public struct SQLiteFeature: Sendable, Hashable, CustomStringConvertible {
    /// What the feature is called in messages, such as `"RETURNING clause"`.
    public let name: String
    /// The first SQLite version with the feature, as `sqlite3_libversion_number()` writes it:
    /// 3035000 for 3.35.0.
    public let minimumVersionNumber: Int

    /// Creates a feature.
    public init(name: String, minimumVersionNumber: Int) {
        self.name = name
        self.minimumVersionNumber = minimumVersionNumber
    }

    /// The first SQLite version with the feature, such as `"3.35.0"`.
    public var minimumVersion: String { Self.versionString(minimumVersionNumber) }

    /// Whether the SQLite library in use (checked at run time) has the feature.
    public var isAvailable: Bool { Database.sqliteVersionNumber >= minimumVersionNumber }

    /// The name and the version it needs, such as `RETURNING clause (SQLite 3.35.0)`.
    public var description: String { "\(name) (SQLite \(minimumVersion))" }

    static func versionString(_ number: Int) -> String {
        "\(number / 1_000_000).\(number / 1000 % 1000).\(number % 1000)"
    }
}

extension SQLiteFeature {
    /// Table-valued pragma functions such as `pragma_table_info('t')` (3.16.0).
    public static let tableValuedPragmas = SQLiteFeature(
        name: "table-valued pragma functions", minimumVersionNumber: 3_016_000)
    /// `INSERT … ON CONFLICT … DO UPDATE` / `DO NOTHING` (3.24.0).
    public static let upsert = SQLiteFeature(
        name: "UPSERT (ON CONFLICT … DO UPDATE / DO NOTHING)", minimumVersionNumber: 3_024_000)
    /// Window functions and the `OVER` and `WINDOW` clauses (3.25.0).
    public static let windowFunctions = SQLiteFeature(name: "window functions", minimumVersionNumber: 3_025_000)
    /// `ALTER TABLE … RENAME COLUMN` (3.25.0).
    public static let renameColumn = SQLiteFeature(name: "ALTER TABLE RENAME COLUMN", minimumVersionNumber: 3_025_000)
    /// `PRAGMA table_xinfo` and `pragma_table_xinfo` (3.26.0).
    public static let tableXInfo = SQLiteFeature(name: "PRAGMA table_xinfo", minimumVersionNumber: 3_026_000)
    /// `VACUUM INTO` (3.27.0).
    public static let vacuumInto = SQLiteFeature(name: "VACUUM INTO", minimumVersionNumber: 3_027_000)
    /// `NULLS FIRST` and `NULLS LAST` in `ORDER BY` (3.30.0).
    public static let nullsOrdering = SQLiteFeature(name: "NULLS FIRST / NULLS LAST", minimumVersionNumber: 3_030_000)
    /// The `FILTER` clause of aggregate functions (3.30.0).
    public static let aggregateFilter = SQLiteFeature(
        name: "FILTER clause on aggregate functions", minimumVersionNumber: 3_030_000)
    /// Generated columns, `GENERATED ALWAYS AS (…)` or `AS (…)` (3.31.0).
    public static let generatedColumns = SQLiteFeature(name: "generated columns", minimumVersionNumber: 3_031_000)
    /// The `iif()` function (3.32.0).
    public static let iif = SQLiteFeature(name: "the iif() function", minimumVersionNumber: 3_032_000)
    /// The name `sqlite_schema` for the schema table; older libraries call it `sqlite_master` (3.33.0).
    public static let sqliteSchema = SQLiteFeature(
        name: "the sqlite_schema table name (older libraries call it sqlite_master)", minimumVersionNumber: 3_033_000)
    /// `UPDATE … FROM` (3.33.0).
    public static let updateFrom = SQLiteFeature(name: "UPDATE FROM", minimumVersionNumber: 3_033_000)
    /// The `RETURNING` clause of `INSERT`, `UPDATE` and `DELETE` (3.35.0).
    public static let returning = SQLiteFeature(name: "RETURNING clause", minimumVersionNumber: 3_035_000)
    /// `ALTER TABLE … DROP COLUMN` (3.35.0).
    public static let dropColumn = SQLiteFeature(name: "ALTER TABLE DROP COLUMN", minimumVersionNumber: 3_035_000)
    /// `AS MATERIALIZED` and `AS NOT MATERIALIZED` common table expressions (3.35.0).
    public static let materializedCTE = SQLiteFeature(
        name: "MATERIALIZED common table expressions", minimumVersionNumber: 3_035_000)
    /// `STRICT` tables (3.37.0).
    public static let strictTables = SQLiteFeature(name: "STRICT tables", minimumVersionNumber: 3_037_000)
    /// `PRAGMA table_list` and `pragma_table_list` (3.37.0).
    public static let tableList = SQLiteFeature(name: "PRAGMA table_list", minimumVersionNumber: 3_037_000)
    /// The `->` and `->>` JSON operators (3.38.0).
    public static let jsonOperators = SQLiteFeature(name: "the -> and ->> operators", minimumVersionNumber: 3_038_000)
    /// The `unixepoch()` function (3.38.0).
    public static let unixEpoch = SQLiteFeature(name: "the unixepoch() function", minimumVersionNumber: 3_038_000)
    /// JSON functions built in without the JSON1 extension (3.38.0).
    public static let json = SQLiteFeature(
        name: "JSON functions (built in from 3.38.0; older libraries need the JSON1 extension)",
        minimumVersionNumber: 3_038_000)
    /// `IS DISTINCT FROM` and `IS NOT DISTINCT FROM` (3.39.0).
    public static let isDistinctFrom = SQLiteFeature(name: "IS [NOT] DISTINCT FROM", minimumVersionNumber: 3_039_000)

    /// Every feature Slate recognizes, oldest first.
    public static let all: [SQLiteFeature] = [
        .tableValuedPragmas, .upsert, .windowFunctions, .renameColumn, .tableXInfo, .vacuumInto,
        .nullsOrdering, .aggregateFilter, .generatedColumns, .iif, .sqliteSchema, .updateFrom,
        .returning, .dropColumn, .materializedCTE, .strictTables, .tableList, .jsonOperators,
        .unixEpoch, .json, .isDistinctFrom,
    ]
}

extension Database {
    /// The version of the SQLite library in use, read at run time, as a number: 3040001 for
    /// 3.40.1. With the `SQLCipher` trait this is the SQLite version SQLCipher is built on.
    public static var sqliteVersionNumber: Int { SQLiteFeature.libraryVersionNumber }
}

// MARK: - Recognizing features in SQL

extension SQLiteFeature {
    /// Read once: the library cannot change while the process runs.
    static let libraryVersionNumber = Int(sqlite3_libversion_number())

    /// The features `sql` uses, judging by its tokens and by SQLite's error message. May name
    /// features the SQL does not really use (a column called `strict`), which is why Slate only
    /// looks when SQLite already rejected the statement.
    static func features(in sql: String, errorMessage: String = "") -> [SQLiteFeature] {
        let tokens = SQLLexer.lexemes(of: sql)
        var found: [SQLiteFeature] = []
        func add(_ feature: SQLiteFeature) { if !found.contains(feature) { found.append(feature) } }
        let words = tokens.map(\.keyword)
        func word(_ index: Int) -> String? { words.indices.contains(index) ? words[index] : nil }
        let first = firstStatementWord(tokens)

        for (index, token) in tokens.enumerated() {
            guard let current = token.keyword else {
                if token.isSymbol("->") || token.isSymbol("->>") { add(.jsonOperators) }
                // A quoted name is never a keyword, but may still name the schema table.
                if token.kind == .quotedIdentifier,
                    ["SQLITE_SCHEMA", "SQLITE_TEMP_SCHEMA"].contains(SQLLexer.asciiUppercased(token.text))
                {
                    add(.sqliteSchema)
                }
                continue
            }
            let next = word(index + 1)
            switch current {
            case "RETURNING": add(.returning)
            case "DO" where next == "UPDATE" || next == "NOTHING":
                if words.contains("CONFLICT") { add(.upsert) }
            case "OVER", "WINDOW": add(.windowFunctions)
            case "FILTER" where tokens.indices.contains(index + 1) && tokens[index + 1].isSymbol("("):
                add(.aggregateFilter)
            case "GENERATED" where next == "ALWAYS": add(.generatedColumns)
            case "AS"
            where tokens.indices.contains(index + 1) && tokens[index + 1].isSymbol("(")
                && (first == "CREATE" || first == "ALTER") && words.contains("TABLE"):
                add(.generatedColumns)
            case "MATERIALIZED" where word(index - 1) == "AS" || word(index - 1) == "NOT":
                add(.materializedCTE)
            case "NULLS" where next == "FIRST" || next == "LAST": add(.nullsOrdering)
            case "DISTINCT" where next == "FROM" && (word(index - 1) == "IS" || word(index - 2) == "IS"):
                add(.isDistinctFrom)
            case "SQLITE_SCHEMA", "SQLITE_TEMP_SCHEMA": add(.sqliteSchema)
            case "PRAGMA_TABLE_XINFO":
                add(.tableXInfo)
                add(.tableValuedPragmas)
            case "PRAGMA_TABLE_LIST":
                add(.tableList)
                add(.tableValuedPragmas)
            case "IIF" where tokens.indices.contains(index + 1) && tokens[index + 1].isSymbol("("): add(.iif)
            case "UNIXEPOCH" where tokens.indices.contains(index + 1) && tokens[index + 1].isSymbol("("):
                add(.unixEpoch)
            default:
                if current.hasPrefix("PRAGMA_"), tokens.indices.contains(index + 1), tokens[index + 1].isSymbol("(") {
                    add(.tableValuedPragmas)
                }
            }
        }
        switch first {
        case "ALTER":
            if let drop = words.firstIndex(of: "DROP"), words.contains("TABLE"), drop > 2 { add(.dropColumn) }
            if let rename = words.firstIndex(of: "RENAME"), let after = word(rename + 1), after != "TO" {
                add(.renameColumn)
            }
        case "CREATE":
            if isStrictTable(tokens) { add(.strictTables) }
        case "VACUUM":
            if words.contains("INTO") { add(.vacuumInto) }
        case "UPDATE":
            if hasTopLevelWord("FROM", in: tokens) { add(.updateFrom) }
        case "PRAGMA":
            if let name = pragmaName(tokens) {
                if name == "TABLE_XINFO" { add(.tableXInfo) }
                if name == "TABLE_LIST" { add(.tableList) }
            }
        default:
            break
        }
        // "no such function: X" names the function outright.
        let lowered = errorMessage.lowercased()
        if let range = lowered.range(of: "no such function: ") {
            let function = String(lowered[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            switch function {
            case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
                "first_value", "last_value", "nth_value":
                add(.windowFunctions)
            case "iif": add(.iif)
            case "unixepoch": add(.unixEpoch)
            case _ where function.hasPrefix("json"): add(.json)
            default: break
            }
        }
        if lowered.contains("no such table: pragma_") || lowered.contains("no such table: main.pragma_") {
            add(.tableValuedPragmas)
        }
        if lowered.contains("no such table: json_each") || lowered.contains("no such table: json_tree") {
            add(.json)
        }
        return found
    }

    /// The first keyword of the statement, after `EXPLAIN [QUERY PLAN]` and a `WITH` clause.
    private static func firstStatementWord(_ tokens: [SQLLexer.Lexeme]) -> String? {
        var depth = 0
        var sawWith = false
        for token in tokens {
            if token.isSymbol("(") {
                depth += 1
                continue
            }
            if token.isSymbol(")") {
                depth -= 1
                continue
            }
            guard let word = token.keyword else { continue }
            if !sawWith {
                if word == "EXPLAIN" || word == "QUERY" || word == "PLAN" { continue }
                if word == "WITH" {
                    sawWith = true
                    continue
                }
                return word
            }
            if depth == 0, ["SELECT", "INSERT", "UPDATE", "DELETE", "REPLACE", "VALUES"].contains(word) { return word }
        }
        return nil
    }

    /// `CREATE [TEMP] TABLE name (…) STRICT`: the word after the column list's closing parenthesis.
    private static func isStrictTable(_ tokens: [SQLLexer.Lexeme]) -> Bool {
        guard tokens.prefix(4).contains(where: { $0.isKeyword("TABLE") }) else { return false }
        var depth = 0
        var closedList = false
        for token in tokens {
            if token.isSymbol("(") {
                depth += 1
                continue
            }
            if token.isSymbol(")") {
                depth -= 1
                if depth == 0 { closedList = true }
                continue
            }
            if closedList, depth == 0, token.isKeyword("STRICT") { return true }
        }
        return false
    }

    private static func hasTopLevelWord(_ word: String, in tokens: [SQLLexer.Lexeme]) -> Bool {
        var depth = 0
        for token in tokens {
            if token.isSymbol("(") {
                depth += 1
            } else if token.isSymbol(")") {
                depth -= 1
            } else if depth == 0, token.isKeyword(word) {
                return true
            }
        }
        return false
    }

    /// The pragma's name in `PRAGMA [schema.]name…`, upper-cased.
    private static func pragmaName(_ tokens: [SQLLexer.Lexeme]) -> String? {
        guard tokens.first?.isKeyword("PRAGMA") == true, tokens.count > 1 else { return nil }
        if tokens.count > 3, tokens[2].isSymbol(".") { return tokens[3].keyword }
        return tokens[1].keyword
    }

    /// The first feature `sql` uses that the library in use is too old for, judging by the SQL
    /// and SQLite's error message.
    static func firstUnavailable(in sql: String, errorMessage: String, libraryVersion: Int = libraryVersionNumber)
        -> SQLiteFeature?
    {
        guard libraryVersion < all.map(\.minimumVersionNumber).max() ?? 0 else { return nil }
        return features(in: sql, errorMessage: errorMessage).first { libraryVersion < $0.minimumVersionNumber }
    }

    /// The message for a statement rejected because of `feature`.
    static func message(for feature: SQLiteFeature, original: String, libraryVersion: Int = libraryVersionNumber)
        -> String
    {
        "\(feature.name) needs SQLite \(feature.minimumVersion) or later, but this library is SQLite "
            + "\(versionString(libraryVersion))\(libraryDetail) (SQLite said: \(original))"
    }

    /// ", SQLCipher" when the library is SQLCipher's, so messages say which library was linked.
    private static var libraryDetail: String {
        slate_sqlite_has_codec() == 1 ? " (SQLCipher)" : ""
    }

    /// Pragmas that older libraries ignore silently rather than reject: a statement naming one
    /// prepares fine and returns nothing, so Slate refuses it when the library is too old.
    static func unavailablePragmaError(in sql: String, libraryVersion: Int = libraryVersionNumber) -> DatabaseError? {
        guard libraryVersion < SQLiteFeature.tableList.minimumVersionNumber else { return nil }
        // Cheap test first: most statements are not pragmas.
        guard sql.drop(while: { $0.isWhitespace }).prefix(6).uppercased() == "PRAGMA" else { return nil }
        let tokens = SQLLexer.lexemes(of: sql)
        guard let name = pragmaName(tokens) else { return nil }
        let feature: SQLiteFeature
        switch name {
        case "TABLE_XINFO": feature = .tableXInfo
        case "TABLE_LIST": feature = .tableList
        default: return nil
        }
        guard libraryVersion < feature.minimumVersionNumber else { return nil }
        return DatabaseError(
            resultCode: .error,
            message: message(
                for: feature, original: "an unknown pragma does nothing and returns no rows",
                libraryVersion: libraryVersion),
            sql: sql)
    }
}

extension DatabaseError {
    /// This error with its message naming the missing feature, when the statement failed on a
    /// library older than a feature its SQL uses. Other errors come back unchanged.
    func explainingUnavailableFeature(libraryVersion: Int = SQLiteFeature.libraryVersionNumber) -> DatabaseError {
        guard resultCode == .error, let sql,
            let feature = SQLiteFeature.firstUnavailable(in: sql, errorMessage: message, libraryVersion: libraryVersion)
        else { return self }
        var error = self
        error.message = SQLiteFeature.message(for: feature, original: message, libraryVersion: libraryVersion)
        return error
    }
}
