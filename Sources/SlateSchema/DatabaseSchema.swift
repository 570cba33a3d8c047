import Foundation

/// The schema of one SQLite database, as SQLite itself reports it: tables, views, virtual tables,
/// indexes and triggers.
///
/// Read one with ``SchemaReader`` from an open connection, or with ``SchemaLoader`` from a database
/// file or `.sql` files. Every list is sorted by name, so two databases with the same schema give
/// equal values whatever order their objects were created in.
///
/// ```swift
/// let schema = try SchemaLoader.load(from: [URL(fileURLWithPath: "chinook.sqlite")])
/// for table in schema.tables {
///     print(table.name, table.columns.map(\.name), table.primaryKey)
/// }
/// ```
public struct DatabaseSchema: Sendable, Hashable, Codable {
    /// The ordinary tables (rowid, `WITHOUT ROWID` and `STRICT`), without SQLite's internal
    /// `sqlite_*` tables and without the shadow tables of virtual tables.
    public var tables: [Table]
    /// The views.
    public var views: [View]
    /// The virtual tables, such as FTS5 tables.
    public var virtualTables: [VirtualTable]
    /// Every index, including those SQLite creates for `PRIMARY KEY` and `UNIQUE` constraints.
    public var indexes: [Index]
    /// The triggers. They are recorded, not generated.
    public var triggers: [Trigger]

    /// Creates a schema.
    public init(
        tables: [Table] = [], views: [View] = [], virtualTables: [VirtualTable] = [], indexes: [Index] = [],
        triggers: [Trigger] = []
    ) {
        self.tables = tables
        self.views = views
        self.virtualTables = virtualTables
        self.indexes = indexes
        self.triggers = triggers
    }

    /// The table called `name`, compared case-insensitively as SQLite compares identifiers.
    public func table(named name: String) -> Table? {
        tables.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// The view called `name`, compared case-insensitively.
    public func view(named name: String) -> View? {
        views.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// The virtual table called `name`, compared case-insensitively.
    public func virtualTable(named name: String) -> VirtualTable? {
        virtualTables.first { $0.name.caseInsensitiveEquals(name) }
    }
}

// MARK: - Type affinity

extension DatabaseSchema {
    /// A column's type affinity: the storage class SQLite prefers for its values, derived from the
    /// declared type by the rules of [SQLite's documentation, section 3.1](https://www.sqlite.org/datatype3.html#determination_of_column_affinity).
    public enum Affinity: String, Sendable, Hashable, Codable, CaseIterable {
        /// The declared type contains `INT`.
        case integer = "INTEGER"
        /// The declared type contains `CHAR`, `CLOB` or `TEXT`.
        case text = "TEXT"
        /// The declared type contains `BLOB`, or there is no declared type.
        case blob = "BLOB"
        /// The declared type contains `REAL`, `FLOA` or `DOUB`.
        case real = "REAL"
        /// Any other declared type, such as `NUMERIC`, `DECIMAL(10,2)`, `BOOLEAN` or `DATETIME`.
        case numeric = "NUMERIC"

        /// The affinity of a column declared with `declaredType`, by SQLite's rules, applied in
        /// order: `INT` → integer; `CHAR`, `CLOB`, `TEXT` → text; `BLOB` or no type → blob;
        /// `REAL`, `FLOA`, `DOUB` → real; anything else → numeric.
        ///
        /// ```swift
        /// DatabaseSchema.Affinity(declaredType: "NVARCHAR(120)")   // .text
        /// DatabaseSchema.Affinity(declaredType: "FLOATING POINT")  // .integer: "POINT" contains "INT"
        /// ```
        public init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") || type.trimmingCharacters(in: .whitespaces).isEmpty {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }
}

// MARK: - Tables and columns

extension DatabaseSchema {
    /// An ordinary table.
    public struct Table: Sendable, Hashable, Codable {
        /// The table name, unquoted, as created.
        public var name: String
        /// The `CREATE TABLE` statement as stored in `sqlite_schema`.
        public var sql: String
        /// Whether the table is declared `WITHOUT ROWID`.
        public var isWithoutRowID: Bool
        /// Whether the table is declared `STRICT`.
        public var isStrict: Bool
        /// The columns, in table order, including generated columns.
        public var columns: [Column]
        /// The primary key's column names, in key order; empty when the table has no declared
        /// primary key (its rows are identified by the implicit rowid).
        public var primaryKey: [String]
        /// The foreign keys, in declaration order.
        public var foreignKeys: [ForeignKey]
        /// The table's indexes: explicit `CREATE INDEX` indexes and those SQLite creates for
        /// `PRIMARY KEY` and `UNIQUE` constraints, sorted by name.
        public var indexes: [Index]
        /// The names of the triggers on this table, sorted.
        public var triggerNames: [String]

        /// Creates a table description.
        public init(
            name: String, sql: String = "", isWithoutRowID: Bool = false, isStrict: Bool = false,
            columns: [Column] = [], primaryKey: [String] = [], foreignKeys: [ForeignKey] = [],
            indexes: [Index] = [], triggerNames: [String] = []
        ) {
            self.name = name
            self.sql = sql
            self.isWithoutRowID = isWithoutRowID
            self.isStrict = isStrict
            self.columns = columns
            self.primaryKey = primaryKey
            self.foreignKeys = foreignKeys
            self.indexes = indexes
            self.triggerNames = triggerNames
        }

        /// The column called `name`, compared case-insensitively.
        public func column(named name: String) -> Column? {
            columns.first { $0.name.caseInsensitiveEquals(name) }
        }

        /// The `INTEGER PRIMARY KEY` column that is an alias of the rowid, if any.
        public var rowIDAlias: Column? {
            columns.first { $0.isRowIDAlias }
        }

        /// Whether any column is declared `AUTOINCREMENT`.
        public var hasAutoIncrement: Bool {
            columns.contains { $0.isAutoIncrement }
        }

        /// The `UNIQUE` constraints and unique indexes, other than the primary key's, each as its
        /// column names. Indexes on expressions are left out.
        public var uniqueKeys: [[String]] {
            indexes.filter { $0.isUnique && $0.origin != .primaryKey && !$0.hasExpressions && !$0.isPartial }
                .map(\.columns)
        }
    }

    /// A column of a table or virtual table.
    public struct Column: Sendable, Hashable, Codable {
        /// The column name, unquoted.
        public var name: String
        /// The declared type as written (`"NVARCHAR(120)"`), or `""` when none was given.
        public var declaredType: String
        /// The type affinity SQLite derives from ``declaredType``.
        public var affinity: Affinity
        /// Whether the column is declared `NOT NULL`.
        ///
        /// A primary key column of a rowid table accepts `NULL` unless declared `NOT NULL`, except
        /// an `INTEGER PRIMARY KEY`, which never holds `NULL`; ``isRowIDAlias`` tells them apart.
        public var isNotNull: Bool
        /// The `DEFAULT` expression as written (`"0"`, `"'none'"`, `"CURRENT_TIMESTAMP"`), or `nil`.
        public var defaultSQL: String?
        /// Whether, and how, the column is generated (`GENERATED ALWAYS AS`).
        public var generation: Generation
        /// Whether the column is a hidden column of a virtual table.
        public var isHidden: Bool
        /// The column's 1-based position in the primary key, or `nil`.
        public var primaryKeyPosition: Int?
        /// Whether the column is an alias of the rowid: the only primary key column of a rowid
        /// table, declared exactly `INTEGER` (`INT PRIMARY KEY` and `BIGINT PRIMARY KEY` are not,
        /// nor is `INTEGER PRIMARY KEY DESC`). SQLite assigns it when a row is inserted with `NULL`.
        public var isRowIDAlias: Bool
        /// Whether the column is an `INTEGER PRIMARY KEY AUTOINCREMENT`.
        public var isAutoIncrement: Bool
        /// The column's collation, such as `"NOCASE"`, or `nil` for the default `BINARY`.
        public var collation: String?
        /// Whether the column alone is unique: a single-column `UNIQUE` constraint or unique
        /// index, or a single-column primary key.
        public var isUnique: Bool

        /// Creates a column description.
        public init(
            name: String, declaredType: String = "", affinity: Affinity? = nil, isNotNull: Bool = false,
            defaultSQL: String? = nil, generation: Generation = .none, isHidden: Bool = false,
            primaryKeyPosition: Int? = nil, isRowIDAlias: Bool = false, isAutoIncrement: Bool = false,
            collation: String? = nil, isUnique: Bool = false
        ) {
            self.name = name
            self.declaredType = declaredType
            self.affinity = affinity ?? Affinity(declaredType: declaredType)
            self.isNotNull = isNotNull
            self.defaultSQL = defaultSQL
            self.generation = generation
            self.isHidden = isHidden
            self.primaryKeyPosition = primaryKeyPosition
            self.isRowIDAlias = isRowIDAlias
            self.isAutoIncrement = isAutoIncrement
            self.collation = collation
            self.isUnique = isUnique
        }

        /// Whether the column can hold `NULL`: not `NOT NULL` and not a rowid alias.
        public var isNullable: Bool { !isNotNull && !isRowIDAlias }

        /// Whether the column is generated, so it cannot be inserted or updated.
        public var isGenerated: Bool { generation != .none }
    }

    /// How a column is generated.
    public enum Generation: String, Sendable, Hashable, Codable {
        /// An ordinary column.
        case none
        /// `GENERATED ALWAYS AS (…) VIRTUAL`: computed when read.
        case virtual
        /// `GENERATED ALWAYS AS (…) STORED`: computed when written.
        case stored
    }
}

// MARK: - Keys and indexes

extension DatabaseSchema {
    /// A foreign key: columns of a table referencing columns of another.
    public struct ForeignKey: Sendable, Hashable, Codable {
        /// The referencing columns, in order.
        public var columns: [String]
        /// The referenced (parent) table.
        public var referencedTable: String
        /// The referenced columns, in the order matching ``columns``. When the declaration names
        /// no columns, these are the parent table's primary key columns (empty if the parent table
        /// does not exist).
        public var referencedColumns: [String]
        /// Whether the declaration named the referenced columns (`REFERENCES t(a)` rather than
        /// `REFERENCES t`).
        public var namesReferencedColumns: Bool
        /// What happens when the referenced row is deleted.
        public var onDelete: Action
        /// What happens when the referenced key is updated.
        public var onUpdate: Action

        /// Creates a foreign key description.
        public init(
            columns: [String], referencedTable: String, referencedColumns: [String],
            namesReferencedColumns: Bool = true, onDelete: Action = .noAction, onUpdate: Action = .noAction
        ) {
            self.columns = columns
            self.referencedTable = referencedTable
            self.referencedColumns = referencedColumns
            self.namesReferencedColumns = namesReferencedColumns
            self.onDelete = onDelete
            self.onUpdate = onUpdate
        }

        /// A foreign key action.
        public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
            /// `NO ACTION`, the default.
            case noAction = "NO ACTION"
            /// `RESTRICT`.
            case restrict = "RESTRICT"
            /// `SET NULL`.
            case setNull = "SET NULL"
            /// `SET DEFAULT`.
            case setDefault = "SET DEFAULT"
            /// `CASCADE`.
            case cascade = "CASCADE"

            /// The action SQLite reports in `PRAGMA foreign_key_list`; unknown text is `NO ACTION`.
            public init(pragmaText: String) {
                self = Action(rawValue: pragmaText.uppercased()) ?? .noAction
            }
        }
    }

    /// An index.
    public struct Index: Sendable, Hashable, Codable {
        /// The index name: the declared one, or SQLite's `sqlite_autoindex_…` name for an index it
        /// made for a constraint.
        public var name: String
        /// The indexed table.
        public var tableName: String
        /// The indexed columns, in order. An expression is listed as `""`; the rowid as `"rowid"`.
        public var columns: [String]
        /// Whether the index is `UNIQUE`.
        public var isUnique: Bool
        /// Why the index exists.
        public var origin: Origin
        /// Whether the index is partial (`CREATE INDEX … WHERE …`).
        public var isPartial: Bool
        /// The `CREATE INDEX` statement, or `nil` for an index SQLite made for a constraint.
        public var sql: String?

        /// Creates an index description.
        public init(
            name: String, tableName: String, columns: [String], isUnique: Bool = false,
            origin: Origin = .createIndex, isPartial: Bool = false, sql: String? = nil
        ) {
            self.name = name
            self.tableName = tableName
            self.columns = columns
            self.isUnique = isUnique
            self.origin = origin
            self.isPartial = isPartial
            self.sql = sql
        }

        /// Whether an indexed term is an expression rather than a column.
        public var hasExpressions: Bool { columns.contains("") }

        /// Why an index exists.
        public enum Origin: String, Sendable, Hashable, Codable {
            /// `CREATE INDEX`.
            case createIndex = "c"
            /// A `UNIQUE` constraint.
            case uniqueConstraint = "u"
            /// A `PRIMARY KEY` constraint that is not a rowid alias.
            case primaryKey = "pk"
        }
    }
}

// MARK: - Views, virtual tables, triggers

extension DatabaseSchema {
    /// A view.
    public struct View: Sendable, Hashable, Codable {
        /// The view name, unquoted.
        public var name: String
        /// The `CREATE VIEW` statement as stored in `sqlite_schema`.
        public var sql: String
        /// The result columns, in order.
        public var columns: [ViewColumn]

        /// Creates a view description.
        public init(name: String, sql: String = "", columns: [ViewColumn] = []) {
            self.name = name
            self.sql = sql
            self.columns = columns
        }
    }

    /// A result column of a view.
    public struct ViewColumn: Sendable, Hashable, Codable {
        /// The column name.
        public var name: String
        /// The declared type SQLite reports for the column (`sqlite3_column_decltype`), which it
        /// does only for a column taken straight from a table; `nil` for expressions.
        public var declaredType: String?
        /// A type inferred from the expression when SQLite reports none (`"INTEGER"` for
        /// `count(*)`, `"REAL"` for `avg(x)`, `"TEXT"` for `a || b` …), or `nil` when the
        /// expression's type cannot be told.
        public var inferredType: String?
        /// Whether the expression never yields `NULL` (`count(…)`, `total(…)`, a non-null
        /// literal). Columns from tables are treated as nullable, since joins may yield `NULL`.
        public var isNeverNull: Bool
        /// The table the column comes from, for a column taken straight from a table.
        public var originTable: String?
        /// The table column it comes from, for a column taken straight from a table.
        public var originColumn: String?

        /// Creates a view column description.
        public init(
            name: String, declaredType: String? = nil, inferredType: String? = nil, isNeverNull: Bool = false,
            originTable: String? = nil, originColumn: String? = nil
        ) {
            self.name = name
            self.declaredType = declaredType
            self.inferredType = inferredType
            self.isNeverNull = isNeverNull
            self.originTable = originTable
            self.originColumn = originColumn
        }

        /// The declared type, else the inferred type, else `nil`.
        public var typeName: String? { declaredType ?? inferredType }

        /// The affinity of ``typeName``, or `nil` when the type is unknown.
        public var affinity: Affinity? { typeName.map(Affinity.init(declaredType:)) }
    }

    /// A virtual table, such as an FTS5 full-text index.
    public struct VirtualTable: Sendable, Hashable, Codable {
        /// The table name, unquoted.
        public var name: String
        /// The module name, lowercased (`"fts5"`, `"rtree"`).
        public var module: String
        /// The `CREATE VIRTUAL TABLE` statement as stored in `sqlite_schema`.
        public var sql: String
        /// The visible columns, in order (hidden columns such as FTS5's `rank` are left out).
        public var columns: [Column]

        /// Creates a virtual table description.
        public init(name: String, module: String, sql: String = "", columns: [Column] = []) {
            self.name = name
            self.module = module
            self.sql = sql
            self.columns = columns
        }

        /// Whether the module is one of SQLite's full-text search modules (`fts3`, `fts4`, `fts5`).
        public var isFullTextSearch: Bool {
            module == "fts5" || module == "fts4" || module == "fts3"
        }
    }

    /// A trigger.
    public struct Trigger: Sendable, Hashable, Codable {
        /// The trigger name.
        public var name: String
        /// The table or view the trigger is attached to.
        public var tableName: String
        /// The `CREATE TRIGGER` statement as stored in `sqlite_schema`.
        public var sql: String

        /// Creates a trigger description.
        public init(name: String, tableName: String, sql: String) {
            self.name = name
            self.tableName = tableName
            self.sql = sql
        }
    }
}

extension String {
    /// Whether two identifiers are equal as SQLite compares them (ASCII case-insensitively).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        self.utf8.count == other.utf8.count && self.lowercased() == other.lowercased()
    }
}
