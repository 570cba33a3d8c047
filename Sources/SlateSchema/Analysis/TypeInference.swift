import SlateCore
import SlateQuery

/// The analyser: what SQLite does not report about a statement's results, whether each can be
/// `NULL` and the type of an expression, for named queries and for the columns of views alike. Found from the statement's tokens by rules that only ever prove "never
/// `NULL`" and fall back to "may be `NULL`" for anything they do not understand.
///
/// SQLite itself says which table column a result comes from and what its declared type is; this
/// analysis adds what that does not cover: the right side of a `LEFT JOIN` (and both sides of a
/// `FULL JOIN`, the left of a `RIGHT JOIN`), bare columns of an aggregate without `GROUP BY` (one
/// row of `NULL`s over no input), aggregates, `coalesce`, `CASE`, scalar subqueries, window
/// functions, compound selects, operators, and columns of views, common table expressions and
/// subqueries, followed to the tables they read.
final class TypeInference {
    typealias Token = SQLLexer.Lexeme
    typealias Tokens = ArraySlice<Token>

    /// A table column a value is read from.
    struct Origin: Hashable {
        var table: String
        var column: String

        func matches(table otherTable: String, column otherColumn: String) -> Bool {
            table.equalsIdentifier(otherTable) && column.equalsIdentifier(otherColumn)
        }
    }

    /// What is known of a value.
    struct Fact: Equatable {
        /// The SQL type, declared or inferred; `nil` when unknown.
        var type: String?
        /// Whether the value is proven never to be `NULL`.
        var isNeverNull: Bool
        /// The table column the value is read from, for a plain column reference.
        var origin: Origin?
        /// Whether this is the literal `NULL`, which has no type of its own.
        var isNullLiteral = false

        static let unknown = Fact(type: nil, isNeverNull: false, origin: nil)

        static func value(_ type: String?, neverNull: Bool) -> Fact {
            Fact(type: type, isNeverNull: neverNull, origin: nil)
        }
    }

    /// A named column of a source or result.
    struct NamedColumn {
        var name: String
        var fact: Fact
    }

    /// A source of a `FROM` clause, as expressions see it.
    struct Source {
        /// The table, view or common table expression name; `""` for a subquery.
        var name: String
        var alias: String?
        /// The columns, or `nil` when unknown (a table-valued function).
        var columns: [NamedColumn]?
        /// The columns `*` skips: those joined with `USING` or `NATURAL` on the right.
        var hiddenFromStar: Set<String> = []
        /// For the rowid pseudo-columns (`rowid`, `oid`, `_rowid_`) of a rowid table.
        var rowIDOrigin: Origin?
        /// Whether an outer join can fill this source's columns with `NULL`.
        var isNullExtended = false
        /// The table this source reads, for a table or view (for parameter types).
        var table: String?

        var referenceName: String { alias ?? name }

        func column(named name: String) -> NamedColumn? {
            columns?.first { $0.name.equalsIdentifier(name) }
        }
    }

    /// The sources visible to an expression.
    final class Scope {
        let sources: [Source]
        let parent: Scope?
        /// An aggregate without `GROUP BY`: over no input it returns one row, its bare columns `NULL`.
        let bareColumnsMayBeNull: Bool
        /// `GROUP BY`: each group has at least one row, so `max(x)` of a `NOT NULL` `x` is not `NULL`.
        let groupsAreNonEmpty: Bool

        init(sources: [Source], parent: Scope?, bareColumnsMayBeNull: Bool = false, groupsAreNonEmpty: Bool = false) {
            self.sources = sources
            self.parent = parent
            self.bareColumnsMayBeNull = bareColumnsMayBeNull
            self.groupsAreNonEmpty = groupsAreNonEmpty
        }

        /// The same sources, for the arguments of an aggregate: each row is there.
        var insideAggregate: Scope {
            Scope(sources: sources, parent: parent, bareColumnsMayBeNull: false, groupsAreNonEmpty: groupsAreNonEmpty)
        }
    }

    let schema: DatabaseSchema
    /// Whether a table's `NOT NULL` columns (and its rowid) are taken as never `NULL` where no
    /// outer join can fill them with `NULL`: yes for named queries. View columns are typed with
    /// `false`: ``DatabaseSchema/ViewColumn/isNeverNull`` treats every value read from a table as
    /// possibly `NULL`, so only expressions such as `count(*)`, literals or `coalesce(x, 0)` are
    /// never `NULL` there.
    let trustsNotNullColumns: Bool
    /// The fact of a parameter, by its name as written (`:id`).
    let parameterFact: (String) -> Fact
    /// Every source seen, for parameter types.
    var seenSources: [Source] = []
    /// The columns of the views read so far, by lowercased name; `.some(nil)` while one is read.
    var viewColumns: [String: [NamedColumn]?] = [:]
    /// How deep the analysis is in nested selects (bounded, so no input can exhaust the stack).
    var depth = 0

    init(
        schema: DatabaseSchema, trustsNotNullColumns: Bool = true,
        parameterFact: @escaping (String) -> Fact = { _ in .unknown }
    ) {
        self.schema = schema
        self.trustsNotNullColumns = trustsNotNullColumns
        self.parameterFact = parameterFact
    }

    // MARK: Statements

    /// The result columns of a statement (`SELECT`, `VALUES`, or `INSERT` / `UPDATE` / `DELETE`
    /// with `RETURNING`), or `nil` when the statement is not understood.
    func resultColumns(of tokens: Tokens) -> [NamedColumn]? {
        var rest = tokens
        while let last = rest.last, last.isSymbol(";") { rest = rest.dropLast() }
        var ctes: [String: [NamedColumn]?] = [:]
        if let first = rest.first, first.isKeyword("WITH") {
            guard let body = parseWith(rest, into: &ctes) else { return nil }
            rest = body
        }
        guard let first = rest.first else { return nil }
        switch first.keyword {
        case "SELECT", "VALUES":
            return selectColumns(rest, ctes: ctes, outer: nil)
        case "INSERT", "REPLACE", "UPDATE", "DELETE":
            return returningColumns(rest, ctes: ctes)
        default:
            return nil
        }
    }

    /// The table a write statement changes and its alias: `INSERT INTO t AS x`, `UPDATE t`,
    /// `DELETE FROM t`.
    func writeTarget(of tokens: Tokens) -> (name: String, alias: String?, nameIndex: Int)? {
        var index = tokens.startIndex
        if tokens.first?.isKeyword("WITH") == true {
            var ctes: [String: [NamedColumn]?] = [:]
            guard let body = parseWith(tokens, into: &ctes) else { return nil }
            index = body.startIndex
        }
        guard index < tokens.endIndex, let keyword = tokens[index].keyword else { return nil }
        index += 1
        switch keyword {
        case "INSERT", "REPLACE":
            while index < tokens.endIndex, !tokens[index].isKeyword("INTO") { index += 1 }
            index += 1
        case "UPDATE":
            if index + 1 < tokens.endIndex, tokens[index].isKeyword("OR") { index += 2 }
        case "DELETE":
            guard index < tokens.endIndex, tokens[index].isKeyword("FROM") else { return nil }
            index += 1
        default:
            return nil
        }
        guard index < tokens.endIndex, tokens[index].isName else { return nil }
        var nameIndex = index
        if index + 2 < tokens.endIndex, tokens[index + 1].isSymbol("."), tokens[index + 2].isName {
            nameIndex = index + 2
        }
        var alias: String?
        let after = nameIndex + 1
        if after + 1 < tokens.endIndex, tokens[after].isKeyword("AS"), tokens[after + 1].isName {
            alias = tokens[after + 1].text
        }
        return (tokens[nameIndex].text, alias, nameIndex)
    }

    /// `RETURNING` columns of a write, read from the changed row of the target table.
    func returningColumns(_ tokens: Tokens, ctes: [String: [NamedColumn]?]) -> [NamedColumn]? {
        guard let target = writeTarget(of: tokens),
            var source = tableSource(named: target.name, alias: target.alias, ctes: [:])
        else {
            return nil
        }
        source.isNullExtended = false
        seenSources.append(source)
        guard let returning = tokens.firstTopLevelIndex(where: { $0.isKeyword("RETURNING") }) else { return [] }
        let scope = Scope(sources: [source], parent: nil)
        return itemColumns(Array(tokens[(returning + 1)...].splitTopLevel(on: ",")), scope: scope)
    }

    /// `WITH [RECURSIVE] name [(columns)] AS [NOT] [MATERIALIZED] (select), …`: records each
    /// common table expression's columns and returns the statement after the clause.
    func parseWith(_ tokens: Tokens, into ctes: inout [String: [NamedColumn]?]) -> Tokens? {
        var index = tokens.startIndex + 1
        if index < tokens.endIndex, tokens[index].isKeyword("RECURSIVE") { index += 1 }
        while index < tokens.endIndex {
            guard tokens[index].isName else { return nil }
            let name = tokens[index].text
            index += 1
            var columnNames: [String]?
            if index < tokens.endIndex, tokens[index].isSymbol("(") {
                guard let close = tokens.matchingParenthesis(at: index) else { return nil }
                columnNames = tokens[(index + 1)..<close].splitTopLevel(on: ",").compactMap { $0.first?.text }
                index = close + 1
            }
            guard index < tokens.endIndex, tokens[index].isKeyword("AS") else { return nil }
            index += 1
            while index < tokens.endIndex, tokens[index].isKeyword("NOT") || tokens[index].isKeyword("MATERIALIZED") {
                index += 1
            }
            guard index < tokens.endIndex, tokens[index].isSymbol("("),
                let close = tokens.matchingParenthesis(at: index)
            else {
                return nil
            }
            // A recursive reference to the name inside its own body is an unknown source.
            ctes[name.lowercased()] = .some(nil)
            var columns = selectColumns(tokens[(index + 1)..<close], ctes: ctes, outer: nil)
            if let names = columnNames {
                if let known = columns, known.count == names.count {
                    columns = zip(names, known).map { NamedColumn(name: $0, fact: $1.fact) }
                } else {
                    columns = names.map { NamedColumn(name: $0, fact: .unknown) }
                }
            }
            ctes[name.lowercased()] = .some(columns)
            index = close + 1
            if index < tokens.endIndex, tokens[index].isSymbol(",") {
                index += 1
                continue
            }
            return tokens[index...]
        }
        return nil
    }

}
