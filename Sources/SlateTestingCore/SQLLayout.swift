import Slate
import SlateCore

/// SQL text laid out for a reader: one clause per line, what tests compare and snapshots show.
///
/// ```swift
/// SQLLayout.lines(#"SELECT "player"."name" FROM "player" WHERE "player"."score" > ? ORDER BY "player"."name""#)
/// // SELECT "player"."name"
/// // FROM "player"
/// // WHERE "player"."score" > ?
/// // ORDER BY "player"."name"
/// ```
///
/// The layout only replaces the whitespace between tokens with line breaks (and breaks a line
/// after a subquery's `(` and before its `)`): the text on each line is the original text, string
/// literals, quoted identifiers and comments included, and a clause keyword inside one of them
/// never starts a line.
///
/// - `WITH`, `SELECT`, `FROM`, each join, `WHERE`, `GROUP BY`, `HAVING`, `WINDOW`, `ORDER BY`,
///   `LIMIT`, `UNION`/`INTERSECT`/`EXCEPT`, `INSERT`, `VALUES`, `ON CONFLICT`, `UPDATE`, `SET`,
///   `DELETE` and `RETURNING` start a line at the statement's own level.
/// - A clause longer than `width` puts each item of its comma-separated list on a line of its own,
///   indented by two spaces; a `WHERE`, `HAVING` or `ON` condition puts each `AND` and `OR` there.
/// - A `CREATE TABLE` statement longer than `width` puts each column definition and table
///   constraint on a line of its own, indented by two spaces, between `CREATE TABLE "t" (` and `)`.
/// - A subquery in parentheses, or a window's definition (`OVER (PARTITION BY … ORDER BY …)`),
///   stays on its line when the line fits in `width`; otherwise it is laid out the same way,
///   indented by two spaces, between a line ending with `(` and a line starting with `)`.
public enum SQLLayout {
    /// The default width beyond which a clause is split.
    public static let defaultWidth = 100

    /// `sql`'s text laid out with one clause per line (see ``lines(_:width:)-(String,_)``), then its
    /// arguments as a comment when it has some (`-- arguments: 5, 'Ada'`, each an ``SQLLiteral``;
    /// `-- :name = 'Ada'` for a named one), then the error that keeps it from running when it has
    /// one (`-- cannot run: …`).
    public static func lines(_ sql: SQL, width: Int = defaultWidth) -> String {
        var text = lines(sql.text, width: width)
        func literal(_ value: (any SQLBindable)?) -> String {
            do {
                return SQLLiteral(try value?.sqlValue ?? .null).text
            } catch {
                return "<\(error)>"  // a value that cannot be bound (a UInt64 above Int64.max)
            }
        }
        if !sql.arguments.positional.isEmpty {
            text += "\n-- arguments: " + sql.arguments.positional.map(literal).joined(separator: ", ")
        }
        for (name, value) in sql.arguments.named.sorted(by: { $0.key < $1.key }) {
            text +=
                "\n-- \(name.hasPrefix(":") || name.hasPrefix("@") || name.hasPrefix("$") ? name : ":" + name) = "
                + literal(value)
        }
        if let error = sql.buildError {
            text += "\n-- cannot run: \(error.message)"
        }
        return text
    }

    /// `sql` laid out with one clause per line.
    public static func lines(_ sql: String, width: Int = defaultWidth) -> String {
        let tokens = SQLLayoutToken.tokens(of: sql)
        var writer = LayoutWriter(width: width)
        writer.statement(tokens[...], indent: 0)
        return writer.lines.joined(separator: "\n")
    }
}

/// One token of SQL text, as ``SQLLexer`` (the project's one lexer, SQLite's rules) reads it: a
/// word, a literal or a quoted name, a comment, a parenthesis, a comma or another symbol, and
/// whether whitespace came before it.
struct SQLLayoutToken: Equatable {
    enum Kind: Equatable {
        case word, literal, comment, open, close, comma, other
    }

    var kind: Kind
    var text: String
    /// Whether whitespace came before the token in the original text.
    var spaceBefore = false

    /// The keyword the token spells, upper-cased, or `nil` for anything but a bare word.
    var keyword: String? { kind == .word ? text.uppercased() : nil }

    static func tokens(of sql: String) -> [SQLLayoutToken] {
        var tokens: [SQLLayoutToken] = []
        var lexer = SQLLexer(sql, includingTrivia: true)
        var sawSpace = false
        while let token = lexer.next() {
            let text = lexer.text(of: token)
            let kind: Kind
            switch token.kind {
            case .space:
                sawSpace = true
                continue
            case .comment: kind = .comment
            case .word: kind = .word
            case .quotedIdentifier, .string, .blob, .integer, .real, .parameter: kind = .literal
            case .symbol where text == "(": kind = .open
            case .symbol where text == ")": kind = .close
            case .symbol where text == ",": kind = .comma
            case .symbol, .illegal: kind = .other
            }
            tokens.append(SQLLayoutToken(kind: kind, text: text, spaceBefore: sawSpace))
            sawSpace = false
        }
        return tokens
    }
}

/// Writes the lines of a layout.
private struct LayoutWriter {
    let width: Int
    var lines: [String] = []

    /// Keywords that start a clause at the level of their statement.
    static let clauseKeywords: Set<String> = [
        "WITH", "SELECT", "FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT", "UNION", "INTERSECT",
        "EXCEPT", "INSERT", "REPLACE", "VALUES", "UPDATE", "SET", "DELETE", "RETURNING", "JOIN",
    ]
    /// Words that may come before `JOIN` and then start its line.
    static let joinPrefixes: Set<String> = ["LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER"]
    /// Clauses whose conditions split at `AND` and `OR` when too long.
    static let conditionClauses: Set<String> = ["WHERE", "HAVING", "ON", "JOIN"]

    /// Lays out one statement (or a subquery's content) at `indent`.
    mutating func statement(_ tokens: ArraySlice<SQLLayoutToken>, indent: Int) {
        for clause in Self.clauses(of: tokens) {
            self.clause(clause, indent: indent)
        }
    }

    /// Splits a statement's tokens into clauses at its own parenthesis level.
    static func clauses(of tokens: ArraySlice<SQLLayoutToken>) -> [ArraySlice<SQLLayoutToken>] {
        var clauses: [ArraySlice<SQLLayoutToken>] = []
        var start = tokens.startIndex
        var depth = 0
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            switch token.kind {
            case .open: depth += 1
            case .close: depth -= 1
            default: break
            }
            if depth == 0, index > start, startsClause(at: index, in: tokens) {
                clauses.append(tokens[start..<index])
                start = index
            }
            index += 1
        }
        if start < tokens.endIndex { clauses.append(tokens[start..<tokens.endIndex]) }
        return clauses
    }

    /// Whether the token at `index` starts a clause.
    static func startsClause(at index: Int, in tokens: ArraySlice<SQLLayoutToken>) -> Bool {
        guard let keyword = tokens[index].keyword else { return false }
        let previous = index > tokens.startIndex ? tokens[index - 1].keyword : nil
        let next = index + 1 < tokens.endIndex ? tokens[index + 1].keyword : nil
        if joinPrefixes.contains(keyword) {
            // `LEFT OUTER JOIN`: the line starts at the first word.
            guard !(previous.map(joinPrefixes.contains) ?? false) else { return false }
            var look = index + 1
            while look < tokens.endIndex, let word = tokens[look].keyword, joinPrefixes.contains(word) { look += 1 }
            return look < tokens.endIndex && tokens[look].keyword == "JOIN"
        }
        switch keyword {
        case "JOIN":
            return !(previous.map(joinPrefixes.contains) ?? false)
        case "ON":
            return next == "CONFLICT"
        case "UNION", "INTERSECT", "EXCEPT":
            return true
        case "SELECT":
            // `UNION SELECT`, `UNION ALL SELECT`: the compound operator already started the line.
            return !["UNION", "ALL", "INTERSECT", "EXCEPT"].contains(previous ?? "")
        case "UPDATE", "DELETE":
            // `ON CONFLICT … DO UPDATE` and a foreign key's `ON DELETE` stay on their line.
            return previous != "DO" && previous != "ON"
        case "SET":
            return !(previous == "UPDATE" && index >= tokens.startIndex + 2 && tokens[index - 2].keyword == "DO")
        case "REPLACE":
            // `REPLACE INTO`, not `INSERT OR REPLACE` nor the function `replace(…)`.
            return index == tokens.startIndex || tokens[index - 1].text == ";"
        case "FROM":
            return previous != "DISTINCT" && previous != "DELETE"  // `IS DISTINCT FROM`, `DELETE FROM`
        case "WHERE":
            // `ON CONFLICT ("id") DO UPDATE SET … WHERE …` starts a line too; a partial index's
            // `ON CONFLICT (…) WHERE` as well.
            return true
        case "ORDER", "GROUP", "PARTITION":
            return next == "BY"
        case "ROWS", "RANGE", "GROUPS":
            // A window's frame; `GROUPS` also names nothing else.
            return next == "BETWEEN" || next == "UNBOUNDED" || next == "CURRENT"
        case "VALUES":
            return previous != "DEFAULT"
        default:
            return clauseKeywords.contains(keyword)
        }
    }

    /// Lays out one clause, splitting it when it is too long.
    mutating func clause(_ tokens: ArraySlice<SQLLayoutToken>, indent: Int) {
        let pad = String(repeating: " ", count: indent)
        let flat = Self.flat(tokens)
        if pad.count + flat.count <= width || tokens.count < 3 {
            lines.append(pad + flat)
            return
        }
        if let open = Self.tableDefinition(in: tokens) {
            // `CREATE TABLE "t" (`, each column or constraint on a line of its own, then `)`.
            let close = Self.matchingClose(of: open, in: tokens)
            lines.append(pad + Self.flat(tokens[tokens.startIndex...open]))
            for item in Self.split(tokens[(open + 1)..<close], at: { $0.kind == .comma }, keepingSeparator: true) {
                self.item(item, indent: indent + 2)
            }
            if close < tokens.endIndex { lines.append(pad + Self.flat(tokens[close...])) }
            return
        }
        // The clause's keywords (`SELECT DISTINCT`, `LEFT JOIN`, `ORDER BY`), then its items.
        var head = tokens.startIndex
        while head < tokens.endIndex, let word = tokens[head].keyword,
            [
                "SELECT", "DISTINCT", "ALL", "GROUP", "ORDER", "BY", "WHERE", "HAVING", "SET", "RETURNING", "VALUES",
                "FROM", "WITH", "RECURSIVE", "UNION", "INTERSECT", "EXCEPT",
            ].contains(word)
                || Self.joinPrefixes.contains(word) || word == "JOIN"
        {
            head += 1
            if ["FROM", "JOIN", "WHERE", "HAVING", "SET", "VALUES"].contains(word) { break }
        }
        let keyword = tokens[tokens.startIndex].keyword ?? ""
        let items = Self.split(tokens[head...], at: { $0.kind == .comma }, keepingSeparator: true)
        if items.count > 1 {
            lines.append(pad + Self.flat(tokens[tokens.startIndex..<head]))
            for item in items { self.item(item, indent: indent + 2) }
            return
        }
        if Self.conditionClauses.contains(keyword) || Self.joinPrefixes.contains(keyword) {
            let conditions = Self.split(
                tokens[tokens.startIndex...], at: { $0.keyword == "AND" || $0.keyword == "OR" }, keepingSeparator: false
            )
            if conditions.count > 1 {
                self.item(conditions[0], indent: indent)
                for condition in conditions.dropFirst() { self.item(condition, indent: indent + 2) }
                return
            }
        }
        self.item(tokens, indent: indent)
    }

    /// Lays out one item of a list: on one line when it fits, else with its subqueries opened.
    mutating func item(_ tokens: ArraySlice<SQLLayoutToken>, indent: Int) {
        let pad = String(repeating: " ", count: indent)
        let flat = Self.flat(tokens)
        guard pad.count + flat.count > width,
            let open = Self.firstSubquery(in: tokens)
        else {
            lines.append(pad + flat)
            return
        }
        let close = Self.matchingClose(of: open, in: tokens)
        lines.append(pad + Self.flat(tokens[tokens.startIndex...open]))
        statement(tokens[(open + 1)..<close], indent: indent + 2)
        let rest = close < tokens.endIndex ? tokens[close...] : []
        if rest.isEmpty {
            lines.append(pad + ")")
        } else {
            item(rest, indent: indent)
        }
    }

    /// The index of the `(` that opens the column definitions of a `CREATE TABLE` statement, or
    /// `nil` for any other clause (`CREATE TABLE … AS SELECT` included).
    static func tableDefinition(in tokens: ArraySlice<SQLLayoutToken>) -> Int? {
        guard tokens.first?.keyword == "CREATE",
            let open = tokens.firstIndex(where: { $0.kind == .open }),
            tokens[tokens.startIndex..<open].contains(where: { $0.keyword == "TABLE" }),
            !tokens[tokens.startIndex..<open].contains(where: { $0.keyword == "AS" })
        else { return nil }
        return open
    }

    /// The index of the `(` of the first subquery (a parenthesis opening `SELECT`, `WITH` or
    /// `VALUES`) or window definition (`OVER (PARTITION BY …`, `OVER (ORDER BY …`) at the top level
    /// of `tokens`.
    static func firstSubquery(in tokens: ArraySlice<SQLLayoutToken>) -> Int? {
        var depth = 0
        for index in tokens.indices {
            switch tokens[index].kind {
            case .open:
                if depth == 0, index + 1 < tokens.endIndex {
                    let first = tokens[index + 1].keyword ?? ""
                    let isWindow =
                        ["PARTITION", "ORDER"].contains(first) && index > tokens.startIndex
                        && tokens[index - 1].keyword == "OVER"
                    if ["SELECT", "WITH", "VALUES"].contains(first) || isWindow { return index }
                }
                depth += 1
            case .close: depth -= 1
            default: break
            }
        }
        return nil
    }

    /// The index of the `)` that closes the `(` at `open`, or the end.
    static func matchingClose(of open: Int, in tokens: ArraySlice<SQLLayoutToken>) -> Int {
        var depth = 0
        for index in open..<tokens.endIndex {
            switch tokens[index].kind {
            case .open: depth += 1
            case .close:
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return tokens.endIndex
    }

    /// Splits `tokens` at the top-level tokens that `isSeparator` accepts. A kept separator ends
    /// the part before it (a comma); a dropped one starts the next part (`AND`).
    static func split(
        _ tokens: ArraySlice<SQLLayoutToken>,
        at isSeparator: (SQLLayoutToken) -> Bool,
        keepingSeparator: Bool
    ) -> [ArraySlice<SQLLayoutToken>] {
        var parts: [ArraySlice<SQLLayoutToken>] = []
        var start = tokens.startIndex
        var depth = 0
        var betweenDepth = 0  // `BETWEEN x AND y`: that AND joins no condition
        for index in tokens.indices {
            let token = tokens[index]
            switch token.kind {
            case .open: depth += 1
            case .close: depth -= 1
            default: break
            }
            guard depth == 0 else { continue }
            if token.keyword == "BETWEEN" {
                betweenDepth += 1
                continue
            }
            guard isSeparator(token) else { continue }
            if token.keyword == "AND", betweenDepth > 0 {
                betweenDepth -= 1
                continue
            }
            if keepingSeparator {
                parts.append(tokens[start...index])
                start = index + 1
            } else if index > start {
                parts.append(tokens[start..<index])
                start = index
            }
        }
        if start < tokens.endIndex { parts.append(tokens[start..<tokens.endIndex]) }
        return parts
    }

    /// The tokens on one line, with the spaces the original text had between them.
    static func flat(_ tokens: ArraySlice<SQLLayoutToken>) -> String {
        var text = ""
        for token in tokens {
            if token.spaceBefore, !text.isEmpty { text += " " }
            text += token.text
        }
        return text
    }
}
