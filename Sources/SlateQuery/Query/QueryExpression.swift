import Foundation
import SlateConcurrency
import SlateCore

/// An SQL expression whose result has the Swift type ``QueryValue``: a ``Column``, an operator
/// applied to expressions and values, a function call, an aggregate, a scalar subquery.
///
/// The query builder's operators are defined on this protocol, with constraints on `QueryValue`,
/// so mistakes are compile errors: `$0.name == 5` does not compile when `name` is a
/// `Column<Person, String>`.
///
/// An expression renders as an ``SQL`` fragment, text with `?` placeholders plus the values bound to
/// them. Expressions compose by concatenating fragments; an operand is parenthesized when its
/// ``queryPrecedence`` binds less tightly than the operator that uses it.
public protocol QueryExpression<QueryValue>: OrderingTerm, Sendable {
    /// The Swift type of the expression's value.
    associatedtype QueryValue

    /// The expression's SQL text and bound values.
    var queryFragment: SQL { get }

    /// How tightly the expression's top-level operator binds, which decides whether it needs
    /// parentheses inside another expression. The default, ``SQLPrecedence/lowest``, always
    /// parenthesizes: right for any SQL text.
    var queryPrecedence: SQLPrecedence { get }

    /// How the expression's values are stored, when by other rules than their own value protocols
    /// (a column declared with a date strategy or UUID storage): values compared with the
    /// expression are bound the same way. Default `nil`.
    var valueStorage: ColumnStorage? { get }
}

extension QueryExpression {
    /// ``SQLPrecedence/lowest``: the expression is parenthesized whenever it is an operand.
    public var queryPrecedence: SQLPrecedence { .lowest }

    /// `nil`: values are stored by their own value protocols.
    public var valueStorage: ColumnStorage? { nil }

    /// `value` bound as this expression stores its values: `?`, or `? COLLATE NOCASE` on SQLite
    /// for a UUID stored as text (``comparesUUIDText``).
    func bound(_ value: QueryValue) -> SQL where QueryValue: SQLBindable {
        var sql = boundArgument(value)
        if comparesUUIDText { sql.append(uuidTextCollation()) }
        return sql
    }

    /// `value` bound as this expression stores its values: `?`, never collated (an element of an
    /// `IN` list, whose collation is the left operand's).
    func boundArgument(_ value: QueryValue) -> SQL where QueryValue: SQLBindable {
        SQL(.binding(valueStorage.map { $0.argument(value) } ?? value))
    }

    /// Whether the expression's values are UUIDs stored as text, which are compared without regard
    /// to letter case: Slate writes lowercase (RFC 9562's form), older versions of Slate wrote
    /// uppercase, and other tools write either. A comparison with a value (`==`, `!=`, `IS`, `<`…)
    /// binds `? COLLATE NOCASE` and a membership test is `expression COLLATE NOCASE IN (…)`: in a
    /// column declared `COLLATE NOCASE` (as Slate declares them) the index still serves the
    /// lookup; in one declared without, no row is missed. PostgreSQL's `uuid` type compares values,
    /// so it gets neither.
    var comparesUUIDText: Bool {
        guard QueryValue.self == UUID.self || QueryValue.self == UUID?.self else { return false }
        return valueStorage != .uuid(.blob)
    }

    /// The left operand of `IN (…)`, whose collation SQLite uses for the whole list: collated
    /// `NOCASE` for UUIDs stored as text (``comparesUUIDText``).
    func membershipOperand() -> SQL {
        guard comparesUUIDText else { return operandFragment(of: .membership, orEqual: true) }
        var sql = operandFragment(of: .collate, orEqual: true)
        sql.append(uuidTextCollation())
        return sql
    }

    /// Sorting by an expression sorts ascending, NULLs first (as SQLite does, in every dialect).
    public var orderingFragment: SQL {
        SQL(.construct(.ordering(queryFragment, descending: nil, nullsFirst: nil, nullable: isNullable)))
    }

    /// Whether the expression can be NULL: a column says so by its schema, another expression by
    /// its value type.
    var isNullable: Bool {
        (self as? any NullabilityKnowing)?.canBeNull ?? (QueryValue.self is any OptionalQueryValue.Type)
    }

    /// The fragment as an operand of an operator of `precedence`: each dialect parenthesizes it
    /// when it binds less tightly than the operator (or as tightly, when `orEqual` is set, for the
    /// right operand of a left-associative operator).
    func operandFragment(of precedence: SQLPrecedence, orEqual: Bool = false) -> SQL {
        let own = queryPrecedence
        // An atom is never parenthesized.
        if own.kind == .atomic && !(orEqual && precedence.kind == .atomic) { return queryFragment }
        return SQL(
            .operand(SQLOperand(queryFragment, precedence: own, parent: precedence, parenthesizesEqual: orEqual)))
    }
}

/// A typed SQL expression: what the operators, functions and aggregates return, and the escape
/// hatch for SQL the builder does not cover.
///
/// ```swift
/// // Raw SQL with bound values, typed as a predicate:
/// let hasTag = SQLExpression<Bool>(sql: "json_extract(data, '$.tag') = \(tag)")
/// // A column may be interpolated too:
/// Person.where { SQLExpression<Bool>(sql: "instr(\($0.name), \("x")) > 0") }
/// ```
public struct SQLExpression<QueryValue>: QueryExpression, Sendable {
    /// The expression's SQL text and bound values.
    public var queryFragment: SQL
    /// How tightly the expression binds.
    public var queryPrecedence: SQLPrecedence
    /// For a condition, the rowids of its table it pins, for live queries (`RowIDHints.swift`).
    var rowIDHint: RowIDHint?

    /// Wraps SQL text with bound values, such as `"json_extract(data, '$.x') = \(value)"`.
    ///
    /// The fragment is parenthesized whenever it is used as an operand, which is always correct.
    public init(sql: SQL) {
        self.queryFragment = sql
        self.queryPrecedence = .lowest
    }

    /// Wraps SQL text whose top-level operator has the given precedence.
    public init(sql: SQL, precedence: SQLPrecedence) {
        self.queryFragment = sql
        self.queryPrecedence = precedence
    }

    /// Erases the type of another expression with the same value type.
    public init(_ expression: some QueryExpression<QueryValue>) {
        self.queryFragment = expression.queryFragment
        self.queryPrecedence = expression.queryPrecedence
        self.rowIDHint = (expression as? SQLExpression<QueryValue>)?.rowIDHint
    }

    /// A bound value: renders as `?` (`$n` on PostgreSQL).
    public init(value: QueryValue) where QueryValue: SQLBindable {
        self.queryFragment = SQL(.binding(value))
        self.queryPrecedence = .atomic
    }
}

extension SQLExpression where QueryValue == Bool {
    /// A condition of either boolean type, as a clause stores it: `NULL` and false both reject a
    /// row. Keeps the rowids a condition pins (`RowIDHints.swift`).
    init(condition: some QueryExpression<some BooleanQueryValue>) {
        self.init(sql: condition.queryFragment, precedence: condition.queryPrecedence)
        self.rowIDHint = (condition as? any RowIDHinting)?.rowIDHint
    }
}

/// An expression that may carry a rowid hint: ``SQLExpression`` of any value type.
protocol RowIDHinting {
    var rowIDHint: RowIDHint? { get }
}

extension SQLExpression: RowIDHinting {}

extension SQLExpression: CustomStringConvertible {
    /// The SQL text.
    public var description: String { queryFragment.text }
}

extension SQL.StringInterpolation {
    /// Embeds a query expression, such as a column, with its bound values; parenthesized unless it
    /// is atomic: `SQLExpression<Bool>(sql: "instr(\($0.name), \("x")) > 0")`.
    public mutating func appendInterpolation(_ expression: some QueryExpression) {
        appendInterpolation(sql: expression.operandFragment(of: .atomic))
    }
}

// MARK: - Value kinds

/// The value types of numeric expressions: integers, floating point, and their optionals.
/// Arithmetic operators, `sum()` and `avg()` require it.
public protocol NumericQueryValue {}

/// The value types of integer expressions: the integer types and their optionals. `%` requires
/// it.
public protocol IntegerQueryValue: NumericQueryValue {}

/// The value types of text expressions: `String` and `String?`. `LIKE`, `GLOB`, `hasPrefix` and the
/// text functions require it.
public protocol TextQueryValue: SQLExtractable {}

/// The value types of conditions: `Bool`, and `Bool?` for a condition that SQL can evaluate to
/// `NULL` (a comparison with a nullable column: `NULL` when the column is). `where`, `having`,
/// join conditions, `CASE WHEN` and the logical operators accept both; selected, a condition
/// decodes as its own type.
public protocol BooleanQueryValue: SQLExtractable {}

extension Bool: BooleanQueryValue {}
extension Optional: BooleanQueryValue where Wrapped == Bool {}

/// `Optional`, seen as a query value type: `??`, `coalesce` and aggregates use it to avoid
/// double optionals.
public protocol OptionalQueryValue {
    /// The non-optional type.
    associatedtype Wrapped
    /// Whether the value is `nil`.
    var _slateIsNil: Bool { get }
}

extension Optional: OptionalQueryValue {
    /// Whether the value is `nil`.
    public var _slateIsNil: Bool {
        if case .none = self { return true }
        return false
    }
}

extension OptionalQueryValue {
    var isNone: Bool { _slateIsNil }
}

extension Int: IntegerQueryValue {}
extension Int8: IntegerQueryValue {}
extension Int16: IntegerQueryValue {}
extension Int32: IntegerQueryValue {}
extension Int64: IntegerQueryValue {}
extension UInt: IntegerQueryValue {}
extension UInt8: IntegerQueryValue {}
extension UInt16: IntegerQueryValue {}
extension UInt32: IntegerQueryValue {}
extension UInt64: IntegerQueryValue {}
extension Double: NumericQueryValue {}
extension Float: NumericQueryValue {}
extension Optional: NumericQueryValue where Wrapped: NumericQueryValue {}
extension Optional: IntegerQueryValue where Wrapped: IntegerQueryValue {}

extension String: TextQueryValue {}
extension Optional: TextQueryValue where Wrapped == String {}

// MARK: - Building fragments

/// Concatenates fragments and their arguments.
func sqlConcat(_ parts: SQL...) -> SQL {
    var result = SQL(segments: [])
    for part in parts { result.append(part) }
    return result
}

extension SQL {
    /// Text the builder writes the same in every dialect.
    init(text: String) {
        self.init(.text(text))
    }
}

/// ` COLLATE NOCASE` on SQLite, nothing on PostgreSQL: how UUIDs stored as text are compared
/// (``QueryExpression/comparesUUIDText``).
func uuidTextCollation() -> SQL {
    SQL(.construct(.uuidTextCollation))
}

/// `value` as an expression, bound as `expression` stores its values.
func boundValue<E: QueryExpression>(_ value: E.QueryValue, as expression: E) -> SQLExpression<E.QueryValue>
where E.QueryValue: SQLBindable {
    SQLExpression(sql: expression.bound(value), precedence: expression.comparesUUIDText ? .collate : .atomic)
}

/// `lhs op rhs`, parenthesizing operands as each dialect's precedence requires.
///
/// Left-associative operators parenthesize a right operand of the same precedence; associative
/// ones (`AND`, `OR`) never need to; non-associative ones (comparisons) parenthesize both sides.
func infix<Result>(
    _ lhs: some QueryExpression, _ op: String, _ rhs: some QueryExpression,
    precedence: SQLPrecedence, associativity: InfixAssociativity = .left
) -> SQLExpression<Result> {
    infix(lhs, SQL(text: op), rhs, precedence: precedence, associativity: associativity)
}

/// `lhs op rhs` with an operator whose spelling depends on the dialect.
func infix<Result>(
    _ lhs: some QueryExpression, _ op: SQL, _ rhs: some QueryExpression,
    precedence: SQLPrecedence, associativity: InfixAssociativity = .none
) -> SQLExpression<Result> {
    var sql = lhs.operandFragment(of: precedence, orEqual: associativity == .none)
    sql.append(op)
    sql.append(rhs.operandFragment(of: precedence, orEqual: associativity != .associative))
    return SQLExpression(sql: sql, precedence: precedence)
}

/// How an infix operator groups with neighbours of the same precedence.
enum InfixAssociativity {
    case left, associative, none
}

/// `operand op`, for postfix operators such as `IS NULL` and `COLLATE`.
func postfix<Result>(_ operand: some QueryExpression, _ op: SQL, precedence: SQLPrecedence) -> SQLExpression<Result> {
    var sql = operand.operandFragment(of: precedence, orEqual: true)
    sql.append(op)
    return SQLExpression(sql: sql, precedence: precedence)
}

/// `name(arguments)`: a function call, atomic.
func functionCall<Result>(_ name: String, _ arguments: [SQL]) -> SQLExpression<Result> {
    var sql = SQL(text: name + "(")
    sql.append(SQL.joined(arguments, separator: ", "))
    sql.append(text: ")")
    return SQLExpression(sql: sql, precedence: .atomic)
}

/// A construct each dialect writes its own way, as an expression of `precedence`.
func construct<Result>(_ construct: SQLConstruct, precedence: SQLPrecedence = .atomic) -> SQLExpression<Result> {
    SQLExpression(sql: SQL(.construct(construct)), precedence: precedence)
}

/// `expression` on SQLite; other dialects, which have no exact equivalent, refuse it before
/// anything runs, saying why (never SQLite's SQL sent to another engine).
func sqliteOnly<Result>(_ expression: SQLExpression<Result>, _ feature: SQLiteOnlyFeature) -> SQLExpression<Result> {
    SQLExpression(
        sql: SQL(.construct(.sqliteOnly(expression.queryFragment, feature))), precedence: expression.queryPrecedence)
}

/// An integer argument, bound: `?` on SQLite, `CAST(? AS integer)` on PostgreSQL, whose functions
/// such as `ntile`, `lag` and `substr` take an `integer` where Slate binds an `int8`.
func integerArgument(_ value: Int) -> SQL {
    SQL(.construct(.integerArgument(value)))
}
