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

    /// `CAST(self AS type)` with the result's type chosen by the caller (internal).
    func castExpression<Result, Target: SQLCastTarget>(to type: Target.Type) -> SQLExpression<Result> {
        let sqlite = sqlConcat("CAST(", queryFragment, SQL(sql: " AS " + Target.sqlCastType + ")"))
        return SQLExpression(sql: postgreSQLCast(sqlite, to: Target.sqlCastType), precedence: .atomic)
    }

    /// `sqlite`, with PostgreSQL's spelling where its cast gives the same value as SQLite's: from an
    /// integer to `bigint`, `double precision` or `text`; from text to `text`; from a `Double` to `double precision`, or
    /// to `bigint` truncated toward zero first (PostgreSQL rounds). The other casts (from text,
    /// which SQLite reads leniently and PostgreSQL strictly; a `Double` to text, which the engines
    /// write differently; anything to `BLOB`) throw on PostgreSQL.
    private func postgreSQLCast(_ sqlite: SQL, to sqliteType: String) -> SQL {
        let source: Any.Type = QueryValue.self
        let isInteger = [Int.self, Int64.self, Int32.self, Int?.self, Int64?.self, Int32?.self].contains {
            $0 == source
        }
        let isReal = source == Double.self || source == Double?.self
        let isText = source == String.self || source == String?.self
        let postgreSQL: SQL
        switch sqliteType {
        case "INTEGER" where isInteger:
            postgreSQL = sqlConcat("CAST(", queryFragment, " AS bigint)")
        case "INTEGER" where isReal:
            postgreSQL = sqlConcat("CAST(trunc(", queryFragment, ") AS bigint)")
        case "REAL" where isInteger || isReal:
            postgreSQL = sqlConcat("CAST(", queryFragment, " AS double precision)")
        case "TEXT" where isInteger || isText:
            postgreSQL = sqlConcat("CAST(", queryFragment, " AS text)")
        default:
            return SQL(
                sqlite: sqlite,
                unsupportedOnPostgreSQL:
                    "PostgreSQL's CAST gives another value or an error here (only integers and Doubles cast alike, text only to text, and not a Double to text)"
            )
        }
        return SQL(sqlite: sqlite, postgreSQL: postgreSQL)
    }
}

extension QueryExpression where QueryValue: OptionalQueryValue {
    /// `CAST(self AS type)` of an optional expression: `nil` for `NULL`.
    public func cast<Target: SQLCastTarget>(as type: Target.Type) -> SQLExpression<Target?> {
        castExpression(to: Target.self)
    }
}
