import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

// Infers a CodableRecord's columns by decoding the type once with a probing decoder: each key the
// type's `init(from:)` asks for becomes a column, in order. The type asked for gives the SQL type
// (see SQLColumnType), `decodeIfPresent` (optional properties) makes the column nullable, and a
// nested value that decodes from a keyed or unkeyed container is a JSON `TEXT` column. To go on
// decoding, the probe hands back placeholder values: zero, empty, the first case of a `CaseIterable`
// type, or a nested value decoded from placeholders.

/// The schemas of CodableRecord types, inferred once per type, with their key-path columns.
final class CodableSchemaCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is read and written only while `lock` is held; the entries
    // are themselves safe to share (see `Entry`).
    static let shared = CodableSchemaCache()
    private let lock = NSLock()
    private var entries: [ObjectIdentifier: Entry] = [:]

    /// What Slate knows of one CodableRecord type.
    final class Entry: @unchecked Sendable {
        // @unchecked Sendable: `schema`, `inferenceError`, `primaryKey` and `rowIDAlias` are
        // constants of Sendable types; `keyPathColumns` is read and written, and `resolver` used,
        // only while `lock` is held. (`AnyKeyPath`, its key type, is not Sendable in the standard
        // library, but key paths are immutable values.)
        /// The inferred schema; without columns when inference failed.
        let schema: TableSchema
        /// Why the schema could not be inferred.
        let inferenceError: DatabaseError?
        /// The schema's primary key columns, in key order (computed once: records ask per write).
        let primaryKey: [String]
        /// The name of the schema's rowid alias column, if any.
        let rowIDAlias: String?
        /// Resolves key paths to columns (set up on first use).
        private let lock = NSLock()
        private var keyPathColumns: [AnyKeyPath: Result<String, DatabaseError>] = [:]
        private let resolver: KeyPathResolver?

        init(schema: TableSchema, inferenceError: DatabaseError?, resolver: KeyPathResolver?) {
            self.schema = schema
            self.inferenceError = inferenceError
            self.primaryKey = schema.primaryKey
            self.rowIDAlias = schema.rowIDAlias?.name
            self.resolver = resolver
        }

        /// Throws the inference error, if any.
        func check() throws {
            if let inferenceError { throw inferenceError }
        }

        /// The column holding the property at `keyPath`, or why it cannot be told.
        func columnName(for keyPath: AnyKeyPath) -> Result<String, DatabaseError> {
            lock.lock()
            defer { lock.unlock() }
            if let known = keyPathColumns[keyPath] { return known }
            let result: Result<String, DatabaseError>
            if let inferenceError {
                result = .failure(inferenceError)
            } else if let resolver {
                result = resolver.column(for: keyPath)
            } else {
                result = .failure(
                    DatabaseError(
                        resultCode: .misuse,
                        message:
                            "the columns of the record are declared by hand, so key paths cannot be matched to them: use SQLExpression(sql:)"
                    ))
            }
            keyPathColumns[keyPath] = result
            return result
        }
    }

    func entry<R: CodableRecord>(for type: R.Type) -> Entry {
        lock.lock()
        let cached = entries[ObjectIdentifier(type)]
        lock.unlock()
        if let cached { return cached }
        let entry: Entry
        do {
            let schema = try Self.makeSchema(for: type)
            let resolver = R.declaredColumns == nil ? KeyPathResolver(R.self, schema: schema) : nil
            entry = Entry(schema: schema, inferenceError: nil, resolver: resolver)
        } catch let error as DatabaseError {
            entry = Entry(schema: TableSchema(name: R.tableName, columns: []), inferenceError: error, resolver: nil)
        } catch {
            entry = Entry(
                schema: TableSchema(name: R.tableName, columns: []),
                inferenceError: DatabaseError(resultCode: .misuse, message: "\(error)"), resolver: nil)
        }
        lock.lock()
        defer { lock.unlock() }
        if let raced = entries[ObjectIdentifier(type)] { return raced }
        entries[ObjectIdentifier(type)] = entry
        return entry
    }

    private static func makeSchema<R: CodableRecord>(for type: R.Type) throws -> TableSchema {
        if !R.primaryKey.isEmpty {
            throw DatabaseError(
                resultCode: .misuse,
                message:
                    "\(R.self) declares `static var primaryKey` (\(R.primaryKey.joined(separator: ", "))), the former"
                    + " name of `primaryKeyColumns`: rename it `primaryKeyColumns`")
        }
        var columns: [TableSchema.Column]
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
                TableSchema.Column(
                    name: R.columnName(forKey: column.key), type: column.sqlType, isNotNull: !column.isNullable,
                    collation: column.collation)
            }
            if columns.isEmpty {
                throw DatabaseError(
                    resultCode: .misuse, message: "\(R.self) decodes no keyed value, so it has no columns")
            }
        }
        for index in columns.indices {
            if let defaultSQL = R.columnDefaults[columns[index].name] { columns[index].defaultSQL = defaultSQL }
        }
        var keys = R.primaryKeyColumns
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
                // A lone INTEGER key is the rowid, never NULL without saying so; other keys are NOT NULL.
                columns[index].isNotNull = !(keys.count == 1 && columns[index].declaredType == "INTEGER")
            }
        }
        return TableSchema(name: R.tableName, columns: columns, indexes: R.indexes)
    }
}

/// Matches key paths of a Codable record with its columns: the record is decoded once with
/// placeholder values, then once per column with that column's value changed; a key path belongs
/// to the column whose change it sees.
final class KeyPathResolver: @unchecked Sendable {
    // @unchecked Sendable, though it holds `Any`: every stored property is a constant set in
    // `init`. `base` and the `variants`' records are values of the record type that the resolver
    // decodes itself from placeholders; they never leave it, and are only read, through key paths
    // (`column(for:)`), which `CodableSchemaCache.Entry` calls only while holding its lock, so
    // even a getter with side effects (a lazy property of a class the record holds) runs on one
    // thread at a time.
    private let base: Any
    private let variants: [(column: String, record: Any)]
    private let unresolved: [String: String]
    private let typeName: String

    init<R: CodableRecord>(_ type: R.Type, schema: TableSchema) {
        typeName = String(describing: R.self)
        base = (try? R(from: ProbeDecoder(probe: nil, codingPath: []))) as Any
        var variants: [(String, Any)] = []
        var unresolved: [String: String] = [:]
        let keysByColumn = Dictionary(R.columnNames.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        for column in schema.recordColumns {
            let key = keysByColumn[column.name] ?? column.name
            do {
                variants.append((column.name, try R(from: ProbeDecoder(probe: nil, codingPath: [], alternateKey: key))))
            } catch {
                unresolved[column.name] = "\(error)"
            }
        }
        self.variants = variants
        self.unresolved = unresolved
    }

    func column(for keyPath: AnyKeyPath) -> Result<String, DatabaseError> {
        guard let baseValue = Self.value(base, at: keyPath) else {
            return .failure(failure(keyPath, "it is not a stored property whose values Slate can read"))
        }
        var matches: [String] = []
        for (column, record) in variants {
            guard let value = Self.value(record, at: keyPath) else { continue }
            if value != baseValue { matches.append(column) }
        }
        if matches.count == 1 { return .success(matches[0]) }
        if matches.isEmpty {
            let reasons =
                unresolved.isEmpty
                ? "" : " (columns Slate could not vary: " + unresolved.keys.sorted().joined(separator: ", ") + ")"
            return .failure(failure(keyPath, "no column's value changes it" + reasons))
        }
        return .failure(failure(keyPath, "it changes with several columns: " + matches.joined(separator: ", ")))
    }

    private func failure(_ keyPath: AnyKeyPath, _ reason: String) -> DatabaseError {
        DatabaseError(
            resultCode: .misuse,
            message:
                "cannot tell which column of \(typeName) holds \(keyPath): \(reason); use SQLExpression(sql:) for it")
    }

    /// The SQL value the property at `keyPath` of `record` binds as, or `nil`.
    private static func value(_ record: Any, at keyPath: AnyKeyPath) -> SQLValue? {
        guard let property = record[keyPath: keyPath] else { return nil }
        if let optional = property as? any OptionalValueUnwrapping, optional.wrappedValue == nil { return .null }
        guard let bindable = property as? any SQLBindable else { return nil }
        return try? bindable.sqlValue
    }
}

/// What the probe learned.
final class SchemaProbe {
    struct Column {
        var key: String
        var sqlType: String
        var isNullable: Bool
        /// `NOCASE` for a UUID (stored as text: it matches in any letter case, see
        /// `UUIDStorage.text`), else `nil`.
        var collation: String?
    }

    var columns: [Column] = []

    func record(_ key: String, sqlType: String, isNullable: Bool, valueType: Any.Type? = nil) {
        guard !columns.contains(where: { $0.key == key }) else { return }
        let collation = valueType.map { $0 == UUID.self || $0 == UUID?.self } == true ? "NOCASE" : nil
        columns.append(Column(key: key, sqlType: sqlType, isNullable: isNullable, collation: collation))
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
    /// The coding key of the record whose value is an alternate one, not the placeholder.
    var alternateKey: String? = nil
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(
            ProbeKeyedContainer<Key>(probe: probe, codingPath: codingPath, alternateKey: alternateKey))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if probe != nil {
            throw DecodingError.typeMismatch(
                [Any].self,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "a record must decode from a keyed container"))
        }
        return EmptyUnkeyedContainer(codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        if probe != nil {
            throw DecodingError.typeMismatch(
                Any.self,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "a record must decode from a keyed container"))
        }
        return PlaceholderSingleValue(codingPath: codingPath)
    }
}

/// Records each key (when `probe` is set, at the record's level) and returns placeholders.
struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: SchemaProbe?
    var codingPath: [any CodingKey]
    var alternateKey: String? = nil
    var allKeys: [Key] { [] }

    private func isAlternate(_ key: Key) -> Bool { codingPath.isEmpty && key.stringValue == alternateKey }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        if let optional = type as? any OptionalTypeUnwrapping.Type {
            probe?.record(
                key.stringValue, sqlType: SchemaProbe.sqlType(of: optional.wrappedType), isNullable: true,
                valueType: type)
            if isAlternate(key) {
                return try Placeholder.value(of: type, codingPath: codingPath + [key], alternate: true)
            }
            return try ColumnValueDecoding.cast(optional.noneValue, codingPath: codingPath + [key])
        }
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: false, valueType: type)
        return try Placeholder.value(of: type, codingPath: codingPath + [key], alternate: isAlternate(key))
    }

    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: true, valueType: type)
        if isAlternate(key) { return try Placeholder.value(of: type, codingPath: codingPath + [key]) }
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
        return try Placeholder.value(of: type, codingPath: codingPath + [key], alternate: isAlternate(key))
    }

    private func decodeIfPresent<Value: Decodable>(_ type: Value.Type, key: Key) throws -> Value? {
        probe?.record(key.stringValue, sqlType: SchemaProbe.sqlType(of: type), isNullable: true)
        if isAlternate(key) { return try Placeholder.value(of: type, codingPath: codingPath + [key]) }
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        probe?.record(key.stringValue, sqlType: "TEXT", isNullable: false)
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(probe: nil, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        probe?.record(key.stringValue, sqlType: "TEXT", isNullable: false)
        return EmptyUnkeyedContainer(codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder { ProbeDecoder(probe: probe, codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ProbeDecoder(probe: nil, codingPath: codingPath + [key])
    }
}

/// Placeholder values that let a probe go on decoding, and alternate values that differ from them
/// (to tell which property a key path reads).
enum Placeholder {
    static func value<Value: Decodable>(of type: Value.Type, codingPath: [any CodingKey], alternate: Bool = false)
        throws -> Value
    {
        if let optional = type as? any OptionalTypeUnwrapping.Type {
            // An optional's alternate is its wrapped placeholder, where its placeholder is nil.
            guard alternate else { return try ColumnValueDecoding.cast(optional.noneValue, codingPath: codingPath) }
            return try Value(from: PlaceholderDecoder(codingPath: codingPath, alternate: false))
        }
        if let value = known(type, alternate: alternate) as? Value { return value }
        if let caseIterable = type as? any CaseIterable.Type,
            let chosen = someCase(caseIterable, alternate: alternate) as? Value
        {
            return chosen
        }
        if alternate { return try Value(from: PlaceholderDecoder(codingPath: codingPath, alternate: true)) }
        return try Value(from: ProbeDecoder(probe: nil, codingPath: codingPath))
    }

    private static func someCase<Cases: CaseIterable>(_ type: Cases.Type, alternate: Bool) -> Any? {
        let cases = Array(type.allCases)
        return alternate ? (cases.count > 1 ? cases[1] : nil) : cases.first
    }

    private static func known(_ type: Any.Type, alternate: Bool) -> Any? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(Date.self): return Date(timeIntervalSince1970: alternate ? 1 : 0)
        case ObjectIdentifier(UUID.self):
            return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, alternate ? 1 : 0))
        case ObjectIdentifier(URL.self): return URL(fileURLWithPath: alternate ? "/a" : "/")
        case ObjectIdentifier(Data.self): return alternate ? Data([1]) : Data()
        case ObjectIdentifier(Decimal.self): return Decimal(alternate ? 1 : 0)
        default: return nil
        }
    }
}

/// A decoder for one value: the placeholder (zero, empty, false) or an alternate one (one, "a",
/// true); keyed and unkeyed values decode from placeholders.
struct PlaceholderDecoder: Decoder {
    var codingPath: [any CodingKey]
    let alternate: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ProbeKeyedContainer<Key>(probe: nil, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyedContainer(codingPath: codingPath) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        alternate
            ? AlternateSingleValue(codingPath: codingPath) as any SingleValueDecodingContainer
            : PlaceholderSingleValue(codingPath: codingPath)
    }
}

/// A single value container answering one, "a" or true: values that differ from the placeholders.
struct AlternateSingleValue: SingleValueDecodingContainer {
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { true }
    func decode(_ type: String.Type) throws -> String { "a" }
    func decode(_ type: Double.Type) throws -> Double { 1 }
    func decode(_ type: Float.Type) throws -> Float { 1 }
    func decode(_ type: Int.Type) throws -> Int { 1 }
    func decode(_ type: Int8.Type) throws -> Int8 { 1 }
    func decode(_ type: Int16.Type) throws -> Int16 { 1 }
    func decode(_ type: Int32.Type) throws -> Int32 { 1 }
    func decode(_ type: Int64.Type) throws -> Int64 { 1 }
    func decode(_ type: UInt.Type) throws -> UInt { 1 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 1 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 1 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 1 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 1 }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try Placeholder.value(of: type, codingPath: codingPath, alternate: true)
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
        DecodingError.valueNotFound(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "placeholder arrays are empty"))
    }

    mutating func decodeNil() throws -> Bool { throw end(Any?.self) }
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { throw end(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        throw end(type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end([Any].self) }
    mutating func superDecoder() throws -> any Decoder { throw end(Any.self) }
}
