import SlateCore
import SlateQuery

extension TypeInference {
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
        case .space, .comment, .illegal: return false
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
            case .symbol, .space, .comment, .illegal: return .unknown
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
}
