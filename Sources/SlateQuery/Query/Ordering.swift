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
        /// Before every value (`NULLS FIRST`; the default for ascending order, as on SQLite).
        case first
        /// After every value (`NULLS LAST`; the default for descending order, as on SQLite).
        case last
    }

    /// The sorted expression.
    public var expression: SQL
    /// The direction.
    public var direction: Direction
    /// Where NULLs go, or `nil` for the default: first when ascending, last when descending, as
    /// on SQLite, in every dialect (PostgreSQL's own default is the opposite; Slate writes
    /// `NULLS FIRST` or `NULLS LAST` there for an expression that can be NULL).
    public var nulls: NullsPosition?
    /// Whether the expression's value type is optional.
    let isNullable: Bool

    /// Creates an ordering term.
    public init(_ expression: some QueryExpression, direction: Direction = .ascending, nulls: NullsPosition? = nil) {
        self.expression = expression.queryFragment
        self.direction = direction
        self.nulls = nulls
        self.isNullable = expression.isNullable
    }

    /// `expression ASC|DESC [NULLS FIRST|LAST]`.
    public var orderingFragment: SQL {
        SQL(
            .construct(
                .ordering(
                    expression, descending: direction == .descending, nullsFirst: nulls.map { $0 == .first },
                    nullable: isNullable)))
    }
}

extension QueryExpression {
    /// Sorts by this expression, smallest first; NULLs first unless `nulls` says otherwise (in
    /// every dialect).
    public func ascending(nulls: Ordering.NullsPosition? = nil) -> Ordering {
        Ordering(self, direction: .ascending, nulls: nulls)
    }

    /// Sorts by this expression, largest first; NULLs last unless `nulls` says otherwise (in every
    /// dialect).
    public func descending(nulls: Ordering.NullsPosition? = nil) -> Ordering {
        Ordering(self, direction: .descending, nulls: nulls)
    }
}
