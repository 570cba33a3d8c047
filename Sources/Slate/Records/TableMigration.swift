import Foundation

/// What bringing a table in line with its ``TableDefinition`` takes, or took.
///
/// Get one without changing anything from `Database.migrationPlan(for:options:)`
/// (a dry run), or as the result of ``Database/migrateTable(to:options:)``:
///
/// ```swift
/// let plan = try db.migrationPlan(for: Player.self)
/// print(plan)          // the SQL Slate would run, one statement per line
/// ```
public struct TableMigrationPlan: Sendable, Hashable, CustomStringConvertible {
    /// The kind of change.
    public enum Action: String, Sendable, Hashable {
        /// The table already matches.
        case none
        /// The table does not exist and is created.
        case create
        /// Columns are added or renamed with `ALTER TABLE`; rows are not copied.
        case alter
        /// The table is rebuilt with SQLite's 12-step procedure, copying every row.
        case rebuild
    }

    /// The table name.
    public var table: String
    /// The kind of change.
    public var action: Action
    /// The SQL statements, in order: planned for a dry run, run for a migration.
    public var statements: [String]
    /// Columns the table gains.
    public var addedColumns: [String]
    /// Columns the table loses, with their data: only those named in
    /// ``TableMigrationOptions/droppedColumns``.
    public var droppedColumns: [String]
    /// Columns the table has and the definition does not declare, kept with their data.
    public var keptColumns: [String]
    /// Renamed columns: each new name mapped to the old one.
    public var renamedColumns: [String: String]
    /// Why the table is rebuilt, one line per difference (empty unless ``action`` is ``Action/rebuild``).
    public var reasons: [String]
    /// Indexes of the old table that are not re-created because they use a dropped column.
    public var droppedIndexes: [String]

    /// Whether the table already matches its definition.
    public var isEmpty: Bool { action == .none }

    /// The statements, each followed by `;`, one per line.
    public var description: String {
        statements.map { $0 + ";" }.joined(separator: "\n")
    }
}

/// Choices for ``Database/migrateTable(to:options:)``.
///
/// A migration never drops a column unless you name it: a column the table has and the type does
/// not declare (left by another version of the app, or by a property renamed without a
/// `renamedColumns` entry) is kept, with its values, even when the table is rebuilt.
public struct TableMigrationOptions: Sendable, Hashable {
    /// The columns to drop, with their values: each must be a column of the table that the type no
    /// longer declares (compared case-insensitively). Default: none.
    public var droppedColumns: Set<String>

    /// Creates options that drop exactly `droppedColumns`.
    public init(dropping droppedColumns: Set<String> = []) {
        self.droppedColumns = droppedColumns
    }
}

/// Compares a definition with the table in the database and decides what to do.
struct MigrationPlanner {
    /// The type's definition, plus the columns of the table it does not declare and that are kept.
    private(set) var definition: TableDefinition
    let existing: ExistingTable?
    let options: TableMigrationOptions

    /// Each desired column, with the existing column its values come from (`nil` for a new column).
    private(set) var sources: [(column: ColumnDescriptor, source: ExistingTable.Column?)] = []
    private(set) var plan: TableMigrationPlan

    init(definition: TableDefinition, existing: ExistingTable?, options: TableMigrationOptions) throws {
        self.definition = definition
        self.existing = existing
        self.options = options
        plan = TableMigrationPlan(
            table: definition.name, action: .none, statements: [], addedColumns: [], droppedColumns: [], keptColumns: [],
            renamedColumns: [:], reasons: [], droppedIndexes: [])
        try decide()
    }

    private mutating func decide() throws {
        guard let existing else {
            plan.action = .create
            plan.addedColumns = definition.columns.map(\.name)
            plan.statements = [definition.createTableSQL()] + definition.createIndexSQL
            return
        }
        var used: Set<String> = []
        for column in definition.columns {
            var source = existing.column(named: column.name)
            if source == nil, let old = definition.renamedColumns[column.name], let previous = existing.column(named: old),
                definition.columns.allSatisfy({ $0.name.caseInsensitiveCompare(previous.name) != .orderedSame })
            {
                source = previous
                plan.renamedColumns[column.name] = previous.name
            }
            if source?.isGenerated == true { source = nil }
            if let source { used.insert(source.name.lowercased()) } else { plan.addedColumns.append(column.name) }
            sources.append((column, source))
        }
        let requested = Dictionary(options.droppedColumns.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        if let declared = requested.keys.sorted().first(where: { used.contains($0) }) {
            throw DatabaseError(
                resultCode: .misuse,
                message: "cannot drop column \(requested[declared] ?? declared) of table \(definition.name.quotedIdentifier): "
                    + "the type still declares it; nothing was changed")
        }
        if let missing = requested.keys.sorted().first(where: { name in !existing.copiedColumns.contains { $0.name.lowercased() == name } }) {
            throw DatabaseError(
                resultCode: .misuse,
                message: "cannot drop column \(requested[missing] ?? missing): table \(definition.name.quotedIdentifier) has no such "
                    + "column; nothing was changed")
        }
        // Columns the type does not declare are kept, with their values, unless named for dropping.
        for column in existing.copiedColumns where !used.contains(column.name.lowercased()) {
            if requested[column.name.lowercased()] != nil {
                plan.droppedColumns.append(column.name)
            } else {
                let reference = existing.foreignKeys.first { $0.from.count == 1 && $0.from[0].caseInsensitiveCompare(column.name) == .orderedSame }
                    .map { key in
                        ColumnReference(
                            table: key.table, column: key.to.first ?? nil,
                            onDelete: ForeignKeyAction(rawValue: key.onDelete.uppercased()) ?? .noAction,
                            onUpdate: ForeignKeyAction(rawValue: key.onUpdate.uppercased()) ?? .noAction)
                    }
                let kept = ColumnDescriptor(
                    name: column.name, sqlType: column.type, isNullable: !column.isNotNull,
                    isUnique: existing.uniqueColumns.contains(column.name.lowercased()), defaultSQL: column.defaultSQL,
                    references: reference)
                definition.columns.append(kept)
                plan.keptColumns.append(column.name)
                used.insert(column.name.lowercased())
                sources.append((kept, column))
            }
        }
        plan.reasons = differences(existing)
        for column in plan.droppedColumns { plan.reasons.append("column \(column) was removed") }
        for (column, source) in sources where source == nil && !canAddColumn(column) {
            plan.reasons.append("new column \(column.name) cannot be added with ALTER TABLE ADD COLUMN"
                + " (primary key, UNIQUE, NOT NULL without a constant default, non-constant default, or foreign key)")
        }

        if !plan.reasons.isEmpty {
            plan.action = .rebuild
            return
        }
        let table = definition.name.quotedIdentifier
        for (new, old) in plan.renamedColumns.sorted(by: { $0.key < $1.key }) {
            plan.statements.append("ALTER TABLE \(table) RENAME COLUMN \(old.quotedIdentifier) TO \(new.quotedIdentifier)")
        }
        for (column, source) in sources where source == nil {
            plan.statements.append("ALTER TABLE \(table) ADD COLUMN " + definition.columnDefinition(column, inlineKey: false))
        }
        let existingIndexes = Set(existing.objects.filter { $0.type == "index" }.map { $0.name.lowercased() })
        for (index, sql) in zip(definition.indexes, definition.createIndexSQL) where !existingIndexes.contains(index.name.lowercased()) {
            plan.statements.append(sql)
        }
        plan.action = plan.statements.isEmpty ? .none : .alter
    }

    /// Every difference that `ALTER TABLE` cannot make, described for people.
    private func differences(_ existing: ExistingTable) -> [String] {
        var reasons: [String] = []
        if definition.isWithoutRowID != existing.isWithoutRowID {
            reasons.append(definition.isWithoutRowID ? "the table becomes WITHOUT ROWID" : "the table is no longer WITHOUT ROWID")
        }
        let wantsAutoIncrement = definition.columns.contains(where: \.isAutoIncrement)
        if wantsAutoIncrement != existing.hasAutoIncrement {
            reasons.append(wantsAutoIncrement ? "the key becomes AUTOINCREMENT" : "the key is no longer AUTOINCREMENT")
        }
        let rowIDColumn = definition.rowIDColumn
        for (column, source) in sources {
            guard let source else { continue }
            let name = column.name
            if SchemaText.type(column.sqlType) != SchemaText.type(source.type) {
                reasons.append("the type of column \(name) changes from \(source.type.isEmpty ? "none" : source.type) to \(column.sqlType.isEmpty ? "none" : column.sqlType)")
            }
            let isRowIDAlias = rowIDColumn?.caseInsensitiveCompare(name) == .orderedSame && !existing.isWithoutRowID
            if !isRowIDAlias && column.isNullable == source.isNotNull {
                reasons.append(column.isNullable ? "column \(name) becomes nullable" : "column \(name) becomes NOT NULL")
            }
            if (column.primaryKeyPosition ?? 0) != source.primaryKeyPosition {
                reasons.append("the primary key position of column \(name) changes")
            }
            if column.isUnique != existing.uniqueColumns.contains(source.name.lowercased()) {
                reasons.append(column.isUnique ? "column \(name) becomes UNIQUE" : "column \(name) is no longer UNIQUE")
            }
            if SchemaText.defaultValue(column.defaultSQL) != SchemaText.defaultValue(source.defaultSQL) {
                reasons.append("the default of column \(name) changes")
            }
            let existingReference = existing.foreignKeys.first { $0.from.count == 1 && $0.from[0].caseInsensitiveCompare(source.name) == .orderedSame }
            if !Self.matches(column.references, existingReference) {
                reasons.append("the foreign key of column \(name) changes")
            }
        }
        let wanted = Set(definition.foreignKeys.map { Self.signature(columns: $0.columns, table: $0.referencedTable, to: $0.referencedColumns, onUpdate: $0.onUpdate.rawValue, onDelete: $0.onDelete.rawValue) })
        let present = Set(existing.foreignKeys.filter { $0.from.count > 1 }.map { key in
            Self.signature(columns: key.from.map { from in plan.renamedColumns.first { $0.value.caseInsensitiveCompare(from) == .orderedSame }?.key ?? from },
                           table: key.table, to: key.to.compactMap { $0 }, onUpdate: key.onUpdate, onDelete: key.onDelete)
        })
        if wanted != present { reasons.append("the multi-column foreign keys change") }
        return reasons
    }

    private static func signature(columns: [String], table: String, to: [String], onUpdate: String, onDelete: String) -> String {
        ([columns.joined(separator: ","), table, to.joined(separator: ","), onUpdate, onDelete]).joined(separator: "|").lowercased()
    }

    private static func matches(_ reference: ColumnReference?, _ key: ExistingTable.ForeignKey?) -> Bool {
        switch (reference, key) {
        case (nil, nil): return true
        case (let reference?, let key?):
            let to = key.to.first ?? nil
            return reference.table.caseInsensitiveCompare(key.table) == .orderedSame
                && (reference.column?.lowercased() == to?.lowercased())
                && reference.onDelete.rawValue == key.onDelete.uppercased()
                && reference.onUpdate.rawValue == key.onUpdate.uppercased()
        default: return false
        }
    }

    /// Whether `ALTER TABLE ADD COLUMN` can add `column` (see "ALTER TABLE ADD COLUMN" in SQLite's
    /// documentation).
    func canAddColumn(_ column: ColumnDescriptor) -> Bool {
        if column.isPrimaryKey || column.isUnique { return false }
        let defaultValue = SchemaText.defaultValue(column.defaultSQL)
        if let defaultSQL = column.defaultSQL {
            let trimmed = defaultSQL.trimmingCharacters(in: .whitespacesAndNewlines)
            if TableDefinition.isKeywordDefault(trimmed) || !TableDefinition.isConstantLiteral(trimmed) { return false }
        }
        if !column.isNullable && defaultValue == nil { return false }
        if column.references != nil && defaultValue != nil { return false }
        return true
    }
}
