import Foundation

/// One value in one of SQLite's five storage classes.
///
/// `SQLValue` is the boxed form of a database value, used where the static type is not known:
/// materialized ``Row``s, function arguments, error reports. Typed code never needs it: decoding
/// goes straight from `sqlite3_column_*` to the Swift type through ``SQLExtractable``.
public enum SQLValue: Hashable, Sendable, CustomDebugStringConvertible {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text. TEXT that SQLite holds but that is not valid UTF-8 (bytes cast to TEXT) is read
    /// as ``blob(_:)`` with its exact bytes, since a `String` cannot hold them without replacing
    /// some.
    case text(String)
    /// Bytes.
    case blob(Data)

    /// TEXT as read from SQLite: the text when its bytes are valid UTF-8, otherwise the same bytes
    /// as a blob, so that no byte is lost (`String(decoding:as:)` would replace them).
    package static func text(bytes: UnsafePointer<UInt8>, count: Int) -> SQLValue {
        if let text = String(exactUTF8: bytes, count: count) { return .text(text) }
        return .blob(Data(bytes: bytes, count: count))
    }

    /// The storage class name SQLite uses in `typeof()`: `null`, `integer`, `real`, `text`, `blob`.
    public var storageClass: String {
        switch self {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }

    /// Whether the value is SQL `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A SQL-literal-like rendering, for diagnostics only (never spliced into SQL).
    public var debugDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value):
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    /// The value as SQL, cut short for error messages without formatting what is cut: text to its
    /// first 80 characters, a blob to its first 32 bytes, each with its full size. Cheap for a
    /// value of any size.
    package var shortDescription: String {
        switch self {
        case .null, .integer, .real:
            return debugDescription
        case .text(let value):
            guard value.utf8.count > 80 else { return debugDescription }
            return "'" + value.prefix(80).replacingOccurrences(of: "'", with: "''") + "…' (\(value.utf8.count) bytes)"
        case .blob(let data):
            guard data.count > 32 else { return debugDescription }
            return "X'" + data.prefix(32).map { String(format: "%02X", $0) }.joined() + "…' (\(data.count) bytes)"
        }
    }
}

extension SQLValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension String {
    /// The text of `count` bytes of UTF-8, or `nil` when they are not valid UTF-8.
    ///
    /// `bytes` must be followed by a zero byte, as the text SQLite hands out always is
    /// (`sqlite3_column_text`, `sqlite3_value_text`).
    ///
    /// `String(validatingCString:)` validates without repairing; its `strlen` stops at a zero byte
    /// inside the text, which the length comparison catches. Such text, and text that is not valid
    /// UTF-8, takes the slower path: `String(decoding:as:)` replaces invalid bytes, and text it
    /// repaired differs from the bytes, which one `memcmp` shows. (callgrind, 70,000 strings of
    /// 5–25 bytes: ~8 instructions per string over an unchecked `String(decoding:as:)`, against
    /// ~62 for decoding and comparing.)
    @usableFromInline
    package init?(exactUTF8 bytes: UnsafePointer<UInt8>, count: Int) {
        let validated = bytes.withMemoryRebound(to: CChar.self, capacity: count + 1) {
            String(validatingCString: $0)
        }
        if let validated, validated.utf8.count == count {
            self = validated
            return
        }
        var text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        let isExact = text.withUTF8 { utf8 in
            guard utf8.count == count else { return false }
            guard count > 0, let base = utf8.baseAddress else { return true }
            return memcmp(base, bytes, count) == 0
        }
        guard isExact else { return nil }
        self = text
    }
}
