/// What a foreign key does when the row it references is deleted or its key is updated.
public enum ForeignKeyAction: String, Sendable, Hashable, CaseIterable {
    /// Nothing happens at once; the constraint is checked at the end of the statement (the default).
    case noAction = "NO ACTION"
    /// The change to the referenced row is refused while it is referenced.
    case restrict = "RESTRICT"
    /// The referencing columns are set to `NULL`.
    case setNull = "SET NULL"
    /// The referencing columns are set to their default values.
    case setDefault = "SET DEFAULT"
    /// The change is propagated: referencing rows are deleted or their key is updated.
    case cascade = "CASCADE"
}

/// The table and column a column references, as declared with `REFERENCES`.
public struct ColumnReference: Sendable, Hashable {
    /// The referenced (parent) table.
    public var table: String
    /// The referenced column, or `nil` for the parent table's primary key.
    public var column: String?
    /// What happens when the referenced row is deleted.
    public var onDelete: ForeignKeyAction
    /// What happens when the referenced key is updated.
    public var onUpdate: ForeignKeyAction

    /// Creates a reference to `table`(`column`).
    public init(
        table: String, column: String? = nil, onDelete: ForeignKeyAction = .noAction,
        onUpdate: ForeignKeyAction = .noAction
    ) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }
}

/// The declaration of one column of a ``Table``: everything `CREATE TABLE` needs, and what the
/// query builder needs to select, insert and update the column.
///
/// ```swift
/// static let columnDescriptors: [ColumnDescriptor] = [
///     .init(name: "ArtistId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
///     .init(name: "Name", sqlType: "NVARCHAR(120)"),
/// ]
/// ```
public struct ColumnDescriptor: Sendable, Hashable {
    /// The column name, unquoted.
    public var name: String
    /// The declared type, as written in `CREATE TABLE` (`"INTEGER"`, `"NVARCHAR(120)"`), or `""`
    /// for a column declared without a type.
    public var sqlType: String
    /// Whether the column accepts `NULL` (no `NOT NULL` constraint).
    public var isNullable: Bool
    /// The column's 1-based position within the primary key, or `nil` when it is not part of it.
    public var primaryKeyPosition: Int?
    /// Whether an `INTEGER PRIMARY KEY` column is declared `AUTOINCREMENT`.
    public var isAutoIncrement: Bool
    /// Whether the column has its own `UNIQUE` constraint.
    public var isUnique: Bool
    /// The `DEFAULT` expression as SQL text (`"0"`, `"'none'"`, `"CURRENT_TIMESTAMP"`,
    /// `"datetime('now')"`), or `nil` for no default. It is schema text written by the developer or
    /// a generator, never user input.
    public var defaultSQL: String?
    /// The column's collation (`"NOCASE"`), or `nil` for the default `BINARY`.
    public var collation: String?
    /// The column's single-column foreign key, or `nil`.
    public var references: ColumnReference?

    /// Creates a column declaration. Only the name is required; the defaults describe a nullable
    /// column without type or constraints.
    public init(
        name: String,
        sqlType: String = "",
        isNullable: Bool = true,
        primaryKeyPosition: Int? = nil,
        isAutoIncrement: Bool = false,
        isUnique: Bool = false,
        defaultSQL: String? = nil,
        collation: String? = nil,
        references: ColumnReference? = nil
    ) {
        self.name = name
        self.sqlType = sqlType
        self.isNullable = isNullable
        self.primaryKeyPosition = primaryKeyPosition
        self.isAutoIncrement = isAutoIncrement
        self.isUnique = isUnique
        self.defaultSQL = defaultSQL
        self.collation = collation
        self.references = references
    }

    /// Whether the column is part of the primary key.
    public var isPrimaryKey: Bool { primaryKeyPosition != nil }
}
