import Foundation

// Tables that follow their Swift types: created when first needed, altered when the type gains
// columns, rebuilt (keeping every row, or throwing) for any other change. See <doc:CodeFirst>.

extension Database {
    // MARK: Create and drop

    /// Creates the table and indexes of `definition` unless the table exists.
    public func createTable(_ definition: TableDefinition) throws {
        try savepoint {
            try execute(sql: definition.createTableSQL(ifNotExists: true))
            for statement in definition.createIndexSQL { try execute(sql: statement) }
        }
    }

    /// Creates the table and indexes `type` declares, unless the table exists. To bring an existing
    /// table in line with the type as well, use `migrateTable(for:options:)`.
    public func createTable<T: Table>(for type: T.Type) throws {
        try createTable(TableDefinition(T.self))
    }

    /// Creates the table of a ``CodableRecord`` type, unless it exists.
    public func createTable<R: CodableRecord>(for type: R.Type) throws {
        try createTable(TableDefinition(R.self))
    }

    /// Drops the table named `name`, if it exists.
    public func dropTable(named name: String) throws {
        try execute(sql: "DROP TABLE IF EXISTS " + name.quotedIdentifier)
        ManagedTableRegistry.shared.forget(self)
    }

    /// Drops the table of `type`, if it exists.
    public func dropTable<T: Table>(for type: T.Type) throws {
        try dropTable(named: T.tableName)
    }

    /// Drops the table of a ``CodableRecord`` type, if it exists.
    public func dropTable<R: CodableRecord>(for type: R.Type) throws {
        try dropTable(named: R.tableName)
    }

    // MARK: Plan (dry run)

    /// What ``migrateTable(to:options:)`` would do, without changing anything: a dry run. Print
    /// the plan to see the SQL.
    ///
    /// - Throws: ``DatabaseError`` when the schema cannot be read, or with ``ResultCode/misuse``
    ///   when columns would be dropped and `options` forbid it.
    public func migrationPlan(for definition: TableDefinition, options: TableMigrationOptions = TableMigrationOptions()) throws -> TableMigrationPlan {
        let existing = try ExistingTable.read(self, name: definition.name)
        let planner = try MigrationPlanner(definition: definition, existing: existing, options: options)
        guard planner.plan.action == .rebuild else { return planner.plan }
        let foreignKeysOn = try fetchValue(Bool.self, "PRAGMA foreign_keys")
        return try TableRebuild(db: self, planner: planner).plannedPlan(foreignKeysOn: foreignKeysOn)
    }

    /// What migrating the table of `type` would do, without changing anything. See
    /// `migrationPlan(for:options:)`.
    public func migrationPlan<T: Table>(for type: T.Type, options: TableMigrationOptions = TableMigrationOptions()) throws -> TableMigrationPlan {
        try migrationPlan(for: TableDefinition(T.self), options: options)
    }

    /// What migrating the table of a ``CodableRecord`` type would do, without changing anything.
    public func migrationPlan<R: CodableRecord>(for type: R.Type, options: TableMigrationOptions = TableMigrationOptions()) throws -> TableMigrationPlan {
        try migrationPlan(for: TableDefinition(R.self), options: options)
    }

    // MARK: Migrate

    /// Brings the table in line with `definition`, and returns what was done.
    ///
    /// - A missing table is created, with its indexes.
    /// - New columns are added with `ALTER TABLE ADD COLUMN`, and columns listed in
    ///   ``TableDefinition/renamedColumns`` are renamed, when that is all that changed.
    /// - Any other change (a column's type, nullability, default, uniqueness or foreign key; the
    ///   primary key; a dropped column; a new column `ADD COLUMN` cannot add) rebuilds the table
    ///   with SQLite's 12-step procedure, in one transaction: every row is copied, indexes and
    ///   triggers are re-created, views and foreign keys are checked.
    ///
    /// A row that cannot be carried over — `NULL` in a column that becomes `NOT NULL` without a
    /// default, a value the new column type cannot hold, a broken foreign key or uniqueness — throws
    /// a ``DatabaseError`` naming the table, the column and the row, and the database is left
    /// unchanged. A rebuild turns foreign keys off while it runs, which SQLite allows only outside a
    /// transaction: when foreign keys are on, call it outside one.
    @discardableResult
    public func migrateTable(to definition: TableDefinition, options: TableMigrationOptions = TableMigrationOptions()) throws -> TableMigrationPlan {
        let existing = try ExistingTable.read(self, name: definition.name)
        let planner = try MigrationPlanner(definition: definition, existing: existing, options: options)
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

    /// Brings the table of `type` in line with it. See ``migrateTable(to:options:)``.
    @discardableResult
    public func migrateTable<T: Table>(for type: T.Type, options: TableMigrationOptions = TableMigrationOptions()) throws -> TableMigrationPlan {
        try migrateTable(to: TableDefinition(T.self), options: options)
    }

    /// Brings the table of a ``CodableRecord`` type in line with it. See ``migrateTable(to:options:)``.
    @discardableResult
    public func migrateTable<R: CodableRecord>(for type: R.Type, options: TableMigrationOptions = TableMigrationOptions()) throws -> TableMigrationPlan {
        try migrateTable(to: TableDefinition(R.self), options: options)
    }

    // MARK: When first needed

    /// Creates or migrates the table of `definition`, unless this connection already did since the
    /// schema last changed. The record APIs of ``RecordStore`` and the ``CodableRecord`` methods call
    /// it before touching a table, so tables are created when first needed.
    public func prepareTable(_ definition: TableDefinition) throws {
        let key = definition.name.lowercased() + "#" + String(definition.hashValue)
        let version = try fetchValue(Int64.self, "PRAGMA schema_version")
        if ManagedTableRegistry.shared.isPrepared(self, key: key, schemaVersion: version) { return }
        try migrateTable(to: definition)
        let newVersion = try fetchValue(Int64.self, "PRAGMA schema_version")
        ManagedTableRegistry.shared.markPrepared(self, key: key, schemaVersion: newVersion)
    }

    /// Creates or migrates the table of `type`, once per connection and schema change. See
    /// ``prepareTable(_:)``.
    public func prepareTable<T: Table>(for type: T.Type) throws {
        try prepareTable(TableDefinition(T.self))
    }

    /// Creates or migrates the table of a ``CodableRecord`` type, once per connection and schema
    /// change. See ``prepareTable(_:)``.
    public func prepareTable<R: CodableRecord>(for type: R.Type) throws {
        try prepareTable(TableDefinition(R.self))
    }
}

/// Which tables each connection has prepared, at which schema version.
final class ManagedTableRegistry: @unchecked Sendable {
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
