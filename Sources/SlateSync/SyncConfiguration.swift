import Foundation
import SlateCore
import SlateQuery

/// What a ``SyncReplica`` syncs and how it settles conflicts.
public struct SyncConfiguration: Sendable {
    /// How concurrent writes to the same row are settled. Every replica of a database must use the
    /// same policy.
    public enum Policy: Sendable, Hashable {
        /// Last writer wins, per row: each write carries the whole row, and of two concurrent writes
        /// to a row, the one with the later clock is the row; the other is reported as
        /// overridden. A delete is a write too (its clock stays with the row, so that an older
        /// update does not bring the row back).
        case lastWriterWinsPerRow
        /// Last writer wins, per column: each column of a row keeps the value of its latest write,
        /// so concurrent writes to different columns of a row both stay. A delete wins over the
        /// writes older than it; an update newer than a delete it did not see cannot bring back the
        /// row (it carries only the columns it changed): it is kept and reported as unresolvable.
        case lastWriterWinsPerColumn
    }

    /// The synced tables, by name. Each needs a primary key. Every replica syncs the same tables.
    public var tables: [String]
    /// The schema version of this replica's tables (your migrations' count, say). Entries written
    /// on a newer version stop the replica until it is updated; older ones apply when their tables
    /// still fit, or go through ``upgrade``.
    public var schemaVersion: Int
    public var policy: Policy
    /// Custom resolvers, by table name (see ``resolve(_:with:)``).
    public var resolvers: [String: SyncResolver] = [:]
    /// Rewrites the changes of an entry written on an older schema version whose tables no longer
    /// fit (a column added, say), given the entry and the database; `nil` refuses such entries
    /// (``SyncError/Kind/schemaIncompatible``). It must give the same result on every replica.
    public var upgrade: (@Sendable (SyncEntry, Database) throws -> Data)?
    /// The wall clock, in milliseconds since 1970, for the hybrid logical clock. Tests inject a
    /// deterministic one.
    public var now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) }
    /// The id of a new replica (the first open of its database); a random UUID when `nil`. An
    /// existing replica keeps the id it was created with.
    public var replicaID: String?
    /// How many log entries one pull asks for.
    public var pullBatchSize = 256
    /// How many outbox entries one push sends.
    public var pushBatchSize = 256

    public init(tables: [String], schemaVersion: Int = 1, policy: Policy = .lastWriterWinsPerRow) {
        self.tables = tables
        self.schemaVersion = schemaVersion
        self.policy = policy
    }

    /// A configuration for typed tables: `@Table` types, generated ones, Codable records.
    public init(tables: [any Table.Type], schemaVersion: Int = 1, policy: Policy = .lastWriterWinsPerRow) {
        self.init(tables: tables.map { $0.tableName }, schemaVersion: schemaVersion, policy: policy)
    }

    /// Settles conflicts on `Record`'s table with `resolver` instead of the policy.
    ///
    /// The resolver sees the row as this replica has it and as the incoming write would leave it,
    /// as records, and answers: keep the local row, take the incoming one, a merged record, or
    /// unresolvable (kept and reported). It runs on every replica for the same conflict, in the
    /// same order: it must decide from its arguments alone (no clock, no randomness, no other
    /// state), or replicas diverge.
    public mutating func resolve<Record: Table>(
        _ type: Record.Type, with resolver: @escaping @Sendable (SyncConflict<Record>) throws -> SyncResolution<Record>
    ) {
        resolvers[Record.tableName] = SyncResolver(type, resolver)
    }
}

/// A conflict handed to a custom resolver: two writes to one row, where the incoming one did not see
/// the local one.
public struct SyncConflict<Record: Table>: Sendable {
    /// The row as this replica has it; `nil` when it is deleted (or never existed).
    public var local: Record?
    /// The row as the incoming write would leave it; `nil` for a delete.
    public var incoming: Record?
    /// The last write to the local row, when known.
    public var localStamp: WriteStamp?
    /// The incoming write.
    public var incomingStamp: WriteStamp
}

/// A custom resolver's answer.
public enum SyncResolution<Record: Table>: Sendable {
    /// The local row stays; the incoming write is reported as overridden.
    case keepLocal
    /// The incoming write applies; the local row's last write is reported as overridden.
    case takeIncoming
    /// This record is the row (reported as resolved). Its key must be the row's.
    case merged(Record)
    /// Neither: the incoming write is kept in the conflict reports, not applied.
    case unresolvable(reason: String)
}

/// A type-erased resolver, for ``SyncConfiguration/resolvers``.
public struct SyncResolver: Sendable {
    /// The row, or the incoming one, by column of the table.
    struct Input {
        var columns: [String]
        var local: [SQLValue]?
        var incoming: [SQLValue]?
        var localStamp: WriteStamp?
        var incomingStamp: WriteStamp
    }

    enum Output {
        case keepLocal
        case takeIncoming
        /// Values by column of the table.
        case merged([SQLValue])
        case unresolvable(String)
    }

    let resolve: @Sendable (Input, Database) throws -> Output

    init<Record: Table>(
        _ type: Record.Type, _ resolver: @escaping @Sendable (SyncConflict<Record>) throws -> SyncResolution<Record>
    ) {
        resolve = { input, db in
            let names = Record.schema.recordColumns.map(\.name)
            func record(_ values: [SQLValue]?) throws -> Record? {
                guard let values else { return nil }
                // The record's columns, by name, from the table's: decoded by the record's own rules.
                let arguments: [SQLValue] = names.map { name in
                    input.columns.firstIndex(of: name).map { values[$0] } ?? .null
                }
                // Named like the table's columns: records decode by position or by name.
                let placeholders = names.indices.map { "?\($0 + 1) AS \(names[$0].quotedIdentifier)" }
                    .joined(separator: ", ")
                return try db.fetchOne(
                    Record.self, SQL(sql: "SELECT \(placeholders)", arguments: StatementArguments(arguments)))
            }
            let conflict = SyncConflict<Record>(
                local: try record(input.local), incoming: try record(input.incoming), localStamp: input.localStamp,
                incomingStamp: input.incomingStamp)
            switch try resolver(conflict) {
            case .keepLocal: return .keepLocal
            case .takeIncoming: return .takeIncoming
            case .unresolvable(let reason): return .unresolvable(reason)
            case .merged(let merged):
                var collector = ArgumentCollector()
                merged.encode(to: &collector)
                let placeholders = collector.values.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
                let encoded =
                    try db.fetchAll(SQL(sql: "SELECT \(placeholders)", arguments: StatementArguments(collector.values)))
                {
                    row in row.values
                }.first ?? []
                // Columns the record does not have keep the incoming (or local) value.
                let base = input.incoming ?? input.local ?? []
                return .merged(
                    input.columns.indices.map { index in
                        names.firstIndex(of: input.columns[index]).map { encoded[$0] } ?? base[index]
                    })
            }
        }
    }
}
