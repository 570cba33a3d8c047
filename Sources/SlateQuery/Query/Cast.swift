import Foundation
import SlateConcurrency
import SlateCore

// `CAST(expression AS type)`, typed by the Swift type asked for.

/// A Swift type that `CAST` can convert to: its SQLite type name.
///
/// `Int`, `Int64` (`INTEGER`), `Double` (`REAL`), `String` (`TEXT`) and `Data` (`BLOB`) conform.
public protocol SQLCastTarget: SQLExtractable {
    /// The type name `CAST` converts to, such as `INTEGER`.
    static var sqlCastType: String { get }
}

extension Int: SQLCastTarget {
    /// `INTEGER`.
    public static var sqlCastType: String { "INTEGER" }
}

extension Int64: SQLCastTarget {
    /// `INTEGER`.
    public static var sqlCastType: String { "INTEGER" }
}

extension Double: SQLCastTarget {
    /// `REAL`.
    public static var sqlCastType: String { "REAL" }
}

extension String: SQLCastTarget {
    /// `TEXT`.
    public static var sqlCastType: String { "TEXT" }
}

extension Data: SQLCastTarget {
    /// `BLOB`.
    public static var sqlCastType: String { "BLOB" }
}

extension QueryExpression {
    /// `CAST(self AS type)`: the value converted with SQLite's `CAST` rules, which never fail.
    ///
    /// ```swift
    /// Track.select { ($0.name, $0.unitPrice.cast(as: Int.self)) }   // CAST("Track"."UnitPrice" AS INTEGER)
    /// ```
    ///
    /// Those rules are SQLite's, not Swift's: to `INTEGER`, a `REAL` is truncated toward zero
    /// (`3.7` → 3, beyond 64 bits it saturates), and `TEXT` is read as its longest leading integer
    /// (`'12abc'` → 12, `'abc'` → 0); to `REAL`, text is read as its longest leading number; to
    /// `TEXT`, a number becomes its decimal text and a `BLOB` its bytes as text. `NULL` stays `NULL`,
    /// so casting an optional expression gives an optional value (see the overload for optionals).
    /// The converted value is read exactly as any other: a cast to `TEXT` of bytes that are not
    /// UTF-8 throws when read.
    public func cast<Target: SQLCastTarget>(as type: Target.Type) -> SQLExpression<Target> {
        castExpression(to: Target.self)
    }

    /// `CAST(self AS type)` with the result's type chosen by the caller (internal). Each dialect
    /// writes it where its cast gives SQLite's value, and refuses it elsewhere: the kind of the
    /// source value decides (from an integer, a `Double`, text, or another type).
    func castExpression<Result, Target: SQLCastTarget>(to type: Target.Type) -> SQLExpression<Result> {
        let source: Any.Type = QueryValue.self
        let kind: SQLValueKind
        if [Int.self, Int64.self, Int32.self, Int?.self, Int64?.self, Int32?.self].contains(where: { $0 == source }) {
            kind = .integer
        } else if source == Double.self || source == Double?.self {
            kind = .real
        } else if source == String.self || source == String?.self {
            kind = .text
        } else {
            kind = .other
        }
        return construct(.cast(queryFragment, to: Target.sqlCastType, from: kind))
    }
}

extension QueryExpression where QueryValue: OptionalQueryValue {
    /// `CAST(self AS type)` of an optional expression: `nil` for `NULL`.
    public func cast<Target: SQLCastTarget>(as type: Target.Type) -> SQLExpression<Target?> {
        castExpression(to: Target.self)
    }
}
