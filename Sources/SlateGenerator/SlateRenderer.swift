/// Writes the Slate style: records conforming to Slate's `Table` (or `PrimaryKeyedTable`), with
/// their column metadata and positional decoding and binding written out straight-line, and a
/// database type with typed table accessors.
struct SlateRenderer {
    let model: GenerationModel

    var access: String { model.access }
    var databaseType: String { model.databaseTypeName }

    func write(to out: inout SourceWriter) {
        writeDatabaseType(to: &out)
        writeAccessor(to: &out)
        if case .databaseFile(let name, let fileExtension) = model.options.source {
            writeBundleAccessor(resourceName: name, resourceExtension: fileExtension, to: &out)
        }
        for (index, record) in model.records.enumerated() {
            out.line()
            out.line("// MARK: - \(record.typeName)")
            out.line()
            writeRecord(record, to: &out)
            writeAccessorExtension(record, index: index, to: &out)
            if model.configuration.recordOperations { writeRecordOperations(record, index: index, to: &out) }
        }
        if model.records.contains(where: \.needsCustomCodable) {
            out.line()
            writeValueCoding(to: &out)
        }
    }

    // MARK: Database type

    func writeDatabaseType(to out: inout SourceWriter) {
        let records = model.records
        let example = records.first { $0.isKeyed } ?? records.first
        out.line()
        out.doc("Typed access to the \(SwiftLiteral.codeSpan(databaseType)) database: one accessor per table and view.")
        if out.documents, let example {
            out.doc(
                "",
                "```swift",
                "let db = try \(databaseType)(path: \"path/to/file.sqlite\", readOnly: true)",
                "let count = try db.\(example.accessorName).fetchCount()",
                "```",
                "",
                "It wraps one `Database` connection and, like it, is used from one thread or task at a time.")
        }
        out.block("\(access)struct \(databaseType)") { out in
            out.doc("The connection.")
            out.line("\(access)let database: Database")
            out.line()
            out.doc("Wraps an open connection.")
            out.block("\(access)init(_ database: Database)") { out in
                out.line("self.database = database")
            }
            out.line()
            out.doc(
                "Opens the database file at `path`.",
                "",
                "- Parameters:",
                "  - path: The database file.",
                "  - readOnly: Opens the file read-only, as shipped databases should be. Default `false`:",
                "    the file is opened for reading and writing, and created when missing.",
                "- Throws: `DatabaseError` when the file cannot be opened.")
            out.block("\(access)init(path: String, readOnly: Bool = false) throws") { out in
                out.line("var configuration = Database.Configuration()")
                out.line("configuration.isReadOnly = readOnly")
                out.line("self.database = try Database(path: path, configuration: configuration)")
            }
            for record in records {
                out.line()
                out.doc("The records of the \(SwiftLiteral.codeSpan(record.sqlName)) \(record.isView ? "view" : "table").")
                out.line("\(access)var \(record.accessorName): TableAccessor<\(record.qualifiedTypeName)> { TableAccessor(database: database) }")
            }
            out.line()
            out.doc(
                "Runs `body` in a transaction: commits when it returns, rolls back when it throws.",
                "",
                "```swift",
                "try db.transaction { tx in",
                "    // tx.<table>.insert(…), tx.update(…), tx.delete(…)",
                "}",
                "```")
            out.line("@discardableResult")
            out.block("\(access)func transaction<Result>(_ kind: Database.TransactionKind = .deferred, _ body: (\(databaseType)) throws -> Result) throws -> Result") { out in
                out.line("try database.transaction(kind) { try body(self) }")
            }
            out.line()
            out.doc("Inserts `record` and returns it as inserted, with an `INTEGER PRIMARY KEY` set to the new rowid.")
            out.line("@discardableResult")
            out.block("\(access)func insert<Record: Table>(_ record: Record) throws -> Record") { out in
                out.line("try database.insert(record)")
            }
            out.line()
            out.doc("Writes every column of `record` to the row with its primary key. Returns whether such a row exists.")
            out.line("@discardableResult")
            out.block("\(access)func update<Record: PrimaryKeyedTable>(_ record: Record) throws -> Bool") { out in
                out.line("try database.update(record)")
            }
            out.line()
            out.doc("Deletes the row with `record`'s primary key. Returns whether there was one.")
            out.line("@discardableResult")
            out.block("\(access)func delete<Record: PrimaryKeyedTable>(_ record: Record) throws -> Bool") { out in
                out.line("try database.delete(record)")
            }
            out.line()
            out.doc(
                "Selects chosen columns of the rows of a table matching `predicate`, as tuples:",
                "",
                "```swift",
                "let rows = try db.select(from: \\.\(example?.accessorName ?? "records"), \\.a, \\.b) { $0.a > 2 }",
                "```")
            out.block("\(access)func select<Record: Table, each Value: SQLValueConvertible>(\n    from table: KeyPath<\(databaseType), TableAccessor<Record>>,\n    _ columns: repeat KeyPath<Record.Columns, Column<Record, each Value>>,\n    where predicate: (Record.Columns) -> some QueryExpression<Bool>\n) throws -> [(repeat each Value)]") { out in
                out.line("try self[keyPath: table].select(repeat each columns, where: predicate)")
            }
            out.line()
            out.doc("Sets one column to `value` in the rows of a table matching `predicate`. Returns the number of rows changed.")
            out.line("@discardableResult")
            out.block("\(access)func update<Record: Table, Value: SQLValueConvertible>(\n    _ table: KeyPath<\(databaseType), TableAccessor<Record>>,\n    set column: KeyPath<Record.Columns, Column<Record, Value>>, to value: Value,\n    where predicate: (Record.Columns) -> some QueryExpression<Bool>\n) throws -> Int") { out in
                out.line("try self[keyPath: table].update(column, to: value, where: predicate)")
            }
        }
    }

    /// The generic accessor, nested in the database type so that several generated databases in
    /// one module do not clash.
    func writeAccessor(to out: inout SourceWriter) {
        out.line()
        out.block("extension \(databaseType)") { out in
            out.doc(
                "The records of one table or view: counts, fetches with typed predicates or Swift filters,",
                "selections of chosen columns, inserts, updates and deletes.")
            out.block("\(access)struct TableAccessor<Record: Table>") { out in
                out.doc("The connection.")
                out.line("\(access)let database: Database")
                out.line()
                out.doc("Creates an accessor for the records of `Record` on `database`.")
                out.block("\(access)init(database: Database)") { out in
                    out.line("self.database = database")
                }
                out.line()
                out.doc("The number of rows.")
                out.block("\(access)func fetchCount() throws -> Int") { out in
                    out.line("try Record.fetchCount(database)")
                }
                out.line()
                out.doc("The number of rows matching `predicate`: `fetchCount { $0.name.hasPrefix(\"A\") }`.")
                out.block("\(access)func fetchCount(where predicate: (Record.Columns) -> some QueryExpression<Bool>) throws -> Int") { out in
                    out.line("try Record.where(predicate).fetchCount(database)")
                }
                out.line()
                out.doc("Every row.")
                out.block("\(access)func fetchAll() throws -> [Record]") { out in
                    out.line("try Record.fetchAll(database)")
                }
                out.line()
                out.doc("The rows matching `predicate`, evaluated by SQLite: `fetchAll { $0.name == \"AC/DC\" }`.")
                out.block("\(access)func fetchAll(where predicate: (Record.Columns) -> some QueryExpression<Bool>) throws -> [Record]") { out in
                    out.line("try Record.where(predicate).fetchAll(database)")
                }
                out.line()
                out.doc("The first row matching `predicate`, or `nil`.")
                out.block("\(access)func fetchOne(where predicate: (Record.Columns) -> some QueryExpression<Bool>) throws -> Record?") { out in
                    out.line("try Record.where(predicate).fetchOne(database)")
                }
                out.line()
                out.doc(
                    "The records `isIncluded` accepts, tested in Swift one row at a time as they are read:",
                    "`filter { $0.title == nil }`. Prefer `fetchAll(where:)` when SQL can express the test.")
                out.block("\(access)func filter(_ isIncluded: (Record) throws -> Bool) throws -> [Record]") { out in
                    out.line("let cursor = try database.fetchCursor(Record.self, Select<Record>().sql)")
                    out.line("var records: [Record] = []")
                    out.block("while let record = try cursor.next()") { out in
                        out.line("if try isIncluded(record) { records.append(record) }")
                    }
                    out.line("return records")
                }
                out.line()
                out.doc(
                    "Chosen columns of the rows matching `predicate`, as tuples (one column gives plain values):",
                    "`select(\\.id, \\.name) { $0.id > 2 }`.")
                out.block("\(access)func select<each Value: SQLValueConvertible>(\n    _ columns: repeat KeyPath<Record.Columns, Column<Record, each Value>>,\n    where predicate: (Record.Columns) -> some QueryExpression<Bool>\n) throws -> [(repeat each Value)]") { out in
                    out.line("try Record.where(predicate).select { scope in (repeat scope[keyPath: each columns]) }.fetchAll(database)")
                }
                out.line()
                out.doc("Chosen columns of every row, as tuples: `select(\\.id, \\.name)`.")
                out.block("\(access)func select<each Value: SQLValueConvertible>(\n    _ columns: repeat KeyPath<Record.Columns, Column<Record, each Value>>\n) throws -> [(repeat each Value)]") { out in
                    out.line("try Record.select { scope in (repeat scope[keyPath: each columns]) }.fetchAll(database)")
                }
                out.line()
                out.doc("Sets one column to `value` in the rows matching `predicate`. Returns the number of rows changed.")
                out.line("@discardableResult")
                out.block("\(access)func update<Value: SQLValueConvertible>(\n    _ column: KeyPath<Record.Columns, Column<Record, Value>>, to value: Value,\n    where predicate: (Record.Columns) -> some QueryExpression<Bool>\n) throws -> Int") { out in
                    out.line("let columns = Record.Columns(qualifier: Record.tableName)")
                    out.line("return try Update<Record>([columns[keyPath: column].set(to: value)]).where(predicate).execute(database)")
                }
                out.line()
                out.doc("Inserts `record` and returns it as inserted, with an `INTEGER PRIMARY KEY` set to the new rowid.")
                out.line("@discardableResult")
                out.block("\(access)func insert(_ record: Record) throws -> Record") { out in
                    out.line("try database.insert(record)")
                }
                out.line()
                out.doc("Deletes the rows matching `predicate`. Returns the number of rows deleted.")
                out.line("@discardableResult")
                out.block("\(access)func delete(where predicate: (Record.Columns) -> some QueryExpression<Bool>) throws -> Int") { out in
                    out.line("try Record.delete().where(predicate).execute(database)")
                }
            }
        }
        out.line()
        out.block("extension \(databaseType).TableAccessor where Record: PrimaryKeyedTable") { out in
            out.doc("The record with primary key `key`, or `nil`. A composite key is a tuple: `find((1, 2))`.")
            out.block("\(access)func find(_ key: Record.PrimaryKey) throws -> Record?") { out in
                out.line("try database.find(Record.self, key: key)")
            }
            out.line()
            out.doc("Writes every column of `record` to the row with its primary key. Returns whether such a row exists.")
            out.line("@discardableResult")
            out.block("\(access)func update(_ record: Record) throws -> Bool") { out in
                out.line("try database.update(record)")
            }
            out.line()
            out.doc("Deletes the row with `record`'s primary key. Returns whether there was one.")
            out.line("@discardableResult")
            out.block("\(access)func delete(_ record: Record) throws -> Bool") { out in
                out.line("try database.delete(record)")
            }
        }
    }

    /// `bundled(in:)` for a database file, plus `bundled()` reading `Bundle.module` when asked.
    func writeBundleAccessor(resourceName: String, resourceExtension: String, to out: inout SourceWriter) {
        out.line()
        out.block("extension \(databaseType)") { out in
            out.doc("The resource name of the database file the code was generated from.")
            out.line("\(access)static let resourceName = \(SwiftLiteral.string(resourceName))")
            out.doc("The file extension of the database file the code was generated from.")
            out.line("\(access)static let resourceExtension = \(SwiftLiteral.string(resourceExtension))")
            out.line()
            out.doc(
                "Opens the database file bundled as a resource of `bundle`, read-only.",
                "",
                "The file is looked up at the top of the bundle, then in `subdirectory`.",
                "",
                "- Throws: `DatabaseError` with `ResultCode.cantOpen` when the bundle has no such file,",
                "  and any error opening it.")
            out.block("\(access)static func bundled(in bundle: Bundle, subdirectory: String? = nil) throws -> \(databaseType)") { out in
                out.line("let url = bundle.url(forResource: resourceName, withExtension: resourceExtension)")
                out.line("    ?? bundle.url(forResource: resourceName, withExtension: resourceExtension, subdirectory: subdirectory)")
                out.block("guard let url else") { out in
                    out.line("throw DatabaseError(")
                    out.line("    resultCode: .cantOpen,")
                    out.line("    message: \"the bundle \\(bundle.bundlePath) has no resource \\(resourceName).\\(resourceExtension)\")")
                }
                out.line("return try \(databaseType)(path: url.path, readOnly: true)")
            }
            if model.options.generatesModuleBundleAccessor {
                out.line()
                out.doc("Opens the copy of the database file bundled with this module, read-only.")
                out.block("\(access)static func bundled() throws -> \(databaseType)") { out in
                    let subdirectory = model.options.resourceSubdirectory.map(SwiftLiteral.string) ?? "nil"
                    out.line("try bundled(in: .module, subdirectory: \(subdirectory))")
                }
            }
        }
    }

    // MARK: Records

    func conformances(of record: RecordModel) -> [String] {
        var list = [record.isKeyed ? "PrimaryKeyedTable" : "Table"]
        if record.canBeIdentifiable { list.append("Identifiable") }
        list.append("Hashable")
        if !record.needsCustomCodable { list.append("Codable") }
        list.append("Sendable")
        return list
    }

    func writeRecord(_ record: RecordModel, to out: inout SourceWriter) {
        let nested = model.configuration.nestRecords
        if nested {
            out.line("extension \(databaseType) {")
            out.indent()
        }
        out.doc(model.summary(of: record))
        out.block("\(access)struct \(record.typeName): \(conformances(of: record).joined(separator: ", "))") { out in
            model.writeProperties(of: record, to: &out)
            out.line()
            model.writeInitializer(of: record, to: &out)
            out.line()
            writeTableConformance(record, to: &out)
            if record.isKeyed { writeKey(record, to: &out) }
            if record.canBeIdentifiable { model.writeIdentity(of: record, to: &out) }
        }
        if nested {
            out.outdent()
            out.line("}")
        }
        if record.needsCustomCodable {
            out.line()
            writeCustomCodable(record, to: &out)
        }
    }

    func writeTableConformance(_ record: RecordModel, to out: inout SourceWriter) {
        let type = record.typeName
        out.doc("The \(record.isView ? "view" : "table")'s name.")
        out.line("\(access)static let tableName = \(SwiftLiteral.string(record.sqlName))")
        out.line()
        out.doc("The columns, in the order rows are decoded and bound.")
        out.line("\(access)static let columnDescriptors: [ColumnDescriptor] = [")
        out.indent()
        for property in record.properties {
            out.line(columnDescriptor(property, in: record) + ",")
        }
        out.outdent()
        out.line("]")
        if needsExplicitForeignKeys(record) {
            out.line()
            out.doc("The foreign keys, in declaration order.")
            out.line("\(access)static let foreignKeys: [ForeignKeyDescriptor] = [")
            out.indent()
            for key in record.foreignKeys {
                out.line(foreignKeyDescriptor(key.key) + ",")
            }
            out.outdent()
            out.line("]")
        }
        if !record.indexes.isEmpty {
            out.line()
            out.doc("The table's `CREATE INDEX` indexes.")
            out.line("\(access)static let indexes: [IndexDescriptor] = [")
            out.indent()
            for index in record.indexes {
                let columns = index.columns.map(SwiftLiteral.string).joined(separator: ", ")
                out.line("IndexDescriptor(name: \(SwiftLiteral.string(index.name)), columns: [\(columns)]\(index.isUnique ? ", isUnique: true" : "")),")
            }
            out.outdent()
            out.line("]")
        }
        if record.isWithoutRowID {
            out.line()
            out.doc("The table is declared `WITHOUT ROWID`.")
            out.line("\(access)static let isWithoutRowID = true")
        }
        out.line()
        out.doc("The typed columns, for queries: `\(type).where { $0.\(record.properties.first?.swiftName ?? "column") == … }`.")
        out.block("\(access)struct Columns: TableColumns") { out in
            for property in record.properties {
                out.doc("Column \(SwiftLiteral.codeSpan(property.sqlName)).")
                out.line("\(access)let \(property.escapedName): Column<\(type), \(property.typeText)>")
            }
            out.line()
            out.doc("The columns, qualified by the table name or an alias.")
            out.block("\(access)init(qualifier: String)") { out in
                for property in record.properties {
                    out.line("self.\(property.swiftName) = Column(qualifier, \(SwiftLiteral.string(property.sqlName)))")
                }
            }
        }
        out.line()
        out.doc("Decodes a record from columns 0, 1, 2 … of `row`, in ``columnDescriptors`` order.")
        out.block("\(access)init(row: borrowing Row) throws") { out in
            for (index, property) in record.properties.enumerated() {
                out.line("self.\(property.swiftName) = \(decodeExpression(property, index: index))")
            }
        }
        out.line()
        out.doc("Binds every column, in ``columnDescriptors`` order, to the parameters from `index` on.")
        out.block("\(access)func bindColumns(to statement: Statement, startingAt index: Int) throws") { out in
            for (index, property) in record.properties.enumerated() {
                out.line(bindStatement(property, offset: index))
            }
        }
        if let alias = record.rowIDAlias {
            let property = record.properties[alias]
            out.line()
            out.doc("Stores the rowid SQLite assigned to the inserted record in \(SwiftLiteral.codeSpan(property.sqlName)).")
            let value = property.type == .int64 ? "rowID" : "\(property.type.rawValue)(truncatingIfNeeded: rowID)"
            out.block("\(access)mutating func didInsert(rowID: Int64)") { out in
                out.line("self.\(property.swiftName) = \(value)")
            }
        }
    }

    func decodeExpression(_ property: PropertyModel, index: Int) -> String {
        if property.type == .date && property.dateStorage != .connection {
            return "try row.date(at: \(index), strategy: .\(property.dateStorage.rawValue))"
        }
        return "try row.decode(at: \(index))"
    }

    func bindStatement(_ property: PropertyModel, offset: Int) -> String {
        let position = offset == 0 ? "index" : "index + \(offset)"
        if property.type == .date && property.dateStorage != .connection {
            return "try statement.bind(self.\(property.swiftName), at: Int(\(position)), strategy: .\(property.dateStorage.rawValue))"
        }
        if property.type == .uuid && property.uuidStorage == .blob {
            return "try statement.bind(self.\(property.swiftName), at: Int(\(position)), storage: .blob)"
        }
        return "try self.\(property.swiftName).bind(to: statement, at: \(position))"
    }

    func columnDescriptor(_ property: PropertyModel, in record: RecordModel) -> String {
        var arguments = ["name: \(SwiftLiteral.string(property.sqlName))"]
        if !property.declaredType.isEmpty && !property.isInferredType {
            arguments.append("sqlType: \(SwiftLiteral.string(property.declaredType))")
        }
        let nullable = record.isTable ? !(property.isNotNull || property.isRowIDAlias) : !property.isNotNull
        if !nullable || property.isRowIDAlias { arguments.append("isNullable: false") }
        if let position = property.primaryKeyPosition { arguments.append("primaryKeyPosition: \(position)") }
        if property.isAutoIncrement { arguments.append("isAutoIncrement: true") }
        if property.isUnique && property.primaryKeyPosition == nil { arguments.append("isUnique: true") }
        if let sql = property.defaultSQL { arguments.append("defaultSQL: \(SwiftLiteral.sql(sql))") }
        if let collation = property.collation { arguments.append("collation: \(SwiftLiteral.string(collation))") }
        if let reference = property.reference, !needsExplicitForeignKeys(record) {
            var parts = ["table: \(SwiftLiteral.string(reference.referencedTable))"]
            if reference.namesReferencedColumns, let column = reference.referencedColumns.first {
                parts.append("column: \(SwiftLiteral.string(column))")
            }
            if reference.onDelete != .noAction { parts.append("onDelete: \(foreignKeyAction(reference.onDelete))") }
            if reference.onUpdate != .noAction { parts.append("onUpdate: \(foreignKeyAction(reference.onUpdate))") }
            arguments.append("references: ColumnReference(\(parts.joined(separator: ", ")))")
        }
        return "ColumnDescriptor(" + arguments.joined(separator: ", ") + ")"
    }

    /// Multi-column keys, or a column with several keys, need the explicit list.
    func needsExplicitForeignKeys(_ record: RecordModel) -> Bool {
        guard record.isTable else { return false }
        let singleColumnKeys = record.foreignKeys.filter { $0.key.columns.count == 1 }
        let columns = singleColumnKeys.map { $0.key.columns[0].lowercased() }
        return singleColumnKeys.count != record.foreignKeys.count || Set(columns).count != columns.count
    }

    func foreignKeyDescriptor(_ key: DatabaseSchemaForeignKey) -> String {
        var parts = [
            "columns: [" + key.columns.map(SwiftLiteral.string).joined(separator: ", ") + "]",
            "referencedTable: \(SwiftLiteral.string(key.referencedTable))",
        ]
        if key.namesReferencedColumns {
            parts.append("referencedColumns: [" + key.referencedColumns.map(SwiftLiteral.string).joined(separator: ", ") + "]")
        }
        if key.onDelete != .noAction { parts.append("onDelete: \(foreignKeyAction(key.onDelete))") }
        if key.onUpdate != .noAction { parts.append("onUpdate: \(foreignKeyAction(key.onUpdate))") }
        return "ForeignKeyDescriptor(" + parts.joined(separator: ", ") + ")"
    }

    func foreignKeyAction(_ action: DatabaseSchemaForeignKey.Action) -> String {
        switch action {
        case .noAction: ".noAction"
        case .restrict: ".restrict"
        case .setNull: ".setNull"
        case .setDefault: ".setDefault"
        case .cascade: ".cascade"
        }
    }

    func writeKey(_ record: RecordModel, to out: inout SourceWriter) {
        let keyType = model.primaryKeyType(of: record)
        out.line()
        if record.primaryKey.count == 1 {
            out.doc("The primary key, \(SwiftLiteral.codeSpan(record.properties[record.primaryKey[0]].sqlName)).")
            out.line("\(access)var primaryKey: \(keyType) { self.\(record.properties[record.primaryKey[0]].swiftName) }")
            let property = record.properties[record.primaryKey[0]]
            if needsKeyArguments(property) {
                out.line()
                out.doc("The key's value, stored as the column stores it.")
                out.block("\(access)static func primaryKeyArguments(_ key: \(keyType)) -> [(any SQLBindable)?]") { out in
                    out.line("[\(argumentExpression(property, value: "key"))]")
                }
            }
        } else {
            let names = record.primaryKey.map { record.properties[$0].sqlName }
            out.doc("The primary key, (" + names.map(SwiftLiteral.codeSpan).joined(separator: ", ") + ").")
            let values = record.primaryKey.map { "self.\(record.properties[$0].swiftName)" }
            out.line("\(access)var primaryKey: \(keyType) { (\(values.joined(separator: ", "))) }")
            out.line()
            out.doc("The key's values, in key order.")
            out.block("\(access)static func primaryKeyArguments(_ key: \(keyType)) -> [(any SQLBindable)?]") { out in
                let arguments = record.primaryKey.enumerated().map { offset, index in
                    argumentExpression(record.properties[index], value: "key.\(offset)")
                }
                out.line("[\(arguments.joined(separator: ", "))]")
            }
        }
    }

    /// Whether a key column's value needs converting to its storage before binding.
    func needsKeyArguments(_ property: PropertyModel) -> Bool {
        (property.type == .date && property.dateStorage != .connection) || (property.type == .uuid && property.uuidStorage == .blob)
    }

    /// A bindable expression for `value`, converted to the column's storage when it has one.
    func argumentExpression(_ property: PropertyModel, value: String) -> String {
        let converter: String
        if property.type == .date && property.dateStorage != .connection {
            converter = "EncodedDate($0, strategy: .\(property.dateStorage.rawValue))"
        } else if property.type == .uuid && property.uuidStorage == .blob {
            converter = "UUIDStorage.blob.sqlValue(for: $0)"
        } else {
            return value
        }
        let single = converter.replacingOccurrences(of: "$0", with: value)
        return property.isOptional ? "\(value).map { \(converter) }" : single
    }

    // MARK: Codable for records holding SQLValue

    func writeCustomCodable(_ record: RecordModel, to out: inout SourceWriter) {
        out.block("extension \(record.qualifiedTypeName): Codable") { out in
            out.block("\(access)enum CodingKeys: String, CodingKey") { out in
                for property in record.properties {
                    out.line("case \(property.escapedName) = \(SwiftLiteral.string(property.swiftName))")
                }
            }
            out.line()
            out.doc("Decodes the record; `SQLValue` columns are read as JSON null, numbers, strings or `{\"blob\": …}`.")
            out.block("\(access)init(from decoder: any Decoder) throws") { out in
                out.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
                for property in record.properties {
                    if property.type == .sqlValue {
                        let read = "try container.decodeIfPresent(SlateCodableValue.self, forKey: .\(property.swiftName))?.value"
                        out.line("self.\(property.swiftName) = \(read)\(property.isOptional ? "" : " ?? .null")")
                    } else {
                        let method = property.isOptional ? "decodeIfPresent" : "decode"
                        out.line("self.\(property.swiftName) = try container.\(method)(\(property.type.rawValue).self, forKey: .\(property.swiftName))")
                    }
                }
            }
            out.line()
            out.doc("Encodes the record; see ``init(from:)``.")
            out.block("\(access)func encode(to encoder: any Encoder) throws") { out in
                out.line("var container = encoder.container(keyedBy: CodingKeys.self)")
                for property in record.properties {
                    if property.type == .sqlValue {
                        let value = property.isOptional ? "self.\(property.swiftName).map(SlateCodableValue.init)" : "SlateCodableValue(self.\(property.swiftName))"
                        out.line("try container.encodeIfPresent(\(value), forKey: .\(property.swiftName))")
                    } else {
                        let method = property.isOptional ? "encodeIfPresent" : "encode"
                        out.line("try container.\(method)(self.\(property.swiftName), forKey: .\(property.swiftName))")
                    }
                }
            }
        }
    }

    func writeValueCoding(to out: inout SourceWriter) {
        let source = #"""
        /// Codes an `SQLValue` as JSON null, a number, a string, or `{"blob": base64}`.
        fileprivate struct SlateCodableValue: Codable {
            let value: SQLValue

            init(_ value: SQLValue) {
                self.value = value
            }

            private enum Keys: String, CodingKey {
                case blob
            }

            init(from decoder: any Decoder) throws {
                if let keyed = try? decoder.container(keyedBy: Keys.self), let data = try? keyed.decode(Data.self, forKey: .blob) {
                    value = .blob(data)
                    return
                }
                let container = try decoder.singleValueContainer()
                if container.decodeNil() {
                    value = .null
                } else if let integer = try? container.decode(Int64.self) {
                    value = .integer(integer)
                } else if let real = try? container.decode(Double.self) {
                    value = .real(real)
                } else {
                    value = .text(try container.decode(String.self))
                }
            }

            func encode(to encoder: any Encoder) throws {
                switch value {
                case .null:
                    var container = encoder.singleValueContainer()
                    try container.encodeNil()
                case .integer(let integer):
                    var container = encoder.singleValueContainer()
                    try container.encode(integer)
                case .real(let real):
                    var container = encoder.singleValueContainer()
                    try container.encode(real)
                case .text(let text):
                    var container = encoder.singleValueContainer()
                    try container.encode(text)
                case .blob(let data):
                    var container = encoder.container(keyedBy: Keys.self)
                    try container.encode(data, forKey: .blob)
                }
            }
        }
        """#
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) { out.line(String(line)) }
    }

    // MARK: Accessor extensions: find through keys, relationships

    func writeAccessorExtension(_ record: RecordModel, index: Int, to out: inout SourceWriter) {
        // `db.albums.fetch(for: artist)`: this record's rows referencing a parent.
        let keys = record.foreignKeys.filter { $0.parent != nil }
        guard !keys.isEmpty else { return }
        out.line()
        out.block("extension \(databaseType).TableAccessor where Record == \(record.qualifiedTypeName)") { out in
            for (offset, key) in keys.enumerated() {
                guard let parentIndex = key.parent else { continue }
                let parent = model.records[parentIndex]
                let parameter = parameterName(for: parent)
                if offset > 0 { out.line() }
                out.doc(
                    "The \(SwiftLiteral.codeSpan(record.sqlName)) rows whose "
                        + key.columns.map { SwiftLiteral.codeSpan(record.properties[$0].sqlName) }.joined(separator: ", ")
                        + " reference `\(parameter.replacingOccurrences(of: "`", with: ""))`.")
                out.block("\(access)func fetch(\(key.accessorLabel) \(parameter): \(parent.qualifiedTypeName)) throws -> [Record]") { out in
                    out.line(childrenFetch(child: record, key: key, parent: parent, parentValue: parameter, db: "database"))
                }
            }
        }
    }

    /// `try db.fetchAll(Child.self, sql: …, arguments: [parent.key])`.
    func childrenFetch(child: RecordModel, key: ForeignKeyModel, parent: RecordModel, parentValue: String, db: String) -> String {
        let arguments = key.parentColumns.map { argumentExpression(parent.properties[$0], value: "\(parentValue).\(parent.properties[$0].swiftName)") }
        return "try \(db).fetchAll(\(child.qualifiedTypeName).self, sql: \(SwiftLiteral.sql(model.childrenSQL(of: child, key: key))), arguments: [\(arguments.joined(separator: ", "))])"
    }

    func parameterName(for record: RecordModel) -> String {
        let name = Naming.propertyName(record.typeName)
        return ["database", "db", "record", "predicate"].contains(name) ? name + "Record" : Naming.escaped(name)
    }

    // MARK: Record-attached operations

    func writeRecordOperations(_ record: RecordModel, index: Int, to out: inout SourceWriter) {
        let type = record.qualifiedTypeName
        out.line()
        out.block("extension \(type)") { out in
            out.doc("Every row.")
            out.block("\(access)static func fetch(in db: Database) throws -> [\(type)]") { out in
                out.line("try fetchAll(db)")
            }
            out.line()
            out.doc("The rows matching `predicate`: `\(record.typeName).fetch(in: db) { $0.\(record.properties.first?.swiftName ?? "column") == … }`.")
            out.block("\(access)static func fetch(in db: Database, where predicate: (Columns) -> some QueryExpression<Bool>) throws -> [\(type)]") { out in
                out.line("try self.where(predicate).fetchAll(db)")
            }
            out.line()
            out.doc("The number of rows.")
            out.block("\(access)static func fetchCount(in db: Database) throws -> Int") { out in
                out.line("try fetchCount(db)")
            }
            if !record.isView {
                out.line()
                out.doc("Inserts the record\(record.rowIDAlias != nil ? " and stores the rowid SQLite assigned to it" : "").")
                out.block("\(access)mutating func insert(into db: Database) throws") { out in
                    out.line("self = try db.insert(self)")
                }
            }
            if record.isKeyed {
                out.line()
                out.doc("Writes every column to the row with the record's primary key. Returns whether such a row exists.")
                out.line("@discardableResult")
                out.block("\(access)func update(in db: Database) throws -> Bool") { out in
                    out.line("try db.update(self)")
                }
                out.line()
                out.doc("Deletes the row with the record's primary key. Returns whether there was one.")
                out.line("@discardableResult")
                out.block("\(access)func delete(from db: Database) throws -> Bool") { out in
                    out.line("try db.delete(self)")
                }
            }
            // Parents through this record's foreign keys.
            for key in record.foreignKeys {
                guard let parentIndex = key.parent else { continue }
                let parent = model.records[parentIndex]
                out.line()
                out.doc("The \(SwiftLiteral.codeSpan(parent.sqlName)) row this record references, or `nil`.")
                out.block("\(access)func \(key.parentMethodName)(in db: Database) throws -> \(parent.qualifiedTypeName)?") { out in
                    let arguments = key.columns.map { argumentExpression(record.properties[$0], value: "self.\(record.properties[$0].swiftName)") }
                    out.line("try db.fetchOne(\(parent.qualifiedTypeName).self, sql: \(SwiftLiteral.sql(model.parentSQL(of: parent, key: key))), arguments: [\(arguments.joined(separator: ", "))])")
                }
            }
            // Children referencing this record.
            for (child, key) in model.children(of: index) {
                out.line()
                out.doc("The \(SwiftLiteral.codeSpan(child.sqlName)) rows referencing this record.")
                out.block("\(access)func \(key.childrenMethodName)(in db: Database) throws -> [\(child.qualifiedTypeName)]") { out in
                    out.line(childrenFetch(child: child, key: key, parent: record, parentValue: "self", db: "db"))
                }
            }
            if case .virtualTable(let module) = record.kind, ["fts5", "fts4", "fts3"].contains(module) {
                out.line()
                out.doc("The rows matching the full-text query `query` (`MATCH`).")
                out.block("\(access)static func match(_ query: String, in db: Database) throws -> [\(type)]") { out in
                    let sql = model.selectSQL(of: record) + " WHERE " + record.sqlName.sqlQuoted + " MATCH ?"
                    out.line("try db.fetchAll(\(type).self, sql: \(SwiftLiteral.sql(sql)), arguments: [query])")
                }
            }
        }
    }
}

import SlateSchema

typealias DatabaseSchemaForeignKey = DatabaseSchema.ForeignKey
