import Foundation
import SlateCore

extension DatabaseError {
    /// The message prefix of errors thrown because the task awaiting database work was cancelled.
    static let cancellationMessage = "cancelled: the task awaiting this database work was cancelled"

    /// The error thrown when the task awaiting database work is cancelled: ``ResultCode/interrupt``,
    /// with a message that says so and, when a statement was interrupted, its SQL.
    static func cancellation(interrupting error: (any Error)? = nil) -> DatabaseError {
        guard let databaseError = error as? DatabaseError else {
            return DatabaseError(
                resultCode: .interrupt,
                message: cancellationMessage + " before the work started or finished")
        }
        return DatabaseError(
            resultCode: .interrupt,
            message: cancellationMessage + ", so SQLite interrupted it (\(databaseError.message))",
            sql: databaseError.sql,
            arguments: databaseError.arguments)
    }

    /// Whether the error reports that the task awaiting the work was cancelled.
    ///
    /// The `async` APIs of ``DatabaseQueue``, ``DatabasePool`` and ``DatabaseService`` interrupt
    /// the running statement when their task is cancelled and throw a ``ResultCode/interrupt``
    /// error whose message starts with "cancelled". An interrupt you requested yourself through
    /// ``Database/interruptHandle`` is not a cancellation.
    public var isCancellation: Bool {
        resultCode == .interrupt && message.hasPrefix(Self.cancellationMessage)
    }
}

/// The cancellation of one piece of `async` database work, handed by the `async` calls of
/// ``DatabaseReader`` to ``DatabaseReader/schedule(_:cancellation:_:completion:)``. You never make
/// one; a custom reader passes it on to the queue or pool it wraps.
///
/// The work goes through three phases: pending (queued, not started), running (a connection is
/// executing it) and finished. Cancelling a pending piece resumes its caller at once (the work is
/// skipped when its turn comes); cancelling a running piece interrupts the connection.
///
/// `sqlite3_interrupt` only affects statements that are running: a statement that starts while
/// the connection is idle clears the interrupt. So after a cancellation the connection is
/// interrupted again every few milliseconds until the work leaves its running phase, and the work
/// checks for cancellation once more when it ends (see `Database.perform`).
public final class DatabaseWorkCancellation: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while `lock` is held.
    private let lock = NSLock()
    private var cancelled = false
    private var phase = Phase.pending
    private var abandonHandler: (@Sendable () -> Void)?

    private enum Phase {
        case pending
        case running(InterruptHandle?)
        case finished
    }

    /// How often a cancelled, still-running piece of work is interrupted again.
    private static let reinterruptInterval = DispatchTimeInterval.milliseconds(10)

    /// Whether the task was cancelled.
    var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Registers what to do when the work is cancelled before it starts: resume the caller.
    /// Runs `handler` at once when that already happened.
    func setAbandonHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        if cancelled, case .pending = phase {
            lock.unlock()
            handler()
            return
        }
        abandonHandler = handler
        lock.unlock()
    }

    /// Records the cancellation: abandons pending work or interrupts running work.
    func cancel() {
        lock.lock()
        guard !cancelled else {
            lock.unlock()
            return
        }
        cancelled = true
        switch phase {
        case .pending:
            let handler = abandonHandler
            abandonHandler = nil
            lock.unlock()
            handler?()
        case .running(let handle):
            handle?.interrupt()
            lock.unlock()
            scheduleReinterrupt()
        case .finished:
            lock.unlock()
        }
    }

    /// Enters the running phase on the connection's queue. Returns `false` when the work was
    /// cancelled already and must not start.
    func start(interrupting handle: InterruptHandle?) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        abandonHandler = nil
        guard !cancelled else {
            phase = .finished
            return false
        }
        phase = .running(handle)
        return true
    }

    /// Leaves the running phase: no interrupt is sent after this returns. Returns whether the
    /// work was cancelled.
    func finish() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        phase = .finished
        return cancelled
    }

    private func scheduleReinterrupt() {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.reinterruptInterval) { [self] in
            lock.lock()
            guard case .running(let handle) = phase else {
                lock.unlock()
                return
            }
            handle?.interrupt()
            lock.unlock()
            scheduleReinterrupt()
        }
    }
}

/// Resumes a continuation once; later attempts are ignored. The work and an early cancellation
/// may both try to resume it.
private final class OneShotContinuation<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `continuation` is only touched while `lock` is held.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = continuation
    }

    func resume(with result: Result<Value, any Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }
}

/// Bridges callback-style database work to `async`/`await` with task cancellation.
///
/// `submit` enqueues the work and must call its completion exactly once. It receives the
/// ``DatabaseWorkCancellation`` to pass to `Database.perform`. When the task is cancelled before the work
/// starts, this function throws at once and the work is skipped; when it is cancelled while the
/// work runs, the connection is interrupted and the work's cancellation error is thrown.
func withCancellableDatabaseWork<Value: Sendable>(
    _ submit: (DatabaseWorkCancellation, @escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
) async throws -> Value {
    try Task.checkCancellation(orThrow: DatabaseError.cancellation())
    let state = DatabaseWorkCancellation()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
            let resumer = OneShotContinuation(continuation)
            state.setAbandonHandler { resumer.resume(with: .failure(DatabaseError.cancellation())) }
            submit(state) { resumer.resume(with: $0) }
        }
    } onCancel: {
        state.cancel()
    }
}

extension Task where Success == Never, Failure == Never {
    /// Throws `error` when the current task is cancelled.
    fileprivate static func checkCancellation(orThrow error: @autoclosure () -> DatabaseError) throws {
        if isCancelled { throw error() }
    }
}
