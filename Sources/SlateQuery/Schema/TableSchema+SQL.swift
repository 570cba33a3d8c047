import SlateConcurrency
import SlateCore

// `CREATE TABLE`, `CREATE INDEX` and column definitions rendered from a ``TableSchema``: the one
// place Slate writes DDL, whoever produced the schema (a hand-written `Table`, the `@Table` macro,
// `slate generate`, a Codable record, a migration).

extension TableSchema {
    /// The `CREATE TABLE` (or `CREATE VIRTUAL TABLE`) statement, for the table named `tableName`
    /// (default: ``name``).
    ///
    /// The form is canonical: a single-column primary key and single-column foreign keys are
    /// declared on their column (`"id" INTEGER PRIMARY KEY`, `REFERENCES "artist" ("id")`); a
    /// composite key, multi-column unique constraints and multi-column foreign keys are table
    /// constraints.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` for a view, which is created from its
    ///   `SELECT`, not from a schema.
    public func createTableSQL(named tableName: String? = nil, ifNotExists: Bool = false) throws -> String {
        let name = (tableName ?? self.name).quotedIdentifier
        let existence = ifNotExists ? "IF NOT EXISTS " : ""
        switch kind {
        case .view:
            throw DatabaseError(
                resultCode: .misuse, message: "\(self.name) is a view: it is created with CREATE VIEW, not from a table schema")
        case .virtual(let module, let arguments):
            return "CREATE VIRTUAL TABLE " + existence + name + " USING " + module + "(" + arguments + ")"
        case .table:
            break
        }
        if let generated = columns.first(where: { $0.generation != .none && $0.generationExpression == nil }) {
            throw DatabaseError(
                resultCode: .misuse,
                message: "cannot create table \(self.name): the expression of generated column \(generated.name) is unknown")
        }
        let keyColumns = primaryKey
        let inlineKey = keyColumns.count == 1
        var definitions = columns.map { columnDefinition($0, inlineKey: inlineKey) }
        if keyColumns.count > 1 {
            definitions.append("PRIMARY KEY (" + keyColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for unique in uniqueConstraints where unique.count > 1 {
            definitions.append("UNIQUE (" + unique.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for foreignKey in foreignKeys where foreignKey.columns.count != 1 || column(named: foreignKey.columns[0]) == nil {
            definitions.append(
                "FOREIGN KEY (" + foreignKey.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
                    + Self.referenceClause(foreignKey))
        }
        var options: [String] = []
        if isWithoutRowID { options.append("WITHOUT ROWID") }
        if isStrict { options.append("STRICT") }
        return "CREATE TABLE " + existence + name + " (" + definitions.joined(separator: ", ") + ")"
            + (options.isEmpty ? "" : " " + options.joined(separator: ", "))
    }

    /// `CREATE [UNIQUE] INDEX` for each index in ``indexes``.
    public func createIndexSQL(ifNotExists: Bool = false) -> [String] {
        indexes.map { createIndexSQL($0, ifNotExists: ifNotExists) }
    }

    /// `CREATE [UNIQUE] INDEX` for one index of this table.
    public func createIndexSQL(_ index: Index, ifNotExists: Bool = false) -> String {
        (index.isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + (ifNotExists ? "IF NOT EXISTS " : "")
            + index.name.quotedIdentifier + " ON " + name.quotedIdentifier
            + " (" + index.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
            + (index.condition.map { " WHERE " + $0 } ?? "")
    }

    /// The table and its indexes: every statement that creates them.
    public func createStatements(ifNotExists: Bool = false) throws -> [String] {
        [try createTableSQL(ifNotExists: ifNotExists)] + createIndexSQL(ifNotExists: ifNotExists)
    }

    /// The column's definition in `CREATE TABLE` or `ALTER TABLE ADD COLUMN`: `"name" TYPE` and its
    /// constraints. `inlineKey` declares `PRIMARY KEY` on the column (a single-column key).
    public func columnDefinition(_ column: Column, inlineKey: Bool) -> String {
        var definition = column.name.quotedIdentifier
        if !column.declaredType.isEmpty { definition += " " + column.declaredType }
        if inlineKey && column.isPrimaryKey {
            definition += column.isPrimaryKeyDescending ? " PRIMARY KEY DESC" : " PRIMARY KEY"
            if column.isAutoIncrement { definition += " AUTOINCREMENT" }
        }
        if column.isNotNull { definition += " NOT NULL" }
        if column.isUnique { definition += " UNIQUE" }
        if let defaultSQL = column.defaultSQL { definition += " DEFAULT " + DefaultExpression.rendered(defaultSQL) }
        if let collation = column.collation { definition += " COLLATE " + collation.quotedIdentifier }
        if column.generation != .none, let expression = column.generationExpression {
            definition += " GENERATED ALWAYS AS (" + expression + ")" + (column.generation == .stored ? " STORED" : " VIRTUAL")
        }
        if let foreignKey = foreignKeys.first(where: { $0.columns.count == 1 && $0.columns[0].equalsIdentifier(column.name) }) {
            definition += Self.referenceClause(foreignKey)
        }
        return definition
    }

    /// ` REFERENCES "parent" ("a", …) ON DELETE … ON UPDATE …`.
    static func referenceClause(_ foreignKey: ForeignKey) -> String {
        var clause = " REFERENCES " + foreignKey.referencedTable.quotedIdentifier
        if !foreignKey.referencedColumns.isEmpty {
            clause += " (" + foreignKey.referencedColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
        }
        if foreignKey.onDelete != .noAction { clause += " ON DELETE " + foreignKey.onDelete.rawValue }
        if foreignKey.onUpdate != .noAction { clause += " ON UPDATE " + foreignKey.onUpdate.rawValue }
        return clause
    }
}
