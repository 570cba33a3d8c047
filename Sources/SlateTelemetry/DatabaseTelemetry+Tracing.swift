import Foundation
import SlateCore
import Tracing

// Spans with OpenTelemetry's database semantic conventions: a client span per statement, named
// `{db.operation.name} {db.namespace}`, whose `db.query.text` is the SQL with its placeholders
// (never values), and a span per transaction around its statements.

extension DatabaseTelemetry {
    func startStatementSpan(_ statement: StatementTrace, tracer: any Tracer, parent: ServiceContext) -> any Span {
        let operation = statement.operationName
        let namespace = statement.connection.namespace
        let name = [operation, namespace].filter { !$0.isEmpty }.joined(separator: " ")
        let span = tracer.startSpan(
            name.isEmpty ? statement.connection.system.rawValue : name, context: parent, ofKind: .client)
        span.updateAttributes { attributes in
            Self.setConnectionAttributes(&attributes, statement.connection)
            if !operation.isEmpty { attributes["db.operation.name"] = operation }
            attributes["db.query.text"] = statement.sql
        }
        return span
    }

    func endStatementSpan(_ span: any Span, outcome: StatementOutcome) {
        span.updateAttributes { attributes in
            attributes["db.response.returned_rows"] = outcome.rowCount
            if let changes = outcome.changedRowCount { attributes["slate.changed_rows"] = changes }
        }
        if let error = outcome.error { Self.record(error, on: span) }
        span.end(at: DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: outcome.endNanosecondsSinceEpoch))
    }

    func startTransactionSpan(_ transaction: TransactionTrace, tracer: any Tracer, parent: ServiceContext) -> any Span {
        let name = transaction.kind == .read ? "read" : transaction.kind == .savepoint ? "savepoint" : "transaction"
        let span = tracer.startSpan(name, context: parent, ofKind: .client)
        span.updateAttributes { attributes in
            Self.setConnectionAttributes(&attributes, transaction.connection)
            attributes["slate.transaction.kind"] = transaction.kind.rawValue
        }
        return span
    }

    func endTransactionSpan(_ span: any Span, outcome: TransactionOutcome) {
        span.attributes["slate.transaction.committed"] = outcome.committed
        if let error = outcome.error { Self.record(error, on: span) }
        span.end(at: DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: outcome.endNanosecondsSinceEpoch))
    }

    private static func setConnectionAttributes(_ attributes: inout SpanAttributes, _ connection: ConnectionTrace) {
        attributes["db.system.name"] = connection.system.rawValue
        // The attribute's name before OpenTelemetry's conventions for databases became stable,
        // which some backends still read.
        attributes["db.system"] = connection.system.rawValue
        if !connection.namespace.isEmpty { attributes["db.namespace"] = connection.namespace }
        if connection.id != 0 { attributes["slate.connection.id"] = connection.id }
    }

    /// Records `error` without the values it may carry: spans never hold values.
    private static func record(_ error: any Error, on span: any Span) {
        let described = ErrorDescription(error)
        span.updateAttributes { attributes in
            attributes["error.type"] = described.type
            if let code = described.statusCode { attributes["db.response.status_code"] = code }
        }
        span.recordError(RedactedDatabaseError(description: described.message, type: described.type))
        span.setStatus(SpanStatus(code: .error, message: described.message))
    }
}

/// The error a span records: the engine's message and code, never the values.
struct RedactedDatabaseError: Error, CustomStringConvertible {
    var description: String
    var type: String
}

/// An error's type, code and message, without the values a ``DatabaseError`` may carry.
struct ErrorDescription {
    /// OpenTelemetry's `error.type`.
    var type: String
    /// `db.response.status_code`, when the engine gave one.
    var statusCode: String?
    /// The message, without values.
    var message: String

    init(_ error: any Error) {
        if let error = error as? any RedactableDatabaseError {
            type = error.errorType
            statusCode = error.statusCode
            message = error.redactedMessage
        } else {
            type = String(describing: Swift.type(of: error))
            statusCode = nil
            message = String(String(describing: error).prefix(200))
        }
    }
}
