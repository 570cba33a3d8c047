import Foundation
import SlateCodeModel
import SlateCore
import SlateQuery
import SlateSchema

/// Everything both styles render, decided once: names, types, defaults, keys and relationships.
struct GenerationModel {
    var databaseTypeName: String
    var records: [RecordModel]
    var configuration: GeneratorConfiguration
    var options: GenerationOptions
    /// For each record index, the foreign keys of other records that reference it, in order.
    var childrenByParent: [Int: [(child: Int, key: Int)]] = [:]
    /// The named queries of the `.sql` inputs, in file order.
    var queries: [QueryModel] = []

    /// The (child record, foreign key) pairs referencing the record at `index`.
    func children(of index: Int) -> [(child: RecordModel, key: ForeignKeyModel)] {
        (childrenByParent[index] ?? []).map { (records[$0.child], records[$0.child].foreignKeys[$0.key]) }
    }

    /// The style of record being rendered decides a few types (no `SQLValue` without Slate).
    var usesSlate: Bool { configuration.style != .raw }
}

/// One table, view or virtual table as the generator writes it: more than 15 stored properties, on
/// purpose, each a plain fact of the schema the templates read.
struct RecordModel {
    enum Kind: Equatable {
        case table
        case view
        case virtualTable(module: String)
    }

    var kind: Kind
    var sqlName: String
    /// The Swift type name, unqualified.
    var typeName: String
    /// The type name as written in generated code: qualified when records are nested.
    var qualifiedTypeName: String
    /// Stems of raw function names: `artist`, `artists`.
    var rawSingular: String
    var rawPlural: String
    var properties: [PropertyModel]
    /// Property indexes of the primary key, in key order.
    var primaryKey: [Int]
    var isWithoutRowID: Bool
    var isStrict: Bool
    /// Generated columns left out of the record.
    var omittedColumns: [TableSchema.Column]
    /// Foreign keys from this record's table.
    var foreignKeys: [ForeignKeyModel]
    /// Explicit `CREATE INDEX` indexes on plain columns.
    var indexes: [TableSchema.Index]
    /// Multi-column `UNIQUE` constraints.
    var uniqueConstraints: [[String]] = []
    /// The arguments of a virtual table's module, `""` for other records.
    var virtualArguments: String
    /// The associations written in the record's `Columns` (`GenerationModel+Associations.swift`).
    var associations: [TableConformance.Association] = []

    var isTable: Bool { kind == .table }
    var isView: Bool { kind == .view }
    var isVirtual: Bool {
        if case .virtualTable = kind { return true }
        return false
    }
    var rowIDAlias: Int? { properties.firstIndex { $0.isRowIDAlias } }
    var isKeyed: Bool { isTable && !primaryKey.isEmpty }
    /// Whether `Identifiable` can be adopted without clashing with a column called `id`: the key
    /// is that column, or no column is called `id` (the conformance then adds `var id`).
    var canBeIdentifiable: Bool {
        guard isKeyed else { return false }
        if keyIsNamedID { return true }
        return !properties.contains { $0.swiftName == "id" }
    }
    /// The name of the key property when it is `id` already.
    var keyIsNamedID: Bool { primaryKey.count == 1 && properties[primaryKey[0]].swiftName == "id" }
    var needsCustomCodable: Bool { properties.contains { $0.type == .sqlValue } }
}

/// One column as the generator writes it: about 20 stored properties, on purpose, each a plain fact
/// the templates read (names, type, nullability, key, default, generated-ness, collation, …).
struct PropertyModel {
    var sqlName: String
    /// The identifier, without backticks.
    var swiftName: String
    var type: SwiftType
    var isOptional: Bool
    /// The declared type, `""` when none; for views, the declared or inferred type.
    var declaredType: String
    /// Whether the type was inferred from a view expression.
    var isInferredType: Bool
    var isNotNull: Bool
    var defaultSQL: String?
    /// The Swift default of the initializer parameter, if any.
    var swiftDefault: String?
    var primaryKeyPosition: Int?
    var isRowIDAlias: Bool
    var isAutoIncrement: Bool
    /// Whether the column's values are unique (a key, a constraint or a unique index).
    var isUnique: Bool
    /// Whether the column has its own `UNIQUE` constraint.
    var isUniqueConstraint: Bool = false
    var collation: String?
    var dateStorage: GeneratorConfiguration.DateStorage
    var uuidStorage: GeneratorConfiguration.UUIDStorage
    /// The single-column foreign key declared on this column, for its descriptor.
    var reference: TableSchema.ForeignKey?
    /// Whether the property is optional only so that `nil` lets the column's SQL `DEFAULT` apply
    /// (a `NOT NULL` column whose default is not a Swift literal, such as `CURRENT_TIMESTAMP`).
    var isNilForDefault = false

    /// The Swift type as written, with `?` when optional.
    var typeText: String { type.rawValue + (isOptional ? "?" : "") }
    /// The identifier as written where a keyword must be escaped.
    var escapedName: String { Naming.escaped(swiftName) }
}

struct ForeignKeyModel {
    var key: TableSchema.ForeignKey
    /// Property indexes in the child (this record).
    var columns: [Int]
    /// The parent record's index in the model, when it is generated.
    var parent: Int?
    /// Property indexes in the parent, matching ``columns``.
    var parentColumns: [Int]
    /// On the child record: `fetchArtist(in:)`.
    var parentMethodName: String
    /// On the parent record: `fetchAlbums(in:)`.
    var childrenMethodName: String
    /// The argument label of the accessor's `fetch(for:)`.
    var accessorLabel: String
}

/// What the generator needs besides the schema.
public struct GenerationOptions: Sendable, Hashable {
    /// Where the schema came from.
    public enum Source: Sendable, Hashable {
        /// An SQLite database file, which may be bundled as a resource called `resourceName` with
        /// extension `resourceExtension`.
        case databaseFile(resourceName: String, resourceExtension: String)
        /// SQL scripts: there is no database file to bundle.
        case sqlScripts
    }

    /// The configuration.
    public var configuration: GeneratorConfiguration
    /// The database type's name; when `nil`, the configuration's, else `"Database"` prefixed by
    /// the input's name.
    public var databaseTypeName: String
    /// Where the schema came from. Only a database file gets a bundled-resource accessor.
    public var source: Source
    /// Whether to write an accessor that opens the database file from the module's resource
    /// bundle (`Bundle.module`). Only the build-tool and command plugins set it, for database files
    /// the target declares as resources; it is ignored for SQL scripts. Default `false`.
    public var generatesModuleBundleAccessor: Bool
    /// The directory of the database file inside the resource bundle, when it is not at the top
    /// (a target that copies a whole `Resources` directory). Default `nil`.
    public var resourceSubdirectory: String?

    /// Creates options.
    public init(
        configuration: GeneratorConfiguration = GeneratorConfiguration(), databaseTypeName: String,
        source: Source, generatesModuleBundleAccessor: Bool = false, resourceSubdirectory: String? = nil
    ) {
        self.configuration = configuration
        self.databaseTypeName = databaseTypeName
        self.source = source
        self.generatesModuleBundleAccessor = generatesModuleBundleAccessor
        self.resourceSubdirectory = resourceSubdirectory
    }

    /// The default database type name for an input file: its name without extensions in
    /// UpperCamelCase, followed by `Database` unless it already ends so.
    ///
    /// ```swift
    /// GenerationOptions.defaultDatabaseTypeName(forInput: "chinook.sqlite")          // "ChinookDatabase"
    /// GenerationOptions.defaultDatabaseTypeName(forInput: "northwind.schema.sql")    // "NorthwindDatabase"
    /// ```
    public static func defaultDatabaseTypeName(forInput fileName: String) -> String {
        var stem = fileName
        // Drop the extension and any `.schema`-like secondary extension.
        if let dot = stem.firstIndex(of: "."), dot != stem.startIndex { stem = String(stem[..<dot]) }
        let name = Naming.typeName(stem)
        if name.hasSuffix("Database") || name.hasSuffix("DB") { return name }
        return name + "Database"
    }
}

// MARK: - Building the model

extension GenerationModel {
    /// Names that generated record types must not take: they would shadow the types the generated
    /// code uses (Slate's, the standard library's, Foundation's) or nested types of records.
    static let reservedTypeNames: Set<String> = [
        // Slate
        "AggregateFunction", "Assignment", "AssignmentBuilder", "AuthorizationDecision", "AuthorizationRequest",
        "AuthorizerAction", "BackupDecision", "BackupProgress", "CheckpointMode", "Collation", "Column",
        "ColumnEncoder", "ColumnExpression", "ColumnStorage", "Columns", "CopiedRow", "EncodedDate", "RowID",
        "StatementBinder", "ArgumentCollector", "TableSchema", "SchemaDifference", "CodableRecordKey", "RecordColumns",
        "CommitDecision", "Configuration", "ConflictResolution",
        "CreateTable", "Database", "DatabaseChange", "DatabaseCursor", "DatabaseError", "DatabasePool",
        "DatabaseQueue", "DatabaseReader", "DatabaseService", "DatabaseWriter", "DateStrategy", "Delete", "Direction",
        "ForeignKeyAction", "ForeignKeyChecks", "FunctionArguments", "HookObservation",
        "Insert", "InterruptHandle", "JSONEncoded", "JSONStorable", "JournalMode", "Kind",
        "Location", "Migrator", "NullsPosition", "NumericQueryValue", "OptionalQueryValue", "Ordering",
        "OrderingTerm", "Output", "PrimaryKeyedTable", "QueryExpression", "QuerySource", "QueryStatement",
        "QueryValue", "RecordCursor", "ResultCode", "Returning", "Row", "RowDecodable", "SQL", "SQLBindable",
        "SQLExpression", "SQLExtractable", "SQLPrecedence", "SQLValue", "SQLValueConvertible", "Scope", "Select",
        "Select2", "Select3", "Select4", "SelectClauses", "SelectStatement", "Selection", "Statement",
        "StatementArguments", "StringInterpolation", "Table", "TableAlias", "TableColumns", "TextQueryValue",
        "ThreadingMode", "TraceEvent", "TraceEventKinds", "TraceObservation", "TracedStatement", "TransactionKind",
        "UUIDStorage", "Update", "UpdateRecord", "Slate", "CSQLite", "SQLite3", "Action", "CodableRecord", "EncodedRow",
        "RecordStore", "RowDecoder", "RowEncoder", "SQLColumnType", "SQLColumnTypeProviding", "SelfManagingTable",
        "TableMigrationOptions", "TableMigrationPlan", "SQLQuery", "SQLCommand",
        // Slate's associations, which records name in their `Columns`
        "BelongsTo", "HasMany", "HasOne",
        // Generated
        "ID", "PrimaryKey", "CodingKeys",
        // Swift and Foundation
        "Any", "AnyObject", "Array", "Bool", "Bundle", "Character", "Codable", "Data", "Date", "Decimal",
        "Decoder", "Dictionary", "Double", "Encoder", "Equatable", "Error", "Float", "Foundation", "Hashable",
        "Hasher", "Identifiable", "Int", "Int8", "Int16", "Int32", "Int64", "Never", "NSObject", "Optional",
        "OpaquePointer", "Result", "Self", "Sendable", "Set", "String", "Substring", "Type", "UInt", "UInt8",
        "UInt16", "UInt32", "UInt64", "URL", "UUID", "Void", "Swift", "Sequence", "Collection", "Error",
        "KeyPath", "Protocol", "UnsafePointer", "UnsafeMutablePointer", "UnsafeRawBufferPointer", "CChar",
        "Calendar", "TimeZone", "Locale", "JSONEncoder", "JSONDecoder", "FileManager", "ProcessInfo",
    ]

    /// Instance members of records that columns must not shadow.
    static let reservedPropertyNames: Set<String> = ["primaryKey", "hashValue", "description"]

    init(schema: DatabaseSchema, options: GenerationOptions) throws {
        let configuration = options.configuration
        self.configuration = configuration
        self.options = options
        self.databaseTypeName = options.databaseTypeName
        self.records = []
        let usesSlate = configuration.style != .raw
        let mapping = TypeMapping(configuration: configuration)
        let excluded = Set(configuration.excludedTables.map { $0.lowercased() })

        // Records: tables, then views, then virtual tables, each sorted by name.
        var sources: [(kind: RecordModel.Kind, name: String, arguments: String, index: Int)] = []
        for (index, table) in schema.tables.enumerated() where !excluded.contains(table.name.lowercased()) {
            sources.append((.table, table.name, "", index))
        }
        if configuration.includeViews {
            for (index, view) in schema.views.enumerated()
            where !excluded.contains(view.name.lowercased()) && !view.columns.isEmpty {
                sources.append((.view, view.name, "", index))
            }
        }
        if configuration.includeVirtualTables {
            for (index, table) in schema.virtualTables.enumerated()
            where !excluded.contains(table.name.lowercased()) && !table.recordColumns.isEmpty {
                var arguments = ""
                if case .virtual(_, let moduleArguments) = table.kind { arguments = moduleArguments }
                sources.append((.virtualTable(module: table.virtualModule ?? ""), table.name, arguments, index))
            }
        }

        // Type names: configured, else singular UpperCamel; reserved names get a `Record` suffix.
        var typeNames = NameRegistry(reserved: Self.reservedTypeNames.union([options.databaseTypeName]))
        let configuredRecordNames = Dictionary(
            configuration.recordNames.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        var chosenTypeNames: [String] = []
        // Plain names first, so that `Talent` keeps its name even if `Talents` sorts before it.
        let plainNames = Set(sources.map { Naming.typeName($0.name) })
        for source in sources {
            if let configured = configuredRecordNames[source.name.lowercased()] {
                chosenTypeNames.append(typeNames.claim(configured))
                continue
            }
            var candidate = Naming.typeName(
                configuration.singularizeRecordNames ? Naming.singular(source.name) : source.name)
            if configuration.singularizeRecordNames, candidate != Naming.typeName(source.name),
                plainNames.contains(candidate)
            {
                candidate = Naming.typeName(source.name)  // singular form is another table's name
            }
            if Self.reservedTypeNames.contains(candidate) { candidate += "Record" }
            chosenTypeNames.append(typeNames.claim(candidate))
        }

        // Singular stems name find/insert/update/delete, plural stems name fetch: each set unique.
        var rawSingulars = NameRegistry()
        var rawPlurals = NameRegistry()
        for (offset, source) in sources.enumerated() {
            let typeName = chosenTypeNames[offset]
            let singularStem = rawSingulars.claim(Naming.snakeName(typeName))
            var pluralStem = Naming.snakeName(Naming.plural(typeName))
            if pluralStem == Naming.snakeName(typeName) { pluralStem += "_all" }
            pluralStem = rawPlurals.claim(pluralStem)

            var record = RecordModel(
                kind: source.kind, sqlName: source.name, typeName: typeName,
                qualifiedTypeName: configuration.nestRecords ? "\(options.databaseTypeName).\(typeName)" : typeName,
                rawSingular: singularStem, rawPlural: pluralStem, properties: [], primaryKey: [],
                isWithoutRowID: false, isStrict: false, omittedColumns: [], foreignKeys: [], indexes: [],
                virtualArguments: source.arguments)

            switch source.kind {
            case .table:
                let table = schema.tables[source.index]
                record.isWithoutRowID = table.isWithoutRowID
                record.isStrict = table.isStrict
                record.indexes = table.indexes.filter { !$0.hasExpressions && (!$0.isPartial || $0.condition != nil) }
                record.uniqueConstraints = table.uniqueConstraints
                var properties: [PropertyModel] = []
                for column in table.columns {
                    if column.isGenerated {
                        record.omittedColumns.append(column)
                        continue
                    }
                    var type = mapping.swiftType(
                        table: table.name, column: column.name, declaredType: column.declaredType)
                    if column.isRowIDAlias && !(type == .int64 || type == .int) { type = .int64 }
                    if !usesSlate && type == .sqlValue { type = .string }
                    let singleKeys = table.foreignKeys.filter {
                        $0.columns.count == 1 && $0.columns[0].caseInsensitiveEquals(column.name)
                    }
                    var property = PropertyModel(
                        sqlName: column.name, swiftName: "", type: type,
                        isOptional: column.isRowIDAlias || column.isNullable,
                        declaredType: column.declaredType, isInferredType: false, isNotNull: column.isNotNull,
                        defaultSQL: column.defaultSQL, swiftDefault: nil, primaryKeyPosition: column.primaryKeyPosition,
                        isRowIDAlias: column.isRowIDAlias, isAutoIncrement: column.isAutoIncrement,
                        isUnique: table.isUniqueColumn(column.name), isUniqueConstraint: column.isUnique,
                        collation: column.collation,
                        dateStorage: configuration.dateStorage(table: table.name, column: column.name),
                        uuidStorage: configuration.uuidStorage,
                        reference: singleKeys.count == 1 ? singleKeys[0] : nil)
                    property.swiftDefault = Self.swiftDefault(
                        for: property, isSinglePrimaryKey: table.primaryKey.count == 1)
                    // A NOT NULL column whose default Swift cannot write (CURRENT_TIMESTAMP, an
                    // expression): `nil` lets SQLite apply it, and the insert reads it back. The
                    // raw style writes every column, so it keeps a Swift default.
                    if configuration.style == .slate, property.isNotNull, !property.isRowIDAlias,
                        property.primaryKeyPosition == nil,
                        column.defaultSQL != nil,
                        property.swiftDefault == nil || property.swiftDefault == "Date()"
                    {
                        property.isOptional = true
                        property.isNilForDefault = true
                        property.swiftDefault = "nil"
                    }
                    properties.append(property)
                }
                record.properties = properties
                record.primaryKey = table.primaryKey.compactMap { name in
                    properties.firstIndex { $0.sqlName.caseInsensitiveEquals(name) }
                }
                if record.primaryKey.count != table.primaryKey.count { record.primaryKey = [] }
            case .view:
                let view = schema.views[source.index]
                record.properties = view.columns.map { column in
                    var type = mapping.swiftType(table: view.name, column: column.name, declaredType: column.typeName)
                    if !usesSlate && type == .sqlValue { type = .string }
                    return PropertyModel(
                        sqlName: column.name, swiftName: "", type: type, isOptional: !column.isNeverNull,
                        declaredType: column.typeName ?? "",
                        isInferredType: column.declaredType == nil && column.inferredType != nil,
                        isNotNull: column.isNeverNull, defaultSQL: nil, swiftDefault: column.isNeverNull ? nil : "nil",
                        primaryKeyPosition: nil, isRowIDAlias: false, isAutoIncrement: false, isUnique: false,
                        collation: nil,
                        dateStorage: configuration.dateStorage(table: view.name, column: column.name),
                        uuidStorage: configuration.uuidStorage, reference: nil)
                }
            case .virtualTable:
                let table = schema.virtualTables[source.index]
                record.properties = table.recordColumns.map { column in
                    var type = mapping.swiftType(
                        table: table.name, column: column.name, declaredType: column.declaredType)
                    if type == .sqlValue && (table.isFullTextSearch || !usesSlate) { type = .string }
                    return PropertyModel(
                        sqlName: column.name, swiftName: "", type: type, isOptional: !column.isNotNull,
                        declaredType: column.declaredType, isInferredType: false, isNotNull: column.isNotNull,
                        defaultSQL: nil, swiftDefault: column.isNotNull ? nil : "nil", primaryKeyPosition: nil,
                        isRowIDAlias: false, isAutoIncrement: false, isUnique: false, collation: nil,
                        dateStorage: configuration.dateStorage(table: table.name, column: column.name),
                        uuidStorage: configuration.uuidStorage, reference: nil)
                }
            }
            Self.assignPropertyNames(&record, configuration: configuration)
            records.append(record)
        }

        assignForeignKeys(schema: schema)
        assignAssociations()
        var children: [Int: [(child: Int, key: Int)]] = [:]
        for (childIndex, record) in records.enumerated() {
            for (keyIndex, key) in record.foreignKeys.enumerated() {
                if let parent = key.parent { children[parent, default: []].append((childIndex, keyIndex)) }
            }
        }
        childrenByParent = children
    }

    /// Property names: configured, else lowerCamel; unique within the record.
    static func assignPropertyNames(_ record: inout RecordModel, configuration: GeneratorConfiguration) {
        let configured = Dictionary(
            configuration.propertyNames.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first }
        )
        var names = NameRegistry(reserved: reservedPropertyNames)
        for index in record.properties.indices {
            let sqlName = record.properties[index].sqlName
            var name = configured["\(record.sqlName).\(sqlName)".lowercased()] ?? Naming.propertyName(sqlName)
            if Naming.memberReserved.contains(name) || reservedPropertyNames.contains(name) { name += "Value" }
            record.properties[index].swiftName = names.claim(name)
        }
    }

    /// Resolves foreign keys to records and properties, and names the relationship helpers.
    mutating func assignForeignKeys(schema: DatabaseSchema) {
        var methodNames = records.map { record in
            NameRegistry(reserved: Set(record.properties.map(\.swiftName)).union(Self.recordMethodNames))
        }
        var tablesByName: [String: TableSchema] = [:]
        for table in schema.tables { tablesByName[table.name.lowercased()] = table }
        var recordsByTable: [String: Int] = [:]
        for (index, record) in records.enumerated() where record.isTable {
            recordsByTable[record.sqlName.lowercased()] = index
        }
        for childIndex in records.indices where records[childIndex].isTable {
            guard let table = tablesByName[records[childIndex].sqlName.lowercased()] else { continue }
            var models: [ForeignKeyModel] = []
            for key in table.foreignKeys {
                let columns = key.columns.compactMap { name in
                    records[childIndex].properties.firstIndex { $0.sqlName.caseInsensitiveEquals(name) }
                }
                guard columns.count == key.columns.count else { continue }
                let parent = recordsByTable[key.referencedTable.lowercased()]
                var parentColumns: [Int] = []
                if let parent {
                    parentColumns = schema.referencedColumns(of: key).compactMap { name in
                        records[parent].properties.firstIndex { $0.sqlName.caseInsensitiveEquals(name) }
                    }
                }
                let resolved = parent != nil && parentColumns.count == columns.count && !columns.isEmpty
                models.append(
                    ForeignKeyModel(
                        key: key, columns: columns, parent: resolved ? parent : nil,
                        parentColumns: resolved ? parentColumns : [],
                        parentMethodName: "", childrenMethodName: "", accessorLabel: "for"))
            }
            records[childIndex].foreignKeys = models
        }

        // Names, in a fixed order: child records in order, keys in declaration order.
        for childIndex in records.indices {
            for keyIndex in records[childIndex].foreignKeys.indices {
                let model = records[childIndex].foreignKeys[keyIndex]
                guard let parent = model.parent else { continue }
                let child = records[childIndex]
                // On the child: fetch<Parent>, named after the column without its Id suffix.
                var stem: String
                if model.columns.count == 1 {
                    let words = Naming.words(child.properties[model.columns[0]].swiftName)
                    if words.count > 1, let last = words.last,
                        ["id", "key", "fk", "no", "code"].contains(last.lowercased())
                    {
                        stem = Naming.typeName(words.dropLast().joined(separator: " "))
                    } else {
                        stem = Naming.typeName(child.properties[model.columns[0]].swiftName)
                    }
                } else {
                    stem = records[parent].typeName
                }
                records[childIndex].foreignKeys[keyIndex].parentMethodName = methodNames[childIndex].claim(
                    "fetch" + stem)

                // On the parent: fetch<Children>, with the key's columns when several keys link them.
                let siblings = child.foreignKeys.filter { $0.parent == parent }
                var childrenName = "fetch" + Naming.typeName(Naming.plural(child.typeName))
                var label = "for"
                if siblings.count > 1 {
                    let suffix = model.columns.map { Naming.typeName(child.properties[$0].swiftName) }.joined()
                    childrenName += "By" + suffix
                    label = "for" + suffix
                }
                records[childIndex].foreignKeys[keyIndex].childrenMethodName = methodNames[parent].claim(childrenName)
                records[childIndex].foreignKeys[keyIndex].accessorLabel = label
            }
        }
    }

    /// Methods generated on records, which relationship helpers must not take.
    static let recordMethodNames: Set<String> = [
        "fetchAll", "fetchCount", "fetchOne", "find", "insert", "update", "delete", "save", "filter", "bindColumns",
        "didInsert", "fetch", "match",
    ]

    // MARK: Defaults

    /// The Swift default of an initializer parameter: `nil` for a rowid alias, `UUID()` for a UUID
    /// key, the SQL default when it is a literal of the property's type, `Date()` for a date column
    /// defaulting to the current time, `nil` for other optionals; else none (required).
    static func swiftDefault(for property: PropertyModel, isSinglePrimaryKey: Bool) -> String? {
        if property.isRowIDAlias { return "nil" }
        if property.type == .uuid && property.primaryKeyPosition != nil && isSinglePrimaryKey && !property.isOptional {
            return "UUID()"
        }
        if let sql = property.defaultSQL,
            let literal = swiftLiteral(forDefault: sql, type: property.type, isOptional: property.isOptional)
        {
            return literal
        }
        return property.isOptional ? "nil" : nil
    }

    /// A Swift literal for an SQL default expression, when it is a literal the type can hold.
    static func swiftLiteral(forDefault sql: String, type: SwiftType, isOptional: Bool) -> String? {
        var text = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasPrefix("(") && text.hasSuffix(")") && text.count >= 2 {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        let upper = text.uppercased()
        if upper == "NULL" { return isOptional ? "nil" : nil }
        if type == .date && ["CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME"].contains(upper) { return "Date()" }
        if type == .date {
            let compact = upper.replacingOccurrences(of: " ", with: "")
            if ["DATETIME('NOW')", "DATE('NOW')", "STRFTIME('%Y-%M-%DT%H:%M:%FZ','NOW')"].contains(compact) {
                return "Date()"
            }
            return nil
        }
        let tokens = SQLLiteral.parse(text)
        switch (tokens, type) {
        case (.integer(let value), _) where type.isInteger:
            return String(value)
        case (.integer(let value), .double), (.integer(let value), .float), (.integer(let value), .decimal):
            return String(value)
        case (.real(let text), .double), (.real(let text), .float), (.real(let text), .decimal):
            return text
        case (.integer(let value), .bool) where value == 0 || value == 1:
            return value == 1 ? "true" : "false"
        case (.boolean(let value), .bool):
            return value ? "true" : "false"
        case (.boolean(let value), _) where type.isInteger:
            return value ? "1" : "0"
        case (.string(let value), .string):
            return SwiftLiteral.string(value)
        default:
            return nil
        }
    }
}

/// The literal forms of SQL default values the generator turns into Swift.
enum SQLLiteral: Equatable {
    case integer(Int64)
    case real(String)
    case string(String)
    case boolean(Bool)
    case other

    static func parse(_ text: String) -> SQLLiteral {
        let upper = text.uppercased()
        if upper == "TRUE" { return .boolean(true) }
        if upper == "FALSE" { return .boolean(false) }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            let inner = String(text.dropFirst().dropLast())
            // A single literal: no lone quote inside.
            if inner.replacingOccurrences(of: "''", with: "").contains("'") { return .other }
            return .string(inner.replacingOccurrences(of: "''", with: "'"))
        }
        var number = text.replacingOccurrences(of: " ", with: "")
        if number.hasPrefix("+") { number.removeFirst() }
        if let value = Int64(number) { return .integer(value) }
        if let value = Double(number), value.isFinite, number.allSatisfy({ "0123456789.-eE".contains($0) }) {
            var literal = number
            if literal.hasPrefix(".") { literal = "0" + literal }
            if literal.hasPrefix("-.") { literal = "-0" + literal.dropFirst() }
            if literal.hasSuffix(".") { literal += "0" }
            return .real(literal)
        }
        return .other
    }
}
