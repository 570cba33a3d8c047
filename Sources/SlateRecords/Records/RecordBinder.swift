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
/// its keys. Later records that ask for the same keys in the same order are bound by comparing each
/// key's name with the recorded one: no hashing, and no per-parameter bookkeeping (the parameters
/// such a record leaves out are known from the recorded order). A key that does not match (a
/// skipped optional, another order) sends the rest of that record through the tracked path, which
/// finds each key by name and binds `NULL` to every parameter the record did not bind.
final class RecordBinder {
    /// A recorded request: a key's name and the parameter it binds (`-1`: not a column). The
    /// parameter is an `Int32`, SQLite's own type for it, so that binding needs no conversion.
    struct Request {
        var key: String
        var parameter: Int32
    }

    /// The statement. Unowned: the statement keeps its binders (an attachment), not the reverse,
    /// and a binder is reached only through its statement, so the statement outlives every use.
    private unowned let statement: Statement
    /// The statement's `sqlite3_stmt *`, which integers, the most common values, are bound to.
    private let handle: OpaquePointer
    private let columnNames: [String: String]
    /// The parameter of the first column.
    let firstIndex: Int
    /// Parameter position (1-based) by column name.
    private let positions: [String: Int]
    /// The parameter of each coding key, by name: the tracked path.
    private var keyOrder = CodingKeyOrder()
    /// What every key of a record uses: the recorded order, and where the current record is in it.
    struct Following {
        /// The first complete record's requests, in order (while the first record is encoded, the
        /// requests so far). Later records follow it when ``RecordBinder/hasOrder``.
        var order: [Request] = []
        /// Whether the current record has followed `order` so far, untracked.
        var isFollowing = false
        /// The next request of `order` the current record is expected to make.
        var cursor = 0
    }

    /// The state every key uses, in memory of its own (allocated with the binder, freed in
    /// `deinit`): as a stored property of the class, every key read the array across the name
    /// comparison (a call), so the compiler checked the access at run time (`swift_beginAccess`),
    /// while memory reached through a pointer is not checked. Kept from the checks by
    /// `@exclusivity(unchecked)` before, removing the attribute cost about 3.8 M instructions, +7 %,
    /// in `insert-50k` `slate-codable` (`--quick --instructions`, one check per key). A binder is
    /// used by one thread at a time, and no Swift access to this memory spans a call. Allocated at
    /// the end of `init`, after its check that can throw: memory reached through a pointer has no
    /// destructor, and an initializer that throws frees only what has one.
    private let following: UnsafeMutablePointer<Following>
    /// Whether `order` is complete and binds distinct parameters, so that records can follow it.
    private var hasOrder = false
    /// Parameters that no request of `order` binds: a record that follows the order binds them `NULL`.
    private var uncovered: [Int] = []
    /// Whether the first record is being encoded.
    private var isRecording = true
    /// Whether each parameter (index `position - firstIndex`) was bound by the current record,
    /// while it is tracked. Every index written comes from `positions`, so it is in range.
    private var bound: [Bool]
    /// The keyed container handed out last (a `KeyedEncodingSlot<Key>`), and its key type: every
    /// record asks for the same one, and building it (its box and the generic metadata it needs)
    /// costs more than binding the record's values. It refers to this binder, so the binder's
    /// owner (``RecordBinderOwner``) drops it to break the cycle.
    private var keyedContainer: (keyType: ObjectIdentifier, slot: AnyObject)?

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
        self.statement = statement
        self.handle = statement.handle
        self.columnNames = columnNames
        self.firstIndex = firstIndex
        var positions: [String: Int] = [:]
        for (index, column) in columns.enumerated() where positions[column] == nil {
            positions[column] = index + firstIndex
        }
        self.positions = positions
        self.bound = Array(repeating: false, count: columns.count)
        let following = UnsafeMutablePointer<Following>.allocate(capacity: 1)
        following.initialize(to: Following())
        self.following = following
    }

    deinit {
        following.deinitialize(count: 1)
        following.deallocate()
    }

    /// The keyed container for `Key` over this binder: the kept one when it has that key type.
    func keyedContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let keyedContainer, keyedContainer.keyType == ObjectIdentifier(Key.self) {
            // The slot was made below for this key type, which the identifier just compared is.
            // `unsafeDowncast` rather than `as?`: this code is generic over `Key` and runs
            // unspecialized (the record's `encode(to:)` calls it through `Encoder`), so the checked
            // cast looked up `KeyedEncodingSlot<Key>`'s metadata in the runtime's tables for every
            // record: 1,625,000 instructions, +3.5 %, in `insert-50k` `slate-codable`
            // (`--quick --instructions`, 325 a record). Debug builds still check the cast.
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
        following.pointee.cursor = 0
        // A first record that threw part of the way leaves requests to record again.
        if isRecording { following.pointee.order.removeAll(keepingCapacity: true) }
        following.pointee.isFollowing = hasOrder
        if !hasOrder { startTracking() }
        try record.encode(to: RecordBindingEncoder(binder: self))
        // A record that made every request of the order bound every parameter it covers.
        let followed = following.pointee.isFollowing && following.pointee.cursor == following.pointee.order.count
        if !followed || !uncovered.isEmpty { try finish() }
    }

    /// Tracks the rest of the record parameter by parameter: the requests it made so far followed
    /// `order`, so their parameters are the bound ones.
    private func startTracking() {
        following.pointee.isFollowing = false
        // The key order's cursor, which only the tracked path uses, is reset here rather than for
        // every record: the access to the stored property was checked at run time
        // (`swift_beginAccess`), 76 instructions a record in `insert-50k` `slate-codable`. A record
        // that followed `order` so far left it at 0 all the same.
        keyOrder.begin()
        for index in bound.indices { bound[index] = false }
        let state = following.pointee
        for request in state.order[..<state.cursor] where request.parameter >= 0 {
            bound[Int(request.parameter) - firstIndex] = true
        }
    }

    /// Ends a record: binds `NULL` to every parameter it did not bind, and after the first
    /// record, keeps its order.
    private func finish() throws {
        let state = following.pointee
        if state.isFollowing {
            // The record bound exactly the parameters of `order[..<cursor]`, which holds each
            // parameter once.
            for request in state.order[state.cursor...] where request.parameter >= 0 {
                try statement.bindNull(at: Int(request.parameter))
            }
            for position in uncovered { try statement.bindNull(at: position) }
            return
        }
        for index in bound.indices where !bound[index] {
            try statement.bindNull(at: index + firstIndex)
        }
        if isRecording { finishRecording() }
    }

    /// Keeps the first record's order when its keys bind distinct parameters; otherwise every
    /// record is tracked.
    private func finishRecording() {
        isRecording = false
        keyOrder.finish()
        var covered = Array(repeating: false, count: bound.count)
        for request in following.pointee.order where request.parameter >= 0 {
            let index = Int(request.parameter) - firstIndex
            if covered[index] {
                following.pointee.order = []
                return
            }
            covered[index] = true
        }
        uncovered = covered.indices.filter { !covered[$0] }.map { $0 + firstIndex }
        hasOrder = true
    }

    /// The parameter for the key called `key`, or `nil` when it is not a column.
    private func parameter(forKey key: String) -> Int32? {
        let following = self.following
        let cursor = following.pointee.cursor
        if following.pointee.isFollowing, cursor < following.pointee.order.count,
            following.pointee.order[cursor].key == key
        {
            let parameter = following.pointee.order[cursor].parameter
            following.pointee.cursor = cursor &+ 1
            return parameter >= 0 ? parameter : nil
        }
        return trackedParameter(forKey: key)
    }

    /// ``parameter(forKey:)`` by name, with the parameter marked as bound; while recording, the
    /// request is recorded.
    private func trackedParameter(forKey key: String) -> Int32? {
        if following.pointee.isFollowing { startTracking() }
        let position = keyOrder.slot(forKey: key) { key in positions[columnNames[key] ?? key] ?? -1 }
        // Every position fits an `Int32` (see `init`).
        let parameter = position.flatMap { Int32(exactly: $0) }
        if isRecording { following.pointee.order.append(Request(key: key, parameter: parameter ?? -1)) }
        guard let parameter, let position else { return nil }
        bound[position - firstIndex] = true
        return parameter
    }

    /// Binds an integer that is exactly an `Int64` (every fixed-width integer type but `UInt` and
    /// `UInt64`, and `Bool` as 0 or 1): what its ``SQLBindable/bind(to:at:)`` does.
    ///
    /// Inlined into the keyed container's `encode` (the one caller that runs for every key): as a
    /// call of its own, its prologue, epilogue and the key's and value's moves into registers cost
    /// 1,150,000 instructions, +2.7 %, in `insert-50k` `slate-codable` (`--quick --instructions`,
    /// 42.67 M → 43.81 M, 23 a key).
    @inline(__always)
    func bindInt64(_ value: Int64, forKey key: String) throws {
        guard let parameter = parameter(forKey: key) else { return }
        let code = sqlite3_bind_int64(handle, parameter, value)
        if code != SQLITE_OK { throw bindingFailure(code, parameter: parameter) }
    }

    /// The error of a bind SQLite refused. A call of its own, so that the binds, which run for
    /// every key, stay small.
    @inline(never)
    private func bindingFailure(_ code: Int32, parameter: Int32) -> any Error {
        statement.bindingFailure(code, index: Int(parameter))
    }

    func bind<Value: SQLBindable>(_ value: Value, forKey key: String) throws {
        guard let parameter = parameter(forKey: key) else { return }
        try value.bind(to: statement, at: Int(parameter))
    }

    func bindNull(forKey key: String) throws {
        guard let parameter = parameter(forKey: key) else { return }
        try statement.bindNull(at: Int(parameter))
    }

    func bind(_ value: (any SQLBindable)?, forKey key: String) throws {
        guard let parameter = parameter(forKey: key) else { return }
        if let value {
            try value.bind(to: statement, at: Int(parameter))
        } else {
            try statement.bindNull(at: Int(parameter))
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

/// The keyed container of ``RecordBindingEncoder``.
struct RecordBindingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let binder: RecordBinder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try binder.bindNull(forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try binder.bindInt64(value ? 1 : 0, forKey: key.stringValue)
    }
    mutating func encode(_ value: String, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try binder.bindInt64(value, forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try binder.bindInt64(Int64(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try binder.bind(value, forKey: key.stringValue) }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try binder.bind(
            try ColumnValueEncoding.bindable(value, codingPath: codingPath + [key]), forKey: key.stringValue)
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
    /// `make` builds it the first time. The statement keeps it for its whole life.
    func recordBinder<Record>(
        for type: Record.Type, startingAt index: Int, _ make: () throws -> RecordBinder
    ) rethrows -> RecordBinder {
        // Every record of a bulk insert asks for the same binder: found without hashing.
        if let owner = lastAttachment(RecordBinderOwner.self, for: Record.self, variant: index) {
            return owner.binder
        }
        return try attachment(RecordBinderOwner.self, for: Record.self, variant: index) {
            RecordBinderOwner(try make())
        }.binder
    }
}
