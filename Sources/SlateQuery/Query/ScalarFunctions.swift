import SlateConcurrency
import SlateCore

// Null-safe comparison (`IS`, `IS NOT`), `nullif`, and the text functions `substr` and `instr`.
// PostgreSQL: `IS NOT DISTINCT FROM`, `strpos`, and `substr` with `integer` arguments.

/// ` IS `, which PostgreSQL spells ` IS NOT DISTINCT FROM `.
private let isOperator = SQL(.construct(.nullSafeEquality(negated: false)))
/// ` IS NOT `, which PostgreSQL spells ` IS DISTINCT FROM `.
private let isNotOperator = SQL(.construct(.nullSafeEquality(negated: true)))

extension QueryExpression {
    /// `self IS ?`: equality where `NULL` equals `NULL`; never `NULL` itself.
    ///
    /// ```swift
    /// Customer.where { $0.state.is(nil) }          // "Customer"."State" IS ?
    /// ```
    public func `is`(_ value: QueryValue) -> SQLExpression<Bool> where QueryValue: SQLBindable {
        infix(self, isOperator, boundValue(value, as: self), precedence: .nullTest, associativity: .none)
    }

    /// `self IS other`: equality where `NULL` equals `NULL`; never `NULL` itself.
    ///
    /// ```swift
    /// Invoice.join(Customer.self, on: { $0.billingState.is($1.state) })
    /// ```
    public func `is`(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        infix(self, isOperator, other, precedence: .nullTest, associativity: .none)
    }

    /// `self IS other` for an optional expression and a non-optional one.
    public func `is`<Other: QueryExpression>(_ other: Other) -> SQLExpression<Bool>
    where QueryValue == Other.QueryValue? {
        infix(self, isOperator, other, precedence: .nullTest, associativity: .none)
    }

    /// `self IS other` for a non-optional expression and an optional one.
    public func `is`<Other: QueryExpression>(_ other: Other) -> SQLExpression<Bool>
    where QueryValue? == Other.QueryValue {
        infix(self, isOperator, other, precedence: .nullTest, associativity: .none)
    }

    /// `self IS NOT ?`: inequality where `NULL` equals `NULL`; never `NULL` itself.
    public func isNot(_ value: QueryValue) -> SQLExpression<Bool> where QueryValue: SQLBindable {
        infix(self, isNotOperator, boundValue(value, as: self), precedence: .nullTest, associativity: .none)
    }

    /// `self IS NOT other`: inequality where `NULL` equals `NULL`; never `NULL` itself.
    public func isNot(_ other: some QueryExpression<QueryValue>) -> SQLExpression<Bool> {
        infix(self, isNotOperator, other, precedence: .nullTest, associativity: .none)
    }

    /// `self IS NOT other` for an optional expression and a non-optional one.
    public func isNot<Other: QueryExpression>(_ other: Other) -> SQLExpression<Bool>
    where QueryValue == Other.QueryValue? {
        infix(self, isNotOperator, other, precedence: .nullTest, associativity: .none)
    }

    /// `self IS NOT other` for a non-optional expression and an optional one.
    public func isNot<Other: QueryExpression>(_ other: Other) -> SQLExpression<Bool>
    where QueryValue? == Other.QueryValue {
        infix(self, isNotOperator, other, precedence: .nullTest, associativity: .none)
    }

    /// `nullif(self, ?)`: `NULL` when the expression equals `value`, the expression otherwise.
    ///
    /// ```swift
    /// Customer.select { $0.company.nullif("") }     // String?
    /// ```
    public func nullif(_ value: QueryValue) -> SQLExpression<QueryValue.SQLNullable>
    where QueryValue: SQLBindable & SQLExtractable {
        functionCall("nullif", [queryFragment, bound(value)])
    }

    /// `nullif(self, other)`: `NULL` when the expressions are equal, `self` otherwise.
    public func nullif(_ other: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue.SQLNullable>
    where QueryValue: SQLExtractable {
        functionCall("nullif", [queryFragment, other.queryFragment])
    }
}

extension QueryExpression where QueryValue: TextQueryValue {
    /// `substr(self, start[, length])`: the characters from position `start`, counted from 1 (a
    /// negative `start` counts from the end), at most `length` of them when given. `NULL` for
    /// `NULL`.
    ///
    /// ```swift
    /// Customer.select { $0.lastName.substr(1, 3) }   // substr("Customer"."LastName", ?, ?)
    /// ```
    public func substr(_ start: Int, _ length: Int? = nil) -> SQLExpression<QueryValue> {
        // A negative start counts from the end, and a negative length takes the characters
        // before start, only on SQLite.
        construct(.substring(queryFragment, start: start, length: length))
    }
}

/// `instr(text, ?)`, which PostgreSQL spells `strpos(text, ?)` (the same position in characters,
/// from 1, or 0).
private func instrCall<Result>(_ text: SQL, _ substring: String) -> SQLExpression<Result> {
    construct(.position(of: substring, in: text))
}

extension QueryExpression where QueryValue == String {
    /// `instr(self, ?)`: the position (from 1) of the first occurrence of `substring`, or 0 when
    /// there is none. Case-sensitive.
    ///
    /// ```swift
    /// Track.where { $0.name.instr("Love") > 0 }
    /// ```
    public func instr(_ substring: String) -> SQLExpression<Int> {
        instrCall(queryFragment, substring)
    }
}

extension QueryExpression where QueryValue == String? {
    /// `instr(self, ?)` of optional text: the position (from 1) of the first occurrence of
    /// `substring`, 0 when there is none, `nil` for `NULL`.
    public func instr(_ substring: String) -> SQLExpression<Int?> {
        instrCall(queryFragment, substring)
    }
}
