import CSQLite

// `codable-floor` in `insert-50k`: a reference point, not a library. It measures the least that
// inserting through `Encodable` can cost, so that `slate-codable`'s ratio can be read against what
// any `Encoder` must pay (the standard library's containers and the synthesized `encode(to:)`)
// rather than against raw C alone.

extension Insert.Fixture {
    /// The `raw` contender's transaction, statement and C calls (`BEGIN`, one prepared INSERT,
    /// `sqlite3_bind_int64` ×10, `sqlite3_step` and `sqlite3_reset` per row, `COMMIT`), with the
    /// values bound by the synthesized `CodableItem.encode(to:)` — the same records and the same
    /// `encode(to:)` that `slate-codable` inserts — through ``FloorEncoder``, the least an
    /// `Encoder` can do: its keyed container binds the record's *i*-th `encode` call to parameter
    /// *i*, with no key look-up and no check beyond what `raw` makes (none: `raw` ignores the bind
    /// results too). Like Slate's binder, the encoder keeps its keyed container across records:
    /// building one per record (a box allocated and its generic metadata looked up each time)
    /// measured 3.3 M instructions more per 5,000 records than keeping it, so the floor keeps it.
    /// What remains is what any `Encoder` pays: the synthesized `encode(to:)`, the standard
    /// library's `KeyedEncodingContainer` and its box per value, the `any Encoder` existential,
    /// and the `KeyedEncodingContainer<Key>` metadata look-up that copying the kept (resilient)
    /// container out of a generic `container(keyedBy:)` needs once per record.
    func codableFloor(_ stopwatch: Stopwatch) throws -> Checksum {
        removeFile()
        do {
            let connection = try RawConnection(path: path)
            try connection.execute(Self.noSync)
            try connection.execute(Item.createTable)
            try stopwatch.measure {
                try connection.execute("BEGIN")
                let statement = try RawStatement(connection, Item.insert)
                try withExtendedLifetime(statement) {
                    let handle = statement.handle
                    let state = FloorEncoder.State(handle)
                    let encoder = FloorEncoder(state: state)
                    for item in codableItems {
                        state.next = 1
                        try item.encode(to: encoder)
                        guard sqlite3_step(handle) == SQLITE_DONE else { throw connection.failure("insert") }
                        sqlite3_reset(handle)
                    }
                    state.kept = nil  // the kept container refers to the state
                }
                try connection.execute("COMMIT")
            }
        }
        return try verify()
    }
}

/// The least an `Encoder` can do to bind a record of integers into a prepared statement (the
/// `codable-floor` contender): the record's *i*-th `encode` call binds parameter *i*. Keys are not
/// looked at; only `Int` values are supported (others throw), which is all `CodableItem` encodes.
struct FloorEncoder: Encoder {
    /// The statement and the next parameter, shared by the encoder and its keyed container.
    final class State {
        let handle: OpaquePointer
        var next: Int32 = 1
        /// The keyed container handed out last and its key type: every record asks for the same.
        var kept: (keyType: ObjectIdentifier, slot: AnyObject)?

        init(_ handle: OpaquePointer) {
            self.handle = handle
        }
    }

    /// Keeps a keyed container of one key type.
    final class Slot<Key: CodingKey> {
        let container: KeyedEncodingContainer<Key>

        init(_ container: KeyedEncodingContainer<Key>) {
            self.container = container
        }
    }

    let state: State
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let kept = state.kept, kept.keyType == ObjectIdentifier(Key.self) {
            // Made for `Key` (checked above).
            return unsafeDowncast(kept.slot, to: Slot<Key>.self).container
        }
        let container = KeyedEncodingContainer(Container<Key>(state: state))
        state.kept = (ObjectIdentifier(Key.self), Slot(container))
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("codable-floor encodes keyed records of Int values only")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        preconditionFailure("codable-floor encodes keyed records of Int values only")
    }

    struct Unsupported: Error {}

    /// Binds each `Int` to the next parameter.
    struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let state: State
        var codingPath: [any CodingKey] { [] }

        mutating func encode(_ value: Int, forKey key: Key) throws {
            sqlite3_bind_int64(state.handle, state.next, Int64(value))
            state.next &+= 1
        }

        mutating func encodeNil(forKey key: Key) throws { throw Unsupported() }

        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws { throw Unsupported() }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            preconditionFailure("codable-floor encodes flat records only")
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("codable-floor encodes flat records only")
        }

        mutating func superEncoder() -> any Encoder { FloorEncoder(state: state) }

        mutating func superEncoder(forKey key: Key) -> any Encoder { FloorEncoder(state: state) }
    }
}
