import CSQLite
import Foundation

/// A value that can be bound to a statement parameter. Values are `Sendable`, so that a statement
/// built in one place can run in another task.
///
/// Slate's standard types (integers, floating point, `Bool`, `String`, `Data`, `[UInt8]`, `URL`,
/// `UUID`, `Date`, `Decimal`, optionals, `RawRepresentable` enums) conform already.
///
/// To store your own type, implement ``sqlValue`` and let the default
/// ``bind(to:at:)-5v7xk`` bind it; implement ``bind(to:at:)`` yourself only to skip the boxing:
///
/// ```swift
/// struct Cents: SQLValueConvertible {
///     var amount: Int
///     var sqlValue: SQLValue { .integer(Int64(amount)) }
///     init(amount: Int) { self.amount = amount }
///     init(sqlValue: SQLValue) throws { amount = try Int(sqlValue: sqlValue) }
/// }
/// ```
public protocol SQLBindable: Sendable {
    /// The value in boxed form. Throws ``DatabaseError`` (``ResultCode/mismatch``) when the value
    /// cannot be represented, such as a `UInt64` above `Int64.max`.
    var sqlValue: SQLValue { get throws }

    /// Binds the value to parameter `index` (1-based) of `statement`, calling `sqlite3_bind_*`.
    func bind(to statement: Statement, at index: Int) throws
}

/// A value that can be read from a result column or from a boxed ``SQLValue``.
///
/// Reading never changes a value silently. A conversion that keeps the value succeeds; one that
/// would lose it throws ``DatabaseError`` with ``ResultCode/mismatch``, naming the column and the
/// SQL. A live ``Row`` and a ``CopiedRow`` follow the same rules:
///
/// | Swift type | reads | throws |
/// | --- | --- | --- |
/// | `Int`, `Int8` … `UInt64` | an INTEGER that fits; a REAL that is a whole number in range (`3.0` → 3); TEXT that spells one | a REAL with a fraction (`3.7`), out of range (`1e300`), NaN or ±infinity; an INTEGER that does not fit |
/// | `Bool` | an integer under the same rules: 0 is `false`, any other integer `true` | what the integer types throw |
/// | `Double` | a REAL; an INTEGER that a `Double` holds exactly; TEXT that spells such a number | an INTEGER beyond 2^53 that a `Double` would round (`2^53 + 1`) |
/// | `Float` | a `Double` under its rules that a `Float` holds exactly (`0.5`, `16777216`) | a value a `Float` would round (`0.1`, `16777217`) or that is beyond its range |
/// | `Decimal` | an INTEGER; a REAL as the number its shortest round-trip text spells (`123.456` → `123.456`, not `Decimal(123.456)`'s binary digits); TEXT that spells a number | more significant digits than its 128-bit mantissa holds (38, some of 39); beyond `Decimal`'s range; BLOB |
/// | `String` | TEXT; an INTEGER or REAL as its decimal text | BLOB |
/// | `Data`, `[UInt8]` | a BLOB; the UTF-8 bytes of TEXT | INTEGER, REAL |
///
/// TEXT *spells a number* when all of it, between optional leading and trailing spaces, is a decimal
/// literal: an optional sign, digits with an optional fraction, an optional exponent (`42`, ` -7 `,
/// `3.0`, `.5`, `1e3`). It stands for the number SQLite's NUMERIC affinity would store — an integer
/// literal that fits 64 bits is an INTEGER, any other literal the nearest REAL — and that number
/// follows the rules above. `'12abc'`, `''`, `'0x1A'`, `'inf'` and `'nan'` spell no number and throw.
///
/// `NULL` throws for every non-optional type and reads as `nil` into an optional. To read with
/// SQLite's own `CAST` conversions instead (`'12abc'` → 12, `3.7` → 3, `1e300` → `Int64.max`, `0.1`
/// as the nearest `Float`), read a ``Lenient`` value.
public protocol SQLExtractable {
    /// Creates the value from its boxed form.
    init(sqlValue: SQLValue) throws

    /// Reads column `index` (0-based) of `row`. The default implementation reads the boxed value
    /// and calls ``init(sqlValue:)``; standard types read `sqlite3_column_*` directly.
    static func extract(from row: borrowing Row, at index: Int) throws -> Self

    /// Reads column `index` of `row`, or returns `nil` when it is `NULL`: the path optionals take.
    /// The default checks for `NULL`, then calls ``extract(from:at:)``; standard types do both in
    /// one pass over the C API.
    static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Self?

    /// The type of this value where SQL can yield `NULL` instead: `Self?`, and an optional
    /// itself. The query builder types scalar subqueries and left-joined columns with it.
    associatedtype SQLNullable: SQLExtractable = Self?

    /// The type of an SQL condition on values of this type: `Bool`, and `Bool?` for an optional,
    /// since a comparison with `NULL` is itself `NULL` (SQL's three-valued logic). The query
    /// builder types comparisons with it.
    associatedtype SQLCondition: SQLExtractable = Bool
}

/// A value that can be both bound and extracted.
public typealias SQLValueConvertible = SQLBindable & SQLExtractable

extension SQLBindable {
    /// Binds ``sqlValue``.
    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindValue(sqlValue, at: index)
    }
}

extension SQLExtractable {
    /// Checks for `NULL`, then reads the value with ``extract(from:at:)``.
    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Self? {
        if row.isNull(at: index) { return nil }
        return try extract(from: row, at: index)
    }

    /// Reads the boxed value and converts it with ``init(sqlValue:)``.
    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Self {
        let value = row.value(at: index)
        do {
            return try Self(sqlValue: value)
        } catch let error as DatabaseError {
            throw row.contextualize(error, column: index)
        }
    }
}

// MARK: - Conversion errors

extension DatabaseError {
    /// A value could not become the requested Swift type.
    @usableFromInline
    package static func conversionFailure(_ value: SQLValue, to type: Any.Type, reason: String? = nil) -> DatabaseError
    {
        let what: String
        if value.isNull {
            what = "NULL cannot be read as non-optional \(type)"
        } else {
            what = "\(value.storageClass) value \(value.shortDescription) cannot be read as \(type)"
        }
        return DatabaseError(resultCode: .mismatch, message: reason.map { "\(what): \($0)" } ?? what)
    }

    /// A value does not fit the SQLite storage class it must be bound as.
    @usableFromInline
    package static func unrepresentable(_ description: String, as storage: String) -> DatabaseError {
        DatabaseError(resultCode: .mismatch, message: "\(description) cannot be stored as \(storage)")
    }
}
