import SlateConcurrency
import SlateCore

// Aggregate functions. Their result types follow SQLite: an aggregate over no row is NULL (so
// `min`, `max`, `sum` and `avg` are optional), except `count` (0) and `total` (0.0).

/// `count(*)`: the number of rows.
///
/// ```swift
/// Track.group(by: \.genreId).select { ($0.genreId, count()) }
/// ```
public func count() -> SQLExpression<Int> {
    SQLExpression(sql: "count(*)", precedence: .atomic)
}

extension QueryExpression {
    /// `count(self)`, or `count(DISTINCT self)`: the number of non-NULL (distinct) values.
    public func count(distinct: Bool = false) -> SQLExpression<Int> {
        functionCall("count", [distinct ? sqlConcat("DISTINCT ", queryFragment) : queryFragment])
    }

    /// `min(self)`: the smallest non-NULL value, or `nil` when there is none.
    public func min() -> SQLExpression<QueryValue?> {
        functionCall("min", [queryFragment])
    }

    /// `max(self)`: the largest non-NULL value, or `nil` when there is none.
    public func max() -> SQLExpression<QueryValue?> {
        functionCall("max", [queryFragment])
    }

    /// `group_concat(self, ?)`: the non-NULL values joined by `separator` (SQLite's default is
    /// `","`), or `nil` when there is none. The order is unspecified.
    public func groupConcat(separator: String? = nil) -> SQLExpression<String?> {
        if let separator {
            return functionCall("group_concat", [queryFragment, "\(separator)"])
        }
        return functionCall("group_concat", [queryFragment])
    }
}

extension QueryExpression where QueryValue: OptionalQueryValue {
    /// `min(self)` of an optional expression, typed without a double optional.
    public func min() -> SQLExpression<QueryValue> {
        functionCall("min", [queryFragment])
    }

    /// `max(self)` of an optional expression, typed without a double optional.
    public func max() -> SQLExpression<QueryValue> {
        functionCall("max", [queryFragment])
    }
}

extension QueryExpression where QueryValue: NumericQueryValue {
    /// `sum(self)`: the sum of the non-NULL values, or `nil` when there is none. Integers sum to an
    /// integer (SQLite reports an overflow as an error).
    public func sum() -> SQLExpression<QueryValue?> {
        functionCall("sum", [queryFragment])
    }

    /// `total(self)`: the sum of the non-NULL values as a `Double`, 0.0 when there is none.
    public func total() -> SQLExpression<Double> {
        functionCall("total", [queryFragment])
    }

    /// `avg(self)`: the average of the non-NULL values, or `nil` when there is none.
    public func avg() -> SQLExpression<Double?> {
        functionCall("avg", [queryFragment])
    }
}

extension QueryExpression where QueryValue: NumericQueryValue & OptionalQueryValue {
    /// `sum(self)` of an optional expression, typed without a double optional.
    public func sum() -> SQLExpression<QueryValue> {
        functionCall("sum", [queryFragment])
    }
}
