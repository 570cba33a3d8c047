import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

// Tables that follow their Swift types: created when first needed, altered when the type gains
// columns, rebuilt (keeping every row, or throwing) for any other change. See <doc:CodeFirst>.

extension Database {
    // MARK: Drop

    /// Drops the table named `name`, if it exists.
    public func dropTable(named name: String) throws {
        try execute(sql: "DROP TABLE IF EXISTS " + name.quotedIdentifier)
        ManagedTableRegistry.shared.forget(self)
    }

    /// Drops the table of `type`, if it exists.
    public func dropTable<T: Table>(for type: T.Type) throws {
        try dropTable(named: T.tableName)
    }

    // MARK: Plan (dry run)

    /// What ``migrateTable(to:options:)`` would do, without changing anything: a dry run. Print
    /// the plan to see the SQL.
    ///
    /// - Throws: ``DatabaseError`` when the schema cannot be read, or with ``ResultCode/misuse``
    ///   when the options name a column that cannot be dropped.
    public func migrationPlan(for schema: TableSchema, options: TableMigrationOptions = TableMigrationOptions()) throws
        -> TableMigrationPlan
    {
        let planner = try migrationPlanner(schema, options: options)
        guard planner.plan.action == .rebuild else { return planner.plan }
        let foreignKeysOn = try fetchValue(Bool.self, "PRAGMA foreign_keys")
        return try TableRebuild(db: self, planner: planner).plannedPlan(foreignKeysOn: foreignKeysOn)
    }

    /// What migrating the table of `type` would do, without changing anything. See
    /// `migrationPlan(for:options:)`.
    public func migrationPlan<T: Table>(for type: T.Type, options: TableMigrationOptions = TableMigrationOptions())
        throws -> TableMigrationPlan
    {
        try T.checkSchema()
        return try migrationPlan(for: T.schema, options: options.adding(renamedColumnsOf: T.self))
    }

    // MARK: Migrate

    /// Brings the table in line with `schema`, and returns what was done.
    ///
    /// - A missing table is created, with its indexes.
    /// - New columns are added with `ALTER TABLE ADD COLUMN`, and columns listed in
    ///   ``TableMigrationOptions/renamedColumns`` are renamed, when that is all that changed.
    /// - Any other change (a column's type, nullability, default, uniqueness, collation or foreign
    ///   key; the primary key; a dropped column; a new column `ADD COLUMN` cannot add) rebuilds the
    ///   table with SQLite's 12-step procedure, in one transaction: every row is copied, indexes and
    ///   triggers are re-created, views and foreign keys are checked.
    /// - Columns the table has and the schema does not declare are kept with their values, unless
    ///   named in ``TableMigrationOptions/droppedColumns``.
    ///
    /// A row that cannot be carried over — `NULL` in a column that becomes `NOT NULL` without a
    /// default, a value the new column type cannot hold, a broken foreign key or uniqueness — throws
    /// a ``DatabaseError`` naming the table, the column and the row, and the database is left
    /// unchanged. A rebuild turns foreign keys off while it runs, which SQLite allows only outside a
    /// transaction: when foreign keys are on, call it outside one.
    @discardableResult
    public func migrateTable(to schema: TableSchema, options: TableMigrationOptions = TableMigrationOptions()) throws
        -> TableMigrationPlan
    {
        let planner = try migrationPlanner(schema, options: options)
        var plan = planner.plan
        switch plan.action {
        case .none:
            break
        case .create, .alter:
            try savepoint {
                for statement in plan.statements { try execute(sql: statement) }
            }
        case .rebuild:
            plan = try TableRebuild(db: self, planner: planner).run()
        }
        if plan.action != .none { clearStatementCache() }
        return plan
    }

    /// Brings the table of `type` in line with it, with the renamed columns the type declares. See
    /// ``migrateTable(to:options:)``.
    @discardableResult
    public func migrateTable<T: Table>(for type: T.Type, options: TableMigrationOptions = TableMigrationOptions())
        throws -> TableMigrationPlan
    {
        try T.checkSchema()
        return try migrateTable(to: T.schema, options: options.adding(renamedColumnsOf: T.self))
    }

    private func migrationPlanner(_ schema: TableSchema, options: TableMigrationOptions) throws -> MigrationPlanner {
        let existing = try tableSchema(named: schema.name)
        var parentKeys: [String: [String]] = [:]
        for key in schema.foreignKeys + (existing?.foreignKeys ?? [])
        where parentKeys[key.referencedTable.lowercased()] == nil {
            let parent =
                key.referencedTable.equalsIdentifier(schema.name) ? schema : try tableSchema(named: key.referencedTable)
            parentKeys[key.referencedTable.lowercased()] = parent?.primaryKey ?? []
        }
        return try MigrationPlanner(schema: schema, existing: existing, options: options) {
            parentKeys[$0.lowercased()]
        }
    }

    // MARK: When first needed

    /// Creates or migrates the table of `schema`, unless this connection already did since the
    /// schema last changed. Writes to ``CodableRecord`` types and the writing methods of
    /// ``RecordStore`` call it, so tables are created when first written. A read never does.
    public func prepareTable(_ schema: TableSchema, renamedColumns: [String: String] = [:]) throws {
        var hasher = Hasher()
        hasher.combine(schema)
        hasher.combine(renamedColumns)
        let key = schema.name.lowercased() + "#" + String(hasher.finalize())
        let version = try fetchValue(Int64.self, "PRAGMA schema_version")
        if ManagedTableRegistry.shared.isPrepared(self, key: key, schemaVersion: version) { return }
        try migrateTable(to: schema, options: TableMigrationOptions(renamedColumns: renamedColumns))
        let newVersion = try fetchValue(Int64.self, "PRAGMA schema_version")
        ManagedTableRegistry.shared.markPrepared(self, key: key, schemaVersion: newVersion)
    }

    /// Creates or migrates the table of `type`, once per connection and schema change. See
    /// ``prepareTable(_:renamedColumns:)``.
    public func prepareTable<T: Table>(for type: T.Type) throws {
        try T.checkSchema()
        try prepareTable(
            T.schema, renamedColumns: TableMigrationOptions().adding(renamedColumnsOf: T.self).renamedColumns)
    }
}

extension Database {
    /// Whether the `main` database has a table called `name` (compared case-insensitively, as SQLite
    /// compares identifiers).
    func tableExists(_ name: String) throws -> Bool {
        try fetchOne(Int.self, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = \(name) COLLATE NOCASE")
            != nil
    }
}

extension TableMigrationOptions {
    /// These options, plus the renamed columns `type` declares (a ``SelfManagingTable``).
    func adding<T: Table>(renamedColumnsOf type: T.Type) -> TableMigrationOptions {
        guard let managed = T.self as? any SelfManagingTable.Type else { return self }
        var options = self
        options.renamedColumns.merge(managed.renamedColumns) { explicit, _ in explicit }
        return options
    }
}

/// Which tables each connection has prepared, at which schema version.
final class ManagedTableRegistry: @unchecked Sendable {
    // @unchecked Sendable: `entries` and the `Entry` objects in it are read and written only while
    // `lock` is held; an entry holds its `Database` weakly and only compares its identity, never
    // uses it.
    static let shared = ManagedTableRegistry()

    private final class Entry {
        weak var database: Database?
        var schemaVersion: Int64
        var keys: Set<String> = []

        init(database: Database, schemaVersion: Int64) {
            self.database = database
            self.schemaVersion = schemaVersion
        }
    }

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    func isPrepared(_ db: Database, key: String, schemaVersion: Int64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[ObjectIdentifier(db)], entry.database === db else { return false }
        return entry.schemaVersion == schemaVersion && entry.keys.contains(key)
    }

    func markPrepared(_ db: Database, key: String, schemaVersion: Int64) {
        lock.lock()
        defer { lock.unlock() }
        let identifier = ObjectIdentifier(db)
        if let entry = entries[identifier], entry.database === db {
            if entry.schemaVersion != schemaVersion {
                entry.keys = []
                entry.schemaVersion = schemaVersion
            }
            entry.keys.insert(key)
            return
        }
        entries = entries.filter { $0.value.database != nil }
        let entry = Entry(database: db, schemaVersion: schemaVersion)
        entry.keys.insert(key)
        entries[identifier] = entry
    }

    func forget(_ db: Database) {
        lock.lock()
        defer { lock.unlock() }
        entries[ObjectIdentifier(db)] = nil
    }
}
