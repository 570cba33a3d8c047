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
/// Reading is strict where SQLite would lose information: `NULL` into a non-optional, a fractional
/// real into an integer, text that is not a number into a number, or an integer that does not fit
/// the Swift type all throw ``DatabaseError`` with ``ResultCode/mismatch``. Lossless conversions
/// (an integer into `Double`, a number into `String`, text digits into an integer) succeed.
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
    package static func conversionFailure(_ value: SQLValue, to type: Any.Type, reason: String? = nil) -> DatabaseError {
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
