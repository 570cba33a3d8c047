import CSQLite
import Foundation

// The observer registry room of the region tracker: the live queries that observe a connection,
// the region each depends on, and the table slots the change log files changes under.

/// Counts the commits a connection's live queries saw, readable from any thread.
package final class CommitClock: @unchecked Sendable {
    // @unchecked Sendable: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    /// The number of commits that became visible to other connections.
    package var commitCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func advance() {
        lock.lock()
        count += 1
        lock.unlock()
    }
}

/// An observer of the commits that change a region, registered with
/// ``Database/setObservedRegion(_:for:since:)``.
package final class CommitObserver: @unchecked Sendable {
    // @unchecked Sendable: immutable after creation.
    let onChange: @Sendable () -> Void
    /// Runs instead of `onChange` after a commit that left the region unchanged (for metrics).
    let onSkippedCommit: (@Sendable () -> Void)?

    /// Creates an observer; `onChange` runs on the connection's thread after each commit that
    /// changed its region, `onSkippedCommit` after each commit that did not. Neither may use the
    /// connection.
    package init(onChange: @escaping @Sendable () -> Void, onSkippedCommit: (@Sendable () -> Void)? = nil) {
        self.onChange = onChange
        self.onSkippedCommit = onSkippedCommit
    }
}

/// The observers of a connection's commits and the tables they read.
final class ObserverRegistry {
    /// A table some observer's region names: changes are filed by slot.
    struct Slot {
        let key: TableKey
        var observerCount = 0
        var rowFilteredCount = 0
        var observers: Set<ObjectIdentifier> = []
    }

    struct Entry {
        let observer: CommitObserver
        var region: [Int: TableRegion] = [:]
        var isFullDatabase = false
        /// Set when the observer joined while a transaction was open, or its region grew while
        /// commits it did not see landed: notified after the next commit whatever it changed.
        var notifiesAtNextCommit = false
    }

    // The last tables the update hook named, by the pointers SQLite passed, with copies of their
    // names to tell a reused address from the same table.
    private struct TableMemo {
        let database: UnsafePointer<CChar>
        let table: UnsafePointer<CChar>
        let databaseName: [CChar]
        let tableName: [CChar]
        let slot: Int
    }

    /// How many observers are attached.
    private(set) var observingCount = 0
    private var entries: [ObjectIdentifier: Entry] = [:]
    private(set) var slots: [Slot] = []
    private var slotIndex: [TableKey: Int] = [:]
    private var tableMemos: [TableMemo] = []

    /// Starts counting an observer. Returns whether it is the first one.
    func attach(_ observer: CommitObserver) -> Bool {
        let id = ObjectIdentifier(observer)
        guard entries[id] == nil else { return false }
        entries[id] = Entry(observer: observer)
        observingCount += 1
        return observingCount == 1
    }

    /// Removes an observer. Returns whether it was the last one; `nil` when it was not attached.
    func detach(_ observer: CommitObserver) -> Bool? {
        let id = ObjectIdentifier(observer)
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        removeInterest(of: entry, id: id)
        observingCount -= 1
        return observingCount == 0
    }

    /// Sets the region of an attached observer; `inTransaction` when the connection is in a
    /// transaction (the observer then hears of the next commit whatever it changed). Returns
    /// whether the observer is attached.
    func setRegion(_ region: DatabaseRegion, for observer: CommitObserver, inTransaction: Bool) -> Bool {
        let id = ObjectIdentifier(observer)
        guard var entry = entries[id] else { return false }
        removeInterest(of: entry, id: id)
        entry.isFullDatabase = region.isFullDatabase
        entry.region = [:]
        for (key, table) in region.tables {
            let slot = slotIndex[key] ?? addSlot(key)
            entry.region[slot] = table
            slots[slot].observerCount += 1
            slots[slot].observers.insert(id)
            if case .some = table.rows { slots[slot].rowFilteredCount += 1 }
        }
        if inTransaction { entry.notifiesAtNextCommit = true }
        entries[id] = entry
        return true
    }

    private func removeInterest(of entry: Entry, id: ObjectIdentifier) {
        for (slot, table) in entry.region {
            slots[slot].observerCount -= 1
            slots[slot].observers.remove(id)
            if case .some = table.rows { slots[slot].rowFilteredCount -= 1 }
        }
    }

    private func addSlot(_ key: TableKey) -> Int {
        slots.append(Slot(key: key))
        slotIndex[key] = slots.count - 1
        tableMemos.removeAll()
        return slots.count - 1
    }

    /// The slot of a table some observer's region named, if any.
    func slot(of key: TableKey) -> Int? {
        slotIndex[key]
    }

    /// Forgets which tables the update hook's pointers named (the schema changed).
    func forgetTablePointers() {
        tableMemos.removeAll()
    }

    /// The slot of the table the update hook names, or -1 when no observer ever read it.
    func resolveSlot(database: UnsafePointer<CChar>, table: UnsafePointer<CChar>) -> Int {
        for memo in tableMemos where memo.table == table && memo.database == database {
            let same = memo.tableName.matches(table) && memo.databaseName.matches(database)
            if same { return memo.slot }
        }
        let key = TableKey(database: String(cString: database), table: String(cString: table))
        let slot = slotIndex[key] ?? -1
        if tableMemos.count >= 8 { tableMemos.removeFirst() }
        tableMemos.append(
            TableMemo(
                database: database, table: table,
                databaseName: Array(UnsafeBufferPointer(start: database, count: strlen(database) + 1)),
                tableName: Array(UnsafeBufferPointer(start: table, count: strlen(table) + 1)), slot: slot))
        return slot
    }

    /// The observers a landed commit's changes concern; those waiting for the next commit stop
    /// waiting. The others hear of the commit they skip (`onSkippedCommit`) here.
    func observers(concernedBy change: ChangeLog.Level) -> [CommitObserver] {
        var notified: [CommitObserver] = []
        for (id, entry) in entries {
            if entry.notifiesAtNextCommit || change.everything || entry.isFullDatabase || Self.matches(entry, change) {
                notified.append(entry.observer)
                entries[id]?.notifiesAtNextCommit = false
            } else {
                entry.observer.onSkippedCommit?()
            }
        }
        return notified
    }

    private static func matches(_ entry: Entry, _ change: ChangeLog.Level) -> Bool {
        for (slot, changed) in change.tables {
            guard let read = entry.region[slot] else { continue }
            if read.columns.intersects(changed.columns) && read.rows.intersects(changed.rows) { return true }
        }
        return false
    }
}

extension Array where Element == CChar {
    /// Whether the array holds the same NUL-terminated text as `text`.
    func matches(_ text: UnsafePointer<CChar>) -> Bool {
        withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return strcmp(text, base) == 0
        }
    }
}
