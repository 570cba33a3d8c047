import SlateConcurrency
import SlateCore

// Comparison, logical and arithmetic operators on query expressions.
//
// The comparison and arithmetic operators are generic functions constrained on `QueryExpression`,
// with no overload on literal types: the Swift type checker resolves a literal against the
// expression's `QueryValue` in one step, which keeps long predicates fast to compile. Each comparison has four overloads:
// expression and value, two expressions of the same type, and two expressions differing only by
// optionality (a nullable foreign key compared with the key it references).

// MARK: - Comparison helpers

/// `lhs op ?`, or `lhs IS [NOT] NULL` when the value is `nil` and `nullOperator` is given.
func comparison<L: QueryExpression, Result>(
    _ lhs: L, _ op: String, _ value: L.QueryValue, nullOperator: String? = nil, precedence: SQLPrecedence
) -> SQLExpression<Result> where L.QueryValue: SQLBindable {
    if let nullOperator, let optional = value as? any OptionalQueryValue, optional.isNone {
        return postfix(lhs, SQL(text: nullOperator), precedence: .nullTest)
    }
    return infix(lhs, op, boundValue(value, as: lhs), precedence: precedence, associativity: .none)
}

/// `lhs op rhs` for two expressions.
func comparison<Result>(
    _ lhs: some QueryExpression, _ op: String, _ rhs: some QueryExpression, precedence: SQLPrecedence
) -> SQLExpression<Result> {
    infix(lhs, op, rhs, precedence: precedence, associativity: .none)
}

// A comparison is `NULL` when an operand is: its type is `Bool` for non-optional operands and
// `Bool?` otherwise (`SQLExtractable.SQLCondition`), so that selecting it is truthful. Conditions
// of either type are accepted by `where`, `having`, `on`, `CASE WHEN` and the logical operators.

// MARK: - Equality

/// `lhs = ?`; comparing with `nil` renders `lhs IS NULL`.
public func == <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue: SQLBindable & SQLExtractable {
    comparison(lhs, " = ", rhs, nullOperator: " IS NULL", precedence: .equality).pinningRowIDs(
        of: lhs, to: CollectionOfOne(rhs))
}

/// `lhs = rhs` for two expressions of the same type.
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue == R.QueryValue, L.QueryValue: SQLExtractable {
    comparison(lhs, " = ", rhs, precedence: .equality)
}

/// `lhs = rhs` for an optional expression and a non-optional one of the same wrapped type.
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue == R.QueryValue? {
    comparison(lhs, " = ", rhs, precedence: .equality)
}

/// `lhs = rhs` for a non-optional expression and an optional one of the same wrapped type.
public func == <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue? == R.QueryValue {
    comparison(lhs, " = ", rhs, precedence: .equality)
}

/// `lhs <> ?`; comparing with `nil` renders `lhs IS NOT NULL`.
public func != <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue: SQLBindable & SQLExtractable {
    comparison(lhs, " <> ", rhs, nullOperator: " IS NOT NULL", precedence: .equality)
}

/// `lhs <> rhs` for two expressions of the same type.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue == R.QueryValue, L.QueryValue: SQLExtractable {
    comparison(lhs, " <> ", rhs, precedence: .equality)
}

/// `lhs <> rhs` for an optional expression and a non-optional one of the same wrapped type.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue == R.QueryValue? {
    comparison(lhs, " <> ", rhs, precedence: .equality)
}

/// `lhs <> rhs` for a non-optional expression and an optional one of the same wrapped type.
public func != <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue? == R.QueryValue {
    comparison(lhs, " <> ", rhs, precedence: .equality)
}

// MARK: - Ordering comparisons

/// `lhs < ?`.
public func < <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue: SQLBindable & SQLExtractable {
    comparison(lhs, " < ", rhs, precedence: .comparison)
}

/// `lhs < rhs` for two expressions of the same type.
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue == R.QueryValue, L.QueryValue: SQLExtractable {
    comparison(lhs, " < ", rhs, precedence: .comparison)
}

/// `lhs < rhs` for an optional expression and a non-optional one of the same wrapped type.
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue == R.QueryValue? {
    comparison(lhs, " < ", rhs, precedence: .comparison)
}

/// `lhs < rhs` for a non-optional expression and an optional one of the same wrapped type.
public func < <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue? == R.QueryValue {
    comparison(lhs, " < ", rhs, precedence: .comparison)
}

/// `lhs <= ?`.
public func <= <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue: SQLBindable & SQLExtractable {
    comparison(lhs, " <= ", rhs, precedence: .comparison)
}

/// `lhs <= rhs` for two expressions of the same type.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue == R.QueryValue, L.QueryValue: SQLExtractable {
    comparison(lhs, " <= ", rhs, precedence: .comparison)
}

/// `lhs <= rhs` for an optional expression and a non-optional one of the same wrapped type.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue == R.QueryValue? {
    comparison(lhs, " <= ", rhs, precedence: .comparison)
}

/// `lhs <= rhs` for a non-optional expression and an optional one of the same wrapped type.
public func <= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue? == R.QueryValue {
    comparison(lhs, " <= ", rhs, precedence: .comparison)
}

/// `lhs > ?`.
public func > <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue: SQLBindable & SQLExtractable {
    comparison(lhs, " > ", rhs, precedence: .comparison)
}

/// `lhs > rhs` for two expressions of the same type.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue == R.QueryValue, L.QueryValue: SQLExtractable {
    comparison(lhs, " > ", rhs, precedence: .comparison)
}

/// `lhs > rhs` for an optional expression and a non-optional one of the same wrapped type.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue == R.QueryValue? {
    comparison(lhs, " > ", rhs, precedence: .comparison)
}

/// `lhs > rhs` for a non-optional expression and an optional one of the same wrapped type.
public func > <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue? == R.QueryValue {
    comparison(lhs, " > ", rhs, precedence: .comparison)
}

/// `lhs >= ?`.
public func >= <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue: SQLBindable & SQLExtractable {
    comparison(lhs, " >= ", rhs, precedence: .comparison)
}

/// `lhs >= rhs` for two expressions of the same type.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.SQLCondition>
where L.QueryValue == R.QueryValue, L.QueryValue: SQLExtractable {
    comparison(lhs, " >= ", rhs, precedence: .comparison)
}

/// `lhs >= rhs` for an optional expression and a non-optional one of the same wrapped type.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue == R.QueryValue? {
    comparison(lhs, " >= ", rhs, precedence: .comparison)
}

/// `lhs >= rhs` for a non-optional expression and an optional one of the same wrapped type.
public func >= <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<Bool?>
where L.QueryValue? == R.QueryValue {
    comparison(lhs, " >= ", rhs, precedence: .comparison)
}

// MARK: - Logic
//
// The logical operators take concrete `SQLExpression<Bool>` and `SQLExpression<Bool?>` operands,
// not any expression. Generic `&&` and `||` would make the type checker explore the query
// operators inside every `&&` and `||` of plain Swift code in modules that import Slate (a line
// like `(ids.first ?? nil) == 3 && names.count + 1 > 2 * 3 - 1` took 0.9 s over any
// `QueryExpression`, 1.8 s over `SQLExpression<some BooleanQueryValue>`, and 30–40 ms with these
// concrete overloads, 15 ms without Slate; `BuilderNullabilityTests` keeps that line under the
// 50 ms budget). Every
// condition the builder makes is an `SQLExpression<Bool>` or, when it can be `NULL`, an
// `SQLExpression<Bool?>`; wrap a `Bool` column first: `$0.isActive == true` or
// `SQLExpression($0.isActive)`.

/// `lhs AND rhs`.
public func && (lhs: SQLExpression<Bool>, rhs: SQLExpression<Bool>) -> SQLExpression<Bool> {
    infix(lhs, " AND ", rhs, precedence: .and, associativity: .associative).conjoiningRowIDHints(lhs, rhs)
}

/// `lhs AND rhs` where a side can be `NULL`: `NULL` unless a side is false.
public func && (lhs: SQLExpression<Bool?>, rhs: SQLExpression<Bool?>) -> SQLExpression<Bool?> {
    infix(lhs, " AND ", rhs, precedence: .and, associativity: .associative).conjoiningRowIDHints(lhs, rhs)
}

/// `lhs AND rhs` where the right side can be `NULL`.
public func && (lhs: SQLExpression<Bool>, rhs: SQLExpression<Bool?>) -> SQLExpression<Bool?> {
    infix(lhs, " AND ", rhs, precedence: .and, associativity: .associative).conjoiningRowIDHints(lhs, rhs)
}

/// `lhs AND rhs` where the left side can be `NULL`.
public func && (lhs: SQLExpression<Bool?>, rhs: SQLExpression<Bool>) -> SQLExpression<Bool?> {
    infix(lhs, " AND ", rhs, precedence: .and, associativity: .associative).conjoiningRowIDHints(lhs, rhs)
}

/// `lhs OR rhs`.
public func || (lhs: SQLExpression<Bool>, rhs: SQLExpression<Bool>) -> SQLExpression<Bool> {
    infix(lhs, " OR ", rhs, precedence: .or, associativity: .associative)
}

/// `lhs OR rhs` where a side can be `NULL`: `NULL` unless a side is true.
public func || (lhs: SQLExpression<Bool?>, rhs: SQLExpression<Bool?>) -> SQLExpression<Bool?> {
    infix(lhs, " OR ", rhs, precedence: .or, associativity: .associative)
}

/// `lhs OR rhs` where the right side can be `NULL`.
public func || (lhs: SQLExpression<Bool>, rhs: SQLExpression<Bool?>) -> SQLExpression<Bool?> {
    infix(lhs, " OR ", rhs, precedence: .or, associativity: .associative)
}

/// `lhs OR rhs` where the left side can be `NULL`.
public func || (lhs: SQLExpression<Bool?>, rhs: SQLExpression<Bool>) -> SQLExpression<Bool?> {
    infix(lhs, " OR ", rhs, precedence: .or, associativity: .associative)
}

/// `NOT operand`.
public prefix func ! (operand: SQLExpression<Bool>) -> SQLExpression<Bool> {
    SQLExpression(sql: sqlConcat(SQL(text: "NOT "), operand.operandFragment(of: .not)), precedence: .not)
}

/// `NOT operand` of a condition that can be `NULL`: `NULL` when it is.
public prefix func ! (operand: SQLExpression<Bool?>) -> SQLExpression<Bool?> {
    SQLExpression(sql: sqlConcat(SQL(text: "NOT "), operand.operandFragment(of: .not)), precedence: .not)
}

// MARK: - Arithmetic
//
// Two expressions of the same numeric type, or of one type where a side is optional: the result
// is then optional, as SQL arithmetic with `NULL` is `NULL`.

/// `lhs + ?`.
public func + <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue>
where L.QueryValue: NumericQueryValue & SQLBindable {
    infix(lhs, " + ", boundValue(rhs, as: lhs), precedence: .additive)
}

/// `lhs + rhs`.
public func + <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue, L.QueryValue: NumericQueryValue {
    infix(lhs, " + ", rhs, precedence: .additive)
}

/// `lhs + rhs` with an optional left side: optional.
public func + <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue?, R.QueryValue: NumericQueryValue {
    infix(lhs, " + ", rhs, precedence: .additive)
}

/// `lhs + rhs` with an optional right side: optional.
public func + <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<R.QueryValue>
where L.QueryValue? == R.QueryValue, L.QueryValue: NumericQueryValue {
    infix(lhs, " + ", rhs, precedence: .additive)
}

/// `lhs - ?`.
public func - <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue>
where L.QueryValue: NumericQueryValue & SQLBindable {
    infix(lhs, " - ", boundValue(rhs, as: lhs), precedence: .additive)
}

/// `lhs - rhs`.
public func - <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue, L.QueryValue: NumericQueryValue {
    infix(lhs, " - ", rhs, precedence: .additive)
}

/// `lhs - rhs` with an optional left side: optional.
public func - <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue?, R.QueryValue: NumericQueryValue {
    infix(lhs, " - ", rhs, precedence: .additive)
}

/// `lhs - rhs` with an optional right side: optional.
public func - <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<R.QueryValue>
where L.QueryValue? == R.QueryValue, L.QueryValue: NumericQueryValue {
    infix(lhs, " - ", rhs, precedence: .additive)
}

/// `lhs * ?`.
public func * <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue>
where L.QueryValue: NumericQueryValue & SQLBindable {
    infix(lhs, " * ", boundValue(rhs, as: lhs), precedence: .multiplicative)
}

/// `lhs * rhs`.
public func * <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue, L.QueryValue: NumericQueryValue {
    infix(lhs, " * ", rhs, precedence: .multiplicative)
}

/// `lhs * rhs` with an optional left side: optional.
public func * <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue?, R.QueryValue: NumericQueryValue {
    infix(lhs, " * ", rhs, precedence: .multiplicative)
}

/// `lhs * rhs` with an optional right side: optional.
public func * <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<R.QueryValue>
where L.QueryValue? == R.QueryValue, L.QueryValue: NumericQueryValue {
    infix(lhs, " * ", rhs, precedence: .multiplicative)
}

/// `lhs / ?`. Integer division truncates, as in Swift and SQLite. Division by zero is `NULL`, as on
/// SQLite, in every dialect.
public func / <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue>
where L.QueryValue: NumericQueryValue & SQLBindable {
    division(lhs, boundValue(rhs, as: lhs), remainder: false)
}

/// `lhs / rhs`. Integer division truncates, as in Swift and SQLite.
public func / <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue, L.QueryValue: NumericQueryValue {
    division(lhs, rhs, remainder: false)
}

/// `lhs / rhs` with an optional left side: optional.
public func / <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue?, R.QueryValue: NumericQueryValue {
    division(lhs, rhs, remainder: false)
}

/// `lhs / rhs` with an optional right side: optional.
public func / <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<R.QueryValue>
where L.QueryValue? == R.QueryValue, L.QueryValue: NumericQueryValue {
    division(lhs, rhs, remainder: false)
}

/// `lhs % ?`: the remainder of integer division, with the sign of `lhs`, as in Swift and SQLite.
public func % <L: QueryExpression>(lhs: L, rhs: L.QueryValue) -> SQLExpression<L.QueryValue>
where L.QueryValue: IntegerQueryValue & SQLBindable {
    division(lhs, boundValue(rhs, as: lhs), remainder: true)
}

/// `lhs % rhs`: the remainder of integer division.
public func % <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue, L.QueryValue: IntegerQueryValue {
    division(lhs, rhs, remainder: true)
}

/// `lhs % rhs` with an optional left side: optional.
public func % <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue == R.QueryValue?, R.QueryValue: IntegerQueryValue {
    division(lhs, rhs, remainder: true)
}

/// `lhs % rhs` with an optional right side: optional.
public func % <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<R.QueryValue>
where L.QueryValue? == R.QueryValue, L.QueryValue: IntegerQueryValue {
    division(lhs, rhs, remainder: true)
}

/// `lhs / rhs` or `lhs % rhs`: `NULL` when `rhs` is zero, as on SQLite, in every dialect.
func division<Result>(_ lhs: some QueryExpression, _ rhs: some QueryExpression, remainder: Bool) -> SQLExpression<
    Result
> {
    let operands = (
        SQLOperand(
            lhs.queryFragment, precedence: lhs.queryPrecedence, parent: .multiplicative, parenthesizesEqual: false),
        SQLOperand(
            rhs.queryFragment, precedence: rhs.queryPrecedence, parent: .multiplicative, parenthesizesEqual: true)
    )
    return construct(.division(operands.0, operands.1, remainder: remainder), precedence: .multiplicative)
}

/// `-operand`.
public prefix func - <E: QueryExpression>(operand: E) -> SQLExpression<E.QueryValue>
where E.QueryValue: NumericQueryValue {
    // Parenthesize anything but an atom: `--x` would start an SQL comment.
    SQLExpression(sql: sqlConcat(SQL(text: "-"), operand.operandFragment(of: .atomic)), precedence: .prefix)
}

// MARK: - NULL, IN, BETWEEN

extension QueryExpression {
    /// `self IS NULL`.
    public var isNull: SQLExpression<Bool> {
        postfix(self, SQL(text: " IS NULL"), precedence: .nullTest)
    }

    /// `self IS NOT NULL`.
    public var isNotNull: SQLExpression<Bool> {
        postfix(self, SQL(text: " IS NOT NULL"), precedence: .nullTest)
    }

    /// `self IN (?, ?, …)`. An empty list matches nothing. `NULL` (not false) when `self` is
    /// `NULL`, or when the list holds `nil` and no value matches.
    public func `in`<Values: Sequence>(_ values: Values) -> SQLExpression<QueryValue.SQLCondition>
    where Values.Element == QueryValue, QueryValue: SQLBindable & SQLExtractable {
        let list = Array(values)  // iterated twice
        return membership(" IN (", list).pinningRowIDs(of: self, to: list)
    }

    /// `self NOT IN (?, ?, …)`. An empty list matches every row.
    public func notIn<Values: Sequence>(_ values: Values) -> SQLExpression<QueryValue.SQLCondition>
    where Values.Element == QueryValue, QueryValue: SQLBindable & SQLExtractable {
        membership(" NOT IN (", values)
    }

    private func membership<Values: Sequence, Result>(_ op: String, _ values: Values) -> SQLExpression<Result>
    where Values.Element == QueryValue, QueryValue: SQLBindable {
        // SQLite accepts an empty list: `x IN ()` is false and `x NOT IN ()` true, as they should be.
        // PostgreSQL does not: there, the same is `x = ANY('{}')` and `x <> ALL('{}')`.
        var values = values.makeIterator()
        guard let firstValue = values.next() else {
            return postfix(self, SQL(.construct(.emptyList(negated: op != " IN ("))), precedence: .emptyMembership)
        }
        var list = membershipOperand()
        list.append(text: op)
        list.append(boundArgument(firstValue))
        while let value = values.next() {
            list.append(text: ", ")
            list.append(boundArgument(value))
        }
        list.append(text: ")")
        return SQLExpression(sql: list, precedence: .membership)
    }

    /// `self BETWEEN ? AND ?` (bounds included).
    public func between(_ lower: QueryValue, and upper: QueryValue) -> SQLExpression<QueryValue.SQLCondition>
    where QueryValue: SQLBindable & SQLExtractable {
        postfix(
            self, sqlConcat(SQL(text: " BETWEEN "), bound(lower), SQL(text: " AND "), bound(upper)),
            precedence: .membership)
    }

    /// `self NOT BETWEEN ? AND ?`.
    public func notBetween(_ lower: QueryValue, and upper: QueryValue) -> SQLExpression<QueryValue.SQLCondition>
    where QueryValue: SQLBindable & SQLExtractable {
        postfix(
            self, sqlConcat(SQL(text: " NOT BETWEEN "), bound(lower), SQL(text: " AND "), bound(upper)),
            precedence: .membership)
    }
}
