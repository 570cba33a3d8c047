import Foundation
import SlateCore

/// Admits work to a queue or pool until it shuts down, and counts the work in flight (accepted and
/// not finished, queued or running), so that a shutdown can stop new work, wait for the work it
/// accepted, and interrupt what still runs when its grace period ends.
///
/// Each piece of work ``enter()``s when it is submitted, runs through ``runAdmitted(_:_:)`` on its
/// connection, and ``leave()``s once it ended, whatever happened to it.
package final class WorkGate: @unchecked Sendable {
    // @unchecked Sendable: every mutable stored property is read and written only while `lock` is
    // held; `owner` is immutable.
    private let lock = NSLock()
    private var state = State.open
    private var inFlight = 0
    /// The connections running admitted work now, to interrupt them when the grace period ends.
    private var running: [ObjectIdentifier: (handle: InterruptHandle, count: Int)] = [:]
    private let owner: String

    private enum State {
        /// Work is accepted.
        case open
        /// A shutdown started: no new work; accepted work runs.
        case draining
        /// The grace period ended: accepted work that has not started fails, running work is
        /// interrupted.
        case pastDeadline
        /// Shut down: the connections are closed.
        case closed
    }

    /// A gate for `owner` (`DatabasePool`, `DatabaseQueue` …), named in its errors.
    package init(owner: String) {
        self.owner = owner
    }

    /// Admits a piece of work, or throws an ``DatabaseError/isShutdown`` error once a shutdown
    /// started.
    package func enter() throws {
        lock.lock()
        defer { lock.unlock() }
        guard case .open = state else { throw DatabaseError.shutdown(owner, closed: state == .closed) }
        inFlight += 1
    }

    /// Counts out a piece of work that ``enter()`` admitted, whether it ran, failed or was skipped.
    package func leave() {
        lock.lock()
        inFlight -= 1
        lock.unlock()
    }

    /// `completion`, counting the work out before it delivers the result.
    package func leaving<Value>(
        _ completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> @Sendable (Result<Value, any Error>) -> Void {
        { [self] result in
            leave()
            completion(result)
        }
    }

    /// Runs admitted work on its connection: fails it when the grace period of a shutdown ended
    /// before it could start, and lets the shutdown interrupt it while it runs.
    package func runAdmitted<Value>(_ db: Database, _ body: () throws -> Value) throws -> Value {
        let id = ObjectIdentifier(db)
        lock.lock()
        if state == .pastDeadline || state == .closed {
            lock.unlock()
            throw DatabaseError.shutdown(owner, closed: false, afterGracePeriod: true)
        }
        running[id, default: (db.interruptHandle, 0)].count += 1
        lock.unlock()
        defer {
            lock.lock()
            if let entry = running[id] {
                running[id] = entry.count > 1 ? (entry.handle, entry.count - 1) : nil
            }
            lock.unlock()
        }
        return try body()
    }

    /// The work accepted and not finished.
    package var inFlightCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return inFlight
    }

    /// Stops accepting work. Returns `false` when a shutdown had already started.
    package func beginShutdown() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard case .open = state else { return false }
        state = .draining
        return true
    }

    /// Waits until no accepted work is left, or `deadline` passes; returns whether none is left.
    /// Checks every 5 ms, even in a cancelled task (a shutdown that was cancelled still ends the
    /// work it abandons before it closes the connections).
    package func waitUntilIdle(before deadline: ContinuousClock.Instant) async -> Bool {
        while inFlightCount > 0 {
            guard ContinuousClock.now < deadline else { return false }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { continuation.resume() }
            }
        }
        return true
    }

    /// Ends the grace period: accepted work that has not started will fail, and the work running
    /// now is interrupted (its transaction rolls back). Returns how much work was left.
    package func endGracePeriod() -> Int {
        lock.lock()
        if state == .draining { state = .pastDeadline }
        let left = inFlight
        lock.unlock()
        interruptRunning()
        return left
    }

    /// Interrupts the connections running admitted work.
    package func interruptRunning() {
        lock.lock()
        let handles = running.values.map(\.handle)
        lock.unlock()
        for handle in handles { handle.interrupt() }
    }

    /// Marks the shutdown finished.
    package func close() {
        lock.lock()
        state = .closed
        lock.unlock()
    }

    /// Whether the shutdown finished.
    package var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return state == .closed
    }
}

extension DatabaseError {
    /// The message prefix of errors thrown because a queue, pool or database shuts down.
    static let shutdownMessage = "shut down: "

    /// The error of work refused, or failed before it started, because its queue or pool shuts down.
    static func shutdown(_ owner: String, closed: Bool, afterGracePeriod: Bool = false) -> DatabaseError {
        let reason =
            closed
            ? "the \(owner) is shut down and its connections are closed"
            : afterGracePeriod
                ? "the \(owner) is shutting down and its grace period ended before this work could start"
                : "the \(owner) is shutting down and accepts no new work"
        return DatabaseError(resultCode: .misuse, message: shutdownMessage + reason)
    }

    /// Whether the error reports work refused because its ``DatabaseQueue``, ``DatabasePool`` or
    /// PostgreSQL database shuts down (see ``DatabasePool/shutDown(gracePeriod:)``): a server
    /// answers such a request with 503 Service Unavailable.
    public var isShutdown: Bool {
        resultCode == .misuse && message.hasPrefix(Self.shutdownMessage)
    }
}
