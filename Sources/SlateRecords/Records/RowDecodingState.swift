import CSQLite
import SlateCore

/// What decoding the rows of one statement shares: the current row, and which column each coding
/// key reads.
///
/// Each decode gets a new ``generation``, and the decoder and keyed containers it hands out carry
/// it: they read only while it is the state's current generation, which ends when the decode
/// returns or throws. So a decoder or container that `init(from:)` kept cannot read the row after
/// the call that lent it (for a copied row, freed memory), nor the row of a later decode. Each
/// decode hands out containers of its own: one handed out before could have been kept.
final class RowDecodingState {
    /// What every read of a decode uses: the row, the decode in progress, the key order.
    struct Hot {
        /// Where the row being decoded is (see ``RowDecodingState/row``).
        var source: Row.Source
        var columnOffset: Int32
        /// The decode in progress; `0` when none is (a kept decoder or container never matches it).
        var generation: UInt = 0
        /// The column of each coding key.
        var keyOrder = CodingKeyOrder()
    }

    /// The state every read uses, in memory of its own (allocated with the state, freed in
    /// `deinit`): a stored property of the class would be read across the value's read (calls
    /// into SQLite) and updated across the key comparison, so the compiler checks those accesses
    /// at run time (`swift_beginAccess`), while memory reached through a pointer is not checked.
    /// As class fields, with the checks turned off by `@exclusivity(unchecked)`, removing the
    /// attribute cost 51.4 M instructions, +21 %, in `fetch-200k-ints` `slate-codable`
    /// (`--quick --instructions`, 460,003 checks). The state belongs to one decoder, used by one
    /// thread at a time, and nothing holds a Swift access to this memory across a call.
    private let hot: UnsafeMutablePointer<Hot>
    /// The generation the next decode gets: every decode of this state gets its own.
    private var nextGeneration: UInt = 1
    let sql: String?
    /// The row's ``SlateCore/Row/columnsIdentity`` when the key order was learned: the order holds
    /// for rows with the same one.
    let columns: AnyObject?
    let columnNames: [String: String]

    init(row: borrowing Row, sql: String?, columns: AnyObject?, columnNames: [String: String]) {
        hot = .allocate(capacity: 1)
        hot.initialize(to: Hot(source: row.source, columnOffset: row.columnOffset))
        self.sql = sql
        self.columns = columns
        self.columnNames = columnNames
    }

    deinit {
        hot.deinitialize(count: 1)
        hot.deallocate()
    }

    /// A view of the row being decoded, valid from `begin(_:)` until the decode that lent the row
    /// returns (a `Decoder` must hold what it reads, and a `Row` is only borrowed); read only
    /// through a decoder or container whose generation is ``generation``.
    var row: Row { Row(source: hot.pointee.source, columnOffset: hot.pointee.columnOffset) }

    /// The decode in progress; `0` when none is.
    var generation: UInt { hot.pointee.generation }

    /// Whether a decode is in progress (``begin(_:)`` or ``beginOutermost(_:)`` without its end).
    var isDecoding: Bool { hot.pointee.generation != 0 }

    /// A new generation. Wrapping takes 2^64 decodes; it skips 0, the generation of no decode.
    private func takeGeneration() -> UInt {
        let generation = nextGeneration
        nextGeneration = generation == .max ? 1 : generation &+ 1
        return generation
    }

    /// Starts decoding `row` under a new generation when no decode is in progress; returns the
    /// generation. ``endOutermost()`` ends it.
    func beginOutermost(_ row: borrowing Row) -> UInt {
        let generation = takeGeneration()
        hot.pointee.source = row.source
        hot.pointee.columnOffset = row.columnOffset
        hot.pointee.generation = generation
        hot.pointee.keyOrder.begin()
        return generation
    }

    /// Ends the decode ``beginOutermost(_:)`` started, returned or thrown: its decoder and
    /// containers stop reading. (The row view is left as it is: nothing reads it in generation 0.)
    func endOutermost() {
        hot.pointee.generation = 0
    }

    /// Starts decoding `row` under a new generation; returns what a decode already in progress (a
    /// decode nested in `init(from:)`) had, for ``end(restoring:)``.
    func begin(_ row: borrowing Row) -> OuterDecode {
        let outer = OuterDecode(
            source: hot.pointee.source, columnOffset: hot.pointee.columnOffset, generation: hot.pointee.generation)
        let generation = takeGeneration()
        hot.pointee.source = row.source
        hot.pointee.columnOffset = row.columnOffset
        hot.pointee.generation = generation
        hot.pointee.keyOrder.begin()
        return outer
    }

    /// Ends the current decode, returned or thrown: its decoder and containers stop reading.
    func end(restoring outer: OuterDecode) {
        hot.pointee.source = outer.source
        hot.pointee.columnOffset = outer.columnOffset
        hot.pointee.generation = outer.generation
    }

    /// What a decode replaced when it began: restored when it ends.
    struct OuterDecode {
        let source: Row.Source
        let columnOffset: Int32
        let generation: UInt
    }

    /// Marks the key order of the first complete record as the one later records follow.
    func finish() {
        hot.pointee.keyOrder.finish()
    }

    /// Throws unless `generation` is the decode in progress: one comparison per read. (A kept
    /// container's generation is a past one, and the generation is `0` between decodes.)
    func check(_ generation: UInt) throws {
        guard generation == hot.pointee.generation else { throw staleUse() }
    }

    /// The error for a decoder or container used after its decode ended.
    func staleUse() -> DatabaseError {
        DatabaseError(
            resultCode: .misuse,
            message:
                "a Decoder or decoding container of a row was used after the init(from:) it was made for returned; "
                + "a row is read only during that call: keep the decoded values, not the decoder",
            sql: sql)
    }

    /// The column of the coding key called `key`, or `nil` when the row has none.
    ///
    /// `@inline(__always)`: without it (it alone removed) every read calls it, and
    /// `fetch-200k-ints` `slate-codable` takes 162.2 M instructions instead of 158.1 M (+2.6 %,
    /// `--quick --instructions`, session 42).
    @inline(__always)
    func index(ofKey key: String) -> Int? {
        if let slot = hot.pointee.keyOrder.followingSlot(forKey: key) { return slot }
        return lookUpIndex(ofKey: key)
    }

    /// ``index(ofKey:)`` when `key` is not the next key of the recorded order: by name, recorded
    /// while the first record is decoded. The key order is moved out of the shared memory while
    /// the row's columns are searched, so that no access to that memory spans the search.
    private func lookUpIndex(ofKey key: String) -> Int? {
        let source = hot.pointee.source
        let columnOffset = hot.pointee.columnOffset
        var order = hot.pointee.keyOrder
        hot.pointee.keyOrder = CodingKeyOrder()
        defer { hot.pointee.keyOrder = order }
        return order.slot(forKey: key) { key in
            Row(source: source, columnOffset: columnOffset).index(ofColumn: columnName(ofKey: key)) ?? -1
        }
    }

    /// Reads the column of the coding key called `key` as `Value` for the decode of `generation`;
    /// `nil` when the row has no such column. Throws a misuse error when that decode is over.
    func read<Value: SQLExtractable>(_ type: Value.Type, forKey key: String, generation: UInt) throws -> Value? {
        guard generation == hot.pointee.generation else { throw staleUse() }
        guard let index = index(ofKey: key) else { return nil }
        return try Value.extract(from: row, at: index)
    }

    /// ``read(_:forKey:generation:)`` for an integer type: the common case, an INTEGER of a live
    /// statement's row that `Value` holds, is read here, in the container's `decode`, rather than
    /// in the out-of-line `extract` the optimiser merges for every `FixedWidthInteger` type; any
    /// other value (another storage class, out of range, a copied or foreign row) goes to
    /// `extract`, whose rules and errors hold unchanged.
    ///
    /// `@inline(__always)`: without it (it alone removed) this read runs as a call of its own, and
    /// `fetch-200k-ints` `slate-codable` takes 164.1 M instructions instead of 158.1 M (+3.8 %,
    /// `--quick --instructions`, session 42).
    @inline(__always)
    func read<Value: SQLExtractable & FixedWidthInteger>(_ type: Value.Type, forKey key: String, generation: UInt)
        throws -> Value?
    {
        guard generation == hot.pointee.generation else { throw staleUse() }
        guard let index = index(ofKey: key) else { return nil }
        if case .statement(let statement, _, _) = hot.pointee.source {
            let value = sqlite3_column_value(statement, row.position(index))
            if sqlite3_value_type(value) == SQLITE_INTEGER, let integer = Value(exactly: sqlite3_value_int64(value)) {
                return integer
            }
        }
        return try Value.extract(from: row, at: index)
    }

    /// Reads the column of the coding key called `key` as `Value`, or `nil` when it is `NULL` or
    /// the row has no such column, for the decode of `generation`.
    func readIfPresent<Value: SQLExtractable>(_ type: Value.Type, forKey key: String, generation: UInt) throws
        -> Value?
    {
        guard generation == hot.pointee.generation else { throw staleUse() }
        guard let index = index(ofKey: key) else { return nil }
        return try Value.extractIfPresent(from: row, at: index)
    }

    func columnName(ofKey key: String) -> String {
        columnNames[key] ?? key
    }
}
