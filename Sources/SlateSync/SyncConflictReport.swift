import Foundation
import SlateCore

/// A conflict sync settled, kept in the replica's `slate_sync_conflicts` table: every write the
/// policy overrode, every change that could not be applied, every row a custom resolver merged.
///
/// Reports come from applying the server's log, in its order, so every replica keeps the same
/// reports, each naming the log position whose entry met the conflict.
public struct SyncConflictReport: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// ``loser``'s write to the row (or to ``columns``) lost to ``winner``'s, which did not see
        /// it, by the policy or a resolver's answer.
        case overridden
        /// ``loser``'s write could not be applied (a foreign key it would break, a constraint, an
        /// update of a deleted row, a resolver's answer): it is kept in ``changes``, not applied.
        case unresolvable
        /// A custom resolver merged ``loser``'s and ``winner``'s rows.
        case resolved
    }

    /// The report's number, in the order the reports were made.
    public var id: Int64
    /// The log position of the entry whose application made the report.
    public var position: Int64
    public var kind: Kind
    /// The table, or empty when a whole entry could not be applied.
    public var tableName: String
    /// The row's primary key, in column order (empty for a whole entry).
    public var primaryKey: [SQLValue]
    /// The columns concerned; empty for the whole row.
    public var columns: [String]
    /// The write that lost, or that could not be applied; `nil` for a row written before sync
    /// started keeping clocks.
    public var loser: WriteStamp?
    /// The write that won, when there is one.
    public var winner: WriteStamp?
    public var reason: String
    /// For an unresolvable report, the changes kept: a changeset you can inspect or apply later.
    public var changes: Changeset?

    public var description: String {
        let row =
            tableName.isEmpty ? "entry" : "\(tableName)[\(primaryKey.map(\.debugDescription).joined(separator: ", "))]"
        let scope = columns.isEmpty ? "" : " (\(columns.joined(separator: ", ")))"
        let parties = "\(loser.map(\.description) ?? "an earlier write")" + (winner.map { " vs \($0)" } ?? "")
        return "#\(id) at \(position): \(kind) \(row)\(scope): \(parties): \(reason)"
    }
}
