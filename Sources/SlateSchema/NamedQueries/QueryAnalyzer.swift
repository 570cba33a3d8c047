import CSQLite
import Foundation
import SlateCore
import SlateQuery

/// Prepares each named statement with SQLite against the schema and describes it as a
/// ``NamedQuery``: parameters, result columns, their types and nullability.
struct QueryAnalyzer {
    typealias Token = SQLLexer.Lexeme
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
        var statement = entry.statement
        func fail(_ message: String, at offset: Int? = nil) -> SchemaError {
            var line = statement.line
            if let offset {
                line += statement.text.utf8.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
            return SchemaError.invalidQuery(file: file, line: line, name: name, message: message)
        }
        func annotations(of text: String) throws -> [ParameterAnnotation] {
            try ParameterAnnotation.annotations(in: SQLLexer.lexemes(of: text)) { message, offset in
                fail(message, at: offset)
            }
        }

        // Positional parameters (`?`, `?2`) get names (`:id`), and the statement is read as if
        // written with them. `spellings` gives back what the user wrote, for messages.
        var spellings: [String: String] = [:]
        if let positional = PositionalParameters.naming(
            statement.text, annotations: try annotations(of: statement.text).map(\.range), schema: schema)
        {
            statement.text = positional.text
            spellings = positional.spellings
        }
        func spelled(_ sqlName: String) -> String {
            spellings[sqlName].map { "\($0) (named \(sqlName.dropFirst()) in Swift)" } ?? sqlName
        }

        // Annotations (`:id AS INTEGER`) are ours, not SQL: SQLite sees blanks in their place.
        let tokens = SQLLexer.lexemes(of: statement.text)
        var annotations = try annotations(of: statement.text)
        func blanking(_ annotations: [ParameterAnnotation]) -> String {
            var blanked = Array(statement.text.utf8)
            for annotation in annotations {
                for index in annotation.range where blanked[index] != 0x0A { blanked[index] = 0x20 }
            }
            return String(decoding: blanked, as: UTF8.self)
        }

        // Prepare. When the statement only prepares with what looked like annotations left in, it
        // is SQL: annotations never break a statement SQLite accepts as written.
        var handle: OpaquePointer?
        defer { sqlite3_finalize(handle) }
        var code = sqlite3_prepare_v3(db.handle, blanking(annotations), -1, 0, &handle, nil)
        if code != SQLITE_OK, !annotations.isEmpty {
            let message = String(cString: sqlite3_errmsg(db.handle))
            let offset = sqlite3_error_offset(db.handle)
            sqlite3_finalize(handle)
            handle = nil
            if sqlite3_prepare_v3(db.handle, statement.text, -1, 0, &handle, nil) == SQLITE_OK {
                annotations = []
                code = SQLITE_OK
            } else {
                sqlite3_finalize(handle)
                handle = nil
                throw fail(
                    "SQLite refused it (\(Self.codeName(code))): \(message)", at: offset >= 0 ? Int(offset) : nil)
            }
        }
        guard code == SQLITE_OK, let handle else {
            let message = String(cString: sqlite3_errmsg(db.handle))
            let offset = Int(sqlite3_error_offset(db.handle))
            throw fail(
                "SQLite refused it (\(Self.codeName(code))): \(message)"
                    + doubleQuotedStringHint(blanking(annotations), message: message),
                at: offset >= 0 ? offset : nil)
        }
        let cleanSQL = Self.removing(annotations.map(\.range), from: statement.text)

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
            guard let prefix = sqlName.first, ":@$".contains(prefix),
                ScriptEntry.isQueryName(String(sqlName.dropFirst()))
            else {
                let offset = tokens.first { $0.kind == .parameter && $0.text == sqlName }?.start
                throw fail(
                    "parameter \(spelled(sqlName)) is not a named parameter like :name (letters, digits and _)",
                    at: offset)
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
        let cleanTokens = SQLLexer.lexemes(of: cleanSQL)[...]
        let annotated = Dictionary(annotations.map { ($0.parameter, $0) }, uniquingKeysWith: { first, _ in first })
        let types = TypeInference(schema: schema) { sqlName in
            guard let annotation = annotated[sqlName] else { return .unknown }
            return .value(annotation.type, neverNull: !annotation.isOptional)
        }
        let facts = types.resultColumns(of: cleanTokens)
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
        let parameterTypes = ParameterInference(tokens: cleanTokens, schema: schema, types: types)
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
            let uses = parameterTypes.uses(of: sqlName)
            guard let first = uses.first else {
                let written = spellings[sqlName] ?? sqlName
                throw fail(
                    "cannot tell the type of parameter \(spelled(sqlName)): it is not compared with, assigned to or inserted into a column. "
                        + "Annotate it, for example `\(written) AS INTEGER` (or TEXT, REAL, BLOB …; `\(written) AS TEXT?` when it may be NULL)",
                    at: offset.map { cleanOffsetToOriginal($0, annotations: annotations) })
            }
            let affinities = Set(uses.map { TableSchema.Affinity(declaredType: $0.declaredType) })
            if affinities.count > 1 {
                let list = uses.map { "\($0.declaredType) (\($0.origin))" }.joined(separator: ", ")
                throw fail(
                    "parameter \(spelled(sqlName)) is used as values of different types: \(list). "
                        + "Annotate it, for example `\(spellings[sqlName] ?? sqlName) AS TEXT`",
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
        let finalTokens = SQLLexer.lexemes(of: sql)[...]
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
                of: sql, tokens: finalTokens, columnCount: columnCount, types: types))
    }

    /// The statement before `RETURNING` and the expressions after it, for a write whose
    /// `RETURNING` list gives `columnCount` columns.
    static func returningClause(of sql: String, tokens: Tokens, columnCount: Int, types: TypeInference)
        -> NamedQuery.ReturningClause?
    {
        guard columnCount > 0, let target = types.writeTarget(of: tokens),
            let returning = tokens.firstTopLevelIndex(where: { $0.isKeyword("RETURNING") })
        else { return nil }
        let bytes = Array(sql.utf8)
        func text(_ slice: Tokens) -> String {
            guard let first = slice.first, let last = slice.last else { return "" }
            return String(decoding: bytes[first.start..<last.end], as: UTF8.self)
        }
        let columns =
            (types.schema.table(named: target.name) ?? types.schema.virtualTable(named: target.name))?
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
                let expression = TypeInference.splitAlias(item).0
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
    func cleanOffsetToOriginal(_ offset: Int, annotations: [ParameterAnnotation]) -> Int {
        var result = offset
        for annotation in annotations.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where annotation.range.lowerBound <= result {
            result += annotation.range.count
        }
        return result
    }

    /// Why a statement SQLite refused would prepare with double-quoted string literals accepted,
    /// which Slate refuses in the queries users write; `""` when that is not why.
    func doubleQuotedStringHint(_ sql: String, message: String) -> String {
        var handle: OpaquePointer?
        let code = DoubleQuotedStrings.accepting(on: db) { sqlite3_prepare_v3(db.handle, sql, -1, 0, &handle, nil) }
        sqlite3_finalize(handle)
        guard code == SQLITE_OK else { return "" }
        // "no such column: canine" names the culprit: the query's own `"canine"`, or a view's.
        let missing = message.range(of: "no such column: ").map { String(message[$0.upperBound...]) }
        if let missing,
            let lexeme = SQLLexer.lexemes(of: sql).first(where: { $0.kind == .quotedIdentifier && $0.text == missing })
        {
            return ". Queries do not take double-quoted string literals (\"\(lexeme.text)\"): write strings in "
                + "single quotes ('\(lexeme.text)')"
        }
        return ". A view it reads uses double-quoted string literals, which Slate's connections refuse: "
            + "write that view's strings in single quotes"
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

    /// `text` without the byte ranges (`ranges` do not overlap).
    static func removing(_ ranges: [Range<Int>], from text: String) -> String {
        guard !ranges.isEmpty else { return text }
        var bytes = Array(text.utf8)
        for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) { bytes.removeSubrange(range) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
