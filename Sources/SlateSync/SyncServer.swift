import Foundation
import SlateConcurrency
import SlateCore

/// The server side of sync: an ordered log of entries, in an SQLite database, that takes pushes and
/// serves "entries after position N".
///
/// ```swift
/// let server = try SyncServer(writer: try DatabaseQueue(path: "log.sqlite"))
/// let transport = InMemorySyncTransport(server: server)   // or mount SyncHTTPHandler(server:)
/// ```
///
/// The server never applies the changes: it orders them. Each push runs in one transaction: an
/// entry is in the log, once, with its position, or not at all. Entries are checked before they are
/// taken (a well-formed changeset, from the replica that sends it), so a malformed push is refused
/// and never reaches a replica.
public final class SyncServer: Sendable {
    /// Limits and rules of the server.
    public struct Configuration: Sendable {
        /// The schema versions whose entries the server takes; `nil` takes any. Raise the lower
        /// bound once every replica is past a version, to refuse stragglers' entries with a clear
        /// error rather than let newer replicas stop on them.
        public var acceptedSchemaVersions: ClosedRange<Int>?
        /// The largest changeset an entry may carry, in bytes.
        public var maximumEntrySize = 16 << 20
        /// The most entries one pull returns.
        public var maximumPullCount = 1000

        public init() {}
    }

    public let writer: any DatabaseWriter
    public let configuration: Configuration

    /// A server keeping its log in the database `writer` writes (tables `slate_sync_log` and
    /// `slate_sync_replicas`, created when missing). The log may share a database with other
    /// tables (an application's own), or have one of its own.
    public init(writer: any DatabaseWriter, configuration: Configuration = Configuration()) throws {
        self.writer = writer
        self.configuration = configuration
        try writer.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS slate_sync_log(
                        position INTEGER PRIMARY KEY,
                        replica TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        clock INTEGER NOT NULL,
                        schema_version INTEGER NOT NULL,
                        changes BLOB NOT NULL,
                        UNIQUE (replica, sequence));
                    CREATE TABLE IF NOT EXISTS slate_sync_replicas(
                        replica TEXT PRIMARY KEY,
                        last_sequence INTEGER NOT NULL) WITHOUT ROWID;
                    """)
        }
    }

    /// Takes a replica's entries, in order: each entry whose sequence number follows the last one
    /// held joins the log; one already held is ignored (a repeated push) if it is the same; one
    /// after a gap stops the push, and the answer says which number to send next.
    ///
    /// - Throws: ``SyncError`` (``SyncError/Kind/refused``) for an entry of another replica, of a
    ///   schema version not accepted, too large, or not a well-formed changeset, and for an entry
    ///   the server holds with other changes (two replicas sharing an id); nothing of the push is
    ///   taken then.
    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        for entry in request.entries { try check(entry, from: request.replicaID) }
        let last = try await writer.write { db -> Int64 in
            var last =
                try db.fetchOne(
                    Int64.self, "SELECT last_sequence FROM slate_sync_replicas WHERE replica = \(request.replicaID)")
                ?? 0
            var position = try db.fetchValue(Int64.self, sql: "SELECT coalesce(max(position), 0) FROM slate_sync_log")
            for entry in request.entries.sorted(by: { $0.sequence < $1.sequence }) {
                if entry.sequence <= last {
                    // A repeat: the same bytes, or two replicas that share an id (a copied file),
                    // whose writes must not be taken for repeats of each other's.
                    let held = try db.fetchOne(
                        Data.self,
                        "SELECT changes FROM slate_sync_log WHERE replica = \(entry.replicaID) AND sequence = \(entry.sequence)"
                    )
                    if let held, held != entry.changes {
                        throw SyncError(
                            .refused,
                            "entry \(entry.replicaID.prefix(64))#\(entry.sequence) differs from the one the server holds: "
                                + "two replicas share this id (a copied database file?)")
                    }
                    continue
                }
                if entry.sequence != last + 1 { break }
                position += 1
                try db.execute(
                    """
                    INSERT INTO slate_sync_log(position, replica, sequence, clock, schema_version, changes)
                    VALUES (\(position), \(entry.replicaID), \(entry.sequence), \(entry.clock), \(entry.schemaVersion), \(entry.changes))
                    """)
                last = entry.sequence
            }
            try db.execute(
                """
                INSERT INTO slate_sync_replicas(replica, last_sequence) VALUES (\(request.replicaID), \(last))
                ON CONFLICT (replica) DO UPDATE SET last_sequence = excluded.last_sequence
                """)
            return last
        }
        return SyncPushResponse(acknowledgedThrough: last)
    }

    /// The log entries after `request.after`, in order, at most `request.limit` (and
    /// ``Configuration/maximumPullCount``).
    public func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        let limit = max(1, min(request.limit, configuration.maximumPullCount))
        return try await writer.read { db in
            let entries = try db.fetchAll(
                """
                SELECT position, replica, sequence, clock, schema_version, changes FROM slate_sync_log
                WHERE position > \(request.after) ORDER BY position LIMIT \(limit)
                """
            ) { row in
                SyncLogEntry(
                    position: try row.decode(at: 0),
                    entry: SyncEntry(
                        replicaID: try row.decode(at: 1), sequence: try row.decode(at: 2), clock: try row.decode(at: 3),
                        schemaVersion: try row.decode(at: 4), changes: try row.decode(at: 5)))
            }
            let latest = try db.fetchValue(Int64.self, sql: "SELECT coalesce(max(position), 0) FROM slate_sync_log")
            return SyncPullResponse(entries: entries, latestPosition: latest)
        }
    }

    private func check(_ entry: SyncEntry, from replicaID: String) throws {
        let name = "entry \(entry.replicaID.prefix(64))#\(entry.sequence)"
        guard entry.replicaID == replicaID, !replicaID.isEmpty, replicaID.utf8.count <= 200 else {
            throw SyncError(.refused, "\(name) does not come from the replica that pushes it")
        }
        guard entry.sequence > 0 else { throw SyncError(.refused, "\(name) has a sequence number below 1") }
        if let accepted = configuration.acceptedSchemaVersions, !accepted.contains(entry.schemaVersion) {
            throw SyncError(
                .refused,
                "\(name) was written on schema version \(entry.schemaVersion); the server takes versions "
                    + "\(accepted.lowerBound)...\(accepted.upperBound): update the application")
        }
        guard entry.changes.count <= configuration.maximumEntrySize, !entry.changes.isEmpty else {
            throw SyncError(.refused, "\(name) has \(entry.changes.count) bytes of changes")
        }
        do {
            try ChangesetScanner.validate(entry.changes) { header in
                if header.isPatchset { throw SyncError(.refused, "\(name) holds a patchset, not a changeset") }
            }
        } catch let error as DatabaseError {
            throw SyncError(.refused, "\(name) is not a well-formed changeset: \(error.message)")
        }
    }
}
