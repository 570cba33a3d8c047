import CSQLite

// The `codable-floor` contender of the Codable fetch scenarios (`fetch-200k-ints`,
// `fetch-mixed-200k`, `northwind-orders`): a reference, like `raw`, not a library.
//
// It decodes the same `Codable` structs `slate-codable` decodes (`CodableItem`, `CodableMixedItem`,
// `CodableOrder`), through their synthesized `init(from:)`, with the least work any `Decoder` can
// do: the `raw` contender's own SQLite calls, and a keyed container that answers the i-th `decode`
// of a row from column i. It looks no name up and checks nothing `raw` does not check (no storage
// class, no exactness, no kept-container or stale-decoder guard, no `NULL` for a non-optional), so
// it is only right for a type whose keys are asked for in column order, as these are. The
// standard library's share (the synthesized `init(from:)`, `KeyedDecodingContainer`, its box and
// the witness calls) is all that is left above `raw`: the floor under any `Codable` fetch.
//
// It keeps the one keyed container it made and hands it out again for every row (a new one per row
// would add an allocation and generic metadata look-ups that a decoder can avoid). Slate cannot:
// a container that `init(from:)` keeps must never read a later row (`KeptDecoderTests`), and a
// container handed out again is the kept one. `codable-floor-per-row` is the same floor with a new
// keyed container for every row: the least a `Decoder` with that guarantee can do, which no
// checks of its own, no key look-up and no guard add to.

/// The statement a `codable-floor` decode reads, and the next column to read.
final class CodableFetchFloorCursor {
    let statement: RawStatement
    /// The column the next `decode` reads; `0` at the start of each row.
    @exclusivity(unchecked) var column: Int32 = 0
    /// The keyed container made for the first row (a `CodableFetchFloorContainerHolder<Key>`), and
    /// its key type.
    @exclusivity(unchecked) var container: (keyType: ObjectIdentifier, holder: AnyObject)?

    /// Whether every row gets a new keyed container (`codable-floor-per-row`) rather than the kept one.
    let containerPerRow: Bool

    init(_ statement: RawStatement, containerPerRow: Bool = false) {
        self.statement = statement
        self.containerPerRow = containerPerRow
    }

    /// The column of this `decode`, and moves on to the next one.
    @inline(__always)
    func next() -> Int32 {
        let index = column
        column = index &+ 1
        return index
    }

    /// Steps through every row, decoding each as `Record` — `RawStatement.readAll`'s loop, with a
    /// decode that can throw.
    func decodeAll<Record: Decodable>(_ type: Record.Type) throws -> [Record] {
        let handle = statement.handle
        var records: [Record] = []
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW {
            records.append(try Record(from: CodableFetchFloorDecoder(cursor: self)))
            code = sqlite3_step(handle)
        }
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
        return records
    }
}

/// Keeps a keyed container of one key type, so that it is made once.
final class CodableFetchFloorContainerHolder<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}

/// The `Decoder` of one row: a single reference.
struct CodableFetchFloorDecoder: Decoder {
    let cursor: CodableFetchFloorCursor
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        cursor.column = 0
        if cursor.containerPerRow { return KeyedDecodingContainer(CodableFetchFloorContainer<Key>(cursor: cursor)) }
        if let kept = cursor.container, kept.keyType == ObjectIdentifier(Key.self) {
            // Made below for `Key` (checked above).
            return unsafeDowncast(kept.holder, to: CodableFetchFloorContainerHolder<Key>.self).container
        }
        let container = KeyedDecodingContainer(CodableFetchFloorContainer<Key>(cursor: cursor))
        cursor.container = (ObjectIdentifier(Key.self), CodableFetchFloorContainerHolder(container))
        return container
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: [], debugDescription: "codable-floor decodes keyed values only"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self, .init(codingPath: [], debugDescription: "codable-floor decodes keyed values only"))
    }
}

/// Answers the i-th `decode` of a row from column i, with `raw`'s calls: `sqlite3_column_int64` /
/// `_double`, `sqlite3_column_type` first for a nullable number, `sqlite3_column_text` + `_bytes`
/// for text (`""` for a `NULL` non-optional text, as `raw` reads it). The types the three scenarios
/// do not use throw.
struct CodableFetchFloorContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let cursor: CodableFetchFloorCursor
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }

    func decodeNil(forKey key: Key) throws -> Bool {
        throw unsupported(Any?.self, key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        Int(sqlite3_column_int64(cursor.statement.handle, cursor.next()))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        sqlite3_column_double(cursor.statement.handle, cursor.next())
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        cursor.statement.optionalString(at: cursor.next()) ?? ""
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        cursor.statement.optionalInt(at: cursor.next())
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        cursor.statement.optionalDouble(at: cursor.next())
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        cursor.statement.optionalString(at: cursor.next())
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw unsupported(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw unsupported(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw unsupported(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw unsupported(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw unsupported(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw unsupported(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw unsupported(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw unsupported(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw unsupported(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw unsupported(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw unsupported(type, key) }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value { throw unsupported(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw unsupported(type, key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw unsupported([Any].self, key)
    }

    func superDecoder() throws -> any Decoder { CodableFetchFloorDecoder(cursor: cursor) }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported(Any.self, key) }

    private func unsupported(_ type: Any.Type, _ key: Key) -> DecodingError {
        DecodingError.typeMismatch(
            type, .init(codingPath: [key], debugDescription: "codable-floor reads Int, Double and String only"))
    }
}

// MARK: - The contenders

extension FetchIntegers.Fixture {
    /// `codable-floor`: `CodableItem` decoded with `raw`'s calls (see the top of this file).
    func codableFloor(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure { try CodableFetchFloorCursor(rawSelect).decodeAll(CodableItem.self) }.checksum
    }

    /// `codable-floor-per-row`: the same, with a new keyed container for every row.
    func codableFloorPerRow(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure {
            try CodableFetchFloorCursor(rawSelect, containerPerRow: true).decodeAll(CodableItem.self)
        }.checksum
    }
}

extension FetchMixed.Fixture {
    /// `codable-floor`: `CodableMixedItem` decoded with `raw`'s calls (see the top of this file).
    func codableFloor(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure { try CodableFetchFloorCursor(rawSelect).decodeAll(CodableMixedItem.self) }.checksum
    }

    /// `codable-floor-per-row`: the same, with a new keyed container for every row.
    func codableFloorPerRow(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure {
            try CodableFetchFloorCursor(rawSelect, containerPerRow: true).decodeAll(CodableMixedItem.self)
        }.checksum
    }
}

extension NorthwindOrders.Fixture {
    /// `codable-floor`: `CodableOrder` decoded with `raw`'s calls (see the top of this file).
    func codableFloor(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure { try CodableFetchFloorCursor(rawSelect).decodeAll(CodableOrder.self) }.checksum
    }

    /// `codable-floor-per-row`: the same, with a new keyed container for every row.
    func codableFloorPerRow(_ stopwatch: Stopwatch) throws -> Checksum {
        try stopwatch.measure {
            try CodableFetchFloorCursor(rawSelect, containerPerRow: true).decodeAll(CodableOrder.self)
        }.checksum
    }
}
