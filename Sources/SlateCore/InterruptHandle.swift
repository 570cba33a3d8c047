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
    // the connection is open. `Database` closes the connection through `closeConnection(_:)`,
    // which holds the lock while SQLite closes it: an `interrupt()` racing a close either runs
    // before it, on the open connection, or after it, and then does nothing.
    private let lock = NSLock()
    private var connection: OpaquePointer?

    package init(_ connection: OpaquePointer) {
        self.connection = connection
    }

    /// Makes the running statement, if any, stop with ``ResultCode/interrupt``.
    public func interrupt() {
        lock.lock()
        defer { lock.unlock() }
        if let connection { sqlite3_interrupt(connection) }
    }

    /// Closes the connection with `close` (`sqlite3_close` or `sqlite3_close_v2`) while no
    /// ``interrupt()`` can run, and forgets it when `close` returns `SQLITE_OK`. Returns what
    /// `close` returned: on `SQLITE_BUSY` the connection stays open, and interruptible.
    package func closeConnection(_ close: (OpaquePointer) -> Int32) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        guard let connection else { return SQLITE_OK }
        let code = close(connection)
        if code == SQLITE_OK { self.connection = nil }
        return code
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
