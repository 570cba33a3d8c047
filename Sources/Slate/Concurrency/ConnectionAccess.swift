import Foundation

/// How a queued piece of work uses its connection: which transaction wraps the closure.
enum ConnectionAccess: Sendable {
    /// No transaction: the closure manages its own (``DatabaseQueue/inDatabase(_:)``,
    /// ``DatabasePool/writeWithoutTransaction(_:)``, ``DatabaseService/run(_:)``).
    case plain
    /// A transaction of the given kind, committed when the closure returns.
    case transaction(Database.TransactionKind)
    /// A savepoint of the given name, released when the closure returns.
    case savepoint(String)
    /// A read on a writable connection: `PRAGMA query_only` for the closure's duration, inside a
    /// deferred transaction started with a read so the closure sees one snapshot.
    case queryOnlyRead
    /// A read on a read-only connection: a deferred transaction started with a read, so the
    /// closure sees one committed snapshot even while another connection writes.
    case snapshotRead
}

extension Database {
    /// Runs `body` with the access `access` asks for: starts the transaction or savepoint, commits
    /// it when `body` returns and rolls it back when `body` throws.
    ///
    /// With a `cancellation` state, the work is skipped when it was cancelled before it started,
    /// the connection is interrupted when it is cancelled while `body` runs, and a cancellation
    /// noticed by the time `body` returns rolls the transaction back and throws
    /// ``DatabaseError/isCancellation`` errors. Commit and rollback run after the cancellable phase,
    /// so an interrupt never leaves a transaction half closed.
    func perform<Value>(
        _ access: ConnectionAccess,
        cancellation: CancellationState?,
        _ body: (Database) throws -> Value
    ) throws -> Value {
        if let cancellation, !cancellation.start(interrupting: interruptHandle) {
            throw DatabaseError.cancellation()
        }
        var began = false
        var queryOnlySet = false
        defer {
            if queryOnlySet { try? execute(sql: "PRAGMA query_only = 0") }
        }
        let outcome = Result<Value, any Error> {
            switch access {
            case .plain:
                break
            case .transaction(let kind):
                try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
            case .savepoint(let name):
                try execute(sql: "SAVEPOINT \(name.quotedIdentifier)")
            case .queryOnlyRead:
                try execute(sql: "PRAGMA query_only = 1")
                queryOnlySet = true
                try beginSnapshot()
            case .snapshotRead:
                try beginSnapshot()
            }
            began = true
            return try body(self)
        }
        let cancelled = cancellation?.finish() ?? false

        switch outcome {
        case .success(let value) where !cancelled:
            do {
                try end(access)
            } catch {
                abandon(access, began: began)
                throw annotated(error)
            }
            return value
        case .success:
            abandon(access, began: began)
            if isInTransaction { rollbackIfNeeded() }
            throw DatabaseError.cancellation()
        case .failure(let error):
            abandon(access, began: began)
            if cancelled {
                if isInTransaction { rollbackIfNeeded() }
                throw DatabaseError.cancellation(interrupting: error)
            }
            throw annotated(error)
        }
    }

    /// Starts a deferred transaction and reads, so the snapshot is taken now rather than at the
    /// closure's first query.
    private func beginSnapshot() throws {
        try execute(sql: "BEGIN DEFERRED TRANSACTION")
        _ = try fetchOne(Int.self, "SELECT count(*) FROM sqlite_master")
    }

    /// Commits what `access` started.
    private func end(_ access: ConnectionAccess) throws {
        switch access {
        case .plain:
            break
        case .transaction, .queryOnlyRead, .snapshotRead:
            try execute(sql: "COMMIT TRANSACTION")
        case .savepoint(let name):
            try execute(sql: "RELEASE SAVEPOINT \(name.quotedIdentifier)")
        }
    }

    /// Rolls back what `access` started, if SQLite has not already done so.
    private func abandon(_ access: ConnectionAccess, began: Bool) {
        guard began else { return }
        switch access {
        case .plain:
            break
        case .transaction, .queryOnlyRead, .snapshotRead:
            rollbackIfNeeded()
        case .savepoint(let name):
            guard isInTransaction else { return }
            try? execute(sql: "ROLLBACK TO SAVEPOINT \(name.quotedIdentifier)")
            try? execute(sql: "RELEASE SAVEPOINT \(name.quotedIdentifier)")
        }
    }

    /// Adds the busy timeout to busy errors, which only another connection or process can cause.
    func annotated(_ error: any Error) -> any Error {
        guard var databaseError = error as? DatabaseError, databaseError.resultCode == .busy else { return error }
        let timeout = configuration.busyTimeout ?? 0
        databaseError.message += "; another connection or process kept the database locked for longer than"
            + " the busy timeout (\(timeout) s, Database.Configuration.busyTimeout)"
        return databaseError
    }
}

/// Delivers `result` to `completion` on `queue`.
func deliver<Value: Sendable>(
    _ result: Result<Value, any Error>,
    on queue: DispatchQueue,
    to completion: @escaping @Sendable (Result<Value, any Error>) -> Void
) {
    queue.async { completion(result) }
}
