import Foundation

/// The shape a self-managing table should have: what Slate creates, and what it migrates an
/// existing table to.
///
/// Build one from a `@Table` struct or any ``Table`` with `init(_:)`, from a
/// ``CodableRecord`` with `init(_:)`, or by hand.
public struct TableDefinition: Sendable, Hashable {
    /// The table name, unquoted.
    public var name: String
    /// The columns, in table order.
    public var columns: [ColumnDescriptor]
    /// Multi-column foreign keys (single-column ones are on the columns' ``ColumnDescriptor/references``).
    public var foreignKeys: [ForeignKeyDescriptor]
    /// The indexes to create with the table.
    public var indexes: [IndexDescriptor]
    /// Whether the table is `WITHOUT ROWID`.
    public var isWithoutRowID: Bool
    /// Renamed columns: each current column name mapped to its previous name.
    public var renamedColumns: [String: String]

    /// Creates a definition.
    public init(
        name: String, columns: [ColumnDescriptor], foreignKeys: [ForeignKeyDescriptor] = [],
        indexes: [IndexDescriptor] = [], isWithoutRowID: Bool = false, renamedColumns: [String: String] = [:]
    ) {
        self.name = name
        self.columns = columns
        self.foreignKeys = foreignKeys
        self.indexes = indexes
        self.isWithoutRowID = isWithoutRowID
        self.renamedColumns = renamedColumns
    }

    /// The definition a ``Table`` declares; a ``SelfManagingTable`` adds its renamed columns.
    public init<T: Table>(_ table: T.Type) {
        let columns = T.columnDescriptors
        let inline = Set(columns.compactMap { column in column.references.map { _ in column.name.lowercased() } })
        self.init(
            name: T.tableName, columns: columns,
            foreignKeys: T.foreignKeys.filter { !($0.columns.count == 1 && inline.contains($0.columns[0].lowercased())) },
            indexes: T.indexes, isWithoutRowID: T.isWithoutRowID,
            renamedColumns: (T.self as? any SelfManagingTable.Type)?.renamedColumns ?? [:])
    }

    /// The definition of a ``CodableRecord``: its declared columns, or columns inferred from its
    /// `Codable` shape.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` when the shape cannot be inferred or
    ///   the primary key names no column.
    public init<R: CodableRecord>(_ record: R.Type) throws {
        self = try CodableSchemaCache.shared.definition(for: R.self)
    }

    /// The names of the primary key columns, in key order.
    public var primaryKeyColumns: [String] {
        columns.enumerated()
            .compactMap { index, column in column.primaryKeyPosition.map { (position: $0, index: index, name: column.name) } }
            .sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            .map(\.name)
    }

    /// The column whose value is the rowid (a lone `INTEGER PRIMARY KEY` of a rowid table), if any.
    public var rowIDColumn: String? {
        let keys = columns.filter(\.isPrimaryKey)
        guard !isWithoutRowID, keys.count == 1, let key = keys.first, key.sqlType.uppercased() == "INTEGER" else { return nil }
        return key.name
    }

    // MARK: SQL

    /// `CREATE TABLE` for this definition, named `tableName` (default: ``name``).
    public func createTableSQL(named tableName: String? = nil, ifNotExists: Bool = false) -> String {
        let keyColumns = columns.filter(\.isPrimaryKey)
        let inlineKey = keyColumns.count == 1
        var definitions = columns.map { columnDefinition($0, inlineKey: inlineKey) }
        if keyColumns.count > 1 {
            definitions.append("PRIMARY KEY (" + primaryKeyColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for foreignKey in foreignKeys {
            var constraint = "FOREIGN KEY (" + foreignKey.columns.map(\.quotedIdentifier).joined(separator: ", ")
                + ") REFERENCES " + foreignKey.referencedTable.quotedIdentifier
            if !foreignKey.referencedColumns.isEmpty {
                constraint += " (" + foreignKey.referencedColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
            }
            constraint += Self.actions(onDelete: foreignKey.onDelete, onUpdate: foreignKey.onUpdate)
            definitions.append(constraint)
        }
        return "CREATE TABLE " + (ifNotExists ? "IF NOT EXISTS " : "") + (tableName ?? name).quotedIdentifier
            + " (" + definitions.joined(separator: ", ") + ")" + (isWithoutRowID ? " WITHOUT ROWID" : "")
    }

    /// `CREATE INDEX IF NOT EXISTS` for each declared index.
    public var createIndexSQL: [String] {
        indexes.map { index in
            (index.isUnique ? "CREATE UNIQUE INDEX IF NOT EXISTS " : "CREATE INDEX IF NOT EXISTS ")
                + index.name.quotedIdentifier + " ON " + name.quotedIdentifier
                + " (" + index.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
        }
    }

    /// The column's definition in `CREATE TABLE` or `ALTER TABLE ADD COLUMN`.
    func columnDefinition(_ column: ColumnDescriptor, inlineKey: Bool) -> String {
        var definition = column.name.quotedIdentifier
        if !column.sqlType.isEmpty { definition += " " + column.sqlType }
        var isRowIDAlias = false
        if inlineKey && column.isPrimaryKey {
            definition += " PRIMARY KEY"
            isRowIDAlias = column.sqlType.uppercased() == "INTEGER" && !isWithoutRowID
            if column.isAutoIncrement { definition += " AUTOINCREMENT" }
        }
        if !column.isNullable && !isRowIDAlias { definition += " NOT NULL" }
        if column.isUnique { definition += " UNIQUE" }
        if let defaultSQL = column.defaultSQL { definition += " DEFAULT " + Self.defaultExpression(defaultSQL) }
        if let collation = column.collation { definition += " COLLATE " + collation.quotedIdentifier }
        if let reference = column.references {
            definition += " REFERENCES " + reference.table.quotedIdentifier
            if let referenced = reference.column { definition += " (" + referenced.quotedIdentifier + ")" }
            definition += Self.actions(onDelete: reference.onDelete, onUpdate: reference.onUpdate)
        }
        return definition
    }

    static func actions(onDelete: ForeignKeyAction, onUpdate: ForeignKeyAction) -> String {
        (onDelete == .noAction ? "" : " ON DELETE " + onDelete.rawValue)
            + (onUpdate == .noAction ? "" : " ON UPDATE " + onUpdate.rawValue)
    }

    /// A `DEFAULT` expression as SQLite requires it. See ``DefaultExpression``.
    static func defaultExpression(_ text: String) -> String { DefaultExpression.rendered(text) }

    /// `CURRENT_*` keywords: allowed bare, but not constant.
    static func isKeywordDefault(_ text: String) -> Bool { DefaultExpression.isKeywordDefault(text) }

    /// Whether `text` is a constant literal.
    static func isConstantLiteral(_ text: String) -> Bool { DefaultExpression.isConstantLiteral(text) }
}
