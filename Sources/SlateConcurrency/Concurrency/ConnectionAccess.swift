import Foundation
import SlateCore

/// How a queued piece of work uses its connection: which transaction wraps the closure.
enum ConnectionAccess: Sendable {
    /// No transaction: the closure manages its own (`writeWithoutTransaction`, barrier writes,
    /// ``DatabaseService``).
    case plain
    /// A transaction of the given kind, committed when the closure returns.
    case transaction(Database.TransactionKind)
    /// A savepoint of the given name (generated when `nil`), released when the closure returns.
    case savepoint(String?)
    /// A read on a writable connection: `PRAGMA query_only` for the closure's duration, inside a
    /// deferred transaction started with a read so the closure sees one snapshot.
    case queryOnlyRead
    /// A read on a read-only connection: a deferred transaction started with a read, so the
    /// closure sees one committed snapshot even while another connection writes.
    case snapshotRead

    /// The transaction engine's scope for this access.
    var scope: Database.TransactionScope {
        switch self {
        case .plain: .none
        case .transaction(let kind): .transaction(kind)
        case .savepoint(let name): .savepoint(name)
        case .queryOnlyRead: .snapshot(queryOnly: true)
        case .snapshotRead: .snapshot(queryOnly: false)
        }
    }
}

extension Database {
    /// Runs `body` with the access `access` asks for, through the connection's transaction engine
    /// (``Database/transaction(_:_:)`` and its kin): begins the transaction or savepoint, commits it
    /// when `body` returns and rolls it back when `body` throws.
    ///
    /// With a `cancellation` state, the work is skipped when it was cancelled before it started,
    /// the connection is interrupted when it is cancelled while `body` runs, and a cancellation
    /// noticed by the time `body` returns rolls the transaction back and throws
    /// ``DatabaseError/isCancellation`` errors. Commit and rollback run after the cancellable phase,
    /// so an interrupt never leaves a transaction half closed.
    func perform<Value>(
        _ access: ConnectionAccess,
        cancellation: DatabaseWorkCancellation?,
        _ body: (Database) throws -> Value
    ) throws -> Value {
        if let cancellation, !cancellation.start(interrupting: interruptHandle) {
            throw DatabaseError.cancellation()
        }
        // Live queries learn about commits the work made outside the transaction engine (an
        // autocommitted statement, the C API) when it ends.
        defer { flushObservations() }
        // The cancellable phase ends when the body does (or when beginning failed), exactly once.
        var finished = false
        var cancelled = false
        func finish() {
            guard !finished else { return }
            finished = true
            cancelled = cancellation?.finish() ?? false
        }
        do {
            return try run(
                in: access.scope,
                {
                    defer { finish() }
                    return try body(self)
                },
                beforeCommit: {
                    if cancelled { throw DatabaseError.cancellation() }
                })
        } catch {
            finish()
            guard cancelled else { throw annotated(error) }
            // Work without a transaction of its own may have begun one: it ends with the work.
            do {
                try rollbackIfNeeded()
            } catch let rollbackError {
                throw Database.error(
                    DatabaseError.cancellation(interrupting: error), notingCleanupFailures: [rollbackError])
            }
            if let databaseError = error as? DatabaseError, databaseError.isCancellation { throw databaseError }
            throw DatabaseError.cancellation(interrupting: error)
        }
    }

    /// Adds the busy timeout to busy errors, which only another connection or process can cause.
    func annotated(_ error: any Error) -> any Error {
        guard var databaseError = error as? DatabaseError, databaseError.resultCode == .busy else { return error }
        let timeout = configuration.busyTimeout ?? 0
        databaseError.message +=
            "; another connection or process kept the database locked for longer than"
            + " the busy timeout (\(timeout) s, Database.Configuration.busyTimeout)"
        return databaseError
    }
}

/// Delivers `result` to `completion` on `queue`.
func deliver<Value: Sendable>(
    _ result: Result<Value, any Error>,
    on queue: DispatchQueue,
    to completion: @escaping @Sendable (Result<Value, any Error>) -> Void
) {
    queue.async { completion(result) }
}
