import Foundation
import SlateCore

/// Migrates a database schema: named migrations applied in the order they were registered, each
/// once, each in its own transaction, and recorded in a table of the database.
///
/// ```swift
/// var migrator = Migrator()
/// migrator.registerMigration("v1") { db in
///     try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// }
/// migrator.registerMigration("v2", sql: "ALTER TABLE player ADD COLUMN score INTEGER NOT NULL DEFAULT 0")
/// try migrator.migrate(dbQueue)
/// ```
///
/// A migration that throws is rolled back and stops the migration; the migrations before it stay
/// applied. After each migration `PRAGMA foreign_key_check` runs: violations roll the migration
/// back and throw ``ResultCode/constraintForeignKey``. Migrations are recorded in the
/// ``tableName`` table (`identifier TEXT PRIMARY KEY, applied_at TEXT, checksum TEXT`).
///
/// Migrations run inside a transaction: do not begin transactions in them (use
/// ``Database/savepoint(_:_:)``), and use ``ForeignKeyChecks/deferred`` rather than
/// `PRAGMA foreign_keys`, which has no effect inside a transaction.
public struct Migrator: Sendable {
    /// How foreign keys are enforced while a migration runs.
    public enum ForeignKeyChecks: Sendable, Hashable {
        /// Foreign keys are turned off while the migration runs (when the connection enforces
        /// them), so it can rebuild tables that other tables reference; the whole database is
        /// checked with `PRAGMA foreign_key_check` before the migration commits.
        case deferred
        /// Foreign keys stay as the connection has them: a statement that violates one fails at
        /// once, and `ON DELETE` actions run. The database is checked before commit too.
        case immediate
    }

    /// One registered migration.
    struct Migration: Sendable {
        let identifier: String
        let foreignKeyChecks: ForeignKeyChecks
        /// A checksum of the SQL of SQL migrations, recorded to notice later edits; `nil` for
        /// closures.
        let checksum: String?
        let body: @Sendable (Database) throws -> Void
    }

    /// The default of ``tableName``.
    public static let defaultTableName = "slate_migrations"

    private(set) var migrations: [Migration] = []

    /// The table that records applied migrations. Default `slate_migrations`.
    public var tableName = Migrator.defaultTableName

    /// A development option: when a migration that was already applied has changed since (its
    /// SQL was edited, it was removed or renamed, or, for closure migrations, the schema it
    /// builds differs), erase the whole database and apply every migration again.
    ///
    /// SQL migrations are compared by the checksum recorded when they were applied. When closure
    /// migrations were applied, the migrator also applies them to an empty in-memory database and
    /// compares that schema with the database's. Never turn this on for data you want to keep.
    public var eraseDatabaseOnSchemaChange = false

    /// Called with a migration's identifier just before it is applied, on the thread running the
    /// migration (the writer's queue for ``DatabaseQueue`` and ``DatabasePool``).
    public var willMigrate: (@Sendable (_ identifier: String) -> Void)?

    /// Called with a migration's identifier just after it was applied and committed, on the thread
    /// running the migration.
    public var didMigrate: (@Sendable (_ identifier: String) -> Void)?

    /// Creates a migrator with no migrations.
    public init() {}

    /// The identifiers of the registered migrations, in the order they apply.
    public var registeredMigrations: [String] { migrations.map(\.identifier) }

    // MARK: Registering

    /// Registers a migration that runs `migrate`.
    ///
    /// - Parameters:
    ///   - identifier: The migration's unique name, recorded in the database once it is applied.
    ///     Registering a name twice makes ``migrate(_:)-(Database)`` throw ``ResultCode/misuse``.
    ///   - foreignKeyChecks: How foreign keys are enforced while the migration runs.
    ///   - migrate: The work, run inside a transaction.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void
    ) {
        migrations.append(
            Migration(
                identifier: identifier, foreignKeyChecks: foreignKeyChecks, checksum: nil, body: migrate))
    }

    /// Registers a migration that runs the SQL script `sql` (one or more statements).
    ///
    /// The checksum of `sql` is recorded when the migration is applied, so
    /// ``eraseDatabaseOnSchemaChange`` notices when you edit it later.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        sql: String
    ) {
        migrations.append(
            Migration(
                identifier: identifier,
                foreignKeyChecks: foreignKeyChecks,
                checksum: Self.checksum(of: sql),
                body: { db in try db.execute(sql: sql) }))
    }

    // MARK: Migrating

    /// Applies every registered migration the database lacks, in order.
    ///
    /// - Parameter db: A connection outside any transaction.
    /// - Throws: What a failing migration throws (its ``DatabaseError`` message names it), a
    ///   ``ResultCode/constraintForeignKey`` error when a migration leaves foreign key violations,
    ///   or ``ResultCode/misuse`` when `db` is in a transaction or an identifier is registered twice.
    public func migrate(_ db: Database) throws {
        try migrate(db, through: migrations.count - 1)
    }

    /// Applies the registered migrations the database lacks, in order, up to and including the
    /// one named `target`. Migrations after it are left for later; none is ever reverted.
    ///
    /// - Throws: ``ResultCode/misuse`` when no migration is named `target`, and the errors of
    ///   ``migrate(_:)-(Database)``.
    public func migrate(_ db: Database, upTo target: String) throws {
        guard let index = migrations.firstIndex(where: { $0.identifier == target }) else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "cannot migrate up to \"\(target)\": no migration has that identifier"
                    + " (registered: \(registeredMigrations.joined(separator: ", ")))")
        }
        try migrate(db, through: index)
    }

    private func migrate(_ db: Database, through lastIndex: Int) throws {
        guard !db.isInTransaction else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "migrations must run outside a transaction, because each runs in its own;"
                    + " use DatabaseWriter.writeWithoutTransaction")
        }
        try checkRegistrations()
        try createTable(in: db)
        if eraseDatabaseOnSchemaChange, try needsErase(db) {
            try erase(db)
            try createTable(in: db)
        }
        let applied = Set(try appliedMigrations(in: db))
        for migration in migrations.prefix(lastIndex + 1) where !applied.contains(migration.identifier) {
            try apply(migration, to: db, notifying: true)
        }
    }

    /// Applies one migration in an immediate transaction, checks foreign keys and records it.
    func apply(_ migration: Migration, to db: Database, notifying: Bool) throws {
        let foreignKeysWereOn = try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys")
        let turnsForeignKeysOff = migration.foreignKeyChecks == .deferred && foreignKeysWereOn
        if turnsForeignKeysOff { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        try db.restoring({ if turnsForeignKeysOff { try db.execute(sql: "PRAGMA foreign_keys = ON") } }) {
            try applyInTransaction(migration, to: db, notifying: notifying)
        }
    }

    /// The transaction of ``apply(_:to:notifying:)``.
    private func applyInTransaction(_ migration: Migration, to db: Database, notifying: Bool) throws {
        if notifying { willMigrate?(migration.identifier) }
        do {
            try db.transaction(.immediate) {
                try migration.body(db)
                try checkForeignKeys(in: db)
                try db.execute(
                    """
                    INSERT INTO \(identifier: tableName)(identifier, applied_at, checksum)
                    VALUES (\(migration.identifier), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), \(migration.checksum))
                    """)
            }
        } catch var error as DatabaseError {
            error.message = "migration \"\(migration.identifier)\" failed and was rolled back: \(error.message)"
            throw error
        }
        if notifying { didMigrate?(migration.identifier) }
    }

    private func checkForeignKeys(in db: Database) throws {
        let violations = try db.fetchAll("PRAGMA foreign_key_check") { row -> String in
            let table: String = try row[0]
            let rowID: Int64? = try row[1]
            let parent: String = try row[2]
            let rowDescription = rowID.map { "row \($0)" } ?? "a row"
            return
                "\(rowDescription) of \(table.quotedIdentifier) references a missing row of \(parent.quotedIdentifier)"
        }
        guard !violations.isEmpty else { return }
        let shown = violations.prefix(5).joined(separator: "; ")
        let more = violations.count > 5 ? "; and \(violations.count - 5) more" : ""
        throw DatabaseError(
            resultCode: .constraintForeignKey,
            message: "PRAGMA foreign_key_check found \(violations.count) foreign key violation(s): \(shown)\(more)")
    }

    private func checkRegistrations() throws {
        var seen: Set<String> = []
        for migration in migrations where !seen.insert(migration.identifier).inserted {
            throw DatabaseError(
                resultCode: .misuse,
                message: "migration \"\(migration.identifier)\" is registered more than once")
        }
    }

    func createTable(in db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS \(tableName.quotedIdentifier) (
                    identifier TEXT PRIMARY KEY NOT NULL,
                    applied_at TEXT NOT NULL,
                    checksum TEXT)
                """)
    }

    // MARK: Inspecting

    /// The identifiers recorded as applied in `db`, in the order they were applied. They may
    /// include migrations this migrator does not register (applied by a newer version of the app).
    public func appliedMigrations(in db: Database) throws -> [String] {
        let tableExists = try db.fetchValue(
            Bool.self, "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = \(tableName)")
        guard tableExists else { return [] }
        return try db.fetchAll(String.self, "SELECT identifier FROM \(identifier: tableName) ORDER BY rowid")
    }

    /// The registered migrations that are applied in `db`, in registration order.
    public func completedMigrations(in db: Database) throws -> [String] {
        let applied = Set(try appliedMigrations(in: db))
        return registeredMigrations.filter(applied.contains)
    }

    /// Whether every registered migration is applied in `db`.
    public func hasCompletedMigrations(in db: Database) throws -> Bool {
        let applied = Set(try appliedMigrations(in: db))
        return migrations.allSatisfy { applied.contains($0.identifier) }
    }

    /// A 64-bit FNV-1a hash of `text`, in hexadecimal: enough to notice edits, not a security
    /// measure.
    static func checksum(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
