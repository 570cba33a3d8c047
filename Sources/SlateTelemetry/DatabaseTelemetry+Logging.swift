import Foundation
import Logging
import SlateCore

// Log lines, at the levels postgres-nio chooses for a library: operations at `debug` and `trace`,
// and `info` (never more) for what the caller cannot learn from a thrown error: a slow statement,
// a long wait for a lock or a connection.

extension DatabaseTelemetry {
    func logStatement(_ statement: StatementTrace, token: StatementToken?, outcome: StatementOutcome) {
        guard let logger else { return }
        let isSlow = outcome.duration >= options.slowThreshold
        let level = isSlow ? max(options.slowLevel, options.statementLevel) : options.statementLevel
        guard logger.logLevel <= level else { return }
        var metadata = token?.callerMetadata ?? [:]
        metadata["db.system.name"] = "\(statement.connection.system.rawValue)"
        metadata["db.namespace"] = "\(statement.connection.namespace)"
        metadata["db.operation.name"] = "\(statement.operationName)"
        metadata["db.query.text"] = "\(statement.sql)"
        metadata["slate.duration"] = "\(Self.milliseconds(outcome.duration))"
        metadata["db.response.returned_rows"] = "\(outcome.rowCount)"
        if let changes = outcome.changedRowCount { metadata["slate.changed_rows"] = "\(changes)" }
        metadata["slate.connection"] = "\(Self.describe(statement.connection))"
        if let values = token?.values { metadata["slate.values"] = .array(values.map { .string($0) }) }
        let message: Logger.Message
        if let error = outcome.error {
            let described = ErrorDescription(error)
            metadata["error.type"] = "\(described.type)"
            if let code = described.statusCode { metadata["db.response.status_code"] = "\(code)" }
            metadata["error.message"] = "\(described.message)"
            message = isSlow ? "Slow statement failed" : "Statement failed"
        } else {
            message = isSlow ? "Slow statement" : "Statement ran"
        }
        logger.log(level: level, message, metadata: metadata)
    }

    func logTransactionEnd(_ transaction: TransactionTrace, outcome: TransactionOutcome) {
        guard let logger, logger.logLevel <= .trace else { return }
        var metadata: Logger.Metadata = [
            "slate.transaction.kind": "\(transaction.kind.rawValue)",
            "slate.connection": "\(Self.describe(transaction.connection))",
            "slate.duration": "\(Self.milliseconds(outcome.duration))",
        ]
        if let error = outcome.error { metadata["error.type"] = "\(ErrorDescription(error).type)" }
        logger.trace(outcome.committed ? "Transaction committed" : "Transaction rolled back", metadata: metadata)
    }

    func logBusyRetry(_ connection: ConnectionTrace, attempt: Int, waited: Duration) {
        guard let logger else { return }
        let metadata: Logger.Metadata = [
            "slate.connection": "\(Self.describe(connection))",
            "slate.attempt": "\(attempt)",
            "slate.waited": "\(Self.milliseconds(waited))",
        ]
        // Once per wait: at the retry that takes it past the threshold.
        if waited >= options.slowThreshold && previousBusyWait(before: attempt) < options.slowThreshold {
            logger.log(level: options.slowLevel, "Waiting for a lock another connection holds", metadata: metadata)
        } else {
            logger.trace("Database busy: retrying", metadata: metadata)
        }
    }

    /// How long SQLite's busy handler had waited before retry `attempt` (its schedule: 1, 2, 5,
    /// 10, 15, 20, 25, 25, 25, 50, 50, then 100 ms).
    private func previousBusyWait(before attempt: Int) -> Duration {
        let totals = [0, 1, 3, 8, 18, 33, 53, 78, 103, 128, 178, 228]
        let index = attempt - 1
        if index < totals.count { return .milliseconds(totals[max(index, 0)]) }
        return .milliseconds(228 + 100 * (index - (totals.count - 1)))
    }

    func logConnectionWait(pool: String?, kind: ConnectionWaitKind, duration: Duration) {
        guard let logger else { return }
        let metadata: Logger.Metadata = [
            "db.client.connection.pool.name": "\(pool ?? "default")",
            "slate.access": "\(kind.rawValue)",
            "slate.waited": "\(Self.milliseconds(duration))",
        ]
        if duration >= options.slowThreshold {
            logger.log(level: options.slowLevel, "Waited for a connection", metadata: metadata)
        } else {
            logger.trace("Waited for a connection", metadata: metadata)
        }
    }

    func logCheckpoint(_ connection: ConnectionTrace, _ report: CheckpointReport) {
        guard let logger else { return }
        var metadata: Logger.Metadata = [
            "slate.connection": "\(Self.describe(connection))",
            "slate.wal.frames": "\(report.walFrameCount)",
            "slate.wal.checkpointed_frames": "\(report.checkpointedFrameCount)",
            "slate.checkpoint.automatic": "\(report.isAutomatic)",
        ]
        if let size = report.walFileSize { metadata["slate.wal.size"] = "\(size)" }
        logger.debug("WAL checkpointed", metadata: metadata)
    }

    static func connectionMetadata(_ connection: ConnectionTrace) -> Logger.Metadata {
        [
            "db.system.name": "\(connection.system.rawValue)",
            "db.namespace": "\(connection.namespace)",
            "slate.connection": "\(describe(connection))",
        ]
    }

    /// `#3 writer (app)`, `#4 reader (app)`.
    static func describe(_ connection: ConnectionTrace) -> String {
        var text = "#\(connection.id)"
        if connection.system == .sqlite { text += connection.isReadOnly ? " reader" : " writer" }
        if let label = connection.label { text += " (\(label))" }
        return text
    }

    /// `0.245 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let value = Double(nanoseconds(duration)) / 1_000_000
        return String(format: "%.3f ms", value)
    }

    /// A bound value as an SQL literal, text and blobs cut to `maximumLength` characters or bytes.
    static func render(_ value: SQLValue, maximumLength: Int) -> String {
        let limit = max(maximumLength, 0)
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .text(let text):
            let quoted = text.prefix(limit).replacingOccurrences(of: "'", with: "''")
            return text.count > limit ? "'\(quoted)…' (\(text.count) characters)" : "'\(quoted)'"
        case .blob(let data):
            let hex = data.prefix(limit).map { String(format: "%02X", $0) }.joined()
            return data.count > limit ? "X'\(hex)…' (\(data.count) bytes)" : "X'\(hex)'"
        }
    }
}
