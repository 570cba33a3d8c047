/// `CREATE TABLE` and `CREATE INDEX` statements rendered from a table's declaration.
///
/// ```swift
/// try db.create(table: Person.self, ifNotExists: true)
/// print(Person.createTable())
/// // CREATE TABLE "Person" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, …)
/// ```
///
/// A single `INTEGER` primary key is declared inline, `INTEGER PRIMARY KEY`, which makes it the
/// rowid; a composite key becomes a table constraint. Columns render `NOT NULL`, `UNIQUE`,
/// `DEFAULT`, `COLLATE` and `REFERENCES … ON DELETE … ON UPDATE …` from their descriptors;
/// multi-column foreign keys become `FOREIGN KEY` constraints, and ``Table/indexes`` become
/// `CREATE INDEX` statements.
public struct CreateTable<Root: Table>: QueryStatement {
    /// Whether the statements say `IF NOT EXISTS`.
    public var ifNotExists: Bool

    /// The statements for `Root`.
    public init(ifNotExists: Bool = false) {
        self.ifNotExists = ifNotExists
    }

    /// The `CREATE TABLE` statement.
    public var sql: SQL {
        SQL(sql: createTableText())
    }

    /// The `CREATE INDEX` statements, one per declared index.
    public var indexStatements: [SQL] {
        Root.indexes.map { index in
            SQL(
                sql: (index.isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + (ifNotExists ? "IF NOT EXISTS " : "")
                    + index.name.quotedIdentifier + " ON " + Root.tableName.quotedIdentifier
                    + " (" + index.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
    }

    /// Every statement: the table, then its indexes.
    public var statements: [SQL] { [sql] + indexStatements }

    /// The statements, separated by `;` and a newline.
    public var description: String {
        statements.map(\.text).joined(separator: ";\n")
    }

    /// Creates the table and its indexes, inside a savepoint.
    public func execute(_ db: Database) throws {
        try db.savepoint {
            for statement in statements { try db.execute(sql: statement.text) }
        }
    }

    private func createTableText() -> String {
        let columns = Root.columnDescriptors
        let keyColumns = columns.filter(\.isPrimaryKey)
        let inlineKey = keyColumns.count == 1
        var definitions = columns.map { columnDefinition($0, inlineKey: inlineKey) }
        if keyColumns.count > 1 {
            definitions.append("PRIMARY KEY (" + Root.primaryKeyColumnNames.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for foreignKey in Root.foreignKeys where !isInline(foreignKey, columns: columns) {
            var constraint = "FOREIGN KEY (" + foreignKey.columns.map(\.quotedIdentifier).joined(separator: ", ") + ") REFERENCES "
                + foreignKey.referencedTable.quotedIdentifier
            if !foreignKey.referencedColumns.isEmpty {
                constraint += " (" + foreignKey.referencedColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
            }
            constraint += actions(onDelete: foreignKey.onDelete, onUpdate: foreignKey.onUpdate)
            definitions.append(constraint)
        }
        return "CREATE TABLE " + (ifNotExists ? "IF NOT EXISTS " : "") + Root.tableName.quotedIdentifier
            + " (" + definitions.joined(separator: ", ") + ")" + (Root.isWithoutRowID ? " WITHOUT ROWID" : "")
    }

    private func columnDefinition(_ column: ColumnDescriptor, inlineKey: Bool) -> String {
        var definition = column.name.quotedIdentifier
        if !column.sqlType.isEmpty { definition += " " + column.sqlType }
        var isRowIDAlias = false
        if inlineKey && column.isPrimaryKey {
            definition += " PRIMARY KEY"
            isRowIDAlias = column.sqlType.uppercased() == "INTEGER" && !Root.isWithoutRowID
            if column.isAutoIncrement { definition += " AUTOINCREMENT" }
        }
        // An INTEGER PRIMARY KEY is the rowid and is never NULL; saying so would be noise.
        if !column.isNullable && !isRowIDAlias { definition += " NOT NULL" }
        if column.isUnique { definition += " UNIQUE" }
        if let defaultSQL = column.defaultSQL { definition += " DEFAULT " + Self.defaultExpression(defaultSQL) }
        if let collation = column.collation { definition += " COLLATE " + collation.quotedIdentifier }
        if let reference = column.references {
            definition += " REFERENCES " + reference.table.quotedIdentifier
            if let referenced = reference.column { definition += " (" + referenced.quotedIdentifier + ")" }
            definition += actions(onDelete: reference.onDelete, onUpdate: reference.onUpdate)
        }
        return definition
    }

    private func actions(onDelete: ForeignKeyAction, onUpdate: ForeignKeyAction) -> String {
        (onDelete == .noAction ? "" : " ON DELETE " + onDelete.rawValue)
            + (onUpdate == .noAction ? "" : " ON UPDATE " + onUpdate.rawValue)
    }

    /// Whether `foreignKey` is the one a column's `references` already declares inline.
    private func isInline(_ foreignKey: ForeignKeyDescriptor, columns: [ColumnDescriptor]) -> Bool {
        guard foreignKey.columns.count == 1,
            let column = columns.first(where: { $0.name == foreignKey.columns[0] }),
            let reference = column.references
        else { return false }
        return reference.table == foreignKey.referencedTable
            && (reference.column.map { [$0] } ?? []) == foreignKey.referencedColumns
            && reference.onDelete == foreignKey.onDelete && reference.onUpdate == foreignKey.onUpdate
    }

    /// A `DEFAULT` expression as SQLite requires it: literals as they are, anything else in
    /// parentheses.
    static func defaultExpression(_ text: String) -> String {
        DefaultExpression.rendered(text)
    }
}

extension Table {
    /// The `CREATE TABLE` and `CREATE INDEX` statements for the table's declaration.
    public static func createTable(ifNotExists: Bool = false) -> CreateTable<Self> {
        CreateTable(ifNotExists: ifNotExists)
    }
}

extension Database {
    /// Creates the table and indexes `table` declares, inside a savepoint.
    ///
    /// - Throws: ``DatabaseError``, such as ``ResultCode/error`` when the table exists and
    ///   `ifNotExists` is `false`.
    public func create<Root: Table>(table: Root.Type, ifNotExists: Bool = false) throws {
        try CreateTable<Root>(ifNotExists: ifNotExists).execute(self)
    }
}
