import SlateCore

/// A thread-safe way to read a database: ``DatabaseQueue`` and ``DatabasePool`` conform.
///
/// The closures you pass receive a ``Database`` that is valid only while they run: do not store it
/// or let it escape (it is not `Sendable`, and results must be). Results are `Sendable` values.
public protocol DatabaseReader: AnyObject, Sendable {
    /// Runs `body` with read-only access to one consistent snapshot of the database, waits for it
    /// and returns its result.
    func read<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value

    /// Runs `body` with read-only access to one consistent snapshot of the database, without
    /// blocking a thread while waiting. Cancelling the task interrupts the running statement.
    func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value
}

/// A thread-safe way to read and write a database: ``DatabaseQueue`` and ``DatabasePool`` conform.
///
/// Writes are serialized: one runs at a time. ``Migrator`` migrates any writer.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws,
    /// waits for it and returns its result.
    func write<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws,
    /// without blocking a thread while waiting. Cancelling the task interrupts the running
    /// statement and rolls the transaction back.
    func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value

    /// Runs `body` with write access outside any transaction, waits for it and returns its result.
    ///
    /// Use it for work that cannot run in a transaction, such as `VACUUM` or changing
    /// `PRAGMA foreign_keys`, or to manage transactions yourself.
    func writeWithoutTransaction<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value

    /// Runs `body` with write access outside any transaction, without blocking a thread while
    /// waiting. Cancelling the task interrupts the running statement.
    func writeWithoutTransaction<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value
}
