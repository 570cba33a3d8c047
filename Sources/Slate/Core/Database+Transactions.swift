extension Database {
    /// How a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Locks are taken on first read or write (`BEGIN DEFERRED`).
        case deferred = "DEFERRED"
        /// The write lock is taken at once (`BEGIN IMMEDIATE`): no busy error later in the body.
        case immediate = "IMMEDIATE"
        /// Exclusive access at once (`BEGIN EXCLUSIVE`).
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// If the commit itself fails (a deferred foreign key violation, a vetoing commit hook, a busy
    /// database), the transaction is rolled back and the commit error thrown: nothing is left half
    /// done. To nest, use ``savepoint(_:_:)``; starting a transaction inside another throws.
    @discardableResult
    public func transaction<Result>(_ kind: TransactionKind = .deferred, _ body: () throws -> Result) throws -> Result {
        try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
        let result: Result
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try execute(sql: "COMMIT TRANSACTION")
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Runs `body` inside a savepoint, which nests inside transactions and other savepoints.
    ///
    /// When `body` throws, only the savepoint's changes are rolled back and the error is rethrown;
    /// an enclosing transaction can catch it and go on. Outside a transaction, a savepoint acts as
    /// a deferred transaction.
    @discardableResult
    public func savepoint<Result>(_ name: String? = nil, _ body: () throws -> Result) throws -> Result {
        savepointCounter += 1
        let quotedName = (name ?? "slate_savepoint_\(savepointCounter)").quotedIdentifier
        try execute(sql: "SAVEPOINT \(quotedName)")
        let result: Result
        do {
            result = try body()
        } catch {
            if isInTransaction {
                try? execute(sql: "ROLLBACK TO SAVEPOINT \(quotedName)")
                try? execute(sql: "RELEASE SAVEPOINT \(quotedName)")
            }
            throw error
        }
        do {
            try execute(sql: "RELEASE SAVEPOINT \(quotedName)")
        } catch {
            if isInTransaction {
                try? execute(sql: "ROLLBACK TO SAVEPOINT \(quotedName)")
                try? execute(sql: "RELEASE SAVEPOINT \(quotedName)")
            }
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so.
    func rollbackIfNeeded() {
        guard isInTransaction else { return }
        // Statements still stepping would make ROLLBACK fail with SQLITE_BUSY on old SQLite.
        for statement in statementCache.values where !statement.isCheckedOut { statement.resetQuietly() }
        try? execute(sql: "ROLLBACK TRANSACTION")
    }
}
