import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// Encodes `Encodable` values into column values, by column name: the mirror of ``RowDecoder``.
///
/// Standard types and every ``SQLBindable`` type keep their own binding (dates bind with the
/// connection's ``DateStrategy``), values that encode as a single value (such as
/// `RawRepresentable` enums) are stored as that value, and any other nested value is stored as JSON
/// text with sorted keys. A `nil` optional encoded with `encodeIfPresent` (as synthesized `Codable`
/// does) has no entry: bind it as `NULL`.
///
/// ```swift
/// let values = try RowEncoder().encode(player)      // ["id": 1, "name": "Arthur", …]
/// ```
public struct RowEncoder {
    /// Column names for coding keys stored under another name.
    public var columnNames: [String: String]

    /// An encoder; `columnNames` maps coding keys to the columns that hold them.
    public init(columnNames: [String: String] = [:]) {
        self.columnNames = columnNames
    }

    /// The column values of `value`, keyed by column name, in the order they were encoded.
    public func encode<Value: Encodable>(_ value: Value) throws -> EncodedRow {
        let storage = EncodedRowStorage()
        try value.encode(to: RowValueEncoder(storage: storage, columnNames: columnNames))
        return EncodedRow(columns: storage.columns, values: storage.values)
    }
}

/// The column values of one encoded record.
public struct EncodedRow {
    /// The encoded columns, in encoding order.
    public private(set) var columns: [String]
    /// The value of each column, by name; `nil` for `NULL`.
    public private(set) var values: [String: (any SQLBindable)?]

    /// The value of `column`, `nil` for `NULL` or a column that was not encoded.
    public subscript(column: String) -> (any SQLBindable)? {
        values[column] ?? nil
    }

    /// Whether `column` was encoded (even as `NULL`).
    public func contains(_ column: String) -> Bool { values[column] != nil }
}

final class EncodedRowStorage {
    var columns: [String] = []
    var values: [String: (any SQLBindable)?] = [:]

    func set(_ value: (any SQLBindable)?, for column: String) {
        if values.updateValue(value, forKey: column) == nil { columns.append(column) }
    }
}

struct RowValueEncoder: Encoder {
    let storage: EncodedRowStorage
    let columnNames: [String: String]
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath)
    }
}

struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: RowValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func column(_ key: Key) -> String { encoder.columnNames[key.stringValue] ?? key.stringValue }

    mutating func encodeNil(forKey key: Key) throws { encoder.storage.set(nil, for: column(key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.storage.set(value, for: column(key)) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        encoder.storage.set(try ColumnValueEncoding.bindable(value, codingPath: codingPath + [key]), for: column(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(InvalidRowEncoding<NestedKey>(codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        InvalidRowEncoding<Key>(codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { encoder }

    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

/// Turns one property value into something to bind.
enum ColumnValueEncoding {
    static func bindable<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> (any SQLBindable)? {
        if let optional = value as? any OptionalValueUnwrapping {
            guard let wrapped = optional.wrappedValue else { return nil }
            return try encodable(wrapped, codingPath: codingPath)
        }
        return try encodable(value, codingPath: codingPath)
    }

    private static func encodable(_ value: Any, codingPath: [any CodingKey]) throws -> (any SQLBindable)? {
        if let bindable = value as? any SQLBindable { return bindable }
        guard let encodable = value as? any Encodable else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "the value is not Encodable"))
        }
        return try single(encodable, codingPath: codingPath)
    }

    private static func single<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws -> (
        any SQLBindable
    )? {
        let box = SingleColumnEncoder(codingPath: codingPath)
        do {
            try value.encode(to: box)
            if !box.storage.isStructured { return box.storage.value }
        } catch is NeedsJSON {}
        return try JSONCoding.encode(value)
    }
}

/// Lets generic code see whether a value is a `nil` optional.
protocol OptionalValueUnwrapping {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValueUnwrapping {
    var wrappedValue: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// An encoder for a nested value stored in one column: a single value is stored as it is, and a
/// keyed or unkeyed value is stored as JSON.
struct SingleColumnEncoder: Encoder {
    final class Storage {
        var value: (any SQLBindable)?
        /// Whether the value asked for a keyed or unkeyed container, and so is stored as JSON.
        var isStructured = false
    }

    let storage = Storage()
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        storage.isStructured = true
        return KeyedEncodingContainer(InvalidRowEncoding<Key>(codingPath: codingPath, error: NeedsJSON()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        storage.isStructured = true
        return InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath, error: NeedsJSON())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleColumnValueContainer(storage: storage, codingPath: codingPath)
    }
}

struct SingleColumnValueContainer: SingleValueEncodingContainer {
    let storage: SingleColumnEncoder.Storage
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { storage.value = nil }
    mutating func encode(_ value: Bool) throws { storage.value = value }
    mutating func encode(_ value: String) throws { storage.value = value }
    mutating func encode(_ value: Double) throws { storage.value = value }
    mutating func encode(_ value: Float) throws { storage.value = value }
    mutating func encode(_ value: Int) throws { storage.value = value }
    mutating func encode(_ value: Int8) throws { storage.value = value }
    mutating func encode(_ value: Int16) throws { storage.value = value }
    mutating func encode(_ value: Int32) throws { storage.value = value }
    mutating func encode(_ value: Int64) throws { storage.value = value }
    mutating func encode(_ value: UInt) throws { storage.value = value }
    mutating func encode(_ value: UInt8) throws { storage.value = value }
    mutating func encode(_ value: UInt16) throws { storage.value = value }
    mutating func encode(_ value: UInt32) throws { storage.value = value }
    mutating func encode(_ value: UInt64) throws { storage.value = value }
    mutating func encode<Value: Encodable>(_ value: Value) throws {
        storage.value = try ColumnValueEncoding.bindable(value, codingPath: codingPath)
    }
}

/// A coding key made at run time.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// A container whose every operation throws: for shapes a row cannot hold, or to switch a nested
/// value to JSON.
struct InvalidRowEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer,
    SingleValueEncodingContainer
{
    var codingPath: [any CodingKey]
    var error: any Error

    init(codingPath: [any CodingKey], error: (any Error)? = nil) {
        self.codingPath = codingPath
        self.error =
            error
            ?? EncodingError.invalidValue(
                0,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription:
                        "a record encodes into a keyed container (a struct); nested containers are stored as JSON by encoding a nested Encodable value"
                ))
    }

    var count: Int { 0 }

    mutating func encodeNil() throws { throw error }
    mutating func encodeNil(forKey key: Key) throws { throw error }
    mutating func encode<Value: Encodable>(_ value: Value) throws { throw error }
    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { throw error }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(InvalidRowEncoding<NestedKey>(codingPath: codingPath, error: error))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(InvalidRowEncoding<NestedKey>(codingPath: codingPath, error: error))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { ThrowingEncoder(codingPath: codingPath, error: error) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { ThrowingEncoder(codingPath: codingPath, error: error) }
}

/// An encoder whose containers throw `error`.
struct ThrowingEncoder: Encoder {
    var codingPath: [any CodingKey]
    var error: any Error
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(InvalidRowEncoding<Key>(codingPath: codingPath, error: error))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath, error: error)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath, error: error)
    }
}
