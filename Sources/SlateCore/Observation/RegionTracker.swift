import CSQLite
import Foundation

// The per-connection machinery of live queries.
//
// - Footprints: while the tracker exists, SQLite's authorizer stays installed. Every statement
//   Slate prepares is prepared inside a capture, which turns the authorizer's reports into the
//   statement's footprint (what it reads and writes), kept by statement handle. Statements
//   prepared elsewhere (through the raw C handle) and statements SQLite recompiles after a schema
//   change report to an "orphan" builder, which the tracker attributes when it is safe to.
// - Reads: while `trackingRegion` runs, the trace callback (SQLITE_TRACE_STMT) reports each
//   statement as it starts, and the tracker adds its reads to the recorded region.
// - Changes: while live queries observe the connection, the update hook reports each changed row,
//   the trace callback each statement's start (for the columns an UPDATE writes, the tables the
//   update hook does not report, schema changes, savepoints), and the commit and rollback hooks
//   each transaction's fate. Changes go into a stack of levels, one per savepoint, so that a
//   rollback to a savepoint forgets exactly its changes; at commit the levels merge into one
//   change set, which is compared with each observer's region once the commit is durable.
//
// Everything here runs on the connection's thread, mostly inside SQLite callbacks, where the
// connection must not be used: nothing here runs a statement, except `loadTableInfo`, which only
// runs from Slate code (while a statement Slate prepares is captured).

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

package final class RegionTracker {
    /// Counts landed commits while live queries observe the connection.
    package let clock = CommitClock()
    private let connection: OpaquePointer
    /// Whether `sqlite3_stmt_status(SQLITE_STMTSTATUS_REPREPARE)` exists (SQLite 3.20).
    private let detectsRecompilation = sqlite3_libversion_number() >= 3_020_000

    // MARK: Footprints

    private struct KnownStatement {
        var footprint: StatementFootprint
        /// The statement's recompilation count when the footprint was taken.
        var recompilations: Int32
        /// The schema generation when the footprint was taken (for SQLite before 3.20).
        var generation: Int
        /// For statements Slate did not prepare, their SQL, to recognize a reused handle.
        var foreignSQL: [CChar]?
    }

    private var known: [OpaquePointer: KnownStatement] = [:]
    /// How many entries of `known` are statements Slate did not prepare.
    private var foreignCount = 0
    private static let foreignLimit = 256
    private var captures: [FootprintBuilder] = []
    private var orphans = FootprintBuilder()
    private static let orphanLimit = 4096
    /// Set while the tracker runs its own queries: their reports are not the user's.
    private var suspended = 0
    private var tableInfos: [TableKey: TableInfo] = [:]
    /// Bumped by every schema change this connection runs.
    private var generation = 0
    /// Cached statements whose footprint went stale, to prepare again at the next occasion.
    package private(set) var hasStaleStatements = false

    // MARK: Reads

    final class Recorder {
        var region = DatabaseRegion.empty
    }

    private var recorders: [Recorder] = []
    private var rowIDHints: [OpaquePointer: RowIDHint] = [:]

    /// Whether a region is being recorded.
    package var isRecording: Bool { !recorders.isEmpty }

    // MARK: Changes

    private struct Slot {
        let key: TableKey
        var observerCount = 0
        var rowFilteredCount = 0
        var observers: Set<ObjectIdentifier> = []
    }

    private struct Entry {
        let observer: CommitObserver
        var region: [Int: TableRegion] = [:]
        var isFullDatabase = false
        /// Set when the observer joined while a transaction was open, or its region grew while
        /// commits it did not see landed: notified after the next commit whatever it changed.
        var notifiesAtNextCommit = false
    }

    /// Changes made since a savepoint began (or the transaction, for the first level).
    private struct Level {
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

    /// How many live queries observe the connection's changes (attached observers).
    private var observingCount = 0
    package var observesChanges: Bool { observingCount > 0 }
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var slots: [Slot] = []
    private var slotIndex: [TableKey: Int] = [:]
    private var levels = [Level()]
    /// The changes of a commit that may not have landed yet (the commit hook runs before).
    private var sealed: Level?
    private var statementEpoch = 0
    /// The write statement running now, and its footprint (`nil` when unknown).
    private var currentWrite: OpaquePointer?
    private var currentFootprint: StatementFootprint?
    /// Set when a write statement ran inside another (from an SQL function): until the next
    /// top-level statement, updates are attributed to every column.
    private var attributionIsUncertain = false
    private var lastTopLevelStatement: OpaquePointer?
    /// The last statement whose footprint was used as it started, with its recompilation count
    /// then: SQLite may recompile it after the trace callback reported it (a schema change by
    /// another connection, or by this one), and reports the new program to no one.
    private var lastTraced: (statement: OpaquePointer, recompilations: Int32)?
    private var updateColumnsMemo: (slot: Int, epoch: Int, columns: ColumnSet, rowsTrusted: Bool)?

    // The last tables the update hook named, by the pointers SQLite passed, with copies of their
    // names to tell a reused address from the same table.
    private struct TableMemo {
        let database: UnsafePointer<CChar>
        let table: UnsafePointer<CChar>
        let databaseName: [CChar]
        let tableName: [CChar]
        let slot: Int
    }

    private var tableMemos: [TableMemo] = []

    init(connection: OpaquePointer) {
        self.connection = connection
    }

    // MARK: - Capturing footprints

    /// Starts collecting the authorizer's reports for a statement Slate prepares.
    package func beginCapture() {
        captures.append(FootprintBuilder())
    }

    /// Stops collecting and returns what was collected.
    package func endCapture() -> FootprintBuilder {
        captures.popLast() ?? FootprintBuilder()
    }

    /// Keeps the footprint of a statement Slate prepared. Runs Slate code (never from a callback):
    /// it may read the schema of the tables involved.
    package func register(_ statement: OpaquePointer, builder: FootprintBuilder) {
        for key in builder.tables where tableInfos[key] == nil { loadTableInfo(key) }
        let footprint = builder.footprint(sql: sqlite3_sql(statement)) { tableInfos[$0] }
        known[statement] = KnownStatement(
            footprint: footprint,
            recompilations: recompilationCount(statement),
            generation: generation,
            foreignSQL: nil)
    }

    /// Forgets a statement that is being finalized.
    package func forget(_ statement: OpaquePointer) {
        known.removeValue(forKey: statement)
        rowIDHints.removeValue(forKey: statement)
        if currentWrite == statement {
            currentWrite = nil
            currentFootprint = nil
        }
        if lastTopLevelStatement == statement { lastTopLevelStatement = nil }
        if lastTraced?.statement == statement { lastTraced = nil }
    }

    /// Whether the tracker knows the footprint of a statement, as prepared now.
    package func knowsFootprint(of statement: OpaquePointer) -> Bool {
        guard let entry = known[statement] else { return false }
        return isCurrent(entry, statement)
    }

    /// The authorizer: records into the capture in progress, or into the orphan builder.
    func authorize(
        action: Int32, first: UnsafePointer<CChar>?, second: UnsafePointer<CChar>?, database: UnsafePointer<CChar>?
    ) -> Int32 {
        if suspended > 0 { return SQLITE_OK }
        if !captures.isEmpty {
            return captures[captures.count - 1].record(action: action, first: first, second: second, database: database)
        }
        if orphans.actionCount >= Self.orphanLimit {
            // Too much to attribute safely: keep answering deletions without collecting.
            var scratch = FootprintBuilder()
            return scratch.record(action: action, first: first, second: second, database: database)
        }
        return orphans.record(action: action, first: first, second: second, database: database)
    }

    private func recompilationCount(_ statement: OpaquePointer) -> Int32 {
        // 5: SQLITE_STMTSTATUS_REPREPARE, which SQLCipher's older header lacks.
        detectsRecompilation ? sqlite3_stmt_status(statement, 5, 0) : 0
    }

    private func isCurrent(_ entry: KnownStatement, _ statement: OpaquePointer) -> Bool {
        if detectsRecompilation {
            if entry.recompilations != recompilationCount(statement) { return false }
        } else if entry.generation != generation {
            return false
        }
        if let foreignSQL = entry.foreignSQL {
            guard let sql = sqlite3_sql(statement) else { return false }
            return foreignSQL.matches(sql)
        }
        return true
    }

    /// The footprint of a statement that starts running, or `nil` when it cannot be known.
    ///
    /// A statement SQLite recompiled since its footprint was taken (after a schema change) gets
    /// the reports of its recompilation, collected since the previous statement started; a
    /// statement prepared through the C API gets the reports collected since then when it is the
    /// connection's newest statement. Either may include more than the statement's own reports
    /// (another statement prepared meanwhile): more tables, never fewer.
    private func footprint(startingStatement statement: OpaquePointer) -> StatementFootprint? {
        if let entry = known[statement] {
            if isCurrent(entry, statement) { return entry.footprint }
            if entry.foreignSQL == nil, !orphans.isEmpty, orphans.actionCount < Self.orphanLimit {
                let footprint = orphans.footprint(sql: sqlite3_sql(statement)) { tableInfos[$0] }
                known[statement] = KnownStatement(
                    footprint: footprint, recompilations: recompilationCount(statement), generation: generation,
                    foreignSQL: nil)
                return footprint
            }
            known.removeValue(forKey: statement)
            // A statement Slate prepared went stale without reports to rebuild from: Slate
            // prepares it again at the next occasion. A foreign one may be a new statement at the
            // address of a finalized one: adopted below if it can be.
            guard entry.foreignSQL != nil else {
                hasStaleStatements = true
                return nil
            }
            foreignCount -= 1
        }
        guard !orphans.isEmpty, orphans.actionCount < Self.orphanLimit,
            sqlite3_next_stmt(connection, nil) == statement, let sql = sqlite3_sql(statement)
        else { return nil }
        let footprint = orphans.footprint(sql: sql) { tableInfos[$0] }
        // Finalized foreign statements are never reported: keep a bounded number.
        if foreignCount >= Self.foreignLimit {
            known = known.filter { $0.value.foreignSQL == nil }
            foreignCount = 0
        }
        known[statement] = KnownStatement(
            footprint: footprint,
            recompilations: recompilationCount(statement),
            generation: generation,
            foreignSQL: Array(UnsafeBufferPointer(start: sql, count: strlen(sql) + 1)))
        foreignCount += 1
        return footprint
    }

    // MARK: - Table information

    /// Reads what the footprints need to know about a table. Runs its own statements, with the
    /// authorizer and the trace callback ignoring them; on any failure the table stays unknown
    /// and is treated conservatively.
    private func loadTableInfo(_ key: TableKey) {
        if key.isInternal { return }
        suspended += 1
        defer { suspended -= 1 }
        let schema = key.database.quotedIdentifier
        guard let (type, sql) = schemaEntry(schema: schema, table: key.table) else { return }
        let isVirtual = sql.uppercased().hasPrefix("CREATE VIRTUAL")
        var reportsRowChanges = false
        if type == "table" && !isVirtual {
            let rowIDNames: [String] = ["rowid", "oid", "_rowid_"]
            reportsRowChanges = rowIDNames.allSatisfy { name in
                sqlite3_table_column_metadata(connection, key.database, key.table, name, nil, nil, nil, nil, nil)
                    == SQLITE_OK
            }
        }
        var primaryKey: Set<String> = []
        var hasGeneratedColumns = false
        var integerKey: String?
        let rows =
            pragmaRows("PRAGMA \(schema).table_xinfo(\(key.table.quotedIdentifier))")
            ?? pragmaRows("PRAGMA \(schema).table_info(\(key.table.quotedIdentifier))") ?? []
        for row in rows {
            if row.primaryKey {
                primaryKey.insert(row.name.asciiLowercased)
                if row.type.uppercased() == "INTEGER" { integerKey = row.name.asciiLowercased }
            }
            if row.hidden == 2 || row.hidden == 3 { hasGeneratedColumns = true }
        }
        let lowercasedSQL = sql.lowercased()
        // `INTEGER PRIMARY KEY DESC` is not an alias of the rowid: any `desc` in the schema (even
        // in a name) rules the alias out, which only costs precision.
        let rowIDAlias =
            reportsRowChanges && primaryKey.count == 1 && !lowercasedSQL.contains("desc") ? integerKey : nil
        tableInfos[key] = TableInfo(
            reportsRowChanges: reportsRowChanges,
            primaryKey: primaryKey,
            hasGeneratedColumns: hasGeneratedColumns,
            mentionsReplace: lowercasedSQL.contains("replace"),
            rowIDAlias: rowIDAlias)
    }

    private func schemaEntry(schema: String, table: String) -> (type: String, sql: String)? {
        var statement: OpaquePointer?
        let query =
            "SELECT type, sql FROM \(schema).sqlite_master WHERE name = ?1 COLLATE NOCASE AND type IN ('table', 'view')"
        guard sqlite3_prepare_v2(connection, query, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            return nil
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, table, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
        let type = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
        let sql = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
        return (type, sql)
    }

    private func pragmaRows(_ sql: String) -> [(name: String, type: String, primaryKey: Bool, hidden: Int32)]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            return nil
        }
        defer { sqlite3_finalize(statement) }
        let columnCount = sqlite3_column_count(statement)
        var rows: [(name: String, type: String, primaryKey: Bool, hidden: Int32)] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { return nil }
            let name = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
            let type = sqlite3_column_text(statement, 2).map { String(cString: $0) } ?? ""
            let primaryKey = sqlite3_column_int64(statement, 5) != 0
            let hidden = columnCount > 6 ? sqlite3_column_int(statement, 6) : 0
            rows.append((name, type, primaryKey, hidden))
        }
        return rows.isEmpty ? nil : rows
    }

    // MARK: - Recording reads

    func beginRecording() -> Recorder {
        let recorder = Recorder()
        recorders.append(recorder)
        return recorder
    }

    func endRecording(_ recorder: Recorder) {
        recorders.removeAll { $0 === recorder }
        if recorders.isEmpty { rowIDHints.removeAll() }
    }

    /// Notes that the next run of `statement` reads only some rows of its table.
    func noteRowIDHint(_ hint: RowIDHint, for statement: OpaquePointer) {
        rowIDHints[statement] = hint
    }

    private func record(_ footprint: StatementFootprint?, of statement: OpaquePointer) {
        let hint = rowIDHints.removeValue(forKey: statement)
        guard let footprint else {
            for recorder in recorders { recorder.region = .fullDatabase }
            return
        }
        var reads = footprint.reads
        if let hint, footprint.selectCount == 1, reads.tables.count == 1, let key = reads.tables.keys.first,
            key.table == hint.table.asciiLowercased, let alias = tableInfos[key]?.rowIDAlias,
            alias == hint.column.asciiLowercased
        {
            reads.restrictRows(of: key, to: hint.rowIDs)
        }
        for recorder in recorders { recorder.region.formUnion(reads) }
    }

    /// Catches up with a recompilation of the last statement that started: SQLite fires the trace
    /// callback as a statement starts, then, when its schema changed, compiles it again and runs
    /// the new program without a second report. The authorizer's reports of the recompilation
    /// went to the orphan builder since: they are the statement's new footprint (with maybe more
    /// tables, never fewer). The recorders get its reads; a write in progress its writes.
    package func settleRecompiledStatement() {
        guard let (statement, recompilations) = lastTraced, recompilationCount(statement) != recompilations else {
            return
        }
        lastTraced = nil
        var footprint: StatementFootprint?
        if !orphans.isEmpty, orphans.actionCount < Self.orphanLimit, var entry = known[statement] {
            let rebuilt = orphans.footprint(sql: sqlite3_sql(statement)) { tableInfos[$0] }
            entry.footprint = rebuilt
            entry.recompilations = recompilationCount(statement)
            entry.generation = generation
            known[statement] = entry
            footprint = rebuilt
        } else if let entry = known.removeValue(forKey: statement) {
            if entry.foreignSQL == nil { hasStaleStatements = true } else { foreignCount -= 1 }
        }
        for recorder in recorders {
            if let footprint { recorder.region.formUnion(footprint.reads) } else { recorder.region = .fullDatabase }
        }
        if observingCount > 0, currentWrite == statement {
            currentFootprint = footprint
            updateColumnsMemo = nil
            if footprint == nil { levels[levels.count - 1].everything = true }
        }
    }

    // MARK: - Statements starting (SQLITE_TRACE_STMT)

    /// Called as each statement starts running. `isTopLevel` is false for trigger programs and
    /// for statements run from inside another statement (an SQL function).
    func statementWillRun(_ statement: OpaquePointer, isTopLevel: Bool) {
        guard suspended == 0 else { return }
        // The fast path: the write statement that started last starts again, unchanged (a loop of
        // inserts), with nothing else to attend to. Its footprint, columns and rows hold.
        if statement == currentWrite, isTopLevel, let traced = lastTraced, traced.statement == statement,
            currentFootprint?.onlyWritesReportedRows == true, recorders.isEmpty, sealed == nil, orphans.isEmpty,
            recompilationCount(statement) == traced.recompilations
        {
            statementEpoch &+= 1
            attributionIsUncertain = false
            lastTopLevelStatement = statement
            return
        }
        settleRecompiledStatement()
        if sealed != nil { flushIfCommitted() }
        if !isTopLevel && statement == lastTopLevelStatement {
            return  // a trigger program of the statement running: its footprint already covers it
        }
        if isTopLevel { lastTopLevelStatement = statement }
        defer { orphans = FootprintBuilder() }
        guard !recorders.isEmpty || observingCount > 0 else { return }
        let footprint = footprint(startingStatement: statement)
        lastTraced = footprint == nil || !detectsRecompilation ? nil : (statement, recompilationCount(statement))
        if !recorders.isEmpty { record(footprint, of: statement) }
        guard observingCount > 0 else { return }
        statementEpoch &+= 1
        if isTopLevel { attributionIsUncertain = false }
        guard let footprint else {
            unknownStatementWillRun(statement, isTopLevel: isTopLevel)
            return
        }
        if footprint.isInert { return }
        if let savepoint = footprint.savepoint { apply(savepoint) }
        if footprint.writes.isEmpty && !footprint.changesSchema { return }
        currentWrite = statement
        currentFootprint = footprint
        if !isTopLevel { attributionIsUncertain = true }
        if footprint.changesSchema {
            generation &+= 1
            tableInfos.removeAll()
            tableMemos.removeAll()
        }
        if footprint.changesReadableSchema { levels[levels.count - 1].everything = true }
        for (key, columns) in footprint.unreportedWrites {
            guard let slot = slotIndex[key], slots[slot].observerCount > 0 else { continue }
            recordChange(slot: slot, columns: columns, rowID: nil)
        }
    }

    /// A statement Slate knows nothing about: a savepoint statement is recognized from its text;
    /// any other statement that writes changes everything, as far as live queries can tell.
    private func unknownStatementWillRun(_ statement: OpaquePointer, isTopLevel: Bool) {
        if sqlite3_stmt_readonly(statement) != 0 {
            if let sql = sqlite3_sql(statement), let savepoint = SavepointStatementScanner.operation(in: sql) {
                apply(savepoint)
            }
            return
        }
        currentWrite = statement
        currentFootprint = nil
        levels[levels.count - 1].everything = true
    }

    // MARK: - Savepoints

    private func apply(_ operation: SavepointOperation) {
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

    // MARK: - Rows changing (update hook)

    func rowChanged(operation: Int32, database: UnsafePointer<CChar>?, table: UnsafePointer<CChar>?, rowID: Int64) {
        guard observingCount > 0, let database, let table else { return }
        let slot = resolveSlot(database: database, table: table)
        guard slot >= 0, slots[slot].observerCount > 0 else { return }
        let columns: ColumnSet
        var rowsTrusted = true
        if operation == SQLITE_UPDATE {
            (columns, rowsTrusted) = updatedColumns(slot: slot)
        } else {
            columns = .all
            if operation == SQLITE_INSERT && (currentFootprint?.mayReplace ?? true) { rowsTrusted = false }
        }
        let tracksRows = rowsTrusted && slots[slot].rowFilteredCount > 0
        recordChange(slot: slot, columns: columns, rowID: tracksRows ? rowID : nil)
    }

    /// The columns the running UPDATE assigns in the table of `slot`, and whether the rowids it
    /// reports identify the rows (not when it assigns a key column).
    private func updatedColumns(slot: Int) -> (ColumnSet, Bool) {
        if let memo = updateColumnsMemo, memo.slot == slot, memo.epoch == statementEpoch {
            return (memo.columns, memo.rowsTrusted)
        }
        var columns = ColumnSet.all
        if !attributionIsUncertain, let footprint = currentFootprint, let written = footprint.writes[slots[slot].key] {
            columns = written
        }
        let rowsTrusted = !columns.contains("rowid")
        updateColumnsMemo = (slot, statementEpoch, columns, rowsTrusted)
        return (columns, rowsTrusted)
    }

    private func recordChange(slot: Int, columns: ColumnSet, rowID: Int64?) {
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

    private func resolveSlot(database: UnsafePointer<CChar>, table: UnsafePointer<CChar>) -> Int {
        for memo in tableMemos where memo.table == table && memo.database == database {
            let same = memo.tableName.matches(table) && memo.databaseName.matches(database)
            if same { return memo.slot }
        }
        let key = TableKey(database: String(cString: database), table: String(cString: table))
        let slot = slotIndex[key] ?? -1
        if tableMemos.count >= 8 { tableMemos.removeFirst() }
        tableMemos.append(
            TableMemo(
                database: database,
                table: table,
                databaseName: Array(UnsafeBufferPointer(start: database, count: strlen(database) + 1)),
                tableName: Array(UnsafeBufferPointer(start: table, count: strlen(table) + 1)),
                slot: slot))
        return slot
    }

    // MARK: - Commits and rollbacks

    /// The commit hook: the changes of all levels become the transaction's, sealed until the commit
    /// is known to have landed.
    func willCommit() {
        guard observingCount > 0 else { return }
        var merged = sealed ?? Level()
        for level in levels { merged.merge(level) }
        levels = [Level()]
        sealed = merged
    }

    /// The rollback hook: the transaction's changes are gone.
    func didRollback() {
        levels = [Level()]
        sealed = nil
    }

    /// Delivers the sealed changes when their commit landed: when the connection is out of any
    /// transaction. When it is still in one, the commit failed (a busy database) and the
    /// changes go back to the open transaction.
    package func flushIfCommitted() {
        guard let pending = sealed else { return }
        sealed = nil
        if sqlite3_get_autocommit(connection) == 0 {
            levels[0].merge(pending)
            return
        }
        clock.advance()
        notify(pending)
    }

    private func notify(_ change: Level) {
        var notified: [CommitObserver] = []
        for (id, entry) in entries {
            if entry.notifiesAtNextCommit || change.everything || entry.isFullDatabase || matches(entry, change) {
                notified.append(entry.observer)
                entries[id]?.notifiesAtNextCommit = false
            } else {
                entry.observer.onSkippedCommit?()
            }
        }
        for observer in notified { observer.onChange() }
    }

    private func matches(_ entry: Entry, _ change: Level) -> Bool {
        for (slot, changed) in change.tables {
            guard let read = entry.region[slot] else { continue }
            if read.columns.intersects(changed.columns) && read.rows.intersects(changed.rows) { return true }
        }
        return false
    }

    // MARK: - Observers

    /// Starts counting commits for an observer that will register a region once its first fetch
    /// is done. Returns whether the change hooks must be installed (the first observer).
    func attach(_ observer: CommitObserver) -> Bool {
        let id = ObjectIdentifier(observer)
        guard entries[id] == nil else { return false }
        entries[id] = Entry(observer: observer)
        observingCount += 1
        return observingCount == 1
    }

    /// Removes an observer. Returns whether it was the last one (the change hooks can go).
    func detach(_ observer: CommitObserver) -> Bool {
        let id = ObjectIdentifier(observer)
        guard let entry = entries.removeValue(forKey: id) else { return false }
        removeInterest(of: entry, id: id)
        observingCount -= 1
        if observingCount == 0 {
            levels = [Level()]
            sealed = nil
        }
        return observingCount == 0
    }

    /// Sets the region of an attached observer, recorded by a fetch that started after `since`
    /// commits. When commits landed since then and the region changed, the observer may have
    /// missed one: it is notified at once.
    func setRegion(_ region: DatabaseRegion, for observer: CommitObserver, since: Int) {
        flushIfCommitted()
        let id = ObjectIdentifier(observer)
        guard var entry = entries[id] else { return }
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
        if sqlite3_get_autocommit(connection) == 0 { entry.notifiesAtNextCommit = true }
        entries[id] = entry
        updateColumnsMemo = nil
        if clock.commitCount > since { observer.onChange() }
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

    /// Marks the stale statements as dealt with (the caller cleared them from its cache).
    package func didClearStaleStatements() {
        hasStaleStatements = false
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

/// Recognizes `SAVEPOINT name`, `RELEASE [SAVEPOINT] name` and `ROLLBACK [TRANSACTION] TO
/// [SAVEPOINT] name` in the text of a statement Slate did not prepare.
enum SavepointStatementScanner {
    static func operation(in sql: UnsafePointer<CChar>) -> SavepointOperation? {
        var words: [String] = []
        var scanner = Scanner(text: sql)
        while words.count < 5, let word = scanner.nextWord() { words.append(word) }
        guard let first = words.first?.uppercased() else { return nil }
        func name(after index: Int) -> String? {
            guard index < words.count else { return nil }
            return words[index].asciiLowercased
        }
        switch first {
        case "SAVEPOINT":
            return name(after: 1).map { .begin($0) }
        case "RELEASE":
            let index = words.count > 1 && words[1].uppercased() == "SAVEPOINT" ? 2 : 1
            return name(after: index).map { .release($0) }
        case "ROLLBACK":
            var index = 1
            if index < words.count, words[index].uppercased() == "TRANSACTION" { index += 1 }
            guard index < words.count, words[index].uppercased() == "TO" else { return nil }
            index += 1
            if index < words.count, words[index].uppercased() == "SAVEPOINT" { index += 1 }
            return name(after: index).map { .rollback($0) }
        default:
            return nil
        }
    }

    /// Splits SQL into words: identifiers and keywords, with quoted identifiers unquoted; skips
    /// spaces and comments.
    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(text: UnsafePointer<CChar>) {
            bytes = Array(UnsafeBufferPointer(start: text, count: strlen(text))).map { UInt8(bitPattern: $0) }
        }

        mutating func nextWord() -> String? {
            skipSpaceAndComments()
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "[")
                || byte == UInt8(ascii: "'")
            {
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                index += 1
                var word: [UInt8] = []
                while index < bytes.count {
                    if bytes[index] == close {
                        if close != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == close {
                            word.append(close)
                            index += 2
                            continue
                        }
                        index += 1
                        break
                    }
                    word.append(bytes[index])
                    index += 1
                }
                return String(decoding: word, as: UTF8.self)
            }
            let start = index
            while index < bytes.count, Self.isWordByte(bytes[index]) { index += 1 }
            if index == start {
                index += 1  // punctuation such as ';'
                return nextWord()
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func skipSpaceAndComments() {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                    index += 1
                } else if byte == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                    index += 2
                    while index + 1 < bytes.count,
                        !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/"))
                    { index += 1 }
                    index = min(index + 2, bytes.count)
                } else {
                    return
                }
            }
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
                || (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        }
    }
}
