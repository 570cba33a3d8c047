import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery
import SlateSchema

/// A named query as both styles render it: names and Swift types decided once.
struct QueryModel {
    /// What the query returns.
    enum Result {
        /// Rows of several columns: a generated struct.
        case rows
        /// Rows of one column: its values.
        case values
        /// No rows: a statement to execute.
        case none
    }

    var query: NamedQuery
    /// The Swift function name: `tracksOfAlbum`.
    var functionName: String
    /// The stem of the raw functions: `tracks_of_album`.
    var rawStem: String
    /// The row struct's name (`TracksOfAlbumRow`), for ``Result/rows``.
    var rowTypeName: String
    /// The row struct as written in code: qualified when it is nested in the database type.
    var qualifiedRowTypeName: String
    /// The parameters: `swiftName` is the label, `sqlName` the parameter as written without prefix.
    var parameters: [PropertyModel]
    /// The parameters as written in SQL, prefix included, matching ``parameters``.
    var parameterSQLNames: [String]
    /// The result columns.
    var columns: [PropertyModel]
    var result: Result
    /// The SQL the raw style runs: date parameters converted to their storage, date columns read
    /// as Unix seconds by SQLite (see `RawDateSQL`).
    var rawSQL: String

    /// The Swift type of one row: the struct, or the single column's type.
    var elementType: String {
        switch result {
        case .rows: qualifiedRowTypeName
        case .values: columns[0].typeText
        case .none: "Void"
        }
    }
}

extension GenerationModel {
    /// Names the functions and types of named queries cannot take on the database type.
    static let reservedQueryFunctionNames: Set<String> = [
        "tables", "open", "bundled", "resourceName", "resourceExtension", "verifySchema", "init", "self", "Type",
    ]

    /// Builds the models of `queries`.
    ///
    /// - Throws: ``GeneratorError/invalidOption(_:)`` when a query's name cannot be a Swift
    ///   function name.
    mutating func addQueries(_ queries: [NamedQuery]) throws {
        let mapping = TypeMapping(configuration: configuration)
        var functionNames = NameRegistry(reserved: Self.reservedQueryFunctionNames.union(Naming.keywords))
        var typeNames = NameRegistry(
            reserved: Self.reservedTypeNames.union([databaseTypeName]).union(records.map(\.typeName)))
        var rawNames = NameRegistry(reserved: reservedRawFunctionNames)
        for query in queries {
            let functionName = functionNames.claim(Naming.propertyName(query.name))
            let rowTypeName = typeNames.claim(Naming.typeName(query.name) + "Row")
            // The stem names two functions: `<stem>` and `<stem>_one`.
            let base = configuration.rawFunctionPrefix + Naming.snakeName(query.name)
            var candidate = base
            var counter = 1
            while rawNames.contains(candidate) || rawNames.contains(candidate + "_one") {
                counter += 1
                candidate = base + "\(counter)"
            }
            _ = rawNames.claim(candidate)
            _ = rawNames.claim(candidate + "_one")
            let rawStem = String(candidate.dropFirst(configuration.rawFunctionPrefix.count))
            let nestsRows = configuration.style != .raw || configuration.nestRecords

            // Parameters: labels unique, never a name the functions use themselves.
            // The raw functions' own parameters and locals.
            var labels = NameRegistry(reserved: ["db", "statement", "body", "row", "code", "prepared"])
            var parameters: [PropertyModel] = []
            for parameter in query.parameters {
                var type = mapping.swiftType(
                    table: parameter.table ?? "", column: parameter.column ?? "", declaredType: parameter.declaredType)
                if !usesSlate && type == .sqlValue { type = .string }
                var property = Self.queryProperty(
                    sqlName: parameter.name, type: type, isOptional: parameter.isOptional,
                    declaredType: parameter.declaredType,
                    configuration: configuration)
                let label = Naming.propertyName(parameter.name)
                property.swiftName = labels.claim(Naming.keywords.contains(label) ? label + "Value" : label)
                parameters.append(property)
            }

            // Result columns.
            var propertyNames = NameRegistry(reserved: Self.reservedPropertyNames.union(["init"]))
            var columns: [PropertyModel] = []
            for column in query.columns {
                var type = mapping.swiftType(
                    table: column.table ?? "", column: column.column ?? column.name, declaredType: column.declaredType)
                if !usesSlate && type == .sqlValue { type = .string }
                var property = Self.queryProperty(
                    sqlName: column.sqlName, type: type, isOptional: column.isNullable,
                    declaredType: column.declaredType ?? "",
                    configuration: configuration)
                property.isInferredType = column.isInferredType
                var name = Naming.propertyName(column.name)
                if Naming.memberReserved.contains(name) { name += "Value" }
                property.swiftName = propertyNames.claim(name)
                columns.append(property)
            }
            let result: QueryModel.Result = columns.isEmpty ? .none : columns.count == 1 ? .values : .rows
            let rawSQL =
                configuration.style == .slate
                ? query.sql : try Self.rawSQL(of: query, parameters: parameters, columns: columns)
            self.queries.append(
                QueryModel(
                    query: query, functionName: functionName, rawStem: rawStem, rowTypeName: rowTypeName,
                    qualifiedRowTypeName: nestsRows ? "\(databaseTypeName).\(rowTypeName)" : rowTypeName,
                    parameters: parameters, parameterSQLNames: query.parameters.map(\.sqlName), columns: columns,
                    result: result,
                    rawSQL: rawSQL))
        }
    }

    /// The raw style's SQL for `query`: SQLite converts its dates, as for records. A date parameter
    /// becomes the expression storing the number `slateRawBind` binds; date columns are read as
    /// Unix seconds, through a `WITH` around a query, or in the `RETURNING` list of a write.
    ///
    /// - Throws: ``GeneratorError/invalidOption(_:)`` for a statement with date columns that is
    ///   neither a query nor a write with `RETURNING`.
    static func rawSQL(of query: NamedQuery, parameters: [PropertyModel], columns: [PropertyModel]) throws -> String {
        let bytes = Array(query.sql.utf8)
        var replacements: [(range: Range<Int>, text: String)] = []
        for (property, parameter) in zip(parameters, query.parameters) where property.type == .date {
            let text = "(" + RawDateSQL.parameter(reference: parameter.sqlName, storage: property.dateStorage) + ")"
            for range in parameter.ranges where range.upperBound <= bytes.count { replacements.append((range, text)) }
        }
        replacements.sort { $0.range.lowerBound < $1.range.lowerBound }
        /// The SQL of `range` with the date parameters in it converted.
        func converted(_ range: Range<Int>) -> String {
            var result: [UInt8] = []
            var position = range.lowerBound
            for replacement in replacements where range.contains(replacement.range.lowerBound) {
                result += bytes[position..<replacement.range.lowerBound]
                result += Array(replacement.text.utf8)
                position = replacement.range.upperBound
            }
            result += bytes[position..<range.upperBound]
            return String(decoding: result, as: UTF8.self)
        }
        let sql = converted(0..<bytes.count)
        guard columns.contains(where: { $0.type == .date }) else { return sql }
        if let returning = query.returning, returning.keywordOffset <= bytes.count {
            // A write's RETURNING expressions read the changed row: converted where they stand.
            let items = zip(columns, zip(returning.expressions, returning.expressionRanges)).map {
                property, expression in
                let text = expression.1.map(converted) ?? expression.0
                return property.type == .date ? RawDateSQL.read("(" + text + ")", storage: property.dateStorage) : text
            }
            return converted(0..<returning.keywordOffset).trimmingCharacters(in: .whitespacesAndNewlines)
                + " RETURNING "
                + items.joined(separator: ", ")
        }
        guard let first = query.sql.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).first?.uppercased(),
            ["SELECT", "VALUES", "WITH"].contains(first)
        else {
            throw GeneratorError.invalidOption(
                "\(query.file):\(query.line): query \(query.name): the raw style reads Date columns through SQLite's date functions, "
                    + "which it cannot apply to this statement; read the column as text (CAST(… AS TEXT)) or use the slate style"
            )
        }
        // A query: read through a WITH, as records are (see `rawDecodingSQL(of:)`).
        let names: [String] = columns.indices.map { "c\($0 + 1)".sqlQuoted }
        var selected: [String] = []
        for (property, name) in zip(columns, names) {
            selected.append(property.type == .date ? RawDateSQL.read(name, storage: property.dateStorage) : name)
        }
        let head = "WITH slate_raw_rows(" + names.joined(separator: ", ") + ") AS ("
        return head + sql + ") SELECT " + selected.joined(separator: ", ") + " FROM slate_raw_rows"
    }

    /// The names of the raw functions records get, which named queries must not take.
    var reservedRawFunctionNames: Set<String> {
        let prefix = configuration.rawFunctionPrefix
        var names: Set<String> = ["\(prefix)open_\(databaseStem)"]
        for record in records {
            for suffix in ["_find", "_insert", "_update", "_delete"] {
                names.insert(prefix + record.rawSingular + suffix)
            }
            names.insert(prefix + record.rawPlural + "_fetch")
        }
        return names
    }

    static func queryProperty(
        sqlName: String, type: SwiftType, isOptional: Bool, declaredType: String, configuration: GeneratorConfiguration
    ) -> PropertyModel {
        PropertyModel(
            sqlName: sqlName, swiftName: "", type: type, isOptional: isOptional, declaredType: declaredType,
            isInferredType: false, isNotNull: !isOptional, defaultSQL: nil, swiftDefault: nil, primaryKeyPosition: nil,
            isRowIDAlias: false, isAutoIncrement: false, isUnique: false, collation: nil,
            dateStorage: configuration.dateStorage, uuidStorage: configuration.uuidStorage, reference: nil)
    }

    // MARK: Shared text

    /// The DocC lines of a query function: the label's comments, where it is, its SQL, and each
    /// parameter.
    func documentation(of model: QueryModel, lead: String? = nil, returns: String) -> [String] {
        var lines = model.query.documentation.filter { !$0.isEmpty }
        if lines.isEmpty { lines = ["Runs the named query \(SwiftLiteral.codeSpan(model.query.name))."] }
        if let lead { lines += ["", lead] }
        lines.append("")
        let file = URL(fileURLWithPath: model.query.file).lastPathComponent
        lines.append(
            "\(SwiftLiteral.codeSpan(model.query.name)) in \(SwiftLiteral.codeSpan(file)), line \(model.query.line):")
        lines.append("")
        lines.append("```sql")
        lines += model.query.sql.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            String($0).replacingOccurrences(of: "```", with: "'''")
        }
        lines.append("```")
        if !model.parameters.isEmpty {
            lines.append("")
            lines.append("- Parameters:")
            for (parameter, source) in zip(model.parameters, model.query.parameters) {
                let type = SwiftLiteral.codeSpan(source.declaredType)
                let nullability = parameter.isOptional ? "; `nil` binds `NULL`" : ""
                lines.append(
                    "  - \(parameter.swiftName): `\(source.sqlName)`, \(source.origin) (\(type))\(nullability).")
            }
        }
        lines.append("- Returns: \(returns)")
        return lines
    }

    /// The DocC comment of a result column.
    func documentation(ofColumn property: PropertyModel, _ column: NamedQuery.ResultColumn) -> String {
        var text = "Column \(SwiftLiteral.codeSpan(column.sqlName))"
        var details: [String] = []
        if let type = column.declaredType {
            details.append(
                SwiftLiteral.codeSpan(type) + (column.isInferredType ? ", inferred from the expression" : ""))
        } else {
            details.append("unknown type")
        }
        if let table = column.table, let name = column.column {
            details.append("from \(SwiftLiteral.codeSpan(table + "." + name))")
        }
        text += " (" + details.joined(separator: ", ") + ")"
        switch column.nullabilityOverride {
        case .nonNull?: text += ", never `NULL` (the `!` of its alias says so)."
        case .nullable?: text += ", optional (the `?` of its alias says so)."
        case nil: text += property.isOptional ? ", optional: it may be `NULL`." : ", never `NULL`."
        }
        return text
    }
}
