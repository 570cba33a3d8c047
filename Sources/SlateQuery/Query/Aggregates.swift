import SlateConcurrency
import SlateCore

// Aggregate functions. Their result types follow SQLite: an aggregate over no row is NULL (so
// `min`, `max`, `sum` and `avg` are optional), except `count` (0) and `total` (0.0). Each is an
// ``AggregateExpression``: an expression, and with ``AggregateExpression/over(_:)`` a window function.

/// An aggregate function call: an expression over the rows of a group, or, with ``over(_:)``,
/// over the window of each row.
///
/// ```swift
/// Invoice.select { ($0.invoiceId, $0.total.sum().over(.partition(by: $0.customerId).order(by: $0.invoiceDate))) }
/// // sum("Invoice"."Total") OVER (PARTITION BY "Invoice"."CustomerId" ORDER BY "Invoice"."InvoiceDate")
/// ```
public struct AggregateExpression<QueryValue>: QueryExpression, Sendable {
    /// `name(arguments)`.
    public let queryFragment: SQL

    /// PostgreSQL's spelling of the call over a window, when it is not the call followed by
    /// `OVER (window)` (a call PostgreSQL wraps in a cast, such as `total()`).
    var postgreSQLWindowed: (@Sendable (SQL) -> SQL)? = nil

    /// A function call is atomic.
    public var queryPrecedence: SQLPrecedence { .atomic }

    /// `call OVER (window)`: the aggregate over each row's window (its frame) rather than a group.
    public func over(_ window: Window = .all) -> SQLExpression<QueryValue> {
        let sqlite = sqlConcat(queryFragment, " OVER ", window.fragment)
        guard let postgreSQLWindowed else { return SQLExpression(sql: sqlite, precedence: .atomic) }
        return SQLExpression(
            sql: SQL(sqlite: sqlite, postgreSQL: postgreSQLWindowed(window.fragment)), precedence: .atomic)
    }
}

extension AggregateExpression: CustomStringConvertible {
    /// The SQL text.
    public var description: String { queryFragment.text }
}

/// `name([DISTINCT ]argument, …)`.
func aggregateCall<Value>(_ name: String, distinct: Bool = false, _ arguments: [SQL]) -> AggregateExpression<Value> {
    var sql = SQL(sql: name + (distinct ? "(DISTINCT " : "("))
    sql.append(SQL.joined(arguments, separator: ", "))
    sql.append(")")
    return AggregateExpression(queryFragment: sql)
}

/// `count(*)`: the number of rows.
///
/// ```swift
/// Track.group(by: \.genreId).select { ($0.genreId, count()) }
/// ```
public func count() -> AggregateExpression<Int> {
    AggregateExpression(queryFragment: "count(*)")
}

extension QueryExpression {
    /// `count(self)`, or `count(DISTINCT self)`: the number of non-NULL (distinct) values.
    public func count(distinct: Bool = false) -> AggregateExpression<Int> {
        aggregateCall("count", distinct: distinct, [queryFragment])
    }

    /// `min(self)`: the smallest non-NULL value, or `nil` when there is none.
    public func min() -> AggregateExpression<QueryValue?> {
        aggregateCall("min", [queryFragment])
    }

    /// `max(self)`: the largest non-NULL value, or `nil` when there is none.
    public func max() -> AggregateExpression<QueryValue?> {
        aggregateCall("max", [queryFragment])
    }

    /// `group_concat(self, ?)`: the non-NULL values joined by `separator` (SQLite's default is
    /// `","`), or `nil` when there is none. The order is unspecified.
    ///
    /// On PostgreSQL: `string_agg(CAST(self AS text), ?)`.
    public func groupConcat(separator: String? = nil) -> AggregateExpression<String?> {
        let sqlite: AggregateExpression<String?> =
            separator.map { aggregateCall("group_concat", [queryFragment, "\($0)"]) }
            ?? aggregateCall("group_concat", [queryFragment])
        let postgreSQL: AggregateExpression<String?> = aggregateCall(
            "string_agg", [sqlConcat("CAST(", queryFragment, " AS text)"), "\(separator ?? ",")"])
        return AggregateExpression(
            queryFragment: SQL(sqlite: sqlite.queryFragment, postgreSQL: postgreSQL.queryFragment))
    }

    /// `group_concat(DISTINCT self)`: the distinct non-NULL values joined by `","` (SQLite allows no
    /// separator with `DISTINCT`), or `nil` when there is none.
    ///
    /// On PostgreSQL: `string_agg(DISTINCT CAST(self AS text), ',')`.
    public func groupConcat(distinct: Bool) -> AggregateExpression<String?> {
        let sqlite: AggregateExpression<String?> = aggregateCall("group_concat", distinct: distinct, [queryFragment])
        let postgreSQL: AggregateExpression<String?> = aggregateCall(
            "string_agg", distinct: distinct, [sqlConcat("CAST(", queryFragment, " AS text)"), "\(",")"])
        return AggregateExpression(
            queryFragment: SQL(sqlite: sqlite.queryFragment, postgreSQL: postgreSQL.queryFragment))
    }
}

extension QueryExpression where QueryValue: OptionalQueryValue {
    /// `min(self)` of an optional expression, typed without a double optional.
    public func min() -> AggregateExpression<QueryValue> {
        aggregateCall("min", [queryFragment])
    }

    /// `max(self)` of an optional expression, typed without a double optional.
    public func max() -> AggregateExpression<QueryValue> {
        aggregateCall("max", [queryFragment])
    }
}

extension QueryExpression where QueryValue: NumericQueryValue {
    /// `sum(self)`, or `sum(DISTINCT self)`: the sum of the non-NULL (distinct) values, or `nil`
    /// when there is none. Integers sum to an integer (SQLite reports an overflow as an error).
    public func sum(distinct: Bool = false) -> AggregateExpression<QueryValue?> {
        aggregateCall("sum", distinct: distinct, [queryFragment])
    }

    /// `total(self)`, or `total(DISTINCT self)`: the sum of the non-NULL (distinct) values as a
    /// `Double`, 0.0 when there is none.
    ///
    /// On PostgreSQL: `CAST(coalesce(sum(self), 0) AS double precision)`.
    public func total(distinct: Bool = false) -> AggregateExpression<Double> {
        let sqlite: AggregateExpression<Double> = aggregateCall("total", distinct: distinct, [queryFragment])
        let sum: AggregateExpression<Double?> = aggregateCall("sum", distinct: distinct, [queryFragment])
        var total = AggregateExpression<Double>(
            queryFragment: SQL(
                sqlite: sqlite.queryFragment,
                postgreSQL: sqlConcat("CAST(coalesce(", sum.queryFragment, ", 0) AS double precision)")))
        total.postgreSQLWindowed = { window in
            sqlConcat("CAST(coalesce(", sum.queryFragment, " OVER ", window, ", 0) AS double precision)")
        }
        return total
    }

    /// `avg(self)`, or `avg(DISTINCT self)`: the average of the non-NULL (distinct) values, or
    /// `nil` when there is none.
    ///
    /// On PostgreSQL: `CAST(avg(self) AS double precision)` (its `avg` of integers is a
    /// `numeric`).
    public func avg(distinct: Bool = false) -> AggregateExpression<Double?> {
        let call: AggregateExpression<Double?> = aggregateCall("avg", distinct: distinct, [queryFragment])
        var average = AggregateExpression<Double?>(
            queryFragment: SQL(
                sqlite: call.queryFragment, postgreSQL: sqlConcat("CAST(", call.queryFragment, " AS double precision)"))
        )
        average.postgreSQLWindowed = { window in
            sqlConcat("CAST(", call.queryFragment, " OVER ", window, " AS double precision)")
        }
        return average
    }
}

extension QueryExpression where QueryValue: NumericQueryValue & OptionalQueryValue {
    /// `sum(self)` of an optional expression, typed without a double optional.
    public func sum(distinct: Bool = false) -> AggregateExpression<QueryValue> {
        aggregateCall("sum", distinct: distinct, [queryFragment])
    }
}
