import SlateCore
import SlateQuery

/// Infers the types of view columns that SQLite reports no declared type for: expressions,
/// aggregates, literals.
///
/// SQLite gives a declared type only for a result column taken straight from a table column. For
/// the rest, the view's select list is tokenized and each expression's type follows simple rules:
/// `count(…)` is an `INTEGER` that is never `NULL`; `sum(x)` is an `INTEGER` when `x` is, else a
/// `REAL`; `total` and `avg` are `REAL`; `min` and `max` of one argument have its type;
/// `CAST(x AS T)` is `T`; `a || b` is `TEXT`; comparisons and logic are `INTEGER`; arithmetic is
/// `INTEGER` when every operand is, `REAL` when one is; literals have their kind; column references
/// are resolved through the `FROM` clause. Anything else stays unknown (`nil`).
struct ViewTypeInference {
    typealias Token = SQLTokenizer.Token
    typealias Tokens = ArraySlice<Token>

    /// A type and whether the expression can be `NULL`.
    struct Inferred: Equatable {
        var type: String
        var isNeverNull: Bool
    }

    let schema: DatabaseSchema
    var views: [DatabaseSchema.View]

    init(schema: DatabaseSchema, views: [DatabaseSchema.View]) {
        self.schema = schema
        self.views = views
    }

    /// Infers every column still lacking a type. Returns whether anything changed.
    mutating func inferPass() -> Bool {
        var changed = false
        for viewIndex in views.indices {
            let view = views[viewIndex]
            guard view.columns.contains(where: { $0.declaredType == nil && $0.inferredType == nil }) else { continue }
            let tokens = SQLTokenizer.tokenize(view.sql)
            guard let select = mainSelect(in: tokens[...]) else { continue }
            let items = alignedItems(select, columnCount: view.columns.count)
            for columnIndex in view.columns.indices where view.columns[columnIndex].declaredType == nil {
                guard columnIndex < items.count, let item = items[columnIndex] else { continue }
                if let inferred = infer(item, in: select) {
                    if views[viewIndex].columns[columnIndex].inferredType != inferred.type
                        || views[viewIndex].columns[columnIndex].isNeverNull != inferred.isNeverNull
                    {
                        views[viewIndex].columns[columnIndex].inferredType = inferred.type
                        views[viewIndex].columns[columnIndex].isNeverNull = inferred.isNeverNull
                        changed = true
                    }
                }
            }
        }
        return changed
    }

    // MARK: Parsing the select

    /// One `SELECT`: its result expressions and the tables of its `FROM` clause.
    struct SelectCore {
        /// Result expressions, each without its alias.
        var items: [Tokens]
        /// `FROM` tables: (name, alias).
        var sources: [(name: String, alias: String?)]
    }

    static let clauseKeywords: Set<String> = [
        "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION", "EXCEPT", "INTERSECT", "WINDOW",
    ]
    static let joinKeywords: Set<String> = ["JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS", "NATURAL"]

    /// The first top-level `SELECT` of the view body (after any `WITH` clause).
    func mainSelect(in tokens: Tokens) -> SelectCore? {
        guard let asIndex = tokens.firstTopLevelIndex(where: { $0.isKeyword("AS") }) else { return nil }
        let body = tokens[(asIndex + 1)...]
        guard let selectIndex = body.firstTopLevelIndex(where: { $0.isKeyword("SELECT") }) else { return nil }
        return parseSelect(body[(selectIndex + 1)...])
    }

    /// Parses the tokens after `SELECT`.
    func parseSelect(_ tokens: Tokens) -> SelectCore {
        var rest = tokens
        if let first = rest.first, first.isKeyword("DISTINCT") || first.isKeyword("ALL") { rest = rest.dropFirst() }
        let end = rest.firstTopLevelIndex { Self.clauseKeywords.contains($0.keyword ?? "") } ?? rest.endIndex
        let items = rest[rest.startIndex..<end].splitAtTopLevel { $0.isSymbol(",") }.map(stripAlias)
        var sources: [(String, String?)] = []
        if end < rest.endIndex, rest[end].isKeyword("FROM") {
            let fromTokens = rest[(end + 1)...]
            let fromEnd =
                fromTokens.firstTopLevelIndex { token in
                    guard let keyword = token.keyword else { return false }
                    return Self.clauseKeywords.contains(keyword) && keyword != "FROM"
                } ?? fromTokens.endIndex
            sources = parseSources(fromTokens[fromTokens.startIndex..<fromEnd])
        }
        return SelectCore(items: items, sources: sources)
    }

    /// Keywords that end an expression and so are never a bare alias.
    static let nonAliasWords: Set<String> = [
        "END", "NULL", "TRUE", "FALSE", "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "ELSE", "THEN",
    ]

    /// Removes `AS alias` or a bare trailing alias.
    func stripAlias(_ item: Tokens) -> Tokens {
        guard item.count >= 2, let last = item.last else { return item }
        let previous = item[item.endIndex - 2]
        if previous.isKeyword("AS"), last.isName || last.kind == .string { return item.dropLast(2) }
        if last.isName, previous.kind != .symbol || previous.isSymbol(")"),
            !Self.nonAliasWords.contains(last.keyword ?? ""), !previous.isKeyword("CASE")
        {
            // `a b` (alias) or `f(x) b`: but not `x.b`, `COLLATE b`.
            if previous.isKeyword("COLLATE") { return item }
            if item.count >= 2, item[item.endIndex - 2].isSymbol(".") { return item }
            return item.dropLast()
        }
        return item
    }

    /// `FROM a [AS] x JOIN b y ON … , c` → [(a, x), (b, y), (c, nil)]. Subqueries are skipped.
    func parseSources(_ tokens: Tokens) -> [(name: String, alias: String?)] {
        var sources: [(String, String?)] = []
        var index = tokens.startIndex
        var expectingTable = true
        var depth = 0
        while index < tokens.endIndex {
            let token = tokens[index]
            if token.isSymbol("(") {
                depth += 1
                index += 1
                continue
            }
            if token.isSymbol(")") {
                depth -= 1
                index += 1
                continue
            }
            if depth > 0 {
                index += 1
                continue
            }
            if token.isSymbol(",") || Self.joinKeywords.contains(token.keyword ?? "") {
                expectingTable = true
                index += 1
                continue
            }
            if token.isKeyword("ON") || token.isKeyword("USING") {
                expectingTable = false
                index += 1
                continue
            }
            if expectingTable && token.isName {
                var name = token.text
                var next = index + 1
                // schema.table
                if next + 1 < tokens.endIndex, tokens[next].isSymbol("."), tokens[next + 1].isName {
                    name = tokens[next + 1].text
                    next += 2
                }
                var alias: String?
                if next < tokens.endIndex, tokens[next].isKeyword("AS"), next + 1 < tokens.endIndex {
                    alias = tokens[next + 1].text
                    next += 2
                } else if next < tokens.endIndex, tokens[next].isName,
                    !Self.joinKeywords.contains(tokens[next].keyword ?? ""),
                    !["ON", "USING", "INDEXED", "NOT"].contains(tokens[next].keyword ?? "")
                {
                    alias = tokens[next].text
                    next += 1
                }
                sources.append((name, alias))
                expectingTable = false
                index = next
                continue
            }
            index += 1
        }
        return sources
    }

    /// The select items aligned to the view's columns, expanding `*` and `t.*`. Items that cannot
    /// be aligned are `nil`.
    func alignedItems(_ select: SelectCore, columnCount viewColumnCount: Int) -> [Tokens?] {
        var aligned: [Tokens?] = []
        var expandable = true
        for item in select.items {
            if item.count == 1, item[item.startIndex].isSymbol("*") {
                let count = select.sources.reduce(0) { $0 + (columnCount(of: $1.name) ?? 0) }
                aligned += Array(repeating: nil, count: count)
                if select.sources.contains(where: { columnCount(of: $0.name) == nil }) { expandable = false }
            } else if item.count == 3, item[item.startIndex + 1].isSymbol("."), item[item.startIndex + 2].isSymbol("*")
            {
                let qualifier = item[item.startIndex].text
                let source = select.sources.first { ($0.alias ?? $0.name).caseInsensitiveEquals(qualifier) }
                if let source, let count = columnCount(of: source.name) {
                    aligned += Array(repeating: nil, count: count)
                } else {
                    expandable = false
                }
            } else {
                aligned.append(item)
            }
        }
        if expandable && aligned.count == viewColumnCount { return aligned }
        // Fall back to the items before the first star.
        var leading: [Tokens?] = []
        for item in select.items {
            if item.contains(where: { $0.isSymbol("*") }) && item.count <= 3 { break }
            leading.append(item)
        }
        return leading
    }

    func columnCount(of source: String) -> Int? {
        if let table = schema.table(named: source) { return table.columns.count }
        if let view = views.first(where: { $0.name.caseInsensitiveEquals(source) }) { return view.columns.count }
        return nil
    }

    // MARK: Inferring an expression

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
    static let booleanWords: Set<String> = [
        "AND", "OR", "NOT", "IS", "IN", "LIKE", "GLOB", "BETWEEN", "EXISTS", "REGEXP", "MATCH", "ISNULL", "NOTNULL",
    ]
    static let comparisonSymbols: Set<String> = ["=", "==", "!=", "<>", "<", "<=", ">", ">="]
    static let arithmeticSymbols: Set<String> = ["+", "-", "*", "/", "%"]
    static let bitwiseSymbols: Set<String> = ["&", "|", "<<", ">>", "~"]

    func infer(_ item: Tokens, in select: SelectCore) -> Inferred? {
        var tokens = item
        // Strip a trailing COLLATE name.
        if tokens.count >= 3, tokens[tokens.endIndex - 2].isKeyword("COLLATE") { tokens = tokens.dropLast(2) }
        guard !tokens.isEmpty else { return nil }
        if tokens.isParenthesized {
            let inner = tokens.dropFirst().dropLast()
            if let first = inner.first, first.isKeyword("SELECT") {
                // A scalar subquery: the type of its first result, NULL when it returns no row.
                let subquery = parseSelect(inner.dropFirst())
                guard let firstItem = subquery.items.first else { return nil }
                return infer(firstItem, in: subquery).map { Inferred(type: $0.type, isNeverNull: false) }
            }
            return infer(inner, in: select)
        }

        // Operators at the top level decide the type, from the loosest binding.
        var hasConcatenation = false
        var hasBoolean = false
        var hasArithmetic = false
        var hasModulo = false
        var hasBitwise = false
        var hasJSONArrow = false
        var depth = 0
        var caseDepth = 0
        for index in tokens.indices {
            let token = tokens[index]
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            if token.isKeyword("CASE") { caseDepth += 1 }
            if token.isKeyword("END") { caseDepth -= 1 }
            guard depth == 0 && caseDepth == 0 else { continue }
            if token.isSymbol("||") { hasConcatenation = true }
            if token.isSymbol("->") || token.isSymbol("->>") { hasJSONArrow = true }
            if Self.comparisonSymbols.contains(token.text) && token.kind == .symbol { hasBoolean = true }
            if let keyword = token.keyword, Self.booleanWords.contains(keyword) { hasBoolean = true }
            if token.kind == .symbol && Self.bitwiseSymbols.contains(token.text) { hasBitwise = true }
            if token.kind == .symbol && Self.arithmeticSymbols.contains(token.text) && index != tokens.startIndex {
                let previous = tokens[index - 1]
                // A binary operator follows an operand, not another operator.
                if !(previous.kind == .symbol && !previous.isSymbol(")"))
                    && !(previous.keyword.map(Self.booleanWords.contains) ?? false)
                {
                    hasArithmetic = true
                    if token.text == "%" { hasModulo = true }
                }
            }
        }
        if hasBoolean { return Inferred(type: "INTEGER", isNeverNull: false) }
        if hasConcatenation { return Inferred(type: "TEXT", isNeverNull: false) }
        if hasJSONArrow { return nil }
        if hasBitwise || hasModulo { return Inferred(type: "INTEGER", isNeverNull: false) }
        if hasArithmetic {
            let operands = tokens.splitAtTopLevel { $0.kind == .symbol && Self.arithmeticSymbols.contains($0.text) }
                .filter { !$0.isEmpty }
            let types = operands.map { infer($0, in: select) }
            let affinities = types.map { $0.map { TableSchema.Affinity(declaredType: $0.type) } }
            let neverNull = types.allSatisfy { $0?.isNeverNull == true }
            if affinities.contains(.real) { return Inferred(type: "REAL", isNeverNull: neverNull) }
            if affinities.allSatisfy({ $0 == .integer }) { return Inferred(type: "INTEGER", isNeverNull: neverNull) }
            return Inferred(type: "NUMERIC", isNeverNull: false)
        }

        let first = tokens[tokens.startIndex]
        // Unary minus or plus.
        if first.isSymbol("-") || first.isSymbol("+") {
            return infer(tokens.dropFirst(), in: select)
        }
        if tokens.count == 1 {
            switch first.kind {
            case .integer: return Inferred(type: "INTEGER", isNeverNull: true)
            case .real: return Inferred(type: "REAL", isNeverNull: true)
            case .string: return Inferred(type: "TEXT", isNeverNull: true)
            case .blob: return Inferred(type: "BLOB", isNeverNull: true)
            case .parameter, .symbol: return nil
            case .word, .quotedIdentifier:
                switch first.keyword {
                case "NULL": return nil
                case "TRUE", "FALSE": return Inferred(type: "INTEGER", isNeverNull: true)
                case "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME":
                    return Inferred(type: "TEXT", isNeverNull: true)
                default: return column(nil, first.text, in: select)
                }
            }
        }
        // table.column or schema.table.column
        if tokens.count == 3, tokens[tokens.startIndex + 1].isSymbol("."), first.isName,
            tokens[tokens.startIndex + 2].isName
        {
            return column(first.text, tokens[tokens.startIndex + 2].text, in: select)
        }
        if tokens.count == 5, tokens[tokens.startIndex + 3].isSymbol("."), tokens[tokens.startIndex + 1].isSymbol(".") {
            return column(tokens[tokens.startIndex + 2].text, tokens[tokens.startIndex + 4].text, in: select)
        }
        if first.isKeyword("CASE") { return inferCase(tokens, in: select) }
        if first.isKeyword("CAST"), tokens.count >= 4 {
            let inner = tokens.dropFirst().dropFirst().dropLast()
            guard let asIndex = inner.lastIndex(where: { $0.isKeyword("AS") }) else { return nil }
            let typeTokens = inner[(asIndex + 1)...]
            let typeName = SQLTypeText.render(typeTokens)
            guard !typeName.isEmpty else { return nil }
            let operand = infer(inner[inner.startIndex..<asIndex], in: select)
            return Inferred(type: typeName, isNeverNull: operand?.isNeverNull ?? false)
        }
        // A function call: name ( args ) [FILTER (…)] [OVER …]
        if first.isName, tokens.count >= 3, tokens[tokens.startIndex + 1].isSymbol("(") {
            return inferFunction(tokens, in: select)
        }
        return nil
    }

    func inferCase(_ tokens: Tokens, in select: SelectCore) -> Inferred? {
        // Branch results: after THEN or ELSE at CASE depth 1, up to the next WHEN/ELSE/END.
        var results: [Tokens] = []
        var depth = 0
        var caseDepth = 0
        var start: Int?
        for index in tokens.indices {
            let token = tokens[index]
            if token.isSymbol("(") { depth += 1 }
            if token.isSymbol(")") { depth -= 1 }
            guard depth == 0 else { continue }
            if token.isKeyword("CASE") {
                caseDepth += 1
                continue
            }
            if caseDepth == 1 && (token.isKeyword("WHEN") || token.isKeyword("ELSE") || token.isKeyword("END")) {
                if let begin = start { results.append(tokens[begin..<index]) }
                start = nil
            }
            if token.isKeyword("END") { caseDepth -= 1 }
            if caseDepth == 1 && (token.isKeyword("THEN") || token.isKeyword("ELSE")) { start = index + 1 }
        }
        let hasElse = tokens.contains { $0.isKeyword("ELSE") }
        let types = results.map { infer($0, in: select) }
        guard let combined = combine(types.compactMap { $0 }) else { return nil }
        let neverNull = hasElse && types.allSatisfy { $0?.isNeverNull == true }
        return Inferred(type: combined.type, isNeverNull: neverNull)
    }

    func inferFunction(_ tokens: Tokens, in select: SelectCore) -> Inferred? {
        let name = tokens[tokens.startIndex].text.uppercased()
        // Arguments: between the first "(" and its matching ")".
        var depth = 0
        var close: Int?
        for index in tokens.indices.dropFirst() {
            if tokens[index].isSymbol("(") { depth += 1 }
            if tokens[index].isSymbol(")") {
                depth -= 1
                if depth == 0 {
                    close = index
                    break
                }
            }
        }
        guard let close else { return nil }
        var argumentTokens = tokens[(tokens.startIndex + 2)..<close]
        if let first = argumentTokens.first, first.isKeyword("DISTINCT") { argumentTokens = argumentTokens.dropFirst() }
        let arguments = argumentTokens.isEmpty ? [] : argumentTokens.splitAtTopLevel { $0.isSymbol(",") }
        func argument(_ index: Int) -> Inferred? {
            index < arguments.count ? infer(arguments[index], in: select) : nil
        }
        switch name {
        case "COUNT":
            return Inferred(type: "INTEGER", isNeverNull: true)
        case "SUM":
            let type = argument(0).map { TableSchema.Affinity(declaredType: $0.type) }
            return Inferred(type: type == .integer ? "INTEGER" : "REAL", isNeverNull: false)
        case "TOTAL":
            return Inferred(type: "REAL", isNeverNull: true)
        case "MIN", "MAX":
            if arguments.count == 1 {
                return argument(0).map { Inferred(type: $0.type, isNeverNull: false) }
            }
            return combine((0..<arguments.count).compactMap(argument))
        case "ABS", "LIKELY", "UNLIKELY", "LIKELIHOOD", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE":
            return argument(0).map { Inferred(type: $0.type, isNeverNull: false) }
        case "NULLIF":
            return argument(0).map { Inferred(type: $0.type, isNeverNull: false) }
        case "COALESCE", "IFNULL":
            let types = (0..<arguments.count).map(argument)
            guard let combined = combine(types.compactMap { $0 }) else { return nil }
            return Inferred(type: combined.type, isNeverNull: types.contains { $0?.isNeverNull == true })
        case "IIF":
            return combine([argument(1), argument(2)].compactMap { $0 }).map {
                Inferred(type: $0.type, isNeverNull: false)
            }
        default:
            if Self.textFunctions.contains(name) { return Inferred(type: "TEXT", isNeverNull: false) }
            if Self.integerFunctions.contains(name) { return Inferred(type: "INTEGER", isNeverNull: false) }
            if Self.realFunctions.contains(name) { return Inferred(type: "REAL", isNeverNull: false) }
            if Self.blobFunctions.contains(name) { return Inferred(type: "BLOB", isNeverNull: false) }
            return nil
        }
    }

    /// One type for several: equal affinities keep the first type; integers and reals give REAL.
    func combine(_ types: [Inferred]) -> Inferred? {
        guard let first = types.first else { return nil }
        let affinities = Set(types.map { TableSchema.Affinity(declaredType: $0.type) })
        let neverNull = types.allSatisfy(\.isNeverNull)
        if affinities.count == 1 { return Inferred(type: first.type, isNeverNull: neverNull) }
        if affinities == [.integer, .real] { return Inferred(type: "REAL", isNeverNull: neverNull) }
        return nil
    }

    /// The type of `qualifier.name` (or an unqualified `name`) through the `FROM` clause.
    func column(_ qualifier: String?, _ name: String, in select: SelectCore) -> Inferred? {
        var candidates: [String] = []
        if let qualifier {
            if let source = select.sources.first(where: { ($0.alias ?? $0.name).caseInsensitiveEquals(qualifier) }) {
                candidates = [source.name]
            } else {
                candidates = [qualifier]
            }
        } else {
            candidates = select.sources.map(\.name)
        }
        for source in candidates {
            if let table = schema.table(named: source), let column = table.column(named: name) {
                if column.declaredType.isEmpty { return nil }
                return Inferred(type: column.declaredType, isNeverNull: false)
            }
            if let view = views.first(where: { $0.name.caseInsensitiveEquals(source) }),
                let column = view.columns.first(where: { $0.name.caseInsensitiveEquals(name) })
            {
                return column.typeName.map { Inferred(type: $0, isNeverNull: false) }
            }
        }
        return nil
    }
}

/// Renders type-name tokens (`VARCHAR ( 10 )`) as SQL text (`VARCHAR(10)`).
enum SQLTypeText {
    static func render(_ tokens: ArraySlice<SQLTokenizer.Token>) -> String {
        var text = ""
        var previous: SQLTokenizer.Token?
        for token in tokens {
            if let previous, token.isName || token.kind == .integer || token.kind == .real,
                previous.isName || previous.kind == .integer
            {
                text += " "
            }
            text += token.kind == .word ? token.text.uppercased() : token.text
            previous = token
        }
        return text
    }
}
