import PostgresNIO
import SlateCore

/// An error reported by PostgreSQL, or by the driver while talking to it.
///
/// Slate's ``DatabaseError`` carries SQLite's result codes; PostgreSQL reports a five-character
/// SQLSTATE instead, with a detail and a hint that SQLite does not have. `PostgreSQLError` keeps
/// them as PostgreSQL gave them, with the SQL and its arguments, and ``resultCode`` names the
/// closest SQLite code, so code that checks `error.resultCode == .constraintUnique` works on both
/// engines:
///
/// ```swift
/// do {
///     try await Player.insert(player).execute(pg)
/// } catch let error as PostgreSQLError where error.resultCode == .constraintUnique {
///     print(error.sqlState, error.constraintName ?? "")   // 23505 Player_email_key
/// }
/// ```
///
/// Errors found by Slate itself before or after the server ran a statement (a value that does
/// not fit its Swift type, a construct PostgreSQL has no equivalent for) stay ``DatabaseError``s.
public struct PostgreSQLError: Error, Sendable, CustomStringConvertible {
    /// PostgreSQL's SQLSTATE, such as `23505` (unique violation); `nil` for a failure of the
    /// connection rather than of a statement.
    public var sqlState: String?
    /// PostgreSQL's message (or the driver's, when the connection failed).
    public var message: String
    /// PostgreSQL's detail, such as `Key (email)=(a@b.c) already exists.`
    public var detail: String?
    /// PostgreSQL's hint.
    public var hint: String?
    /// The constraint that was violated, when PostgreSQL names one.
    public var constraintName: String?
    /// The table concerned, when PostgreSQL names one.
    public var tableName: String?
    /// The column concerned, when PostgreSQL names one.
    public var columnName: String?
    /// The SQL of the statement that failed, as sent to PostgreSQL.
    public var sql: String?
    /// The values bound to it, in parameter order.
    public var arguments: [SQLValue]?
    /// The driver's error code (`server` for an error PostgreSQL reported).
    public var driverCode: String

    /// Creates an error.
    public init(
        sqlState: String?, message: String, detail: String? = nil, hint: String? = nil, sql: String? = nil,
        arguments: [SQLValue]? = nil, driverCode: String = "server"
    ) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.sql = sql
        self.arguments = arguments
        self.driverCode = driverCode
    }

    /// The closest SQLite result code: constraint violations by kind (`23505` →
    /// ``ResultCode/constraintUnique``, `23503` → ``ResultCode/constraintForeignKey``, `23502` →
    /// ``ResultCode/constraintNotNull``, `23514` → ``ResultCode/constraintCheck``), data
    /// exceptions (class 22) → ``ResultCode/mismatch`` (`22003`, out of range →
    /// ``ResultCode/range``), serialization failures and deadlocks → ``ResultCode/busy``, a
    /// cancelled statement (`57014`) → ``ResultCode/interrupt``, insufficient privilege (`42501`)
    /// → ``ResultCode/permission``, a read-only transaction (`25006`) → ``ResultCode/readOnly``,
    /// a connection failure (no SQLSTATE, or class `08`) and a connection the server ended or
    /// refused (`57P01` admin shutdown, `57P02` crash shutdown, `57P03` cannot connect now,
    /// `57P05` idle session timeout) → ``ResultCode/ioError``; anything else →
    /// ``ResultCode/error``. So `resultCode == .ioError` alone tells that the connection is gone,
    /// whether the server said why or the driver saw it close.
    public var resultCode: ResultCode {
        guard let sqlState else { return .ioError }
        switch sqlState {
        case "23505": return .constraintUnique
        case "23503": return .constraintForeignKey
        case "23502": return .constraintNotNull
        case "23514": return .constraintCheck
        case "22003": return .range
        case "40001", "40P01", "55P03": return .busy
        case "57014": return .interrupt
        case "42501": return .permission
        case "25006": return .readOnly
        case "57P01", "57P02", "57P03", "57P05": return .ioError
        default: break
        }
        if sqlState.hasPrefix("23") { return .constraint }
        if sqlState.hasPrefix("22") { return .mismatch }
        if sqlState.hasPrefix("08") { return .ioError }
        return .error
    }

    /// A one-line description: SQLSTATE, message, detail, SQL and arguments.
    public var description: String {
        var text = "PostgreSQL error"
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let detail { text += " (\(detail.truncatedForMessages))" }
        if let hint { text += " hint: \(hint.truncatedForMessages)" }
        if let sql { text += " — while executing `\(sql.truncatedForMessages)`" }
        if let arguments, !arguments.isEmpty {
            text += " with arguments [" + arguments.map(\.shortDescription).joined(separator: ", ") + "]"
        }
        return text
    }
}

extension PostgreSQLError {
    /// The error of a failed query, with the statement's SQL and values. A query failed because
    /// its connection closed after the server's own error (the `FATAL` of a terminated backend,
    /// `57P01`) carries that error's SQLSTATE and message, with the driver's code (such as
    /// `clientClosedConnection`).
    init(_ error: PSQLError, sql: String?, arguments: [SQLValue]?) {
        if error.serverInfo == nil, let cause = error.underlying as? PSQLError, cause.serverInfo != nil {
            self.init(cause, sql: sql, arguments: arguments)
            driverCode = "\(error.code)"
        } else if let info = error.serverInfo {
            self.init(
                sqlState: info[.sqlState], message: info[.message] ?? "\(error.code)", detail: info[.detail],
                hint: info[.hint], sql: sql, arguments: arguments)
            constraintName = info[.constraintName]
            tableName = info[.tableName]
            columnName = info[.columnName]
        } else {
            self.init(
                sqlState: nil, message: Self.driverMessage(error), sql: sql, arguments: arguments,
                driverCode: "\(error.code)")
        }
    }

    /// A driver error's code, then its causes': a `PSQLError` describes itself only as "Generic
    /// description to prevent accidental leakage of sensitive data".
    private static func driverMessage(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error).truncatedForMessages }
        guard let underlying = error.underlying else { return "\(error.code)" }
        return "\(error.code): " + driverMessage(underlying)
    }
}

extension PostgreSQLError: RedactableDatabaseError {
    /// The SQLSTATE, or the driver's code when the connection failed.
    public var errorType: String { sqlState ?? driverCode }
    /// The SQLSTATE.
    public var statusCode: String? { sqlState }
    /// PostgreSQL's message, without its detail (which may quote values).
    public var redactedMessage: String { message }
}
