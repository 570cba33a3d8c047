import SlateCodeModel
import SlateCore
import SlateQuery

/// The parts of a record both styles write: the struct header, stored properties with their DocC
/// comments, and the memberwise initializer.
extension GenerationModel {
    /// `"public "`, `"package "` or `""`.
    var access: String {
        switch configuration.accessLevel {
        case .internal: ""
        case .public: "public "
        case .package: "package "
        }
    }

    /// The record's summary line.
    func summary(of record: RecordModel) -> String {
        switch record.kind {
        case .table:
            var traits: [String] = []
            if record.isWithoutRowID { traits.append("`WITHOUT ROWID`") }
            if record.isStrict { traits.append("`STRICT`") }
            let suffix = traits.isEmpty ? "" : " (" + traits.joined(separator: ", ") + ")"
            return "A row of the \(SwiftLiteral.codeSpan(record.sqlName)) table\(suffix)."
        case .view:
            return "A row of the \(SwiftLiteral.codeSpan(record.sqlName)) view. Views are read-only."
        case .virtualTable(let module):
            return "A row of the \(SwiftLiteral.codeSpan(record.sqlName)) virtual table (`\(module)`)."
        }
    }

    /// The DocC comment of a stored property: SQL type, nullability and the real default.
    func documentation(of property: PropertyModel, in record: RecordModel) -> String {
        let name = SwiftLiteral.codeSpan(property.sqlName)
        var type: String
        if property.declaredType.isEmpty {
            type = record.isView ? "unknown type" : "no declared type"
        } else {
            type = SwiftLiteral.codeSpan(property.declaredType)
            if property.isInferredType { type += ", inferred from the view's expression" }
        }
        var text = "Column \(name) (\(type))"
        if property.isRowIDAlias {
            text +=
                ", the primary key: an alias of the rowid, `nil` until the record is inserted, when SQLite assigns it"
            if property.isAutoIncrement { text += " (`AUTOINCREMENT`: never reused)" }
            text += "."
            return text
        }
        if let position = property.primaryKeyPosition {
            text += record.primaryKey.count > 1 ? ", part \(position) of the primary key" : ", the primary key"
        }
        if record.isView {
            text += property.isOptional ? ", optional." : ", never `NULL`."
        } else if property.isNilForDefault {
            text +=
                ", `NOT NULL`: `nil` lets the SQL default apply (an insert leaves the column out and reads the value back)"
        } else if property.isOptional {
            text +=
                property.primaryKeyPosition != nil
                ? ", optional: SQLite allows `NULL` in a primary key that is not an `INTEGER PRIMARY KEY` unless it is declared `NOT NULL`"
                : ", optional (`NULL` allowed)"
        } else {
            text += ", required (`NOT NULL`)"
        }
        if !record.isView {
            if let sql = property.defaultSQL {
                text += ", SQL default \(SwiftLiteral.codeSpan(sql))"
            } else {
                text += ", no SQL default"
            }
            text += "."
        }
        if property.isUnique && property.primaryKeyPosition == nil { text += " Unique." }
        if let collation = property.collation { text += " Collation \(SwiftLiteral.codeSpan(collation))." }
        switch property.type {
        case .date where property.dateStorage != .connection:
            text += " Stored as \(dateStorageDescription(property.dateStorage))."
        case .uuid where property.uuidStorage == .blob:
            text += " Stored as 16 bytes."
        case .sqlValue:
            text += " Its type is unknown, so it is read as a boxed `SQLValue`."
        default:
            break
        }
        return text
    }

    func dateStorageDescription(_ storage: GeneratorConfiguration.DateStorage) -> String {
        switch storage {
        case .connection: "the connection's date strategy says"
        case .iso8601: "ISO-8601 text"
        case .unixSeconds: "Unix seconds"
        case .unixMilliseconds: "Unix milliseconds"
        case .julianDay: "a Julian day number"
        }
    }

    /// Writes the stored properties; `withDefaults`, with the defaults of
    /// ``PropertyModel/swiftDefault`` as initial values (an optional's `nil` is implicit), which the
    /// synthesized memberwise initializer then takes.
    ///
    /// With `optionalsInFull`, an optional property is declared `Optional<T>`, not `T?`: a `var`
    /// spelled `T?` starts as `nil`, and a struct with a stored property holding an initial value
    /// is copied once more at the end of every initializer Swift does not synthesize (see
    /// `TableConformance.DecodingShape`).
    func writeProperties(
        of record: RecordModel, withDefaults: Bool = false, optionalsInFull: Bool = false, to out: inout SourceWriter
    ) {
        for property in record.properties {
            out.doc(documentation(of: property, in: record))
            let initialValue =
                withDefaults ? property.swiftDefault.flatMap { $0 == "nil" ? nil : " = " + $0 } ?? "" : ""
            let type =
                optionalsInFull && property.isOptional ? "Optional<\(property.type.rawValue)>" : property.typeText
            out.line("\(access)var \(property.escapedName): \(type)\(initialValue)")
        }
        if !record.omittedColumns.isEmpty {
            out.line(
                "// Generated columns, which cannot be inserted or updated, are not part of the record: "
                    + record.omittedColumns.map { SwiftLiteral.codeSpan($0.name) }.joined(separator: ", ") + ".")
        }
    }

    /// Writes the memberwise initializer with the defaults of ``PropertyModel/swiftDefault``.
    func writeInitializer(of record: RecordModel, to out: inout SourceWriter) {
        if out.documents {
            out.doc(initializerDocumentation(of: record).joined())
        }
        if record.properties.isEmpty {
            out.line("\(access)init() {}")
            return
        }
        out.line("\(access)init(")
        out.indent()
        for (index, property) in record.properties.enumerated() {
            let comma = index + 1 < record.properties.count ? "," : ""
            let defaultText = property.swiftDefault.map { " = \($0)" } ?? ""
            out.line("\(property.swiftName): \(property.typeText)\(defaultText)\(comma)")
        }
        out.outdent()
        out.block(")") { out in
            for property in record.properties {
                out.line("self.\(property.swiftName) = \(property.escapedName)")
            }
        }
    }

    /// The paragraphs documenting the memberwise initializer: what it does, the required
    /// parameters and the defaults.
    func initializerDocumentation(of record: RecordModel) -> [String] {
        var lines = ["Creates a record in memory; nothing is written to the database."]
        let required = record.properties.filter { $0.swiftDefault == nil }
        if required.isEmpty {
            lines.append("\n\nEvery parameter has a default.")
        } else {
            lines.append("\n\nRequired: " + required.map { "`\($0.swiftName)`" }.joined(separator: ", ") + ".")
        }
        let defaulted = record.properties.filter { $0.swiftDefault != nil }
        if !defaulted.isEmpty {
            var text =
                "Defaults: "
                + defaulted.map { property -> String in
                    var text = "`\(property.swiftName)` = `\(property.swiftDefault ?? "")`"
                    if property.isRowIDAlias { text += " (SQLite assigns the key on insert)" }
                    return text
                }.joined(separator: ", ") + "."
            if defaulted.contains(where: { $0.defaultSQL != nil && $0.swiftDefault != "nil" && !$0.isRowIDAlias }) {
                text +=
                    " Non-`nil` defaults mirror the columns' SQL defaults; a value the record holds is"
                    + " written as it is."
            }
            lines.append("\n\n" + text)
        }
        return lines
    }

    /// `(Int64, Int64)` or `Int64?`: the primary key's Swift type.
    func primaryKeyType(of record: RecordModel) -> String {
        let types = record.primaryKey.map { record.properties[$0].typeText }
        return types.count == 1 ? types[0] : "(" + types.joined(separator: ", ") + ")"
    }

    /// `id`, `name` …: parameter names for the key columns, not clashing with `db`.
    func keyParameterNames(of record: RecordModel) -> [String] {
        record.primaryKey.map { index in
            let name = record.properties[index].swiftName
            return name == "db" || name == "database" || name == "statement" ? name + "Key" : name
        }
    }

    /// The column list of a `SELECT` of every record column, as stored.
    func selectSQL(of record: RecordModel) -> String {
        "SELECT " + record.properties.map(\.sqlName.sqlQuoted).joined(separator: ", ") + " FROM "
            + record.sqlName.sqlQuoted
    }

    /// A `SELECT` of every record column, dates converted for the raw style's decoding.
    func decodingSelectSQL(of record: RecordModel) -> String {
        "SELECT " + record.properties.map { rawColumnSQL($0, name: $0.sqlName) }.joined(separator: ", ") + " FROM "
            + record.sqlName.sqlQuoted
    }

    /// `"a" = ?1 AND "b" = ?2`, or with other parameter numbers.
    func keyCondition(of record: RecordModel, parameters: [Int]) -> String {
        zip(record.primaryKey, parameters).map { index, parameter in
            record.properties[index].sqlName.sqlQuoted + " = " + rawParameterSQL(record.properties[index], parameter)
        }.joined(separator: " AND ")
    }

    /// `INSERT INTO "t" ("a", "b") VALUES (?1, ?2)`.
    func insertSQL(of record: RecordModel) -> String {
        "INSERT INTO " + record.sqlName.sqlQuoted + " ("
            + record.properties.map(\.sqlName.sqlQuoted).joined(separator: ", ")
            + ") VALUES (" + record.properties.enumerated().map { rawParameterSQL($1, $0 + 1) }.joined(separator: ", ")
            + ")"
    }

    /// `UPDATE "t" SET "b" = ?2 WHERE "a" = ?1`: every column bound once, by position.
    func updateSQL(of record: RecordModel) -> String {
        var assigned = record.properties.indices.filter { record.properties[$0].primaryKeyPosition == nil }
        if assigned.isEmpty { assigned = record.primaryKey }
        return "UPDATE " + record.sqlName.sqlQuoted + " SET "
            + assigned.map {
                record.properties[$0].sqlName.sqlQuoted + " = " + rawParameterSQL(record.properties[$0], $0 + 1)
            }
            .joined(separator: ", ")
            + " WHERE " + keyCondition(of: record, parameters: record.primaryKey.map { $0 + 1 })
    }

    /// `DELETE FROM "t" WHERE "a" = ?1 AND "b" = ?2`.
    func deleteSQL(of record: RecordModel) -> String {
        "DELETE FROM " + record.sqlName.sqlQuoted + " WHERE "
            + keyCondition(of: record, parameters: Array(1...max(1, record.primaryKey.count)))
    }

    /// `SELECT … FROM "t" WHERE "a" = ?1`.
    func findSQL(of record: RecordModel) -> String {
        decodingSelectSQL(of: record) + " WHERE "
            + keyCondition(of: record, parameters: Array(1...max(1, record.primaryKey.count)))
    }

    /// `SELECT … FROM "child" WHERE "fk1" = ?1 AND "fk2" = ?2`.
    func childrenSQL(of child: RecordModel, key: ForeignKeyModel) -> String {
        let parent = key.parent.map { records[$0] }
        return decodingSelectSQL(of: child) + " WHERE "
            + zip(key.columns, key.parentColumns).enumerated().map { offset, pair in
                let column = child.properties[pair.0]
                let binding = parent.map { bindingProperty(column: column, value: $0.properties[pair.1]) } ?? column
                return column.sqlName.sqlQuoted + " = " + rawParameterSQL(binding, offset + 1)
            }.joined(separator: " AND ")
    }

    /// `SELECT … FROM "parent" WHERE "pk1" = ?1`.
    func parentSQL(of parent: RecordModel, key: ForeignKeyModel, child: RecordModel) -> String {
        decodingSelectSQL(of: parent) + " WHERE "
            + zip(key.columns, key.parentColumns).enumerated().map { offset, pair in
                let column = parent.properties[pair.1]
                let binding = bindingProperty(column: column, value: child.properties[pair.0])
                return column.sqlName.sqlQuoted + " = " + rawParameterSQL(binding, offset + 1)
            }.joined(separator: " AND ")
    }

    /// The property whose storage a value of `value` is bound with where it is compared with
    /// `column`: the column's when both have the same Swift type (so a date is stored as the
    /// column stores dates), else the value's own.
    func bindingProperty(column: PropertyModel, value: PropertyModel) -> PropertyModel {
        column.type == value.type ? column : value
    }

    /// The stem of the `open` function: `ChinookDatabase` → `chinook`.
    var databaseStem: String {
        var name = databaseTypeName
        for suffix in ["Database", "DB"] where name.hasSuffix(suffix) && name.count > suffix.count {
            name = String(name.dropLast(suffix.count))
            break
        }
        return Naming.snakeName(name)
    }
}
