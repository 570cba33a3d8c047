import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// Decodes `Decodable` values from rows, by column name.
///
/// Each property is read from the column of the same name (or the name ``CodableRecord/columnNames``
/// gives it): standard types and every ``SQLExtractable`` type through their own conformance (dates
/// with the connection's ``DateStrategy``), values that decode from a single value (such as
/// `RawRepresentable` enums) from the column's value, and any other nested value from the column's
/// JSON text. A missing column or `NULL` decodes as `nil` for an optional property.
///
/// ```swift
/// let decoder = RowDecoder()
/// let players = try db.fetchAll("SELECT * FROM player") { row in try decoder.decode(Player.self, from: row) }
/// ```
///
/// Decoding several rows of one statement with the same decoder reuses the column lookups: the
/// first row records which column each coding key reads, in the order the type asks for them, and
/// later rows follow that order without hashing a key. A decoder is not thread-safe; use one per
/// fetch.
///
/// The `Decoder` and containers handed to `init(from:)` read the row only during that call: a
/// decoder or container kept and used afterwards (after `init(from:)` returns or throws, or while a
/// later row is decoded) throws a ``ResultCode/misuse`` error instead of reading a row that is gone.
public final class RowDecoder {
    /// Column names for coding keys stored under another name.
    public var columnNames: [String: String] {
        didSet { state = nil }
    }
    /// The lookups of the statement decoded last.
    private(set) var state: RowDecodingState?

    /// A decoder; `columnNames` maps coding keys to the columns that hold them.
    public init(columnNames: [String: String] = [:]) {
        self.columnNames = columnNames
    }

    /// Decodes `type` from `row`.
    public func decode<Value: Decodable>(_ type: Value.Type, from row: borrowing Row) throws -> Value {
        let columns = row.columnsIdentity
        let state: RowDecodingState
        // The key order learned from earlier rows holds for rows of the same SQL over the same
        // columns (not after SQLite re-prepared the statement with other columns). The columns'
        // identity is one statement's (its columns token, or the layout of the rows copied from
        // it), so the same identity is the same SQL: compared first, without copying the SQL.
        if let current = self.state, columns != nil, current.columns === columns {
            state = current
        } else {
            let sql = row.sql
            if let current = self.state, sql != nil, current.sql == sql, current.columns === columns {
                state = current
            } else {
                state = RowDecodingState(row: row, sql: sql, columns: columns, columnNames: columnNames)
                self.state = sql == nil ? nil : state
            }
        }
        guard state.isDecoding else { return try Self.decodeOutermost(type, from: row, state: state) }
        let outer = state.begin(row)
        defer { state.end(restoring: outer) }
        let value = try Value(from: RowValueDecoder(state: state, generation: state.generation))
        state.finish()
        return value
    }

    /// Decodes `type` from a row of the statement this decoder is attached to (see
    /// `Row.decodeWithCachedDecoder`): the decoder is used for that statement's rows only, so its
    /// state, once made, is that statement's, and the statement's SQL is not compared row by row.
    func decode<Value: Decodable>(_ type: Value.Type, fromRowOfAttachedStatement row: borrowing Row) throws -> Value {
        guard let state, !state.isDecoding, state.columns === row.columnsIdentity else {
            return try decode(type, from: row)
        }
        return try Self.decodeOutermost(type, from: row, state: state)
    }

    /// Decodes `type` from `row` when no decode of `state` is in progress (the usual case): nothing
    /// to restore afterwards.
    private static func decodeOutermost<Value: Decodable>(
        _ type: Value.Type, from row: borrowing Row, state: RowDecodingState
    ) throws -> Value {
        let generation = state.beginOutermost(row)
        defer { state.endOutermost() }
        let value = try Value(from: RowValueDecoder(state: state, generation: generation))
        state.finish()
        return value
    }

    /// Decodes `type` from a copied row.
    public func decode<Value: Decodable>(_ type: Value.Type, from row: CopiedRow) throws -> Value {
        try row.withRow { try decode(type, from: $0) }
    }
}

/// The `Decoder` for one row: a single reference, so it is passed around without allocating.
struct RowValueDecoder: Decoder {
    let state: RowDecodingState
    /// The decode this decoder was made for (see ``RowDecodingState/generation``).
    let generation: UInt
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try state.check(generation)
        return KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(state: state, generation: generation))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "a row decodes into a keyed value (a struct), not an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "a row decodes into a keyed value (a struct), not a single value"))
    }
}

/// The keyed container of a decode: it reads only while that decode is in progress.
struct RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: RowDecodingState
    /// The decode this container reads for (see ``RowDecodingState/generation``).
    let generation: UInt
    var codingPath: [any CodingKey] { [] }

    /// Whether this container's decode is in progress (`contains` and `allKeys` cannot throw: a
    /// kept container answers them with "no key" instead of reading).
    private var isCurrent: Bool { generation == state.generation }

    var allKeys: [Key] {
        guard isCurrent else { return [] }
        let reverse = Dictionary(
            state.columnNames.map { ($0.value.lowercased(), $0.key) }, uniquingKeysWith: { first, _ in first })
        return state.row.columnNames.compactMap { Key(stringValue: reverse[$0.lowercased()] ?? $0) }
    }

    func requireIndex(_ key: Key) throws -> Int {
        try state.check(generation)
        guard let index = state.index(ofKey: key.stringValue) else { throw missingColumn(key) }
        return index
    }

    /// The error for a key whose column the row lacks.
    func missingColumn(_ key: Key) -> DecodingError {
        DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "the row has no column \(state.columnName(ofKey: key.stringValue)); it has \(state.row.columnNames.joined(separator: ", "))"
            ))
    }

    func contains(_ key: Key) -> Bool { isCurrent && state.index(ofKey: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        state.row.isNull(at: try requireIndex(key))
    }

    // Each standard type's `decode` makes one call into the state, which is not generic, with the
    // concrete type: the check, the column and the read are specialized there for that type. (A
    // helper generic over the value's type would run unspecialized here, where `Key` is generic.)

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        guard let value = try state.read(type, forKey: key.stringValue, generation: generation) else {
            throw missingColumn(key)
        }
        return value
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try state.readIfPresent(type, forKey: key.stringValue, generation: generation)
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        let index = try requireIndex(key)
        return try ColumnValueDecoding.decode(type, from: state.row, at: index, codingPath: codingPath + [key])
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        try state.check(generation)
        guard let index = state.index(ofKey: key.stringValue), !state.row.isNull(at: index) else { return nil }
        return try ColumnValueDecoding.decode(type, from: state.row, at: index, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription:
                    "nested containers of a row are not supported: decode a nested Decodable value, which is read from the column's JSON"
            ))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: codingPath + [key],
                debugDescription:
                    "nested containers of a row are not supported: decode a nested Decodable value, which is read from the column's JSON"
            ))
    }

    func superDecoder() throws -> any Decoder {
        try state.check(generation)
        return RowValueDecoder(state: state, generation: generation)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw DecodingError.typeMismatch(
            Any.self,
            DecodingError.Context(
                codingPath: codingPath + [key], debugDescription: "super decoders of a row column are not supported"))
    }
}

/// Reads one column as any `Decodable` type.
enum ColumnValueDecoding {
    static func decode<Value: Decodable>(
        _ type: Value.Type, from row: borrowing Row, at index: Int, codingPath: [any CodingKey]
    ) throws -> Value {
        if let extractable = type as? any SQLExtractable.Type {
            return try cast(extract(extractable, row: row, index: index), codingPath: codingPath)
        }
        if let optional = type as? any OptionalTypeUnwrapping.Type, row.isNull(at: index) {
            return try cast(optional.noneValue, codingPath: codingPath)
        }
        let value = row.value(at: index)
        if value.isNull {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: codingPath, debugDescription: "column \(index) is NULL"))
        }
        do {
            return try Value(from: SingleColumnDecoder(value: value, codingPath: codingPath))
        } catch is NeedsJSON {
            do {
                return try JSONCoding.decode(type, from: value)
            } catch let error as DatabaseError {
                throw row.contextualize(error, column: index)
            }
        }
    }

    private static func extract<Value: SQLExtractable>(_ type: Value.Type, row: borrowing Row, index: Int) throws
        -> Value
    {
        try Value.extract(from: row, at: index)
    }

    static func cast<Value>(_ value: Any, codingPath: [any CodingKey]) throws -> Value {
        guard let value = value as? Value else {
            throw DecodingError.typeMismatch(
                Value.self, DecodingError.Context(codingPath: codingPath, debugDescription: "unexpected value type"))
        }
        return value
    }
}

/// Thrown when a nested value asks for a keyed or unkeyed container: it is read from JSON instead.
struct NeedsJSON: Error {}

/// A decoder for a nested value stored in one column: single values come from the column, and
/// anything structured comes from its JSON text.
struct SingleColumnDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLValue
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw NeedsJSON() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NeedsJSON() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value.isNull }

    func read<Value: SQLExtractable>(_ type: Value.Type) throws -> Value {
        try Value(sqlValue: value)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try read(type) }
    func decode(_ type: String.Type) throws -> String { try read(type) }
    func decode(_ type: Double.Type) throws -> Double { try read(type) }
    func decode(_ type: Float.Type) throws -> Float { try read(type) }
    func decode(_ type: Int.Type) throws -> Int { try read(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try read(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try read(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try read(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try read(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try read(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read(type) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if let extractable = type as? any SQLExtractable.Type {
            return try ColumnValueDecoding.cast(extractable.init(sqlValue: value), codingPath: codingPath)
        }
        return try Value(from: self)
    }
}

extension Row {
    /// Decodes `type` by column name with a decoder attached to the row's statement, so that every
    /// row of a statement follows one key order; a row without statement gets a fresh decoder.
    /// `check` runs when a statement's decoder is made: once per statement, not once per row.
    /// `columnNames` is evaluated only when a decoder is made, and the statement's decoder is
    /// found by comparing it with the attachment used last (one type comparison a row).
    package func decodeWithCachedDecoder<Value: Decodable>(
        _ type: Value.Type, columnNames: @autoclosure () -> [String: String], check: () throws -> Void = {}
    ) throws -> Value {
        guard let statement else {
            try check()
            return try RowDecoder(columnNames: columnNames()).decode(type, from: self)
        }
        if let decoder = statement.lastAttachment(RowDecoder.self, for: Value.self) {
            return try decoder.decode(type, fromRowOfAttachedStatement: self)
        }
        let decoder = try statement.attachment(RowDecoder.self, for: Value.self) {
            try check()
            return RowDecoder(columnNames: columnNames())
        }
        return try decoder.decode(type, fromRowOfAttachedStatement: self)
    }
}
