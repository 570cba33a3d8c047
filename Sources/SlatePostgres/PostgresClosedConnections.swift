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
// statement hung forever on a connection the server had closed").
//
// Slate closes that race instead of racing it: it checks the connection and writes the statement
// on the connection's event loop, in one stretch that nothing on the loop can come between. In
// SwiftNIO 2.101.3 and postgres-nio 1.33.2:
// - `isClosed` is `!channel.isActive`; the channel's `close0` (on the loop) sets it false before it
//   fires `channelInactive`, and removes the handlers later still, in a task of its own on the loop;
// - `PostgresConnection.query(_:logger:)` (`nonisolated(nonsending)`: postgres-nio builds with
//   `NonisolatedNonsendingByDefault`) calls `channel.write` before its first suspension, and
//   `ChannelPipeline.write` runs inline when called on the loop;
// - postgres-nio's channel handler completes every query written to it: at once with
//   `clientClosedConnection`/`serverClosedConnection` when its connection is closing or closed, and
//   with the closing error, on `channelInactive`, for those queued or running.
// So, on the loop, a statement is either written while the handler is in the pipeline (postgres-nio
// completes it: its result, or an error) or refused by Slate before it is sent. To be there, the
// task prefers the connection's loop as its executor (`EventLoopTaskExecutor`; SwiftNIO 2.101.3
// has no `TaskExecutor` of its own): a transaction for its whole closure
// (`PostgreSQLDatabase.transaction`), so that it stays on the loop from statement to statement
// and postgres-nio's future resumes it there, without a thread switch; a pool statement for its
// send only. The check of `inEventLoop` decides; nothing relies on where the runtime happens to be.
// This replaced a `Task` per statement racing the query against the connection's close, which cost
// ~7,400 instructions per record in `insert-5000` (1.155–1.168× the hand-written postgres-nio
// code; 1.04–1.07× with this: Benchmarks/README.md, session 42). A connection that is closed or
// closing goes back to the pool only once the pool has forgotten it (`waitUntilClosedIfClosing`).

/// A `TaskExecutor` that runs its jobs on one SwiftNIO event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension PostgresConnection {
    /// Sends `query` on this connection, like `query(_:logger:)`, but fails with a connection
    /// error (``PostgreSQLError`` without SQLSTATE, ``SlateCore/ResultCode/ioError``, driver code
    /// `serverClosedConnection`) when the connection is closed, instead of waiting forever.
    ///
    /// - Parameters:
    ///   - outcomeUnknown: Whether the statement could have taken effect although its result
    ///     never arrived (a `COMMIT`, or a statement outside a transaction); otherwise the error
    ///     says that the server rolls the open transaction back.
    ///   - executor: This connection's loop as a task executor, made once per lease or
    ///     transaction; preferred for the send when the task is not on the loop already.
    func queryFailingOnClose(
        _ query: PostgresQuery, logger: Logger, outcomeUnknown: Bool, executor: EventLoopTaskExecutor
    ) async throws -> PostgresRowSequence {
        do {
            if eventLoop.inEventLoop {
                // Already on the loop (in a transaction, which prefers it): no suspension from the
                // check to postgres-nio's write (`query` is `nonisolated(nonsending)`: no hop).
                if isClosed {
                    throw PostgreSQLError.connectionClosed(sql: query.sql, sent: false, outcomeUnknown: false)
                }
                return try await self.query(query, logger: logger)
            }
            return try await withTaskExecutorPreference(executor) {
                try await sendOnItsLoop(query, logger: logger)
            }
        } catch let error as PSQLError where error.isConnectionClosure {
            throw PostgreSQLError.connectionClosed(
                sql: query.sql, sent: true, outcomeUnknown: outcomeUnknown, driverCode: "\(error.code)")
        }
    }

    /// Checks, on the connection's loop, that the connection is open, and writes `query`.
    @concurrent private func sendOnItsLoop(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        // With the loop as the task's executor preference, a `@concurrent` function runs on it;
        // should the runtime not have switched, a yield enqueues the task on its preferred executor.
        if !eventLoop.inEventLoop { await Task.yield() }
        guard eventLoop.inEventLoop else { throw PostgreSQLError.notOnTheConnectionsLoop(sql: query.sql) }
        if isClosed {
            throw PostgreSQLError.connectionClosed(sql: query.sql, sent: false, outcomeUnknown: false)
        }
        // No suspension from the check to postgres-nio's write: the close cannot come between.
        return try await self.query(query, logger: logger)
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
    static func connectionClosed(
        sql: String, sent: Bool, outcomeUnknown: Bool, driverCode: String = "serverClosedConnection"
    ) -> PostgreSQLError {
        // postgres-nio's `clientClosedConnection` also covers a close of its own (a pool shutting
        // down): only its `serverClosedConnection`, and a connection found closed, name the server.
        let closed =
            sent && driverCode != "serverClosedConnection"
            ? "the connection was closed" : "the connection was closed (by the server, or the network failed)"
        let what: String
        if !sent {
            what = closed + " before the statement was sent"
        } else if outcomeUnknown {
            what = closed + " before the statement's result arrived: whether it took effect is unknown"
        } else {
            what = closed + " before the statement completed; the server rolls the open transaction back"
        }
        return PostgreSQLError(sqlState: nil, message: driverCode + ": " + what, sql: sql, driverCode: driverCode)
    }

    /// The error of a statement that was not sent because it did not run on its connection's event
    /// loop, where Slate must check the connection before sending (never seen: the task's executor
    /// preference puts it there).
    static func notOnTheConnectionsLoop(sql: String) -> PostgreSQLError {
        PostgreSQLError(
            sqlState: nil,
            message:
                "notOnEventLoop: the statement was not sent: it did not run on its connection's event loop, where"
                + " Slate checks that the connection is open",
            sql: sql, driverCode: "notOnEventLoop")
    }
}

extension PSQLError {
    /// Whether postgres-nio failed the query because its connection closed, without an error of
    /// the server's (such as the `57P01` of a terminated backend, which keeps its SQLSTATE).
    var isConnectionClosure: Bool {
        guard serverInfo == nil, (underlying as? PSQLError)?.serverInfo == nil else { return false }
        return code == .serverClosedConnection || code == .clientClosedConnection || code == .uncleanShutdown
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
