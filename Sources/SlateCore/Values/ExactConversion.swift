import CSQLite
import Foundation

// The one set of rules by which a stored value becomes a Swift number or string. Live rows read the
// common case (the storage class the type asks for) straight from the C API and hand everything
// else to these functions, which copied rows use for every read: both kinds of row convert alike.
//
// - An integer type reads an INTEGER that fits it; a REAL that is a whole number within its range
//   (3.0 → 3; 3.7, 1e300, NaN and ±infinity throw); TEXT that spells such a number.
// - `Double` reads a REAL; an INTEGER that a `Double` holds exactly (2^53 + 1 throws); TEXT that
//   spells such a number.
// - `String` reads TEXT, and an INTEGER or REAL as its decimal text (which reads back as the same
//   number).
// - TEXT spells a number when all of it, between optional leading and trailing spaces, is a
//   decimal literal: an optional sign, digits with an optional fraction, and an optional exponent
//   (`42`, ` -7 `, `3.0`, `.5`, `1e3`). It is the number SQLite's NUMERIC affinity would store: an
//   integer literal that fits 64 bits is an INTEGER, anything else the nearest REAL. `12abc`, `''`,
//   `0x1A`, `inf` and `nan` spell no number.
// - BLOB and NULL convert to none of them (NULL reads as `nil` into an optional).
//
// `Lenient` opts out, for SQLite's own `CAST` conversions.

/// A number that a text value spells; see the rules above.
@usableFromInline
package enum SpelledNumber: Equatable {
    /// An integer literal that fits a signed 64-bit integer.
    case integer(Int64)
    /// An integer literal above `Int64.max` that fits an unsigned 64-bit integer: an INTEGER for
    /// unsigned types only (SQLite itself would store it as a REAL).
    case unsignedInteger(UInt64)
    /// A literal with a fraction or an exponent: the nearest `Double` (infinite when it is beyond
    /// `Double`'s range).
    case real(Double)
    /// An integer literal beyond 64 bits: no integer type holds it; as a `Double`, the nearest one.
    case largeInteger(Double)

    /// The number `text` spells, or `nil` when it spells none.
    package init?(_ text: String) {
        var text = text
        guard let number = text.withUTF8({ Self(utf8: $0) }) else { return nil }
        self = number
    }

    /// The number the UTF-8 bytes spell, or `nil`.
    package init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        var end = bytes.count
        while start < end, Self.isSpace(bytes[start]) { start += 1 }
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }

        var index = start
        var negative = false
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var magnitude: UInt64 = 0
        var overflow = false
        var integerDigits = 0
        while index < end, Self.isDigit(bytes[index]) {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            magnitude = sum
            integerDigits += 1
            index += 1
        }
        var isInteger = true
        var fractionDigits = 0
        if index < end, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            while index < end, Self.isDigit(bytes[index]) {
                fractionDigits += 1
                index += 1
            }
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < end, Self.isDigit(bytes[index]) {
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
        }
        guard index == end else { return nil }

        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        if isInteger && overflow {
            guard let real = Double(literal) else { return nil }
            self = .largeInteger(real)
            return
        }
        if isInteger {
            if negative {
                if magnitude <= UInt64(Int64.max) {
                    self = .integer(-Int64(magnitude))
                    return
                }
                if magnitude == UInt64(Int64.max) + 1 {
                    self = .integer(.min)
                    return
                }
                // Below Int64.min: no integer type holds it.
                guard let real = Double(literal) else { return nil }
                self = .largeInteger(real)
                return
            } else if magnitude <= UInt64(Int64.max) {
                self = .integer(Int64(magnitude))
                return
            } else {
                self = .unsignedInteger(magnitude)
                return
            }
        }
        // Validated above: Swift's parser reads it, correctly rounded.
        guard let real = Double(literal) else { return nil }
        self = .real(real)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The spaces SQLite skips around numbers: space, tab, line feed, vertical tab, form feed,
    /// carriage return.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
}

extension SQLValue {
    /// The value as the integer type `type`, exactly, or a ``ResultCode/mismatch`` error without
    /// column context.
    @usableFromInline
    package func exactInteger<Integer: FixedWidthInteger>(
        as integerType: Integer.Type, reportedAs reported: Any.Type? = nil
    ) throws -> Integer {
        let type = reported ?? integerType
        switch self {
        case .integer(let integer):
            if let value = Integer(exactly: integer) { return value }
            throw DatabaseError.conversionFailure(self, to: type, reason: "integer overflow")
        case .real(let real):
            if let value = Integer(exactly: real) { return value }
            throw DatabaseError.conversionFailure(
                self, to: type, reason: Self.inexactIntegerReason(real, type, integerType))
        case .text(let text):
            switch SpelledNumber(text) {
            case .integer(let integer)?:
                if let value = Integer(exactly: integer) { return value }
                throw DatabaseError.conversionFailure(self, to: type, reason: "integer overflow")
            case .unsignedInteger(let integer)?:
                if let value = Integer(exactly: integer) { return value }
                throw DatabaseError.conversionFailure(self, to: type, reason: "integer overflow")
            case .largeInteger?:
                throw DatabaseError.conversionFailure(self, to: type, reason: "integer overflow")
            case .real(let real)?:
                if let value = Integer(exactly: real) { return value }
                throw DatabaseError.conversionFailure(
                    self, to: type, reason: Self.inexactIntegerReason(real, type, integerType))
            case nil:
                throw DatabaseError.conversionFailure(self, to: type, reason: "the text is not a number")
            }
        case .null, .blob:
            throw DatabaseError.conversionFailure(self, to: type)
        }
    }

    /// The value as a `Double`, exactly for integers, or a ``ResultCode/mismatch`` error without
    /// column context.
    @usableFromInline
    package func exactDouble() throws -> Double {
        switch self {
        case .real(let real):
            return real
        case .integer(let integer):
            if let value = Double(exactly: integer) { return value }
            throw DatabaseError.conversionFailure(
                self, to: Double.self, reason: "a Double cannot hold this integer exactly")
        case .text(let text):
            switch SpelledNumber(text) {
            case .integer(let integer)?:
                if let value = Double(exactly: integer) { return value }
                throw DatabaseError.conversionFailure(
                    self, to: Double.self, reason: "a Double cannot hold this integer exactly")
            case .unsignedInteger(let integer)?:
                if let value = Double(exactly: integer) { return value }
                throw DatabaseError.conversionFailure(
                    self, to: Double.self, reason: "a Double cannot hold this integer exactly")
            case .real(let real)?, .largeInteger(let real)?:
                if real.isFinite { return real }
                throw DatabaseError.conversionFailure(
                    self, to: Double.self, reason: "the number is beyond the range of Double")
            case nil:
                throw DatabaseError.conversionFailure(self, to: Double.self, reason: "the text is not a number")
            }
        case .null, .blob:
            throw DatabaseError.conversionFailure(self, to: Double.self)
        }
    }

    /// The value as text: TEXT itself, a number as its decimal text. A ``ResultCode/mismatch`` error
    /// without column context for `NULL` and BLOB.
    @usableFromInline
    package func exactString() throws -> String {
        switch self {
        case .text(let text): return text
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .null, .blob: throw DatabaseError.conversionFailure(self, to: String.self)
        }
    }

    /// Why `real` is not exactly an `Integer`.
    static func inexactIntegerReason<Integer: FixedWidthInteger>(
        _ real: Double, _ type: Any.Type, _ integerType: Integer.Type
    ) -> String {
        if real.isNaN { return "it is not a number" }
        if real.isInfinite { return "it is infinite" }
        if real.rounded(.towardZero) != real { return "it has a fractional part" }
        return "it is out of the range of \(type == Bool.self ? integerType : type)"
    }
}

extension Row {
    /// Reads column `index` as the integer type `type` under the exact rules, from the boxed value:
    /// the path every read takes that the C API's fast path did not answer.
    @usableFromInline
    package func exactInteger<Integer: FixedWidthInteger>(
        at index: Int, as type: Integer.Type, reportedAs reported: Any.Type? = nil
    ) throws -> Integer {
        do {
            return try value(at: index).exactInteger(as: type, reportedAs: reported)
        } catch let error as DatabaseError {
            throw contextualize(error, column: index)
        }
    }

    /// Reads column `index` as a `Double` under the exact rules, from the boxed value.
    @usableFromInline
    package func exactDouble(at index: Int) throws -> Double {
        do {
            return try value(at: index).exactDouble()
        } catch let error as DatabaseError {
            throw contextualize(error, column: index)
        }
    }

    /// Reads column `index` as a `String` under the exact rules, from the boxed value.
    @usableFromInline
    package func exactString(at index: Int) throws -> String {
        let value = value(at: index)
        if case .blob = value {
            // TEXT that is not valid UTF-8 reads as its bytes (SQLValue.text(bytes:count:)), on
            // SQLite as on a foreign engine.
            let isText: Bool
            if let sqliteStatement {
                isText = sqlite3_column_type(sqliteStatement, position(index)) == SQLITE_TEXT
            } else {
                isText = foreign?.isText(at: Int(position(index))) ?? false
            }
            if isText { throw conversionFailure(at: index, to: String.self, reason: "the TEXT is not valid UTF-8") }
        }
        do {
            return try value.exactString()
        } catch let error as DatabaseError {
            throw contextualize(error, column: index)
        }
    }
}
