/// A `Table` conformance to write: what the `@Table` macro reads from a struct and what
/// `slate generate` reads from a schema, in one model, written by one emitter.
///
/// The emitter writes the members of the conformance — the table's `TableSchema`, the typed
/// `Columns`, `init(row:)`, `encode(to:)`, `didInsert(rowID:)` and the primary key — as Swift source,
/// so the macro's expansion and the generator's output cannot drift apart. It depends on nothing:
/// the macro plugin runs it inside the compiler, the generator in the `slate` tool.
public struct TableConformance: Sendable {
    /// How a property's value is stored in its column.
    public enum Storage: Sendable, Hashable {
        /// By the value's own protocols (`SQLBindable`, `SQLExtractable`).
        case plain
        /// As JSON text, through `JSONEncoded`.
        case json
        /// A `Date` with an explicit strategy, given as a Swift expression (`".unixSeconds"`).
        case date(strategy: String)
        /// A `UUID` with an explicit storage, given as a Swift expression (`".blob"`).
        case uuid(storage: String)
    }

    /// A record property and the column it is stored in.
    public struct Property: Sendable {
        /// The property's identifier as written in code (escaped with backticks when needed).
        public var name: String
        /// The property's type without `?`, as written in code.
        public var baseType: String
        /// Whether the property is optional.
        public var isOptional: Bool
        /// How the value is stored.
        public var storage: Storage
        /// Whether the property can be assigned (`var`).
        public var isMutable: Bool
        /// Whether the property is optional only so that `nil` lets the column's SQL `DEFAULT`
        /// apply: the column is `NOT NULL`, so its typed `Column` is not optional, and an insert
        /// leaves a `nil` value out and reads the default back.
        public var isNilForDefault: Bool
        /// For a type the writer cannot vouch for (the macro's user types), the name of a typealias
        /// that checks that ``baseType`` is a column value: every use of the type goes through it,
        /// so a type that is not `SQLValueConvertible` is reported once, where the alias is
        /// declared, rather than at each use. `nil`: the type is used as it is.
        public var checkedTypeAlias: String?

        /// Creates a property.
        public init(
            name: String, baseType: String, isOptional: Bool, storage: Storage = .plain, isMutable: Bool = true,
            isNilForDefault: Bool = false
        ) {
            self.name = name
            self.baseType = baseType
            self.isOptional = isOptional
            self.storage = storage
            self.isMutable = isMutable
            self.isNilForDefault = isNilForDefault
        }

        /// The type as written, with `?` when optional.
        public var typeText: String { baseType + (isOptional ? "?" : "") }

        /// The base type as the conformance names it: ``checkedTypeAlias``, else ``baseType``.
        var valueType: String { checkedTypeAlias ?? baseType }

        /// The property name without backticks.
        var plainName: String {
            name.hasPrefix("`") && name.hasSuffix("`") ? String(name.dropFirst().dropLast()) : name
        }
    }

    /// A column of the table: its schema, and the property holding it (`nil` for a generated
    /// column, which records do not hold).
    public struct Column: Sendable {
        /// The column name.
        public var name: String
        /// The declared type: a Swift expression giving a `String` (a literal such as `"\"TEXT\""`, or
        /// an expression evaluated at run time for user types).
        public var typeExpression: String
        /// Whether the column is declared `NOT NULL`.
        public var isNotNull: Bool
        /// The 1-based position in the primary key.
        public var primaryKeyPosition: Int?
        /// Whether a single-column key is `PRIMARY KEY DESC` (so an `INTEGER` key is not the rowid).
        public var isPrimaryKeyDescending: Bool
        /// Whether the key is `AUTOINCREMENT`.
        public var isAutoIncrement: Bool
        /// Whether the column has a `UNIQUE` constraint.
        public var isUnique: Bool
        /// The `DEFAULT` expression, as SQL text.
        public var defaultSQL: String?
        /// The collation.
        public var collation: String?
        /// `"virtual"` or `"stored"` for a generated column.
        public var generation: String?
        /// The generated column's expression, when known.
        public var generationExpression: String?
        /// The property holding the column, `nil` for columns records do not hold.
        public var property: Property?
        /// DocC text for the column's typed `Column`, when the writer documents.
        public var documentation: String?
        /// For a column group (a `ColumnGroup` struct stored as several columns), the group's
        /// type: this entry stands for the group's columns, and ``property`` holds the group.
        public var groupType: String?

        /// Creates a column.
        public init(
            name: String, typeExpression: String, isNotNull: Bool = false, primaryKeyPosition: Int? = nil,
            isPrimaryKeyDescending: Bool = false, isAutoIncrement: Bool = false, isUnique: Bool = false,
            defaultSQL: String? = nil, collation: String? = nil,
            generation: String? = nil, generationExpression: String? = nil, property: Property?,
            documentation: String? = nil
        ) {
            self.name = name
            self.typeExpression = typeExpression
            self.isNotNull = isNotNull
            self.primaryKeyPosition = primaryKeyPosition
            self.isPrimaryKeyDescending = isPrimaryKeyDescending
            self.isAutoIncrement = isAutoIncrement
            self.isUnique = isUnique
            self.defaultSQL = defaultSQL
            self.collation = collation
            self.generation = generation
            self.generationExpression = generationExpression
            self.property = property
            self.documentation = documentation
        }

        /// A column group: the property `property`, of the `ColumnGroup` type `type`.
        public static func group(_ property: Property) -> Column {
            var column = Column(name: property.plainName, typeExpression: "\"\"", property: property)
            column.groupType = property.baseType
            return column
        }
    }

    /// A foreign key.
    public struct ForeignKey: Sendable {
        /// The referencing columns.
        public var columns: [String]
        /// The referenced table, as a Swift expression giving a `String` (a literal, or
        /// `Artist.tableName`).
        public var referencedTable: String
        /// The referenced columns; empty for the parent's primary key.
        public var referencedColumns: [String]
        /// The action on delete, as a Swift expression (`".cascade"`); `nil` for no action.
        public var onDelete: String?
        /// The action on update, as a Swift expression; `nil` for no action.
        public var onUpdate: String?

        /// Creates a foreign key.
        public init(
            columns: [String], referencedTable: String, referencedColumns: [String], onDelete: String? = nil,
            onUpdate: String? = nil
        ) {
            self.columns = columns
            self.referencedTable = referencedTable
            self.referencedColumns = referencedColumns
            self.onDelete = onDelete
            self.onUpdate = onUpdate
        }
    }

    /// An index.
    public struct Index: Sendable {
        /// The index name.
        public var name: String
        /// The indexed columns.
        public var columns: [String]
        /// Whether it is `UNIQUE`.
        public var isUnique: Bool
        /// The `WHERE` condition of a partial index.
        public var condition: String?

        /// Creates an index.
        public init(name: String, columns: [String], isUnique: Bool = false, condition: String? = nil) {
            self.name = name
            self.columns = columns
            self.isUnique = isUnique
            self.condition = condition
        }
    }

    /// What kind of table it is.
    public enum Kind: Sendable {
        /// An ordinary table.
        case table
        /// A view.
        case view
        /// A virtual table of `module`, created with `arguments`.
        case virtual(module: String, arguments: String)
    }

    /// The record type's name as written in code.
    public var typeName: String
    /// The table name.
    public var tableName: String
    /// What kind of table it is.
    public var kind: Kind
    /// `"public "`, `"package "` or `""`: the access modifier of the members.
    public var access: String
    /// `"Slate."` to qualify Slate's types (the macro's expansions), or `""`.
    public var qualifier: String
    /// The columns, in table order.
    public var columns: [Column]
    /// The foreign keys.
    public var foreignKeys: [ForeignKey]
    /// The indexes.
    public var indexes: [Index]
    /// Multi-column unique constraints.
    public var uniqueConstraints: [[String]]
    /// Whether the table is `WITHOUT ROWID`.
    public var isWithoutRowID: Bool
    /// Whether the table is `STRICT`.
    public var isStrict: Bool
    /// The associations, written as members of `Columns` (`TableConformance+Associations.swift`).
    public var associations: [Association] = []
    /// How `init(row:)` (and a column group's `init(row:startingAt:)`) builds the record.
    ///
    /// Swift 6.3 `-O` copies the whole struct once more at the end of an initializer that assigns
    /// `self.x = …` itself (an outlined copy, a retain and a release per `String`: 5–8% of a bulk
    /// fetch of a record with several strings) unless both hold: no stored property has an initial
    /// value — neither `= …` nor the implicit `nil` of a `var` spelled `T?` or `T!` — and no read
    /// that can throw comes after the first assignment. The synthesized memberwise initializer
    /// never copies.
    public enum DecodingShape: Sendable, Hashable {
        /// `self.init(id: try row.decode(at: 0), …)`: the reads are the arguments of an initializer
        /// taking every property, in order, with the property names as labels — the memberwise
        /// initializer Swift synthesizes, or one the writer declares (with no stored property
        /// holding an initial value, for speed).
        case throughInitializer
        /// `let id: Int = try row.decode(at: 0)` … then `self.id = id` …: every read before the
        /// first assignment, for a struct without that initializer whose stored properties have no
        /// initial values.
        case readsThenAssignments
        /// `self.id = try row.decode(at: 0)` …: one assignment per read. Always correct; the
        /// struct is copied once more per record when it holds several reference-counted fields.
        case assignments
    }

    /// How `init(row:)` builds the record. Default ``DecodingShape/assignments``.
    public var decodingShape: DecodingShape = .assignments
    /// Whether the record has a primary key (and conforms to `PrimaryKeyedTable`).
    public var isKeyed: Bool { columns.contains { $0.primaryKeyPosition != nil } && kind.isTable }

    /// Creates a conformance.
    public init(
        typeName: String, tableName: String, kind: Kind = .table, access: String = "", qualifier: String = "",
        columns: [Column], foreignKeys: [ForeignKey] = [], indexes: [Index] = [], uniqueConstraints: [[String]] = [],
        isWithoutRowID: Bool = false, isStrict: Bool = false
    ) {
        self.typeName = typeName
        self.tableName = tableName
        self.kind = kind
        self.access = access
        self.qualifier = qualifier
        self.columns = columns
        self.foreignKeys = foreignKeys
        self.indexes = indexes
        self.uniqueConstraints = uniqueConstraints
        self.isWithoutRowID = isWithoutRowID
        self.isStrict = isStrict
    }

    /// The record's columns: those with a property, in table order.
    public var recordColumns: [Column] { columns.filter { $0.property != nil } }

    /// The key's columns, in key order.
    public var keyColumns: [Column] {
        columns.filter { $0.primaryKeyPosition != nil }.sorted {
            ($0.primaryKeyPosition ?? 0) < ($1.primaryKeyPosition ?? 0)
        }
    }

    /// The rowid alias's property, when the record stores the rowid SQLite assigns.
    public var rowIDProperty: Property? {
        let keys = keyColumns
        guard kind.isTable, !isWithoutRowID, keys.count == 1, !keys[0].isPrimaryKeyDescending,
            let property = keys[0].property,
            property.storage == .plain,
            property.isMutable, keys[0].typeExpression.uppercased() == "\"INTEGER\"",
            Self.integerTypes.contains(property.baseType)
        else { return nil }
        return property
    }

    static let integerTypes: Set<String> = [
        "Int", "Int64", "Int32", "Int16", "Int8", "UInt", "UInt64", "UInt32", "UInt16", "UInt8", "Swift.Int",
        "Swift.Int64",
    ]

    /// The primary key's Swift type: the property's type, or a tuple.
    public var primaryKeyType: String {
        let keys = keyColumns.compactMap(\.property)
        return keys.count == 1 ? keys[0].typeText : "(" + keys.map(\.typeText).joined(separator: ", ") + ")"
    }

    // MARK: - Writing

    /// Writes the conformance's members at the writer's current indentation.
    ///
    /// Without `decoding`, `init(row:)` is left out: a writer puts it in an extension with
    /// ``writeDecoding(to:)``, so that the struct keeps its synthesized memberwise initializer.
    public func writeMembers(to out: inout SourceWriter, decoding: Bool = true) {
        writeCheckedTypeAliases(to: &out)
        writeSchema(to: &out)
        out.line()
        writeColumns(to: &out)
        out.line()
        if decoding {
            writeDecoding(to: &out)
            out.line()
        }
        writeEncoding(to: &out)
        if let property = rowIDProperty {
            out.line()
            out.doc("Stores the rowid SQLite assigned to the inserted record.")
            out.block("\(access)mutating func didInsert(rowID: Int64) throws") { out in
                if property.baseType == "Int64" || property.baseType == "Swift.Int64" {
                    out.line("self.\(property.name) = rowID")
                } else {
                    out.line(
                        "self.\(property.name) = try \(qualifier)RowID.converted(rowID, to: \(property.baseType).self)")
                }
            }
        }
        if isKeyed { writeKey(to: &out) }
    }

    /// The members, as text indented one level: what the macro puts in its extension.
    public func membersText(documents: Bool = false) -> String {
        var out = SourceWriter(documents: documents)
        out.indent()
        writeMembers(to: &out)
        return out.text
    }

    func writeSchema(to out: inout SourceWriter) {
        out.doc("The `\(tableName)` \(kind.noun): its columns, keys and indexes.")
        out.line("\(access)static let schema = \(qualifier)TableSchema(")
        out.indent()
        var arguments: [String] = ["name: \(SwiftLiteral.string(tableName))"]
        switch kind {
        case .table: break
        case .view: arguments.append("kind: .view")
        case .virtual(let module, let moduleArguments):
            arguments.append(
                "kind: .virtual(module: \(SwiftLiteral.string(module)), arguments: \(SwiftLiteral.sql(moduleArguments)))"
            )
        }
        out.line(arguments.joined(separator: ", ") + ",")
        out.line("columns: [")
        out.indent()
        for column in columns {
            if let group = column.groupType {
                // The group's columns, spliced in where its property is.
                out.outdent()
                out.line("] + \(group).groupColumns + [")
                out.indent()
            } else {
                out.line(columnLiteral(column) + ",")
            }
        }
        out.outdent()
        var tail: [String] = []
        if !foreignKeys.isEmpty {
            tail.append("foreignKeys: [\n" + foreignKeys.map { "    " + foreignKeyLiteral($0) + ",\n" }.joined() + "]")
        }
        if !indexes.isEmpty {
            tail.append("indexes: [\n" + indexes.map { "    " + indexLiteral($0) + ",\n" }.joined() + "]")
        }
        if !uniqueConstraints.isEmpty {
            tail.append(
                "uniqueConstraints: ["
                    + uniqueConstraints.map { "[" + $0.map(SwiftLiteral.string).joined(separator: ", ") + "]" }.joined(
                        separator: ", ") + "]")
        }
        if isWithoutRowID { tail.append("isWithoutRowID: true") }
        if isStrict { tail.append("isStrict: true") }
        out.line("]" + (tail.isEmpty ? ")" : ","))
        for (index, part) in tail.enumerated() {
            out.line(part + (index == tail.count - 1 ? ")" : ","))
        }
        out.outdent()
    }

    func columnLiteral(_ column: Column) -> String {
        var arguments = ["name: \(SwiftLiteral.string(column.name))"]
        if column.typeExpression != "\"\"" { arguments.append("type: \(column.typeExpression)") }
        if column.isNotNull { arguments.append("isNotNull: true") }
        if let position = column.primaryKeyPosition { arguments.append("primaryKeyPosition: \(position)") }
        if column.isPrimaryKeyDescending { arguments.append("isPrimaryKeyDescending: true") }
        if column.isAutoIncrement { arguments.append("isAutoIncrement: true") }
        if column.isUnique { arguments.append("isUnique: true") }
        if let defaultSQL = column.defaultSQL { arguments.append("defaultSQL: \(SwiftLiteral.sql(defaultSQL))") }
        if let collation = column.collation { arguments.append("collation: \(SwiftLiteral.string(collation))") }
        if let generation = column.generation { arguments.append("generation: .\(generation)") }
        if let expression = column.generationExpression {
            arguments.append("generationExpression: \(SwiftLiteral.sql(expression))")
        }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    func foreignKeyLiteral(_ key: ForeignKey) -> String {
        var arguments = [
            "columns: [" + key.columns.map(SwiftLiteral.string).joined(separator: ", ") + "]",
            "referencedTable: \(key.referencedTable)",
        ]
        if !key.referencedColumns.isEmpty {
            arguments.append(
                "referencedColumns: [" + key.referencedColumns.map(SwiftLiteral.string).joined(separator: ", ") + "]")
        }
        if let action = key.onDelete { arguments.append("onDelete: \(action)") }
        if let action = key.onUpdate { arguments.append("onUpdate: \(action)") }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    func indexLiteral(_ index: Index) -> String {
        var arguments = [
            "name: \(SwiftLiteral.string(index.name))",
            "columns: [" + index.columns.map(SwiftLiteral.string).joined(separator: ", ") + "]",
        ]
        if index.isUnique { arguments.append("isUnique: true") }
        if let condition = index.condition { arguments.append("condition: \(SwiftLiteral.sql(condition))") }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    /// The value type of a property's typed column.
    func columnValueType(_ property: Property) -> String {
        let isOptional = property.isOptional && !property.isNilForDefault
        guard property.storage == .json else { return property.valueType + (isOptional ? "?" : "") }
        return "\(qualifier)JSONEncoded<\(property.baseType)>" + (isOptional ? "?" : "")
    }

    func writeColumns(to out: inout SourceWriter) {
        let example = recordColumns.first?.property?.plainName ?? "column"
        out.doc("The typed columns, for queries: `\(typeName).where { $0.\(example) == … }`.")
        let isFullText = kind.isFullTextSearch
        out.block("\(access)struct Columns: \(qualifier)\(isFullText ? "FullTextColumns" : "TableColumns")") { out in
            if isFullText {
                out.doc("The row's `rowid`: for an external-content table, the content row's key.")
                out.line("\(access)let rowid: \(qualifier)Column<\(typeName), Int64>")
            }
            for column in recordColumns {
                guard let property = column.property else { continue }
                if let documentation = column.documentation { out.doc(documentation) }
                if let group = column.groupType {
                    out.line("\(access)let \(property.name): \(group).Columns<\(typeName)>")
                    continue
                }
                out.line("\(access)let \(property.name): \(qualifier)Column<\(typeName), \(columnValueType(property))>")
            }
            out.line()
            out.doc("The columns, qualified by the table name or an alias.")
            out.block("\(access)init(qualifier: String)") { out in
                if isFullText { out.line("self.rowid = \(qualifier)Column(qualifier, \"rowid\")") }
                for column in recordColumns {
                    guard let property = column.property else { continue }
                    if let group = column.groupType {
                        out.line("self.\(property.name) = \(group).Columns(qualifier: qualifier)")
                        continue
                    }
                    var arguments = "qualifier, \(SwiftLiteral.string(column.name))"
                    switch property.storage {
                    case .date(let strategy): arguments += ", storage: .date(\(strategy))"
                    case .uuid(let storage): arguments += ", storage: .uuid(\(storage))"
                    case .plain, .json: break
                    }
                    out.line(
                        "self.\(property.name) = \(qualifier)Column\(checkedGenerics(property, root: typeName))(\(arguments))"
                    )
                }
            }
            writeAssociations(to: &out)
        }
    }

    /// The members of a `ColumnGroup` conformance, indented one level: the group's columns, its
    /// typed columns (generic over the parent table), and reading and handing out its values from
    /// a starting position.
    public func groupMembersText() -> String {
        var out = SourceWriter(documents: false)
        out.indent()
        writeCheckedTypeAliases(to: &out)
        out.line("\(access)static let groupColumns: [\(qualifier)TableSchema.Column] = [")
        out.indent()
        for column in recordColumns { out.line(columnLiteral(column) + ",") }
        out.outdent()
        out.line("]")
        out.line()
        out.block("\(access)struct Columns<Root: \(qualifier)Table>: Sendable") { out in
            for column in recordColumns {
                guard let property = column.property else { continue }
                out.line("\(access)let \(property.name): \(qualifier)Column<Root, \(columnValueType(property))>")
            }
            out.line()
            out.block("\(access)init(qualifier: String)") { out in
                for column in recordColumns {
                    guard let property = column.property else { continue }
                    out.line(
                        "self.\(property.name) = \(qualifier)Column\(checkedGenerics(property, root: "Root"))(\(columnArguments(column, property)))"
                    )
                }
            }
        }
        out.line()
        out.block("\(access)init(row: borrowing \(qualifier)Row, startingAt index: Int) throws") { out in
            var reads: [(Property, String)] = []
            for (offset, column) in recordColumns.enumerated() {
                guard let property = column.property else { continue }
                reads.append((property, decodeExpression(property, index: offset == 0 ? "index" : "index + \(offset)")))
            }
            writeReads(reads, to: &out)
        }
        out.line()
        writeEncoding(to: &out)
        return out.text
    }

    /// `qualifier, "name"[, storage: …]`: the arguments of a typed column's initializer.
    func columnArguments(_ column: Column, _ property: Property) -> String {
        var arguments = "qualifier, \(SwiftLiteral.string(column.name))"
        switch property.storage {
        case .date(let strategy): arguments += ", storage: .date(\(strategy))"
        case .uuid(let storage): arguments += ", storage: .uuid(\(storage))"
        case .plain, .json: break
        }
        return arguments
    }

    /// Writes `init(row:)`.
    public func writeDecoding(to out: inout SourceWriter) {
        out.doc("Decodes a record from the row's columns 0, 1, 2 …, in schema order.")
        out.block("\(access)init(row: borrowing \(qualifier)Row) throws") { out in
            // After a column group, positions count its columns.
            var fixed = 0
            var groups: [String] = []
            var reads: [(Property, String)] = []
            for column in recordColumns {
                guard let property = column.property else { continue }
                let index = ([String(fixed)] + groups).joined(separator: " + ")
                if let group = column.groupType {
                    reads.append((property, "try \(group)(row: row, startingAt: \(index))"))
                    groups.append("\(group).groupColumns.count")
                    continue
                }
                reads.append((property, decodeExpression(property, index: index)))
                fixed += 1
            }
            writeReads(reads, to: &out)
        }
    }

    /// Writes an initializer's body from its reads, in the shape ``decodingShape`` names.
    func writeReads(_ reads: [(Property, String)], to out: inout SourceWriter) {
        switch reads.isEmpty ? .assignments : decodingShape {
        case .assignments:
            for (property, expression) in reads { out.line("self.\(property.name) = \(expression)") }
        case .throughInitializer:
            out.line("self.init(")
            out.indent()
            for (offset, (property, expression)) in reads.enumerated() {
                out.line("\(property.plainName): \(expression)" + (offset + 1 < reads.count ? "," : ")"))
            }
            out.outdent()
        case .readsThenAssignments:
            let names = localNames(reads.map(\.0))
            for ((property, expression), name) in zip(reads, names) {
                out.line("let \(name): \(property.typeText) = \(expression)")
            }
            for ((property, _), name) in zip(reads, names) { out.line("self.\(property.name) = \(name)") }
        }
    }

    /// The locals holding the reads of ``DecodingShape/readsThenAssignments``: the property names, but
    /// `valueN` for a name a later read or type could mean (`row`, `index`, a capitalized name
    /// that could be a type or the module).
    func localNames(_ properties: [Property]) -> [String] {
        let taken = Set(properties.map(\.plainName))
        return properties.enumerated().map { offset, property in
            let plain = property.plainName
            let isSafe =
                !["row", "index", "self", "Self"].contains(plain) && plain.first.map { $0.isLowercase } == true
            if isSafe { return property.name }
            var name = "value\(offset)"
            while taken.contains(name) { name = "_" + name }
            return name
        }
    }

    func decodeExpression(_ property: Property, index: String) -> String {
        switch property.storage {
        case .plain where property.checkedTypeAlias != nil:
            return "try row.decode(\(property.valueType)\(property.isOptional ? "?" : "").self, at: \(index))"
        case .plain, .uuid:
            return "try row.decode(at: \(index))"
        case .date(let strategy):
            return "try row.date(at: \(index), strategy: \(strategy))"
        case .json:
            if property.isOptional {
                return "try row.decode(\(qualifier)JSONEncoded<\(property.baseType)>?.self, at: \(index))?.value"
            }
            return "try row.decode(\(qualifier)JSONEncoded<\(property.baseType)>.self, at: \(index)).value"
        }
    }

    func writeEncoding(to out: inout SourceWriter) {
        out.doc("Hands out the record's values, in schema order.")
        out.block(
            "\(access)func encode<Encoder: \(qualifier)ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure)"
        ) { out in
            for column in recordColumns {
                guard let property = column.property else { continue }
                if column.groupType != nil {
                    out.line("try self.\(property.name).encode(to: &encoder)")
                    continue
                }
                out.line("try encoder.encode(\(storedValue(property, value: "self.\(property.name)")))")
            }
        }
    }

    /// The bindable form of `value`: the value itself, or wrapped for its storage.
    func storedValue(_ property: Property, value: String) -> String {
        switch property.storage {
        case .plain:
            guard property.checkedTypeAlias != nil else { return value }
            return "\(value) as \(property.valueType)\(property.isOptional ? "?" : "")"
        case .date(let strategy):
            let strategyValue = strategy.hasPrefix(".") ? "\(qualifier)DateStrategy" + strategy : strategy
            return property.isOptional
                ? "\(value).map { \(qualifier)EncodedDate($0, strategy: \(strategyValue)) }"
                : "\(qualifier)EncodedDate(\(value), strategy: \(strategyValue))"
        case .uuid(let storage):
            let storageValue = storage.hasPrefix(".") ? "\(qualifier)UUIDStorage" + storage : storage
            return property.isOptional
                ? "\(value).map { \(storageValue).sqlValue(for: $0) }" : "\(storageValue).sqlValue(for: \(value))"
        case .json:
            return property.isOptional
                ? "\(value).map(\(qualifier)JSONEncoded<\(property.baseType)>.init)"
                : "\(qualifier)JSONEncoded(\(value))"
        }
    }

    func writeKey(to out: inout SourceWriter) {
        let keys = keyColumns.compactMap(\.property)
        guard !keys.isEmpty else { return }
        let keyType = primaryKeyType
        out.line()
        out.doc("The primary key.")
        if keys.count == 1 {
            out.line("\(access)var primaryKey: \(keyType) { self.\(keys[0].name) }")
            guard keys[0].storage != .plain else { return }
        } else {
            out.line(
                "\(access)var primaryKey: \(keyType) { (" + keys.map { "self.\($0.name)" }.joined(separator: ", ")
                    + ") }")
        }
        out.line()
        out.doc("Hands out the key's values, stored as their columns store them.")
        out.block(
            "\(access)static func encode<Encoder: \(qualifier)ColumnEncoder>(primaryKey key: \(keyType), to encoder: inout Encoder) throws(Encoder.Failure)"
        ) { out in
            if keys.count == 1 {
                out.line("try encoder.encode(\(storedValue(keys[0], value: "key")))")
            } else {
                for (index, property) in keys.enumerated() {
                    out.line("try encoder.encode(\(storedValue(property, value: "key.\(index)")))")
                }
            }
        }
    }
}

extension TableConformance.Kind {
    var isTable: Bool {
        if case .table = self { return true }
        return false
    }

    /// Whether it is an FTS5 table, whose typed columns are `FullTextColumns`.
    var isFullTextSearch: Bool {
        if case .virtual(let module, _) = self { return module.lowercased() == "fts5" }
        return false
    }

    var noun: String {
        switch self {
        case .table: "table"
        case .view: "view"
        case .virtual: "virtual table"
        }
    }
}
