/// SQL text with its arguments, built by string interpolation that binds values instead of
/// splicing them.
///
/// Every interpolated value becomes a `?` parameter:
///
/// ```swift
/// let name = "O'Brien"
/// try db.fetchAll(CopiedRow.self, "SELECT * FROM player WHERE name = \(name) AND score > \(10)")
/// // SQL: SELECT * FROM player WHERE name = ? AND score > ?   arguments: ["O'Brien", 10]
/// ```
///
/// Identifiers cannot be parameters; interpolate them with `\(identifier: tableName)`, which quotes
/// them. `\(sql: fragment)` embeds another `SQL` value with its arguments, and `\(raw: text)` inserts
/// trusted text as is (never use it with user input).
public struct SQL: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    /// The SQL text, with `?` where values go.
    public private(set) var text: String
    /// The values for the `?` parameters, in order, plus any named values.
    public private(set) var arguments: StatementArguments
    /// An error found while the SQL was built (a key that names no column, a record type without
    /// primary key): running the SQL throws it instead of running anything. Appending keeps the
    /// first error.
    public internal(set) var buildError: DatabaseError?
    /// The parts of ``text`` that another dialect writes differently (see ``SQLDialect``), in
    /// order, never overlapping; `nil` when the text is the same in every dialect.
    @usableFromInline package internal(set) var dialectSpans: [DialectSpan]?
    /// The rows of its one table a query built by the query layer reads, for live queries
    /// (`RowIDHint`). Only the query that sets it carries it: appending drops it.
    @usableFromInline package var rowIDHint: RowIDHint?

    /// Creates SQL from text and arguments given separately.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.text = sql
        self.arguments = arguments
        self.buildError = nil
        self.dialectSpans = nil
        self.rowIDHint = nil
    }

    /// SQL text that must not run: running it throws `error`.
    public init(sql: String, failing error: DatabaseError) {
        self.init(sql: sql)
        self.buildError = error
    }

    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(sql: stringInterpolation.text, arguments: stringInterpolation.arguments)
        self.buildError = stringInterpolation.buildError
        self.dialectSpans = stringInterpolation.dialectSpans
    }

    /// The SQL text, followed by a comment naming the build error, if any.
    public var description: String {
        guard let buildError else { return text }
        return text + " /* cannot run: " + buildError.message + " */"
    }

    /// Appends another fragment and its arguments.
    public mutating func append(_ other: SQL) {
        if let spans = other.dialectSpans {
            DialectSpan.append(
                spans, to: &dialectSpans, textOffset: text.utf8.count, argumentOffset: arguments.positional.count)
        }
        text += other.text
        arguments.append(contentsOf: other.arguments)
        if buildError == nil { buildError = other.buildError }
    }

    /// Throws the build error, if any.
    @inlinable
    public func checkBuildError() throws {
        if let buildError { throw buildError }
    }

    /// Joins fragments with a separator: `SQL.joined([a, b], separator: " AND ")`.
    public static func joined(_ fragments: [SQL], separator: String) -> SQL {
        var result = SQL(sql: "")
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.text += separator }
            result.append(fragment)
        }
        return result
    }

    /// Builds the text and arguments of an interpolated `SQL` literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        package var text = ""
        package var arguments = StatementArguments()
        package var buildError: DatabaseError?
        package var dialectSpans: [DialectSpan]?

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        /// Binds `value` as a parameter.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value) {
            text += "?"
            arguments.positional.append(value)
        }

        /// Binds `value` as a parameter, `NULL` when `nil`.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            text += "?"
            arguments.positional.append(value)
        }

        /// Inserts a quoted identifier: `"name"`, with embedded quotes doubled.
        public mutating func appendInterpolation(identifier: String) {
            text += identifier.quotedIdentifier
        }

        /// Inserts a qualified, quoted identifier such as `"main"."player"`.
        public mutating func appendInterpolation(identifier: String, qualifiedBy schema: String) {
            text += schema.quotedIdentifier + "." + identifier.quotedIdentifier
        }

        /// Embeds another SQL fragment with its arguments.
        public mutating func appendInterpolation(sql: SQL) {
            if let spans = sql.dialectSpans {
                DialectSpan.append(
                    spans, to: &dialectSpans, textOffset: text.utf8.count, argumentOffset: arguments.positional.count)
            }
            text += sql.text
            arguments.append(contentsOf: sql.arguments)
            if buildError == nil { buildError = sql.buildError }
        }

        /// Inserts trusted SQL text as is. Never pass user input.
        public mutating func appendInterpolation(raw: String) {
            text += raw
        }

        /// Binds every value of a list, separated by commas, for `IN (…)`.
        public mutating func appendInterpolation<Values: Sequence>(list values: Values)
        where Values.Element: SQLBindable {
            var first = true
            for value in values {
                text += first ? "?" : ", ?"
                first = false
                arguments.positional.append(value)
            }
            if first { text += "NULL" }  // `IN (NULL)` matches nothing, like an empty list should
        }
    }
}

extension String {
    /// The string as a quoted SQL identifier: wrapped in double quotes, inner quotes doubled.
    public var quotedIdentifier: String {
        // Most identifiers have no quote: skip the search-and-replace (and its Foundation bridging).
        guard utf8.contains(UInt8(ascii: "\"")) else { return "\"" + self + "\"" }
        var quoted = "\""
        quoted.reserveCapacity(utf8.count + 4)
        for character in unicodeScalars {
            if character == "\"" { quoted += "\"\"" } else { quoted.unicodeScalars.append(character) }
        }
        quoted += "\""
        return quoted
    }
}
