import SlateConcurrency
import SlateCore

// Subqueries: a single-column selection is a scalar expression, and any SELECT statement can be
// the right side of IN or the operand of EXISTS. Correlated subqueries reference the outer
// query's columns, which are always qualified:
//
//     Artist.where { artist in exists(Album.where { $0.artistId == artist.artistId }) }

extension Selection: OrderingTerm where Value: SQLExtractable {}

extension Selection: QueryExpression where Value: SQLExtractable {
    /// A scalar subquery's value type: the selected value, optional, since it is NULL when the
    /// subquery returns no row (`Int?` for `Int` and for `Int?`).
    public typealias QueryValue = Value.SQLNullable

    /// `(SELECT …)`.
    public var queryFragment: SQL { sqlConcat(SQL(text: "("), sql, SQL(text: ")")) }

    /// A parenthesized subquery is atomic.
    public var queryPrecedence: SQLPrecedence { .atomic }
}

extension QueryExpression {
    /// `self IN (SELECT …)`: the subquery selects one column of the same type. Like any
    /// comparison, `NULL` when `self` is (or when the subquery yields a `NULL` and no match): the
    /// condition is `Bool?` when either side is optional.
    ///
    /// ```swift
    /// Artist.where { $0.artistId.in(Album.select { $0.artistId }) }
    /// ```
    public func `in`<Subquery: SelectStatement>(_ subquery: Subquery) -> SQLExpression<QueryValue.SQLCondition>
    where Subquery.Output == QueryValue, QueryValue: SQLExtractable {
        postfix(self, sqlConcat(SQL(text: " IN ("), subquery.sql, SQL(text: ")")), precedence: .membership)
    }

    /// `self IN (SELECT …)` for a non-optional subquery column and an optional expression.
    public func `in`<Subquery: SelectStatement>(_ subquery: Subquery) -> SQLExpression<Bool?>
    where Subquery.Output? == QueryValue {
        postfix(self, sqlConcat(SQL(text: " IN ("), subquery.sql, SQL(text: ")")), precedence: .membership)
    }

    /// `self IN (SELECT …)` for an optional subquery column and a non-optional expression.
    public func `in`<Subquery: SelectStatement>(_ subquery: Subquery) -> SQLExpression<Bool?>
    where Subquery.Output == QueryValue? {
        postfix(self, sqlConcat(SQL(text: " IN ("), subquery.sql, SQL(text: ")")), precedence: .membership)
    }

    /// `self NOT IN (SELECT …)`. Beware SQL semantics: when the subquery returns a NULL, nothing
    /// is `NOT IN` it.
    public func notIn<Subquery: SelectStatement>(_ subquery: Subquery) -> SQLExpression<QueryValue.SQLCondition>
    where Subquery.Output == QueryValue, QueryValue: SQLExtractable {
        postfix(self, sqlConcat(SQL(text: " NOT IN ("), subquery.sql, SQL(text: ")")), precedence: .membership)
    }

    /// `self NOT IN (SELECT …)` for a non-optional subquery column and an optional expression.
    public func notIn<Subquery: SelectStatement>(_ subquery: Subquery) -> SQLExpression<Bool?>
    where Subquery.Output? == QueryValue {
        postfix(self, sqlConcat(SQL(text: " NOT IN ("), subquery.sql, SQL(text: ")")), precedence: .membership)
    }

    /// `self NOT IN (SELECT …)` for an optional subquery column and a non-optional expression.
    public func notIn<Subquery: SelectStatement>(_ subquery: Subquery) -> SQLExpression<Bool?>
    where Subquery.Output == QueryValue? {
        postfix(self, sqlConcat(SQL(text: " NOT IN ("), subquery.sql, SQL(text: ")")), precedence: .membership)
    }
}

/// `EXISTS (SELECT …)`: whether the subquery returns a row.
///
/// ```swift
/// Artist.where { artist in !exists(Album.where { $0.artistId == artist.artistId }) }
/// ```
public func exists(_ subquery: some SelectStatement) -> SQLExpression<Bool> {
    SQLExpression(
        sql: sqlConcat(SQL(text: "EXISTS ("), subquery.clauses.renderForExistence(), SQL(text: ")")),
        precedence: .atomic)
}
