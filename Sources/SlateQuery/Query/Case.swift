import SlateConcurrency
import SlateCore

// `CASE WHEN … THEN … [ELSE …] END`. Built from the same fragments as every other expression: the
// conditions' fragments, values bound as `?`, so a dialect layer sees each part.

/// The start of a `CASE` expression: `Case.when(condition, then: value)`.
///
/// ```swift
/// Track.select { track in
///     (track.name, Case.when(track.milliseconds > 300_000, then: "long")
///         .when(track.milliseconds > 60_000, then: "medium")
///         .else("short"))
/// }
/// // SELECT "Track"."Name", CASE WHEN "Track"."Milliseconds" > ? THEN ? WHEN "Track"."Milliseconds" > ? THEN ? ELSE ? END FROM "Track"
/// ```
///
/// Without `else`, the expression is `NULL` when no condition holds, so its value is optional.
public enum Case {
    /// `CASE WHEN condition THEN ?`.
    public static func when<Value: SQLBindable & SQLExtractable>(
        _ condition: some QueryExpression<some BooleanQueryValue>, then value: Value
    ) -> CaseExpression<Value> {
        CaseExpression(branches: [CaseExpression<Value>.branch(condition, SQLExpression(value: value))])
    }

    /// `CASE WHEN condition THEN expression`.
    public static func when<Result: QueryExpression>(
        _ condition: some QueryExpression<some BooleanQueryValue>, then expression: Result
    ) -> CaseExpression<Result.QueryValue> where Result.QueryValue: SQLExtractable {
        CaseExpression(branches: [CaseExpression<Result.QueryValue>.branch(condition, expression)])
    }
}

/// `CASE WHEN … THEN … END` without `ELSE`: its value is optional, `NULL` when no condition
/// holds. Add branches with ``when(_:then:)-(_,Value)`` and finish with ``else(_:)-(Value)``.
public struct CaseExpression<Value: SQLExtractable>: QueryExpression, Sendable {
    /// `Value?` (or `Value` when it is already optional): `NULL` when no condition holds.
    public typealias QueryValue = Value.SQLNullable

    /// The `WHEN … THEN …` fragments, in order.
    let branches: [SQL]

    /// `WHEN condition THEN result`.
    static func branch(_ condition: some QueryExpression<some BooleanQueryValue>, _ result: some QueryExpression) -> SQL
    {
        sqlConcat("WHEN ", condition.queryFragment, " THEN ", result.queryFragment)
    }

    /// Another branch, tried after the earlier ones: `WHEN condition THEN ?`.
    public func when(_ condition: some QueryExpression<some BooleanQueryValue>, then value: Value) -> CaseExpression<
        Value
    > where Value: SQLBindable {
        CaseExpression(branches: branches + [Self.branch(condition, SQLExpression(value: value))])
    }

    /// Another branch, tried after the earlier ones: `WHEN condition THEN expression`.
    public func when(
        _ condition: some QueryExpression<some BooleanQueryValue>, then expression: some QueryExpression<Value>
    ) -> CaseExpression<Value> {
        CaseExpression(branches: branches + [Self.branch(condition, expression)])
    }

    /// `ELSE ? END`: the value when no condition holds; the expression is no longer optional.
    public func `else`(_ value: Value) -> SQLExpression<Value> where Value: SQLBindable {
        SQLExpression(sql: render(else: SQLExpression(value: value).queryFragment), precedence: .atomic)
    }

    /// `ELSE expression END`.
    public func `else`(_ expression: some QueryExpression<Value>) -> SQLExpression<Value> {
        SQLExpression(sql: render(else: expression.queryFragment), precedence: .atomic)
    }

    /// `ELSE expression END` with an optional fallback, such as a condition on a nullable column:
    /// the expression stays optional.
    public func `else`<Fallback: QueryExpression>(_ expression: Fallback) -> SQLExpression<Fallback.QueryValue>
    where Fallback.QueryValue == Value? {
        SQLExpression(sql: render(else: expression.queryFragment), precedence: .atomic)
    }

    /// `CASE WHEN … THEN … END`.
    public var queryFragment: SQL { render(else: nil) }

    /// A `CASE` expression is atomic: it needs no parentheses.
    public var queryPrecedence: SQLPrecedence { .atomic }

    private func render(else fallback: SQL?) -> SQL {
        var sql = SQL(text: "CASE ")
        sql.append(SQL.joined(branches, separator: " "))
        if let fallback {
            sql.append(text: " ELSE ")
            sql.append(fallback)
        }
        sql.append(text: " END")
        return sql
    }
}
