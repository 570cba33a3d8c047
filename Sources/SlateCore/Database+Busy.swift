import CSQLite

extension Database {
    /// How long SQLite retries, in seconds, when another connection holds a lock it needs, before
    /// the statement fails with ``ResultCode/busy``. `0` fails at once.
    ///
    /// While a custom busy handler is installed (``setBusyHandler(_:)``), the timeout reads `0`.
    /// The initial value comes from ``Configuration/busyTimeout``; change it with
    /// ``setBusyTimeout(_:)``.
    ///
    /// - Throws: ``DatabaseError`` when the connection is closed or SQLite cannot report it.
    public var busyTimeout: Double {
        get throws {
            try checkOpen()
            // An instrumented connection waits through its own handler, which reports each retry.
            if let instrumented = tracing.instrumented?.busyTimeoutMilliseconds { return Double(instrumented) / 1000 }
            let milliseconds = try fetchValue(Int.self, sql: "PRAGMA busy_timeout")
            return Double(milliseconds) / 1000
        }
    }

    /// Sets how long SQLite retries on a locked database before reporting busy, in seconds
    /// (`sqlite3_busy_timeout`). It replaces any handler set with ``setBusyHandler(_:)``; negative
    /// and NaN values count as `0`. Does nothing once the connection is closed.
    public func setBusyTimeout(_ seconds: Double) {
        guard !isClosed else { return }
        let milliseconds = seconds.isNaN ? 0 : max(0, min(seconds * 1000, Double(Int32.max)))
        if let instrumented = tracing.instrumented, milliseconds >= 1 {
            // The same waits as sqlite3_busy_timeout's, with each retry reported.
            setBusyHandler(instrumented.busyHandler(timeoutMilliseconds: Int(milliseconds)))
            instrumented.busyTimeoutMilliseconds = Int(milliseconds)
            return
        }
        sqlite3_busy_timeout(handle, Int32(milliseconds))
        hooks.busyHandler = nil  // sqlite3_busy_timeout replaced it
        tracing.instrumented?.busyTimeoutMilliseconds = nil
    }

    /// Installs a custom busy handler, called when another connection holds a lock this one needs.
    ///
    /// The handler receives how many times it was already called for the current lock attempt
    /// (`0` the first time) and returns `true` for SQLite to try again, or `false` to give up:
    /// the statement then fails with ``ResultCode/busy``. It should sleep a little before
    /// returning `true`, or SQLite will spin.
    ///
    /// SQLite may not call the handler at all when retrying could deadlock; the statement then
    /// fails with ``ResultCode/busy`` at once.
    ///
    /// The handler replaces the ``busyTimeout`` (which reads `0` while it is installed) and any
    /// earlier handler. Remove it with ``removeBusyHandler()``, or replace it with
    /// ``setBusyTimeout(_:)``. It runs synchronously on the connection's thread and must not use the
    /// connection.
    ///
    /// ```swift
    /// db.setBusyHandler { retryCount in
    ///     guard retryCount < 50 else { return false }
    ///     usleep(10_000)
    ///     return true
    /// }
    /// ```
    public func setBusyHandler(_ handler: @escaping (_ retryCount: Int) -> Bool) {
        guard let connection = hooks.attach(handle) else { return }
        hooks.busyHandler = handler
        tracing.instrumented?.busyTimeoutMilliseconds = nil
        sqlite3_busy_handler(
            connection,
            { context, count in
                guard let handler = HookRegistry.from(context)?.busyHandler else { return 0 }
                return handler(Int(count)) ? 1 : 0
            }, hooks.context)
    }

    /// Removes the busy handler installed with ``setBusyHandler(_:)``, or the ``busyTimeout``:
    /// from now on a locked database fails with ``ResultCode/busy`` at once.
    public func removeBusyHandler() {
        guard !isClosed else { return }
        sqlite3_busy_handler(handle, nil, nil)
        hooks.busyHandler = nil
        tracing.instrumented?.busyTimeoutMilliseconds = nil
    }
}
