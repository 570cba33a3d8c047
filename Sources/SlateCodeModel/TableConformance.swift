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
