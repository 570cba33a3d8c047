import CSQLite
import Foundation

/// One connection's side of a ``DatabaseInstrumentation``: turns SQLite's trace events into
/// statement reports, brackets transactions, retries busy locks and runs the automatic WAL
/// checkpoint while reporting them. Exists only when the configuration has an instrumentation;
/// used on the connection's thread only.
///
/// SQLite reports a statement's end (`SQLITE_TRACE_PROFILE`) from inside the step that ends it,
/// before the step's error is known. So an ended statement is held until the next event on the
/// connection: ``Statement``'s failure path reports it with its error; anything else on the
/// connection (another statement, the end of a transaction or of a queue's work, closing) reports
/// it as a success. Its duration and end time are those of the moment it ended.
package final class ConnectionInstrumentation {
    let instrumentation: any DatabaseInstrumentation
    let trace: ConnectionTrace
    private let connection: OpaquePointer

    private struct Running {
        var statement: StatementTrace
        var token: (any Sendable)?
        var start: ContinuousClock.Instant
        var rows = 0
    }
    private struct Ended {
        var handle: OpaquePointer
        var running: Running
        var outcome: StatementOutcome
    }
    private struct OpenTransaction {
        var trace: TransactionTrace
        var token: (any Sendable)?
        var start: ContinuousClock.Instant
    }

    private var running: [OpaquePointer: Running] = [:]
    private var ended: Ended?
    private var transactions: [OpenTransaction] = []
    /// The busy timeout the instrumented busy handler applies, in milliseconds, while installed.
    var busyTimeoutMilliseconds: Int?
    /// The automatic checkpoint's threshold in WAL pages (`PRAGMA wal_autocheckpoint`), once the
    /// WAL hook is installed.
    private var autocheckpointThreshold: Int32?

    private static let counter = NSLock()
    nonisolated(unsafe) private static var lastID = 0

    init(_ instrumentation: any DatabaseInstrumentation, database: Database) {
        Self.counter.lock()
        Self.lastID += 1
        let id = Self.lastID
        Self.counter.unlock()
        self.instrumentation = instrumentation
        self.connection = database.handle
        self.trace = ConnectionTrace(
            id: id, system: .sqlite, namespace: Self.namespace(of: database.location),
            label: database.configuration.label, isReadOnly: database.configuration.isReadOnly)
    }

    /// OpenTelemetry's `db.namespace` for SQLite: the file's name, without its directories.
    static func namespace(of location: Database.Location) -> String {
        switch location {
        case .inMemory: return ":memory:"
        case .temporary: return "(temporary)"
        case .file(let path): return URL(fileURLWithPath: path).lastPathComponent
        case .uri(let uri):
            var path = Substring(uri)
            if path.hasPrefix("file:") { path = path.dropFirst(5) }
            path = path.prefix { $0 != "?" && $0 != "#" }
            return path.split(separator: "/").last.map(String.init) ?? String(path)
        }
    }

    // MARK: Statements (from the trace callback and the failure path)

    /// Handles one trace event of the kinds the registry requests for instrumentation.
    func dispatch(_ code: UInt32, subject: UnsafeMutableRawPointer?, detail: UnsafeMutableRawPointer?) {
        guard let subject else { return }
        let handle = OpaquePointer(subject)
        switch Int32(bitPattern: code) {
        case SQLITE_TRACE_ROW:
            running[handle]?.rows += 1
        case SQLITE_TRACE_STMT:
            // The statement's own start: X is its SQL (trigger programs get a comment instead).
            guard let detail, let sql = sqlite3_sql(handle), UnsafeRawPointer(sql) == UnsafeRawPointer(detail)
            else { return }
            settle()
            start(handle, sql: String(cString: sql))
        case SQLITE_TRACE_PROFILE:
            settle()
            guard let finished = running.removeValue(forKey: handle) else { return }
            let changes = sqlite3_stmt_readonly(handle) != 0 ? nil : Int(sqlite3_changes64(connection))
            let outcome = StatementOutcome(
                duration: ContinuousClock.now - finished.start, endNanosecondsSinceEpoch: nanosecondsSinceEpoch(),
                rowCount: finished.rows, changedRowCount: changes, error: nil)
            ended = Ended(handle: handle, running: finished, outcome: outcome)
        default:
            break
        }
    }

    private func start(_ handle: OpaquePointer, sql: String) {
        // The values can be read only while the statement is about to run: the reader is
        // invalidated once the instrumentation returns.
        let validity = Validity()
        let statement = StatementTrace(
            sql: sql, connection: trace,
            values: { validity.isValid ? BoundValues.read(handle) : nil })
        let token = instrumentation.statementWillRun(statement, transaction: transactions.last?.token)
        validity.isValid = false
        running[handle] = Running(statement: statement, token: token, start: .now)
    }

    private final class Validity {
        var isValid = true
    }

    /// Called by ``Statement``'s failure path right after a step failed: reports the statement,
    /// which just ended, with its error.
    func statementFailed(_ handle: OpaquePointer, error: DatabaseError) {
        guard var pending = ended, pending.handle == handle else {
            settle()
            return
        }
        ended = nil
        pending.outcome.error = error
        pending.outcome.changedRowCount = nil
        instrumentation.statementDidFinish(
            pending.running.statement, token: pending.running.token, outcome: pending.outcome)
    }

    /// Reports the statement that ended last as a success, if it is still held.
    package func settle() {
        guard let pending = ended else { return }
        ended = nil
        instrumentation.statementDidFinish(
            pending.running.statement, token: pending.running.token, outcome: pending.outcome)
    }

    // MARK: Transactions (from the transaction engine)

    /// Runs `body` (which begins, commits or rolls back a scope) between a transaction's begin
    /// and end reports.
    func transaction<Result>(_ kind: TransactionTrace.Kind, _ body: () throws -> Result) throws -> Result {
        settle()
        let transaction = TransactionTrace(kind: kind, connection: trace)
        let token = instrumentation.transactionDidBegin(transaction, enclosing: transactions.last?.token)
        let start = ContinuousClock.now
        transactions.append(OpenTransaction(trace: transaction, token: token, start: start))
        let result: Result
        do {
            result = try body()
        } catch {
            finishTransaction(error: error)
            throw error
        }
        finishTransaction(error: nil)
        return result
    }

    private func finishTransaction(error: (any Error)?) {
        settle()
        guard let open = transactions.popLast() else { return }
        let outcome = TransactionOutcome(
            duration: ContinuousClock.now - open.start, endNanosecondsSinceEpoch: nanosecondsSinceEpoch(),
            committed: error == nil, error: error)
        instrumentation.transactionDidEnd(open.trace, token: open.token, outcome: outcome)
    }

    // MARK: Busy retries

    /// A busy handler that waits as SQLite's `sqlite3_busy_timeout` does (1, 2, 5, 10, 15, 20, 25,
    /// 25, 25, 50, 50 then 100 ms between attempts, until the timeout), reporting each retry.
    func busyHandler(timeoutMilliseconds timeout: Int) -> (Int) -> Bool {
        let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]
        let totals = [0, 1, 3, 8, 18, 33, 53, 78, 103, 128, 178, 228]
        return { [instrumentation, trace] count in
            var delay: Int
            let prior: Int
            if count < delays.count {
                delay = delays[count]
                prior = totals[count]
            } else {
                delay = delays[delays.count - 1]
                prior = totals[totals.count - 1] + delay * (count - (delays.count - 1))
            }
            if prior + delay > timeout {
                delay = timeout - prior
                if delay <= 0 { return false }
            }
            usleep(UInt32(delay) * 1000)
            instrumentation.record(.busyRetry(trace, attempt: count + 1, waited: .milliseconds(prior + delay)))
            return true
        }
    }

    // MARK: Checkpoints

    /// Installs a WAL hook that runs SQLite's automatic checkpoint (a passive one once a commit
    /// leaves `threshold` pages or more in the WAL, as `sqlite3_wal_autocheckpoint` does) and
    /// reports it. `PRAGMA wal_autocheckpoint` put back SQLite's own hook (without reports).
    func installWALHook(threshold: Int32) {
        guard threshold > 0 else { return }
        autocheckpointThreshold = threshold
        sqlite3_wal_hook(
            connection,
            { context, connection, schema, pageCount in
                guard let context, let connection else { return SQLITE_OK }
                Unmanaged<ConnectionInstrumentation>.fromOpaque(context).takeUnretainedValue()
                    .walDidGrow(connection, schema: schema, pageCount: pageCount)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func walDidGrow(_ connection: OpaquePointer, schema: UnsafePointer<CChar>?, pageCount: Int32) {
        guard let threshold = autocheckpointThreshold, pageCount >= threshold else { return }
        var walFrames: Int32 = -1
        var checkpointed: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(connection, schema, SQLITE_CHECKPOINT_PASSIVE, &walFrames, &checkpointed)
        guard code == SQLITE_OK else { return }  // as SQLite's own hook, which ignores failures
        didCheckpoint(
            isAutomatic: true, schema: schema.map { String(cString: $0) }, walFrames: Int(walFrames),
            checkpointed: Int(checkpointed))
    }

    /// Reports a checkpoint of `schema` (`main` when `nil`).
    func didCheckpoint(isAutomatic: Bool, schema: String?, walFrames: Int, checkpointed: Int) {
        var size: Int?
        if let name = sqlite3_db_filename(connection, schema ?? "main") {
            let path = String(cString: name)
            if !path.isEmpty, let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal") {
                size = (attributes[.size] as? NSNumber)?.intValue
            }
        }
        let report = CheckpointReport(
            isAutomatic: isAutomatic, walFrameCount: walFrames, checkpointedFrameCount: checkpointed, walFileSize: size)
        instrumentation.record(.checkpoint(trace, report))
    }

    /// Before the connection closes: reports what is held and gives SQLite its own WAL hook back,
    /// so that nothing calls into this object once it is gone (and a connection that fails to
    /// close keeps checkpointing).
    func detach() {
        settle()
        if let threshold = autocheckpointThreshold {
            sqlite3_wal_autocheckpoint(connection, threshold)
            autocheckpointThreshold = nil
        }
    }
}

// MARK: - Database

extension Database.TransactionScope {
    /// How the instrumentation names the scope; `nil` for ``none``, which is no transaction.
    var traceKind: TransactionTrace.Kind? {
        switch self {
        case .none: nil
        case .transaction(.deferred): .deferred
        case .transaction(.immediate): .immediate
        case .transaction(.exclusive): .exclusive
        case .savepoint: .savepoint
        case .snapshot: .read
        }
    }
}

extension Database {
    /// Attaches the configuration's instrumentation, if any, right after opening: the trace
    /// callback, the busy handler and, on a writable connection, the WAL hook.
    func attachInstrumentation() throws {
        guard let instrumentation = configuration.instrumentation else { return }
        let threshold = configuration.isReadOnly ? 0 : try fetchValue(Int32.self, sql: "PRAGMA wal_autocheckpoint")
        let instrumented = ConnectionInstrumentation(instrumentation, database: self)
        tracing.instrumented = instrumented
        updateTraceCallback()
        instrumented.installWALHook(threshold: threshold)
        instrumentation.record(.connectionOpened(instrumented.trace))
    }

    /// Reports the statement that ended last, if the instrumentation still holds it (see
    /// ``ConnectionInstrumentation``). Queues and pools call it when a piece of work ends.
    package func settleInstrumentation() {
        tracing.instrumented?.settle()
    }

    /// The instrumented connection's description, or `nil` without an instrumentation.
    package var connectionTrace: ConnectionTrace? { tracing.instrumented?.trace }
}
