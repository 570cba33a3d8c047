import CSQLite
import SlateConcurrency
import SlateCore
import SlateQuery

/// Encodes `Encodable` records straight into a prepared statement's parameters, by column name:
/// the bulk-save path of ``CodableRecord``, with no dictionary and no boxing per value.
///
/// The statement's parameters are the columns in `columns` order (`?1` is `columns[0]`). A column
/// the record did not encode (a `nil` optional, which synthesized `Codable` skips) is bound as
/// `NULL`. Keys that are not columns are ignored, like ``RowEncoder``'s extra entries.
///
/// The first record records which parameter each coding key binds, in the order the type encodes
/// its keys. When the key type is plain data of at most 8 bytes (a synthesized `CodingKeys` enum is
/// one byte), later records that ask for the same keys in the same order are bound by comparing
/// each key's bits with the recorded one: no `stringValue`, no string comparison, no hashing, and
/// no per-parameter bookkeeping (the parameters such a record leaves out are known from the
/// recorded order). Equal bits of one plain-data type are the same key, so a match is exact; a key
/// that does not match (a skipped optional, another order, another key type) sends the rest of
/// that record through the tracked path, which finds each key by name and binds `NULL` to every
/// parameter the record did not bind.
///
/// More than 15 stored properties, on purpose: the recorded order and the per-record matching
/// state are read for every key bound, so they stay in this one object.
final class RecordBinder {
    /// A recorded request: a key's bits and the parameter it binds (`-1`: not a column). The
    /// parameter is an `Int32`, SQLite's own type for it, so that binding needs no conversion.
    struct Request {
        var bits: UInt64
        var parameter: Int32

        /// The parameter as an `Int` (`-1`: not a column).
        var position: Int { Int(parameter) }
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
    /// The parameter of each coding key, by name: the tracked path.
    @exclusivity(unchecked) private var keyOrder = CodingKeyOrder()
    /// The first record's requests, in order, while it is recorded.
    @exclusivity(unchecked) private var order: [Request] = []
    /// The first complete record's requests, in order, when its keys can be compared by their bits
    /// (a copy of `order`, in a buffer the binder owns and frees in `deinit`; empty until then).
    /// Every index read is below its count.
    @exclusivity(unchecked) private var followed = UnsafeMutableBufferPointer<Request>(start: nil, count: 0)
    /// The key type whose bits `order` holds, once recorded; `nil` while recording, and for good
    /// when the keys cannot be compared by bits.
    @exclusivity(unchecked) private var orderKeyType: ObjectIdentifier?
    /// The key type of the first request recorded.
    @exclusivity(unchecked) private var recordedKeyType: ObjectIdentifier?
    /// Whether the requests recorded so far can all be compared by bits.
    @exclusivity(unchecked) private var isOrderComparable = true
    /// Parameters that no request of `order` binds: a record that follows the order binds them `NULL`.
    @exclusivity(unchecked) private var uncovered: [Int] = []
    /// `!uncovered.isEmpty`.
    @exclusivity(unchecked) private var hasUncovered = false
    /// Whether the first record is being encoded.
    @exclusivity(unchecked) private var isRecording = true
    /// The bits of `orderKeyType` while the current record follows `order` untracked; 0 (no type's
    /// identifier) while it is tracked parameter by parameter in `bound` (the first record, and any
    /// record from the first key that does not follow `order`). Plain bits, so that the check each
    /// key makes is one comparison.
    @exclusivity(unchecked) private var followedKeyType: UInt = 0
    /// The next request of `order` the current record is expected to make.
    @exclusivity(unchecked) private var cursor = 0
    /// Whether each parameter (index `position - firstIndex`) was bound by the current record,
    /// while it is tracked: a buffer the binder owns (one per column, freed in `deinit`). Every
    /// index written comes from `positions`, so it is in range.
    private let bound: UnsafeMutableBufferPointer<Bool>
    /// The keyed container handed out last (a `KeyedEncodingSlot<Key>`), and its key type: every
    /// record asks for the same one, and building it (its box and the generic metadata it needs)
    /// costs more than binding the record's values. It refers to this binder, so the binder's
    /// owner (``RecordBinderOwner``) drops it to break the cycle.
    @exclusivity(unchecked) private var keyedContainer: (keyType: ObjectIdentifier, slot: AnyObject)?

    /// A binder for `statement`, whose parameters from `firstIndex` on are `columns` in order.
    ///
    /// - Throws: ``ResultCode/range`` when a column's parameter would lie outside
    ///   `1...Int32.max`, where every parameter SQLite can have lies (positions outside would also
    ///   collide with `-1`, "not a column").
    init(statement: Statement, columns: [String], columnNames: [String: String], firstIndex: Int = 1) throws {
        guard firstIndex >= 1, firstIndex <= Int(Int32.max) - max(columns.count - 1, 0) else {
            throw DatabaseError(
                resultCode: .range,
                message:
                    "\(columns.count) column(s) bound from parameter \(firstIndex) lie outside the parameters SQLite can have (1...\(Int32.max))",
                sql: statement.sql)
        }
        self.statement = Unmanaged.passUnretained(statement)
        self.columnNames = columnNames
        self.firstIndex = firstIndex
        var positions: [String: Int] = [:]
        for (index, column) in columns.enumerated() where positions[column] == nil {
            positions[column] = index + firstIndex
        }
        self.positions = positions
        self.bound = .allocate(capacity: columns.count)
        self.bound.initialize(repeating: false)
    }

    deinit {
        bound.deallocate()
        followed.deallocate()
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
    @inline(__always)
    func bind<Record: Encodable>(_ record: Record) throws {
        begin()
        try record.encode(to: RecordBindingEncoder(binder: self))
        // A record that made every request of a complete order bound every parameter.
        if followedKeyType == 0 || cursor != followed.count || hasUncovered { try finish() }
    }

    /// Starts a record: it follows the recorded order untracked once there is one.
    @inline(__always)
    private func begin() {
        cursor = 0
        keyOrder.begin()
        followedKeyType = orderKeyType.map { UInt(bitPattern: $0) } ?? 0
        if orderKeyType == nil {
            startTracking()
            if isRecording {
                order.removeAll(keepingCapacity: true)
                isOrderComparable = true
            }
        }
    }

    /// Tracks the rest of the record parameter by parameter: the requests it made so far followed
    /// `order`, so their parameters are the bound ones.
    private func startTracking() {
        followedKeyType = 0
        for index in bound.indices { bound[index] = false }
        for request in followed[..<cursor] where request.position >= 0 {
            bound[request.position - firstIndex] = true
        }
    }

    /// Ends a record: binds `NULL` to every parameter it did not bind, and after the first
    /// record, keeps its order.
    @inline(never)
    private func finish() throws {
        let statement = self.statement
        if followedKeyType == 0 {
            for index in bound.indices where !bound[index] {
                try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: index + firstIndex) }
            }
            if isRecording { finishRecording() }
        } else if cursor != followed.count || hasUncovered {
            // The record bound exactly the parameters of `followed[..<cursor]`, which holds each
            // parameter once. (A record that made every request of a complete order bound every
            // parameter: nothing to do.)
            for request in followed[cursor...] where request.position >= 0 {
                try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: request.position) }
            }
            for position in uncovered {
                try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: position) }
            }
        }
    }

    /// Keeps the first record's order when its keys compare by bits and bind distinct parameters;
    /// otherwise every record is tracked.
    private func finishRecording() {
        isRecording = false
        keyOrder.finish()
        var covered = Array(repeating: false, count: bound.count)
        var distinct = true
        for request in order where request.position >= 0 {
            let index = request.position - firstIndex
            if covered[index] { distinct = false }
            covered[index] = true
        }
        guard isOrderComparable, distinct, let keyType = recordedKeyType else {
            order = []
            return
        }
        uncovered = covered.indices.filter { !covered[$0] }.map { $0 + firstIndex }
        hasUncovered = !uncovered.isEmpty
        followed = .allocate(capacity: order.count)
        _ = followed.initialize(fromContentsOf: order)
        order = []
        orderKeyType = keyType
    }

    /// The parameter for `key`, or `nil` when it is not a column.
    @inline(__always)
    private func position<Key: CodingKey>(of key: Key) -> Int? {
        if let parameter = followedParameter(of: key) { return parameter >= 0 ? Int(parameter) : nil }
        return trackedPosition(of: key)
    }

    /// The parameter of `key` when the record follows the recorded order and `key` is the request
    /// expected next (-1: not a column), else `nil`: the caller takes the tracked path.
    @inline(__always)
    private func followedParameter<Key: CodingKey>(of key: Key) -> Int32? {
        if UInt(bitPattern: ObjectIdentifier(Key.self)) == followedKeyType, cursor < followed.count {
            let request = followed[cursor]
            if request.bits == PlainKeyBits.bits(of: key) {
                cursor &+= 1
                return request.parameter
            }
        }
        return nil
    }

    /// ``position(of:)`` by name, with the parameter marked as bound; while recording, the request
    /// is recorded.
    @inline(never)
    private func trackedPosition<Key: CodingKey>(of key: Key) -> Int? {
        if followedKeyType != 0 { startTracking() }
        let position = keyOrder.slot(forKey: key.stringValue) { key in positions[columnNames[key] ?? key] ?? -1 }
        if isRecording { record(key, position: position ?? -1) }
        if let position { bound[position - firstIndex] = true }
        return position
    }

    /// Records a request of the first record.
    private func record<Key: CodingKey>(_ key: Key, position: Int) {
        guard isOrderComparable else { return }
        let keyType = ObjectIdentifier(Key.self)
        if order.isEmpty {
            guard PlainKeyBits.isPlain(Key.self) else {
                isOrderComparable = false
                return
            }
            recordedKeyType = keyType
        } else if recordedKeyType != keyType {
            isOrderComparable = false
            return
        }
        // Every position fits (see `init`); were one not to, its key would be bound by name.
        guard let parameter = Int32(exactly: position) else {
            isOrderComparable = false
            return
        }
        order.append(Request(bits: PlainKeyBits.bits(of: key), parameter: parameter))
    }

    /// Binds an integer that is exactly an `Int64` (every fixed-width integer type but `UInt` and
    /// `UInt64`, and `Bool` as 0 or 1): what its ``SQLBindable/bind(to:at:)`` does, with the
    /// throwing path out of line.
    @inline(__always)
    func bindInt64<Key: CodingKey>(_ value: Int64, forKey key: Key) throws {
        guard let parameter = followedParameter(of: key) else { return try bindInt64Tracked(value, forKey: key) }
        guard parameter >= 0 else { return }
        let code = statement._withUnsafeGuaranteedRef { sqlite3_bind_int64($0.handle, parameter, value) }
        if _slowPath(code != SQLITE_OK) { try bindingFailed(code, at: Int(parameter)) }
    }

    /// ``bindInt64(_:forKey:)`` for a key found by name.
    @inline(never)
    private func bindInt64Tracked<Key: CodingKey>(_ value: Int64, forKey key: Key) throws {
        guard let position = trackedPosition(of: key) else { return }
        try statement._withUnsafeGuaranteedRef { try $0.bindInt64(value, at: position) }
    }

    /// Throws the statement's error for a failed bind.
    @inline(never)
    private func bindingFailed(_ code: Int32, at position: Int) throws {
        throw statement._withUnsafeGuaranteedRef { $0.bindingFailure(code, index: position) }
    }

    @inline(__always)
    func bind<Value: SQLBindable, Key: CodingKey>(_ value: Value, forKey key: Key) throws {
        guard let position = position(of: key) else { return }
        try statement._withUnsafeGuaranteedRef { try value.bind(to: $0, at: position) }
    }

    func bindNull<Key: CodingKey>(forKey key: Key) throws {
        guard let position = position(of: key) else { return }
        try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: position) }
    }

    func bind<Key: CodingKey>(_ value: (any SQLBindable)?, forKey key: Key) throws {
        guard let position = position(of: key) else { return }
        if let value {
            try statement._withUnsafeGuaranteedRef { try value.bind(to: $0, at: position) }
        } else {
            try statement._withUnsafeGuaranteedRef { try $0.bindNull(at: position) }
        }
    }
}

/// The `Encoder` of one record: a single reference, so it is passed around without allocating.
///
/// The reference is unretained, so that the `any Encoder` a record's `encode(to:)` receives is
/// plain data, made and dropped without reference counting. An encoder is used during that call,
/// while the caller holds the statement, which keeps its binder (the binder's own reference to the
/// statement is unretained for the same reason).
struct RecordBindingEncoder: Encoder {
    private let binder: Unmanaged<RecordBinder>
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(binder: RecordBinder) {
        self.binder = .passUnretained(binder)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        binder._withUnsafeGuaranteedRef { $0.keyedContainer(keyedBy: type) }
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

/// The keyed container of ``RecordBindingEncoder``.
///
/// The integer `encode`s are inlined into their protocol witnesses, except `Int64`'s. The compiler
/// merges identical functions and reaches all but one of them through an extra call per column,
/// and `Int`'s and `Int64`'s bodies are identical: with `Int64`'s left a function that its witness
/// calls, `Int`'s witness (the default integer type's) holds the body and makes no extra call.
struct RecordBindingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let binder: RecordBinder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try binder.bindNull(forKey: key) }
    @inline(__always) mutating func encode(_ value: Bool, forKey key: Key) throws {
        try binder.bindInt64(value ? 1 : 0, forKey: key)
    }
    mutating func encode(_ value: String, forKey key: Key) throws { try binder.bind(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try binder.bind(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try binder.bind(value, forKey: key) }
    @inline(__always) mutating func encode(_ value: Int, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    @inline(__always) mutating func encode(_ value: Int8, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    @inline(__always) mutating func encode(_ value: Int16, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    @inline(__always) mutating func encode(_ value: Int32, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try binder.bindInt64(Int64(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try binder.bind(value, forKey: key) }
    @inline(__always) mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    @inline(__always) mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    @inline(__always) mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try binder.bind(value, forKey: key) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try binder.bind(try ColumnValueEncoding.bindable(value, codingPath: codingPath + [key]), forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
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
    ///
    /// Unretained: the statement keeps its attachments for its whole life (nothing removes a
    /// statement's attachment), so the binder lives as long as the statement. Use it while the
    /// statement is alive (`_withUnsafeGuaranteedRef`, with the statement held by the caller).
    @inline(__always)
    func recordBinder<Record>(
        for type: Record.Type, startingAt index: Int, _ make: () throws -> RecordBinder
    ) rethrows -> Unmanaged<RecordBinder> {
        // Every record of a bulk insert asks for the same binder: found without hashing.
        if let owner = lastAttachment(RecordBinderOwner.self, for: Record.self, variant: index) {
            return .passUnretained(owner.binder)
        }
        return .passUnretained(
            try attachment(RecordBinderOwner.self, for: Record.self, variant: index) { RecordBinderOwner(try make()) }
                .binder)
    }
}
