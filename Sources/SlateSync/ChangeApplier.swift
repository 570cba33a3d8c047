import CSQLite
import Foundation
import SlateCore

/// Applies one entry to a replica under the conflict policy: reads each operation with the row's
/// clocks and current values, decides what of it applies, writes what applies as a new changeset
/// (values copied exactly from the entry's), applies that with the session extension, checks the
/// foreign keys it touched, and records the new clocks and the conflict reports.
///
/// The decision depends only on the database's state and the entry, so every replica that applies
/// the same log in the same order makes the same decisions. An entry that cannot apply whole (a
/// constraint, a foreign key it would break) is undone whole, inside a savepoint, and kept as
/// unresolvable.
struct ChangeApplier {
    let db: Database
    let schema: SyncSchema
    let configuration: SyncConfiguration

    /// Whether the outcome is final (an entry of the log, reported) or speculative (a pending
    /// local entry re-applied on top of the log, not reported).
    enum Mode {
        case final(position: Int64)
        case speculative
    }

    /// What the row's clock table holds: the last write to the row as a whole (insert, delete, or
    /// any write under the per-row policy) and, per column, the last write to it.
    struct Clocks {
        var row: WriteStamp?
        var isDeleted = false
        var columns: [String: WriteStamp] = [:]

        /// The latest write to `column`.
        func column(_ name: String) -> WriteStamp? {
            laterStamp(columns[name], row)
        }

        /// The latest write to any part of the row.
        var latest: WriteStamp? { columns.values.reduce(row) { laterStamp($0, $1) } }
    }

    /// A report to store (final mode).
    struct Report {
        var kind: SyncConflictReport.Kind
        var table: String
        var key: Data
        var columns: [String]
        var loser: WriteStamp?
        var winner: WriteStamp?
        var reason: String
        var changes: Data?
    }

    /// A new clock for a row (and, for columns, which).
    enum ClockUpdate {
        case row(table: String, key: Data, stamp: WriteStamp, deleted: Bool, clearsColumns: Bool)
        case columns(table: String, key: Data, names: [String], stamp: WriteStamp)
    }

    /// A row to check for foreign keys once the entry is applied.
    enum ForeignKeyCheck {
        /// A row written: its parents must exist.
        case written(table: String, key: [SQLValue])
        /// A row deleted, or whose referenced columns changed: nothing may reference its old values.
        case removed(table: String, oldValues: [SQLValue?])
    }

    /// Why an entry was undone whole.
    struct Rejection: Error {
        var reason: String
    }

    /// What applying an entry gave.
    struct Outcome {
        var reports: [Report] = []
        var isRejected = false
    }

    /// Applies `entry` (whose changes are `changes`, fitting the synced tables) inside a
    /// savepoint. A rejected entry leaves nothing but, in final mode, its unresolvable report.
    func apply(_ entry: SyncEntry, changes: Data, mode: Mode) throws -> Outcome {
        let stamp = WriteStamp(
            clock: HybridLogicalClock(rawValue: entry.clock), replicaID: entry.replicaID, sequence: entry.sequence)
        var outcome = Outcome()
        do {
            try db.savepoint("slate_sync_entry") {
                var plan = Plan(stamp: stamp)
                try decide(changes, into: &plan)
                try run(plan)
                outcome.reports = plan.reports
            }
        } catch let rejection as Rejection {
            outcome.isRejected = true
            outcome.reports = [
                Report(
                    kind: .unresolvable, table: "", key: Data(), columns: [], loser: stamp, winner: nil,
                    reason: rejection.reason, changes: changes)
            ]
        }
        if case .final(let position) = mode {
            for report in outcome.reports { try store(report, position: position) }
        }
        return outcome
    }

    /// Everything decided about an entry before anything is written.
    struct Plan {
        let stamp: WriteStamp
        var builder = ChangesetBuilder()
        var clockUpdates: [ClockUpdate] = []
        var foreignKeyChecks: [ForeignKeyCheck] = []
        var reports: [Report] = []
    }

    // MARK: Running the plan

    private func run(_ plan: Plan) throws {
        if !plan.builder.isEmpty {
            var failure: String?
            do {
                try db.apply(
                    plan.builder.changeset(), options: ChangesetApplyOptions(usesSavepoint: false, checksTables: false)
                ) { conflict in
                    switch conflict.kind {
                    // The decision is made: the row changed since the write saw it, or exists.
                    case .data, .conflict: return .replace
                    case .notFound, .constraint, .foreignKey:
                        failure = "\(conflict.kind) conflict on \(conflict.operation?.description ?? "the entry")"
                        return .abort
                    }
                }
            } catch let error as DatabaseError {
                throw Rejection(reason: failure ?? error.message)
            }
        }
        for check in plan.foreignKeyChecks {
            if let violation = try foreignKeyViolation(check) { throw Rejection(reason: violation) }
        }
        for update in plan.clockUpdates { try write(update) }
    }

    private func write(_ update: ClockUpdate) throws {
        switch update {
        case .row(let table, let key, let stamp, let deleted, let clearsColumns):
            if clearsColumns {
                try db.execute("DELETE FROM slate_sync_clock WHERE tbl = \(table) AND pk = \(key) AND col <> ''")
            }
            try db.execute(
                """
                INSERT OR REPLACE INTO slate_sync_clock(tbl, pk, col, clock, replica, sequence, deleted)
                VALUES (\(table), \(key), '', \(stamp.clock.rawValue), \(stamp.replicaID), \(stamp.sequence), \(deleted ? 1 : 0))
                """)
        case .columns(let table, let key, let names, let stamp):
            for name in names {
                try db.execute(
                    """
                    INSERT OR REPLACE INTO slate_sync_clock(tbl, pk, col, clock, replica, sequence, deleted)
                    VALUES (\(table), \(key), \(name), \(stamp.clock.rawValue), \(stamp.replicaID), \(stamp.sequence), 0)
                    """)
            }
        }
    }

    private func store(_ report: Report, position: Int64) throws {
        try db.execute(
            """
            INSERT INTO slate_sync_conflicts(
                position, kind, tbl, pk, columns, loser_replica, loser_sequence, loser_clock,
                winner_replica, winner_sequence, winner_clock, reason, changes)
            VALUES (
                \(position), \(report.kind.rawValue), \(report.table), \(report.key),
                \(report.columns.joined(separator: ",")), \(report.loser?.replicaID), \(report.loser?.sequence),
                \(report.loser?.clock.rawValue), \(report.winner?.replicaID), \(report.winner?.sequence),
                \(report.winner?.clock.rawValue), \(report.reason), \(report.changes))
            """)
    }

    /// A description of the violation `check` finds, or `nil`.
    private func foreignKeyViolation(_ check: ForeignKeyCheck) throws -> String? {
        switch check {
        case .written(let table, let key):
            guard let info = schema.tables[table], !info.foreignKeys.isEmpty else { return nil }
            for foreignKey in info.foreignKeys {
                let select =
                    "SELECT " + foreignKey.childColumns.map(\.quotedIdentifier).joined(separator: ", ") + " FROM "
                    + table.quotedIdentifier + " WHERE "
                    + info.keyColumns.enumerated().map { "\(info.columns[$1].quotedIdentifier) = ?\($0 + 1)" }
                    .joined(separator: " AND ")
                guard
                    let values = try db.fetchAll(
                        SQL(sql: select, arguments: StatementArguments(key.map { $0 })), { $0.values }
                    )
                    .first
                else { continue }
                if values.contains(where: \.isNull) { continue }
                if try !exists(foreignKey.parent, columns: foreignKey.parentColumns, values: values) {
                    return
                        "a row of '\(table.prefix(80))' references a missing row of '\(foreignKey.parent.prefix(80))'"
                }
            }
            return nil
        case .removed(let table, let oldValues):
            guard let info = schema.tables[table] else { return nil }
            for foreignKey in info.referencedBy {
                let values = foreignKey.parentColumns.map { name in
                    info.columns.firstIndex(of: name).flatMap { oldValues[$0] } ?? .null
                }
                if values.contains(where: \.isNull) { continue }
                if try exists(foreignKey.child, columns: foreignKey.childColumns, values: values) {
                    return
                        "a row of '\(foreignKey.child.prefix(80))' still references a removed row of '\(table.prefix(80))'"
                }
            }
            return nil
        }
    }

    private func exists(_ table: String, columns: [String], values: [SQLValue]) throws -> Bool {
        let sql =
            "SELECT 1 FROM " + table.quotedIdentifier + " WHERE "
            + columns.enumerated().map { "\($1.quotedIdentifier) = ?\($0 + 1)" }.joined(separator: " AND ") + " LIMIT 1"
        return try db.fetchOne(Int.self, SQL(sql: sql, arguments: StatementArguments(values.map { $0 }))) != nil
    }

    // MARK: Reading the row

    /// The row's clocks.
    func clocks(table: String, key: Data) throws -> Clocks {
        var clocks = Clocks()
        let rows = try db.fetchAll(
            "SELECT col, clock, replica, sequence, deleted FROM slate_sync_clock WHERE tbl = \(table) AND pk = \(key)"
        ) { row in
            (
                try row.decode(String.self, at: 0),
                WriteStamp(
                    clock: HybridLogicalClock(rawValue: try row.decode(at: 1)), replicaID: try row.decode(at: 2),
                    sequence: try row.decode(at: 3)),
                try row.decode(Bool.self, at: 4)
            )
        }
        for (column, stamp, deleted) in rows {
            if column.isEmpty {
                clocks.row = stamp
                clocks.isDeleted = deleted
            } else {
                clocks.columns[column] = stamp
            }
        }
        return clocks
    }

    /// Runs `body` with the statement positioned on the row of `table` whose key is `key` (raw
    /// values, bound exactly), or with `nil` when there is no such row.
    func withRow<Result>(
        _ info: SyncTableInfo, key: [OpaquePointer?], _ body: (Statement?) throws -> Result
    ) throws -> Result {
        let statement = try db.cachedStatement(sql: info.selectByKey)
        defer { statement.resetQuietly() }
        _ = statement.clearBindings()
        for (index, value) in key.enumerated() {
            let code = sqlite3_bind_value(statement.handle, Int32(index + 1), value)
            if code != SQLITE_OK {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "binding a key")
            }
        }
        return try body(try statement.step() ? statement : nil)
    }
}

/// The later of two optional stamps, `nil` being the earliest.
func laterStamp(_ a: WriteStamp?, _ b: WriteStamp?) -> WriteStamp? {
    guard let a else { return b }
    guard let b else { return a }
    return Swift.max(a, b)
}
