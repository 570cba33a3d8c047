import Foundation
import SlateCore

// Migrating through a ``DatabaseQueue`` or ``DatabasePool``: the migrations run on the writer,
// outside the writer's own transaction handling (each migration has its own transaction).

extension Migrator {
    /// Applies every registered migration the database lacks, on the writer, and waits.
    public func migrate(_ writer: some DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in try migrate(db) }
    }

    /// Applies the registered migrations the database lacks, up to and including `target`, on the
    /// writer, and waits.
    public func migrate(_ writer: some DatabaseWriter, upTo target: String) throws {
        try writer.writeWithoutTransaction { db in try migrate(db, upTo: target) }
    }

    /// Applies every registered migration the database lacks, on the writer. Cancelling the task
    /// interrupts the running migration, which is rolled back; earlier ones stay applied.
    public func migrate(_ writer: some DatabaseWriter) async throws {
        try await writer.writeWithoutTransaction { db in try migrate(db) }
    }

    /// Applies the registered migrations the database lacks, up to and including `target`, on the
    /// writer. Cancelling the task interrupts the running migration, which is rolled back.
    public func migrate(_ writer: some DatabaseWriter, upTo target: String) async throws {
        try await writer.writeWithoutTransaction { db in try migrate(db, upTo: target) }
    }

    /// The identifiers recorded as applied, in the order they were applied.
    public func appliedMigrations(in reader: some DatabaseReader) throws -> [String] {
        try reader.read { db in try appliedMigrations(in: db) }
    }

    /// The registered migrations that are applied, in registration order.
    public func completedMigrations(in reader: some DatabaseReader) throws -> [String] {
        try reader.read { db in try completedMigrations(in: db) }
    }

    /// Whether every registered migration is applied.
    public func hasCompletedMigrations(in reader: some DatabaseReader) throws -> Bool {
        try reader.read { db in try hasCompletedMigrations(in: db) }
    }
}
