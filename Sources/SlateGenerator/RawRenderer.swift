import SlateCodeModel
import SlateCore
import SlateQuery

/// Writes the raw style: functions that call only the SQLite C API (`import SQLite3` on Apple
/// platforms, the `CSQLite` module elsewhere), so the generated file needs no library.
///
/// Per table: `sqlite3_<record>_find`, `sqlite3_<records>_fetch` (with an optional SQL query and
/// a Swift filter), `sqlite3_<record>_insert`, `_update`, `_delete`, and `sqlite3_<children>_fetch(db,
/// for: parent)` for each foreign key; plus, in the raw-only style, the same operations attached to
/// the record types. Failures are reported as SQLite result codes, or as `nil` for fetches.
struct RawRenderer {
    let model: GenerationModel

    var prefix: String { model.configuration.rawFunctionPrefix }
    var access: String { model.access }
    /// Whether record-attached methods are written (not in the `both` style, where the Slate
    /// methods of the same names take `Database`).
    var attachesToRecords: Bool { model.configuration.style == .raw && model.configuration.recordOperations }

    // MARK: Imports and helpers

    static func writeImports(to out: inout SourceWriter) {
        out.line("#if canImport(SQLite3)")
        out.line("import SQLite3")
        out.line("#else")
        out.line("import CSQLite")
        out.line("#endif")
    }

    func write(to out: inout SourceWriter) {
        out.line()
        out.line("// MARK: - SQLite C API")
        out.line()
        writeOpen(to: &out)
        for (recordIndex, record) in model.records.enumerated() {
            out.line()
            out.line("// MARK: \(record.typeName) (C API)")
            out.line()
            writeCoding(of: record, to: &out)
            writeFunctions(of: record, to: &out)
            if attachesToRecords { writeAttached(of: record, at: recordIndex, to: &out) }
        }
        writeQueries(to: &out)
        out.line()
        writeHelpers(to: &out)
    }

    func writeOpen(to out: inout SourceWriter) {
        out.doc(
            "Opens the database file at `path` with `sqlite3_open_v2`.",
            "",
            "- Parameters:",
            "  - path: The database file.",
            "  - db: Receives the connection. Close it with `sqlite3_close` when done, even on error.",
            "  - readOnly: Opens the file read-only; otherwise it is opened for reading and writing and",
            "    created when missing. Default `false`.",
            "- Returns: `SQLITE_OK`, or SQLite's error code.")
        out.block(
            "@discardableResult\n\(access)func \(prefix)open_\(model.databaseStem)(_ path: String, _ db: inout OpaquePointer?, readOnly: Bool = false) -> Int32"
        ) { out in
            out.line("let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE")
            out.line("return sqlite3_open_v2(path, &db, flags, nil)")
        }
    }

    /// The decoding initializer and the binding method.
    func writeCoding(of record: RecordModel, to out: inout SourceWriter) {
        let type = record.qualifiedTypeName
        out.block("extension \(type)") { out in
            out.doc("`SELECT` of every column of the record, in order, for the C API functions.")
            out.line("static let \(prefix)selectSQL = \(SwiftLiteral.sql(model.selectSQL(of: record)))")
            out.line()
            if model.hasRawConversions(record) {
                let (prefixSQL, suffixSQL) = model.rawDecodingSQL(of: record)
                out.doc(
                    "`sql`, a query returning the record's columns in order as they are stored, wrapped so that",
                    "SQLite converts the dates for `init(\(prefix)statement:)`.")
                out.block("fileprivate static func \(prefix)decodingSQL(_ sql: String) -> String") { out in
                    out.line("\(SwiftLiteral.sql(prefixSQL)) + sql + \(SwiftLiteral.sql(suffixSQL))")
                }
                out.line()
            }
            out.doc(
                "Reads the current row of `statement`, column by column in record order. Fails when the row",
                "does not have one column per property, when a column that must not be `NULL` is `NULL`, or",
                "when a value cannot be read as its Swift type.")
            out.block("fileprivate init?(\(prefix)statement statement: OpaquePointer)") { out in
                out.line("guard sqlite3_column_count(statement) == \(record.properties.count) else { return nil }")
                for (index, property) in record.properties.enumerated() {
                    var expression = decodeExpression(property, index: Int32(index))
                    if property.isOptional { expression = "slateRawOptional(statement, \(index), \(expression))" }
                    out.line("guard let value\(index) = \(expression) else { return nil }")
                    out.line("self.\(property.swiftName) = value\(index)")
                }
            }
            out.line()
            out.doc("Binds every column, in record order, to the parameters from `index` on.")
            out.block("fileprivate func \(prefix)bind(to statement: OpaquePointer, startingAt index: Int32) -> Int32") {
                out in
                for (index, property) in record.properties.enumerated() {
                    let position = index == 0 ? "index" : "index + \(index)"
                    out.line(
                        "if case let code = \(bindCall(property, position: position, value: "self.\(property.swiftName)")), code != SQLITE_OK { return code }"
                    )
                }
                out.line("return SQLITE_OK")
            }
        }
        out.line()
    }

    func decodeExpression(_ property: PropertyModel, index: Int32) -> String {
        let arguments = "statement, \(index)"
        switch property.type {
        case .int64: return "slateRawInt64(\(arguments))"
        case .int, .int32, .int16, .int8, .uint, .uint64, .uint32, .uint16, .uint8:
            return "slateRawInt64(\(arguments)).flatMap({ \(property.type.rawValue)(exactly: $0) })"
        case .bool: return "slateRawInt64(\(arguments)).map({ $0 != 0 })"
        case .double: return "slateRawDouble(\(arguments))"
        case .float: return "slateRawDouble(\(arguments)).flatMap(slateRawFloat)"
        case .string: return "slateRawText(\(arguments))"
        case .sqlValue: return "slateRawValue(\(arguments))"
        case .data: return "slateRawData(\(arguments))"
        case .bytes: return "slateRawData(\(arguments)).map({ [UInt8]($0) })"
        case .date: return "slateRawDate(\(arguments))"
        case .uuid: return "slateRawUUID(\(arguments))"
        case .url: return "slateRawText(\(arguments)).flatMap({ URL(string: $0) })"
        case .decimal: return "slateRawDecimal(\(arguments))"
        }
    }

    func rawDateStorage(_ property: PropertyModel) -> String {
        property.dateStorage == .connection ? "iso8601" : property.dateStorage.rawValue
    }

    /// A call binding `value` (of the property's type, optional or not) at `position`.
    func bindCall(_ property: PropertyModel, position: String, value: String) -> String {
        switch property.type {
        case .date: return "slateRawBind(statement, \(position), \(value), .\(rawDateStorage(property)))"
        case .uuid where property.uuidStorage == .blob: return "slateRawBindUUIDBytes(statement, \(position), \(value))"
        default: return "slateRawBind(statement, \(position), \(value))"
        }
    }
}
