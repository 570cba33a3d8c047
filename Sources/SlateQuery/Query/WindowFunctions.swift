import SlateConcurrency
import SlateCore

// Window functions: the ranking and value functions, and aggregates, computed over a window of
// rows (`OVER (PARTITION BY … ORDER BY … frame)`). A window function is only an expression once it
// has its window, so `rowNumber()` alone does not compile where an expression is expected.
// Standard SQL: PostgreSQL runs the same text, with the integer arguments cast to `integer`.

/// A window: `PARTITION BY`, `ORDER BY` and a frame, each optional. Start one with
/// ``Window/partition(by:)``, ``Window/order(by:)``, or ``Window/all`` (`OVER ()`).
///
/// ```swift
/// Track.select { track in
///     (track.name, rank().over(.partition(by: track.genreId).order(by: track.milliseconds.descending())))
/// }
/// // rank() OVER (PARTITION BY "Track"."GenreId" ORDER BY "Track"."Milliseconds" DESC)
/// ```
public struct Window: Sendable {
    var partitions: [SQL] = []
    var ordering: [SQL] = []
    var frame: SQL?

    /// `OVER ()`: every row of the result is in the window.
    public static let all = Window()

    /// `PARTITION BY expressions`: the window of a row holds the rows with the same values.
    public static func partition<each Expression: QueryExpression>(by expressions: repeat each Expression) -> Window {
        Window().partition(by: repeat each expressions)
    }

    /// `ORDER BY terms`: the order of the rows in each partition.
    public static func order<each Term: OrderingTerm>(by terms: repeat each Term) -> Window {
        Window().order(by: repeat each terms)
    }

    /// Adds `PARTITION BY` expressions.
    public func partition<each Expression: QueryExpression>(by expressions: repeat each Expression) -> Window {
        var copy = self
        for expression in repeat each expressions { copy.partitions.append(expression.queryFragment) }
        return copy
    }

    /// Adds `ORDER BY` terms.
    public func order<each Term: OrderingTerm>(by terms: repeat each Term) -> Window {
        var copy = self
        for term in repeat each terms { copy.ordering.append(term.orderingFragment) }
        return copy
    }

    /// `ROWS BETWEEN start AND end`: a frame counted in rows.
    public func rows(_ start: FrameBound, _ end: FrameBound) -> Window {
        framed("ROWS", start, end)
    }

    /// `RANGE BETWEEN start AND end`: a frame of the rows whose ordering value is within the bounds
    /// (with an offset, the window needs exactly one numeric ordering term).
    public func range(_ start: FrameBound, _ end: FrameBound) -> Window {
        framed("RANGE", start, end)
    }

    /// `GROUPS BETWEEN start AND end`: a frame counted in groups of rows with equal ordering values.
    public func groups(_ start: FrameBound, _ end: FrameBound) -> Window {
        framed("GROUPS", start, end)
    }

    private func framed(_ unit: String, _ start: FrameBound, _ end: FrameBound) -> Window {
        var copy = self
        copy.frame = SQL(text: unit + " BETWEEN " + start.text + " AND " + end.text)
        return copy
    }

    /// `(PARTITION BY … ORDER BY … frame)`.
    var fragment: SQL {
        var parts: [SQL] = []
        if !partitions.isEmpty { parts.append(sqlConcat("PARTITION BY ", SQL.joined(partitions, separator: ", "))) }
        if !ordering.isEmpty { parts.append(sqlConcat("ORDER BY ", SQL.joined(ordering, separator: ", "))) }
        if let frame { parts.append(frame) }
        return sqlConcat("(", SQL.joined(parts, separator: " "), ")")
    }
}

/// A bound of a window frame.
public struct FrameBound: Sendable, Hashable {
    let text: String

    /// `UNBOUNDED PRECEDING`: the first row of the partition.
    public static let unboundedPreceding = FrameBound(text: "UNBOUNDED PRECEDING")
    /// `CURRENT ROW`.
    public static let currentRow = FrameBound(text: "CURRENT ROW")
    /// `UNBOUNDED FOLLOWING`: the last row of the partition.
    public static let unboundedFollowing = FrameBound(text: "UNBOUNDED FOLLOWING")

    /// `N PRECEDING`: `count` rows (or groups, or ordering units) before the current row. SQLite
    /// rejects a negative count when the statement is prepared.
    public static func preceding(_ count: Int) -> FrameBound { FrameBound(text: "\(count) PRECEDING") }

    /// `N FOLLOWING`: `count` rows (or groups, or ordering units) after the current row. SQLite
    /// rejects a negative count when the statement is prepared.
    public static func following(_ count: Int) -> FrameBound { FrameBound(text: "\(count) FOLLOWING") }
}

/// A window function call that still needs its window: ``over(_:)`` makes it an expression.
public struct WindowFunction<Value>: Sendable {
    let call: SQL

    /// `call OVER (window)`.
    public func over(_ window: Window = .all) -> SQLExpression<Value> {
        SQLExpression(sql: sqlConcat(call, " OVER ", window.fragment), precedence: .atomic)
    }
}

/// `name(arguments)`, waiting for its window.
func windowCall<Value>(_ name: String, _ arguments: [SQL]) -> WindowFunction<Value> {
    var sql = SQL(text: name + "(")
    sql.append(SQL.joined(arguments, separator: ", "))
    sql.append(text: ")")
    return WindowFunction(call: sql)
}

/// `row_number()`: the row's number in its partition, from 1.
public func rowNumber() -> WindowFunction<Int> { WindowFunction(call: "row_number()") }

/// `rank()`: the row's rank in its partition, with gaps after ties (1, 1, 3).
public func rank() -> WindowFunction<Int> { WindowFunction(call: "rank()") }

/// `dense_rank()`: the row's rank in its partition, without gaps after ties (1, 1, 2).
public func denseRank() -> WindowFunction<Int> { WindowFunction(call: "dense_rank()") }

/// `percent_rank()`: `(rank - 1) / (rows in the partition - 1)`, from 0.0 to 1.0.
public func percentRank() -> WindowFunction<Double> { WindowFunction(call: "percent_rank()") }

/// `cume_dist()`: the fraction of the partition's rows that sort before or with this row.
public func cumeDist() -> WindowFunction<Double> { WindowFunction(call: "cume_dist()") }

/// `ntile(?)`: the partition split into `groups` groups as even as possible; the row's group, from
/// 1. `groups` must be positive (SQLite reports an error otherwise).
public func ntile(_ groups: Int) -> WindowFunction<Int> {
    WindowFunction(call: sqlConcat("ntile(", integerArgument(groups), ")"))
}

extension QueryExpression where QueryValue: SQLExtractable {
    /// `lag(self, ?)`: the value `offset` rows before this one in its partition, or `nil` when
    /// there is no such row.
    public func lag(offset: Int = 1) -> WindowFunction<QueryValue.SQLNullable> {
        windowCall("lag", [queryFragment, integerArgument(offset)])
    }

    /// `lag(self, ?, ?)`: the value `offset` rows before this one in its partition, or `fallback`
    /// when there is no such row.
    public func lag(offset: Int = 1, default fallback: QueryValue) -> WindowFunction<QueryValue>
    where QueryValue: SQLBindable {
        windowCall("lag", [queryFragment, integerArgument(offset), bound(fallback)])
    }

    /// `lead(self, ?)`: the value `offset` rows after this one in its partition, or `nil` when
    /// there is no such row.
    public func lead(offset: Int = 1) -> WindowFunction<QueryValue.SQLNullable> {
        windowCall("lead", [queryFragment, integerArgument(offset)])
    }

    /// `lead(self, ?, ?)`: the value `offset` rows after this one in its partition, or `fallback`
    /// when there is no such row.
    public func lead(offset: Int = 1, default fallback: QueryValue) -> WindowFunction<QueryValue>
    where QueryValue: SQLBindable {
        windowCall("lead", [queryFragment, integerArgument(offset), bound(fallback)])
    }

    /// `first_value(self)`: the value of the first row of the frame. Optional: a frame that does
    /// not reach the current row (`ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING`) can be empty.
    public func firstValue() -> WindowFunction<QueryValue.SQLNullable> {
        windowCall("first_value", [queryFragment])
    }

    /// `last_value(self)`: the value of the last row of the frame (with the default frame, the
    /// current row's last peer). Optional, as the frame can be empty.
    public func lastValue() -> WindowFunction<QueryValue.SQLNullable> {
        windowCall("last_value", [queryFragment])
    }

    /// `nth_value(self, ?)`: the value of row `n` (from 1) of the frame, or `nil` when the frame
    /// has fewer rows.
    public func nthValue(_ n: Int) -> WindowFunction<QueryValue.SQLNullable> {
        windowCall("nth_value", [queryFragment, integerArgument(n)])
    }
}
