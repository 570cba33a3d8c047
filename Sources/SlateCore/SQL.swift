/// A statement or a part of one, with its values, built by string interpolation that binds values
/// instead of splicing them.
///
/// Every interpolated value becomes a parameter:
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
///
/// An `SQL` value is not text: it is a list of parts — text, bound values, identifiers, the tables
/// and columns of the query builder, and constructs that each dialect writes its own way — written
/// in a dialect only when the statement runs (``rendered(for:)``). ``text`` and ``arguments`` are
/// the statement written for SQLite.
public struct SQL: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable {
    /// The parts, in order.
    @usableFromInline package var segments: [SQLSegment]
    /// Values for named parameters (`:name`, `@name`, `$name`) of hand-written SQL, keyed by name
    /// without prefix.
    @usableFromInline package var namedArguments: [String: (any SQLBindable)?]
    /// The rows of its one table a query built by the query layer reads, for live queries
    /// (`RowIDHint`). Only the statement that sets it carries it: appending drops it.
    @usableFromInline package var rowIDHint: RowIDHint?

    /// SQL made of `segments`.
    @inlinable
    package init(segments: [SQLSegment]) {
        self.segments = segments
        self.namedArguments = [:]
        self.rowIDHint = nil
    }

    /// SQL made of one part.
    @inlinable
    package init(_ segment: SQLSegment) {
        self.init(segments: [segment])
    }

    /// Creates SQL from text and arguments given separately: the text's `?` placeholders (or named
    /// parameters) take the arguments, in order.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(segments: [.raw(sql, arguments.positional)])
        self.namedArguments = arguments.named
    }

    /// SQL text that must not run: running it throws `error`.
    public init(sql: String, failing error: DatabaseError) {
        self.init(segments: [.raw(sql, []), .failure(error)])
    }

    /// SQL text written as it is, with no value: `let all: SQL = "SELECT * FROM player"`.
    public init(stringLiteral value: String) {
        self.init(.text(value))
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(segments: stringInterpolation.segments)
        self.namedArguments = stringInterpolation.namedArguments
    }

    /// The SQL text, written for SQLite, with `?` where values go.
    public var text: String {
        SQLWriter<SQLiteRendering>.sqliteText(of: self)
    }

    /// The values for the `?` parameters of ``text``, in order, plus any named values.
    public var arguments: StatementArguments {
        StatementArguments(
            positional: SQLWriter<SQLiteRendering>.sqliteArguments(of: self), normalizedNamed: namedArguments)
    }

    /// An error found while the SQL was built (a key that names no column, a record type without
    /// primary key): running the SQL throws it instead of running anything. The first one, when
    /// there are several.
    public var buildError: DatabaseError? {
        SQLSegment.firstFailure(in: segments)
    }

    /// The SQL text, followed by a comment naming the build error, if any.
    public var description: String {
        let text = self.text
        guard let buildError else { return text }
        return text + " /* cannot run: " + buildError.message + " */"
    }

    /// Appends another fragment and its arguments.
    @inlinable
    public mutating func append(_ other: SQL) {
        segments.append(contentsOf: other.segments)
        if !other.namedArguments.isEmpty { namedArguments.merge(other.namedArguments) { _, last in last } }
    }

    /// Appends one part.
    @inlinable
    package mutating func append(_ segment: SQLSegment) {
        segments.append(segment)
    }

    /// Appends text written the same in every dialect.
    @inlinable
    package mutating func append(text: String) {
        segments.append(.text(text))
    }

    /// Throws the build error, if any.
    @inlinable
    public func checkBuildError() throws {
        if let buildError { throw buildError }
    }

    /// Joins fragments with a separator: `SQL.joined([a, b], separator: " AND ")`.
    public static func joined(_ fragments: [SQL], separator: String) -> SQL {
        var result = SQL(segments: [])
        for (index, fragment) in fragments.enumerated() {
            if index > 0 { result.segments.append(.text(separator)) }
            result.append(fragment)
        }
        return result
    }

    /// Builds the parts of an interpolated `SQL` literal.
    public struct StringInterpolation: StringInterpolationProtocol {
        @usableFromInline package var segments: [SQLSegment] = []
        /// The named values of the SQL fragments interpolated.
        @usableFromInline package var namedArguments: [String: (any SQLBindable)?] = [:]

        public init(literalCapacity: Int, interpolationCount: Int) {
            segments.reserveCapacity(2 * interpolationCount + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { segments.append(.text(literal)) }
        }

        /// Binds `value` as a parameter.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value) {
            segments.append(.binding(value))
        }

        /// Binds `value` as a parameter, `NULL` when `nil`.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            segments.append(.binding(value))
        }

        /// Inserts a quoted identifier: `"name"`, with embedded quotes doubled.
        public mutating func appendInterpolation(identifier: String) {
            segments.append(.identifier(identifier))
        }

        /// Inserts a qualified, quoted identifier such as `"main"."player"`.
        public mutating func appendInterpolation(identifier: String, qualifiedBy schema: String) {
            segments.append(.identifier(schema))
            segments.append(.text("."))
            segments.append(.identifier(identifier))
        }

        /// Embeds another SQL fragment with its arguments.
        public mutating func appendInterpolation(sql: SQL) {
            segments.append(contentsOf: sql.segments)
            if !sql.namedArguments.isEmpty { namedArguments.merge(sql.namedArguments) { _, last in last } }
        }

        /// Inserts trusted SQL text as is. Never pass user input.
        public mutating func appendInterpolation(raw: String) {
            segments.append(.raw(raw, []))
        }

        /// Binds every value of a list, separated by commas, for `IN (…)`.
        public mutating func appendInterpolation<Values: Sequence>(list values: Values)
        where Values.Element: SQLBindable {
            var first = true
            for value in values {
                if !first { segments.append(.text(", ")) }
                first = false
                segments.append(.binding(value))
            }
            if first { segments.append(.text("NULL")) }  // `IN (NULL)` matches nothing, like an empty list should
        }
    }
}

extension String {
    /// The string as a quoted SQL identifier: wrapped in double quotes, inner quotes doubled.
    public var quotedIdentifier: String {
        var quoted = ""
        quoted.appendQuotedIdentifier(self)
        return quoted
    }

    /// Appends `name` as a quoted SQL identifier: wrapped in double quotes, inner quotes doubled.
    @inlinable
    package mutating func appendQuotedIdentifier(_ name: some StringProtocol) {
        append("\"")
        // Most identifiers have no quote: append them whole.
        if name.utf8.contains(UInt8(ascii: "\"")) {
            for character in name.unicodeScalars {
                if character == "\"" { append("\"\"") } else { unicodeScalars.append(character) }
            }
        } else {
            append(contentsOf: name)
        }
        append("\"")
    }
}
