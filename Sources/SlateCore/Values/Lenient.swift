import CSQLite

/// A number read with SQLite's own conversions — those of `CAST(x AS INTEGER)` and
/// `CAST(x AS REAL)` — instead of Slate's exact rules: an explicit opt-in for data whose numbers
/// were stored loosely.
///
/// Slate's reads never change a value silently (see ``SQLExtractable``): a REAL 3.7 read as `Int`
/// throws. Wrap the type in `Lenient` to accept what SQLite would make of the value:
///
/// ```swift
/// let quantity: Lenient<Int> = try row[0]        // TEXT '12abc' → 12, REAL 3.7 → 3
/// print(quantity.value)
/// let discount = try row.decode(Lenient<Double>?.self, at: 1)?.value   // NULL → nil
/// ```
///
/// The conversions are SQLite's (`sqlite3_column_int64` and `sqlite3_column_double`, which apply
/// `CAST`'s rules), and a copied row applies the same ones:
///
/// - Integer types: an INTEGER as it is; a REAL truncated toward zero, saturating at the 64-bit
///   bounds (`1e300` → `Int64.max`); TEXT or a BLOB: the integer at its start, after spaces and a
///   sign, saturating (`' 12abc'` → 12, `'1e3'` → 1, `'abc'` → 0). A result that does not fit a
///   narrower type still throws ``ResultCode/mismatch``: that is not SQLite's conversion but a
///   Swift one.
/// - `Bool`: that integer, non-zero is `true`.
/// - `Double`, `Float`: a REAL as it is; an INTEGER rounded to the nearest `Double`; TEXT or a
///   BLOB: the decimal number at its start (`'1.5e'` → 1.5, `'abc'` → 0). A `Float` rounds the
///   `Double` and throws when it is beyond `Float`'s range.
///
/// `NULL` is not a number under either rule: it throws for `Lenient<Value>` and reads as `nil` for
/// `Lenient<Value>?`. A `Lenient` value binds, encodes and decodes as its `value`, so it can be a
/// property of a record.
public struct Lenient<Value: LenientlyExtractable>: SQLValueConvertible {
    /// The value read.
    public var value: Value

    /// Wraps `value`.
    public init(_ value: Value) {
        self.value = value
    }

    /// Converts a boxed value as SQLite's `CAST` would.
    public init(sqlValue: SQLValue) throws {
        self.value = try Value(leniently: sqlValue)
    }

    /// Reads column `index` with SQLite's conversions.
    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Lenient<Value> {
        Lenient(try Value.extractLeniently(from: row, at: index))
    }

    /// The wrapped value's SQL value.
    public var sqlValue: SQLValue { get throws { try value.sqlValue } }

    /// Binds the wrapped value.
    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try value.bind(to: statement, at: index)
    }
}

extension Lenient: Equatable where Value: Equatable {}
extension Lenient: Hashable where Value: Hashable {}

extension Lenient: Encodable where Value: Encodable {
    /// Encodes the wrapped value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension Lenient: Decodable where Value: Decodable {
    /// Decodes the wrapped value. (Row decoders read a `Lenient` column through
    /// ``extract(from:at:)``, with SQLite's conversions.)
    public init(from decoder: any Decoder) throws {
        self.value = try decoder.singleValueContainer().decode(Value.self)
    }
}

/// A type that ``Lenient`` can read with SQLite's `CAST` conversions: the integer types, `Bool`,
/// `Double` and `Float`.
public protocol LenientlyExtractable: SQLValueConvertible {
    /// Converts a boxed value as SQLite's `CAST` would; `NULL` throws ``ResultCode/mismatch``.
    init(leniently sqlValue: SQLValue) throws

    /// Reads column `index` of `row` as SQLite's `CAST` would; `NULL` throws
    /// ``ResultCode/mismatch``.
    static func extractLeniently(from row: borrowing Row, at index: Int) throws -> Self
}

extension LenientlyExtractable where Self: FixedWidthInteger {
    public init(leniently sqlValue: SQLValue) throws {
        let integer = try SQLiteCast.integer(sqlValue, as: Self.self)
        guard let value = Self(exactly: integer) else {
            throw DatabaseError.conversionFailure(
                sqlValue, to: Self.self, reason: "CAST gives \(integer), which does not fit")
        }
        self = value
    }

    @inlinable
    public static func extractLeniently(from row: borrowing Row, at index: Int) throws -> Self {
        if let statement = row.sqliteStatement {
            let value = sqlite3_column_value(statement, row.position(index))
            if sqlite3_value_type(value) != SQLITE_NULL, let integer = Self(exactly: sqlite3_value_int64(value)) {
                return integer
            }
        }
        return try row.leniently(Self.self, at: index)
    }
}

extension Int: LenientlyExtractable {}
extension Int8: LenientlyExtractable {}
extension Int16: LenientlyExtractable {}
extension Int32: LenientlyExtractable {}
extension Int64: LenientlyExtractable {}
extension UInt: LenientlyExtractable {}
extension UInt8: LenientlyExtractable {}
extension UInt16: LenientlyExtractable {}
extension UInt32: LenientlyExtractable {}
extension UInt64: LenientlyExtractable {}

extension Bool: LenientlyExtractable {
    public init(leniently sqlValue: SQLValue) throws {
        self = try SQLiteCast.integer(sqlValue, as: Bool.self) != 0
    }

    @inlinable
    public static func extractLeniently(from row: borrowing Row, at index: Int) throws -> Bool {
        try Int64.extractLeniently(from: row, at: index) != 0
    }
}

extension Double: LenientlyExtractable {
    public init(leniently sqlValue: SQLValue) throws {
        self = try SQLiteCast.real(sqlValue, as: Double.self)
    }

    @inlinable
    public static func extractLeniently(from row: borrowing Row, at index: Int) throws -> Double {
        if let statement = row.sqliteStatement {
            let value = sqlite3_column_value(statement, row.position(index))
            if sqlite3_value_type(value) != SQLITE_NULL { return sqlite3_value_double(value) }
        }
        return try row.leniently(Double.self, at: index)
    }
}

extension Float: LenientlyExtractable {
    public init(leniently sqlValue: SQLValue) throws {
        guard let float = Float.rounding(try SQLiteCast.real(sqlValue, as: Float.self)) else {
            throw DatabaseError.conversionFailure(sqlValue, to: Float.self, reason: "it is out of the range of Float")
        }
        self = float
    }

    @inlinable
    public static func extractLeniently(from row: borrowing Row, at index: Int) throws -> Float {
        guard let float = Float.rounding(try Double.extractLeniently(from: row, at: index)) else {
            throw row.conversionFailure(at: index, to: Float.self, reason: "it is out of the range of Float")
        }
        return float
    }
}

extension Row {
    /// Reads column `index` leniently from its boxed value: copied rows, `NULL`, errors.
    @usableFromInline
    package func leniently<Value: LenientlyExtractable>(_ type: Value.Type, at index: Int) throws -> Value {
        do {
            return try Value(leniently: value(at: index))
        } catch let error as DatabaseError {
            throw contextualize(error, column: index)
        }
    }
}

/// SQLite's conversions of a boxed value, as `sqlite3_value_int64` and `sqlite3_value_double`
/// apply them to a stored value (the rules of `CAST`).
enum SQLiteCast {
    /// `CAST(value AS INTEGER)`.
    static func integer(_ value: SQLValue, as type: Any.Type) throws -> Int64 {
        switch value {
        case .integer(let integer):
            return integer
        case .real(let real):
            // SQLite never stores NaN (it stores NULL); a copied row could hold one.
            if real.isNaN { throw DatabaseError.conversionFailure(value, to: type, reason: "it is not a number") }
            if real <= -9.223372036854775808e18 { return .min }
            if real >= 9.223372036854775807e18 { return .max }
            return Int64(real)
        case .text(var text):
            return text.withUTF8 { integerPrefix(of: $0) }
        case .blob(let data):
            return data.withUnsafeBytes { integerPrefix(of: $0.bindMemory(to: UInt8.self)) }
        case .null:
            throw DatabaseError.conversionFailure(value, to: type)
        }
    }

    /// `CAST(value AS REAL)`.
    static func real(_ value: SQLValue, as type: Any.Type) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        case .text(var text): return text.withUTF8 { realPrefix(of: $0) }
        case .blob(let data): return data.withUnsafeBytes { realPrefix(of: $0.bindMemory(to: UInt8.self)) }
        case .null: throw DatabaseError.conversionFailure(value, to: type)
        }
    }

    /// The integer at the start of `bytes`, as SQLite's `sqlite3Atoi64` reads it: spaces, a sign,
    /// digits up to the first non-digit; saturating at the 64-bit bounds; 0 when there is none.
    static func integerPrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Int64 {
        var index = 0
        while index < bytes.count, SpelledNumber.isSpace(bytes[index]) { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count, SpelledNumber.isDigit(bytes[index]) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = sum
            index += 1
        }
        if negative {
            if overflow || magnitude > UInt64(Int64.max) { return .min }
            return -Int64(magnitude)
        }
        if overflow || magnitude > UInt64(Int64.max) { return .max }
        return Int64(magnitude)
    }

    /// The decimal number at the start of `bytes`, as SQLite's `sqlite3AtoF` reads it: spaces, a
    /// sign, digits with an optional fraction and an optional exponent (ignored without digits); 0
    /// when there is none.
    static func realPrefix(of bytes: UnsafeBufferPointer<UInt8>) -> Double {
        var index = 0
        while index < bytes.count, SpelledNumber.isSpace(bytes[index]) { index += 1 }
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var digits = 0
        while index < bytes.count, SpelledNumber.isDigit(bytes[index]) {
            digits += 1
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, SpelledNumber.isDigit(bytes[index]) {
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { return 0 }
        var end = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            var exponentDigits = 0
            while index < bytes.count, SpelledNumber.isDigit(bytes[index]) {
                exponentDigits += 1
                index += 1
            }
            if exponentDigits > 0 { end = index }
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return Double(literal) ?? 0
    }
}
