import CSQLite
import Foundation
import SlateCore
import SlateQuery

/// Prepares each named statement with SQLite against the schema and describes it as a
/// ``NamedQuery``: parameters, result columns, their types and nullability.
struct QueryAnalyzer {
    typealias Token = SQLTokenizer.Token
    typealias Tokens = ArraySlice<Token>

    let db: Database
    let schema: DatabaseSchema

    /// The named statements of `entries` (labelled ones), described.
    ///
    /// - Throws: ``SchemaError/invalidQuery(file:line:name:message:)`` for the first statement
    ///   SQLite refuses, a positional parameter, a parameter whose type cannot be told, or a name
    ///   used twice.
    func analyze(_ entries: [(file: String, entry: ScriptEntry)]) throws -> [NamedQuery] {
        var queries: [NamedQuery] = []
        var names: [String: (file: String, line: Int)] = [:]
        for (file, entry) in entries {
            guard let name = entry.name else { continue }
            if let previous = names[name.lowercased()] {
                throw SchemaError.invalidQuery(
                    file: file, line: entry.nameLine, name: name,
                    message: "the name is already used by the query at \(previous.file):\(previous.line)")
            }
            names[name.lowercased()] = (file, entry.nameLine)
            queries.append(try analyze(entry, name: name, file: file))
        }
        return queries
    }

    // MARK: One statement

    func analyze(_ entry: ScriptEntry, name: String, file: String) throws -> NamedQuery {
        let statement = entry.statement
        func fail(_ message: String, at offset: Int? = nil) -> SchemaError {
            var line = statement.line
            if let offset {
                line += statement.text.utf8.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
            return SchemaError.invalidQuery(file: file, line: line, name: name, message: message)
        }

        // Annotations (`:id AS INTEGER`) are ours, not SQL: SQLite sees blanks in their place.
        let tokens = SQLTokenizer.tokenize(statement.text)
        let annotations = try Self.annotations(in: tokens) { message, offset in fail(message, at: offset) }
        var blanked = Array(statement.text.utf8)
        for annotation in annotations {
            for index in annotation.range where blanked[index] != 0x0A { blanked[index] = 0x20 }
        }
        let runSQL = String(decoding: blanked, as: UTF8.self)
        let cleanSQL = Self.removing(annotations.map(\.range), from: statement.text)

        // Prepare.
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(db.handle, runSQL, -1, 0, &handle, nil)
        defer { sqlite3_finalize(handle) }
        guard code == SQLITE_OK, let handle else {
            let message = String(cString: sqlite3_errmsg(db.handle))
            let offset = Int(sqlite3_error_offset(db.handle))
            throw fail("SQLite refused it (\(Self.codeName(code))): \(message)", at: offset >= 0 ? offset : nil)
        }

        // Parameters, as SQLite numbers them.
        var parameterNames: [String] = []
        for index in 1...max(1, Int(sqlite3_bind_parameter_count(handle)))
        where sqlite3_bind_parameter_count(handle) > 0 {
            guard let cName = sqlite3_bind_parameter_name(handle, Int32(index)) else {
                throw fail(
                    "parameter \(index) has no name: write named parameters (:name) so the Swift function can label them"
                )
            }
            let sqlName = String(cString: cName)
            guard let prefix = sqlName.first, ":@$".contains(prefix), SQLScript.isQueryName(String(sqlName.dropFirst()))
            else {
                let offset = tokens.first { $0.kind == .parameter && $0.text == sqlName }?.start
                throw fail(
                    "parameter \(sqlName) is not a named parameter like :name (letters, digits and _)", at: offset)
            }
            parameterNames.append(sqlName)
        }
        var bareNames: [String: String] = [:]
        for sqlName in parameterNames {
            let bare = String(sqlName.dropFirst()).lowercased()
            if let other = bareNames[bare] {
                throw fail("parameters \(other) and \(sqlName) differ only by their prefix: use one spelling")
            }
            bareNames[bare] = sqlName
        }

        // What SQLite reports of the result columns.
        let cleanTokens = SQLTokenizer.tokenize(cleanSQL)[...]
        let annotated = Dictionary(annotations.map { ($0.parameter, $0) }, uniquingKeysWith: { first, _ in first })
        let structure = QueryStructure(schema: schema) { sqlName in
            guard let annotation = annotated[sqlName] else { return .unknown }
            return .value(annotation.type, neverNull: !annotation.isOptional)
        }
        let facts = structure.resultColumns(of: cleanTokens)
        let columnCount = Int(sqlite3_column_count(handle))
        var columns: [NamedQuery.ResultColumn] = []
        for index in 0..<columnCount {
            let position = Int32(index)
            let sqlName = sqlite3_column_name(handle, position).map { String(cString: $0) } ?? "column\(index + 1)"
            let declaredType = sqlite3_column_decltype(handle, position).map { String(cString: $0) }
            let table = sqlite3_column_table_name(handle, position).map { String(cString: $0) }
            let origin = sqlite3_column_origin_name(handle, position).map { String(cString: $0) }
            let databaseName = sqlite3_column_database_name(handle, position).map { String(cString: $0) } ?? "main"
            let fact = facts.flatMap { $0.count == columnCount ? $0[index].fact : nil }
            var neverNull = fact?.isNeverNull ?? false
            if neverNull, let table, let origin {
                // The analysis must have followed the value to the column SQLite names, and SQLite
                // must say that column cannot hold NULL.
                let followed = fact?.origin?.matches(table: table, column: origin) ?? false
                neverNull = followed && columnIsNeverNull(database: databaseName, table: table, column: origin)
            }
            var name = sqlName
            var override: NamedQuery.NullabilityOverride?
            if name.count > 1, let last = name.last, last == "!" || last == "?" {
                override = last == "!" ? .nonNull : .nullable
                name.removeLast()
            }
            let type = declaredType.flatMap { $0.trimmingSQLSpace.isEmpty ? nil : $0 }
            columns.append(
                NamedQuery.ResultColumn(
                    name: name, sqlName: sqlName, declaredType: type ?? fact?.type,
                    isInferredType: type == nil && fact?.type != nil,
                    table: table, column: origin,
                    isNullable: override.map { $0 == .nullable } ?? !neverNull, nullabilityOverride: override))
        }

        // Parameter types.
        let inference = ParameterInference(tokens: cleanTokens, schema: schema, structure: structure)
        var parameters: [NamedQuery.Parameter] = []
        for sqlName in parameterNames {
            let bare = String(sqlName.dropFirst())
            if let annotation = annotated[sqlName] {
                parameters.append(
                    NamedQuery.Parameter(
                        name: bare, sqlName: sqlName, declaredType: annotation.type, isOptional: annotation.isOptional,
                        origin: "annotated `\(annotation.type)\(annotation.isOptional ? "?" : "")`"))
                continue
            }
            let offset = cleanTokens.first { $0.kind == .parameter && $0.text == sqlName }?.start
            let uses = inference.uses(of: sqlName)
            guard let first = uses.first else {
                throw fail(
                    "cannot tell the type of parameter \(sqlName): it is not compared with, assigned to or inserted into a column. "
                        + "Annotate it, for example `\(sqlName) AS INTEGER` (or TEXT, REAL, BLOB …; `\(sqlName) AS TEXT?` when it may be NULL)",
                    at: offset.map { cleanOffsetToOriginal($0, annotations: annotations) })
            }
            let affinities = Set(uses.map { TableSchema.Affinity(declaredType: $0.declaredType) })
            if affinities.count > 1 {
                let list = uses.map { "\($0.declaredType) (\($0.origin))" }.joined(separator: ", ")
                throw fail(
                    "parameter \(sqlName) is used as values of different types: \(list). Annotate it, for example `\(sqlName) AS TEXT`",
                    at: offset.map { cleanOffsetToOriginal($0, annotations: annotations) })
            }
            parameters.append(
                NamedQuery.Parameter(
                    name: bare, sqlName: sqlName, declaredType: first.declaredType, table: first.table,
                    column: first.column,
                    isOptional: uses.contains(where: \.isOptional), origin: first.origin))
        }

        // Where the parameters are in the SQL as generated, and a write's RETURNING taken apart.
        let sql = Self.trimmedStatement(cleanSQL)
        let finalTokens = SQLTokenizer.tokenize(sql)[...]
        for index in parameters.indices {
            parameters[index].ranges = finalTokens.filter {
                $0.kind == .parameter && $0.text == parameters[index].sqlName
            }
            .map { $0.start..<$0.end }
        }
        return NamedQuery(
            name: name, file: file, line: entry.nameLine, documentation: entry.documentation, sql: sql,
            parameters: parameters, columns: columns, isReadOnly: sqlite3_stmt_readonly(handle) != 0,
            returning: Self.returningClause(
                of: sql, tokens: finalTokens, columnCount: columnCount, structure: structure))
    }

    /// The statement before `RETURNING` and the expressions after it, for a write whose
    /// `RETURNING` list gives `columnCount` columns.
    static func returningClause(of sql: String, tokens: Tokens, columnCount: Int, structure: QueryStructure)
        -> NamedQuery.ReturningClause?
    {
        guard columnCount > 0, let target = structure.writeTarget(of: tokens),
            let returning = tokens.firstTopLevelIndex(where: { $0.isKeyword("RETURNING") })
        else { return nil }
        let bytes = Array(sql.utf8)
        func text(_ slice: Tokens) -> String {
            guard let first = slice.first, let last = slice.last else { return "" }
            return String(decoding: bytes[first.start..<last.end], as: UTF8.self)
        }
        let columns =
            (structure.schema.table(named: target.name) ?? structure.schema.virtualTable(named: target.name))?
            .columns.filter { !$0.isHidden }.map { "\"" + $0.name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            ?? []
        var expressions: [String] = []
        var ranges: [Range<Int>?] = []
        for item in tokens[(returning + 1)...].splitTopLevel(on: ",") {
            if item.count == 1 && item.first?.isSymbol("*") == true
                || item.count == 3 && item.last?.isSymbol("*") == true
            {
                expressions += columns
                ranges += columns.map { _ in nil }
            } else {
                let expression = QueryStructure.splitAlias(item).0
                guard let first = expression.first, let last = expression.last else { return nil }
                expressions.append(text(expression))
                ranges.append(first.start..<last.end)
            }
        }
        guard expressions.count == columnCount else { return nil }
        return NamedQuery.ReturningClause(
            keywordOffset: tokens[returning].start, expressions: expressions, expressionRanges: ranges)
    }

    /// Whether SQLite says `table.column` cannot hold `NULL`: `NOT NULL`, the rowid (or its
    /// alias), or a key column of a `WITHOUT ROWID` table (`sqlite3_table_column_metadata`).
    func columnIsNeverNull(database: String, table: String, column: String) -> Bool {
        var declaredType: UnsafePointer<CChar>?
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0
        var primaryKey: Int32 = 0
        var autoIncrement: Int32 = 0
        let code = sqlite3_table_column_metadata(
            db.handle, database, table, column, &declaredType, &collation, &notNull, &primaryKey, &autoIncrement)
        guard code == SQLITE_OK else { return false }
        if notNull != 0 { return true }
        guard primaryKey != 0 else { return false }
        if ["ROWID", "OID", "_ROWID_"].contains(column.uppercased()) { return true }
        guard let schemaTable = schema.table(named: table) else { return false }
        return schemaTable.isWithoutRowID || schemaTable.column(named: column)?.isRowIDAlias == true
    }

    /// An offset in the cleaned SQL as an offset in the original text, for error lines.
    func cleanOffsetToOriginal(_ offset: Int, annotations: [Annotation]) -> Int {
        var result = offset
        for annotation in annotations.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where annotation.range.lowerBound <= result {
            result += annotation.range.count
        }
        return result
    }

    /// The statement without its trailing semicolon.
    static func trimmedStatement(_ sql: String) -> String {
        var text = sql.trimmingSQLSpace
        while text.hasSuffix(";") { text = String(text.dropLast()).trimmingSQLSpace }
        return text
    }

    static func codeName(_ code: Int32) -> String {
        String(cString: sqlite3_errstr(code))
    }

    // MARK: Annotations

    /// `:name AS TYPE` or `:name AS TYPE?` after a parameter.
    struct Annotation {
        /// The parameter as written: `:albumId`.
        var parameter: String
        /// The SQL type: `INTEGER`, `VARCHAR(10)`.
        var type: String
        var isOptional: Bool
        /// The bytes of ` AS TYPE?` in the statement, leading space included.
        var range: Range<Int>
    }

    /// Words that start a type annotation after `AS`.
    static let typeWords: Set<String> = [
        "INTEGER", "INT", "BIGINT", "SMALLINT", "TINYINT", "MEDIUMINT", "INT2", "INT4", "INT8", "UNSIGNED", "REAL",
        "DOUBLE",
        "FLOAT", "NUMERIC", "DECIMAL", "BOOLEAN", "BOOL", "DATE", "DATETIME", "TIMESTAMP", "TEXT", "VARCHAR",
        "NVARCHAR",
        "CHAR", "NCHAR", "CHARACTER", "VARYING", "CLOB", "BLOB", "UUID", "GUID", "JSON",
    ]

    static func annotations(in tokens: [Token], fail: (String, Int) -> SchemaError) throws -> [Annotation] {
        var result: [Annotation] = []
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            let token = tokens[index]
            guard token.kind == .parameter, token.text != "?", index + 2 < tokens.count,
                tokens[index + 1].isKeyword("AS"),
                tokens[index + 2].kind == .word, typeWords.contains(tokens[index + 2].text.uppercased())
            else { continue }
            var end = index + 2
            while end + 1 < tokens.count, tokens[end + 1].kind == .word,
                typeWords.contains(tokens[end + 1].text.uppercased())
            { end += 1 }
            if end + 1 < tokens.count, tokens[end + 1].isSymbol("(") {
                var close = end + 1
                while close < tokens.count, !tokens[close].isSymbol(")") { close += 1 }
                guard close < tokens.count else {
                    throw fail("the annotation of \(token.text) has no closing parenthesis", tokens[end + 1].start)
                }
                end = close
            }
            var isOptional = false
            if end + 1 < tokens.count, tokens[end + 1].kind == .parameter, tokens[end + 1].text == "?",
                tokens[end + 1].start == tokens[end].end
            {
                isOptional = true
                end += 1
            }
            let typeTokens = tokens[(index + 2)...(isOptional ? end - 1 : end)]
            result.append(
                Annotation(
                    parameter: token.text, type: SQLTypeText.render(typeTokens), isOptional: isOptional,
                    range: token.end..<tokens[end].end))
            index = end
        }
        return result
    }

    /// `text` without the byte ranges (`ranges` do not overlap).
    static func removing(_ ranges: [Range<Int>], from text: String) -> String {
        guard !ranges.isEmpty else { return text }
        var bytes = Array(text.utf8)
        for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) { bytes.removeSubrange(range) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

// MARK: - Parameter types

/// Where a parameter's type comes from: the column it is compared with, assigned to or inserted
/// into, found around each place the parameter appears.
struct ParameterInference {
    typealias Token = SQLTokenizer.Token
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
    let structure: QueryStructure

    /// The uses of parameter `sqlName` that tell its type.
    func uses(of sqlName: String) -> [Use] {
        var result: [Use] = []
        for index in tokens.indices where tokens[index].kind == .parameter && tokens[index].text == sqlName {
            if let use = limitUse(at: index) ?? castUse(at: index) ?? assignmentUse(at: index) ?? insertUse(at: index)
                ?? comparisonUse(at: index) ?? betweenUse(at: index) ?? inListUse(at: index)
            {
                result.append(use)
            }
        }
        return result
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
        guard tokens[position].isKeyword("SET"), let target = structure.writeTarget(of: tokens),
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
        guard let target = structure.writeTarget(of: tokens), let first = tokens.first,
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
                    QueryStructure.clauseKeywords.contains($0.keyword ?? "") || $0.isKeyword("ON")
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
        var sources = structure.seenSources
        if let target = structure.writeTarget(of: tokens),
            let source = structure.tableSource(named: target.name, alias: target.alias, ctes: [:])
        {
            sources.append(source)
        }
        var found: [(source: QueryStructure.Source, column: QueryStructure.NamedColumn)] = []
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
                        QueryStructure.NamedColumn(
                            name: origin.column,
                            fact: QueryStructure.Fact(type: "INTEGER", isNeverNull: true, origin: origin))
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
