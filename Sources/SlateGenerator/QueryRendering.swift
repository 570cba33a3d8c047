import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery
import SlateSchema

// Named queries in both styles: a function on the database type returning an `SQLQuery` (or an
// `SQLCommand`) in the Slate style; free functions over the C API in the raw style.

// MARK: - Slate style

extension SlateRenderer {
    /// The row structs and functions of the named queries, in an extension of the database type.
    func writeQueries(to out: inout SourceWriter) {
        guard !model.queries.isEmpty else { return }
        out.line()
        out.line("// MARK: - Named queries")
        out.line()
        out.block("extension \(databaseType)") { out in
            for (index, query) in model.queries.enumerated() {
                if index > 0 { out.line() }
                if query.result == .rows {
                    writeRowStruct(query, to: &out)
                    out.line()
                }
                writeFunction(query, to: &out)
            }
        }
    }

    func writeRowStruct(_ query: QueryModel, to out: inout SourceWriter) {
        let conformances =
            ["RowDecodable", "Hashable"] + (query.columns.contains { $0.type == .sqlValue } ? [] : ["Codable"]) + [
                "Sendable"
            ]
        out.doc("A row of \(SwiftLiteral.codeSpan(query.query.name)).")
        out.block("\(access)struct \(query.rowTypeName): \(conformances.joined(separator: ", "))") { out in
            model.writeQueryProperties(query, to: &out)
            out.line()
            out.doc("Decodes the row's columns 0, 1, 2 …, in order.")
            out.block("\(access)init(row: borrowing Row) throws") { out in
                for (index, column) in query.columns.enumerated() {
                    out.line("self.\(column.swiftName) = \(decodeExpression(column, index: index))")
                }
            }
        }
    }

    func writeFunction(_ query: QueryModel, to out: inout SourceWriter) {
        let returns: String
        let resultType: String
        switch query.result {
        case .rows, .values:
            returns = "The query: run it with `fetchAll(db)`, `fetchOne(db)` or `fetchCursor(db)`."
            resultType = "SQLQuery<\(query.elementType)>"
        case .none:
            returns = "The statement: run it with `execute(db)`, which returns the number of rows it changed."
            resultType = "SQLCommand"
        }
        for line in model.documentation(of: query, returns: returns) { out.doc(line) }
        let parameters = query.parameters.map { "\($0.swiftName): \($0.typeText)" }.joined(separator: ", ")
        out.block("\(access)static func \(Naming.escaped(query.functionName))(\(parameters)) -> \(resultType)") { out in
            var sql = "SQL(sql: \(SwiftLiteral.sql(query.query.sql))"
            if !query.parameters.isEmpty {
                let arguments = query.parameters.map { parameter in
                    "\(SwiftLiteral.string(parameter.sqlName)): \(boundValue(parameter, value: Naming.escaped(parameter.swiftName)))"
                }
                sql += ", arguments: [" + arguments.joined(separator: ", ") + "]"
            }
            sql += ")"
            switch query.result {
            case .rows:
                out.line("SQLQuery(\(sql))")
            case .values:
                let column = query.columns[0]
                if column.type == .date && column.dateStorage != .connection {
                    out.line("SQLQuery(\(sql)) { row in \(decodeExpression(column, index: 0)) }")
                } else {
                    out.line("SQLQuery(\(sql), column: \(column.typeText).self)")
                }
            case .none:
                out.line("SQLCommand(\(sql))")
            }
        }
    }

    /// `try row.decode(at: 0)`, or the date strategy's read.
    func decodeExpression(_ property: PropertyModel, index: Int) -> String {
        if property.type == .date && property.dateStorage != .connection {
            return "try row.date(at: \(index), strategy: .\(property.dateStorage.rawValue))"
        }
        return "try row.decode(at: \(index))"
    }

    /// The value to bind for a parameter: itself, or wrapped for its storage.
    func boundValue(_ property: PropertyModel, value: String) -> String {
        if property.type == .date && property.dateStorage != .connection {
            let strategy = "DateStrategy.\(property.dateStorage.rawValue)"
            return property.isOptional
                ? "\(value).map { EncodedDate($0, strategy: \(strategy)) }"
                : "EncodedDate(\(value), strategy: \(strategy))"
        }
        if property.type == .uuid && property.uuidStorage == .blob {
            return property.isOptional
                ? "\(value).map { UUIDStorage.blob.sqlValue(for: $0) }" : "UUIDStorage.blob.sqlValue(for: \(value))"
        }
        return value
    }
}

extension GenerationModel {
    /// The stored properties and memberwise initializer of a query's row struct.
    func writeQueryProperties(_ query: QueryModel, to out: inout SourceWriter) {
        for (property, column) in zip(query.columns, query.query.columns) {
            out.doc(documentation(ofColumn: property, column))
            out.line("\(access)var \(property.escapedName): \(property.typeText)")
        }
        out.line()
        out.doc("Creates a row in memory.")
        out.line("\(access)init(")
        out.indent()
        for (index, property) in query.columns.enumerated() {
            out.line("\(property.swiftName): \(property.typeText)\(index + 1 < query.columns.count ? "," : "")")
        }
        out.outdent()
        out.block(")") { out in
            for property in query.columns { out.line("self.\(property.swiftName) = \(property.escapedName)") }
        }
    }

    /// Plain row structs for the raw style, where there is no Slate.
    func writePlainQueryRows(to out: inout SourceWriter) {
        for query in queries where query.result == .rows {
            out.line()
            if configuration.nestRecords {
                out.line("extension \(databaseTypeName) {")
                out.indent()
            }
            out.doc("A row of \(SwiftLiteral.codeSpan(query.query.name)).")
            out.block("\(access)struct \(query.rowTypeName): Hashable, Codable, Sendable") { out in
                writeQueryProperties(query, to: &out)
            }
            if configuration.nestRecords {
                out.outdent()
                out.line("}")
            }
        }
    }
}

// MARK: - Raw style

extension RawRenderer {
    /// Free functions over the C API for the named queries.
    func writeQueries(to out: inout SourceWriter) {
        guard !model.queries.isEmpty else { return }
        out.line()
        out.line("// MARK: - Named queries (C API)")
        for query in model.queries {
            out.line()
            switch query.result {
            case .rows, .values:
                if query.result == .rows { writeRowDecoding(query, to: &out) }
                writeCursorFunction(query, to: &out)
                out.line()
                writeFetchAllFunction(query, to: &out)
                out.line()
                writeFetchOneFunction(query, to: &out)
            case .none:
                writeExecuteFunction(query, to: &out)
            }
        }
    }

    var parametersDeclaration: (QueryModel) -> String {
        { query in query.parameters.map { ", \($0.swiftName): \($0.typeText)" }.joined() }
    }

    func arguments(_ query: QueryModel) -> String {
        query.parameters.map { ", \($0.swiftName): \(Naming.escaped($0.swiftName))" }.joined()
    }

    func writeRowDecoding(_ query: QueryModel, to out: inout SourceWriter) {
        out.block("extension \(query.qualifiedRowTypeName)") { out in
            out.doc(
                "Reads the current row of `statement`. Fails when the row does not have one column per",
                "property, when a column that must not be `NULL` is `NULL`, or when a value cannot be read as",
                "its Swift type.")
            out.block("fileprivate init?(\(prefix)statement statement: OpaquePointer)") { out in
                out.line("guard sqlite3_column_count(statement) == \(query.columns.count) else { return nil }")
                for (index, property) in query.columns.enumerated() {
                    out.line("guard let value\(index) = \(rawRead(property, index: index)) else { return nil }")
                    out.line("self.\(property.swiftName) = value\(index)")
                }
            }
        }
        out.line()
    }

    /// The read of column `index` as `property`'s type: `nil` when it cannot be read, and, for an
    /// optional, `.some(nil)` for `NULL`.
    func rawRead(_ property: PropertyModel, index: Int) -> String {
        let expression = decodeExpression(property, index: Int32(index))
        return property.isOptional ? "slateRawOptional(statement, \(index), \(expression))" : expression
    }

    /// Prepares the statement and binds the parameters; returns the code on failure.
    func writePrepareAndBind(_ query: QueryModel, to out: inout SourceWriter) {
        writePrepare(query.rawSQL, to: &out)
        for (index, parameter) in query.parameters.enumerated() {
            out.line(
                "if case let code = \(bindCall(parameter, position: "\(index + 1)", value: Naming.escaped(parameter.swiftName))), code != SQLITE_OK { return code }"
            )
        }
    }

    func writeCursorFunction(_ query: QueryModel, to out: inout SourceWriter) {
        let element = query.elementType
        for line in model.documentation(
            of: query, lead: "Calls `body` with each row, until it returns `false`.",
            returns:
                "`SQLITE_OK` once every row was read or `body` returned `false`; SQLite's error code; or `SQLITE_MISMATCH` when a row cannot be read as \(SwiftLiteral.codeSpan(element))."
        ) {
            out.doc(line)
        }
        out.block(
            "@discardableResult\n\(access)func \(prefix)\(query.rawStem)(_ db: OpaquePointer?\(parametersDeclaration(query)), _ body: (\(element)) -> Bool) -> Int32"
        ) { out in
            writePrepareAndBind(query, to: &out)
            out.block("while true") { out in
                out.line("let code = sqlite3_step(statement)")
                out.line("if code == SQLITE_DONE { return SQLITE_OK }")
                out.line("guard code == SQLITE_ROW else { return code }")
                if query.result == .rows {
                    out.line(
                        "guard let row = \(query.qualifiedRowTypeName)(\(prefix)statement: statement) else { return SQLITE_MISMATCH }"
                    )
                } else {
                    out.line(
                        "guard sqlite3_column_count(statement) == 1, let row = \(rawRead(query.columns[0], index: 0)) else { return SQLITE_MISMATCH }"
                    )
                }
                out.line("if !body(row) { return SQLITE_OK }")
            }
        }
    }

    func writeFetchAllFunction(_ query: QueryModel, to out: inout SourceWriter) {
        let element = query.elementType
        for line in model.documentation(
            of: query, lead: "Reads every row.",
            returns: "The rows, or `nil` when SQLite reports an error or a row cannot be read.")
        {
            out.doc(line)
        }
        out.block(
            "\(access)func \(prefix)\(query.rawStem)(_ db: OpaquePointer?\(parametersDeclaration(query))) -> [\(element)]?"
        ) { out in
            out.line("var slateRows: [\(element)] = []")
            out.line("let code = \(prefix)\(query.rawStem)(db\(arguments(query))) { row in")
            out.line("    slateRows.append(row)")
            out.line("    return true")
            out.line("}")
            out.line("return code == SQLITE_OK ? slateRows : nil")
        }
    }

    func writeFetchOneFunction(_ query: QueryModel, to out: inout SourceWriter) {
        let element = query.elementType
        for line in model.documentation(
            of: query, lead: "Reads the first row into `row` and stops.",
            returns:
                "`SQLITE_OK` with `row` set to the first row, or to `nil` when there is none; SQLite's error code (or `SQLITE_MISMATCH`) with `row` set to `nil`."
        ) {
            out.doc(line)
        }
        out.block(
            "@discardableResult\n\(access)func \(prefix)\(query.rawStem)_one(_ db: OpaquePointer?\(parametersDeclaration(query)), _ row: inout \(element)?) -> Int32"
        ) { out in
            out.line("var slateFirst: \(element)?")
            out.line("let code = \(prefix)\(query.rawStem)(db\(arguments(query))) { value in")
            out.line("    slateFirst = value")
            out.line("    return false")
            out.line("}")
            out.line("row = code == SQLITE_OK ? slateFirst : nil")
            out.line("return code")
        }
    }

    func writeExecuteFunction(_ query: QueryModel, to out: inout SourceWriter) {
        for line in model.documentation(
            of: query,
            returns:
                "`SQLITE_OK`, or SQLite's error code (such as `SQLITE_CONSTRAINT`). `sqlite3_changes(db)` tells how many rows changed."
        ) {
            out.doc(line)
        }
        out.block(
            "@discardableResult\n\(access)func \(prefix)\(query.rawStem)(_ db: OpaquePointer?\(parametersDeclaration(query))) -> Int32"
        ) { out in
            writePrepareAndBind(query, to: &out)
            out.line("let code = sqlite3_step(statement)")
            out.line("return code == SQLITE_DONE ? SQLITE_OK : code")
        }
    }
}
