import SlateCore
import SlateQuery

/// Where a parameter's type comes from: the column it is compared with, assigned to or inserted
/// into, found around each place the parameter appears.
struct ParameterInference {
    typealias Token = SQLLexer.Lexeme
    typealias Tokens = ArraySlice<Token>

    /// One place that says what a parameter is.
    struct Use {
        var declaredType: String
        var table: String?
        var column: String?
        var isOptional: Bool
        var origin: String
    }

    let tokens: Tokens
    let schema: DatabaseSchema
    let types: TypeInference

    /// The uses of parameter `sqlName` that tell its type.
    func uses(of sqlName: String) -> [Use] {
        tokens.indices.filter { tokens[$0].kind == .parameter && tokens[$0].text == sqlName }.compactMap(use(at:))
    }

    /// What the place of the parameter token at `index` tells of its type, if anything.
    func use(at index: Int) -> Use? {
        limitUse(at: index) ?? castUse(at: index) ?? assignmentUse(at: index) ?? insertUse(at: index)
            ?? comparisonUse(at: index) ?? betweenUse(at: index) ?? inListUse(at: index)
    }

    // MARK: Contexts

    /// `LIMIT :n`, `OFFSET :n`, `LIMIT :offset, :n`.
    func limitUse(at index: Int) -> Use? {
        guard index > tokens.startIndex else { return nil }
        let previous = tokens[index - 1]
        var isLimit = previous.isKeyword("LIMIT") || previous.isKeyword("OFFSET")
        if previous.isSymbol(","), index - 3 >= tokens.startIndex, tokens[index - 3].isKeyword("LIMIT") {
            isLimit = true
        }
        return isLimit ? Use(declaredType: "INTEGER", isOptional: false, origin: "a row count") : nil
    }

    /// `CAST(:p AS TYPE)`.
    func castUse(at index: Int) -> Use? {
        guard index - 2 >= tokens.startIndex, tokens[index - 1].isSymbol("("), tokens[index - 2].isKeyword("CAST"),
            index + 2 < tokens.endIndex, tokens[index + 1].isKeyword("AS"),
            let close = tokens[(index + 2)...].firstIndex(where: { $0.isSymbol(")") })
        else { return nil }
        let type = SQLTypeText.render(tokens[(index + 2)..<close])
        return type.isEmpty ? nil : Use(declaredType: type, isOptional: false, origin: "cast to \(type)")
    }

    /// `SET column = :p` in an `UPDATE` or an upsert's `DO UPDATE`.
    func assignmentUse(at index: Int) -> Use? {
        guard index - 3 >= tokens.startIndex, tokens[index - 1].isSymbol("="), tokens[index - 2].isName,
            tokens[index - 3].isKeyword("SET") || tokens[index - 3].isSymbol(","), isBoundaryAfter(index + 1)
        else { return nil }
        // The `=` must be an assignment of a SET clause: walk back over earlier assignments.
        var position = index - 3
        while tokens[position].isSymbol(",") {
            guard let previousAssignment = assignmentStart(before: position) else { return nil }
            position = previousAssignment - 1
            guard position >= tokens.startIndex else { return nil }
        }
        guard tokens[position].isKeyword("SET"), let target = types.writeTarget(of: tokens),
            let table = schema.table(named: target.name), let column = table.column(named: tokens[index - 2].text)
        else { return nil }
        return use(of: column, in: table, isOptional: column.isNullable, verb: "assigned to")
    }

    /// The index of the column name of the assignment ending at the `,` at `comma`, when the
    /// assignment is `name = expression`.
    func assignmentStart(before comma: Int) -> Int? {
        var position = comma - 1
        var depth = 0
        while position >= tokens.startIndex {
            let token = tokens[position]
            if token.isSymbol(")") { depth += 1 }
            if token.isSymbol("(") { depth -= 1 }
            if depth == 0, token.isSymbol("="), position - 1 >= tokens.startIndex, tokens[position - 1].isName,
                position - 2 >= tokens.startIndex,
                tokens[position - 2].isKeyword("SET") || tokens[position - 2].isSymbol(",")
            {
                return position - 1
            }
            if depth < 0 { return nil }
            position -= 1
        }
        return nil
    }

    /// A lone parameter among the values of `INSERT INTO t (columns) VALUES (…)` or
    /// `INSERT INTO t (columns) SELECT …`.
    func insertUse(at index: Int) -> Use? {
        guard let target = types.writeTarget(of: tokens), let first = tokens.first,
            ["INSERT", "REPLACE", "WITH"].contains(first.keyword ?? ""), let table = schema.table(named: target.name)
        else { return nil }
        var position = target.nameIndex + 1
        if position + 1 < tokens.endIndex, tokens[position].isKeyword("AS") { position += 2 }
        var columnNames = table.recordColumns.map(\.name)
        if position < tokens.endIndex, tokens[position].isSymbol("("),
            let close = tokens.matchingParenthesis(at: position)
        {
            columnNames = tokens[(position + 1)..<close].splitTopLevel(on: ",").compactMap { $0.first?.text }
            position = close + 1
        }
        guard position < tokens.endIndex else { return nil }
        var rows: [Tokens] = []
        if tokens[position].isKeyword("VALUES") {
            position += 1
            while position < tokens.endIndex, tokens[position].isSymbol("("),
                let close = tokens.matchingParenthesis(at: position)
            {
                rows.append(tokens[(position + 1)..<close])
                position = close + 1
                guard position < tokens.endIndex, tokens[position].isSymbol(",") else { break }
                position += 1
            }
        } else if tokens[position].isKeyword("SELECT") {
            let rest = tokens[(position + 1)...]
            let end =
                rest.firstTopLevelIndex {
                    TypeInference.clauseKeywords.contains($0.keyword ?? "") || $0.isKeyword("ON")
                } ?? rest.endIndex
            rows.append(rest[rest.startIndex..<end])
        }
        for row in rows {
            for (offset, item) in row.splitTopLevel(on: ",").enumerated()
            where item.count == 1 && item.startIndex == index {
                guard offset < columnNames.count, let column = table.column(named: columnNames[offset]) else {
                    return nil
                }
                return use(
                    of: column, in: table, isOptional: column.isNullable || column.isRowIDAlias, verb: "inserted into")
            }
        }
        return nil
    }

    static let comparisonSymbols: Set<String> = ["=", "==", "!=", "<>", "<", "<=", ">", ">="]

    /// `column OP :p` or `:p OP column`, for comparisons, `IS [NOT]`, `[NOT] LIKE`, `[NOT] GLOB`.
    func comparisonUse(at index: Int) -> Use? {
        guard isBoundaryAfter(index + 1) || isComparison(at: index + 1) != nil else { return nil }
        // column OP :p
        if let (start, isIs) = comparisonEnding(at: index - 1), let reference = columnReference(endingAt: start - 1),
            isBoundaryBefore(reference.start - 1), isBoundaryAfter(index + 1)
        {
            return use(ofReference: reference, isOptional: isIs, verb: "compared with")
        }
        // :p OP column
        if isBoundaryBefore(index - 1), let (end, isIs) = isComparison(at: index + 1),
            let reference = columnReference(startingAt: end + 1), isBoundaryAfter(reference.end + 1)
        {
            return use(ofReference: reference, isOptional: isIs, verb: "compared with")
        }
        return nil
    }

    /// `column [NOT] BETWEEN :low AND high` or `… BETWEEN low AND :high`.
    func betweenUse(at index: Int) -> Use? {
        var between: Int?
        if index - 1 >= tokens.startIndex, tokens[index - 1].isKeyword("BETWEEN") {
            guard index + 1 < tokens.endIndex, tokens[index + 1].isKeyword("AND") else { return nil }
            between = index - 1
        } else if index - 3 >= tokens.startIndex, tokens[index - 1].isKeyword("AND"),
            tokens[index - 3].isKeyword("BETWEEN"),
            isBoundaryAfter(index + 1)
        {
            between = index - 3
        }
        guard var operatorStart = between else { return nil }
        if operatorStart - 1 >= tokens.startIndex, tokens[operatorStart - 1].isKeyword("NOT") { operatorStart -= 1 }
        guard let reference = columnReference(endingAt: operatorStart - 1), isBoundaryBefore(reference.start - 1) else {
            return nil
        }
        return use(ofReference: reference, isOptional: false, verb: "compared with")
    }

    /// `column [NOT] IN (…, :p, …)` where every item is one token.
    func inListUse(at index: Int) -> Use? {
        guard index + 1 < tokens.endIndex, tokens[index + 1].isSymbol(",") || tokens[index + 1].isSymbol(")") else {
            return nil
        }
        var position = index - 1
        while position - 1 >= tokens.startIndex, tokens[position].isSymbol(",") { position -= 2 }
        guard position - 1 >= tokens.startIndex, tokens[position].isSymbol("("), tokens[position - 1].isKeyword("IN")
        else { return nil }
        var operatorStart = position - 1
        if operatorStart - 1 >= tokens.startIndex, tokens[operatorStart - 1].isKeyword("NOT") { operatorStart -= 1 }
        guard let reference = columnReference(endingAt: operatorStart - 1), isBoundaryBefore(reference.start - 1) else {
            return nil
        }
        return use(ofReference: reference, isOptional: false, verb: "compared with")
    }

    // MARK: Pieces

    /// The comparison operator ending at `end`: its first index, and whether it is `IS`-like
    /// (so `NULL` is a value worth passing).
    func comparisonEnding(at end: Int) -> (start: Int, isIs: Bool)? {
        guard end >= tokens.startIndex else { return nil }
        let token = tokens[end]
        if token.kind == .symbol, Self.comparisonSymbols.contains(token.text) { return (end, false) }
        if token.isKeyword("LIKE") || token.isKeyword("GLOB") {
            if end - 1 >= tokens.startIndex, tokens[end - 1].isKeyword("NOT") { return (end - 1, false) }
            return (end, false)
        }
        if token.isKeyword("IS") { return (end, true) }
        if token.isKeyword("NOT"), end - 1 >= tokens.startIndex, tokens[end - 1].isKeyword("IS") {
            return (end - 1, true)
        }
        if token.isKeyword("FROM"), end - 1 >= tokens.startIndex, tokens[end - 1].isKeyword("DISTINCT") {
            var start = end - 2
            if start >= tokens.startIndex, tokens[start].isKeyword("NOT") { start -= 1 }
            if start >= tokens.startIndex, tokens[start].isKeyword("IS") { return (start, true) }
        }
        return nil
    }

    /// The comparison operator starting at `start`: its last index, and whether it is `IS`-like.
    func isComparison(at start: Int) -> (end: Int, isIs: Bool)? {
        guard start < tokens.endIndex else { return nil }
        let token = tokens[start]
        if token.kind == .symbol, Self.comparisonSymbols.contains(token.text) { return (start, false) }
        if token.isKeyword("LIKE") || token.isKeyword("GLOB") { return (start, false) }
        if token.isKeyword("NOT"), start + 1 < tokens.endIndex,
            tokens[start + 1].isKeyword("LIKE") || tokens[start + 1].isKeyword("GLOB")
        {
            return (start + 1, false)
        }
        if token.isKeyword("IS") {
            var end = start
            if end + 1 < tokens.endIndex, tokens[end + 1].isKeyword("NOT") { end += 1 }
            if end + 2 < tokens.endIndex, tokens[end + 1].isKeyword("DISTINCT"), tokens[end + 2].isKeyword("FROM") {
                end += 2
            }
            return (end, true)
        }
        return nil
    }

    /// A column reference `name`, `q.name` or `s.q.name`.
    struct Reference {
        var start: Int
        var end: Int
        var qualifier: String?
        var name: String
    }

    func columnReference(endingAt end: Int) -> Reference? {
        guard end >= tokens.startIndex, tokens[end].isName, !isKeywordOperand(tokens[end]) else { return nil }
        if end - 2 >= tokens.startIndex, tokens[end - 1].isSymbol("."), tokens[end - 2].isName {
            var start = end - 2
            if start - 2 >= tokens.startIndex, tokens[start - 1].isSymbol("."), tokens[start - 2].isName { start -= 2 }
            return Reference(start: start, end: end, qualifier: tokens[end - 2].text, name: tokens[end].text)
        }
        return Reference(start: end, end: end, qualifier: nil, name: tokens[end].text)
    }

    func columnReference(startingAt start: Int) -> Reference? {
        guard start < tokens.endIndex, tokens[start].isName, !isKeywordOperand(tokens[start]) else { return nil }
        var end = start
        while end + 2 < tokens.endIndex, tokens[end + 1].isSymbol("."), tokens[end + 2].isName { end += 2 }
        guard end - start <= 4 else { return nil }
        let qualifier = end > start ? tokens[end - 2].text : nil
        return Reference(start: start, end: end, qualifier: qualifier, name: tokens[end].text)
    }

    /// Words that are values or operators, not column names.
    func isKeywordOperand(_ token: Token) -> Bool {
        token.kind == .word
            && [
                "NULL", "TRUE", "FALSE", "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "END", "NOT", "AND", "OR",
                "CASE",
                "SELECT", "EXISTS",
            ].contains(token.text.uppercased())
    }

    /// Whether the token at `index` (or the start) cannot be the end of a tighter operand.
    func isBoundaryBefore(_ index: Int) -> Bool {
        guard index >= tokens.startIndex else { return true }
        let token = tokens[index]
        if token.isSymbol("(") || token.isSymbol(",") { return true }
        return token.kind == .word
            && [
                "WHERE", "AND", "OR", "NOT", "ON", "WHEN", "THEN", "ELSE", "HAVING", "SELECT", "DISTINCT", "ALL",
                "CASE", "RETURNING", "BY",
            ]
            .contains(token.text.uppercased())
    }

    /// Whether the token at `index` (or the end) cannot continue the operand before it.
    func isBoundaryAfter(_ index: Int) -> Bool {
        guard index < tokens.endIndex else { return true }
        let token = tokens[index]
        if token.isSymbol(")") || token.isSymbol(",") || token.isSymbol(";") { return true }
        return token.kind == .word
            && [
                "AND", "OR", "THEN", "ELSE", "END", "WHEN", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET",
                "UNION",
                "INTERSECT", "EXCEPT", "RETURNING", "ON", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL",
                "ESCAPE",
                "COLLATE", "FROM", "WINDOW", "DESC", "ASC", "NULLS",
            ].contains(token.text.uppercased())
    }

    /// The use a column reference gives, through the sources of the statement.
    func use(ofReference reference: Reference, isOptional: Bool, verb: String) -> Use? {
        var sources = types.seenSources
        if let target = types.writeTarget(of: tokens),
            let source = types.tableSource(named: target.name, alias: target.alias, ctes: [:])
        {
            sources.append(source)
        }
        var found: [(source: TypeInference.Source, column: TypeInference.NamedColumn)] = []
        for source in sources {
            if let qualifier = reference.qualifier, !source.referenceName.equalsIdentifier(qualifier),
                !source.name.equalsIdentifier(qualifier)
            {
                continue
            }
            if let column = source.column(named: reference.name) {
                found.append((source, column))
            } else if let origin = source.rowIDOrigin,
                ["ROWID", "OID", "_ROWID_"].contains(reference.name.uppercased())
            {
                found.append(
                    (
                        source,
                        TypeInference.NamedColumn(
                            name: origin.column,
                            fact: TypeInference.Fact(type: "INTEGER", isNeverNull: true, origin: origin))
                    ))
            }
        }
        guard let first = found.first, let type = first.column.fact.type else { return nil }
        let affinities = Set(found.compactMap { $0.column.fact.type.map(TableSchema.Affinity.init(declaredType:)) })
        guard affinities.count == 1, found.allSatisfy({ $0.column.fact.type != nil }) else { return nil }
        let table = first.column.fact.origin?.table ?? first.source.table
        let column = first.column.fact.origin?.column ?? (first.source.table == nil ? nil : first.column.name)
        let described = table.map { "\($0).\(column ?? reference.name)" } ?? reference.name
        return Use(
            declaredType: type, table: table, column: column, isOptional: isOptional, origin: "\(verb) \(described)")
    }

    func use(of column: TableSchema.Column, in table: TableSchema, isOptional: Bool, verb: String) -> Use? {
        let type = column.declaredType.trimmingSQLSpace
        guard !type.isEmpty else { return nil }
        return Use(
            declaredType: type, table: table.name, column: column.name, isOptional: isOptional,
            origin: "\(verb) \(table.name).\(column.name)")
    }
}
