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
    /// - Parameter outcomeUnknown: Whether the statement could have taken effect although its result
    ///   never arrived (a `COMMIT`, or a statement outside a transaction); otherwise the error says
    ///   that the server rolls the open transaction back.
    func queryFailingOnClose(_ query: PostgresQuery, logger: Logger, outcomeUnknown: Bool) async throws
        -> PostgresRowSequence
    {
        if isClosed {
            throw PostgreSQLError.connectionClosed(sql: query.sql, sent: false, outcomeUnknown: outcomeUnknown)
        }
        let closed = PostgreSQLError.connectionClosed(sql: query.sql, sent: true, outcomeUnknown: outcomeUnknown)
        return try await withCheckedThrowingContinuation { continuation in
            let outcome = OnceContinuation(continuation)
            ClosingConnectionWatch.shared.fail(outcome, with: closed, when: self)
            Task {
                let result: Result<PostgresRowSequence, any Error>
                do {
                    result = .success(try await self.query(query, logger: logger))
                } catch {
                    result = .failure(error)
                }
                ClosingConnectionWatch.shared.forget(outcome, on: self)
                outcome.resume(with: result)
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

/// Fails the statements waiting on a connection 100 ms after the connection closes, unless their
/// own result (a server error with its SQLSTATE, which postgres-nio reports as it closes) came
/// first. One callback on each connection's close future, whatever the number of statements.
final class ClosingConnectionWatch: @unchecked Sendable {
    // @unchecked Sendable: `watched` is read and written under the lock.
    static let shared = ClosingConnectionWatch()

    private struct Watched {
        /// Kept so that the connection, whose identity is the key, lives until it closes.
        let connection: PostgresConnection
        var waiting: [ObjectIdentifier: (OnceContinuation<PostgresRowSequence, any Error>, PostgreSQLError)] = [:]
    }

    private let lock = NSLock()
    private var watched: [ObjectIdentifier: Watched] = [:]

    /// Fails `outcome` with `error` if `connection` closes before ``forget(_:on:)``.
    func fail(
        _ outcome: OnceContinuation<PostgresRowSequence, any Error>, with error: PostgreSQLError,
        when connection: PostgresConnection
    ) {
        let key = ObjectIdentifier(connection)
        let isNew = lock.withLock {
            let isNew = watched[key] == nil
            var entry = watched[key] ?? Watched(connection: connection)
            entry.waiting[ObjectIdentifier(outcome)] = (outcome, error)
            watched[key] = entry
            return isNew
        }
        // Outside the lock: on a connection already closed, the callback runs at once. A connection
        // whose entry its close removed gets a new entry and a new callback, which runs at once.
        if isNew { connection.closeFuture.whenComplete { _ in self.closed(connection) } }
    }

    /// Stops watching `outcome`, whose result arrived.
    func forget(_ outcome: OnceContinuation<PostgresRowSequence, any Error>, on connection: PostgresConnection) {
        lock.withLock {
            _ = watched[ObjectIdentifier(connection)]?.waiting.removeValue(forKey: ObjectIdentifier(outcome))
        }
    }

    private func closed(_ connection: PostgresConnection) {
        let waiting = lock.withLock { watched.removeValue(forKey: ObjectIdentifier(connection))?.waiting ?? [:] }
        guard !waiting.isEmpty else { return }
        connection.eventLoop.scheduleTask(in: .milliseconds(100)) {
            for (outcome, error) in waiting.values { outcome.resume(with: .failure(error)) }
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
