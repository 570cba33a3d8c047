import CSQLite

// The per-connection machinery of live queries, in four rooms, and the tracker that routes
// SQLite's callbacks through them:
//
// - Footprints (`StatementFootprints`): what each prepared statement reads and writes, from the
//   authorizer's reports while Slate prepares it.
// - Reads (`ReadRecorder`): while `trackingRegion` runs, the reads of each statement that starts.
// - Changes (`ChangeLog`): while live queries observe the connection, what the open transaction
//   changed, level by savepoint, sealed at commit.
// - Observers (`ObserverRegistry`): the live queries, their regions, and the table slots changes
//   are filed under; told after each landed commit that changed their region.
//
// Everything here runs on the connection's thread, mostly inside SQLite callbacks, where the
// connection must not be used: nothing here runs a statement, except the footprints' reading of
// a table's schema, which only runs from Slate code (while a statement Slate prepares is captured).

/// The connection's side of live queries: footprints, recorded reads, changes and observers.
package final class RegionTracker {
    /// Counts landed commits while live queries observe the connection.
    package let clock = CommitClock()
    private let connection: OpaquePointer
    // The rooms are classes, held by `let`: the compiler checks exclusive access to each of their
    // stored properties on its own, statically. A struct in a `var` of this class would be one
    // property, and one access to it whose scope spans a call the compiler cannot see through
    // (SQLite) would turn every access to the whole room into a runtime check (`swift_beginAccess`,
    // about 75 instructions each, several per statement and per changed row: +3.7% in
    // `observe-write-20k`, Benchmarks/README.md).
    private let footprints: StatementFootprints
    private let reads = ReadRecorder()
    private let changes = ChangeLog()
    private let observers = ObserverRegistry()
    /// The last top-level statement that started: a trigger program of it is covered by its
    /// footprint.
    private var lastTopLevelStatement: OpaquePointer?
    /// The last statement whose footprint was used as it started, with its recompilation count
    /// then: SQLite may recompile it after the trace callback reported it (a schema change by
    /// another connection, or by this one), and reports the new program to no one.
    private var lastTraced: (statement: OpaquePointer, recompilations: Int32)?

    init(connection: OpaquePointer) {
        self.connection = connection
        self.footprints = StatementFootprints(connection: connection)
    }

    /// Whether a region is being recorded.
    package var isRecording: Bool { reads.isRecording }
    /// Whether live queries observe the connection's changes (attached observers).
    package var observesChanges: Bool { observers.observingCount > 0 }
    /// Cached statements whose footprint went stale, to prepare again at the next occasion.
    package var hasStaleStatements: Bool { footprints.hasStaleStatements }

    // MARK: - Footprints

    /// Starts collecting the authorizer's reports for a statement Slate prepares.
    package func beginCapture() {
        footprints.beginCapture()
    }

    /// Stops collecting and returns what was collected.
    package func endCapture() -> FootprintBuilder {
        footprints.endCapture()
    }

    /// Keeps the footprint of a statement Slate prepared. Runs Slate code (never from a callback):
    /// it may read the schema of the tables involved.
    package func register(_ statement: OpaquePointer, builder: FootprintBuilder) {
        for key in footprints.tablesToRead(for: builder) {
            // The reader's statements call the authorizer back: no access to the footprints may
            // be in progress meanwhile.
            footprints.suspend()
            let info = StatementFootprints.readTableInfo(key, connection: connection)
            footprints.resume()
            if let info { footprints.setTableInfo(info, for: key) }
        }
        footprints.register(statement, builder: builder)
    }

    /// Forgets a statement that is being finalized.
    package func forget(_ statement: OpaquePointer) {
        footprints.forget(statement)
        reads.forget(statement)
        changes.forget(statement)
        if lastTopLevelStatement == statement { lastTopLevelStatement = nil }
        if lastTraced?.statement == statement { lastTraced = nil }
    }

    /// Whether the tracker knows the footprint of a statement, as prepared now.
    package func knowsFootprint(of statement: OpaquePointer) -> Bool {
        footprints.knowsFootprint(of: statement)
    }

    /// The authorizer: records into the capture in progress, or into the orphan builder.
    func authorize(
        action: Int32, first: UnsafePointer<CChar>?, second: UnsafePointer<CChar>?, database: UnsafePointer<CChar>?
    ) -> Int32 {
        footprints.authorize(action: action, first: first, second: second, database: database)
    }

    /// Marks the stale statements as dealt with (the caller cleared them from its cache).
    package func didClearStaleStatements() {
        footprints.hasStaleStatements = false
    }

    // MARK: - Recording reads

    func beginRecording() -> ReadRecorder.Recording {
        reads.begin()
    }

    func endRecording(_ recording: ReadRecorder.Recording) {
        reads.end(recording)
    }

    /// Notes that the next run of `statement` reads only some rows of its table.
    func noteRowIDHint(_ hint: RowIDHint, for statement: OpaquePointer) {
        reads.noteRowIDHint(hint, for: statement)
    }

    /// Catches up with a recompilation of the last statement that started: SQLite fires the trace
    /// callback as a statement starts, then, when its schema changed, compiles it again and runs
    /// the new program without a second report. The authorizer's reports of the recompilation
    /// went to the orphan builder since: they are the statement's new footprint (with maybe more
    /// tables, never fewer). The recordings get its reads; a write in progress its writes.
    package func settleRecompiledStatement() {
        guard let (statement, recompilations) = lastTraced,
            footprints.recompilationCount(statement) != recompilations
        else { return }
        lastTraced = nil
        let footprint = footprints.rebuildRecompiled(statement)
        reads.recordRecompiled(footprint)
        if observers.observingCount > 0 { changes.writeWasRecompiled(statement, footprint: footprint) }
    }

    // MARK: - Statements starting (SQLITE_TRACE_STMT)

    /// Called as each statement starts running. `isTopLevel` is false for trigger programs and
    /// for statements run from inside another statement (an SQL function).
    func statementWillRun(_ statement: OpaquePointer, isTopLevel: Bool) {
        guard footprints.suspended == 0 else { return }
        // The fast path: the write statement that started last starts again, unchanged (a loop of
        // inserts), with nothing else to attend to. Its footprint, columns and rows hold.
        if statement == changes.currentWrite, isTopLevel, let traced = lastTraced, traced.statement == statement,
            changes.currentFootprint?.onlyWritesReportedRows == true, !reads.isRecording, changes.sealed == nil,
            footprints.orphans.isEmpty, footprints.recompilationCount(statement) == traced.recompilations
        {
            changes.statementEpoch &+= 1
            changes.attributionIsUncertain = false
            lastTopLevelStatement = statement
            return
        }
        settleRecompiledStatement()
        if changes.sealed != nil { flushIfCommitted() }
        if !isTopLevel && statement == lastTopLevelStatement {
            return  // a trigger program of the statement running: its footprint already covers it
        }
        if isTopLevel { lastTopLevelStatement = statement }
        defer { footprints.clearOrphans() }
        guard reads.isRecording || observers.observingCount > 0 else { return }
        let footprint = footprints.footprint(startingStatement: statement)
        lastTraced =
            footprint == nil || !footprints.detectsRecompilation
            ? nil : (statement, footprints.recompilationCount(statement))
        if reads.isRecording { reads.record(footprint, of: statement) { footprints.tableInfos[$0] } }
        guard observers.observingCount > 0 else { return }
        changes.statementEpoch &+= 1
        if isTopLevel { changes.attributionIsUncertain = false }
        guard let footprint else {
            unknownStatementWillRun(statement, isTopLevel: isTopLevel)
            return
        }
        if footprint.isInert { return }
        if let savepoint = footprint.savepoint { changes.apply(savepoint) }
        if footprint.writes.isEmpty && !footprint.changesSchema { return }
        changes.setCurrentWrite(statement, footprint: footprint)
        if !isTopLevel { changes.attributionIsUncertain = true }
        if footprint.changesSchema {
            footprints.schemaWillChange()
            observers.forgetTablePointers()
        }
        if footprint.changesReadableSchema { changes.markEverythingChanged() }
        for (key, columns) in footprint.unreportedWrites {
            guard let slot = observers.slot(of: key), observers.slots[slot].observerCount > 0 else { continue }
            changes.recordChange(slot: slot, columns: columns, rowID: nil)
        }
    }

    /// A statement Slate knows nothing about: a savepoint statement is recognized from its text
    /// (by the one lexer); any other statement that writes changes everything, as far as live
    /// queries can tell.
    private func unknownStatementWillRun(_ statement: OpaquePointer, isTopLevel: Bool) {
        if sqlite3_stmt_readonly(statement) != 0 {
            if let sql = sqlite3_sql(statement), let savepoint = SQLLexer.savepointOperation(in: sql) {
                changes.apply(savepoint)
            }
            return
        }
        changes.setCurrentWrite(statement, footprint: nil)
        changes.markEverythingChanged()
    }

    // MARK: - Rows changing (update hook)

    func rowChanged(operation: Int32, database: UnsafePointer<CChar>?, table: UnsafePointer<CChar>?, rowID: Int64) {
        guard observers.observingCount > 0, let database, let table else { return }
        let slot = observers.resolveSlot(database: database, table: table)
        guard slot >= 0, observers.slots[slot].observerCount > 0 else { return }
        let columns: ColumnSet
        var rowsTrusted = true
        if operation == SQLITE_UPDATE {
            (columns, rowsTrusted) = changes.updatedColumns(slot: slot, key: observers.slots[slot].key)
        } else {
            columns = .all
            if operation == SQLITE_INSERT && (changes.currentFootprint?.mayReplace ?? true) { rowsTrusted = false }
        }
        let tracksRows = rowsTrusted && observers.slots[slot].rowFilteredCount > 0
        changes.recordChange(slot: slot, columns: columns, rowID: tracksRows ? rowID : nil)
    }

    // MARK: - Commits and rollbacks

    /// The commit hook: the changes of all levels become the transaction's, sealed until the commit
    /// is known to have landed.
    func willCommit() {
        guard observers.observingCount > 0 else { return }
        changes.seal()
    }

    /// The rollback hook: the transaction's changes are gone.
    func didRollback() {
        changes.reset()
    }

    /// Delivers the sealed changes when their commit landed: when the connection is out of any
    /// transaction. When it is still in one, the commit failed (a busy database) and the
    /// changes go back to the open transaction.
    package func flushIfCommitted() {
        guard changes.sealed != nil,
            let landed = changes.takeSealed(committed: sqlite3_get_autocommit(connection) != 0)
        else { return }
        clock.advance()
        for observer in observers.observers(concernedBy: landed) { observer.onChange() }
    }

    // MARK: - Observers

    /// Starts counting commits for an observer that will register a region once its first fetch
    /// is done. Returns whether the change hooks must be installed (the first observer).
    func attach(_ observer: CommitObserver) -> Bool {
        observers.attach(observer)
    }

    /// Removes an observer. Returns whether it was the last one (the change hooks can go).
    func detach(_ observer: CommitObserver) -> Bool {
        guard let wasLast = observers.detach(observer) else { return false }
        if wasLast { changes.reset() }
        return wasLast
    }

    /// Sets the region of an attached observer, recorded by a fetch that started after `since`
    /// commits. When commits landed since then and the region changed, the observer may have
    /// missed one: it is notified at once.
    func setRegion(_ region: DatabaseRegion, for observer: CommitObserver, since: Int) {
        flushIfCommitted()
        guard observers.setRegion(region, for: observer, inTransaction: sqlite3_get_autocommit(connection) == 0)
        else { return }
        changes.updateColumnsMemo = nil
        if clock.commitCount > since { observer.onChange() }
    }
}
