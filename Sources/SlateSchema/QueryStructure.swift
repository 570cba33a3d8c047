import SlateCore
import SlateQuery

/// What SQLite does not report about a statement's results: whether each can be `NULL`, and the
/// type of an expression. Found from the statement's tokens by rules that only ever prove "never
/// `NULL`" and fall back to "may be `NULL`" for anything they do not understand.
///
/// SQLite itself says which table column a result comes from and what its declared type is; this
/// analysis adds what that does not cover: the right side of a `LEFT JOIN` (and both sides of a
/// `FULL JOIN`, the left of a `RIGHT JOIN`), bare columns of an aggregate without `GROUP BY` (one
/// row of `NULL`s over no input), aggregates, `coalesce`, `CASE`, scalar subqueries, window
/// functions, compound selects, operators, and columns of views, common table expressions and
/// subqueries, followed to the tables they read.
final class QueryStructure {
    typealias Token = SQLTokenizer.Token
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
    /// The fact of a parameter, by its name as written (`:id`).
    let parameterFact: (String) -> Fact
    /// Every source seen, for parameter types.
    private(set) var seenSources: [Source] = []
    private var viewColumns: [String: [NamedColumn]?] = [:]
    private var depth = 0

    init(schema: DatabaseSchema, parameterFact: @escaping (String) -> Fact = { _ in .unknown }) {
        self.schema = schema
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

    // MARK: Selects

    /// The columns of a (possibly compound) select.
    func selectColumns(_ tokens: Tokens, ctes: [String: [NamedColumn]?], outer: Scope?) -> [NamedColumn]? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { return nil }
        var tokens = tokens
        var ctes = ctes
        if let first = tokens.first, first.isKeyword("WITH") {
            guard let body = parseWith(tokens, into: &ctes) else { return nil }
            tokens = body
        }
        // Split at UNION [ALL], INTERSECT, EXCEPT.
        var parts: [(operator: String, tokens: Tokens)] = []
        var start = tokens.startIndex
        var pendingOperator = ""
        for index in tokens.topLevelIndices(where: { ["UNION", "INTERSECT", "EXCEPT"].contains($0.keyword ?? "") }) {
            parts.append((pendingOperator, tokens[start..<index]))
            pendingOperator = tokens[index].keyword ?? ""
            start = index + 1
            if start < tokens.endIndex, tokens[start].isKeyword("ALL") { start += 1 }
        }
        parts.append((pendingOperator, tokens[start...]))
        var result: [NamedColumn]?
        for part in parts {
            guard let columns = coreColumns(part.tokens, ctes: ctes, outer: outer) else { return nil }
            guard let combined = result else {
                result = columns
                continue
            }
            guard combined.count == columns.count else { return nil }
            result = zip(combined, columns).map { left, right in
                var fact = left.fact
                switch part.operator {
                case "EXCEPT":
                    break  // rows of the left side only
                case "INTERSECT":
                    fact.isNeverNull = left.fact.isNeverNull || right.fact.isNeverNull
                default:
                    fact.isNeverNull = left.fact.isNeverNull && right.fact.isNeverNull
                }
                // The left side's type, as SQLite reports the left side's declared type.
                fact.type = left.fact.type ?? right.fact.type
                // SQLite reports the left side's column as the origin: keep it, so the two agree.
                return NamedColumn(name: left.name, fact: fact)
            }
        }
        return result
    }

    static let clauseKeywords: Set<String> = ["FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT"]
    static let aggregateFunctions: Set<String> = [
        "COUNT", "SUM", "TOTAL", "AVG", "MIN", "MAX", "GROUP_CONCAT", "STRING_AGG", "JSON_GROUP_ARRAY",
        "JSON_GROUP_OBJECT", "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT",
    ]

    /// The columns of one `SELECT` or `VALUES`.
    func coreColumns(_ tokens: Tokens, ctes: [String: [NamedColumn]?], outer: Scope?) -> [NamedColumn]? {
        guard let first = tokens.first else { return nil }
        if first.isKeyword("VALUES") {
            let rows = tokens.dropFirst().splitTopLevel(on: ",")
            var result: [NamedColumn]?
            let scope = Scope(sources: [], parent: outer)
            for row in rows {
                guard row.isParenthesized else { return nil }
                let facts = row.dropFirst().dropLast().splitTopLevel(on: ",").map { fact(of: $0, in: scope) }
                guard let previous = result else {
                    result = facts.enumerated().map { NamedColumn(name: "column\($0.offset + 1)", fact: $0.element) }
                    continue
                }
                guard previous.count == facts.count else { return nil }
                result = zip(previous, facts).map { column, fact in
                    var combined = Self.combine([column.fact, fact]) ?? .unknown
                    combined.isNeverNull = column.fact.isNeverNull && fact.isNeverNull
                    combined.origin = nil
                    return NamedColumn(name: column.name, fact: combined)
                }
            }
            return result
        }
        guard first.isKeyword("SELECT") else { return nil }
        var rest = tokens.dropFirst()
        if let next = rest.first, next.isKeyword("DISTINCT") || next.isKeyword("ALL") { rest = rest.dropFirst() }
        let clauses = rest.topLevelIndices { Self.clauseKeywords.contains($0.keyword ?? "") }
        let itemsEnd = clauses.first ?? rest.endIndex
        var sources: [Source] = []
        if let from = clauses.first, rest[from].isKeyword("FROM") {
            let fromEnd = clauses.dropFirst().first ?? rest.endIndex
            guard let parsed = parseFrom(rest[(from + 1)..<fromEnd], ctes: ctes) else { return nil }
            sources = parsed
        }
        let hasGroupBy = clauses.contains { rest[$0].isKeyword("GROUP") }
        let hasAggregate = Self.containsAggregateCall(rest)
        let scope = Scope(
            sources: sources, parent: outer, bareColumnsMayBeNull: hasAggregate && !hasGroupBy,
            groupsAreNonEmpty: hasGroupBy)
        return itemColumns(Array(rest[rest.startIndex..<itemsEnd].splitTopLevel(on: ",")), scope: scope)
    }

    /// The columns of select or `RETURNING` items, expanding `*` and `t.*`.
    func itemColumns(_ items: [Tokens], scope: Scope) -> [NamedColumn]? {
        var columns: [NamedColumn] = []
        for item in items {
            guard !item.isEmpty else { return nil }
            if item.count == 1, item[item.startIndex].isSymbol("*") {
                for source in scope.sources {
                    guard let sourceColumns = source.columns else { return nil }
                    for column in sourceColumns where !source.hiddenFromStar.contains(column.name.lowercased()) {
                        columns.append(
                            NamedColumn(name: column.name, fact: adjusted(column.fact, source: source, scope: scope)))
                    }
                }
                continue
            }
            if item.count == 3, item[item.startIndex + 1].isSymbol("."), item[item.startIndex + 2].isSymbol("*") {
                let qualifier = item[item.startIndex].text
                guard let source = scope.sources.first(where: { $0.referenceName.equalsIdentifier(qualifier) }),
                    let sourceColumns = source.columns
                else { return nil }
                for column in sourceColumns {
                    columns.append(
                        NamedColumn(name: column.name, fact: adjusted(column.fact, source: source, scope: scope)))
                }
                continue
            }
            let (expression, alias) = Self.splitAlias(item)
            let fact = fact(of: expression, in: scope)
            var name = alias ?? expression.map(\.text).joined()
            if alias == nil, let last = expression.last, last.isName,
                expression.count == 1 || (expression.count >= 3 && expression[expression.endIndex - 2].isSymbol("."))
            {
                name = last.text
            }
            columns.append(NamedColumn(name: name, fact: fact))
        }
        return columns
    }

    /// A source column's fact as read in `scope`: `NULL` when its source is null-extended, or
    /// when it is a bare column of an aggregate without `GROUP BY`.
    func adjusted(_ fact: Fact, source: Source, scope: Scope) -> Fact {
        var fact = fact
        if source.isNullExtended || scope.bareColumnsMayBeNull { fact.isNeverNull = false }
        return fact
    }

    /// Splits `expression [AS] alias`.
    static func splitAlias(_ item: Tokens) -> (Tokens, String?) {
        guard item.count >= 2, let last = item.last else { return (item, nil) }
        let previous = item[item.endIndex - 2]
        if previous.isKeyword("AS"), last.isName || last.kind == .string { return (item.dropLast(2), last.text) }
        // `a b`, `f(x) b`, `a "b"`, `a 'b'`; not `x.b`, `x COLLATE b`, `CASE … END`, `- b`, `a || 'b'`.
        guard endsOperand(previous), !previous.isKeyword("COLLATE") else { return (item, nil) }
        switch last.kind {
        case .quotedIdentifier, .string:
            return (item.dropLast(), last.text)
        case .word
        where !nonAliasWords.contains(last.text.uppercased()) && !operatorWords.contains(last.text.uppercased()):
            return (item.dropLast(), last.text)
        default:
            return (item, nil)
        }
    }

    static let nonAliasWords: Set<String> = [
        "END", "NULL", "TRUE", "FALSE", "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "ELSE", "THEN", "NOTNULL",
        "ISNULL",
    ]
    static let operatorWords: Set<String> = [
        "AND", "OR", "NOT", "IS", "IN", "LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN", "WHEN", "THEN", "ELSE", "ESCAPE",
        "DISTINCT", "FROM", "SELECT", "WHERE", "BY", "OVER", "FILTER", "CASE", "COLLATE", "AS",
    ]

    /// Whether the select (outside its subqueries) calls an aggregate function without `OVER`.
    static func containsAggregateCall(_ tokens: Tokens) -> Bool {
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            if token.isSymbol("("), let close = tokens.matchingParenthesis(at: index) {
                let inner = tokens[(index + 1)..<close]
                if let first = inner.first, ["SELECT", "WITH", "VALUES"].contains(first.keyword ?? "") {
                    index = close + 1  // a subquery has its own aggregates
                    continue
                }
            }
            if token.kind == .word, aggregateFunctions.contains(token.text.uppercased()), index + 1 < tokens.endIndex,
                tokens[index + 1].isSymbol("("), let close = tokens.matchingParenthesis(at: index + 1)
            {
                let arguments = tokens[(index + 2)..<close].splitTopLevel(on: ",")
                let isScalarMinMax = ["MIN", "MAX"].contains(token.text.uppercased()) && arguments.count > 1
                if !isScalarMinMax && !isWindowCall(tokens, after: close) { return true }
            }
            index += 1
        }
        return false
    }

    /// Whether the call whose argument list closes at `close` is followed by `[FILTER (…)] OVER`.
    static func isWindowCall(_ tokens: Tokens, after close: Int) -> Bool {
        var index = close + 1
        if index < tokens.endIndex, tokens[index].isKeyword("FILTER"), index + 1 < tokens.endIndex,
            let filterClose = tokens.matchingParenthesis(at: index + 1)
        {
            index = filterClose + 1
        }
        return index < tokens.endIndex && tokens[index].isKeyword("OVER")
    }

    // MARK: FROM

    /// The sources of a `FROM` clause, with the sides outer joins can fill with `NULL`.
    func parseFrom(_ tokens: Tokens, ctes: [String: [NamedColumn]?]) -> [Source]? {
        enum Join { case first, inner, left, right, full }
        var items: [(sources: [Source], join: Join, using: [String], isNatural: Bool)] = []
        var index = tokens.startIndex
        var join = Join.first
        var isNatural = false
        let joinWords: Set<String> = ["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL"]
        func isAliasCandidate(_ token: Token) -> Bool {
            token.isName && !joinWords.contains(token.keyword ?? "")
                && !["ON", "USING", "INDEXED", "NOT", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT"].contains(
                    token.keyword ?? "")
        }
        while index < tokens.endIndex {
            // One item.
            var itemSources: [Source]
            let token = tokens[index]
            if token.isSymbol("(") {
                guard let close = tokens.matchingParenthesis(at: index) else { return nil }
                let inner = tokens[(index + 1)..<close]
                index = close + 1
                var alias: String?
                if index < tokens.endIndex, tokens[index].isKeyword("AS"), index + 1 < tokens.endIndex {
                    alias = tokens[index + 1].text
                    index += 2
                } else if index < tokens.endIndex, isAliasCandidate(tokens[index]) {
                    alias = tokens[index].text
                    index += 1
                }
                if let first = inner.first, ["SELECT", "WITH", "VALUES"].contains(first.keyword ?? "") {
                    let columns = selectColumns(inner, ctes: ctes, outer: nil)
                    itemSources = [Source(name: "", alias: alias, columns: columns)]
                } else {
                    guard let group = parseFrom(inner, ctes: ctes) else { return nil }
                    itemSources = group
                }
            } else if token.isName {
                var name = token.text
                index += 1
                if index + 1 < tokens.endIndex, tokens[index].isSymbol("."), tokens[index + 1].isName {
                    name = tokens[index + 1].text
                    index += 2
                }
                var isFunction = false
                if index < tokens.endIndex, tokens[index].isSymbol("(") {
                    guard let close = tokens.matchingParenthesis(at: index) else { return nil }
                    index = close + 1
                    isFunction = true
                }
                var alias: String?
                if index < tokens.endIndex, tokens[index].isKeyword("AS"), index + 1 < tokens.endIndex {
                    alias = tokens[index + 1].text
                    index += 2
                } else if index < tokens.endIndex, isAliasCandidate(tokens[index]) {
                    alias = tokens[index].text
                    index += 1
                }
                if index < tokens.endIndex, tokens[index].isKeyword("INDEXED") { index += 3 }
                if index + 1 < tokens.endIndex, tokens[index].isKeyword("NOT"), tokens[index + 1].isKeyword("INDEXED") {
                    index += 2
                }
                if isFunction {
                    itemSources = [Source(name: name, alias: alias, columns: nil)]
                } else {
                    itemSources = [
                        tableSource(named: name, alias: alias, ctes: ctes)
                            ?? Source(name: name, alias: alias, columns: nil)
                    ]
                }
            } else {
                return nil
            }
            // Its constraint.
            var using: [String] = []
            if index < tokens.endIndex, tokens[index].isKeyword("ON") {
                index += 1
                while index < tokens.endIndex {
                    let current = tokens[index]
                    if current.isSymbol(",") || joinWords.contains(current.keyword ?? "") { break }
                    if current.isSymbol("("), let close = tokens.matchingParenthesis(at: index) {
                        index = close + 1
                        continue
                    }
                    if current.isKeyword("CASE"), let end = tokens.matchingEnd(at: index) {
                        index = end + 1
                        continue
                    }
                    index += 1
                }
            } else if index < tokens.endIndex, tokens[index].isKeyword("USING") {
                guard index + 1 < tokens.endIndex, let close = tokens.matchingParenthesis(at: index + 1) else {
                    return nil
                }
                using = tokens[(index + 2)..<close].splitTopLevel(on: ",").compactMap { $0.first?.text.lowercased() }
                index = close + 1
            }
            items.append((itemSources, join, using, isNatural))
            // The next join operator.
            guard index < tokens.endIndex else { break }
            join = .inner
            isNatural = false
            if tokens[index].isSymbol(",") {
                index += 1
                continue
            }
            var sawJoin = false
            while index < tokens.endIndex, let keyword = tokens[index].keyword, joinWords.contains(keyword),
                tokens[index].kind == .word
            {
                switch keyword {
                case "LEFT": join = .left
                case "RIGHT": join = .right
                case "FULL": join = .full
                case "NATURAL": isNatural = true
                case "JOIN": sawJoin = true
                default: break
                }
                index += 1
                if sawJoin { break }
            }
            guard sawJoin else { return nil }
        }
        // Null extension: the right of LEFT, the left of RIGHT, both sides of FULL.
        for position in items.indices {
            switch items[position].join {
            case .left:
                for member in items[position].sources.indices { items[position].sources[member].isNullExtended = true }
            case .right, .full:
                for earlier in 0..<position {
                    for member in items[earlier].sources.indices {
                        items[earlier].sources[member].isNullExtended = true
                    }
                }
                if items[position].join == .full {
                    for member in items[position].sources.indices {
                        items[position].sources[member].isNullExtended = true
                    }
                }
            case .first, .inner:
                break
            }
        }
        // USING and NATURAL: `*` shows the joined columns once, from the left.
        var seenNames: Set<String> = []
        for position in items.indices {
            var hidden = Set(items[position].using)
            if items[position].isNatural {
                for source in items[position].sources {
                    for column in source.columns ?? [] where seenNames.contains(column.name.lowercased()) {
                        hidden.insert(column.name.lowercased())
                    }
                }
            }
            if !hidden.isEmpty, items[position].sources.count == 1 {
                items[position].sources[0].hiddenFromStar = hidden
            }
            for source in items[position].sources {
                for column in source.columns ?? [] { seenNames.insert(column.name.lowercased()) }
            }
        }
        let sources = items.flatMap(\.sources)
        seenSources += sources
        return sources
    }

    /// The source for a table, view, virtual table or common table expression called `name`.
    func tableSource(named name: String, alias: String?, ctes: [String: [NamedColumn]?]) -> Source? {
        if let entry = ctes[name.lowercased()] {
            return Source(name: name, alias: alias, columns: entry)
        }
        if let table = schema.table(named: name) ?? schema.virtualTable(named: name) {
            let isVirtual = table.virtualModule != nil
            var columns: [NamedColumn] = []
            for column in table.columns where !column.isHidden {
                let neverNull =
                    !isVirtual
                    && (column.isNotNull || column.isRowIDAlias || (table.isWithoutRowID && column.isPrimaryKey))
                let type = column.declaredType.trimmingSQLSpace.isEmpty ? nil : column.declaredType
                columns.append(
                    NamedColumn(
                        name: column.name,
                        fact: Fact(
                            type: type, isNeverNull: neverNull, origin: Origin(table: table.name, column: column.name)))
                )
            }
            var source = Source(name: table.name, alias: alias, columns: columns, table: table.name)
            if !table.isWithoutRowID && !isVirtual {
                source.rowIDOrigin = Origin(table: table.name, column: table.rowIDAlias?.name ?? "rowid")
            }
            return source
        }
        if let view = schema.view(named: name) {
            return Source(name: view.name, alias: alias, columns: columns(ofView: view), table: view.name)
        }
        return nil
    }

    /// A view's columns: SQLite's names and declared types, with the facts of its query.
    func columns(ofView view: DatabaseSchema.View) -> [NamedColumn] {
        let key = view.name.lowercased()
        if let cached = viewColumns[key] {
            return cached
                ?? view.columns.map { NamedColumn(name: $0.name, fact: .value($0.typeName, neverNull: false)) }
        }
        viewColumns[key] = .some(nil)  // a view reading itself (impossible in SQLite) stays unknown
        let tokens = SQLTokenizer.tokenize(view.sql)[...]
        var analyzed: [NamedColumn]?
        if let asIndex = tokens.firstTopLevelIndex(where: { $0.isKeyword("AS") }) {
            let savedSources = seenSources
            analyzed = selectColumns(tokens[(asIndex + 1)...], ctes: [:], outer: nil)
            seenSources = savedSources
        }
        let result: [NamedColumn]
        if let analyzed, analyzed.count == view.columns.count {
            result = zip(view.columns, analyzed).map { column, analyzed in
                var fact = analyzed.fact
                if let declared = column.declaredType { fact.type = declared }
                if fact.type == nil { fact.type = column.inferredType }
                return NamedColumn(name: column.name, fact: fact)
            }
        } else {
            result = view.columns.map { NamedColumn(name: $0.name, fact: .value($0.typeName, neverNull: false)) }
        }
        viewColumns[key] = .some(result)
        return result
    }

    // MARK: Column references

    /// The fact of a column reference `qualifier.name` or `name`.
    func columnFact(qualifier: String?, name: String, in scope: Scope) -> Fact {
        var current: Scope? = scope
        var isOwnScope = true
        while let searched = current {
            var candidates: [(Source, Fact)] = []
            var hasUnknownSource = false
            for source in searched.sources {
                if let qualifier, !source.referenceName.equalsIdentifier(qualifier) { continue }
                guard source.columns != nil else {
                    hasUnknownSource = true
                    continue
                }
                if let column = source.column(named: name) {
                    candidates.append((source, column.fact))
                } else if let origin = source.rowIDOrigin, ["ROWID", "OID", "_ROWID_"].contains(name.uppercased()) {
                    candidates.append((source, Fact(type: "INTEGER", isNeverNull: true, origin: origin)))
                }
            }
            if !candidates.isEmpty {
                // Several candidates: a USING column, or an ambiguity SQLite resolved; never optimistic.
                var fact = candidates[0].1
                for (source, candidate) in candidates {
                    if source.isNullExtended || !candidate.isNeverNull || (isOwnScope && searched.bareColumnsMayBeNull)
                    {
                        fact.isNeverNull = false
                    }
                    if candidate.origin != fact.origin { fact.origin = nil }
                }
                return fact
            }
            if hasUnknownSource { return .unknown }
            current = searched.parent
            isOwnScope = false
        }
        return .unknown
    }

    // MARK: Expressions

    /// What is known of an expression's value.
    func fact(of expression: Tokens, in scope: Scope) -> Fact {
        var tokens = expression
        while tokens.count >= 3, tokens[tokens.endIndex - 2].isKeyword("COLLATE") { tokens = tokens.dropLast(2) }
        guard let first = tokens.first else { return .unknown }

        if tokens.isParenthesized {
            let inner = tokens.dropFirst().dropLast()
            if let head = inner.first, ["SELECT", "WITH", "VALUES"].contains(head.keyword ?? "") {
                // A scalar subquery: its first column's type; NULL when it returns no row.
                let type = selectColumns(inner, ctes: [:], outer: scope)?.first?.fact.type
                return .value(type, neverNull: false)
            }
            if inner.splitTopLevel(on: ",").count > 1 { return .unknown }  // a row value
            return fact(of: inner, in: scope)
        }

        // OR, then AND (the AND of BETWEEN excepted): every operand must be non-NULL.
        let orParts = tokens.splitTopLevel { $0.isKeyword("OR") }
        if orParts.count > 1 { return logical(orParts, in: scope) }
        let andParts = Self.splitAnd(tokens)
        if andParts.count > 1 { return logical(andParts, in: scope) }
        if first.isKeyword("NOT") {
            let operand = fact(of: tokens.dropFirst(), in: scope)
            return .value("INTEGER", neverNull: operand.isNeverNull)
        }
        if let result = equalityLevel(tokens, in: scope) { return result }
        if let result = binaryLevel(tokens, operators: ["<", "<=", ">", ">="], in: scope) { return result }
        if let result = binaryLevel(tokens, operators: ["&", "|", "<<", ">>"], in: scope) { return result }
        if let result = binaryLevel(tokens, operators: ["+", "-"], in: scope) { return result }
        if let result = binaryLevel(tokens, operators: ["*", "/", "%"], in: scope) { return result }
        if let result = binaryLevel(tokens, operators: ["||", "->", "->>"], in: scope) { return result }

        // Unary operators.
        if first.isSymbol("-") || first.isSymbol("+") || first.isSymbol("~") {
            var operand = fact(of: tokens.dropFirst(), in: scope)
            operand.origin = nil
            if first.isSymbol("~") { operand.type = "INTEGER" }
            return operand
        }
        return atom(tokens, in: scope)
    }

    func logical(_ parts: [Tokens], in scope: Scope) -> Fact {
        let facts = parts.map { fact(of: $0, in: scope) }
        return .value("INTEGER", neverNull: facts.allSatisfy(\.isNeverNull))
    }

    /// Splits at top-level `AND`, keeping `x BETWEEN a AND b` whole.
    static func splitAnd(_ tokens: Tokens) -> [Tokens] {
        var parts: [Tokens] = []
        var start = tokens.startIndex
        var pendingBetween = 0
        for index in tokens.topLevelIndices(where: { $0.isKeyword("AND") || $0.isKeyword("BETWEEN") }) {
            if tokens[index].isKeyword("BETWEEN") {
                pendingBetween += 1
            } else if pendingBetween > 0 {
                pendingBetween -= 1
            } else {
                parts.append(tokens[start..<index])
                start = index + 1
            }
        }
        parts.append(tokens[start...])
        return parts
    }

    /// `=`, `==`, `!=`, `<>`, `IS [NOT] [DISTINCT FROM]`, `[NOT] IN`, `[NOT] LIKE` …, `[NOT]
    /// BETWEEN`, `ISNULL`, `NOTNULL`, `NOT NULL`: one precedence level, left-associative, so the
    /// last operator at the top level is the root.
    func equalityLevel(_ tokens: Tokens, in scope: Scope) -> Fact? {
        let words: Set<String> = ["IS", "IN", "LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN", "ISNULL", "NOTNULL", "NOT"]
        let candidates = tokens.topLevelIndices { token in
            (token.kind == .symbol && ["=", "==", "!=", "<>"].contains(token.text))
                || (token.kind == .word && words.contains(token.text.uppercased()))
        }
        var root: Int?
        var betweenUntil: Int?  // the AND closing a BETWEEN: operators before it are in its bounds
        for index in candidates where index > tokens.startIndex {
            if let until = betweenUntil, index < until { continue }
            let token = tokens[index]
            let previous = tokens[index - 1]
            let next = index + 1 < tokens.endIndex ? tokens[index + 1].text.uppercased() : ""
            if token.isKeyword("NOT") {
                // NOT starts `NOT NULL`, `NOT IN` …; the NOT of `IS NOT` belongs to IS.
                guard !previous.isKeyword("IS"),
                    ["NULL", "IN", "LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN"].contains(next)
                else {
                    continue
                }
            } else if previous.isKeyword("NOT") && !token.isKeyword("IS") {
                continue  // the operator of a `NOT …` already counted
            }
            root = index
            if token.isKeyword("BETWEEN") || (token.isKeyword("NOT") && next == "BETWEEN") {
                betweenUntil = tokens[(index + 1)...].firstTopLevelIndex { $0.isKeyword("AND") }
            }
        }
        guard let start = root else { return nil }
        let left = tokens[tokens.startIndex..<start]
        var operatorIndex = start
        if tokens[start].isKeyword("NOT") { operatorIndex += 1 }
        let keyword =
            tokens[operatorIndex].kind == .word ? tokens[operatorIndex].text.uppercased() : tokens[operatorIndex].text
        let right = tokens[(operatorIndex + 1)...]
        switch keyword {
        case "IS", "ISNULL", "NOTNULL", "NULL":
            return .value("INTEGER", neverNull: true)
        case "IN":
            let leftFact = fact(of: left, in: scope)
            guard right.isParenthesized else { return .value("INTEGER", neverNull: false) }  // IN table, IN function(…)
            let inner = right.dropFirst().dropLast()
            if let head = inner.first, ["SELECT", "WITH", "VALUES"].contains(head.keyword ?? "") {
                return .value("INTEGER", neverNull: false)  // NULL when no row matches and one is NULL
            }
            let items = inner.isEmpty ? [] : inner.splitTopLevel(on: ",")
            let neverNull = leftFact.isNeverNull && items.allSatisfy { fact(of: $0, in: scope).isNeverNull }
            return .value("INTEGER", neverNull: neverNull)
        case "BETWEEN":
            guard let and = right.firstTopLevelIndex(where: { $0.isKeyword("AND") }) else { return .unknown }
            let operands = [left, right[right.startIndex..<and], right[(and + 1)...]]
            return .value("INTEGER", neverNull: operands.allSatisfy { fact(of: $0, in: scope).isNeverNull })
        case "LIKE", "GLOB":
            var operands = [left]
            if let escape = right.firstTopLevelIndex(where: { $0.isKeyword("ESCAPE") }) {
                operands += [right[right.startIndex..<escape], right[(escape + 1)...]]
            } else {
                operands.append(right)
            }
            return .value("INTEGER", neverNull: operands.allSatisfy { fact(of: $0, in: scope).isNeverNull })
        case "=", "==", "!=", "<>":
            return .value(
                "INTEGER", neverNull: fact(of: left, in: scope).isNeverNull && fact(of: right, in: scope).isNeverNull)
        default:  // MATCH, REGEXP: functions the application may define
            return .value("INTEGER", neverNull: false)
        }
    }

    /// One level of left-associative binary operators: every operand must be non-`NULL`;
    /// division and remainder also need a divisor that is a non-zero number literal.
    func binaryLevel(_ tokens: Tokens, operators: Set<String>, in scope: Scope) -> Fact? {
        var cuts: [Int] = []
        for index in tokens.topLevelIndices(where: { $0.kind == .symbol && operators.contains($0.text) }) {
            // A binary operator follows an operand; otherwise it is a sign.
            guard index > tokens.startIndex, Self.endsOperand(tokens[index - 1]) else { continue }
            cuts.append(index)
        }
        guard !cuts.isEmpty else { return nil }
        var operands: [Tokens] = []
        var start = tokens.startIndex
        for cut in cuts {
            operands.append(tokens[start..<cut])
            start = cut + 1
        }
        operands.append(tokens[start...])
        let facts = operands.map { fact(of: $0, in: scope) }
        var neverNull = facts.allSatisfy(\.isNeverNull)
        for (offset, cut) in cuts.enumerated() where ["/", "%"].contains(tokens[cut].text) {
            if !Self.isNonZeroNumber(operands[offset + 1]) { neverNull = false }
        }
        let symbols = Set(cuts.map { tokens[$0].text })
        if symbols.contains("->") || symbols.contains("->>") { return .value(nil, neverNull: false) }
        if symbols.contains("||") { return .value("TEXT", neverNull: neverNull) }
        if !symbols.isDisjoint(with: ["<", "<=", ">", ">=", "&", "|", "<<", ">>"]) {
            return .value("INTEGER", neverNull: neverNull)
        }
        // Integers give an integer; a real gives a real; NUMERIC values may be either: a real
        // holds both.
        let affinities = facts.map { $0.type.map(TableSchema.Affinity.init(declaredType:)) }
        let type: String?
        if affinities.allSatisfy({ $0 == .integer }) {
            type = "INTEGER"
        } else if affinities.allSatisfy({ $0 == .real || $0 == .integer || $0 == .numeric }) {
            type = "REAL"
        } else {
            type = nil
        }
        return .value(type, neverNull: neverNull)
    }

    /// Whether `token` can end an operand, so that a following `-` or `+` is binary.
    static func endsOperand(_ token: Token) -> Bool {
        switch token.kind {
        case .integer, .real, .string, .blob, .parameter, .quotedIdentifier: return true
        case .symbol: return token.isSymbol(")")
        case .word: return !operatorWords.contains(token.text.uppercased()) && !token.isKeyword("CASE")
        }
    }

    /// Whether `tokens` is a number literal other than zero.
    static func isNonZeroNumber(_ tokens: Tokens) -> Bool {
        guard tokens.count == 1, let token = tokens.first else { return false }
        switch token.kind {
        case .integer: return Int64(token.text.replacingOccurrences(of: "_", with: "")).map { $0 != 0 } ?? true
        case .real: return Double(token.text.replacingOccurrences(of: "_", with: "")).map { abs($0) >= 1 } ?? false
        default: return false
        }
    }

    /// Literals, column references, `CASE`, `CAST`, `EXISTS` and function calls.
    func atom(_ tokens: Tokens, in scope: Scope) -> Fact {
        guard let first = tokens.first else { return .unknown }
        if tokens.count == 1 {
            switch first.kind {
            case .integer: return .value("INTEGER", neverNull: true)
            case .real: return .value("REAL", neverNull: true)
            case .string: return .value("TEXT", neverNull: true)
            case .blob: return .value("BLOB", neverNull: true)
            case .parameter: return parameterFact(first.text)
            case .symbol: return .unknown
            case .word, .quotedIdentifier:
                if first.kind == .word {
                    switch first.text.uppercased() {
                    case "NULL": return Fact(type: nil, isNeverNull: false, origin: nil, isNullLiteral: true)
                    case "TRUE", "FALSE": return .value("INTEGER", neverNull: true)
                    case "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME": return .value("TEXT", neverNull: true)
                    default: break
                    }
                }
                return columnFact(qualifier: nil, name: first.text, in: scope)
            }
        }
        if tokens.count == 3, tokens[tokens.startIndex + 1].isSymbol("."), first.isName,
            tokens[tokens.startIndex + 2].isName
        {
            return columnFact(qualifier: first.text, name: tokens[tokens.startIndex + 2].text, in: scope)
        }
        if tokens.count == 5, tokens[tokens.startIndex + 1].isSymbol("."), tokens[tokens.startIndex + 3].isSymbol("."),
            tokens[tokens.startIndex + 4].isName
        {
            return columnFact(
                qualifier: tokens[tokens.startIndex + 2].text, name: tokens[tokens.startIndex + 4].text, in: scope)
        }
        if first.isKeyword("CASE"), tokens.matchingEnd(at: tokens.startIndex) == tokens.endIndex - 1 {
            return caseFact(tokens, in: scope)
        }
        if first.isKeyword("EXISTS"), tokens.dropFirst().isParenthesized {
            return .value("INTEGER", neverNull: true)
        }
        if first.isKeyword("CAST"), tokens.count >= 4, tokens.dropFirst().isParenthesized {
            let inner = tokens.dropFirst(2).dropLast()
            guard let asIndex = inner.lastTopLevelIndex(where: { $0.isKeyword("AS") }) else { return .unknown }
            let typeName = SQLTypeText.render(inner[(asIndex + 1)...])
            let operand = fact(of: inner[inner.startIndex..<asIndex], in: scope)
            return .value(typeName.isEmpty ? nil : typeName, neverNull: operand.isNeverNull)
        }
        if first.kind == .word, tokens.count >= 3, tokens[tokens.startIndex + 1].isSymbol("("),
            let close = tokens.matchingParenthesis(at: tokens.startIndex + 1)
        {
            return functionFact(tokens, close: close, in: scope)
        }
        return .unknown
    }

    /// `CASE … END`: non-`NULL` when it has an `ELSE` and every result is non-`NULL`.
    func caseFact(_ tokens: Tokens, in scope: Scope) -> Fact {
        let body = tokens.dropFirst().dropLast()
        let markers = body.topLevelIndices { ["WHEN", "THEN", "ELSE"].contains($0.keyword ?? "") }
        var results: [Tokens] = []
        var hasElse = false
        for (offset, marker) in markers.enumerated() {
            let keyword = body[marker].keyword ?? ""
            guard keyword == "THEN" || keyword == "ELSE" else { continue }
            if keyword == "ELSE" { hasElse = true }
            let end = offset + 1 < markers.count ? markers[offset + 1] : body.endIndex
            results.append(body[(marker + 1)..<end])
        }
        let facts = results.map { fact(of: $0, in: scope) }
        let type = Self.combine(facts)?.type
        return .value(type, neverNull: hasElse && !facts.isEmpty && facts.allSatisfy(\.isNeverNull))
    }

    /// One type for several values: their common type when their affinities agree (ignoring
    /// `NULL` literals), `REAL` for integers and reals; `nil` otherwise.
    static func combine(_ facts: [Fact]) -> Fact? {
        let typed = facts.filter { !$0.isNullLiteral }
        guard let first = typed.first, let firstType = first.type else { return nil }
        var affinities: Set<TableSchema.Affinity> = []
        for fact in typed {
            guard let type = fact.type else { return nil }
            affinities.insert(TableSchema.Affinity(declaredType: type))
        }
        if affinities.count == 1 { return .value(firstType, neverNull: typed.allSatisfy(\.isNeverNull)) }
        if affinities == [.integer, .real] { return .value("REAL", neverNull: typed.allSatisfy(\.isNeverNull)) }
        return nil
    }

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
        if ViewTypeInference.textFunctions.contains(name) { return .value("TEXT", neverNull: false) }
        if ViewTypeInference.integerFunctions.contains(name) { return .value("INTEGER", neverNull: false) }
        if ViewTypeInference.realFunctions.contains(name) { return .value("REAL", neverNull: false) }
        if ViewTypeInference.blobFunctions.contains(name) { return .value("BLOB", neverNull: false) }
        return .unknown
    }
}

// MARK: - Token slices

extension ArraySlice where Element == SQLTokenizer.Token {
    /// The indexes of tokens satisfying `predicate` outside parentheses and `CASE … END`.
    func topLevelIndices(where predicate: (SQLTokenizer.Token) -> Bool) -> [Int] {
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
    func lastTopLevelIndex(where predicate: (SQLTokenizer.Token) -> Bool) -> Int? {
        topLevelIndices(where: predicate).last
    }

    /// Splits at tokens satisfying `isSeparator` outside parentheses and `CASE … END`.
    func splitTopLevel(_ isSeparator: (SQLTokenizer.Token) -> Bool) -> [ArraySlice<SQLTokenizer.Token>] {
        var parts: [ArraySlice<SQLTokenizer.Token>] = []
        var start = startIndex
        for index in topLevelIndices(where: isSeparator) {
            parts.append(self[start..<index])
            start = index + 1
        }
        parts.append(self[start..<endIndex])
        return parts
    }

    /// Splits at a symbol outside parentheses and `CASE … END`.
    func splitTopLevel(on symbol: String) -> [ArraySlice<SQLTokenizer.Token>] {
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
}
