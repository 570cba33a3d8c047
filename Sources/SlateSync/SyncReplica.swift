import CSQLite
import Foundation
import SlateConcurrency
import SlateCore

/// One copy of a synced database: it takes writes offline and converges with the other replicas
/// through a server's log.
///
/// ```swift
/// let queue = try DatabaseQueue(path: "app.sqlite")
/// let replica = try SyncReplica(writer: queue, configuration: SyncConfiguration(tables: [TodoList.self, Todo.self]))
/// try replica.write { db in try db.insert(Todo(title: "Buy milk")) }
/// try await replica.sync(with: HTTPSyncTransport(url: serverURL))
/// ```
///
/// **Writes.** ``write(_:)`` runs your work in a transaction and records its changes to the synced
/// tables, with a session, into the outbox, in the same transaction: a write that commits is in the
/// outbox, a write that rolls back is not, whatever crash follows. Write synced tables only through
/// it: changes made elsewhere are not sent, and make ``sync(with:)`` fail
/// (``SyncError/Kind/localChangesOutsideSync``).
///
/// **Sync.** ``sync(with:)`` pushes the outbox, then pulls the log. The server orders all replicas'
/// entries in one log; every replica applies the log in that order, under the same policy, so all
/// replicas end with the same data once they have pulled the same log. A pull runs in one
/// transaction: it takes back the replica's own pending writes, applies the new log entries, then
/// applies the pending writes again on top (they are still pending until they come back through the
/// log). A crash at any point leaves the replica as it was before the pull or after it.
///
/// **Conflicts.** The policy (``SyncConfiguration/Policy``) or a custom resolver settles them,
/// by hybrid logical clocks kept beside the rows (table `slate_sync_clock`); each overridden or
/// unresolvable change is kept in ``conflictReports(after:)``.
public final class SyncReplica: Sendable {
    public let writer: any DatabaseWriter
    public let configuration: SyncConfiguration
    /// This replica's id, kept in its database.
    public let replicaID: String
    private let schemaCache = SchemaCache()

    /// Opens the replica kept in the database `writer` writes, creating its sync tables on first
    /// use (`slate_sync_replica`, `slate_sync_outbox`, `slate_sync_clock`, `slate_sync_conflicts`).
    ///
    /// - Throws: ``SyncError`` (``SyncError/Kind/configuration``) when a synced table is missing or
    ///   has no primary key; (``SyncError/Kind/pendingChangesOfOtherVersion``) when the outbox
    ///   holds changes written on another schema version.
    public init(writer: any DatabaseWriter, configuration: SyncConfiguration) throws {
        self.writer = writer
        self.configuration = configuration
        let newID = configuration.replicaID ?? UUID().uuidString
        let schemaCache = self.schemaCache
        replicaID = try writer.write { db -> String in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS slate_sync_replica(
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        replica TEXT NOT NULL,
                        next_sequence INTEGER NOT NULL,
                        pulled_through INTEGER NOT NULL,
                        pushed_through INTEGER NOT NULL,
                        clock INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS slate_sync_outbox(
                        sequence INTEGER PRIMARY KEY,
                        clock INTEGER NOT NULL,
                        schema_version INTEGER NOT NULL,
                        changes BLOB NOT NULL,
                        effect BLOB NOT NULL);
                    CREATE TABLE IF NOT EXISTS slate_sync_clock(
                        tbl TEXT NOT NULL,
                        pk BLOB NOT NULL,
                        col TEXT NOT NULL,
                        clock INTEGER NOT NULL,
                        replica TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        deleted INTEGER NOT NULL,
                        PRIMARY KEY (tbl, pk, col)) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS slate_sync_conflicts(
                        id INTEGER PRIMARY KEY,
                        position INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        tbl TEXT NOT NULL,
                        pk BLOB NOT NULL,
                        columns TEXT NOT NULL,
                        loser_replica TEXT,
                        loser_sequence INTEGER,
                        loser_clock INTEGER,
                        winner_replica TEXT,
                        winner_sequence INTEGER,
                        winner_clock INTEGER,
                        reason TEXT NOT NULL,
                        changes BLOB);
                    """)
            try db.execute(
                """
                INSERT OR IGNORE INTO slate_sync_replica(id, replica, next_sequence, pulled_through, pushed_through, clock)
                VALUES (1, \(newID), 1, 0, 0, 0)
                """)
            let versions = try db.fetchAll(Int.self, sql: "SELECT DISTINCT schema_version FROM slate_sync_outbox")
            if versions.contains(where: { $0 != configuration.schemaVersion }) {
                throw SyncError(
                    .pendingChangesOfOtherVersion,
                    "the outbox holds changes written on schema version(s) \(versions.sorted()), and this replica is on "
                        + "version \(configuration.schemaVersion): sync with the previous version before migrating")
            }
            _ = try schemaCache.schema(db, configuration.tables)
            return try db.fetchValue(String.self, sql: "SELECT replica FROM slate_sync_replica")
        }
    }

    /// Runs `work` in a transaction and records its changes to the synced tables into the outbox,
    /// in the same transaction. Returns what `work` returns.
    ///
    /// - Throws: What `work` throws (nothing is recorded: the transaction rolls back), or the
    ///   database's error.
    @discardableResult
    public func write<Value: Sendable>(_ work: (Database) throws -> Value) throws -> Value {
        try writer.write { db in try recordWrite(db, work) }
    }

    /// ``write(_:)`` without blocking a thread.
    @discardableResult
    public func write<Value: Sendable>(_ work: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await writer.write { db in try self.recordWrite(db, work) }
    }

    /// The entries written here and not yet back from the server's log, in order.
    public func pendingEntries() throws -> [SyncEntry] {
        try writer.read { db in try outbox(db, after: 0, limit: Int.max) }
    }

    /// The conflict reports after report `id`, in order.
    public func conflictReports(after id: Int64 = 0) throws -> [SyncConflictReport] {
        try writer.read { db in try Self.conflictReports(db, after: id) }
    }

    /// The position of the last log entry this replica applied.
    public func pulledThrough() throws -> Int64 {
        try writer.read { db in try state(db).pulledThrough }
    }

    // MARK: - Recording a write

    private func recordWrite<Value>(_ db: Database, _ work: (Database) throws -> Value) throws -> Value {
        let schema = try schemaCache.schema(db, configuration.tables)
        let session = try DatabaseSession(db, tables: .named(configuration.tables))
        defer { session.close() }
        let value = try work(db)
        let recorded = try session.changeset()
        session.close()
        guard !recorded.isEmpty else { return value }
        var state = try state(db)
        let clock = HybridLogicalClock.tick(after: HybridLogicalClock(rawValue: state.clock), now: configuration.now())
        let stamp = WriteStamp(clock: clock, replicaID: state.replicaID, sequence: state.nextSequence)
        let changes =
            configuration.policy == .lastWriterWinsPerRow
            ? try Self.wholeRows(recorded, schema: schema, db: db) : recorded
        // The clocks of the rows written, recorded too: taking the write back restores them.
        let clockSession = try DatabaseSession(db, tables: .named(["slate_sync_clock"]))
        defer { clockSession.close() }
        try stampClocks(of: changes, stamp: stamp, schema: schema, db: db)
        let effect = try recorded.concatenated(with: clockSession.changeset())
        try db.execute(
            """
            INSERT INTO slate_sync_outbox(sequence, clock, schema_version, changes, effect)
            VALUES (\(stamp.sequence), \(clock.rawValue), \(configuration.schemaVersion), \(changes.data), \(effect.data))
            """)
        state.nextSequence += 1
        state.clock = clock.rawValue
        try save(state, db)
        return value
    }

    /// `recorded` with each update carrying the whole row (its other columns' values as both old
    /// and new), for the per-row policy: the row's last write is then the whole row.
    static func wholeRows(_ recorded: Changeset, schema: SyncSchema, db: Database) throws -> Changeset {
        var builder = ChangesetBuilder()
        let cursor = try ChangesetCursor(recorded)
        while try cursor.advance() {
            let header = try cursor.currentHeader()
            builder.beginOperation(
                table: header.tableName, primaryKeyPositions: header.primaryKeyPositions, kind: header.kind,
                isIndirect: header.isIndirect)
            guard header.kind == .update, let info = schema.tables[header.tableName] else {
                for column in 0..<header.columnCount where header.kind != .insert {
                    builder.appendValue(raw: try cursor.oldValue(at: column))
                }
                for column in 0..<header.columnCount where header.kind != .delete {
                    builder.appendValue(raw: try cursor.newValue(at: column))
                }
                continue
            }
            let statement = try db.cachedStatement(sql: info.selectByKey)
            defer { statement.resetQuietly() }
            _ = statement.clearBindings()
            for (index, column) in info.keyColumns.enumerated() {
                sqlite3_bind_value(statement.handle, Int32(index + 1), try cursor.oldValue(at: column))
            }
            guard try statement.step() else {
                throw DatabaseError(resultCode: .internal, message: "an updated row of '\(info.name)' is gone")
            }
            for column in info.columns.indices {
                builder.appendValue(
                    raw: try cursor.oldValue(at: column) ?? sqlite3_column_value(statement.handle, Int32(column)))
            }
            for column in info.columns.indices {
                if info.primaryKeyPositions[column] != 0 {
                    builder.appendValue(nil as SQLValue?)
                } else {
                    builder.appendValue(
                        raw: try cursor.newValue(at: column) ?? sqlite3_column_value(statement.handle, Int32(column)))
                }
            }
        }
        return builder.changeset()
    }

    /// Records `stamp` as the last write of each row (or column) `changes` writes.
    private func stampClocks(of changes: Changeset, stamp: WriteStamp, schema: SyncSchema, db: Database) throws {
        let cursor = try ChangesetCursor(changes)
        while try cursor.advance() {
            let header = try cursor.currentHeader()
            guard let info = schema.tables[header.tableName] else { continue }
            let key = SyncKey.encode(
                raw: try info.keyColumns.map {
                    header.kind == .insert ? try cursor.newValue(at: $0) : try cursor.oldValue(at: $0)
                })
            switch (header.kind, configuration.policy) {
            case (.update, .lastWriterWinsPerColumn):
                for column in info.columns.indices where try cursor.newValue(at: column) != nil {
                    try db.execute(
                        """
                        INSERT OR REPLACE INTO slate_sync_clock(tbl, pk, col, clock, replica, sequence, deleted)
                        VALUES (\(info.name), \(key), \(info.columns[column]), \(stamp.clock.rawValue), \(stamp.replicaID), \(stamp.sequence), 0)
                        """)
                }
            default:
                try db.execute("DELETE FROM slate_sync_clock WHERE tbl = \(info.name) AND pk = \(key) AND col <> ''")
                try db.execute(
                    """
                    INSERT OR REPLACE INTO slate_sync_clock(tbl, pk, col, clock, replica, sequence, deleted)
                    VALUES (\(info.name), \(key), '', \(stamp.clock.rawValue), \(stamp.replicaID), \(stamp.sequence), \(header.kind == .delete ? 1 : 0))
                    """)
            }
        }
    }

    // MARK: - State

    struct State {
        var replicaID: String
        var nextSequence: Int64
        var pulledThrough: Int64
        var pushedThrough: Int64
        var clock: Int64
    }

    func state(_ db: Database) throws -> State {
        guard
            let state = try db.fetchAll(
                "SELECT replica, next_sequence, pulled_through, pushed_through, clock FROM slate_sync_replica",
                { row in
                    State(
                        replicaID: try row.decode(at: 0), nextSequence: try row.decode(at: 1),
                        pulledThrough: try row.decode(at: 2), pushedThrough: try row.decode(at: 3),
                        clock: try row.decode(at: 4))
                }
            ).first
        else {
            throw SyncError(.configuration, "the replica's state row is missing from slate_sync_replica")
        }
        return state
    }

    func save(_ state: State, _ db: Database) throws {
        try db.execute(
            """
            UPDATE slate_sync_replica SET next_sequence = \(state.nextSequence), pulled_through = \(state.pulledThrough),
                pushed_through = \(state.pushedThrough), clock = \(state.clock)
            """)
    }

    func outbox(_ db: Database, after sequence: Int64, limit: Int) throws -> [SyncEntry] {
        try db.fetchAll(
            """
            SELECT sequence, clock, schema_version, changes FROM slate_sync_outbox WHERE sequence > \(sequence)
            ORDER BY sequence LIMIT \(Int64(clamping: limit))
            """
        ) { row in
            SyncEntry(
                replicaID: replicaID, sequence: try row.decode(at: 0), clock: try row.decode(at: 1),
                schemaVersion: try row.decode(at: 2), changes: try row.decode(at: 3))
        }
    }

    func syncSchema(_ db: Database) throws -> SyncSchema {
        try schemaCache.schema(db, configuration.tables)
    }

    private static func stamp(_ columns: (String?, Int64?, Int64?)) -> WriteStamp? {
        guard let replica = columns.0, let sequence = columns.1, let clock = columns.2 else { return nil }
        return WriteStamp(clock: HybridLogicalClock(rawValue: clock), replicaID: replica, sequence: sequence)
    }

    static func conflictReports(_ db: Database, after id: Int64) throws -> [SyncConflictReport] {
        try db.fetchAll(
            """
            SELECT id, position, kind, tbl, pk, columns, loser_replica, loser_sequence, loser_clock,
                winner_replica, winner_sequence, winner_clock, reason, changes
            FROM slate_sync_conflicts WHERE id > \(id) ORDER BY id
            """
        ) { row in
            // Read every column first: a `Row` cannot be captured by a nested function.
            let loser = (
                try row.decode(String?.self, at: 6), try row.decode(Int64?.self, at: 7),
                try row.decode(Int64?.self, at: 8)
            )
            let winner = (
                try row.decode(String?.self, at: 9), try row.decode(Int64?.self, at: 10),
                try row.decode(Int64?.self, at: 11)
            )
            let columns: String = try row.decode(at: 5)
            return SyncConflictReport(
                id: try row.decode(at: 0), position: try row.decode(at: 1),
                kind: SyncConflictReport.Kind(rawValue: try row.decode(at: 2)) ?? .unresolvable,
                tableName: try row.decode(at: 3), primaryKey: SyncKey.decode(try row.decode(at: 4)) ?? [],
                columns: columns.isEmpty ? [] : columns.split(separator: ",").map(String.init),
                loser: Self.stamp(loser), winner: Self.stamp(winner), reason: try row.decode(at: 12),
                changes: try row.decode(Data?.self, at: 13).map(Changeset.init(data:)))
        }
    }
}

/// The synced tables' description, read again only when the schema changes.
final class SchemaCache: @unchecked Sendable {
    // @unchecked Sendable: `cached` is only touched while `lock` is held.
    private let lock = NSLock()
    private var cached: SyncSchema?

    func schema(_ db: Database, _ tables: [String]) throws -> SyncSchema {
        let version = try db.fetchValue(Int64.self, sql: "PRAGMA schema_version")
        lock.lock()
        let known = cached
        lock.unlock()
        if let known, known.schemaVersion == version { return known }
        let schema = try SyncSchema.read(db, synced: tables)
        lock.lock()
        cached = schema
        lock.unlock()
        return schema
    }
}
