// The connection's side of live queries: recording what a read depends on, and telling observers
// about the commits that change it. The scheduling (which connection refetches, when, and where
// values are delivered) lives in SlateConcurrency; see `DatabaseObservation`.

extension Database {
    /// Runs `body` and returns its result with the region it read: the tables, the columns of
    /// each, and for a read the query builder filtered on an `INTEGER PRIMARY KEY`, its rows.
    ///
    /// ```swift
    /// let (names, region) = try db.trackingRegion {
    ///     try db.fetchAll(String.self, "SELECT name FROM player WHERE score > \(10)")
    /// }
    /// print(region)   // main.player(name, score)
    /// ```
    ///
    /// Live queries record regions this way; call it yourself to see what a read depends on. A
    /// statement Slate cannot analyze (prepared through the C handle before `body` started) makes
    /// the region ``DatabaseRegion/fullDatabase``.
    ///
    /// The first call on a connection installs SQLite's authorizer and trace callbacks for the
    /// connection's lifetime (and prepares its cached statements again), so that each statement's
    /// footprint is known when it runs.
    public func trackingRegion<Value>(_ body: () throws -> Value) rethrows -> (value: Value, region: DatabaseRegion) {
        guard let tracker = makeRegionTrackerIfNeeded() else { return (try body(), .fullDatabase) }
        let recorder = tracker.beginRecording()
        defer {
            tracker.endRecording(recorder)
            refreshStaleStatements(tracker)
        }
        let value = try body()
        tracker.settleRecompiledStatement()
        return (value, recorder.region)
    }

    /// The tracker, made and installed on first use; `nil` once the connection is closed.
    package func makeRegionTrackerIfNeeded() -> RegionTracker? {
        if let regionTracker { return regionTracker }
        guard !isClosed else { return nil }
        let tracker = RegionTracker(connection: handle)
        regionTracker = tracker
        // Statements prepared until now have no footprint: prepare them again when next used.
        clearStatementCache()
        controlStatements.removeAll()
        hooks.install(tracker, connection: handle)
        tracing.tracker = tracker
        updateTraceCallback()
        return tracker
    }

    /// Notes that the statement about to run reads only the rows `hint` names, when a region is
    /// being recorded.
    @usableFromInline
    package func noteRowIDHint(_ hint: RowIDHint, for statement: Statement) {
        guard let regionTracker, regionTracker.isRecording else { return }
        regionTracker.noteRowIDHint(hint, for: statement.handle)
    }

    /// Whether ``trackingRegion(_:)`` is recording (for the query layer's row hints).
    package var isRecordingRegion: Bool { regionTracker?.isRecording ?? false }

    // MARK: Observing commits

    /// Starts counting this connection's commits for a live query that is about to fetch its first
    /// value; its region follows with ``setObservedRegion(_:for:since:)``. Returns the clock that
    /// counts the commits (readable from any thread), or `nil` when the connection is closed.
    package func attachCommitObserver(_ observer: CommitObserver) -> CommitClock? {
        guard let tracker = makeRegionTrackerIfNeeded() else { return nil }
        if tracker.attach(observer) { hooks.setTrackerObservesChanges(true) }
        return tracker.clock
    }

    /// Sets the region an attached observer depends on, recorded by a fetch whose snapshot began
    /// after `since` commits (read from the clock before the fetch started). The observer is
    /// called after each commit that changes the region, on this connection's thread; at once
    /// when commits landed since `since` (which it may have missed).
    package func setObservedRegion(_ region: DatabaseRegion, for observer: CommitObserver, since: Int) {
        regionTracker?.setRegion(region, for: observer, since: since)
    }

    /// Stops calling an observer. The change hooks go with the last one.
    package func detachCommitObserver(_ observer: CommitObserver) {
        guard let regionTracker else { return }
        if regionTracker.detach(observer) { hooks.setTrackerObservesChanges(false) }
    }

    /// Tells observers about a commit that landed since the last statement, and prepares again the
    /// cached statements whose footprint went stale. Queues and pools call it when a piece of work
    /// ends; the transaction engine after each commit.
    package func flushObservations() {
        guard let regionTracker else { return }
        flushObservations(regionTracker)
    }

    func flushObservations(_ tracker: RegionTracker) {
        tracker.flushIfCommitted()
        refreshStaleStatements(tracker)
    }

    private func refreshStaleStatements(_ tracker: RegionTracker) {
        guard tracker.hasStaleStatements else { return }
        clearStatementCache()
        tracker.didClearStaleStatements()
    }
}
