import CSQLite

// Slate's one transaction engine: `transaction`, `savepoint`, every queue and pool access
// (through `run(in:_:beforeCommit:)`) and the CSV import (which commits every N rows, through
// `begin(_:)`, `commitAndNotify(_:)` and `rollBack(_:)`) begin, commit and roll back here. The fixed statements
// (`BEGIN …`, `COMMIT`, `ROLLBACK`, `PRAGMA query_only = …`, generated savepoint names) are prepared
// once per connection, not for every piece of work. Nothing is restored on a best-effort basis: a
// rollback or restore that fails is reported.

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
        try run(in: .transaction(kind), body)
    }

    /// Runs `body` inside a savepoint, which nests inside transactions and other savepoints.
    ///
    /// When `body` throws, only the savepoint's changes are rolled back and the error is rethrown;
    /// an enclosing transaction can catch it and go on. Outside a transaction, a savepoint acts as
    /// a deferred transaction.
    @discardableResult
    public func savepoint<Result>(_ name: String? = nil, _ body: () throws -> Result) throws -> Result {
        try run(in: .savepoint(name), body)
    }
}

// MARK: - The engine

extension Database {
    /// What surrounds a piece of work on a connection.
    package enum TransactionScope: Sendable, Equatable {
        /// Nothing: the work manages its own transactions.
        case none
        /// A transaction of the given kind.
        case transaction(TransactionKind)
        /// A savepoint; `nil` asks for a generated name.
        case savepoint(String?)
        /// A read of one committed snapshot: a deferred transaction started with a read, so the
        /// snapshot is taken at once. With `queryOnly`, `PRAGMA query_only` forbids writes for the
        /// duration (for reads on a writable connection).
        case snapshot(queryOnly: Bool)
    }

    /// Runs `body` within `scope`: begins it, calls `body` then `beforeCommit` (which may throw to
    /// abandon the work, as a cancellation does), commits, and returns `body`'s value. When
    /// `body`, `beforeCommit` or the commit throws, what was begun is rolled back and the error
    /// rethrown; when the rollback fails too, the error says so.
    package func run<Result>(
        in scope: TransactionScope, _ body: () throws -> Result, beforeCommit: () throws -> Void = {}
    ) throws -> Result {
        // With an instrumentation, the scope is reported from its begin to its end
        // (Instrumentation/ConnectionInstrumentation.swift).
        if let instrumented = tracing.instrumented, let kind = scope.traceKind {
            return try instrumented.transaction(kind) {
                try runUninstrumented(in: scope, body, beforeCommit: beforeCommit)
            }
        }
        return try runUninstrumented(in: scope, body, beforeCommit: beforeCommit)
    }

    private func runUninstrumented<Result>(
        in scope: TransactionScope, _ body: () throws -> Result, beforeCommit: () throws -> Void
    ) throws -> Result {
        let opened = try begin(scope)
        let result: Result
        do {
            result = try body()
            try beforeCommit()
            try commit(opened)
        } catch {
            throw abandon(opened, after: error)
        }
        // Live queries learn about the commit as soon as it landed.
        if let regionTracker { flushObservations(regionTracker) }
        return result
    }

    /// What ``begin(_:)`` started, for committing or rolling back.
    package struct OpenedScope {
        let scope: TransactionScope
        /// The quoted savepoint name, for a savepoint.
        let savepointName: String?
        /// Whether the name was generated, so its statements are kept.
        let isGeneratedName: Bool
    }

    /// Begins `scope`, for work that cannot run inside one closure; end it with
    /// ``commitAndNotify(_:)`` or ``rollBack(_:)``. Prefer ``run(in:_:beforeCommit:)``.
    package func begin(_ scope: TransactionScope) throws -> OpenedScope {
        switch scope {
        case .none:
            return OpenedScope(scope: scope, savepointName: nil, isGeneratedName: false)
        case .transaction(let kind):
            try runFixed(Self.beginSQL(kind))
            return OpenedScope(scope: scope, savepointName: nil, isGeneratedName: false)
        case .savepoint(let name):
            // Generated names follow the nesting depth (SQLite resolves a repeated name to the
            // innermost savepoint), so their statements can be kept.
            let quoted = (name ?? "slate_savepoint_\(savepointDepth + 1)").quotedIdentifier
            let isGenerated = name == nil
            try runControl("SAVEPOINT " + quoted, keep: isGenerated)
            savepointDepth += 1
            return OpenedScope(scope: scope, savepointName: quoted, isGeneratedName: isGenerated)
        case .snapshot(let queryOnly):
            if queryOnly { try runFixed("PRAGMA query_only = 1") }
            do {
                try runFixed("BEGIN DEFERRED TRANSACTION")
            } catch {
                throw queryOnly ? restoringQueryOnly(after: error) : error
            }
            let opened = OpenedScope(scope: scope, savepointName: nil, isGeneratedName: false)
            do {
                // A read takes the snapshot now rather than at the body's first query.
                try runFixed("SELECT count(*) FROM sqlite_master")
            } catch {
                throw abandon(opened, after: error)
            }
            return opened
        }
    }

    /// Commits what ``begin(_:)`` began, then tells live queries, as ``run(in:_:beforeCommit:)``
    /// does.
    package func commitAndNotify(_ opened: OpenedScope) throws {
        try commit(opened)
        if let regionTracker { flushObservations(regionTracker) }
    }

    private func commit(_ opened: OpenedScope) throws {
        switch opened.scope {
        case .none:
            break
        case .transaction:
            try runFixed("COMMIT TRANSACTION")
        case .savepoint:
            try runControl("RELEASE SAVEPOINT " + (opened.savepointName ?? ""), keep: opened.isGeneratedName)
            savepointDepth -= 1
        case .snapshot(let queryOnly):
            try runFixed("COMMIT TRANSACTION")
            if queryOnly { try runFixed("PRAGMA query_only = 0") }
        }
    }

    /// Rolls back what `opened` began, if SQLite has not already, and returns the error to throw:
    /// `error`, noting a rollback or restore that failed too.
    private func abandon(_ opened: OpenedScope, after error: any Error) -> any Error {
        Self.error(error, notingCleanupFailures: rollBack(opened))
    }

    /// Rolls back what ``begin(_:)`` began, if SQLite has not already, and returns what failed
    /// while doing so (a failed rollback, a failed restore of `query_only`): empty on success.
    package func rollBack(_ opened: OpenedScope) -> [any Error] {
        var failures: [any Error] = []
        switch opened.scope {
        case .none:
            break
        case .transaction:
            do { try rollbackIfNeeded() } catch { failures.append(error) }
        case .savepoint:
            let name = opened.savepointName ?? ""
            savepointDepth -= 1
            // When SQLite already rolled the whole transaction back, the savepoint is gone too.
            if isInTransaction {
                do {
                    try runControl("ROLLBACK TO SAVEPOINT " + name, keep: opened.isGeneratedName)
                    try runControl("RELEASE SAVEPOINT " + name, keep: opened.isGeneratedName)
                } catch {
                    failures.append(error)
                }
            }
        case .snapshot(let queryOnly):
            do { try rollbackIfNeeded() } catch { failures.append(error) }
            if queryOnly {
                do { try runFixed("PRAGMA query_only = 0") } catch { failures.append(error) }
            }
        }
        return failures
    }

    private func restoringQueryOnly(after error: any Error) -> any Error {
        do {
            try runFixed("PRAGMA query_only = 0")
            return error
        } catch {
            return Self.error(error, notingCleanupFailures: [error])
        }
    }

    /// Rolls back the open transaction, if there is one.
    ///
    /// - Throws: The rollback's error; the transaction may then still be open.
    package func rollbackIfNeeded() throws {
        guard isInTransaction else { return }
        // Statements still stepping would make ROLLBACK fail with SQLITE_BUSY on old SQLite.
        for statement in statementCache.values where !statement.isCheckedOut { statement.resetQuietly() }
        try runFixed("ROLLBACK TRANSACTION")
    }

    /// `error`, with the failures of the cleanup that followed it: a ``DatabaseError`` keeps its
    /// codes and gains a note; another error becomes a ``DatabaseError`` that names both, since
    /// the connection is not in the state the caller expects.
    package static func error(_ error: any Error, notingCleanupFailures failures: [any Error]) -> any Error {
        guard !failures.isEmpty else { return error }
        let notes = failures.map { String(describing: $0).truncatedForMessages }.joined(separator: "; ")
        if var databaseError = error as? DatabaseError {
            databaseError.message += " (cleaning up after this error failed too: \(notes))"
            return databaseError
        }
        let code = (failures.first as? DatabaseError)?.extendedResultCode ?? .error
        return DatabaseError(
            resultCode: code,
            message:
                "cleaning up after an error failed: \(notes); the error was: \(String(describing: error).truncatedForMessages)"
        )
    }

    /// Runs `body`, then `restore` whatever happened, and reports a restore that fails: thrown
    /// when `body` succeeded, noted on `body`'s error when it failed. Never a silent `try?`.
    package func restoring<Result>(_ restore: () throws -> Void, _ body: () throws -> Result) throws -> Result {
        let result: Result
        do {
            result = try body()
        } catch {
            do { try restore() } catch let restoreError {
                throw Self.error(error, notingCleanupFailures: [restoreError])
            }
            throw error
        }
        try restore()
        return result
    }

    // MARK: Fixed statements

    static func beginSQL(_ kind: TransactionKind) -> String {
        switch kind {
        case .deferred: "BEGIN DEFERRED TRANSACTION"
        case .immediate: "BEGIN IMMEDIATE TRANSACTION"
        case .exclusive: "BEGIN EXCLUSIVE TRANSACTION"
        }
    }

    /// Runs one of the engine's fixed statements through the statement kept for it.
    package func runFixed(_ sql: String) throws {
        try runControl(sql, keep: true)
    }

    /// Runs a control statement: through a statement kept for the connection's lifetime when
    /// `keep` (a bounded set of texts), else prepared for this run.
    private func runControl(_ sql: String, keep: Bool) throws {
        try checkOpen()
        let statement = keep ? try fixedStatement(sql: sql) : try Statement(database: self, sql: sql, persistent: false)
        defer { statement.resetQuietly() }
        while try statement.step() {}
    }
}
