import Foundation
import SlateCore
import SlateQuery

/// The schema of one SQLite database, as SQLite itself reports it: tables, views, virtual tables
/// and triggers. Tables are described by Slate's one table model, ``Slate/TableSchema`` — the type
/// `Table` types declare and migrations compare — with the views' result columns and the triggers
/// beside them.
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
    public var tables: [TableSchema]
    /// The views.
    public var views: [View]
    /// The virtual tables, such as FTS5 tables (their ``Slate/TableSchema/kind`` says which module).
    public var virtualTables: [TableSchema]
    /// The triggers. They are recorded, not generated.
    public var triggers: [Trigger]

    /// Creates a schema.
    public init(
        tables: [TableSchema] = [], views: [View] = [], virtualTables: [TableSchema] = [], triggers: [Trigger] = []
    ) {
        self.tables = tables
        self.views = views
        self.virtualTables = virtualTables
        self.triggers = triggers
    }

    /// Every `CREATE INDEX` index of the tables, sorted by name.
    public var indexes: [TableSchema.Index] {
        tables.flatMap(\.indexes).sorted { $0.name < $1.name }
    }

    /// The table called `name`, compared case-insensitively as SQLite compares identifiers.
    public func table(named name: String) -> TableSchema? {
        tables.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// The view called `name`, compared case-insensitively.
    public func view(named name: String) -> View? {
        views.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// The virtual table called `name`, compared case-insensitively.
    public func virtualTable(named name: String) -> TableSchema? {
        virtualTables.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// The names of the triggers on table `name`, sorted.
    public func triggerNames(of name: String) -> [String] {
        triggers.filter { $0.tableName.caseInsensitiveEquals(name) }.map(\.name).sorted()
    }

    /// The columns a foreign key references: the ones it names, else the parent table's primary
    /// key (empty when the parent table does not exist).
    public func referencedColumns(of key: TableSchema.ForeignKey) -> [String] {
        key.referencedColumns.isEmpty ? (table(named: key.referencedTable)?.primaryKey ?? []) : key.referencedColumns
    }
}

extension TableSchema {
    /// The virtual table's module (`"fts5"`), or `nil` for other kinds of table.
    public var virtualModule: String? {
        if case .virtual(let module, _) = kind { return module }
        return nil
    }

    /// Whether the table is a full-text index of SQLite's `fts3`, `fts4` or `fts5` modules.
    public var isFullTextSearch: Bool {
        ["fts3", "fts4", "fts5"].contains(virtualModule ?? "")
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
        public var affinity: TableSchema.Affinity? { typeName.map(TableSchema.Affinity.init(declaredType:)) }
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
        equalsIdentifier(other)
    }
}
