import Foundation
import SlateCore

// The completion-handler calling style. Each call returns at once; the queue runs the closure in
// turn and then calls `completion` with its `Result` on `completionQueue`, a global concurrent
// queue unless you pass another (`.main` for user-interface work).

extension DatabaseQueue {
    /// Runs `body` with the connection, outside any transaction, and delivers its result.
    public func inDatabase<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        perform(.plain, body, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `body` with read-only access to one consistent snapshot and delivers its result.
    public func read<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        perform(.queryOnlyRead, body, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `body` in an immediate transaction that commits when it returns and rolls back when it
    /// throws, and delivers its result.
    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        perform(.transaction(.immediate), body, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `body` in a transaction of the given kind that commits when it returns and rolls back
    /// when it throws, and delivers its result.
    public func transaction<Value: Sendable>(
        _ kind: Database.TransactionKind = .deferred,
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        perform(.transaction(kind), body, completionQueue: completionQueue, completion: completion)
    }

    /// Runs `body` inside a savepoint that is released when it returns and rolled back when it
    /// throws, and delivers its result.
    public func savepoint<Value: Sendable>(
        _ name: String = DatabaseQueue.defaultSavepointName,
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        perform(.savepoint(name), body, completionQueue: completionQueue, completion: completion)
    }
}
