import Foundation
import SlateCore

// The `async` calling style. Each call suspends without blocking a thread until the queue has run
// the closure. When the task is cancelled, work that has not started is skipped and work that is
// running is interrupted; the call then throws a ``DatabaseError`` with ``ResultCode/interrupt``
// whose message says it was cancelled (``DatabaseError/isCancellation``), and transactions are
// rolled back.

extension DatabaseQueue {
    /// Runs `body` with the connection, outside any transaction, and returns its result.
    ///
    /// Changes `body` made before a cancellation stay made, since no transaction wraps them.
    public func inDatabase<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await performAsync(.plain, body)
    }

    /// Runs `body` with read-only access to one consistent snapshot and returns its result.
    public func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await performAsync(.queryOnlyRead, body)
    }

    /// Runs `body` in an immediate transaction that commits when it returns and rolls back when it
    /// throws or its task is cancelled, and returns its result.
    public func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await performAsync(.transaction(.immediate), body)
    }

    /// The same as `inDatabase(_:)`, for code written against ``DatabaseWriter``.
    public func writeWithoutTransaction<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await performAsync(.plain, body)
    }

    /// Runs `body` in a transaction of the given kind that commits when it returns and rolls back
    /// when it throws or its task is cancelled, and returns its result.
    public func transaction<Value: Sendable>(
        _ kind: Database.TransactionKind = .deferred,
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await performAsync(.transaction(kind), body)
    }

    /// Runs `body` inside a savepoint that is released when it returns and rolled back when it
    /// throws or its task is cancelled, and returns its result.
    public func savepoint<Value: Sendable>(
        _ name: String = DatabaseQueue.defaultSavepointName,
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await performAsync(.savepoint(name), body)
    }
}
