import CSQLite

/// Observers registered on a connection, and the SQLite callbacks that dispatch to them.
///
/// SQLite's C callbacks receive the registry as an unretained context pointer: the registry lives
/// as long as its `Database`, and ``uninstallAll()`` detaches every callback before the
/// connection can outlive it as a zombie.
final class HookRegistry {
    enum Kind: Sendable {
        case commit, rollback, update, authorizer
    }

    enum Observer {
        case commit(() -> CommitDecision)
        case rollback(() -> Void)
        case update((DatabaseChange) -> Void)
        case authorizer((AuthorizationRequest) -> AuthorizationDecision)
    }

    struct Entries<Body> {
        private(set) var items: [(id: Int, body: Body)] = []
        var isEmpty: Bool { items.isEmpty }
        var bodies: [Body] { items.map(\.body) }
        func contains(id: Int) -> Bool { items.contains { $0.id == id } }
        mutating func append(id: Int, _ body: Body) { items.append((id, body)) }
        mutating func remove(id: Int) { items.removeAll { $0.id == id } }
        mutating func removeAll() { items.removeAll() }
    }

    /// The connection, once a callback was asked for; `nil` again after the connection closed.
    private(set) var connection: OpaquePointer?
    /// Set when the connection closed: nothing can be installed any more.
    private var isDetached = false
    private var nextID = 0
    private var commitObservers = Entries<() -> CommitDecision>()
    private var rollbackObservers = Entries<() -> Void>()
    private var updateObservers = Entries<(DatabaseChange) -> Void>()
    private var authorizers = Entries<(AuthorizationRequest) -> AuthorizationDecision>()
    /// The custom busy handler, when one is installed (see `Database+Busy.swift`).
    var busyHandler: ((Int) -> Bool)?
    /// The progress handler, when one is installed (see `Database+Progress.swift`).
    var progressHandler: (() -> Bool)?
    /// The live-query machinery (see `Observation/RegionTracker.swift`), called before the
    /// observers: it needs the authorizer for as long as it exists, and the commit, rollback and
    /// update hooks while live queries observe the connection.
    private(set) var tracker: RegionTracker?
    private var trackerObservesChanges = false
    /// The kinds whose SQLite callback is installed.
    private var installedKinds: Set<Kind> = []

    /// The context pointer handed to SQLite's callbacks.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The registry behind a callback's context pointer.
    static func from(_ context: UnsafeMutableRawPointer?) -> HookRegistry? {
        guard let context else { return nil }
        return Unmanaged<HookRegistry>.fromOpaque(context).takeUnretainedValue()
    }

    /// Returns the connection to install a callback on, or `nil` when the connection is closed.
    func attach(_ handle: OpaquePointer) -> OpaquePointer? {
        guard !isDetached else { return nil }
        connection = handle
        return handle
    }

    func add(_ observer: Observer, connection handle: OpaquePointer) -> HookObservation {
        guard attach(handle) != nil else {
            return HookObservation(registry: nil, kind: observer.kind, id: -1)
        }
        nextID += 1
        let id = nextID
        let wasEmpty = !needsCallback(observer.kind)
        switch observer {
        case .commit(let body): commitObservers.append(id: id, body)
        case .rollback(let body): rollbackObservers.append(id: id, body)
        case .update(let body): updateObservers.append(id: id, body)
        case .authorizer(let body): authorizers.append(id: id, body)
        }
        // Installing the authorizer again makes SQLite recompile prepared statements, so they
        // follow the new set of authorizers.
        if wasEmpty || observer.kind == .authorizer { setCallback(observer.kind, installed: true) }
        return HookObservation(registry: self, kind: observer.kind, id: id)
    }

    func remove(id: Int, kind: Kind) {
        guard !isDetached, contains(id: id, kind: kind) else { return }
        switch kind {
        case .commit: commitObservers.remove(id: id)
        case .rollback: rollbackObservers.remove(id: id)
        case .update: updateObservers.remove(id: id)
        case .authorizer: authorizers.remove(id: id)
        }
        if kind == .authorizer {
            // Recompile prepared statements without this authorizer: one it made ignore a
            // column would otherwise keep reading NULL.
            setCallback(.authorizer, installed: true)
        }
        if !needsCallback(kind) { setCallback(kind, installed: false) }
    }

    /// Hands the callbacks to a live-query tracker: the authorizer at once (which makes SQLite
    /// recompile the connection's prepared statements), the change hooks once
    /// ``setTrackerObservesChanges(_:)`` asks for them.
    func install(_ tracker: RegionTracker, connection handle: OpaquePointer) {
        guard attach(handle) != nil else { return }
        self.tracker = tracker
        setCallback(.authorizer, installed: true)
    }

    /// Installs or removes the tracker's commit, rollback and update hooks (observers installed
    /// through the public API keep theirs).
    func setTrackerObservesChanges(_ observes: Bool) {
        guard !isDetached, tracker != nil, observes != trackerObservesChanges else { return }
        trackerObservesChanges = observes
        for kind in [Kind.commit, .rollback, .update] {
            let needed = needsCallback(kind)
            if needed != installedKinds.contains(kind) { setCallback(kind, installed: needed) }
        }
    }

    func contains(id: Int, kind: Kind) -> Bool {
        switch kind {
        case .commit: commitObservers.contains(id: id)
        case .rollback: rollbackObservers.contains(id: id)
        case .update: updateObservers.contains(id: id)
        case .authorizer: authorizers.contains(id: id)
        }
    }

    /// Whether the SQLite callback of `kind` has someone to call.
    private func needsCallback(_ kind: Kind) -> Bool {
        switch kind {
        case .commit: !commitObservers.isEmpty || trackerObservesChanges
        case .rollback: !rollbackObservers.isEmpty || trackerObservesChanges
        case .update: !updateObservers.isEmpty || trackerObservesChanges
        case .authorizer: !authorizers.isEmpty || tracker != nil
        }
    }

    /// Uninstalls every SQLite callback that points at this registry. Call it while the
    /// connection is still open, before `sqlite3_close_v2` may leave it alive as a zombie.
    func uninstallAll() {
        guard let connection else { return }
        for kind in [Kind.commit, .rollback, .update, .authorizer] where installedKinds.contains(kind) {
            setCallback(kind, installed: false)
        }
        if busyHandler != nil { sqlite3_busy_handler(connection, nil, nil) }
        if progressHandler != nil { sqlite3_progress_handler(connection, 0, nil, nil) }
        forgetEverything()
    }

    /// Forgets every observer and the connection, which has closed. Does not call SQLite: the
    /// handle may already be freed.
    func removeAll() {
        forgetEverything()
    }

    private func forgetEverything() {
        commitObservers.removeAll()
        rollbackObservers.removeAll()
        updateObservers.removeAll()
        authorizers.removeAll()
        busyHandler = nil
        progressHandler = nil
        tracker = nil
        trackerObservesChanges = false
        installedKinds = []
        connection = nil
        isDetached = true
    }

    // MARK: C callbacks

    // The callbacks are closures without captures, so they convert to C function pointers; they
    // find the registry through the context pointer.

    private func setCallback(_ kind: Kind, installed: Bool) {
        guard let connection else { return }
        if installed { installedKinds.insert(kind) } else { installedKinds.remove(kind) }
        let context = installed ? self.context : nil
        switch kind {
        case .commit:
            if installed {
                sqlite3_commit_hook(
                    connection,
                    { context in
                        HookRegistry.from(context)?.dispatchCommit() ?? 0
                    }, context)
            } else {
                sqlite3_commit_hook(connection, nil, nil)
            }
        case .rollback:
            if installed {
                sqlite3_rollback_hook(
                    connection,
                    { context in
                        HookRegistry.from(context)?.dispatchRollback()
                    }, context)
            } else {
                sqlite3_rollback_hook(connection, nil, nil)
            }
        case .update:
            if installed {
                sqlite3_update_hook(
                    connection,
                    { context, operation, database, table, rowID in
                        HookRegistry.from(context)?.dispatchUpdate(
                            operation: operation, database: database, table: table, rowID: rowID)
                    }, context)
            } else {
                sqlite3_update_hook(connection, nil, nil)
            }
        case .authorizer:
            if installed {
                sqlite3_set_authorizer(
                    connection,
                    { context, action, first, second, database, trigger in
                        HookRegistry.from(context)?.dispatchAuthorizer(
                            action: action, first: first, second: second, database: database, trigger: trigger)
                            ?? SQLITE_OK
                    }, context)
            } else {
                sqlite3_set_authorizer(connection, nil, nil)
            }
        }
    }

    // Dispatchers iterate over a copy of the observers, so an observer may cancel itself or
    // others while it runs.

    private func dispatchCommit() -> Int32 {
        tracker?.willCommit()
        guard !commitObservers.isEmpty else { return 0 }
        var vetoed = false
        for observer in commitObservers.bodies {
            if observer() == .veto { vetoed = true }
        }
        return vetoed ? 1 : 0
    }

    private func dispatchRollback() {
        tracker?.didRollback()
        guard !rollbackObservers.isEmpty else { return }
        for observer in rollbackObservers.bodies { observer() }
    }

    private func dispatchUpdate(
        operation: Int32,
        database: UnsafePointer<CChar>?,
        table: UnsafePointer<CChar>?,
        rowID: Int64
    ) {
        // The tracker first, on the raw pointers: it runs for every row and must stay cheap.
        tracker?.rowChanged(operation: operation, database: database, table: table, rowID: rowID)
        guard !updateObservers.isEmpty else { return }
        let observers = updateObservers.bodies
        let kind: DatabaseChange.Kind
        switch operation {
        case SQLITE_INSERT: kind = .insert
        case SQLITE_DELETE: kind = .delete
        default: kind = .update
        }
        let change = DatabaseChange(
            kind: kind,
            databaseName: database.map { String(cString: $0) } ?? "main",
            tableName: table.map { String(cString: $0) } ?? "",
            rowID: rowID)
        for observer in observers { observer(change) }
    }

    private func dispatchAuthorizer(
        action: Int32,
        first: UnsafePointer<CChar>?,
        second: UnsafePointer<CChar>?,
        database: UnsafePointer<CChar>?,
        trigger: UnsafePointer<CChar>?
    ) -> Int32 {
        let trackerCode =
            tracker?.authorize(action: action, first: first, second: second, database: database) ?? SQLITE_OK
        guard !authorizers.isEmpty else { return trackerCode }
        let observers = authorizers.bodies
        let request = AuthorizationRequest(
            action: AuthorizerAction(rawValue: action),
            firstParameter: first.map { String(cString: $0) },
            secondParameter: second.map { String(cString: $0) },
            databaseName: database.map { String(cString: $0) },
            triggerOrViewName: trigger.map { String(cString: $0) })
        // The tracker's SQLITE_IGNORE (for deletions) counts as an answer like the others.
        var decision = trackerCode == SQLITE_IGNORE ? AuthorizationDecision.ignore : .allow
        for observer in observers {
            switch observer(request) {
            case .deny: decision = .deny
            case .ignore where decision == .allow: decision = .ignore
            case .ignore, .allow: break
            }
        }
        switch decision {
        case .allow: return SQLITE_OK
        case .deny: return SQLITE_DENY
        case .ignore: return SQLITE_IGNORE
        }
    }
}

extension HookRegistry.Observer {
    var kind: HookRegistry.Kind {
        switch self {
        case .commit: .commit
        case .rollback: .rollback
        case .update: .update
        case .authorizer: .authorizer
        }
    }
}
