import CSQLite

/// A part of an ``SQL`` value. A statement is a list of them, nested where a part holds SQL of its
/// own (an operand, a statement level, a construct); the dialect writer turns them into text and
/// parameters when the statement runs (`SQLWriter`).
@usableFromInline
package enum SQLSegment: Sendable {
    /// Text written as it is in every dialect: the builder's keywords and operators, the literal
    /// parts of an interpolation, a string literal. A `?` in it is no placeholder of Slate's.
    case text(String)
    /// Text written by hand, with `?` placeholders (or PostgreSQL's `$1`, …) and the values they
    /// take, in order. PostgreSQL's writer numbers its placeholders.
    case raw(String, [(any SQLBindable)?])
    /// A bound value: `?` on SQLite, `$n` on PostgreSQL.
    case binding((any SQLBindable)?)
    /// An identifier, quoted when written.
    case identifier(String)
    /// A column of a table of the statement: `"qualifier"."name"` (`"name"` when the qualifier is
    /// empty). A qualifier made by ``SQLScope`` names a table at one statement level, and is
    /// written as the alias that table takes in the rendered statement.
    case column(qualifier: String, name: String)
    /// A table in a `FROM` clause: `"name"`, or `"name" AS "alias"` when its qualifier is written
    /// otherwise; with a source (a table-valued function call), `source AS "alias"`.
    indirect case table(name: String, qualifier: String, source: SQL?)
    /// One statement level (a `SELECT`, `UPDATE` or `DELETE`): the qualifiers of its tables, which
    /// take their aliases here, and its SQL.
    indirect case scope(qualifiers: [String], SQL)
    /// An operand of an operator, parenthesized as the dialect's precedence requires.
    indirect case operand(SQLOperand)
    /// A construct each dialect writes its own way.
    indirect case construct(SQLConstruct)
    /// SQL written one way on SQLite and another (or not at all) on PostgreSQL, given by the user
    /// (``SQL/init(sqlite:postgreSQL:)``).
    indirect case alternatives(sqlite: SQL, postgreSQL: DialectAlternative)
    /// An error found while building: writing the statement in any dialect throws it. Writes no
    /// text.
    indirect case failure(DatabaseError)

    /// The first failure in `segments`, depth first, in every dialect's parts.
    package static func firstFailure(in segments: [SQLSegment]) -> DatabaseError? {
        for segment in segments {
            switch segment {
            case .text, .raw, .binding, .identifier, .column:
                continue
            case .failure(let error):
                return error
            case .table(_, _, let source):
                if let error = source.flatMap({ firstFailure(in: $0.segments) }) { return error }
            case .scope(_, let sql):
                if let error = firstFailure(in: sql.segments) { return error }
            case .operand(let operand):
                if let error = firstFailure(in: operand.sql.segments) { return error }
            case .construct(let construct):
                for part in construct.parts {
                    if let error = firstFailure(in: part.segments) { return error }
                }
            case .alternatives(let sqlite, let postgreSQL):
                if let error = firstFailure(in: sqlite.segments) { return error }
                if case .sql(let alternative) = postgreSQL, let error = firstFailure(in: alternative.segments) {
                    return error
                }
            }
        }
        return nil
    }
}

/// PostgreSQL's version of a construct given by the user: its SQL, or why it has none.
@usableFromInline
package indirect enum DialectAlternative: Sendable {
    case sql(SQL)
    case unsupported(String)
}

/// An operand of an operator: parenthesized when, by the dialect's precedence rules, it binds less
/// tightly than the operator (or as tightly, when `parenthesizesEqual`).
@usableFromInline
package struct SQLOperand: Sendable {
    /// The operand.
    package var sql: SQL
    /// How tightly the operand's own top-level operator binds.
    package var precedence: SQLPrecedence
    /// The operator it is an operand of.
    package var parent: SQLPrecedence
    /// Whether an operand of the parent's own precedence is parenthesized too: the right operand
    /// of a left-associative operator, any operand of a non-associative one, the operand of a
    /// postfix one.
    package var parenthesizesEqual: Bool

    package init(_ sql: SQL, precedence: SQLPrecedence, parent: SQLPrecedence, parenthesizesEqual: Bool) {
        self.sql = sql
        self.precedence = precedence
        self.parent = parent
        self.parenthesizesEqual = parenthesizesEqual
    }
}

/// How tightly an SQL operator binds: the operator's kind, whose place in the order each dialect
/// decides (SQLite's and PostgreSQL's differ: PostgreSQL puts `=` and `<` at one level, `IN` and
/// `LIKE` above them and `IS` below), and its level in SQLite's order (``rawValue``).
public struct SQLPrecedence: Comparable, Hashable, Sendable {
    /// The level in SQLite's order: larger binds more tightly.
    public var rawValue: Int
    /// The operator's kind, for the dialects whose order differs from SQLite's.
    package var kind: Kind

    /// The kinds of operators, as every dialect's precedence tells them apart.
    package enum Kind: Sendable {
        case lowest, or, and, not, nullTest, equality, comparison, membership, emptyMembership, additive
        case multiplicative
        case concatenation, collate, prefix, atomic
        /// A level made with ``SQLPrecedence/init(rawValue:)``: its kind is unknown.
        case custom
    }

    /// Creates a precedence level in SQLite's order. On other dialects, an expression with this
    /// precedence is parenthesized whenever it is an operand (unless it is ``atomic``'s level or
    /// above).
    public init(rawValue: Int) {
        self.rawValue = rawValue
        self.kind = .custom
    }

    package init(_ kind: Kind, _ rawValue: Int) {
        self.rawValue = rawValue
        self.kind = kind
    }

    /// Unknown SQL, such as a raw fragment: always parenthesized as an operand.
    public static let lowest = SQLPrecedence(.lowest, 0)
    /// `OR`.
    public static let or = SQLPrecedence(.or, 10)
    /// `AND`.
    public static let and = SQLPrecedence(.and, 20)
    /// Prefix `NOT`.
    public static let not = SQLPrecedence(.not, 30)
    /// `IS`, `IS NOT`, `IS NULL`, `IS NOT NULL`: SQLite's level of `=`, PostgreSQL's below it.
    public static let nullTest = SQLPrecedence(.nullTest, 40)
    /// `=` and `<>`.
    public static let equality = SQLPrecedence(.equality, 40)
    /// `IN`, `BETWEEN`, `LIKE`, `GLOB`, `MATCH`: SQLite's level of `=`, PostgreSQL's above it.
    public static let membership = SQLPrecedence(.membership, 40)
    /// `IN ()` and `NOT IN ()` of an empty list: SQLite's level of `=`; on PostgreSQL, which writes
    /// them `= ANY('{}')` and `<> ALL('{}')`, the level of `=` too (below `IN`).
    package static let emptyMembership = SQLPrecedence(.emptyMembership, 40)
    /// `<`, `<=`, `>`, `>=`: above `=` on SQLite, at its level on PostgreSQL.
    public static let comparison = SQLPrecedence(.comparison, 50)
    /// `+` and `-`.
    public static let additive = SQLPrecedence(.additive, 60)
    /// `*`, `/` and `%`.
    public static let multiplicative = SQLPrecedence(.multiplicative, 70)
    /// `||` and `->>`: above `*` on SQLite, below `+` on PostgreSQL.
    public static let concatenation = SQLPrecedence(.concatenation, 80)
    /// Postfix `COLLATE`.
    public static let collate = SQLPrecedence(.collate, 90)
    /// Prefix `-` and `+`.
    public static let prefix = SQLPrecedence(.prefix, 95)
    /// A column, a bound value, a function call, a parenthesized expression or a subquery.
    public static let atomic = SQLPrecedence(.atomic, 100)

    /// Whether `lhs` binds less tightly than `rhs` in SQLite's order.
    public static func < (lhs: SQLPrecedence, rhs: SQLPrecedence) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether two levels are the same in SQLite's order.
    public static func == (lhs: SQLPrecedence, rhs: SQLPrecedence) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// The qualifiers of the query builder's statement levels.
///
/// A correlated subquery names the outer query's columns, qualified by their table; had the
/// subquery the same table under the same name, SQL would resolve that name to the inner table.
/// So each statement level of the builder (a `Select`, an `Update`, a `Delete`) gets a number of
/// its own, and qualifies its tables' columns with the table name and that number. When the
/// statement is written, the outermost level that names a table keeps its name, and an inner
/// level naming it again takes an alias (`"Employee" AS "Employee_2"`), for its `FROM` clause and
/// for its own columns, while the outer level's columns used inside keep the outer name. Where a
/// level is written on its own, its columns take the table name.
///
/// An explicit alias (`TableAlias`, `aliased(_:)`, `join(_:as:on:)`) is a plain qualifier: it is
/// written as it is.
@usableFromInline
package enum SQLScope {
    /// The byte that separates a table name from its level's number in a qualifier.
    static let separator = UInt8(1)

    /// A number no other statement level of the process has.
    @inlinable
    package static func next() -> UInt64 {
        slate_next_query_scope()
    }

    /// The qualifier of table `name` at statement level `scope`; `name` itself for level 0.
    package static func qualifier(_ name: String, scope: UInt64) -> String {
        scope == 0 ? name : name + "\u{1}" + String(scope)
    }

    /// The table name or alias of a qualifier, without its level's number.
    package static func name(of qualifier: String) -> Substring {
        guard let end = qualifier.utf8.firstIndex(of: separator) else { return qualifier[...] }
        return qualifier[..<end]
    }

    /// Whether the qualifier names a table at a statement level (rather than an explicit alias).
    package static func isScoped(_ qualifier: String) -> Bool {
        qualifier.utf8.contains(separator)
    }
}
