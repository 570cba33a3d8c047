import Foundation

// Infers a CodableRecord's columns by decoding the type once with a probing decoder: each key the
// type's `init(from:)` asks for becomes a column, in order. The type asked for gives the SQL type
// (see SQLColumnType), `decodeIfPresent` (optional properties) makes the column nullable, and a
// nested value that decodes from a keyed or unkeyed container is a JSON `TEXT` column. To go on
// decoding, the probe hands back placeholder values: zero, empty, the first case of a `CaseIterable`
// type, or a nested value decoded from placeholders.

/// The definitions of CodableRecord types, inferred once per type.
final class CodableSchemaCache: @unchecked Sendable {
    static let shared = CodableSchemaCache()
    private let lock = NSLock()
    private var definitions: [ObjectIdentifier: TableDefinition] = [:]

    func definition<R: CodableRecord>(for type: R.Type) throws -> TableDefinition {
        lock.lock()
        let cached = definitions[ObjectIdentifier(type)]
        lock.unlock()
        if let cached { return cached }
        let definition = try Self.makeDefinition(for: type)
        lock.lock()
        definitions[ObjectIdentifier(type)] = definition
        lock.unlock()
        return definition
    }

    private static func makeDefinition<R: CodableRecord>(for type: R.Type) throws -> TableDefinition {
        var columns: [ColumnDescriptor]
        if let declared = R.declaredColumns {
            columns = declared
        } else {
            let probe = SchemaProbe()
            do {
                _ = try R(from: ProbeDecoder(probe: probe, codingPath: []))
            } catch {
                throw DatabaseError(
                    resultCode: .misuse,
                    message: "cannot infer the columns of \(R.self) from its Codable implementation: \(error). "
                        + "Make enums CaseIterable, or declare the columns with `static var declaredColumns`")
            }
            columns = probe.columns.map { column in
                ColumnDescriptor(
                    name: R.columnName(forKey: column.key), sqlType: column.sqlType, isNullable: column.isNullable)
            }
            if columns.isEmpty {
                throw DatabaseError(resultCode: .misuse, message: "\(R.self) decodes no keyed value, so it has no columns")
            }
        }
        for index in columns.indices {
            if let defaultSQL = R.columnDefaults[columns[index].name] { columns[index].defaultSQL = defaultSQL }
        }
        var keys = R.primaryKey
        if R.declaredColumns == nil, keys == ["id"], !columns.contains(where: { $0.name == "id" }) {
            keys = []
        }
        if R.declaredColumns == nil {
            for (position, key) in keys.enumerated() {
                guard let index = columns.firstIndex(where: { $0.name == key }) else {
                    throw DatabaseError(
                        resultCode: .misuse,
                        message: "the primary key of \(R.self) names \(key), which is not one of its columns: "
                            + columns.map(\.name).joined(separator: ", "))
                }
                columns[index].primaryKeyPosition = position + 1
                columns[index].isNullable = false
            }
        }
        return TableDefinition(
            name: R.tableName, columns: columns, indexes: R.indexes, renamedColumns: R.renamedColumns)
    }
}

/// What the probe learned.
final class SchemaProbe {
    struct Column {
        var key: String
        var sqlType: String
        var isNullable: Bool
    }

    var columns: [Column] = []

    func record(_ key: String, sqlType: String, isNullable: Bool) {
        guard !columns.contains(where: { $0.key == key }) else { return }
        columns.append(Column(key: key, sqlType: sqlType, isNullable: isNullable))
    }

    /// The SQL type of columns holding `type`.
    static func sqlType(of type: Any.Type) -> String {
        let declared = SQLColumnType.declaredType(for: type)
        if !declared.isEmpty || type is any SQLExtractable.Type { return declared }
        return structuredSQLType(type)
    }

    /// For a `Decodable` type the value protocols do not know: `TEXT` for JSON or text, or the type
    /// of the single value it decodes from.
    static func structuredSQLType(_ type: Any.Type) -> String {
        guard let decodable = type as? any Decodable.Type else { return "" }
        let classifier = ShapeClassifier()
        do {
            _ = try decodable.init(from: classifier)
        } catch {}
        return classifier.sqlType ?? "TEXT"
    }
}

/// Stops classification as soon as the shape is known.
struct ShapeKnown: Error {}

/// Learns how a nested value decodes: a keyed or unkeyed value is JSON (`TEXT`); a single value has
/// the SQL type of what it decodes.
final class ShapeClassifier: Decoder, SingleValueDecodingContainer {
    var sqlType: String?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        sqlType = "TEXT"
        throw ShapeKnown()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        sqlType = "TEXT"
        throw ShapeKnown()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        sqlType = SchemaProbe.sqlType(of: type)
        throw ShapeKnown()
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decode(type as Bool.Type, generic: ()) }
    func decode(_ type: String.Type) throws -> String { try decode(type, generic: ()) }
    func decode(_ type: Double.Type) throws -> Double { try decode(type, generic: ()) }
    func decode(_ type: Float.Type) throws -> Float { try decode(type, generic: ()) }
    func decode(_ type: Int.Type) throws -> Int { try decode(type, generic: ()) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decode(type, generic: ()) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decode(type, generic: ()) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decode(type, generic: ()) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decode(type, generic: ()) }
    func decode(_ type: UInt.Type) throws -> UInt { try decode(type, generic: ()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(type, generic: ()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(type, generic: ()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(type, generic: ()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(type, generic: ()) }

    private func decode<Value: Decodable>(_ type: Value.Type, generic: Void) throws -> Value {
        sqlType = SchemaProbe.sqlType(of: type)
        throw ShapeKnown()
    }
}

/// The probing decoder for the record itself.
struct ProbeDecoder: Decoder {
    let probe: SchemaProbe?
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: probe, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if probe != nil {
            throw DecodingError.typeMismatch(
                [Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "a record must decode from a keyed container"))
        }
        return EmptyUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        if probe != nil {
            throw DecodingError.typeMismatch(
                Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "a record must decode from a keyed container"))
        }
        return PlaceholderSingleValue(codingPath: codingPath)
    }
}

/// Records each key (when `probe` is set, at the record's level) and returns placeholders.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe?
    var codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if let optional = type as? any OptionalTypeUnwrapping.Type {
            probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: optional.wrappedType), isNullable: true)
            return try ColumnValueDecoding.cast(optional.noneValue, codingPath: codingPath + [key])
        }
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: false)
        return try Placeholder.value(of: type, codingPath: codingPath + [key])
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: true)
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type, key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(type, key: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(type, key: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type, key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type, key: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type, key: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type, key: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type, key: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type, key: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type, key: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type, key: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(type, key: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(type, key: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(type, key: key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, key: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, key: key) }

    private func decode<Value: Decodable>(_ type: Value.Type, key: Key) throws -> Value {
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: false)
        return try Placeholder.value(of: type, codingPath: codingPath + [key])
    }

    private func decodeIfPresent<Value: Decodable>(_ type: Value.Type, key: Key) throws -> Value? {
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: true)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        probe?.record(key.stringValue, sqlType: "TEXT", isNullable: false)
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(probe: nil, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        probe?.record(key.stringValue, sqlType: "TEXT", isNullable: false)
        return EmptyUnkeyedContainer(codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { ProbeDecoder(probe: probe, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(probe: nil, codingPath: codingPath + [key]) }
}

/// Placeholder values that let a probe go on decoding.
enum Placeholder {
    static func value<Value: Decodable>(of type: Value.Type, codingPath: [any CodingKey]) throws -> Value {
        if let value = known(type) as? Value { return value }
        if let caseIterable = type as? any CaseIterable.Type, let first = firstCase(caseIterable) as? Value {
            return first
        }
        return try Value(from: ProbeDecoder(probe: nil, codingPath: codingPath))
    }

    private static func firstCase<Cases: CaseIterable>(_ type: Cases.Type) -> Any? {
        type.allCases.first
    }

    private static func known(_ type: Any.Type) -> Any? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Date.self): return Date(timeIntervalSince1970: 0)
        case ObjectIdentifier(UUID.self): return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case ObjectIdentifier(URL.self): return URL(fileURLWithPath: "/")
        case ObjectIdentifier(Data.self): return Data()
        case ObjectIdentifier(Decimal.self): return Decimal(0)
        default: return nil
        }
    }
}

/// A single value container answering zero, empty or false.
struct PlaceholderSingleValue: SingleValueDecodingContainer {
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try Placeholder.value(of: type, codingPath: codingPath)
    }
}

/// An empty array.
struct EmptyUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func end<Value>(_ type: Value.Type) -> DecodingError {
        DecodingError.valueNotFound(type, DecodingError.Context(codingPath: codingPath, debugDescription: "placeholder arrays are empty"))
    }

    mutating func decodeNil() throws -> Bool { throw end(Any?.self) }
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { throw end(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw end(type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end([Any].self) }
    mutating func superDecoder() throws -> any Decoder { throw end(Any.self) }
}
