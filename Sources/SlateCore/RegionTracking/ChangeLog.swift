// The change log room of the region tracker: what the open transaction changed, while live
// queries observe the connection.
//
// The update hook reports each changed row, the trace callback each statement's start (for the
// columns an UPDATE writes, the tables the update hook does not report, schema changes,
// savepoints), and the commit and rollback hooks each transaction's fate. Changes go into a stack
// of levels, one per savepoint, so that a rollback to a savepoint forgets exactly its changes; at
// commit the levels merge into one change set, sealed until the commit is known to have landed.

/// The changes of a connection's open transaction, by observed table slot.
final class ChangeLog {
    /// Changes made since a savepoint began (or the transaction, for the first level).
    struct Level {
        var name: String?
        var tables: [Int: TableRegion] = [:]
        var everything = false
        /// The statement run (see `statementEpoch`) whose columns each table already holds.
        var columnsEpoch: [Int: Int] = [:]

        mutating func merge(_ other: Level) {
            if other.everything { everything = true }
            for (slot, change) in other.tables {
                tables[slot] = tables[slot].map { $0.union(change) } ?? change
            }
            columnsEpoch = [:]
        }

        var isEmpty: Bool { !everything && tables.isEmpty }
    }

    private(set) var levels = [Level()]
    /// The changes of a commit that may not have landed yet (the commit hook runs before).
    var sealed: Level?
    /// Counts statement runs, so that a statement's columns are added to a table once per run.
    var statementEpoch = 0
    /// The write statement running now, and its footprint (`nil` when unknown).
    private(set) var currentWrite: OpaquePointer?
    private(set) var currentFootprint: StatementFootprint?
    /// Set when a write statement ran inside another (from an SQL function): until the next
    /// top-level statement, updates are attributed to every column.
    var attributionIsUncertain = false
    /// The columns the running UPDATE assigns in one table, for each of its rows.
    var updateColumnsMemo: (slot: Int, epoch: Int, columns: ColumnSet, rowsTrusted: Bool)?

    /// The running write statement and its footprint.
    func setCurrentWrite(_ statement: OpaquePointer?, footprint: StatementFootprint?) {
        currentWrite = statement
        currentFootprint = footprint
    }

    /// A statement SQLite recompiled after it started now has `footprint` (`nil`: unknown).
    func writeWasRecompiled(_ statement: OpaquePointer, footprint: StatementFootprint?) {
        guard currentWrite == statement else { return }
        currentFootprint = footprint
        updateColumnsMemo = nil
        if footprint == nil { markEverythingChanged() }
    }

    func forget(_ statement: OpaquePointer) {
        if currentWrite == statement { setCurrentWrite(nil, footprint: nil) }
    }

    /// The open level changes everything, as far as live queries can tell.
    func markEverythingChanged() {
        levels[levels.count - 1].everything = true
    }

    /// Forgets every change (the last observer left, or the transaction rolled back).
    func reset() {
        levels = [Level()]
        sealed = nil
    }

    // MARK: Savepoints

    func apply(_ operation: SavepointOperation) {
        switch operation {
        case .begin(let name):
            levels.append(Level(name: name))
        case .release(let name):
            guard let index = levels.lastIndex(where: { $0.name == name }), index > 0 else { return }
            var merged = levels[index - 1]
            for level in levels[index...] { merged.merge(level) }
            levels.removeSubrange(index...)
            levels[index - 1] = merged
        case .rollback(let name):
            guard let index = levels.lastIndex(where: { $0.name == name }) else { return }
            levels.removeSubrange((index + 1)...)
            levels[index] = Level(name: name)
        }
        statementEpoch &+= 1
    }

    // MARK: Rows

    /// The columns the running UPDATE assigns in the table of `slot` (`key`), and whether the
    /// rowids it reports identify the rows (not when it assigns a key column).
    func updatedColumns(slot: Int, key: @autoclosure () -> TableKey) -> (ColumnSet, Bool) {
        if let memo = updateColumnsMemo, memo.slot == slot, memo.epoch == statementEpoch {
            return (memo.columns, memo.rowsTrusted)
        }
        var columns = ColumnSet.all
        if !attributionIsUncertain, let footprint = currentFootprint, let written = footprint.writes[key()] {
            columns = written
        }
        let rowsTrusted = !columns.contains("rowid")
        updateColumnsMemo = (slot, statementEpoch, columns, rowsTrusted)
        return (columns, rowsTrusted)
    }

    func recordChange(slot: Int, columns: ColumnSet, rowID: Int64?) {
        let top = levels.count - 1
        guard levels[top].tables[slot] != nil else {
            levels[top].tables[slot] = TableRegion(columns: columns, rows: rowID.map { .some([$0]) } ?? .all)
            levels[top].columnsEpoch[slot] = statementEpoch
            return
        }
        if levels[top].columnsEpoch[slot] != statementEpoch {
            levels[top].tables[slot]?.columns.formUnion(columns)
            levels[top].columnsEpoch[slot] = statementEpoch
        }
        // In place, so that the set of rowids is not copied for each row.
        if let rowID {
            levels[top].tables[slot]?.rows.insert(rowID)
        } else {
            levels[top].tables[slot]?.rows = .all
        }
    }

    // MARK: Transactions

    /// The commit hook: the changes of all levels become the transaction's, sealed until the
    /// commit is known to have landed.
    func seal() {
        var merged = sealed ?? Level()
        for level in levels { merged.merge(level) }
        levels = [Level()]
        sealed = merged
    }

    /// The sealed changes, taken out; when the commit did not land (`committed` is false, the
    /// connection is still in a transaction after a busy commit), they go back to the open
    /// transaction and `nil` comes back.
    func takeSealed(committed: Bool) -> Level? {
        guard let pending = sealed else { return nil }
        sealed = nil
        guard committed else {
            levels[0].merge(pending)
            return nil
        }
        return pending
    }
}
