import CSQLite

/// The one error type Slate throws for anything that goes wrong while talking to SQLite.
///
/// Besides SQLite's own failures (bad SQL, constraint violations, busy databases), Slate reports its
/// own checks with the closest SQLite code: a NULL read into a non-optional value, a value of the
/// wrong type, or an integer that does not fit are ``ResultCode/mismatch``; a wrong parameter name
/// or count is ``ResultCode/range``; a query that returned no row where one was required is
/// ``ResultCode/notFound``.
///
/// The error carries the SQL it came from and, unless
/// ``Database/Configuration/includesArgumentsInErrors`` is off, the values bound to it.
public struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code, such as ``ResultCode/constraint``.
    public var resultCode: ResultCode { extendedResultCode.primary }
    /// The extended result code, such as ``ResultCode/constraintUnique``. Equal to the primary code
    /// when SQLite gives no further detail.
    public var extendedResultCode: ResultCode
    /// SQLite's message (or Slate's, for its own checks).
    public var message: String
    /// The SQL of the statement that failed, when there is one.
    public var sql: String?
    /// The values bound to the statement, in parameter order, when known and not disabled.
    public var arguments: [SQLValue]?
    /// For a statement refused before it ran because a dialect has no equivalent of one of its
    /// constructs (``SQL/rendered(for:)``): that dialect. The error is then not SQLite's.
    package var refusingDialect: SQLDialect?

    /// Creates an error.
    public init(
        resultCode: ResultCode,
        message: String,
        sql: String? = nil,
        arguments: [SQLValue]? = nil
    ) {
        self.extendedResultCode = resultCode
        self.message = message
        self.sql = sql
        self.arguments = arguments
    }

    /// A one-line description: code, message, SQL and arguments.
    public var description: String {
        var text =
            refusingDialect.map { "Not supported on \($0.name), refused before running: \(message)" }
            ?? "SQLite error \(extendedResultCode.rawValue): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        if let arguments, !arguments.isEmpty {
            text += " with arguments [" + arguments.map(\.shortDescription).joined(separator: ", ") + "]"
        }
        return text
    }
}

extension DatabaseError {
    /// Builds an error from the connection's current error state, right after a failing call.
    @usableFromInline
    package static func lastError(
        of connection: OpaquePointer?,
        code: Int32,
        sql: String? = nil,
        arguments: [SQLValue]? = nil
    ) -> DatabaseError {
        var extended = code
        var message = String(cString: sqlite3_errstr(code))
        if let connection {
            let connectionCode = sqlite3_extended_errcode(connection)
            // The connection's error state belongs to this failure only if its primary code agrees.
            if connectionCode & 0xFF == code & 0xFF {
                extended = connectionCode
                message = String(cString: sqlite3_errmsg(connection))
            }
        }
        let error = DatabaseError(
            resultCode: ResultCode(rawValue: extended), message: message, sql: sql, arguments: arguments)
        // Names the feature when the SQL needs a newer SQLite than the library in use.
        return sql == nil ? error : error.explainingUnavailableFeature()
    }
}
