import Foundation
import Logging
import NIOCore
import PostgresNIO

// Connections that close under a statement. postgres-nio 1.33.2 never completes a query written to
// a connection whose channel has finished closing (the write reaches a pipeline without its handler
// and the query's promise is dropped; vapor/postgres-nio#487 fixed it and #501 reverted the fix), and
// its pool can hand out a connection whose close is under way: given back to the pool after its
// channel went inactive but before its close future completed (which is when the pool forgets it),
// it is idle again, and the next statement written to it waits forever (docs/RELIABILITY.md, "a
// statement hung forever on a connection the server had closed"). Slate's statements therefore
// wait for the first of their result and their connection's closing, and a connection that is
// closed or closing goes back to the pool only once the pool has forgotten it.

extension PostgresConnection {
    /// Sends `query` on this connection, like `query(_:logger:)`, but fails with a connection
    /// error (``PostgreSQLError`` without SQLSTATE, ``SlateCore/ResultCode/ioError``, driver code
    /// `serverClosedConnection`) once the connection is closed, instead of waiting forever.
    ///
    /// - Parameters:
    ///   - outcomeUnknown: Whether the statement could have taken effect although its result
    ///     never arrived (a `COMMIT`, or a statement outside a transaction); otherwise the error
    ///     says that the server rolls the open transaction back.
    ///   - watch: This connection's watch (``ClosingConnectionWatch/of(_:)``), taken once per
    ///     lease or transaction; `nil` looks it up.
    func queryFailingOnClose(
        _ query: PostgresQuery, logger: Logger, outcomeUnknown: Bool, watch: ClosingConnectionWatch? = nil
    ) async throws -> PostgresRowSequence {
        let watch = watch ?? ClosingConnectionWatch.of(self)
        if isClosed {
            throw PostgreSQLError.connectionClosed(sql: query.sql, sent: false, outcomeUnknown: outcomeUnknown)
        }
        // The query runs in a task of its own, so that its caller, waiting on the continuation,
        // can be resumed by the close when the query never completes. The error is built only
        // then: a statement records its SQL and whether its outcome is unknown.
        return try await withCheckedThrowingContinuation { continuation in
            let id = watch.register(continuation, sql: query.sql, outcomeUnknown: outcomeUnknown)
            Task {
                let result: Result<PostgresRowSequence, any Error>
                do {
                    result = .success(try await self.query(query, logger: logger))
                } catch {
                    result = .failure(error)
                }
                watch.finish(id, with: result)
            }
        }
    }

    /// Returns once the connection's close has completed, and postgres-nio's pool has forgotten
    /// it, if it is closed or closing; at once otherwise. Waits at most `limit`.
    func waitUntilClosedIfClosing(atMost limit: TimeAmount = .seconds(2)) async {
        guard isClosed else { return }
        await waitUntilClosed(atMost: limit)
    }

    /// Closes the connection and returns once it is closed (at most `limit` later).
    func closeAndWait(atMost limit: TimeAmount = .seconds(2)) async {
        close().whenComplete { _ in }
        await waitUntilClosed(atMost: limit)
    }

    private func waitUntilClosed(atMost limit: TimeAmount) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = OnceContinuation(continuation)
            // The pool registered its own callback when the connection was made, so it has run
            // when this one does.
            closeFuture.whenComplete { _ in done.resume(with: .success(())) }
            eventLoop.scheduleTask(in: limit) { done.resume(with: .success(())) }
        }
    }
}

extension PostgreSQLError {
    /// The error of a statement whose connection closed before its result arrived (`sent`), or
    /// before it was sent.
    static func connectionClosed(sql: String, sent: Bool, outcomeUnknown: Bool) -> PostgreSQLError {
        let what: String
        if !sent {
            what = "the connection was closed (by the server, or the network failed) before the statement was sent"
        } else if outcomeUnknown {
            what =
                "the connection was closed (by the server, or the network failed) before the statement's result"
                + " arrived: whether it took effect is unknown"
        } else {
            what =
                "the connection was closed (by the server, or the network failed) before the statement completed;"
                + " the server rolls the open transaction back"
        }
        return PostgreSQLError(
            sqlState: nil, message: "serverClosedConnection: " + what, sql: sql, driverCode: "serverClosedConnection")
    }
}

/// The statements waiting on one connection: fails them 100 ms after the connection closes, unless
/// their own result (a server error with its SQLSTATE, which postgres-nio reports as it closes)
/// came first. One watch, and one callback on the close future, per connection; a transaction
/// (or a lease of the pool) looks its connection's watch up once, not per statement.
///
/// A statement's record is a plain value in the watch's list (its continuation, SQL and flag),
/// added and removed under the watch's lock: whoever removes it — the statement's result or the
/// close — resumes its continuation, so it is resumed once without a lock of its own, and the
/// error exists only for a connection that closed. (A lock, a once-continuation and a ready-made
/// error per statement, and two look-ups of a dictionary of connections, cost ~13,000
/// instructions per record in `insert-5000`; see Benchmarks/README.md.)
final class ClosingConnectionWatch: @unchecked Sendable {
    // @unchecked Sendable: `waiting`, `nextID` and `isClosed` are read and written under the lock.

    /// A statement waiting for its result.
    private struct Waiting {
        let id: UInt64
        let continuation: CheckedContinuation<PostgresRowSequence, any Error>
        let sql: String
        let outcomeUnknown: Bool
    }

    let connection: PostgresConnection
    private let lock = NSLock()
    /// The statements waiting, in the order they were sent (usually one).
    private var waiting: [Waiting] = []
    private var nextID: UInt64 = 0
    /// Whether the connection's close has completed.
    private var isClosed = false

    private init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// The watches of the connections not closed yet, by connection.
    private final class Registry: @unchecked Sendable {
        // @unchecked Sendable: `watches` is read and written under the lock.
        let lock = NSLock()
        var watches: [ObjectIdentifier: ClosingConnectionWatch] = [:]
    }
    private static let registry = Registry()

    /// The watch of `connection`.
    static func of(_ connection: PostgresConnection) -> ClosingConnectionWatch {
        let key = ObjectIdentifier(connection)
        let (watch, isNew) = registry.lock.withLock {
            if let watch = registry.watches[key] { return (watch, false) }
            let watch = ClosingConnectionWatch(connection)
            registry.watches[key] = watch
            return (watch, true)
        }
        // Outside the lock: on a connection already closed, the callback runs at once. A connection
        // whose watch its close removed gets a new watch and a new callback, which runs at once.
        if isNew {
            connection.closeFuture.whenComplete { _ in
                registry.lock.withLock { _ = registry.watches.removeValue(forKey: key) }
                watch.connectionClosed()
            }
        }
        return watch
    }

    /// Watches a statement sent on the connection: its continuation is resumed with a connection
    /// error if the connection closes before ``finish(_:with:)``. Returns the statement's id.
    func register(
        _ continuation: CheckedContinuation<PostgresRowSequence, any Error>, sql: String, outcomeUnknown: Bool
    ) -> UInt64 {
        let (id, closed) = lock.withLock {
            nextID &+= 1
            waiting.append(Waiting(id: nextID, continuation: continuation, sql: sql, outcomeUnknown: outcomeUnknown))
            return (nextID, isClosed)
        }
        if closed { failWaitingSoon() }
        return id
    }

    /// Resumes the statement `id` with its `result`, unless the close resumed it first.
    func finish(_ id: UInt64, with result: Result<PostgresRowSequence, any Error>) {
        let continuation = lock.withLock { () -> CheckedContinuation<PostgresRowSequence, any Error>? in
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: index).continuation
        }
        continuation?.resume(with: result)
    }

    private func connectionClosed() {
        lock.withLock { isClosed = true }
        failWaitingSoon()
    }

    /// Fails, 100 ms from now, the statements still waiting then.
    private func failWaitingSoon() {
        connection.eventLoop.scheduleTask(in: .milliseconds(100)) {
            let failed = self.lock.withLock {
                defer { self.waiting = [] }
                return self.waiting
            }
            for statement in failed {
                statement.continuation.resume(
                    throwing: PostgreSQLError.connectionClosed(
                        sql: statement.sql, sent: true, outcomeUnknown: statement.outcomeUnknown))
            }
        }
    }
}

/// A continuation resumed by the first of several events, once.
final class OnceContinuation<Value: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked Sendable: the continuation is read and cleared under the lock.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Failure>?

    init(_ continuation: CheckedContinuation<Value, Failure>) {
        self.continuation = continuation
    }

    func resume(with result: Result<Value, Failure>) {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(with: result)
    }
}
