import Foundation
import SlateCore

// The `async` calling style. Each call suspends without blocking a thread. When the task is
// cancelled, work that has not started is skipped and work that is running is interrupted; the
// call then throws a ``DatabaseError`` with ``ResultCode/interrupt`` whose message says it was
// cancelled (``DatabaseError/isCancellation``), and write transactions are rolled back.

extension DatabasePool {
    /// Runs `body` on a reader with one committed snapshot of the database, and returns its result.
    public func read<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await withCancellableDatabaseWork { state, complete in
            scheduleRead(cancellation: state, body, completion: complete)
        }
    }

    /// Runs `body` on the writer in an immediate transaction that commits when it returns and rolls
    /// back when it throws or its task is cancelled, and returns its result.
    public func write<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await withCancellableDatabaseWork { state, complete in
            scheduleWrite(.transaction(.immediate), barrier: false, cancellation: state, body, completion: complete)
        }
    }

    /// Runs `body` on the writer outside any transaction and returns its result.
    public func writeWithoutTransaction<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await withCancellableDatabaseWork { state, complete in
            scheduleWrite(.plain, barrier: false, cancellation: state, body, completion: complete)
        }
    }

    /// Runs `body` on the writer, outside any transaction, while no read runs, and returns its
    /// result. See `barrierWrite(_:)`.
    public func barrierWrite<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await withCancellableDatabaseWork { state, complete in
            scheduleWrite(.plain, barrier: true, cancellation: state, body, completion: complete)
        }
    }
}
