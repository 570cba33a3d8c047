import PostgresNIO
import SlateConcurrency
import SlateCore

/// Schema migrations on PostgreSQL: the same model as ``Migrator`` on SQLite — named migrations,
/// registered in order, each applied once, in its own transaction, and recorded in a table of the
/// database (`slate_migrations` by default).
///
/// PostgreSQL's DDL is transactional, so a migration that throws leaves nothing behind: neither its
/// changes nor its record. Several app servers may start at once: each migration's transaction
/// first takes a transaction-level advisory lock and reads the applied migrations again, so no
/// migration is ever applied twice.
///
/// ```swift
/// var migrator = PostgreSQLMigrator()
/// migrator.registerMigration("create players") { tx in
///     try await tx.createTable(for: Player.self)
/// }
/// migrator.registerMigration("index scores") { tx in
///     try await tx.execute("CREATE INDEX player_score ON player (score)")
/// }
/// try await migrator.migrate(pg)
/// ```
public struct PostgreSQLMigrator: Sendable {
    /// The work of one migration, run inside its transaction.
    public typealias Body = @Sendable (PostgreSQLTransaction) async throws -> Void

    struct Migration: Sendable {
        let identifier: String
        let body: Body
    }

    /// The table that records applied migrations.
    public var tableName = Migrator.defaultTableName

    private var migrations: [Migration] = []

    /// A migrator with no migrations.
    public init() {}

    /// The identifiers of the registered migrations, in the order they run.
    public var registeredMigrations: [String] { migrations.map(\.identifier) }

    /// Registers a migration that runs `migrate` inside a transaction.
    ///
    /// - Parameter identifier: The migration's unique name, recorded once it is applied.
    ///   Registering a name twice makes ``migrate(_:)`` throw ``ResultCode/misuse``.
    public mutating func registerMigration(_ identifier: String, migrate: @escaping Body) {
        migrations.append(Migration(identifier: identifier, body: migrate))
    }

    /// Applies every registered migration the database lacks, in order, each in its own
    /// transaction.
    ///
    /// - Throws: What a failing migration throws (its changes and its record are rolled back; the
    ///   migrations before it stay applied), or ``ResultCode/misuse`` when an identifier is
    ///   registered twice.
    public func migrate(_ pg: PostgreSQLDatabase) async throws {
        var seen: Set<String> = []
        for migration in migrations where !seen.insert(migration.identifier).inserted {
            throw DatabaseError(
                resultCode: .misuse, message: "migration \"\(migration.identifier)\" is registered more than once")
        }
        try await pg.transaction { tx in
            try await lock(tx)
            try await tx.execute(
                """
                CREATE TABLE IF NOT EXISTS \(identifier: tableName) (
                    identifier TEXT PRIMARY KEY NOT NULL,
                    applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
        }
        for migration in migrations {
            try await pg.transaction { tx in
                try await lock(tx)
                let isApplied = try await tx.fetchOne(
                    Int64.self,
                    "SELECT count(*) FROM \(identifier: tableName) WHERE identifier = \(migration.identifier)")
                guard isApplied == 0 else { return }
                try await migration.body(tx)
                try await tx.execute(
                    "INSERT INTO \(identifier: tableName) (identifier) VALUES (\(migration.identifier))")
            }
        }
    }

    /// The identifiers recorded as applied, in the order they were applied (empty before the
    /// first migration). They may include migrations this migrator does not register.
    public func appliedMigrations(in pg: some PostgreSQLQueryable) async throws -> [String] {
        let exists = try await pg.fetchOne(Bool.self, "SELECT to_regclass(\(tableName.quotedIdentifier)) IS NOT NULL")
        guard exists == true else { return [] }
        return try await pg.fetchAll(
            String.self, "SELECT identifier FROM \(identifier: tableName) ORDER BY applied_at, identifier")
    }

    /// Serializes migrators on one database until the transaction ends: a transaction-level
    /// advisory lock whose key is derived from the migrations table's name.
    private func lock(_ tx: PostgreSQLTransaction) async throws {
        _ = try await tx.fetchOne(
            Int64.self, "SELECT 1::bigint FROM (SELECT pg_advisory_xact_lock(\(lockKey))) AS \"lock\"")
    }

    /// FNV-1a of the table name: a stable 64-bit key (hashing wraps by design).
    private var lockKey: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tableName.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
