import Foundation
import PostgresNIO
import SlateConcurrency
import SlateCore

/// Where a statement runs: on a connection of the pool (each statement admitted by the database's
/// shutdown gate) or on a transaction's connection (admitted with its transaction). Every
/// statement Slate sends to PostgreSQL goes through ``run(_:text:arguments:_:)``, which reports it
/// to the database's instrumentation, if any, and converts postgres-nio's errors.
enum PostgresStatementTarget {
    case database(PostgreSQLDatabase)
    case transaction(PostgreSQLTransaction)

    /// The target of a queryable of this module; `nil` for one of the user's.
    init?(_ db: some PostgreSQLQueryable) {
        if let transaction = db as? PostgreSQLTransaction {
            self = .transaction(transaction)
        } else if let database = db as? PostgreSQLDatabase {
            self = .database(database)
        } else {
            return nil
        }
    }

    /// Sends `query` (the statement `text` with its values bound) and reads every row into `body`.
    ///
    /// - Parameter arguments: The statement's arguments, for errors and for the instrumentation
    ///   (which reads them only when its user asked to log values).
    func run(
        _ query: PostgresQuery, text: String, arguments: @escaping () -> RenderedSQL,
        _ body: (borrowing Row) throws -> Void
    ) async throws {
        switch self {
        case .database(let database):
            try database.gate.enter()
            defer { database.gate.leave() }
            // On a connection of its own rather than through `client.query`, which waits forever
            // when the connection closes before the query reaches it (PostgresClosedConnections.swift).
            try await database.withConnection(sql: text) { connection in
                let executor = EventLoopTaskExecutor(connection.eventLoop)
                try await Self.run(
                    query, text: text, arguments: arguments, instrumentation: database.instrumentation,
                    connection: database.connectionTrace(id: 0), transaction: nil,
                    send: {
                        try await connection.queryFailingOnClose(
                            query, logger: database.logger, outcomeUnknown: true, executor: executor)
                    }, body)
            }
        case .transaction(let transaction):
            // Only a COMMIT cut short may have committed: any other statement's transaction is
            // rolled back by the server when the connection closes.
            try await Self.run(
                query, text: text, arguments: arguments, instrumentation: transaction.instrumentation,
                connection: transaction.connectionTrace, transaction: transaction.transactionToken,
                send: {
                    try await transaction.connection.queryFailingOnClose(
                        query, logger: transaction.logger, outcomeUnknown: text == "COMMIT",
                        executor: transaction.executor)
                }, body)
        }
    }

    private static func run(
        _ query: PostgresQuery, text: String, arguments: @escaping () -> RenderedSQL,
        instrumentation: (any DatabaseInstrumentation)?, connection: ConnectionTrace, transaction: (any Sendable)?,
        send: () async throws -> PostgresRowSequence, _ body: (borrowing Row) throws -> Void
    ) async throws {
        guard let instrumentation else {
            try await sendAndRead(text: text, arguments: arguments, send: send, body)
            return
        }
        let statement = StatementTrace(
            sql: text, connection: connection,
            values: { PostgresStatementRunner.argumentValues(arguments()) })
        let token = instrumentation.statementWillRun(statement, transaction: transaction)
        let start = ContinuousClock.now
        var rowCount = 0
        func finish(_ error: (any Error)?) {
            let outcome = StatementOutcome(
                duration: .now - start, endNanosecondsSinceEpoch: nanosecondsSinceEpoch(), rowCount: rowCount,
                changedRowCount: nil, error: error)
            instrumentation.statementDidFinish(statement, token: token, outcome: outcome)
        }
        do {
            try await sendAndRead(text: text, arguments: arguments, send: send) { row in
                rowCount += 1
                try body(row)
            }
        } catch {
            finish(error)
            throw error
        }
        finish(nil)
    }

    private static func sendAndRead(
        text: String, arguments: () -> RenderedSQL, send: () async throws -> PostgresRowSequence,
        _ body: (borrowing Row) throws -> Void
    ) async throws {
        let rows: PostgresRowSequence
        do {
            rows = try await send()
        } catch let error as PSQLError {
            throw PostgreSQLError(error, sql: text, arguments: PostgresStatementRunner.argumentValues(arguments()))
        } catch let error as PostgreSQLError {
            throw error  // the connection closed (queryFailingOnClose): already explained
        } catch let error where !(error is CancellationError) {
            throw PostgreSQLError.explainingConnectionFailure(error, sql: text)
        }
        try await PostgresStatementRunner.read(rows, text: text, arguments: arguments, body)
    }
}

extension PostgreSQLDatabase {
    /// The database as the instrumentation describes it; `id` is the server's connection id, or
    /// 0 for a statement whose connection the pool chooses.
    func connectionTrace(id: Int) -> ConnectionTrace {
        ConnectionTrace(id: id, system: .postgreSQL, namespace: databaseName ?? "", label: nil, isReadOnly: false)
    }
}

/// Reports a PostgreSQL transaction or savepoint from its begin to its end.
struct PostgresTransactionReport {
    let instrumentation: any DatabaseInstrumentation
    let trace: TransactionTrace
    let token: (any Sendable)?
    let start: ContinuousClock.Instant

    /// Reports the begin; `nil` without an instrumentation.
    static func begin(
        _ instrumentation: (any DatabaseInstrumentation)?, kind: TransactionTrace.Kind, connection: ConnectionTrace,
        enclosing: (any Sendable)? = nil
    ) -> PostgresTransactionReport? {
        guard let instrumentation else { return nil }
        let trace = TransactionTrace(kind: kind, connection: connection)
        return PostgresTransactionReport(
            instrumentation: instrumentation, trace: trace,
            token: instrumentation.transactionDidBegin(trace, enclosing: enclosing),
            start: .now)
    }

    /// Reports the end: committed (released) without `error`.
    func end(error: (any Error)?) {
        let outcome = TransactionOutcome(
            duration: .now - start, endNanosecondsSinceEpoch: nanosecondsSinceEpoch(), committed: error == nil,
            error: error)
        instrumentation.transactionDidEnd(trace, token: token, outcome: outcome)
    }
}
