import SlateCodeModel
import SlateCore
import SlateQuery

// The raw style's functions per table: find, fetch, insert, update, delete, the children of a
// parent, and the same operations attached to the record types.

extension RawRenderer {
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
}
