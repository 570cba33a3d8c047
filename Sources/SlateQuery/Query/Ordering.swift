import SlateConcurrency
import SlateCore

/// A term of an `ORDER BY` clause: an expression (sorted ascending) or an ``Ordering``.
public protocol OrderingTerm {
    /// The term's SQL, such as `"Person"."name" DESC NULLS LAST`.
    var orderingFragment: SQL { get }
}

/// An expression with a sort direction and, optionally, where NULLs go.
///
/// ```swift
/// Track.order { ($0.composer.descending(nulls: .last), $0.name) }
/// ```
public struct Ordering: OrderingTerm {
    /// A sort direction.
    public enum Direction: Sendable, Hashable {
        /// Smallest first (`ASC`).
        case ascending
        /// Largest first (`DESC`).
        case descending
    }

    /// Where NULLs sort.
    public enum NullsPosition: Sendable, Hashable {
        /// Before every value (`NULLS FIRST`; SQLite's default for ascending order).
        case first
        /// After every value (`NULLS LAST`; SQLite's default for descending order).
        case last
    }

    /// The sorted expression.
    public var expression: SQL
    /// The direction.
    public var direction: Direction
    /// Where NULLs go, or `nil` for SQLite's default.
    public var nulls: NullsPosition?

    /// Creates an ordering term.
    public init(_ expression: some QueryExpression, direction: Direction = .ascending, nulls: NullsPosition? = nil) {
        self.expression = expression.queryFragment
        self.direction = direction
        self.nulls = nulls
    }

    /// `expression ASC|DESC [NULLS FIRST|LAST]`.
    public var orderingFragment: SQL {
        var sql = expression
        sql.append(direction == .ascending ? " ASC" : " DESC")
        switch nulls {
        case .first?: sql.append(" NULLS FIRST")
        case .last?: sql.append(" NULLS LAST")
        case nil: break
        }
        return sql
    }
}

extension QueryExpression {
    /// Sorts by this expression, smallest first; NULLs first unless `nulls` says otherwise.
    public func ascending(nulls: Ordering.NullsPosition? = nil) -> Ordering {
        Ordering(self, direction: .ascending, nulls: nulls)
    }

    /// Sorts by this expression, largest first; NULLs last unless `nulls` says otherwise.
    public func descending(nulls: Ordering.NullsPosition? = nil) -> Ordering {
        Ordering(self, direction: .descending, nulls: nulls)
    }
}
