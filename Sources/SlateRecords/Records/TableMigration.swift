import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// What bringing a table in line with a ``TableSchema`` takes, or took.
///
/// Get one without changing anything from `Database.migrationPlan(for:options:)`
/// (a dry run), or as the result of `Database.migrateTable(to:options:)`:
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

/// Choices for `Database.migrateTable(to:options:)`.
///
/// A migration never drops a column unless you name it: a column the table has and the schema does
/// not declare (left by another version of the app, or by a property renamed without a
/// `renamedColumns` entry) is kept, with its values, even when the table is rebuilt.
public struct TableMigrationOptions: Sendable, Hashable {
    /// Renamed columns: each current column name mapped to its previous name. The column is
    /// renamed and keeps its data.
    public var renamedColumns: [String: String]
    /// The columns to drop, with their values: each must be a column of the table that the schema
    /// no longer declares (compared case-insensitively). Default: none.
    public var droppedColumns: Set<String>

    /// Creates options that rename `renamedColumns` and drop exactly `droppedColumns`.
    public init(renamedColumns: [String: String] = [:], dropping droppedColumns: Set<String> = []) {
        self.renamedColumns = renamedColumns
        self.droppedColumns = droppedColumns
    }
}

/// Compares a schema with the table in the database and decides what to do.
struct MigrationPlanner {
    /// The wanted schema, plus the columns of the table it does not declare and that are kept.
    private(set) var schema: TableSchema
    let existing: TableSchema?
    let options: TableMigrationOptions

    /// Each wanted column, with the existing column its values come from (`nil` for a new column).
    private(set) var sources: [(column: TableSchema.Column, source: TableSchema.Column?)] = []
    private(set) var plan: TableMigrationPlan

    init(schema: TableSchema, existing: TableSchema?, options: TableMigrationOptions, primaryKey: (String) -> [String]?)
        throws
    {
        self.schema = schema
        self.existing = existing
        self.options = options
        plan = TableMigrationPlan(
            table: schema.name, action: .none, statements: [], addedColumns: [], droppedColumns: [], keptColumns: [],
            renamedColumns: [:], reasons: [], droppedIndexes: [])
        try decide(primaryKey: primaryKey)
    }

    private func failure(_ message: String) -> DatabaseError {
        DatabaseError(
            resultCode: .misuse,
            message: "cannot migrate table \(schema.name.quotedIdentifier): \(message); nothing was changed")
    }

    private mutating func decide(primaryKey: (String) -> [String]?) throws {
        guard case .table = schema.kind else { throw failure("only ordinary tables are migrated") }
        guard let existing else {
            plan.action = .create
            plan.addedColumns = schema.recordColumns.map(\.name)
            plan.statements = try schema.createStatements()
            return
        }
        guard case .table = existing.kind else { throw failure("it is a \(existing.kind), not an ordinary table") }
        var used: Set<String> = []
        for column in schema.columns {
            var source = existing.column(named: column.name)
            if source == nil, let old = options.renamedColumns[column.name], let previous = existing.column(named: old),
                schema.column(named: previous.name) == nil
            {
                source = previous
                plan.renamedColumns[column.name] = previous.name
            }
            if source?.isGenerated == true { source = nil }
            if let source { used.insert(source.name.lowercased()) } else { plan.addedColumns.append(column.name) }
            sources.append((column, source))
        }
        let requested = Dictionary(
            options.droppedColumns.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        if let declared = requested.keys.sorted().first(where: { used.contains($0) }) {
            throw failure("column \(requested[declared] ?? declared) cannot be dropped, the schema still declares it")
        }
        if let missing = requested.keys.sorted().first(where: { name in existing.column(named: name) == nil }) {
            throw failure("column \(requested[missing] ?? missing) cannot be dropped, the table has no such column")
        }
        // Columns the schema does not declare are kept, with their values, unless named for dropping.
        var keptGenerated: [String] = []
        for column in existing.columns where !used.contains(column.name.lowercased()) && !column.isHidden {
            if requested[column.name.lowercased()] != nil {
                plan.droppedColumns.append(column.name)
            } else if column.isGenerated {
                keptGenerated.append(column.name)
            } else {
                schema.columns.append(column)
                for key in existing.foreignKeys
                where key.columns.count == 1 && key.columns[0].equalsIdentifier(column.name) {
                    schema.foreignKeys.append(key)
                }
                plan.keptColumns.append(column.name)
                used.insert(column.name.lowercased())
                sources.append((column, column))
            }
        }
        schema.markRowIDAlias()

        // What ALTER TABLE cannot do, read from the differences with the renamed columns renamed.
        var renamed = existing
        for (new, old) in plan.renamedColumns {
            if let index = renamed.columns.firstIndex(where: { $0.name.equalsIdentifier(old) }) {
                renamed.columns[index].name = new
            }
            for key in renamed.foreignKeys.indices {
                renamed.foreignKeys[key].columns = renamed.foreignKeys[key].columns.map {
                    $0.equalsIdentifier(old) ? new : $0
                }
            }
        }
        renamed.columns.removeAll { column in plan.droppedColumns.contains { $0.equalsIdentifier(column.name) } }
        renamed.foreignKeys.removeAll { key in
            key.columns.contains { column in plan.droppedColumns.contains { $0.equalsIdentifier(column) } }
        }
        for difference in schema.differences(from: renamed, primaryKey: primaryKey) {
            switch difference.kind {
            case .missingColumn, .extraColumn, .index:
                continue
            default:
                plan.reasons.append(Self.reason(difference))
            }
        }
        for column in plan.droppedColumns { plan.reasons.append("column \(column) is dropped") }
        for (column, source) in sources where source == nil && !canAddColumn(column) {
            plan.reasons.append(
                "new column \(column.name) cannot be added with ALTER TABLE ADD COLUMN"
                    + " (primary key, UNIQUE, NOT NULL without a constant default, non-constant default, or foreign key)"
            )
        }

        if !plan.reasons.isEmpty {
            if let generated = keptGenerated.first {
                throw failure(
                    "the table must be rebuilt (\(plan.reasons.joined(separator: "; "))), which would lose generated column \(generated) that "
                        + "the schema does not declare: declare it, or name it in TableMigrationOptions(dropping:)")
            }
            plan.action = .rebuild
            return
        }
        let table = schema.name.quotedIdentifier
        for (new, old) in plan.renamedColumns.sorted(by: { $0.key < $1.key }) {
            plan.statements.append(
                "ALTER TABLE \(table) RENAME COLUMN \(old.quotedIdentifier) TO \(new.quotedIdentifier)")
        }
        for (column, source) in sources where source == nil {
            plan.statements.append(
                "ALTER TABLE \(table) ADD COLUMN " + schema.columnDefinition(column, inlineKey: false))
        }
        for index in schema.indexes where !existing.indexes.contains(where: { $0.name.equalsIdentifier(index.name) }) {
            plan.statements.append(schema.createIndexSQL(index))
        }
        plan.action = plan.statements.isEmpty ? .none : .alter
    }

    /// A difference, as a reason to rebuild.
    static func reason(_ difference: SchemaDifference) -> String {
        let column = difference.name ?? ""
        switch difference.kind {
        case .affinity, .declaredType:
            return
                "the type of column \(column) changes from \(difference.actual ?? "none") to \(difference.expected ?? "none")"
        case .nullability:
            return difference.expected == "NOT NULL"
                ? "column \(column) becomes NOT NULL" : "column \(column) becomes nullable"
        case .defaultValue:
            return "the default of column \(column) changes"
        case .unique where !column.hasPrefix("("):
            return difference.expected == "UNIQUE"
                ? "column \(column) becomes UNIQUE" : "column \(column) is no longer UNIQUE"
        case .unique:
            return "the unique constraint \(column) changes"
        case .collation:
            return
                "the collation of column \(column) changes from \(difference.actual ?? "BINARY") to \(difference.expected ?? "BINARY")"
        case .primaryKey:
            return "the primary key changes from (\(difference.actual ?? "")) to (\(difference.expected ?? ""))"
        case .autoIncrement:
            return difference.expected == "AUTOINCREMENT"
                ? "the key becomes AUTOINCREMENT" : "the key is no longer AUTOINCREMENT"
        case .withoutRowID:
            return difference.expected == "WITHOUT ROWID"
                ? "the table becomes WITHOUT ROWID" : "the table is no longer WITHOUT ROWID"
        case .foreignKey:
            return "the foreign key \(column) changes"
        case .generated:
            return "column \(column) changes from \(difference.actual ?? "") to \(difference.expected ?? "") generation"
        default:
            return difference.description
        }
    }

    /// Whether `ALTER TABLE ADD COLUMN` can add `column` (see "ALTER TABLE ADD COLUMN" in SQLite's
    /// documentation).
    func canAddColumn(_ column: TableSchema.Column) -> Bool {
        if column.isPrimaryKey || column.isUnique || column.isGenerated { return false }
        let defaultValue = SchemaText.defaultValue(column.defaultSQL)
        if let defaultSQL = column.defaultSQL {
            let trimmed = defaultSQL.trimmingSQLSpace
            if DefaultExpression.isKeywordDefault(trimmed) || !DefaultExpression.isConstantLiteral(trimmed) {
                return false
            }
        }
        if column.isNotNull && defaultValue == nil { return false }
        let hasForeignKey = schema.foreignKeys.contains { $0.columns.contains { $0.equalsIdentifier(column.name) } }
        if hasForeignKey && defaultValue != nil { return false }
        if schema.uniqueConstraints.contains(where: { $0.contains { $0.equalsIdentifier(column.name) } }) {
            return false
        }
        return true
    }
}
