import SlateCore
import SlateQuery

extension TypeInference {
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
                    trustsNotNullColumns && !isVirtual
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
        let analyzed = analyzedColumns(ofView: view)
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

    /// The facts of a view's query, one per result column, or `nil` when the query is not
    /// understood.
    func analyzedColumns(ofView view: DatabaseSchema.View) -> [NamedColumn]? {
        guard let body = Self.viewQuery(view.sql) else { return nil }
        let savedSources = seenSources
        defer { seenSources = savedSources }
        return selectColumns(body, ctes: [:], outer: nil)
    }

    /// The query of `CREATE VIEW name [(columns)] AS query`.
    static func viewQuery(_ sql: String) -> Tokens? {
        let tokens = SQLLexer.lexemes(of: sql)[...]
        guard let asIndex = tokens.firstTopLevelIndex(where: { $0.isKeyword("AS") }) else { return nil }
        return tokens[(asIndex + 1)...]
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
                    candidates.append(
                        (source, Fact(type: "INTEGER", isNeverNull: trustsNotNullColumns, origin: origin)))
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

}
