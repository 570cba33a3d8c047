import Foundation
import SlateConcurrency
import SlateCore

/// What one ``SyncReplica/sync(with:)`` did.
public struct SyncSummary: Sendable, Hashable {
    /// Entries of this replica the server holds that it did not before.
    public var pushed = 0
    /// Log entries applied.
    public var applied = 0
    /// The conflict reports the applied entries made, in order.
    public var conflicts: [SyncConflictReport] = []
    /// The position of the last log entry applied.
    public var pulledThrough: Int64 = 0
}

extension SyncReplica {
    /// Pushes the outbox, then pulls and applies the log until the replica has all of it.
    ///
    /// Safe to repeat and to interrupt: a lost or repeated message, or a crash, leaves nothing half
    /// done; the next sync carries on.
    ///
    /// - Throws: The transport's error (try again later); ``SyncError`` for a log entry the replica
    ///   refuses (a newer schema version: entries before it are applied).
    @discardableResult
    public func sync(with transport: some SyncTransport) async throws -> SyncSummary {
        var summary = SyncSummary()
        summary.pushed = try await push(to: transport)
        let pulled = try await pull(from: transport)
        summary.applied = pulled.applied
        summary.conflicts = pulled.conflicts
        summary.pulledThrough = pulled.pulledThrough
        return summary
    }

    /// Sends the outbox's entries the server does not hold yet; returns how many it newly took.
    @discardableResult
    public func push(to transport: some SyncTransport) async throws -> Int {
        var taken = 0
        var stalls = 0
        while true {
            let (entries, pushedThrough) = try await writer.read { db in
                let state = try self.state(db)
                return (
                    try self.outbox(db, after: state.pushedThrough, limit: self.configuration.pushBatchSize),
                    state.pushedThrough
                )
            }
            guard !entries.isEmpty else { return taken }
            let response = try await transport.push(SyncPushRequest(replicaID: replicaID, entries: entries))
            let acknowledged = response.acknowledgedThrough
            try await writer.write { db in
                var state = try self.state(db)
                // The server may hold fewer than was thought (its answer to an earlier push was
                // lost after a gap): send again from where it stands.
                state.pushedThrough = acknowledged
                try self.save(state, db)
            }
            if acknowledged > pushedThrough {
                taken += Int(acknowledged - pushedThrough)
                stalls = 0
            } else {
                stalls += 1
                if stalls >= 3 {
                    throw SyncError(
                        .transport,
                        "the server holds this replica's entries up to \(acknowledged) and takes none after it")
                }
            }
        }
    }

    /// Pulls the log entries the replica has not applied, and applies them, until it has the whole
    /// log.
    public func pull(from transport: some SyncTransport) async throws -> SyncSummary {
        var summary = SyncSummary()
        var stalls = 0
        while true {
            let after = try await writer.read { db in try self.state(db).pulledThrough }
            let response = try await transport.pull(SyncPullRequest(after: after, limit: configuration.pullBatchSize))
            let result = try await writer.writeWithoutTransaction { db in try self.apply(response.entries, db) }
            summary.applied += result.applied
            summary.conflicts += result.conflicts
            summary.pulledThrough = result.pulledThrough
            if let refusal = result.refusal { throw refusal }
            if result.pulledThrough >= response.latestPosition { return summary }
            if result.applied == 0 {
                // A gap: the entry after the last one applied was lost on the way. Ask again.
                stalls += 1
                if stalls >= 5 {
                    throw SyncError(
                        .transport, "the log entry after position \(result.pulledThrough) did not arrive in 5 pulls")
                }
            } else {
                stalls = 0
            }
        }
    }

    /// What applying a pulled batch did.
    struct PullResult: Sendable {
        var applied = 0
        var conflicts: [SyncConflictReport] = []
        var pulledThrough: Int64 = 0
        /// Why the replica stopped before the end of the batch (a newer schema version).
        var refusal: SyncError?
    }

    /// Applies the entries of `batch` that follow the last one applied, in one transaction, with
    /// foreign keys checked by the applier rather than enforced (and acted on) by SQLite.
    func apply(_ batch: [SyncLogEntry], _ db: Database) throws -> PullResult {
        let foreignKeys = try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys")
        if foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        return try db.restoring({ if foreignKeys { try db.execute(sql: "PRAGMA foreign_keys = ON") } }) {
            try db.transaction(.immediate) { try applyInTransaction(batch, db) }
        }
    }

    private func applyInTransaction(_ batch: [SyncLogEntry], _ db: Database) throws -> PullResult {
        var state = try state(db)
        var result = PullResult(pulledThrough: state.pulledThrough)
        // The entries that follow, without duplicates, up to the first gap.
        var next: [SyncLogEntry] = []
        for logEntry in batch.sorted(by: { $0.position < $1.position }) {
            let expected = state.pulledThrough + Int64(next.count) + 1
            if logEntry.position < expected { continue }
            if logEntry.position > expected { break }
            next.append(logEntry)
        }
        guard !next.isEmpty else { return result }
        let schema = try syncSchema(db)
        let lastReport = try db.fetchValue(Int64.self, sql: "SELECT coalesce(max(id), 0) FROM slate_sync_conflicts")
        let pending = try outboxEffects(db)
        try takeBack(pending, db)
        let applier = ChangeApplier(db: db, schema: schema, configuration: configuration)
        for logEntry in next {
            let entry = logEntry.entry
            guard let changes = try changesToApply(entry, schema: schema, db: db, refusal: &result.refusal) else {
                break
            }
            _ = try applier.apply(entry, changes: changes, mode: .final(position: logEntry.position))
            if entry.replicaID == replicaID {
                try db.execute("DELETE FROM slate_sync_outbox WHERE sequence <= \(entry.sequence)")
            }
            state.clock = max(state.clock, entry.clock)
            state.pulledThrough = logEntry.position
            result.applied += 1
        }
        // The writes still pending, again, on top of the log.
        let stillPending = pending.filter { pendingEntry in
            !next.prefix(result.applied).contains {
                $0.entry.replicaID == replicaID && $0.entry.sequence >= pendingEntry.sequence
            }
        }
        try redo(stillPending, applier: applier, db)
        try save(state, db)
        result.pulledThrough = state.pulledThrough
        result.conflicts = try Self.conflictReports(db, after: lastReport)
        return result
    }

    /// The changes of `entry` to apply, or `nil` (with `refusal` set) when the replica cannot apply
    /// it: written on a newer schema version, or an older one whose tables no longer fit.
    private func changesToApply(
        _ entry: SyncEntry, schema: SyncSchema, db: Database, refusal: inout SyncError?
    ) throws -> Data? {
        let name = "log entry \(entry.replicaID.prefix(64))#\(entry.sequence)"
        if entry.schemaVersion > configuration.schemaVersion {
            refusal = SyncError(
                .schemaTooNew,
                "\(name) was written on schema version \(entry.schemaVersion); this replica is on version "
                    + "\(configuration.schemaVersion) and cannot apply it: update the application")
            return nil
        }
        guard let mismatch = schema.mismatch(of: entry.changes) else { return entry.changes }
        if entry.schemaVersion < configuration.schemaVersion, let upgrade = configuration.upgrade {
            let upgraded = try upgrade(entry, db)
            if let problem = schema.mismatch(of: upgraded) {
                throw SyncError(.schemaIncompatible, "\(name), upgraded, still does not fit: \(problem)")
            }
            return upgraded
        }
        refusal = SyncError(
            entry.schemaVersion < configuration.schemaVersion ? .schemaIncompatible : .configuration,
            "\(name) (schema version \(entry.schemaVersion)) does not fit this replica (version "
                + "\(configuration.schemaVersion)): \(mismatch)")
        return nil
    }

    /// A pending entry and what it did to the database.
    struct PendingEffect {
        var sequence: Int64
        var clock: Int64
        var changes: Data
        var effect: Data
    }

    private func outboxEffects(_ db: Database) throws -> [PendingEffect] {
        try db.fetchAll("SELECT sequence, clock, changes, effect FROM slate_sync_outbox ORDER BY sequence") { row in
            PendingEffect(
                sequence: try row.decode(at: 0), clock: try row.decode(at: 1), changes: try row.decode(at: 2),
                effect: try row.decode(at: 3))
        }
    }

    /// Undoes the pending writes' effects, the last first: the database is then the log's.
    private func takeBack(_ pending: [PendingEffect], _ db: Database) throws {
        for entry in pending.reversed() where !entry.effect.isEmpty {
            do {
                try db.apply(
                    Changeset(data: entry.effect), options: ChangesetApplyOptions(usesSavepoint: false, inverts: true)
                ) { conflict in
                    throw SyncError(
                        .localChangesOutsideSync,
                        "taking back pending write #\(entry.sequence) met a \(conflict): the synced tables changed "
                            + "outside SyncReplica.write")
                }
            } catch let error as DatabaseError where error.resultCode == .schema {
                throw SyncError(
                    .localChangesOutsideSync, "taking back pending write #\(entry.sequence): \(error.message)")
            }
        }
    }

    /// Applies the pending writes again, in order, recording what each did.
    private func redo(_ pending: [PendingEffect], applier: ChangeApplier, _ db: Database) throws {
        for entry in pending {
            let session = try DatabaseSession(db, tables: .named(configuration.tables + ["slate_sync_clock"]))
            defer { session.close() }
            _ = try applier.apply(
                SyncEntry(
                    replicaID: replicaID, sequence: entry.sequence, clock: entry.clock,
                    schemaVersion: configuration.schemaVersion, changes: entry.changes),
                changes: entry.changes, mode: .speculative)
            try db.execute(
                "UPDATE slate_sync_outbox SET effect = \(try session.changeset().data) WHERE sequence = \(entry.sequence)"
            )
        }
    }
}
