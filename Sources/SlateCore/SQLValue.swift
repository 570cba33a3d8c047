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
    /// The text of `count` bytes of UTF-8, or `nil` when they are not valid UTF-8 (never repaired).
    ///
    /// ASCII bytes (checked 8 at a time) are text as they are: up to 15 (a small string) copied
    /// through `String(unsafeUninitializedCapacity:initializingUTF8With:)`, longer ones through
    /// `UTF8Span(unchecked:isKnownASCII:)` and `String(copying:)` (no second validation). Other
    /// bytes are validated (`UTF8Span(validating:)`) then copied. A zero byte inside the text is
    /// text like any other. (Callgrind, the benchmark's Northwind orders, 19,911 strings of mostly
    /// ASCII text: 215 instructions per string, against 251 through the earlier
    /// `String(validatingCString:)`, whose `strlen` and length check came on top of its validation.)
    ///
    /// `UTF8Span` needs the Swift 6.2 runtime (macOS, iOS, tvOS, watchOS and visionOS 26; always
    /// there on Linux): on earlier Apple systems the same answer comes from
    /// ``init(decodingExactUTF8:)``.
    @usableFromInline
    package init?(exactUTF8 bytes: UnsafePointer<UInt8>, count: Int) {
        let buffer = UnsafeBufferPointer(start: bytes, count: count)
        if Self.isASCII(buffer) {
            if count <= 15 {
                self = String(unsafeUninitializedCapacity: count) { target in
                    _ = target.initialize(fromContentsOf: buffer)
                    return count
                }
                return
            }
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                self = String(copying: UTF8Span(unchecked: buffer.span, isKnownASCII: true))
                return
            }
            // ASCII is UTF-8 as it is: decoding repairs nothing.
            self = String(decoding: buffer, as: UTF8.self)
            return
        }
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            // The error says where the bytes stop being UTF-8; nil is all the callers need (they
            // throw `mismatch` or keep the bytes as a blob).
            guard let utf8 = try? UTF8Span(validating: buffer.span) else { return nil }
            self = String(copying: utf8)
            return
        }
        self.init(decodingExactUTF8: buffer)
    }

    /// The text of `buffer`'s UTF-8, or `nil` when it is not valid UTF-8 (never repaired), without
    /// `UTF8Span`: `String(decoding:as:)` replaces invalid bytes, and text it repaired differs from
    /// the bytes. What ``init(exactUTF8:count:)`` does on Apple systems before the Swift 6.2
    /// runtime; tested on every platform.
    package init?(decodingExactUTF8 buffer: UnsafeBufferPointer<UInt8>) {
        var text = String(decoding: buffer, as: UTF8.self)
        let isExact = text.withUTF8 { utf8 in utf8.elementsEqual(buffer) }
        guard isExact else { return nil }
        self = text
    }

    /// Whether every byte of `buffer` is ASCII (below 0x80), read 8 bytes at a time.
    private static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = buffer.count
        var index = 0
        var bits: UInt64 = 0
        while index &+ 8 <= count {
            bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < count {
            bits |= UInt64(base[index])
            index &+= 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
