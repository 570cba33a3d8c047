import Foundation
import SlateCore

// What replicas and the server exchange: entries (one local write transaction each) and the
// requests and answers of the two calls, push and pull. Plain Codable values, so that any transport
// can carry them; the HTTP transport sends them as JSON (the changeset bytes in base64).

/// One local write transaction of one replica: its changeset, and what identifies and orders it.
public struct SyncEntry: Codable, Sendable, Hashable {
    /// The replica that wrote it.
    public var replicaID: String
    /// Its number among the replica's entries: 1, 2, 3… without gaps. With ``replicaID``, it
    /// identifies the entry: the server keeps one copy whatever the number of times it is sent.
    public var sequence: Int64
    /// The hybrid logical clock of the transaction (``HybridLogicalClock``), which orders
    /// concurrent writes for the conflict policy.
    public var clock: Int64
    /// The schema version of the replica that wrote it.
    public var schemaVersion: Int
    /// The changes, as a changeset of the synced tables.
    public var changes: Data

    public init(replicaID: String, sequence: Int64, clock: Int64, schemaVersion: Int, changes: Data) {
        self.replicaID = replicaID
        self.sequence = sequence
        self.clock = clock
        self.schemaVersion = schemaVersion
        self.changes = changes
    }
}

/// An entry in the server's log, at its position: 1, 2, 3… without gaps, the order in which every
/// replica applies the entries.
public struct SyncLogEntry: Codable, Sendable, Hashable {
    /// The entry's position in the log.
    public var position: Int64
    /// The entry.
    public var entry: SyncEntry

    public init(position: Int64, entry: SyncEntry) {
        self.position = position
        self.entry = entry
    }
}

/// A replica's entries, sent to the server in sequence order.
public struct SyncPushRequest: Codable, Sendable, Hashable {
    public var replicaID: String
    public var entries: [SyncEntry]

    public init(replicaID: String, entries: [SyncEntry]) {
        self.replicaID = replicaID
        self.entries = entries
    }
}

/// The server's answer to a push.
public struct SyncPushResponse: Codable, Sendable, Hashable {
    /// The server holds every entry of the replica up to this sequence number (0: none). Entries
    /// after it were not taken (a gap before them): the replica sends them again, from the next
    /// number.
    public var acknowledgedThrough: Int64

    public init(acknowledgedThrough: Int64) {
        self.acknowledgedThrough = acknowledgedThrough
    }
}

/// A request for the log entries after a position.
public struct SyncPullRequest: Codable, Sendable, Hashable {
    /// The position of the last entry the replica applied (0: none).
    public var after: Int64
    /// The most entries to return.
    public var limit: Int

    public init(after: Int64, limit: Int = 256) {
        self.after = after
        self.limit = limit
    }
}

/// The server's answer to a pull.
public struct SyncPullResponse: Codable, Sendable, Hashable {
    /// The entries after the requested position, in order.
    public var entries: [SyncLogEntry]
    /// The position of the log's last entry: when it is beyond the last entry returned, there is
    /// more to pull.
    public var latestPosition: Int64

    public init(entries: [SyncLogEntry], latestPosition: Int64) {
        self.entries = entries
        self.latestPosition = latestPosition
    }
}

/// How a replica reaches a server: an in-memory one for tests (``InMemorySyncTransport``), HTTP
/// (``HTTPSyncTransport``), or your own.
///
/// A transport may lose, repeat or delay any call: the protocol survives it (entries are
/// identified, so a repeated push changes nothing; log positions are dense, so a lost entry is a
/// gap the replica notices and asks for again). A call that fails throws; the replica tries again
/// at its next sync.
public protocol SyncTransport: Sendable {
    /// Sends entries to the server.
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
    /// Fetches log entries from the server.
    func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse
}

/// What goes wrong in sync beyond the database's own errors.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of sync errors.
    public enum Kind: Sendable, Hashable {
        /// A log entry was written by a replica on a newer schema version: update this replica
        /// (its application and migrations) before it can apply it. Nothing after the entry is
        /// applied until then.
        case schemaTooNew
        /// A log entry was written on an older schema version and does not fit this one (a table
        /// is missing or has other columns), and no upgrade was configured for it.
        case schemaIncompatible
        /// The replica's outbox holds changes written on another schema version: sync them before
        /// migrating.
        case pendingChangesOfOtherVersion
        /// The server refused a request (malformed entries, a replica that is not the sender, a
        /// schema version it no longer accepts).
        case refused
        /// The synced tables changed outside ``SyncReplica/write(_:)``, so the replica's pending
        /// changes no longer undo cleanly.
        case localChangesOutsideSync
        /// A transport failed (a lost message, an HTTP error).
        case transport
        /// The configuration is not usable (a table without a primary key, an unknown table).
        case configuration
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "sync error (\(kind)): \(message)" }
}
