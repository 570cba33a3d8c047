import Slate
import SlateCodeModel

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
        out.block("@discardableResult\n\(access)func \(prefix)open_\(model.databaseStem)(_ path: String, _ db: inout OpaquePointer?, readOnly: Bool = false) -> Int32") { out in
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
            out.doc(
                "Reads the current row of `statement`, column by column in record order. Fails when a",
                "column that must not be `NULL` is `NULL`, or when a value cannot be read as its Swift type.")
            out.block("fileprivate init?(\(prefix)statement statement: OpaquePointer)") { out in
                for (index, property) in record.properties.enumerated() {
                    let expression = decodeExpression(property, index: Int32(index))
                    if property.isOptional {
                        // `NULL` reads as `nil`; any other value that does not convert fails the row.
                        out.line("guard let value\(index) = slateRawNullable(statement, \(index), \(expression)) else { return nil }")
                        out.line("self.\(property.swiftName) = value\(index)")
                    } else {
                        out.line("guard let value\(index) = \(expression) else { return nil }")
                        out.line("self.\(property.swiftName) = value\(index)")
                    }
                }
            }
            out.line()
            out.doc("Binds every column, in record order, to the parameters from `index` on.")
            out.block("fileprivate func \(prefix)bind(to statement: OpaquePointer, startingAt index: Int32) -> Int32") { out in
                for (index, property) in record.properties.enumerated() {
                    let position = index == 0 ? "index" : "index + \(index)"
                    out.line("if case let code = \(bindCall(property, position: position, value: "self.\(property.swiftName)")), code != SQLITE_OK { return code }")
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
        case .float: return "slateRawFloat(\(arguments))"
        case .string: return "slateRawText(\(arguments))"
        case .sqlValue: return "slateRawValue(\(arguments))"
        case .data: return "slateRawData(\(arguments))"
        case .bytes: return "slateRawData(\(arguments)).map({ [UInt8]($0) })"
        case .date: return "slateRawDate(\(arguments), .\(rawDateStorage(property)))"
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
            out.block("\(access)func \(prefix)\(record.rawSingular)_find(_ db: OpaquePointer?, \(parameters)) -> \(type)?") { out in
                out.line("var statement: OpaquePointer?")
                out.line("guard sqlite3_prepare_v2(db, \(SwiftLiteral.sql(model.findSQL(of: record))), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }")
                out.line("defer { sqlite3_finalize(statement) }")
                for (offset, (index, name)) in zip(record.primaryKey, names).enumerated() {
                    out.line("guard \(bindCall(record.properties[index], position: "\(offset + 1)", value: Naming.escaped(name))) == SQLITE_OK else { return nil }")
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
            "  - sql: A query returning the record's columns in order; default `nil`, which selects every row.",
            "  - filter: Decides which records to keep; default: every record.",
            "- Returns: The records, or `nil` when SQLite reports an error or a row cannot be read.")
        out.block("\(access)func \(prefix)\(record.rawPlural)_fetch(_ db: OpaquePointer?, sql: String? = nil, filter: (\(type)) -> Bool = { _ in true }) -> [\(type)]?") { out in
            out.line("var statement: OpaquePointer?")
            out.line("guard sqlite3_prepare_v2(db, sql ?? \(type).\(prefix)selectSQL, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }")
            out.line("defer { sqlite3_finalize(statement) }")
            out.line("return slateRawCollect(statement, decode: \(type).init(\(prefix)statement:), filter: filter)")
        }

        guard !record.isView else { return }
        out.line()
        out.doc(
            "Inserts `record` into \(SwiftLiteral.codeSpan(record.sqlName)), writing every column."
                + (record.rowIDAlias != nil ? " Sets the record's key to the new rowid." : ""),
            "",
            "- Returns: `SQLITE_OK`, or SQLite's error code (such as `SQLITE_CONSTRAINT`).")
        out.block("@discardableResult\n\(access)func \(prefix)\(record.rawSingular)_insert(_ db: OpaquePointer?, _ record: inout \(type)) -> Int32") { out in
            writePrepare(model.insertSQL(of: record), to: &out)
            out.line("let bound = record.\(prefix)bind(to: statement, startingAt: 1)")
            out.line("guard bound == SQLITE_OK else { return bound }")
            out.line("let code = sqlite3_step(statement)")
            out.line("guard code == SQLITE_DONE else { return code }")
            if let alias = record.rowIDAlias {
                let property = record.properties[alias]
                let value = property.type == .int64 ? "sqlite3_last_insert_rowid(db)" : "\(property.type.rawValue)(truncatingIfNeeded: sqlite3_last_insert_rowid(db))"
                out.line("record.\(property.swiftName) = \(value)")
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
            "- Returns: `SQLITE_OK` (also when no row has the key: `sqlite3_changes(db)` is then 0), or SQLite's error code.")
        out.block("@discardableResult\n\(access)func \(prefix)\(record.rawSingular)_update(_ db: OpaquePointer?, _ record: \(type)) -> Int32") { out in
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
        out.block("@discardableResult\n\(access)func \(prefix)\(record.rawSingular)_delete(_ db: OpaquePointer?, _ record: \(type)) -> Int32") { out in
            writePrepare(model.deleteSQL(of: record), to: &out)
            for (offset, index) in record.primaryKey.enumerated() {
                let property = record.properties[index]
                out.line("if case let code = \(bindCall(property, position: "\(offset + 1)", value: "record.\(property.swiftName)")), code != SQLITE_OK { return code }")
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
            out.block("\(access)func \(prefix)\(record.rawPlural)_fetch(_ db: OpaquePointer?, \(key.accessorLabel) \(parameter): \(parent.qualifiedTypeName)) -> [\(record.qualifiedTypeName)]?") { out in
                out.line("var statement: OpaquePointer?")
                out.line("guard sqlite3_prepare_v2(db, \(SwiftLiteral.sql(model.childrenSQL(of: record, key: key))), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }")
                out.line("defer { sqlite3_finalize(statement) }")
                for (offset, index) in key.parentColumns.enumerated() {
                    let property = parent.properties[index]
                    out.line("guard \(bindCall(property, position: "\(offset + 1)", value: "\(parameter).\(property.swiftName)")) == SQLITE_OK else { return nil }")
                }
                out.line("return slateRawCollect(statement, decode: \(record.qualifiedTypeName).init(\(prefix)statement:), filter: { _ in true })")
            }
        }
    }

    func writePrepare(_ sql: String, to out: inout SourceWriter) {
        out.line("var statement: OpaquePointer?")
        out.line("let prepared = sqlite3_prepare_v2(db, \(SwiftLiteral.sql(sql)), -1, &statement, nil)")
        out.line("guard prepared == SQLITE_OK, let statement else { return prepared == SQLITE_OK ? SQLITE_MISUSE : prepared }")
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
                    out.line("\(prefix)\(record.rawSingular)_find(db, \(names.map(Naming.escaped).joined(separator: ", ")))")
                }
                out.line()
            }
            out.doc("The records `filter` accepts, or `nil` on error. See `\(prefix)\(record.rawPlural)_fetch`.")
            out.block("\(access)static func fetch(in db: OpaquePointer?, sql: String? = nil, filter: (\(type)) -> Bool = { _ in true }) -> [\(type)]?") { out in
                out.line("\(prefix)\(record.rawPlural)_fetch(db, sql: sql, filter: filter)")
            }
            if !record.isView {
                out.line()
                out.doc("Inserts the record\(record.rowIDAlias != nil ? " and stores its new key" : ""). Returns `SQLITE_OK` or SQLite's error code.")
                out.block("@discardableResult\n\(access)mutating func insert(into db: OpaquePointer?) -> Int32") { out in
                    out.line("\(prefix)\(record.rawSingular)_insert(db, &self)")
                }
            }
            if record.isKeyed {
                out.line()
                out.doc("Writes the record to the row with its primary key. Returns `SQLITE_OK` or SQLite's error code.")
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
                out.block("\(access)func \(key.parentMethodName)(in db: OpaquePointer?) -> \(parent.qualifiedTypeName)?") { out in
                    out.line("var statement: OpaquePointer?")
                    out.line("guard sqlite3_prepare_v2(db, \(SwiftLiteral.sql(model.parentSQL(of: parent, key: key))), -1, &statement, nil) == SQLITE_OK, let statement else { return nil }")
                    out.line("defer { sqlite3_finalize(statement) }")
                    for (offset, index) in key.columns.enumerated() {
                        let property = record.properties[index]
                        out.line("guard \(bindCall(property, position: "\(offset + 1)", value: "self.\(property.swiftName)")) == SQLITE_OK else { return nil }")
                    }
                    out.line("guard sqlite3_step(statement) == SQLITE_ROW else { return nil }")
                    out.line("return \(parent.qualifiedTypeName)(\(prefix)statement: statement)")
                }
            }
            for (child, key) in model.children(of: recordIndex) {
                out.line()
                out.doc("The \(SwiftLiteral.codeSpan(child.sqlName)) rows referencing this record, or `nil` on error.")
                out.block("\(access)func \(key.childrenMethodName)(in db: OpaquePointer?) -> [\(child.qualifiedTypeName)]?") { out in
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

    /// How a `Date` column is stored.
    fileprivate enum SlateRawDateStorage {
        case iso8601, unixSeconds, unixMilliseconds, julianDay
    }

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

    /// A nullable column: `.some(nil)` when it is `NULL`, else `value`, which is `nil` when the column
    /// could not be read as its Swift type (the row fails rather than reading as `nil`).
    fileprivate func slateRawNullable<Value>(_ statement: OpaquePointer, _ index: Int32, _ value: Value?) -> Value?? {
        if sqlite3_column_type(statement, index) == SQLITE_NULL { return .some(nil) }
        guard let value else { return nil }
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

    /// The column as a `Float`: its `Double`, rounded; `nil` when a finite value is beyond `Float`'s range.
    fileprivate func slateRawFloat(_ statement: OpaquePointer, _ index: Int32) -> Float? {
        guard let real = slateRawDouble(statement, index) else { return nil }
        let float = Float(real)
        return float.isInfinite && real.isFinite ? nil : float
    }

    fileprivate func slateRawText(_ statement: OpaquePointer, _ index: Int32) -> String? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL, let text = sqlite3_column_text(statement, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    fileprivate func slateRawData(_ statement: OpaquePointer, _ index: Int32) -> Data? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
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

    fileprivate func slateRawDecimal(_ statement: OpaquePointer, _ index: Int32) -> Decimal? {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return Decimal(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return Decimal(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return slateRawText(statement, index).flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
        default: return nil
        }
    }

    fileprivate func slateRawDate(_ statement: OpaquePointer, _ index: Int32, _ storage: SlateRawDateStorage) -> Date? {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_TEXT:
            return slateRawText(statement, index).flatMap(slateRawParseDate)
        case SQLITE_INTEGER, SQLITE_FLOAT:
            let number = sqlite3_column_double(statement, index)
            switch storage {
            case .iso8601, .unixSeconds: return Date(timeIntervalSince1970: number)
            case .unixMilliseconds: return Date(timeIntervalSince1970: number / 1000)
            case .julianDay: return Date(timeIntervalSince1970: (number - 2_440_587.5) * 86_400)
            }
        default:
            return nil
        }
    }

    /// Parses `YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][Z|±HH:MM]` as UTC unless an offset is given.
    fileprivate func slateRawParseDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var position = 0
        func number(_ digits: Int) -> Int? {
            guard position + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[position..<position + digits] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            position += digits
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }
        guard let year = number(4), skip(45), let month = number(2), skip(45), let day = number(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        // Days since 1970-01-01 in the proleptic Gregorian calendar.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        var seconds = Double(era * 146_097 + dayOfEra - 719_468) * 86_400
        if skip(32) || skip(84) {
            guard let hour = number(2), skip(58), let minute = number(2) else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            if skip(58) {
                guard let second = number(2) else { return nil }
                seconds += Double(second)
                if skip(46) {
                    var scale = 0.1
                    while position < bytes.count, bytes[position] >= 48 && bytes[position] <= 57 {
                        seconds += Double(bytes[position] - 48) * scale
                        scale /= 10
                        position += 1
                    }
                }
            }
            if skip(90) {
                // Z
            } else if position < bytes.count, bytes[position] == 43 || bytes[position] == 45 {
                let sign: Double = bytes[position] == 43 ? -1 : 1
                position += 1
                guard let hours = number(2) else { return nil }
                _ = skip(58)
                guard let minutes = number(2) else { return nil }
                seconds += sign * Double(hours * 3600 + minutes * 60)
            }
        }
        return position == bytes.count ? Date(timeIntervalSince1970: seconds) : nil
    }

    /// `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    fileprivate func slateRawFormatDate(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = milliseconds / 1000
        var fraction = milliseconds % 1000
        if fraction < 0 {
            fraction += 1000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + "." + pad(fraction, 3)
    }

    fileprivate func slateRawBind<Value: BinaryInteger>(_ statement: OpaquePointer, _ index: Int32, _ value: Value?) -> Int32 {
        guard let value else { return sqlite3_bind_null(statement, index) }
        return sqlite3_bind_int64(statement, index, Int64(truncatingIfNeeded: value))
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

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: String?) -> Int32 {
        guard let value else { return sqlite3_bind_null(statement, index) }
        return sqlite3_bind_text(statement, index, value, Int32(value.utf8.count), slateRawTransient)
    }

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Data?) -> Int32 {
        guard let value else { return sqlite3_bind_null(statement, index) }
        return value.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob(statement, index, base, Int32(bytes.count), slateRawTransient)
        }
    }

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: [UInt8]?) -> Int32 {
        slateRawBind(statement, index, value.map { Data($0) })
    }

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: UUID?) -> Int32 {
        slateRawBind(statement, index, value?.uuidString)
    }

    fileprivate func slateRawBindUUIDBytes(_ statement: OpaquePointer, _ index: Int32, _ value: UUID?) -> Int32 {
        guard let value else { return sqlite3_bind_null(statement, index) }
        return slateRawBind(statement, index, withUnsafeBytes(of: value.uuid) { Data($0) })
    }

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: URL?) -> Int32 {
        slateRawBind(statement, index, value?.absoluteString)
    }

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Decimal?) -> Int32 {
        slateRawBind(statement, index, value?.description)
    }

    fileprivate func slateRawBind(_ statement: OpaquePointer, _ index: Int32, _ value: Date?, _ storage: SlateRawDateStorage) -> Int32 {
        guard let value else { return sqlite3_bind_null(statement, index) }
        let seconds = value.timeIntervalSince1970
        switch storage {
        case .iso8601:
            return slateRawBind(statement, index, slateRawFormatDate(value))
        case .unixSeconds:
            if let whole = Int64(exactly: seconds) { return sqlite3_bind_int64(statement, index, whole) }
            return sqlite3_bind_double(statement, index, seconds)
        case .unixMilliseconds:
            return sqlite3_bind_int64(statement, index, Int64((seconds * 1000).rounded()))
        case .julianDay:
            return sqlite3_bind_double(statement, index, seconds / 86_400 + 2_440_587.5)
        }
    }
    """#
}
