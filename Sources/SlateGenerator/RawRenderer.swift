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

    // MARK: Functions

    func parameterName(for record: RecordModel) -> String {
        let name = Naming.propertyName(record.typeName)
        return ["db", "statement", "sql", "filter", "record"].contains(name) ? name + "Record" : Naming.escaped(name)
    }

    func writeFunctions(of record: RecordModel, to out: inout SourceWriter) {
        let type = record.qualifiedTypeName
        let keyed = record.isKeyed

        if keyed {
            let names = model.keyParameterNames(of: record)
            let parameters = zip(record.primaryKey, names).map { index, name in
                "_ \(Naming.escaped(name)): \(record.properties[index].type.rawValue)"
            }.joined(separator: ", ")
            out.doc(
                "Fetches the \(SwiftLiteral.codeSpan(record.sqlName)) row with the given primary key.",
                "",
                "- Returns: The record, or `nil` when no row has the key or SQLite reports an error.")
            out.block(
                "\(access)func \(prefix)\(record.rawSingular)_find(_ db: OpaquePointer?, \(parameters)) -> \(type)?"
            ) { out in
                out.line("var statement: OpaquePointer?")
                out.line(
                    "guard sqlite3_prepare_v2(db, \(SwiftLiteral.sql(model.findSQL(of: record))), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }"
                )
                out.line("defer { sqlite3_finalize(statement) }")
                for (offset, (index, name)) in zip(record.primaryKey, names).enumerated() {
                    out.line(
                        "guard \(bindCall(record.properties[index], position: "\(offset + 1)", value: Naming.escaped(name))) == SQLITE_OK else { return nil }"
                    )
                }
                out.line("guard sqlite3_step(statement) == SQLITE_ROW else { return nil }")
                out.line("return \(type)(\(prefix)statement: statement)")
            }
            out.line()
        }

        out.doc(
            "Fetches \(SwiftLiteral.codeSpan(record.sqlName)) rows, optionally with your own query, keeping those `filter` accepts.",
            "",
            "- Parameters:",
            "  - db: The connection.",
            "  - sql: A query returning the record's columns in order; default `nil`, which selects every row."
                + (model.hasRawConversions(record)
                    ? " Its dates are read as stored and converted by SQLite: it is wrapped in a `WITH` clause,"
                        + " so it must be one `SELECT` (or `VALUES`) without a final semicolon. Its `ORDER BY` is kept."
                    : ""),
            "  - filter: Decides which records to keep; default: every record.",
            "- Returns: The records, or `nil` when SQLite reports an error or a row cannot be read.")
        out.block(
            "\(access)func \(prefix)\(record.rawPlural)_fetch(_ db: OpaquePointer?, sql: String? = nil, filter: (\(type)) -> Bool = { _ in true }) -> [\(type)]?"
        ) { out in
            out.line("var statement: OpaquePointer?")
            var query = "sql ?? \(type).\(prefix)selectSQL"
            if model.hasRawConversions(record) { query = "\(type).\(prefix)decodingSQL(\(query))" }
            out.line(
                "guard sqlite3_prepare_v2(db, \(query), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }"
            )
            out.line("defer { sqlite3_finalize(statement) }")
            out.line("return slateRawCollect(statement, decode: \(type).init(\(prefix)statement:), filter: filter)")
        }

        guard !record.isView else { return }
        out.line()
        out.doc(
            "Inserts `record` into \(SwiftLiteral.codeSpan(record.sqlName)), writing every column."
                + (record.rowIDAlias != nil ? " Sets the record's key to the new rowid." : ""),
            "",
            "- Returns: `SQLITE_OK`, or SQLite's error code (such as `SQLITE_CONSTRAINT`, or `SQLITE_MISMATCH`",
            "  for a value the column cannot store: see the helpers at the end of the file).")
        out.block(
            "@discardableResult\n\(access)func \(prefix)\(record.rawSingular)_insert(_ db: OpaquePointer?, _ record: inout \(type)) -> Int32"
        ) { out in
            writePrepare(model.insertSQL(of: record), to: &out)
            out.line("let bound = record.\(prefix)bind(to: statement, startingAt: 1)")
            out.line("guard bound == SQLITE_OK else { return bound }")
            out.line("let code = sqlite3_step(statement)")
            out.line("guard code == SQLITE_DONE else { return code }")
            if let alias = record.rowIDAlias {
                let property = record.properties[alias]
                if property.type == .int64 {
                    out.line("record.\(property.swiftName) = sqlite3_last_insert_rowid(db)")
                } else {
                    out.line(
                        "guard let key = \(property.type.rawValue)(exactly: sqlite3_last_insert_rowid(db)) else { return SQLITE_MISMATCH }"
                    )
                    out.line("record.\(property.swiftName) = key")
                }
            }
            out.line("return SQLITE_OK")
        }

        guard keyed else {
            writeChildren(of: record, to: &out)
            return
        }
        out.line()
        out.doc(
            "Writes every column of `record` to the \(SwiftLiteral.codeSpan(record.sqlName)) row with its primary key.",
            "",
            "- Returns: `SQLITE_OK` (also when no row has the key: `sqlite3_changes(db)` is then 0), or SQLite's error code."
        )
        out.block(
            "@discardableResult\n\(access)func \(prefix)\(record.rawSingular)_update(_ db: OpaquePointer?, _ record: \(type)) -> Int32"
        ) { out in
            writePrepare(model.updateSQL(of: record), to: &out)
            out.line("let bound = record.\(prefix)bind(to: statement, startingAt: 1)")
            out.line("guard bound == SQLITE_OK else { return bound }")
            out.line("let code = sqlite3_step(statement)")
            out.line("return code == SQLITE_DONE ? SQLITE_OK : code")
        }
        out.line()
        out.doc(
            "Deletes the \(SwiftLiteral.codeSpan(record.sqlName)) row with `record`'s primary key.",
            "",
            "- Returns: `SQLITE_OK` (also when no row has the key), or SQLite's error code.")
        out.block(
            "@discardableResult\n\(access)func \(prefix)\(record.rawSingular)_delete(_ db: OpaquePointer?, _ record: \(type)) -> Int32"
        ) { out in
            writePrepare(model.deleteSQL(of: record), to: &out)
            for (offset, index) in record.primaryKey.enumerated() {
                let property = record.properties[index]
                out.line(
                    "if case let code = \(bindCall(property, position: "\(offset + 1)", value: "record.\(property.swiftName)")), code != SQLITE_OK { return code }"
                )
            }
            out.line("let code = sqlite3_step(statement)")
            out.line("return code == SQLITE_DONE ? SQLITE_OK : code")
        }
        writeChildren(of: record, to: &out)
    }

    /// `sqlite3_albums_fetch(db, for: artist)` for each foreign key to `record`'s table… written
    /// with the child, so each function sits next to the record it returns.
    func writeChildren(of record: RecordModel, to out: inout SourceWriter) {
        for key in record.foreignKeys {
            guard let parentIndex = key.parent else { continue }
            let parent = model.records[parentIndex]
            let parameter = parameterName(for: parent)
            out.line()
            out.doc(
                "Fetches the \(SwiftLiteral.codeSpan(record.sqlName)) rows whose "
                    + key.columns.map { SwiftLiteral.codeSpan(record.properties[$0].sqlName) }.joined(separator: ", ")
                    + " reference `\(Naming.escaped(parameter).replacingOccurrences(of: "`", with: ""))`.",
                "",
                "- Returns: The records, or `nil` when SQLite reports an error or a row cannot be read.")
            out.block(
                "\(access)func \(prefix)\(record.rawPlural)_fetch(_ db: OpaquePointer?, \(key.accessorLabel) \(parameter): \(parent.qualifiedTypeName)) -> [\(record.qualifiedTypeName)]?"
            ) { out in
                out.line("var statement: OpaquePointer?")
                out.line(
                    "guard sqlite3_prepare_v2(db, \(SwiftLiteral.sql(model.childrenSQL(of: record, key: key))), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }"
                )
                out.line("defer { sqlite3_finalize(statement) }")
                for (offset, (index, parentIndex)) in zip(key.columns, key.parentColumns).enumerated() {
                    // Bound as the child's column stores it, which the query compares it with.
                    let value = parent.properties[parentIndex]
                    let binding = model.bindingProperty(column: record.properties[index], value: value)
                    out.line(
                        "guard \(bindCall(binding, position: "\(offset + 1)", value: "\(parameter).\(value.swiftName)")) == SQLITE_OK else { return nil }"
                    )
                }
                out.line(
                    "return slateRawCollect(statement, decode: \(record.qualifiedTypeName).init(\(prefix)statement:), filter: { _ in true })"
                )
            }
        }
    }

    func writePrepare(_ sql: String, to out: inout SourceWriter) {
        out.line("var statement: OpaquePointer?")
        out.line("let prepared = sqlite3_prepare_v2(db, \(SwiftLiteral.sql(sql)), -1, &statement, nil)")
        out.line(
            "guard prepared == SQLITE_OK, let statement else { return prepared == SQLITE_OK ? SQLITE_MISUSE : prepared }"
        )
        out.line("defer { sqlite3_finalize(statement) }")
    }

    // MARK: Record-attached operations

    func writeAttached(of record: RecordModel, at recordIndex: Int, to out: inout SourceWriter) {
        let type = record.qualifiedTypeName
        out.line()
        out.block("extension \(type)") { out in
            if record.isKeyed {
                let names = model.keyParameterNames(of: record)
                let parameters = zip(record.primaryKey, names).map { index, name in
                    "_ \(Naming.escaped(name)): \(record.properties[index].type.rawValue)"
                }.joined(separator: ", ")
                out.doc("The record with the given primary key, or `nil`. See `\(prefix)\(record.rawSingular)_find`.")
                out.block("\(access)static func find(\(parameters), in db: OpaquePointer?) -> \(type)?") { out in
                    out.line(
                        "\(prefix)\(record.rawSingular)_find(db, \(names.map(Naming.escaped).joined(separator: ", ")))")
                }
                out.line()
            }
            out.doc("The records `filter` accepts, or `nil` on error. See `\(prefix)\(record.rawPlural)_fetch`.")
            out.block(
                "\(access)static func fetch(in db: OpaquePointer?, sql: String? = nil, filter: (\(type)) -> Bool = { _ in true }) -> [\(type)]?"
            ) { out in
                out.line("\(prefix)\(record.rawPlural)_fetch(db, sql: sql, filter: filter)")
            }
            if !record.isView {
                out.line()
                out.doc(
                    "Inserts the record\(record.rowIDAlias != nil ? " and stores its new key" : ""). Returns `SQLITE_OK` or SQLite's error code."
                )
                out.block("@discardableResult\n\(access)mutating func insert(into db: OpaquePointer?) -> Int32") {
                    out in
                    out.line("\(prefix)\(record.rawSingular)_insert(db, &self)")
                }
            }
            if record.isKeyed {
                out.line()
                out.doc(
                    "Writes the record to the row with its primary key. Returns `SQLITE_OK` or SQLite's error code.")
                out.block("@discardableResult\n\(access)func update(in db: OpaquePointer?) -> Int32") { out in
                    out.line("\(prefix)\(record.rawSingular)_update(db, self)")
                }
                out.line()
                out.doc("Deletes the row with the record's primary key. Returns `SQLITE_OK` or SQLite's error code.")
                out.block("@discardableResult\n\(access)func delete(from db: OpaquePointer?) -> Int32") { out in
                    out.line("\(prefix)\(record.rawSingular)_delete(db, self)")
                }
            }
            // Relationships: the parent of each foreign key, and the children referencing this record.
            for key in record.foreignKeys {
                guard let parentIndex = key.parent else { continue }
                let parent = model.records[parentIndex]
                out.line()
                out.doc("The \(SwiftLiteral.codeSpan(parent.sqlName)) row this record references, or `nil`.")
                out.block(
                    "\(access)func \(key.parentMethodName)(in db: OpaquePointer?) -> \(parent.qualifiedTypeName)?"
                ) { out in
                    out.line("var statement: OpaquePointer?")
                    out.line(
                        "guard sqlite3_prepare_v2(db, \(SwiftLiteral.sql(model.parentSQL(of: parent, key: key, child: record))), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }"
                    )
                    out.line("defer { sqlite3_finalize(statement) }")
                    for (offset, (index, parentIndex)) in zip(key.columns, key.parentColumns).enumerated() {
                        // Bound as the parent's column stores it, which the query compares it with.
                        let value = record.properties[index]
                        let binding = model.bindingProperty(column: parent.properties[parentIndex], value: value)
                        out.line(
                            "guard \(bindCall(binding, position: "\(offset + 1)", value: "self.\(value.swiftName)")) == SQLITE_OK else { return nil }"
                        )
                    }
                    out.line("guard sqlite3_step(statement) == SQLITE_ROW else { return nil }")
                    out.line("return \(parent.qualifiedTypeName)(\(prefix)statement: statement)")
                }
            }
            for (child, key) in model.children(of: recordIndex) {
                out.line()
                out.doc("The \(SwiftLiteral.codeSpan(child.sqlName)) rows referencing this record, or `nil` on error.")
                out.block(
                    "\(access)func \(key.childrenMethodName)(in db: OpaquePointer?) -> [\(child.qualifiedTypeName)]?"
                ) { out in
                    out.line("\(prefix)\(child.rawPlural)_fetch(db, \(key.accessorLabel): self)")
                }
            }
        }
    }

    // MARK: Helpers

    func writeHelpers(to out: inout SourceWriter) {
        out.line("// MARK: - C API helpers (private to this file)")
        out.line()
        for line in Self.helperSource.split(separator: "\n", omittingEmptySubsequences: false) {
            out.line(String(line))
        }
        if model.usesSlate {
            // The `both` style keeps Slate's `SQLValue` for columns of unknown type.
            for line in Self.valueHelperSource.split(separator: "\n", omittingEmptySubsequences: false) {
                out.line(String(line))
            }
        }
    }

    /// `SQLValue` helpers, for the `both` style only (the raw style has no Slate).
    static let valueHelperSource = #"""

        fileprivate func slateRawValue(_ statement: OpaquePointer, _ index: Int32) -> SQLValue? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
            case SQLITE_TEXT: return slateRawText(statement, index).map { .text($0) }
            case SQLITE_BLOB: return slateRawData(statement, index).map { .blob($0) }
            default: return nil
            }
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: SQLValue?) -> Int32 {
            switch value {
            case .none, .some(.null): return sqlite3_bind_null(statement, index)
            case .some(.integer(let integer)): return sqlite3_bind_int64(statement, index, integer)
            case .some(.real(let real)): return sqlite3_bind_double(statement, index, real)
            case .some(.text(let text)): return slateRawBind(statement, index, text)
            case .some(.blob(let data)): return slateRawBind(statement, index, data)
            }
        }
        """#

    /// Helpers shared by the functions of one generated file. They are `fileprivate`, so several
    /// generated files in one module do not clash.
    static let helperSource = #"""
        /// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the call returns.
        fileprivate var slateRawTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

        fileprivate func slateRawCollect<Record>(
            _ statement: OpaquePointer, decode: (OpaquePointer) -> Record?, filter: (Record) -> Bool
        ) -> [Record]? {
            var records: [Record] = []
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return records }
                guard code == SQLITE_ROW, let record = decode(statement) else { return nil }
                if filter(record) { records.append(record) }
            }
        }

        // Readers: `nil` when the column is `NULL` or cannot be read as the type, never a made-up value.

        /// For an optional property: `.some(nil)` when the column is `NULL`, `nil` when `value` fails.
        fileprivate func slateRawOptional<Value>(_ statement: OpaquePointer, _ index: Int32, _ value: @autoclosure () -> Value?) -> Value?? {
            if sqlite3_column_type(statement, index) == SQLITE_NULL { return .some(nil) }
            guard let value = value() else { return nil }
            return .some(value)
        }

        /// A number, as stored or as TEXT spells it.
        fileprivate enum SlateRawNumber {
            case integer(Int64), real(Double)
        }

        /// The column's number: an INTEGER, a REAL, or TEXT that is all a decimal number between spaces
        /// (`42`, ` -7 `, `3.0`, `1e3`; not `12abc`, `0x1A` or `inf`). `nil` for anything else.
        fileprivate func slateRawNumber(_ statement: OpaquePointer, _ index: Int32) -> SlateRawNumber? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
            case SQLITE_TEXT:
                guard let text = slateRawText(statement, index)?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty,
                    text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 69 || $0 == 101 })
                else { return nil }
                if let integer = Int64(text) { return .integer(integer) }
                guard let real = Double(text), real.isFinite else { return nil }
                return .real(real)
            default: return nil
            }
        }

        /// The column as an `Int64`, exactly: an integer, or a whole REAL in range. `nil` for `NULL`
        /// and for a value that would lose information (3.7, 1e300, '12abc').
        fileprivate func slateRawInt64(_ statement: OpaquePointer, _ index: Int32) -> Int64? {
            if sqlite3_column_type(statement, index) == SQLITE_INTEGER { return sqlite3_column_int64(statement, index) }
            switch slateRawNumber(statement, index) {
            case .integer(let integer)?: return integer
            case .real(let real)?: return Int64(exactly: real)
            case nil: return nil
            }
        }

        /// The column as a `Double`, exactly: a REAL, or an integer a `Double` holds exactly. `nil` for
        /// `NULL` and for a value that would lose information (2^53 + 1, '12abc').
        fileprivate func slateRawDouble(_ statement: OpaquePointer, _ index: Int32) -> Double? {
            if sqlite3_column_type(statement, index) == SQLITE_FLOAT { return sqlite3_column_double(statement, index) }
            switch slateRawNumber(statement, index) {
            case .integer(let integer)?: return Double(exactly: integer)
            case .real(let real)?: return real
            case nil: return nil
            }
        }

        /// `value` as a `Float` when a `Float` holds it exactly; `nil` for a value that would round.
        fileprivate func slateRawFloat(_ value: Double) -> Float? {
            Float(exactly: value)
        }

        /// TEXT, or a number as SQLite writes it as text.
        fileprivate func slateRawText(_ statement: OpaquePointer, _ index: Int32) -> String? {
            let type = sqlite3_column_type(statement, index)
            guard type == SQLITE_TEXT || type == SQLITE_INTEGER || type == SQLITE_FLOAT, let text = sqlite3_column_text(statement, index) else {
                return nil
            }
            let count = Int(sqlite3_column_bytes(statement, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }

        /// A BLOB, or the UTF-8 bytes of TEXT.
        fileprivate func slateRawData(_ statement: OpaquePointer, _ index: Int32) -> Data? {
            let type = sqlite3_column_type(statement, index)
            guard type == SQLITE_BLOB || type == SQLITE_TEXT else { return nil }
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return Data() }
            return Data(bytes: bytes, count: count)
        }

        fileprivate func slateRawUUID(_ statement: OpaquePointer, _ index: Int32) -> UUID? {
            switch sqlite3_column_type(statement, index) {
            case SQLITE_TEXT:
                return slateRawText(statement, index).flatMap { UUID(uuidString: $0) }
            case SQLITE_BLOB:
                guard let data = slateRawData(statement, index), data.count == 16 else { return nil }
                let b = [UInt8](data)
                return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            default:
                return nil
            }
        }

        /// An INTEGER exactly; a REAL by its shortest decimal form, not its binary fraction; or text
        /// holding a number and nothing else (`Decimal(string:)` alone reads `12abc` as 12).
        fileprivate func slateRawDecimal(_ statement: OpaquePointer, _ index: Int32) -> Decimal? {
            let text: String?
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER: return Decimal(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: text = "\(sqlite3_column_double(statement, index))"
            case SQLITE_TEXT: text = slateRawText(statement, index)?.trimmingCharacters(in: .whitespaces)
            default: return nil
            }
            guard let text, Double(text) != nil, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        }

        /// A date column, which the generated SQL converts to Unix seconds: anything else (text that is
        /// not a date, a BLOB) is not a date.
        fileprivate func slateRawDate(_ statement: OpaquePointer, _ index: Int32) -> Date? {
            let type = sqlite3_column_type(statement, index)
            guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else { return nil }
            return Date(timeIntervalSince1970: sqlite3_column_double(statement, index))
        }

        // Binders: SQLite's result code; `SQLITE_MISMATCH` for a value the column cannot store as it is.

        /// `SQLITE_MISMATCH` for a value outside SQLite's 64-bit integers (a `UInt64` above `Int64.max`).
        fileprivate func slateRawBind<Value: BinaryInteger>(_ statement: OpaquePointer, _ index: Int32, _ value: Value?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            guard let integer = Int64(exactly: value) else { return SQLITE_MISMATCH }
            return sqlite3_bind_int64(statement, index, integer)
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Bool?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_int64(statement, index, value ? 1 : 0)
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Double?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_double(statement, index, value)
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Float?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_double(statement, index, Double(value))
        }

        /// `SQLITE_TOOBIG` for text longer than SQLite's length limit.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: String?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return sqlite3_bind_text64(statement, index, value, UInt64(value.utf8.count), slateRawTransient, UInt8(SQLITE_UTF8))
        }

        /// `SQLITE_TOOBIG` for bytes beyond SQLite's length limit.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Data?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return value.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(statement, index, 0) }
                return sqlite3_bind_blob64(statement, index, base, UInt64(bytes.count), slateRawTransient)
            }
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: [UInt8]?) -> Int32 {
            slateRawBind(statement, index, value.map { Data($0) })
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: UUID?) -> Int32 {
            slateRawBind(statement, index, value?.uuidString.lowercased())  // RFC 9562's form, as Slate writes
        }

        fileprivate func slateRawBindUUIDBytes(_ statement: OpaquePointer, _ index: Int32, _ value: UUID?) -> Int32 {
            guard let value else { return sqlite3_bind_null(statement, index) }
            return slateRawBind(statement, index, withUnsafeBytes(of: value.uuid) { Data($0) })
        }

        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: URL?) -> Int32 {
            slateRawBind(statement, index, value?.absoluteString)
        }

        /// `SQLITE_MISMATCH` for NaN, which would not read back.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Decimal?) -> Int32 {
            if value?.isNaN == true { return SQLITE_MISMATCH }
            return slateRawBind(statement, index, value?.description)
        }

        /// How a `Date` column is stored. The generated SQL converts what `slateRawBind` binds.
        fileprivate enum SlateRawDateStorage {
            case iso8601, unixSeconds, unixMilliseconds, julianDay
        }

        /// Binds whole Unix milliseconds (`iso8601`, `unixMilliseconds`) or Unix seconds, which the
        /// generated SQL stores as the column's storage says. `SQLITE_MISMATCH` for a date that is not
        /// finite, or, as ISO-8601 text, outside the years 0000 to 9999.
        fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Date?, _ storage: SlateRawDateStorage) -> Int32 {
            guard let seconds = value?.timeIntervalSince1970 else { return sqlite3_bind_null(statement, index) }
            let number = storage == .iso8601 || storage == .unixMilliseconds ? (seconds * 1000).rounded() : seconds
            guard number.isFinite, storage != .iso8601 || (-62_167_219_200_000...253_402_300_799_999).contains(number) else { return SQLITE_MISMATCH }
            if let whole = Int64(exactly: number) { return sqlite3_bind_int64(statement, index, whole) }
            return sqlite3_bind_double(statement, index, number)
        }
        """#
}
