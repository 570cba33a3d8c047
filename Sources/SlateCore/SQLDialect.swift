/// The SQL language a statement is written in: SQLite's, or PostgreSQL's.
///
/// Slate builds one ``SQL`` value per statement, whatever the engine: a list of parts (text, bound
/// values, the builder's tables, columns and operators, and the constructs that engines write
/// differently), written in a dialect only when the statement runs. ``SQL/rendered(for:)`` writes
/// it:
///
/// ```swift
/// let query = SQL(sql: "SELECT * FROM \(identifier: "Track") WHERE \(identifier: "Name") = \("Go") LIMIT 1")
/// let postgres = try query.rendered(for: .postgreSQL)
/// // postgres.text: SELECT * FROM "Track" WHERE "Name" = $1 LIMIT 1
/// ```
///
/// Each dialect places parentheses by its own operator precedence, numbers its placeholders its
/// own way (on PostgreSQL, equal values share one), and writes the builder's constructs its own
/// way — or refuses one, with ``ResultCode/misuse``, before anything runs. For SQL of your own
/// that a dialect spells differently, use ``SQL/init(sqlite:postgreSQL:)`` (or
/// ``SQL/init(sqlite:unsupportedOnPostgreSQL:)``); all other SQL is shared.
public enum SQLDialect: String, Sendable, Hashable, CaseIterable {
    /// SQLite: `?` placeholders.
    case sqlite
    /// PostgreSQL: `$1`, `$2`, … placeholders and PostgreSQL's spelling of the constructs that
    /// differ.
    case postgreSQL
}

/// A statement written in one dialect: the text and its positional arguments, in order.
public struct RenderedSQL: Sendable {
    /// The SQL text.
    public var text: String
    /// The values of the placeholders, in order.
    public var arguments: [(any SQLBindable)?]

    /// A rendered statement.
    public init(text: String, arguments: [(any SQLBindable)?]) {
        self.text = text
        self.arguments = arguments
    }
}

extension SQL {
    /// SQL that PostgreSQL writes differently: `sqlite` on SQLite (it is this value's ``text``
    /// and arguments), `postgreSQL` on PostgreSQL. Both are written with `?` placeholders or
    /// interpolated values.
    ///
    /// ```swift
    /// SQL(sqlite: "instr(\(identifier: "Name"), \("x"))", postgreSQL: "strpos(\(identifier: "Name"), \("x"))")
    /// ```
    public init(sqlite: SQL, postgreSQL: SQL) {
        self.init(.alternatives(sqlite: sqlite, postgreSQL: .sql(postgreSQL)))
    }

    /// SQL that only SQLite understands: on PostgreSQL, rendering it throws an error saying
    /// `reason` (never wrong SQL).
    public init(sqlite: SQL, unsupportedOnPostgreSQL reason: String) {
        self.init(.alternatives(sqlite: sqlite, postgreSQL: .unsupported(reason)))
    }

    /// Whether the SQL is written the same in every dialect but for its placeholders: it holds
    /// no construct that a dialect writes its own way.
    public var isDialectNeutral: Bool {
        SQLSegment.isDialectNeutral(segments)
    }

    /// The statement written in `dialect`.
    ///
    /// On SQLite: `?` placeholders, and the arguments in their order. On PostgreSQL: `$1`, `$2`,
    /// … (a value equal to an earlier one, of the same type, takes its number), the builder's
    /// constructs in PostgreSQL's spelling, and operands parenthesized by PostgreSQL's precedence.
    /// In hand-written text (``init(sql:arguments:)``, a string literal, `\(raw:)`), every `?`
    /// outside string literals, quoted identifiers and comments is a placeholder; hand-written
    /// text that already uses `$1`, `$2`, … and no `?` is passed through with its arguments, so
    /// hand-written PostgreSQL works.
    ///
    /// - Throws: The build error, if any; ``DatabaseError`` with ``ResultCode/misuse`` for a
    ///   construct the dialect has no equivalent for (the message names it), and on PostgreSQL
    ///   for named or numbered (`?NNN`) parameters and for `?` mixed with `$n`;
    ///   ``ResultCode/range`` when hand-written text has another number of placeholders than of
    ///   arguments.
    public func rendered(for dialect: SQLDialect) throws -> RenderedSQL {
        switch dialect {
        case .sqlite:
            guard namedArguments.isEmpty else {
                throw DatabaseError(
                    resultCode: .misuse, message: "named parameters cannot be rendered as positional arguments",
                    sql: text)
            }
            let (text, arguments) = try sqliteStatement()
            return RenderedSQL(text: text, arguments: arguments)
        case .postgreSQL:
            return try SQLWriter<PostgreSQLRendering>.render(self)
        }
    }

    /// The statement written for SQLite, its positional arguments in order.
    ///
    /// - Throws: The build error, if any.
    @usableFromInline
    package func sqliteStatement() throws -> (text: String, arguments: [(any SQLBindable)?]) {
        // Hand-written SQL: as it is.
        if segments.count == 1, case .raw(let text, let arguments) = segments[0] { return (text, arguments) }
        if let plain = plainSQLiteStatement() { return plain }
        let rendered = try SQLWriter<SQLiteRendering>.render(self)
        return (rendered.text, rendered.arguments)
    }

    /// The statement when it is made of text and bound values only (an interpolation such as
    /// `"SELECT … WHERE id = \(id)"`), written as ``SQLWriter`` and ``SQLiteRendering`` write
    /// them, in one pass without the writer's state; `nil` for any other part. Each run of such a
    /// statement renders it, so the writer's setup was a cost of every lookup (Benchmarks/README.md,
    /// "The cost of a query value").
    private func plainSQLiteStatement() -> (text: String, arguments: [(any SQLBindable)?])? {
        var text = ""
        var arguments: [(any SQLBindable)?] = []
        for segment in segments {
            switch segment {
            case .text(let part):
                text += part
            case .binding(let value):
                text += "?"
                arguments.append(value)
            default:
                return nil
            }
        }
        return (text, arguments)
    }
}

extension SQLSegment {
    /// Whether no segment is written differently by some dialect.
    static func isDialectNeutral(_ segments: [SQLSegment]) -> Bool {
        for segment in segments {
            switch segment {
            case .text, .raw, .binding, .identifier, .column, .failure: continue
            case .construct, .alternatives, .operand: return false
            case .table(_, _, let source): if let source, !isDialectNeutral(source.segments) { return false }
            case .scope(_, let sql): if !isDialectNeutral(sql.segments) { return false }
            }
        }
        return true
    }
}

/// A dialect's renderings: its placeholders, its precedence, its spelling of each construct of the
/// builder (``SQLConstruct``), or its refusal. A dialect is one type conforming to this protocol,
/// in one file (`SQLiteRendering.swift`, `PostgreSQLRendering.swift`); the writer it drives
/// (`SQLWriter`) writes everything the dialects share.
package protocol SQLDialectRendering {
    /// The dialect, for messages.
    static var dialect: SQLDialect { get }
    /// The level of `precedence` in the dialect's order: larger binds more tightly.
    static func level(of precedence: SQLPrecedence) -> Int
    /// Writes a placeholder for a bound value.
    static func writeBinding(_ value: (any SQLBindable)?, to writer: inout SQLWriter<Self>)
    /// Writes hand-written text with `?` placeholders, whose values are `values`, in order.
    static func writeRaw(_ text: String, values: [(any SQLBindable)?], to writer: inout SQLWriter<Self>) throws
    /// Writes a construct of the builder, or throws ``ResultCode/misuse`` when the dialect has
    /// none.
    static func write(_ construct: SQLConstruct, to writer: inout SQLWriter<Self>) throws
    /// Writes SQL given with an alternative for PostgreSQL (``SQL/init(sqlite:postgreSQL:)``).
    static func writeAlternatives(sqlite: SQL, postgreSQL: DialectAlternative, to writer: inout SQLWriter<Self>)
        throws
    /// Checks the written statement, and its arguments, once every part is written.
    static func finish(_ writer: inout SQLWriter<Self>) throws
}

/// Writes an ``SQL`` value in one dialect: text, placeholders and arguments.
///
/// The writer walks the parts of the statement once. What every dialect writes alike is here:
/// text, quoted identifiers, the aliases of the builder's tables (see ``SQLScope``), and
/// parentheses around operands, placed by the dialect's precedence. The rest it asks the dialect.
package struct SQLWriter<Rendering: SQLDialectRendering> {
    /// The text so far.
    package var text = ""
    /// The values of the placeholders so far, in order.
    package var arguments: [(any SQLBindable)?] = []
    /// Whether failures throw. Without, they write nothing: the statement's text for display.
    package let throwsFailures: Bool
    /// Whether columns are written with their table's name or alias (not in a compound's
    /// ordering, on dialects that sort it by result column names).
    package var qualifiesColumns = true
    /// The statement being written, for error messages.
    package let statement: SQL
    /// The qualifiers of the tables of the statement levels being written, outermost first, and
    /// the names they are written as.
    private var tables: [(qualifier: String, name: String)] = []

    // Dialect state (PostgreSQL's): placeholder numbering and hand-written text.

    /// The values bound so far, with their placeholder numbers, for sharing a number between
    /// equal values.
    package var numberedValues: [(type: ObjectIdentifier, value: SQLValue, number: Int)] = []
    /// The values of the hand-written text, in order, and how many its placeholders took.
    package var rawValues: [(any SQLBindable)?] = []
    package var rawValuesTaken = 0
    /// Whether hand-written text used `$n` parameters, and whether the statement has other
    /// placeholders.
    package var sawNumberedParameter = false
    package var sawPlaceholder = false

    package init(statement: SQL, throwsFailures: Bool = true) {
        self.statement = statement
        self.throwsFailures = throwsFailures
    }

    /// `sql` written in the dialect.
    package static func render(_ sql: SQL) throws -> RenderedSQL {
        var writer = SQLWriter(statement: sql)
        try writer.write(sql)
        try Rendering.finish(&writer)
        return RenderedSQL(text: writer.text, arguments: writer.arguments)
    }

    /// Writes every part of `sql`.
    package mutating func write(_ sql: SQL) throws {
        for segment in sql.segments { try write(segment) }
    }

    /// Writes one part.
    package mutating func write(_ segment: SQLSegment) throws {
        switch segment {
        case .text(let text):
            self.text += text
        case .raw(let text, let values):
            try Rendering.writeRaw(text, values: values, to: &self)
        case .binding(let value):
            Rendering.writeBinding(value, to: &self)
        case .identifier(let name):
            text.appendQuotedIdentifier(name)
        case .column(let qualifier, let name):
            if !qualifier.isEmpty && qualifiesColumns {
                text.appendQuotedIdentifier(tableName(qualifier))
                text += "."
            }
            text.appendQuotedIdentifier(name)
        case .table(let name, let qualifier, let source):
            let written = tableName(qualifier)
            if let source {
                try write(source)
                text += " AS "
                text.appendQuotedIdentifier(written)
            } else {
                text.appendQuotedIdentifier(name)
                if written != name {
                    text += " AS "
                    text.appendQuotedIdentifier(written)
                }
            }
        case .scope(let qualifiers, let sql):
            let outer = tables.count
            enter(qualifiers)
            defer { tables.removeSubrange(outer...) }
            try write(sql)
        case .operand(let operand):
            let own = Rendering.level(of: operand.precedence)
            let parent = Rendering.level(of: operand.parent)
            if own < parent || (operand.parenthesizesEqual && own == parent) {
                text += "("
                try write(operand.sql)
                text += ")"
            } else {
                try write(operand.sql)
            }
        case .construct(let construct):
            try Rendering.write(construct, to: &self)
        case .alternatives(let sqlite, let postgreSQL):
            try Rendering.writeAlternatives(sqlite: sqlite, postgreSQL: postgreSQL, to: &self)
        case .failure(let error):
            if throwsFailures { throw error }
        }
    }

    /// Appends a value's placeholder and the value, SQLite's way (`?`).
    package mutating func appendPlaceholder(_ value: (any SQLBindable)?) {
        text += "?"
        arguments.append(value)
    }

    /// Enters a statement level: its tables take their names, the table's own unless an
    /// enclosing level took it.
    private mutating func enter(_ qualifiers: [String]) {
        let outer = tables.count
        for qualifier in qualifiers {
            guard SQLScope.isScoped(qualifier) else {
                tables.append((qualifier, qualifier))
                continue
            }
            if tables[outer...].contains(where: { $0.qualifier == qualifier }) { continue }
            let base = SQLScope.name(of: qualifier)
            var name = String(base)
            var number = 2
            while tables[..<outer].contains(where: { $0.name.equalsIgnoringASCIICase(name) }) {
                name = String(base) + "_" + String(number)
                number += 1
            }
            tables.append((qualifier, name))
        }
    }

    /// The name a qualifier is written as: a scoped qualifier's table alias at its level, or the
    /// table name where the level is not being written.
    private func tableName(_ qualifier: String) -> String {
        guard SQLScope.isScoped(qualifier) else { return qualifier }
        for table in tables.reversed() where table.qualifier == qualifier { return table.name }
        return String(SQLScope.name(of: qualifier))
    }

    /// The misuse error of a construct the dialect has no equivalent of: it names the construct as
    /// SQLite writes it, and says `reason`.
    package func refusal(of construct: SQLSegment, _ reason: String) -> DatabaseError {
        var sqlite = SQLWriter<SQLiteRendering>(statement: statement, throwsFailures: false)
        try? sqlite.write(construct)
        let name = sqlite.text.trimmingSpaces.truncatedForMessages
        var error = DatabaseError(
            resultCode: .misuse, message: "\(Rendering.dialect.name) has no equivalent of `\(name)`: \(reason)",
            sql: statement.text)
        error.refusingDialect = Rendering.dialect
        return error
    }
}

extension SQLWriter where Rendering == SQLiteRendering {
    /// The text of `sql` for SQLite, failures written as nothing.
    package static func sqliteText(of sql: SQL) -> String {
        if sql.segments.count == 1, case .raw(let text, _) = sql.segments[0] { return text }
        var writer = SQLWriter(statement: sql, throwsFailures: false)
        try? writer.write(sql)
        return writer.text
    }

    /// The positional arguments of `sql` for SQLite, in order.
    package static func sqliteArguments(of sql: SQL) -> [(any SQLBindable)?] {
        if sql.segments.count == 1, case .raw(_, let arguments) = sql.segments[0] { return arguments }
        var writer = SQLWriter(statement: sql, throwsFailures: false)
        try? writer.write(sql)
        return writer.arguments
    }
}

extension SQLDialect {
    /// The dialect's name, for messages.
    package var name: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgreSQL: "PostgreSQL"
        }
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingSpaces: String {
        var slice = self[...]
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }

    /// Whether the string equals `other`, ignoring the case of ASCII letters (as SQLite compares
    /// identifiers).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        return zip(utf8, other.utf8).allSatisfy { lhs, rhs in
            lhs == rhs
                || (lhs | 0x20 == rhs | 0x20 && (lhs | 0x20) >= UInt8(ascii: "a") && (lhs | 0x20) <= UInt8(ascii: "z"))
        }
    }
}
