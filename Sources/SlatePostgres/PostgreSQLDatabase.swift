import Foundation
import Logging
import NIOCore
import PostgresNIO
import SlateConcurrency
import SlateCore
import SlateQuery

/// Something that runs Slate's statements on PostgreSQL: a ``PostgreSQLDatabase`` (each statement
/// on a connection of its pool) or a ``PostgreSQLTransaction`` (every statement on the connection
/// of the transaction).
///
/// Every fetch of the query builder and every raw-SQL method takes one, so the same code runs in
/// or out of a transaction:
///
/// ```swift
/// func topPlayers(_ pg: some PostgreSQLQueryable) async throws -> [Player] {
///     try await Player.where { $0.score > 5 }.order { $0.name }.fetchAll(pg)
/// }
/// ```
public protocol PostgreSQLQueryable: Sendable {
    /// Runs `sql`, written in SQLite's dialect with `?` placeholders (see
    /// ``SlateCore/SQL/rendered(for:)``), and calls `body` with each row it returns, read by
    /// position as a Slate ``SlateCore/Row``. Checks for cancellation before it runs and between
    /// rows.
    ///
    /// - Throws: ``PostgreSQLError`` for an error PostgreSQL or the connection reported, with the
    ///   SQL it ran; ``SlateCore/DatabaseError`` for a construct PostgreSQL has no equivalent for
    ///   (before anything runs) and for a value that does not convert exactly; `CancellationError`.
    func forEachRow(_ sql: SQL, _ body: (borrowing Row) throws -> Void) async throws
}

/// A PostgreSQL database reached through a postgres-nio connection pool (`PostgresClient`): the
/// same tables and queries as on SQLite, `async`.
///
/// ```swift
/// let client = PostgresClient(configuration: .init(
///     host: "db.example.com", username: "app", password: secret, database: "app", tls: .disable))
/// try await withThrowingTaskGroup(of: Void.self) { group in
///     group.addTask { await client.run() }          // the pool runs while the app does
///     let pg = PostgreSQLDatabase(client: client)
///     try await pg.createTable(for: Player.self)
///     try await Player.insert(Player(name: "Arthur", score: 7)).execute(pg)
///     let best = try await Player.where { $0.score > 5 }.order { $0.name }.fetchAll(pg)
///     group.cancelAll()
/// }
/// ```
///
/// Each statement takes a connection from the pool for its duration. Use
/// ``transaction(_:)`` to run several on one connection, atomically.
public struct PostgreSQLDatabase: PostgreSQLQueryable {
    /// The connection pool.
    public let client: PostgresClient
    /// The logger given to postgres-nio for each statement.
    public var logger: Logger
    /// Receives every statement and transaction, for logging, tracing and metrics
    /// (`DatabaseTelemetry`, product `SlateTelemetry`); `nil` reports nothing. See
    /// <doc:RunningInAServer>.
    public var instrumentation: (any DatabaseInstrumentation)?
    /// The database's name, for the instrumentation (OpenTelemetry's `db.namespace`).
    public var databaseName: String?
    /// How long ``run()``, on graceful shutdown, lets the statements and transactions in flight
    /// finish before it stops the client. Default 10 seconds.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Admits statements and transactions until a shutdown (`Service.run()`), and counts them.
    let gate = WorkGate(owner: "PostgreSQLDatabase")

    /// A database on `client`'s connections. Run the client (`await client.run()`) in a task of
    /// its own for as long as the database is used, or run the database as a swift-service-lifecycle
    /// `Service` (``run()``), which runs the client.
    ///
    /// - Parameters:
    ///   - client: The connection pool.
    ///   - logger: The logger postgres-nio logs each statement's protocol traffic into.
    ///   - instrumentation: Receives every statement and transaction (`DatabaseTelemetry`).
    ///   - databaseName: The database's name, for the instrumentation.
    public init(
        client: PostgresClient,
        logger: Logger = Logger(label: "Slate.PostgreSQLDatabase", factory: { _ in SwiftLogNoOpLogHandler() }),
        instrumentation: (any DatabaseInstrumentation)? = nil,
        databaseName: String? = nil
    ) {
        self.client = client
        self.logger = logger
        self.instrumentation = instrumentation
        self.databaseName = databaseName
    }

    public func forEachRow(_ sql: SQL, _ body: (borrowing Row) throws -> Void) async throws {
        try await PostgresStatementRunner.forEachRow(sql, on: .database(self), body)
    }

    /// Runs `body` in a transaction on one connection of the pool: `BEGIN`, then `COMMIT` when
    /// `body` returns, or `ROLLBACK` when it throws (or is cancelled), rethrowing its error.
    ///
    /// The transaction prefers its connection's event loop as its task's executor: `body`'s code
    /// that is not isolated to an actor runs on the loop, between its statements. Keep long
    /// computations out of `body`, or run them elsewhere (an actor of their own, or
    /// `withTaskExecutorPreference(globalConcurrentExecutor) { … }`): while they run on the loop, it
    /// serves none of its other connections.
    ///
    /// ```swift
    /// try await pg.transaction { tx in
    ///     try await Player.update { $0.score.set(to: $0.score + 1) }.where { $0.id == id }.execute(tx)
    ///     try await tx.savepoint { sp in try await Bonus.insert(bonus).execute(sp) }
    /// }
    /// ```
    @discardableResult
    public func transaction<Result>(
        isolation level: PostgreSQLTransaction.IsolationLevel? = nil,
        _ body: (PostgreSQLTransaction) async throws -> sending Result
    ) async throws -> sending Result {
        try gate.enter()
        defer { gate.leave() }
        return try await withConnection(sql: nil) { connection in
            let executor = EventLoopTaskExecutor(connection.eventLoop)
            // The whole transaction prefers its connection's loop: each statement is checked and
            // sent there (PostgresClosedConnections.swift), and the task stays on the loop between
            // them instead of hopping to the global pool and back for each.
            let result = try await withTaskExecutorPreference(executor) {
                SentResult(value: try await run(on: connection, executor: executor, isolation: level, body))
            }
            return result.value
        }
    }

    /// The transaction of ``transaction(isolation:_:)`` on `connection`, from `BEGIN` to `COMMIT`.
    private func run<Result>(
        on connection: PostgresConnection, executor: EventLoopTaskExecutor,
        isolation level: PostgreSQLTransaction.IsolationLevel?,
        _ body: (PostgreSQLTransaction) async throws -> sending Result
    ) async throws -> sending Result {
        let trace = connectionTrace(id: connection.id)
        let report = PostgresTransactionReport.begin(instrumentation, kind: .serverTransaction, connection: trace)
        let transaction = PostgreSQLTransaction(
            connection: connection, executor: executor, logger: logger, savepointDepth: 0,
            instrumentation: instrumentation, connectionTrace: trace, transactionToken: report?.token)
        let begin = level.map { "BEGIN ISOLATION LEVEL " + $0.rawValue } ?? "BEGIN"
        return try await transaction.bracket(
            begin: begin, end: "COMMIT", undoing: nil, undoWhenEndFails: true, report: report
        ) { try await body(transaction) }
    }
}

extension PostgreSQLDatabase {
    /// How many connections a statement or a transaction takes from the pool, at most, when the
    /// pool hands out connections that are already closed (nothing was sent on them).
    static let leaseAttempts = 3

    /// `client.withConnection`, with a failure to connect explained
    /// (`PostgreSQLError.explainingConnectionFailure`, naming `sql`), and two guards against
    /// postgres-nio's pool (PostgresClosedConnections.swift): a connection handed out already closed
    /// is given back and another one taken (nothing was sent on it; at most ``leaseAttempts`` in
    /// all), and a connection that closed while `body` used it is given back only once its close
    /// has completed, so that the pool never hands it out again.
    func withConnection<Result>(sql: String?, _ body: (PostgresConnection) async throws -> sending Result)
        async throws -> sending Result
    {
        var attempt = 1
        while true {
            var leased = false
            let lease: Lease<Result>
            do {
                lease = try await client.withConnection { connection -> sending Lease<Result> in
                    leased = true
                    if connection.isClosed && attempt < Self.leaseAttempts {
                        await connection.waitUntilClosedIfClosing()
                        return .closedBeforeUse
                    }
                    do {
                        let result = try await body(connection)
                        await connection.waitUntilClosedIfClosing()
                        return .used(result)
                    } catch {
                        await connection.waitUntilClosedIfClosing()
                        throw error
                    }
                }
            } catch let error where !leased && !(error is CancellationError) && !(error is PSQLError) {
                throw PostgreSQLError.explainingConnectionFailure(error, sql: sql)
            }
            // The last attempt runs `body` whatever the connection's state: its first statement fails.
            switch consume lease {
            case .used(let result): return result
            case .closedBeforeUse: attempt += 1
            }
        }
    }
}

/// The result of a transaction's body on its way out of `withTaskExecutorPreference`, which does
/// not return a `sending` result.
private struct SentResult<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is the body's `sending` result, handed on once, to the caller.
    let value: Value
}

/// What one lease of ``PostgreSQLDatabase/withConnection(sql:_:)`` gave.
private enum Lease<Result> {
    case used(Result)
    case closedBeforeUse
}

/// A transaction in progress, on one connection: pass it wherever a ``PostgreSQLQueryable`` is
/// expected. It is valid only inside the closure of ``PostgreSQLDatabase/transaction(isolation:_:)``
/// (or of ``savepoint(_:)``) that lent it.
public struct PostgreSQLTransaction: PostgreSQLQueryable {
    /// A transaction isolation level.
    public enum IsolationLevel: String, Sendable, CaseIterable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    let connection: PostgresConnection
    /// The connection's event loop as a task executor, where each statement checks the connection
    /// and is sent (`queryFailingOnClose`); one per transaction, its savepoints included.
    let executor: EventLoopTaskExecutor
    let logger: Logger
    let savepointDepth: Int
    let instrumentation: (any DatabaseInstrumentation)?
    let connectionTrace: ConnectionTrace
    /// The instrumentation's token for the innermost transaction or savepoint.
    let transactionToken: (any Sendable)?

    public func forEachRow(_ sql: SQL, _ body: (borrowing Row) throws -> Void) async throws {
        try await PostgresStatementRunner.forEachRow(sql, on: .transaction(self), body)
    }

    /// Runs `body` inside a savepoint: `SAVEPOINT`, then `RELEASE SAVEPOINT` when it returns, or
    /// `ROLLBACK TO SAVEPOINT` (undoing only its changes, the transaction going on) when it throws,
    /// rethrowing its error. Savepoints nest.
    @discardableResult
    public func savepoint<Result>(_ body: (PostgreSQLTransaction) async throws -> sending Result) async throws
        -> sending Result
    {
        let name = "slate_savepoint_\(savepointDepth + 1)"
        let report = PostgresTransactionReport.begin(
            instrumentation, kind: .savepoint, connection: connectionTrace, enclosing: transactionToken)
        let inner = PostgreSQLTransaction(
            connection: connection, executor: executor, logger: logger, savepointDepth: savepointDepth + 1,
            instrumentation: instrumentation, connectionTrace: connectionTrace,
            transactionToken: report?.token ?? transactionToken)
        return try await bracket(
            begin: "SAVEPOINT " + name.quotedIdentifier, end: "RELEASE SAVEPOINT " + name.quotedIdentifier,
            undoing: name, undoWhenEndFails: false, report: report
        ) { try await body(inner) }
    }

    /// Runs `body` between the control statements `begin` and `end` (`BEGIN` and `COMMIT`, or
    /// `SAVEPOINT` and `RELEASE SAVEPOINT`) sent on this transaction, and ends `report` with the
    /// outcome. When `body` throws, or `end` fails and `undoWhenEndFails`, rolls back (to
    /// `savepoint`, or the whole transaction for `nil`: ``rollBack(to:)``) and rethrows.
    fileprivate func bracket<Result>(
        begin: String, end: String, undoing savepoint: String?, undoWhenEndFails: Bool,
        report: PostgresTransactionReport?, _ body: () async throws -> sending Result
    ) async throws -> sending Result {
        do {
            try await control(begin)
        } catch {
            report?.end(error: error)
            throw error
        }
        let result: Result
        do {
            result = try await body()
        } catch {
            await rollBack(to: savepoint)
            report?.end(error: error)
            throw error
        }
        do {
            try await control(end)
        } catch {
            if undoWhenEndFails { await rollBack(to: savepoint) }
            report?.end(error: error)
            throw error
        }
        report?.end(error: nil)
        return result
    }

    /// Runs a transaction-control statement, even in a cancelled task: the connection must not go
    /// back to the pool in the middle of a transaction.
    func control(_ statement: String) async throws {
        try await PostgresStatementTarget.transaction(self).run(
            PostgresQuery(unsafeSQL: statement), text: statement,
            arguments: { RenderedSQL(text: statement, arguments: []) }, { _ in })
    }

    /// `ROLLBACK TO SAVEPOINT name` and `RELEASE SAVEPOINT name`, or `ROLLBACK` for `nil`, after
    /// an error that the caller rethrows. When that fails, the connection is closed, and this
    /// returns once it is, so that the pool never hands out a connection in the middle of a
    /// transaction (and the statements that follow on it fail).
    func rollBack(to savepoint: String?) async {
        do {
            if let savepoint {
                try await control("ROLLBACK TO SAVEPOINT " + savepoint.quotedIdentifier)
                try await control("RELEASE SAVEPOINT " + savepoint.quotedIdentifier)
            } else {
                try await control("ROLLBACK")
            }
        } catch {
            await connection.closeAndWait()
        }
    }
}

/// What both queryables share: rendering, binding, reading rows, mapping errors.
enum PostgresStatementRunner {
    /// The postgres-nio query of a rendered statement.
    static func query(_ rendered: RenderedSQL, sql: SQL) throws -> PostgresQuery {
        var encoder = PostgreSQLColumnEncoder(capacity: rendered.arguments.count)
        for argument in rendered.arguments {
            do {
                try encoder.bind(argument)
            } catch let error as DatabaseError {
                var error = error
                if error.sql == nil { error.sql = rendered.text }
                throw error
            } catch {
                throw DatabaseError(resultCode: .mismatch, message: "\(error)".truncatedForMessages, sql: rendered.text)
            }
        }
        return PostgresQuery(unsafeSQL: rendered.text, binds: encoder.bindings)
    }

    /// The arguments as SQLite values, for error messages.
    static func argumentValues(_ rendered: RenderedSQL) -> [SQLValue] {
        rendered.arguments.map { argument in
            guard let argument else { return .null }
            do {
                return try argument.sqlValue
            } catch {
                return .text("<\(type(of: argument)): not representable>")
            }
        }
    }

    /// Renders `sql`, runs it on `target` and reads every row into `body`, converting errors.
    static func forEachRow(
        _ sql: SQL, on target: PostgresStatementTarget, _ body: (borrowing Row) throws -> Void
    ) async throws {
        let rendered = try sql.rendered(for: .postgreSQL)
        let query = try query(rendered, sql: sql)
        try Task.checkCancellation()
        try await target.run(query, text: rendered.text, arguments: { rendered }, body)
    }

    /// Reads every row of `rows` of the statement `text`, converting errors (with the arguments
    /// `arguments` gives).
    static func read(
        _ rows: PostgresRowSequence, text: String, arguments: () -> RenderedSQL, _ body: (borrowing Row) throws -> Void
    ) async throws {
        let source = PostgresRowSource(sql: text)
        do {
            for try await row in rows {
                try Task.checkCancellation()
                try source.load(row)
                try Row.withForeign(source, body)
            }
        } catch let error as PSQLError {
            throw PostgreSQLError(error, sql: text, arguments: argumentValues(arguments()))
        }
    }
}

extension PostgreSQLQueryable {
    /// Runs `sql` and returns nothing: `try await pg.execute("UPDATE … SET score = \(score)")`.
    public func execute(_ sql: SQL) async throws {
        try await forEachRow(sql) { _ in }
    }

    /// Every row of `sql`, each read with `transform`.
    // Inlinable (as the two below) so that it is specialized for the caller's element type: in
    // unspecialized code each row's `append` looks up `Array<Element>`'s metadata in the runtime's
    // tables (~330 instructions per row).
    @inlinable
    public func fetchAll<Element>(_ sql: SQL, _ transform: (borrowing Row) throws -> Element) async throws -> [Element]
    {
        var results: [Element] = []
        try await forEachRow(sql) { row in results.append(try transform(row)) }
        return results
    }

    /// Every record of raw SQL: `try await pg.fetchAll(Player.self, "SELECT * FROM \"Player\" WHERE score > \(5)")`.
    /// Values are bound, never spliced; columns are read by position.
    @inlinable
    public func fetchAll<Record: RowDecodable>(_ type: Record.Type, _ sql: SQL) async throws -> [Record] {
        try await fetchAll(sql) { try Record(row: $0) }
    }

    /// The first record of raw SQL, or `nil`.
    public func fetchOne<Record: RowDecodable>(_ type: Record.Type, _ sql: SQL) async throws -> Record? {
        try await fetchAll(sql) { try Record(row: $0) }.first
    }

    /// The first column of every row of raw SQL.
    @inlinable
    public func fetchAll<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) async throws -> [Value] {
        try await fetchAll(sql) { try $0.decode(Value.self, at: 0) }
    }

    /// The first column of the first row of raw SQL, or `nil` when there is no row.
    public func fetchOne<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) async throws -> Value? {
        try await fetchAll(sql) { try $0.decode(Value.self, at: 0) }.first
    }

    /// The first column of the first row of raw SQL.
    ///
    /// - Throws: ``SlateCore/DatabaseError`` with ``SlateCore/ResultCode/notFound`` when there is
    ///   no row.
    public func fetchValue<Value: SQLExtractable>(_ type: Value.Type, _ sql: SQL) async throws -> Value {
        guard let value = try await fetchOne(type, sql) else {
            throw DatabaseError(resultCode: .notFound, message: "the query returned no row", sql: sql.text)
        }
        return value
    }
}
