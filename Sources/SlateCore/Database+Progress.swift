import CSQLite

extension Database {
    /// Installs a progress handler, called about every `instructions` virtual-machine
    /// instructions while a statement runs on this connection.
    ///
    /// Return `true` to interrupt the running statement, which then fails with
    /// ``ResultCode/interrupt``; the connection stays usable. Return `false` to let it go on.
    /// Use it to keep a user interface responsive, enforce a time budget, or cancel long
    /// queries:
    ///
    /// ```swift
    /// let deadline = Date().addingTimeInterval(0.5)
    /// db.setProgressHandler(every: 1_000) { Date() > deadline }
    /// ```
    ///
    /// The handler replaces any earlier one. It runs synchronously on the connection's thread and
    /// must not use the connection. To interrupt from another thread instead, use
    /// ``interruptHandle``.
    ///
    /// - Parameters:
    ///   - instructions: The approximate number of instructions between calls. Values below 1
    ///     count as 1.
    ///   - handler: Returns whether to interrupt the running statement.
    public func setProgressHandler(every instructions: Int32, _ handler: @escaping () -> Bool) {
        guard let connection = hooks.attach(handle) else { return }
        hooks.progressHandler = handler
        sqlite3_progress_handler(
            connection, max(1, instructions),
            { context in
                guard let handler = HookRegistry.from(context)?.progressHandler else { return 0 }
                return handler() ? 1 : 0
            }, hooks.context)
    }

    /// Removes the progress handler installed with ``setProgressHandler(every:_:)``.
    public func removeProgressHandler() {
        guard !isClosed else { return }
        sqlite3_progress_handler(handle, 0, nil, nil)
        hooks.progressHandler = nil
    }
}
