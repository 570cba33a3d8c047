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
    /// The call, as each dialect writes it.
    let call: SQLAggregate

    init(_ call: SQLAggregate) {
        self.call = call
    }

    /// `name(arguments)`.
    public var queryFragment: SQL { SQL(.construct(.aggregate(call))) }

    /// A function call is atomic.
    public var queryPrecedence: SQLPrecedence { .atomic }

    /// `call OVER (window)`: the aggregate over each row's window (its frame) rather than a group.
    public func over(_ window: Window = .all) -> SQLExpression<QueryValue> {
        var windowed = call
        windowed.window = window.fragment
        return construct(.aggregate(windowed))
    }
}

extension AggregateExpression: CustomStringConvertible {
    /// The SQL text.
    public var description: String { queryFragment.text }
}

/// `name([DISTINCT ]argument, …)`.
func aggregateCall<Value>(_ function: SQLAggregate.Function, distinct: Bool = false, _ arguments: [SQL])
    -> AggregateExpression<Value>
{
    AggregateExpression(SQLAggregate(function, arguments, distinct: distinct))
}

/// `count(*)`: the number of rows.
///
/// ```swift
/// Track.group(by: \.genreId).select { ($0.genreId, count()) }
/// ```
public func count() -> AggregateExpression<Int> {
    aggregateCall(.count, [])
}

extension QueryExpression {
    /// `count(self)`, or `count(DISTINCT self)`: the number of non-NULL (distinct) values.
    public func count(distinct: Bool = false) -> AggregateExpression<Int> {
        aggregateCall(.count, distinct: distinct, [queryFragment])
    }

    /// `min(self)`: the smallest non-NULL value, or `nil` when there is none.
    public func min() -> AggregateExpression<QueryValue?> {
        aggregateCall(.min, [queryFragment])
    }

    /// `max(self)`: the largest non-NULL value, or `nil` when there is none.
    public func max() -> AggregateExpression<QueryValue?> {
        aggregateCall(.max, [queryFragment])
    }

    /// `group_concat(self, ?)`: the non-NULL values joined by `separator` (SQLite's default is
    /// `","`), or `nil` when there is none.
    ///
    /// The order of the values is unspecified, on every engine: it depends on how the engine reads
    /// the rows, and can change with an index or a version. Compare the parts as a set, or
    /// aggregate in Swift when the order matters.
    ///
    /// On PostgreSQL: `string_agg(CAST(self AS text), ?)`.
    public func groupConcat(separator: String? = nil) -> AggregateExpression<String?> {
        AggregateExpression(SQLAggregate(.groupConcat, [queryFragment], separator: separator))
    }

    /// `group_concat(DISTINCT self)`: the distinct non-NULL values joined by `","` (SQLite allows no
    /// separator with `DISTINCT`), or `nil` when there is none. The order is unspecified, as for
    /// ``groupConcat(separator:)``.
    ///
    /// On PostgreSQL: `string_agg(DISTINCT CAST(self AS text), ',')`.
    public func groupConcat(distinct: Bool) -> AggregateExpression<String?> {
        aggregateCall(.groupConcat, distinct: distinct, [queryFragment])
    }
}

extension QueryExpression where QueryValue: OptionalQueryValue {
    /// `min(self)` of an optional expression, typed without a double optional.
    public func min() -> AggregateExpression<QueryValue> {
        aggregateCall(.min, [queryFragment])
    }

    /// `max(self)` of an optional expression, typed without a double optional.
    public func max() -> AggregateExpression<QueryValue> {
        aggregateCall(.max, [queryFragment])
    }
}

extension QueryExpression where QueryValue: NumericQueryValue {
    /// `sum(self)`, or `sum(DISTINCT self)`: the sum of the non-NULL (distinct) values, or `nil`
    /// when there is none. Integers sum to an integer (SQLite reports an overflow as an error).
    public func sum(distinct: Bool = false) -> AggregateExpression<QueryValue?> {
        aggregateCall(.sum, distinct: distinct, [queryFragment])
    }

    /// `total(self)`, or `total(DISTINCT self)`: the sum of the non-NULL (distinct) values as a
    /// `Double`, 0.0 when there is none.
    ///
    /// On PostgreSQL: `CAST(coalesce(sum(self), 0) AS double precision)`.
    public func total(distinct: Bool = false) -> AggregateExpression<Double> {
        aggregateCall(.total, distinct: distinct, [queryFragment])
    }

    /// `avg(self)`, or `avg(DISTINCT self)`: the average of the non-NULL (distinct) values, or
    /// `nil` when there is none.
    ///
    /// On PostgreSQL: `CAST(avg(self) AS double precision)` (its `avg` of integers is a
    /// `numeric`).
    public func avg(distinct: Bool = false) -> AggregateExpression<Double?> {
        aggregateCall(.avg, distinct: distinct, [queryFragment])
    }
}

extension QueryExpression where QueryValue: NumericQueryValue & OptionalQueryValue {
    /// `sum(self)` of an optional expression, typed without a double optional.
    public func sum(distinct: Bool = false) -> AggregateExpression<QueryValue> {
        aggregateCall(.sum, distinct: distinct, [queryFragment])
    }
}
