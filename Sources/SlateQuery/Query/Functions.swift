import SlateConcurrency
import SlateCore

// Scalar SQL functions and COLLATE.

/// A collating sequence, for ``QueryExpression/collate(_:)``.
public struct Collation: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The collation name, unquoted.
    public var rawValue: String

    /// A collation by name, such as one registered on the connection.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A collation by name, such as one registered on the connection.
    public init(_ name: String) { self.rawValue = name }

    /// A collation by name, from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `BINARY`: byte by byte (SQLite's default).
    public static let binary = Collation("BINARY")
    /// `NOCASE`: ASCII letters compare case-insensitively.
    public static let nocase = Collation("NOCASE")
    /// `RTRIM`: like `BINARY`, ignoring trailing spaces.
    public static let rtrim = Collation("RTRIM")
}

extension QueryExpression {
    /// `self COLLATE "name"`: compares and sorts with `collation`.
    ///
    /// ```swift
    /// Artist.where { $0.name.collate(.nocase) == "ac/dc" }
    /// ```
    ///
    /// On PostgreSQL, ``Collation/binary`` is `COLLATE "C"`, other names are passed on, and
    /// ``Collation/nocase`` and ``Collation/rtrim``, which PostgreSQL lacks, throw when the
    /// statement runs (compare `lower()` values, or use `like(_:)`, instead).
    public func collate(_ collation: Collation) -> SQLExpression<QueryValue> {
        postfix(self, SQL(.construct(.collate(collation.rawValue))), precedence: .collate)
    }

    /// `coalesce(self, other)`: `self`, or `other` when `self` is NULL.
    public func coalesce(_ other: some QueryExpression<QueryValue>) -> SQLExpression<QueryValue> {
        functionCall("coalesce", [queryFragment, other.queryFragment])
    }
}

extension QueryExpression where QueryValue: OptionalQueryValue {
    /// `coalesce(self, ?)`: `self`, or `fallback` when `self` is NULL. Non-optional.
    public func coalesce(_ fallback: QueryValue.Wrapped) -> SQLExpression<QueryValue.Wrapped>
    where QueryValue.Wrapped: SQLBindable {
        functionCall("coalesce", [queryFragment, "\(fallback)"])
    }

    /// `coalesce(self, other)` with a non-optional fallback expression. Non-optional.
    public func coalesce<Fallback: QueryExpression>(_ fallback: Fallback) -> SQLExpression<QueryValue.Wrapped>
    where Fallback.QueryValue == QueryValue.Wrapped {
        functionCall("coalesce", [queryFragment, fallback.queryFragment])
    }
}

/// `coalesce(lhs, ?)`: `lhs`, or `rhs` when `lhs` is NULL.
public func ?? <L: QueryExpression>(lhs: L, rhs: L.QueryValue.Wrapped) -> SQLExpression<L.QueryValue.Wrapped>
where L.QueryValue: OptionalQueryValue, L.QueryValue.Wrapped: SQLBindable {
    lhs.coalesce(rhs)
}

/// `coalesce(lhs, rhs)` with a non-optional fallback expression.
public func ?? <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue.Wrapped>
where L.QueryValue: OptionalQueryValue, R.QueryValue == L.QueryValue.Wrapped {
    lhs.coalesce(rhs)
}

/// `coalesce(lhs, rhs)` with an optional fallback expression: the result stays optional.
///
/// When both sides are the same optional column type and nothing else fixes the result type, Swift
/// prefers its own `??` (and warns that the right side is never used): write
/// `lhs.coalesce(rhs)` instead.
public func ?? <L: QueryExpression, R: QueryExpression>(lhs: L, rhs: R) -> SQLExpression<L.QueryValue>
where L.QueryValue: OptionalQueryValue, R.QueryValue == L.QueryValue {
    lhs.coalesce(rhs)
}

extension QueryExpression where QueryValue: TextQueryValue {
    /// `lower(self)`: ASCII letters in lower case.
    public func lower() -> SQLExpression<QueryValue> { functionCall("lower", [queryFragment]) }

    /// `upper(self)`: ASCII letters in upper case.
    public func upper() -> SQLExpression<QueryValue> { functionCall("upper", [queryFragment]) }

    /// `trim(self)`: without leading and trailing spaces.
    public func trim() -> SQLExpression<QueryValue> { functionCall("trim", [queryFragment]) }

}

extension QueryExpression where QueryValue == String {
    /// `length(self)`: the number of characters.
    public func length() -> SQLExpression<Int> { functionCall("length", [queryFragment]) }
}

extension QueryExpression where QueryValue == String? {
    /// `length(self)`: the number of characters, or `nil` for NULL.
    public func length() -> SQLExpression<Int?> { functionCall("length", [queryFragment]) }
}

extension QueryExpression where QueryValue: NumericQueryValue {
    /// `abs(self)`: the absolute value.
    public func abs() -> SQLExpression<QueryValue> { functionCall("abs", [queryFragment]) }

    /// `round(self, digits)`: rounded to `digits` decimal places, as a `Double`. Negative places
    /// round to a whole number, as on SQLite, in every dialect.
    ///
    /// On PostgreSQL: `CAST(round(CAST(self AS numeric), digits) AS double precision)`.
    public func rounded(toPlaces digits: Int = 0) -> SQLExpression<Double> {
        construct(.round(queryFragment, places: digits))
    }
}

extension QueryExpression where QueryValue: NumericQueryValue & OptionalQueryValue {
    /// `round(self, digits)` of an optional expression: `nil` for NULL.
    public func rounded(toPlaces digits: Int = 0) -> SQLExpression<Double?> {
        construct(.round(queryFragment, places: digits))
    }
}
