/// The reads by name of a statement's rows: which column each name read, in the order the first
/// row asked for them, so that later rows, which ask in the same order, find each name with one
/// comparison.
///
/// A statement keeps its log in memory of its own (``Statement/namedReadLog``, allocated with the
/// statement and freed with it) rather than in stored properties of the class: a read by name is
/// inlined into the caller's module, and there a stored property of a class costs a dynamic
/// exclusivity check (`swift_beginAccess`) per access, while memory reached through a pointer is
/// not checked at run time. The log is the "struct for the loop's duration" of issue 30, kept for
/// the statement's life because a row can be read by name through any of the APIs that lend one.
/// What the class fields cost: 15.2 M instructions, +14 %, in `fetch-200k-ints` `slate-row-name`
/// (`--quick --instructions`, one `swift_beginAccess` per read); see `Benchmarks/README.md`.
///
/// Like the statement, the log is used by one thread at a time.
@usableFromInline
package struct NamedReadLog {
    /// One recorded read: the name, its column, and the entry expected after it. A read of a
    /// missing column is not recorded (it is looked up each time; the reads after it still follow
    /// the log), so the fast path tests no "missing" mark; and an index is at most 32,766
    /// (SQLite's limit on columns), so the read that follows needs no range check of it.
    @usableFromInline
    package struct Entry {
        @usableFromInline package var name: String
        @usableFromInline package var index: UInt16
        /// The position of the next expected entry: the following one, or 0 for the last entry once
        /// a row's reads have started over at the first (``Statement/columnIndexForRead(named:)``
        /// sets it). While it is the entries' count, the next read takes the slow path, which
        /// records it or starts the reads over.
        @usableFromInline package var successor: UInt16

        @usableFromInline
        package init(name: String, index: UInt16, successor: UInt16) {
            self.name = name
            self.index = index
            self.successor = successor
        }
    }

    /// The reads of the first rows, in order (at most ``maximumEntries``).
    @usableFromInline package var entries: [Entry] = []
    /// The next expected entry: 0 when a run starts; after the last entry, a read of the first
    /// entry's name starts the next row's reads (the rows are read in the same order; the last
    /// entry's ``Entry/successor`` leads back to the first), so that a step writes nothing per row.
    /// (A `UInt16`, like the entries' positions, so that the fast path needs no test of a
    /// negative cursor: 2 instructions a read in `fetch-200k-ints` `slate-row-name`.)
    @usableFromInline package var cursor: UInt16 = 0
    /// Whether a run may have started since the statement's column state was last checked (set
    /// when the statement is reset, finishes or fails): the next read by name takes the slow path,
    /// which checks that SQLite did not re-prepare the statement with other columns.
    @usableFromInline package var columnStateNeedsCheck = true

    /// A statement read by name in an unusual pattern stops recording, and its reads look names up.
    package static let maximumEntries = 256

    @usableFromInline
    package init() {}

    /// The column of a read of `name` when it is the next recorded read, else `nil` (the caller
    /// then takes the slow path, `Statement.columnIndexForRead(named:)`). Inlined: one string
    /// comparison, which for the same literal is a comparison of its bits.
    @inlinable
    package mutating func nextRecordedIndex(named name: String) -> Int? {
        if columnStateNeedsCheck { return nil }
        let next = Int(cursor)
        // One range check, which the entry's read needs not repeat. (The wrap-around after the
        // last entry is its successor, set once by the slow path: the cursor chosen here from
        // two values needed a second range check, 2 instructions a read.)
        guard next < entries.count else { return nil }
        let entry = entries[next]
        guard entry.name == name else { return nil }
        cursor = entry.successor
        return Int(entry.index)
    }
}
