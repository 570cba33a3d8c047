import SlateConcurrency
import SlateCore
import SlateQuery

/// Encodes `Encodable` records straight into a prepared statement's parameters, by column name:
/// the bulk-save path of ``CodableRecord``, with no dictionary and no boxing per value.
///
/// The statement's parameters are the columns in `columns` order (`?1` is `columns[0]`). The first
/// record records which parameter each coding key binds, in the order the type encodes its keys;
/// later records follow that order without hashing a key. A column the record did not encode (a
/// `nil` optional, which synthesized `Codable` skips) is bound as `NULL`. Keys that are not
/// columns are ignored, like ``RowEncoder``'s extra entries.
final class RecordBinder {
    /// The value a parameter received for the current record.
    enum Binding: UInt8 {
        case unbound, null, value
    }

    /// The statement, unretained: the statement keeps its binders, not the reverse, and a binder is
    /// reached only through its statement (``Statement/attachment(_:for:variant:make:)``), so the
    /// statement outlives every use.
    private let statement: Unmanaged<Statement>
    private let columnNames: [String: String]
    /// The parameter of the first column.
    let firstIndex: Int
    /// Parameter position (1-based) by column name.
    private let positions: [String: Int]
    // The hot properties skip dynamic exclusivity checks: a binder is used by one thread at a time,
    // and no access to them ever overlaps another.
    /// The parameter of each coding key.
    @exclusivity(unchecked) private var keyOrder = CodingKeyOrder()
    /// What each parameter (index `position - firstIndex`) received for the current record: a
    /// buffer the binder owns (one per column, freed in `deinit`), so marking a parameter bound
    /// costs no copy-on-write check. Every index written comes from `positions`, so it is in range.
    private let bindings: UnsafeMutableBufferPointer<Binding>
    /// The keyed container handed out last (a `KeyedEncodingSlot<Key>`), and its key type: every
    /// record asks for the same one, and building it (its box and the generic metadata it needs)
    /// costs more than binding the record's values. It refers to this binder, so the binder's
    /// owner (``RecordBinderOwner``) drops it to break the cycle.
    @exclusivity(unchecked) private var keyedContainer: (keyType: ObjectIdentifier, slot: AnyObject)?

    /// A binder for `statement`, whose parameters from `firstIndex` on are `columns` in order.
    init(statement: Statement, columns: [String], columnNames: [String: String], firstIndex: Int = 1) {
        self.statement = Unmanaged.passUnretained(statement)
        self.columnNames = columnNames
        self.firstIndex = firstIndex
        var positions: [String: Int] = [:]
        for (index, column) in columns.enumerated() where positions[column] == nil {
            positions[column] = index + firstIndex
        }
        self.positions = positions
        self.bindings = .allocate(capacity: columns.count)
        self.bindings.initialize(repeating: .unbound)
    }

    deinit {
        bindings.deallocate()
    }

    /// The keyed container for `Key` over this binder: the kept one when it has that key type.
    func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let keyedContainer, keyedContainer.keyType == ObjectIdentifier(Key.self) {
            // The slot was made for `Key` (its key type is checked above), so the cast cannot fail.
            return unsafeDowncast(keyedContainer.slot, to: KeyedEncodingSlot<Key>.self).container
        }
        let container = KeyedEncodingContainer(RecordBindingContainer<Key>(binder: self))
        keyedContainer = (ObjectIdentifier(Key.self), KeyedEncodingSlot(container))
        return container
    }

    /// Drops the kept keyed container, which refers to this binder.
    func forgetKeyedContainer() {
        keyedContainer = nil
    }

    /// Binds every column of `record`; columns it did not encode are bound as `NULL`.
    func bind<Record: Encodable>(_ record: Record) throws {
        keyOrder.begin()
        for index in bindings.indices { bindings[index] = .unbound }
        try record.encode(to: RecordBindingEncoder(binder: self))
        keyOrder.finish()
        for index in bindings.indices where bindings[index] == .unbound {
            try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: index + firstIndex) }
            bindings[index] = .null
        }
    }

    /// Whether the current record bound a non-`NULL` value to `column`.
    func hasValue(forColumn column: String) -> Bool {
        guard let position = positions[column] else { return false }
        return bindings[position - firstIndex] == .value
    }

    /// The parameter for coding key `key`, or `nil` when it is not a column.
    @inline(__always)
    private func position(ofKey key: String) -> Int? {
        keyOrder.slot(forKey: key) { key in positions[columnNames[key] ?? key] ?? -1 }
    }

    @inline(__always)
    func bind<Value: SQLBindable>(_ value: Value, forKey key: String) throws {
        guard let position = position(ofKey: key) else { return }
        try statement._withUnsafeGuaranteedRef { try value.bind(to: $0, at: position) }
        bindings[position - firstIndex] = .value
    }

    func bind(_ value: (any SQLBindable)?, forKey key: String) throws {
        guard let position = position(ofKey: key) else { return }
        if let value {
            try statement._withUnsafeGuaranteedRef { try value.bind(to: $0, at: position) }
            bindings[position - firstIndex] = .value
        } else {
            try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: position) }
            bindings[position - firstIndex] = .null
        }
    }
}

/// The `Encoder` of one record: a single reference, so it is passed around without allocating.
struct RecordBindingEncoder: Encoder {
    let binder: RecordBinder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        binder.keyedContainer(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        InvalidRowEncoding<AnyCodingKey>(codingPath: codingPath)
    }
}

/// Keeps a keyed container of one key type (see ``RecordBinder/keyedContainer(keyedBy:)``).
final class KeyedEncodingSlot<Key: CodingKey> {
    let container: KeyedEncodingContainer<Key>

    init(_ container: KeyedEncodingContainer<Key>) {
        self.container = container
    }
}

/// What a statement keeps for a record type: its binder, whose kept keyed container refers back to
/// the binder. When the statement lets the owner go, the owner breaks that cycle.
final class RecordBinderOwner {
    let binder: RecordBinder

    init(_ binder: RecordBinder) {
        self.binder = binder
    }

    deinit {
        binder.forgetKeyedContainer()
    }
}

struct RecordBindingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let binder: RecordBinder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try binder.bind(nil, forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try binder.bind(try ColumnValueEncoding.bindable(value, codingPath: codingPath + [key]), forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(InvalidRowEncoding<NestedKey>(codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        InvalidRowEncoding<Key>(codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { RecordBindingEncoder(binder: binder) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { RecordBindingEncoder(binder: binder) }
}

extension Statement {
    /// The record binder attached to this statement for `Record`, binding from parameter `index`;
    /// `make` builds it the first time.
    func cachedRecordBinder<Record>(for type: Record.Type, startingAt index: Int, _ make: () throws -> RecordBinder) rethrows -> RecordBinder {
        try attachment(RecordBinderOwner.self, for: Record.self, variant: index) { RecordBinderOwner(try make()) }.binder
    }
}
