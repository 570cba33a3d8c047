import Foundation
import SlateCore

/// What a piece of work asks of the connection it runs on.
public enum DatabaseAccess: Sendable, Hashable {
    /// Read-only access to one committed snapshot: the work sees no write that commits after it
    /// starts, and its own writes fail with ``ResultCode/readOnly``.
    case read
    /// An immediate transaction, committed when the work returns and rolled back when it throws.
    case write
    /// A transaction of the given kind.
    case transaction(Database.TransactionKind)
    /// A savepoint (a generated name when `nil`), released when the work returns and rolled back
    /// when it throws. Outside a transaction it acts as a deferred transaction.
    case savepoint(String?)
    /// Write access outside any transaction, for work that cannot run in one (`VACUUM`,
    /// `PRAGMA foreign_keys`) or that manages its own transactions.
    case writeWithoutTransaction
    /// Like ``writeWithoutTransaction``, while no read runs: a ``DatabasePool`` waits for the reads
    /// in progress and holds new ones back until the work returns.
    case barrierWrite
}

/// A thread-safe way to read a database: ``DatabaseQueue`` and ``DatabasePool`` conform.
///
/// Every access comes in three calling styles, written once here for every conforming type:
///
/// - a blocking call, which waits for the work and returns its result (`try queue.read { db in … }`);
/// - an `async throws` call, which suspends without blocking a thread; cancelling its task skips
///   work that has not started and interrupts the running statement (the call then throws a
///   ``DatabaseError`` whose ``DatabaseError/isCancellation`` is `true`, and transactions roll back);
/// - a completion-handler call, which returns at once and delivers a `Result` on the dispatch
///   queue you choose (a global queue by default, so it works in command-line tools and servers;
///   pass `.main` to update user interfaces).
///
/// The ``Database`` a closure receives is valid only while the closure runs: do not store it or
/// let it escape. Results must be `Sendable`, so rows and statements cannot leak out. The blocking
/// calls are not reentrant: calling one from inside a closure of the same queue or pool throws
/// ``ResultCode/misuse`` instead of deadlocking.
public protocol DatabaseReader: AnyObject, Sendable {
    /// Runs `work` with the access it asks for, waits for it, and returns its result: the primitive
    /// of the blocking calls. Call `read`, `write` and their kin instead.
    func run<Value: Sendable>(_ access: DatabaseAccess, _ work: (Database) throws -> Value) throws -> Value

    /// Runs `work` with the access it asks for, in its turn, and calls `completion` with its result
    /// on the thread that ran it: the primitive of the `async` and completion-handler calls. Call
    /// those instead.
    ///
    /// - Parameter cancellation: The cancellation of the `async` call waiting for the work, or
    ///   `nil`: work it cancelled before it started is skipped, and running work is interrupted.
    func schedule<Value: Sendable>(
        _ access: DatabaseAccess,
        cancellation: DatabaseWorkCancellation?,
        _ work: @escaping @Sendable (Database) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    )
}

/// A thread-safe way to read and write a database: ``DatabaseQueue`` and ``DatabasePool`` conform.
///
/// Writes are serialized: one runs at a time. ``Migrator`` migrates any writer.
public protocol DatabaseWriter: DatabaseReader {}

// MARK: - The calling styles, once

extension DatabaseReader {
    /// The `async` calling style over ``schedule(_:cancellation:_:completion:)``.
    func awaitWork<Value: Sendable>(
        _ access: DatabaseAccess, _ work: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await withCancellableDatabaseWork { cancellation, complete in
            schedule(access, cancellation: cancellation, work, completion: complete)
        }
    }

    /// The completion-handler calling style over ``schedule(_:cancellation:_:completion:)``.
    func deliverWork<Value: Sendable>(
        _ access: DatabaseAccess,
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        schedule(access, cancellation: nil, work) { result in completionQueue.async { completion(result) } }
    }

    /// Runs `work` with read-only access to one committed snapshot, and returns its result.
    public func read<Value: Sendable>(_ work: (Database) throws -> Value) throws -> Value {
        try run(.read, work)
    }

    /// Runs `work` with read-only access to one committed snapshot, without blocking a thread.
    public func read<Value: Sendable>(_ work: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await awaitWork(.read, work)
    }

    /// Runs `work` with read-only access to one committed snapshot, and delivers its result.
    public func read<Value: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        deliverWork(.read, work, completionQueue: completionQueue, completion: completion)
    }
}

extension DatabaseWriter {
    /// Runs `work` in an immediate transaction that commits when it returns and rolls back when it
    /// throws, and returns its result.
    public func write<Value: Sendable>(_ work: (Database) throws -> Value) throws -> Value {
        try run(.write, work)
    }

    /// Runs `work` in an immediate transaction, without blocking a thread; the transaction rolls
    /// back when `work` throws or the task is cancelled.
    public func write<Value: Sendable>(_ work: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await awaitWork(.write, work)
    }

    /// Runs `work` in an immediate transaction and delivers its result.
    public func write<Value: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        deliverWork(.write, work, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `work` with write access outside any transaction, and returns its result.
    ///
    /// Use it for work that cannot run in a transaction, such as `VACUUM` or changing
    /// `PRAGMA foreign_keys`, or to manage transactions yourself.
    public func writeWithoutTransaction<Value: Sendable>(_ work: (Database) throws -> Value) throws -> Value {
        try run(.writeWithoutTransaction, work)
    }

    /// Runs `work` with write access outside any transaction, without blocking a thread. Changes
    /// made before a cancellation stay made, since no transaction wraps them.
    public func writeWithoutTransaction<Value: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await awaitWork(.writeWithoutTransaction, work)
    }

    /// Runs `work` with write access outside any transaction, and delivers its result.
    public func writeWithoutTransaction<Value: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        deliverWork(.writeWithoutTransaction, work, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `work` in a transaction of the given kind that commits when it returns and rolls back
    /// when it throws, and returns its result.
    public func transaction<Value: Sendable>(
        _ kind: Database.TransactionKind = .deferred, _ work: (Database) throws -> Value
    ) throws -> Value {
        try run(.transaction(kind), work)
    }

    /// Runs `work` in a transaction of the given kind, without blocking a thread.
    public func transaction<Value: Sendable>(
        _ kind: Database.TransactionKind = .deferred, _ work: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await awaitWork(.transaction(kind), work)
    }

    /// Runs `work` in a transaction of the given kind, and delivers its result.
    public func transaction<Value: Sendable>(
        _ kind: Database.TransactionKind = .deferred,
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        deliverWork(.transaction(kind), work, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `work` inside a savepoint that is released when it returns and rolled back when it
    /// throws, and returns its result.
    public func savepoint<Value: Sendable>(_ name: String? = nil, _ work: (Database) throws -> Value) throws -> Value {
        try run(.savepoint(name), work)
    }

    /// Runs `work` inside a savepoint, without blocking a thread.
    public func savepoint<Value: Sendable>(
        _ name: String? = nil, _ work: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await awaitWork(.savepoint(name), work)
    }

    /// Runs `work` inside a savepoint, and delivers its result.
    public func savepoint<Value: Sendable>(
        _ name: String? = nil,
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        deliverWork(.savepoint(name), work, completionQueue: completionQueue, completion: completion)
    }
}
