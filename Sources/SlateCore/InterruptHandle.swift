import CSQLite
import Foundation

/// Interrupts a connection's running statement from any thread or task.
///
/// Get it from ``Database/interruptHandle``. After ``interrupt()``, the statement that is running
/// (if any) fails with ``ResultCode/interrupt`` and the connection remains usable. Calling it after
/// the connection closed does nothing.
public final class InterruptHandle: @unchecked Sendable {
    // @unchecked Sendable: `connection`, the only mutable state, is read and written only while
    // `lock` is held, and `sqlite3_interrupt` is documented as safe to call from any thread while
    // the connection is open. `Database` calls `invalidate()` when it closes the connection; it
    // does so just after `sqlite3_close` returns, so an `interrupt()` racing a `close()` can still
    // reach the closed connection (issue 33 report: invalidate under the lock before closing).
    private let lock = NSLock()
    private var connection: OpaquePointer?

    init(_ connection: OpaquePointer) {
        self.connection = connection
    }

    /// Makes the running statement, if any, stop with ``ResultCode/interrupt``.
    public func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        if let connection { sqlite3_interrupt(connection) }
    }

    func invalidate() {
        lock.lock()
        connection = nil
        lock.unlock()
    }
}

extension Database {
    /// Makes the statement running on this connection, if any, stop with ``ResultCode/interrupt``.
    ///
    /// A `Database` is used from one thread at a time; to interrupt it from another thread, use its
    /// ``interruptHandle``, which is `Sendable`.
    public func interrupt() {
        interruptHandle.interrupt()
    }
}
