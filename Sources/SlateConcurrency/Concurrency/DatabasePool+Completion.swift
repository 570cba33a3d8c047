import Foundation
import SlateCore

// The completion-handler calling style. Each call returns at once; the pool runs the closure in
// turn and then calls `completion` with its `Result` on `completionQueue`, a global concurrent
// queue unless you pass another (`.main` for user-interface work).

extension DatabasePool {
    /// Runs `body` on a reader with one committed snapshot of the database, and delivers its result.
    public func read<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        scheduleRead(cancellation: nil, body) { deliver($0, on: completionQueue, to: completion) }
    }

    /// Runs `body` on the writer in an immediate transaction that commits when it returns and rolls
    /// back when it throws, and delivers its result.
    public func write<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        scheduleWrite(.transaction(.immediate), barrier: false, cancellation: nil, body) {
            deliver($0, on: completionQueue, to: completion)
        }
    }

    /// Runs `body` on the writer outside any transaction and delivers its result.
    public func writeWithoutTransaction<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        scheduleWrite(.plain, barrier: false, cancellation: nil, body) {
            deliver($0, on: completionQueue, to: completion)
        }
    }

    /// Runs `body` on the writer, outside any transaction, while no read runs, and delivers its
    /// result. See `barrierWrite(_:)`.
    public func barrierWrite<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        scheduleWrite(.plain, barrier: true, cancellation: nil, body) {
            deliver($0, on: completionQueue, to: completion)
        }
    }
}
