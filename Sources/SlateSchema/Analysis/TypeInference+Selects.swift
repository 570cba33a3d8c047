import SlateCore
import SlateQuery

extension TypeInference {
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
        guard let (items, scope) = selectItems(tokens, ctes: ctes, outer: outer) else { return nil }
        return itemColumns(items, scope: scope)
    }

    /// The items of a `SELECT` (without `SELECT` and `DISTINCT`) and the scope they are read in,
    /// or `nil` when the `FROM` clause is not understood.
    func selectItems(_ tokens: Tokens, ctes: [String: [NamedColumn]?], outer: Scope?) -> ([Tokens], Scope)? {
        guard let first = tokens.first, first.isKeyword("SELECT") else { return nil }
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
        return (Array(rest[rest.startIndex..<itemsEnd].splitTopLevel(on: ",")), scope)
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
            if token.kind == .word, Self.aggregateFunctions.contains(token.text.uppercased()),
                index + 1 < tokens.endIndex,
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

}
