import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery

/// Writes the Slate style: records conforming to Slate's `Table` (or `PrimaryKeyedTable`) through
/// the shared emitter (`SlateCodeModel`, which the `@Table` macro uses too), and a database type
/// that lists the tables and opens connections.
///
/// Records get no operations of their own: every operation is the library's, spelled the same way
/// for generated, macro-made and hand-written tables (`Album.where { … }.fetchAll(db)`,
/// `Album.insert(album).execute(db)`, `Album.belonging(to: artist).fetchAll(db)`).
struct SlateRenderer {
    let model: GenerationModel

    var access: String { model.access }
    var databaseType: String { model.databaseTypeName }

    func write(to out: inout SourceWriter) {
        writeDatabaseType(to: &out)
        if case .databaseFile(let name, let fileExtension) = model.options.source {
            writeBundleAccessor(resourceName: name, resourceExtension: fileExtension, to: &out)
        }
        writeQueries(to: &out)
        for record in model.records {
            out.line()
            out.line("// MARK: - \(record.typeName)")
            out.line()
            writeRecord(record, to: &out)
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
        out.doc("The \(SwiftLiteral.codeSpan(databaseType)) database: its tables, and connections to it.")
        if out.documents, let example {
            out.doc(
                "",
                "```swift",
                "let db = try \(databaseType).open(path: \"path/to/file.sqlite\", readOnly: true)",
                "let count = try await db.read { db in try \(example.qualifiedTypeName).all().fetchCount(db) }",
                "```")
        }
        out.block("\(access)enum \(databaseType)") { out in
            out.doc("The record types of the tables and views, in name order.")
            out.line("\(access)static let tables: [any Table.Type] = [")
            out.indent()
            for record in records { out.line("\(record.qualifiedTypeName).self,") }
            out.outdent()
            out.line("]")
            out.line()
            out.doc(
                "How the tables and views of `db` differ from ``tables``: empty when the database matches",
                "this code. Check a file before using it, to refuse one made for another version of the app.",
                "",
                "- Throws: `DatabaseError` when the schema cannot be read.")
            out.block("\(access)static func verifySchema(_ db: Database) throws -> [SchemaDifference]") { out in
                out.line("try db.verifySchema(of: tables)")
            }
            out.line()
            out.doc(
                "Opens the database file at `path` on a queue: one serialized connection, with blocking,",
                "`async` and completion-handler reads and writes.",
                "",
                "- Parameters:",
                "  - path: The database file.",
                "  - readOnly: Opens the file read-only, as shipped databases should be. Default `false`:",
                "    the file is opened for reading and writing, and created when missing.",
                "  - configuration: How the connection opens.",
                "- Throws: `DatabaseError` when the file cannot be opened.")
            out.block(
                "\(access)static func open(path: String, readOnly: Bool = false, configuration: Database.Configuration = .init()) throws -> DatabaseQueue"
            ) { out in
                out.line("var configuration = configuration")
                out.line("configuration.isReadOnly = readOnly")
                out.line("return try DatabaseQueue(location: .file(path), configuration: configuration)")
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
                "Opens the database file bundled as a resource of `bundle`, read-only, on a queue.",
                "",
                "The file is looked up at the top of the bundle, then in `subdirectory`.",
                "",
                "- Throws: `DatabaseError` with `ResultCode.cantOpen` when the bundle has no such file,",
                "  and any error opening it.")
            out.block(
                "\(access)static func bundled(in bundle: Bundle, subdirectory: String? = nil, configuration: Database.Configuration = .init()) throws -> DatabaseQueue"
            ) { out in
                out.line("let url = bundle.url(forResource: resourceName, withExtension: resourceExtension)")
                out.line(
                    "    ?? bundle.url(forResource: resourceName, withExtension: resourceExtension, subdirectory: subdirectory)"
                )
                out.block("guard let url else") { out in
                    out.line("throw DatabaseError(")
                    out.line("    resultCode: .cantOpen,")
                    out.line(
                        "    message: \"the bundle \\(bundle.bundlePath) has no resource \\(resourceName).\\(resourceExtension)\")"
                    )
                }
                out.line("return try open(path: url.path, readOnly: true, configuration: configuration)")
            }
            if model.options.generatesModuleBundleAccessor {
                out.line()
                out.doc("Opens the copy of the database file bundled with this module, read-only.")
                out.block(
                    "\(access)static func bundled(configuration: Database.Configuration = .init()) throws -> DatabaseQueue"
                ) { out in
                    let subdirectory = model.options.resourceSubdirectory.map(SwiftLiteral.string) ?? "nil"
                    out.line("try bundled(in: .module, subdirectory: \(subdirectory), configuration: configuration)")
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
        // `init(row:)` passes its reads to a memberwise initializer (see
        // `TableConformance.DecodingShape`). An internal record keeps the one Swift synthesizes (its
        // stored properties carry the defaults), and `init(row:)` goes in an extension. A public or
        // package record needs an initializer of that access, which Swift does not synthesize: the
        // record declares it, with no initial value on any stored property (optionals spelled
        // `Optional<T>`), so that Swift 6.3 does not copy the record once more per row.
        let usesMemberwise = access.isEmpty
        var conformance = conformance(of: record)
        conformance.decodingShape = .throughInitializer
        out.doc(model.summary(of: record))
        out.block("\(access)struct \(record.typeName): \(conformances(of: record).joined(separator: ", "))") { out in
            model.writeProperties(of: record, withDefaults: usesMemberwise, optionalsInFull: !usesMemberwise, to: &out)
            out.line()
            if usesMemberwise {
                if out.documents {
                    let signature = "init(" + record.properties.map { $0.swiftName + ":" }.joined() + ")"
                    var paragraphs = model.initializerDocumentation(of: record).joined().components(separatedBy: "\n\n")
                    paragraphs[0] =
                        "`\(signature)`, the memberwise initializer Swift synthesizes, creates a record in memory;"
                        + " nothing is written to the database."
                    for paragraph in paragraphs { out.line("// " + paragraph) }
                    out.line()
                }
            } else {
                model.writeInitializer(of: record, to: &out)
                out.line()
            }
            conformance.writeMembers(to: &out, decoding: !usesMemberwise)
            if record.canBeIdentifiable { model.writeIdentity(of: record, to: &out) }
        }
        if nested {
            out.outdent()
            out.line("}")
        }
        if usesMemberwise {
            out.line()
            out.block("extension \(record.qualifiedTypeName)") { out in
                conformance.writeDecoding(to: &out)
            }
        }
        if record.needsCustomCodable {
            out.line()
            writeCustomCodable(record, to: &out)
        }
    }

    /// The record in the shared emitter's terms.
    func conformance(of record: RecordModel) -> TableConformance {
        var columns: [TableConformance.Column] = []
        for property in record.properties {
            let storage: TableConformance.Storage
            if property.type == .date && property.dateStorage != .connection {
                storage = .date(strategy: "." + property.dateStorage.rawValue)
            } else if property.type == .uuid && property.uuidStorage == .blob {
                storage = .uuid(storage: ".blob")
            } else {
                storage = .plain
            }
            let declaredType = property.isInferredType ? "" : property.declaredType
            columns.append(
                TableConformance.Column(
                    name: property.sqlName, typeExpression: SwiftLiteral.string(declaredType),
                    isNotNull: property.isNotNull,
                    primaryKeyPosition: record.isTable ? property.primaryKeyPosition : nil,
                    // A lone INTEGER key of a rowid table that is not the rowid is declared DESC.
                    isPrimaryKeyDescending: record.isTable && !record.isWithoutRowID && record.primaryKey.count == 1
                        && property.primaryKeyPosition != nil && !property.isRowIDAlias
                        && property.declaredType.trimmingCharacters(in: .whitespaces).uppercased() == "INTEGER",
                    isAutoIncrement: property.isAutoIncrement, isUnique: property.isUniqueConstraint,
                    defaultSQL: record.isView ? nil : property.defaultSQL, collation: property.collation,
                    property: TableConformance.Property(
                        name: property.escapedName, baseType: property.type.rawValue, isOptional: property.isOptional,
                        storage: storage,
                        isNilForDefault: property.isNilForDefault),
                    documentation: "Column \(SwiftLiteral.codeSpan(property.sqlName))."))
        }
        for omitted in record.omittedColumns {
            columns.append(
                TableConformance.Column(
                    name: omitted.name, typeExpression: SwiftLiteral.string(omitted.declaredType),
                    isNotNull: omitted.isNotNull,
                    generation: omitted.generation.rawValue, generationExpression: nil, property: nil))
        }
        let kind: TableConformance.Kind
        switch record.kind {
        case .table: kind = .table
        case .view: kind = .view
        case .virtualTable(let module): kind = .virtual(module: module, arguments: record.virtualArguments)
        }
        let foreignKeys =
            record.isTable
            ? record.foreignKeys.map { key in
                TableConformance.ForeignKey(
                    columns: key.key.columns, referencedTable: SwiftLiteral.string(key.key.referencedTable),
                    referencedColumns: key.key.referencedColumns,
                    onDelete: key.key.onDelete == .noAction ? nil : "." + foreignKeyActionName(key.key.onDelete),
                    onUpdate: key.key.onUpdate == .noAction ? nil : "." + foreignKeyActionName(key.key.onUpdate))
            } : []
        let indexes = record.indexes.map { index in
            TableConformance.Index(
                name: index.name, columns: index.columns, isUnique: index.isUnique, condition: index.condition)
        }
        var conformance = TableConformance(
            typeName: record.typeName, tableName: record.sqlName, kind: kind, access: access, columns: columns,
            foreignKeys: foreignKeys, indexes: indexes, uniqueConstraints: record.uniqueConstraints,
            isWithoutRowID: record.isWithoutRowID, isStrict: record.isStrict)
        conformance.associations = record.associations
        return conformance
    }

    func foreignKeyActionName(_ action: ForeignKeyAction) -> String {
        switch action {
        case .noAction: "noAction"
        case .restrict: "restrict"
        case .setNull: "setNull"
        case .setDefault: "setDefault"
        case .cascade: "cascade"
        }
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
            out.doc(
                "Decodes the record; `SQLValue` columns are read as JSON null, numbers, strings or `{\"blob\": …}`.")
            out.block("\(access)init(from decoder: any Decoder) throws") { out in
                out.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
                for property in record.properties {
                    if property.type == .sqlValue {
                        let read =
                            "try container.decodeIfPresent(SlateCodableValue.self, forKey: .\(property.swiftName))?.value"
                        out.line("self.\(property.swiftName) = \(read)\(property.isOptional ? "" : " ?? .null")")
                    } else {
                        let method = property.isOptional ? "decodeIfPresent" : "decode"
                        out.line(
                            "self.\(property.swiftName) = try container.\(method)(\(property.type.rawValue).self, forKey: .\(property.swiftName))"
                        )
                    }
                }
            }
            out.line()
            out.doc("Encodes the record; see ``init(from:)``.")
            out.block("\(access)func encode(to encoder: any Encoder) throws") { out in
                out.line("var container = encoder.container(keyedBy: CodingKeys.self)")
                for property in record.properties {
                    if property.type == .sqlValue {
                        let value =
                            property.isOptional
                            ? "self.\(property.swiftName).map(SlateCodableValue.init)"
                            : "SlateCodableValue(self.\(property.swiftName))"
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

}
