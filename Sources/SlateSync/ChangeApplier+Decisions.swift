import CSQLite
import Foundation
import SlateCore

// The conflict policy, operation by operation: what of an incoming write applies, given the row's
// clocks and its current values. See SyncConfiguration.Policy for the rules in words.

extension ChangeApplier {
    /// One incoming operation, with the row it meets.
    struct Meeting {
        let info: SyncTableInfo
        let kind: ChangesetOperation.Kind
        let key: Data
        let keyValues: [SQLValue]
        let clocks: Clocks
        /// The row's current values by column, `nil` when there is no such row.
        let current: [SQLValue]?
        /// The incoming old and new values by column (`nil`: not carried).
        let old: [SQLValue?]
        let new: [SQLValue?]
        /// Raw accessors, valid while the meeting is decided.
        let cursor: ChangesetCursor
        let row: Statement?

        var exists: Bool { current != nil }
        var nonKeyColumns: [Int] { info.primaryKeyPositions.indices.filter { info.primaryKeyPositions[$0] == 0 } }

        /// The row as the incoming write leaves it, by column (`nil` for a delete).
        var incomingRow: [SQLValue]? {
            guard kind != .delete else { return nil }
            return info.columns.indices.map { index in new[index] ?? old[index] ?? current?[index] ?? .null }
        }

        /// Whether the incoming write's old values (those it carries) differ from the row's: the
        /// row changed after the write saw it.
        var rowChangedSinceSeen: Bool {
            guard let current else { return false }
            return info.columns.indices.contains { index in old[index].map { $0 != current[index] } ?? false }
        }
    }

    func decide(_ changes: Data, into plan: inout Plan) throws {
        let cursor = try ChangesetCursor(Changeset(data: changes))
        while try cursor.advance() {
            let header = try cursor.currentHeader()
            guard let info = schema.tables[header.tableName] else {
                throw Rejection(reason: "table '\(header.tableName.prefix(80))' is not synced here")
            }
            let keyRaw = try info.keyColumns.map { column in
                header.kind == .insert ? try cursor.newValue(at: column) : try cursor.oldValue(at: column)
            }
            let key = SyncKey.encode(raw: keyRaw)
            let keyValues = keyRaw.map { $0.map(FunctionArguments.readValue) ?? .null }
            let old = try (0..<header.columnCount).map { header.kind == .insert ? nil : try cursor.oldValue(at: $0) }
                .map { $0.map(FunctionArguments.readValue) }
            let new = try (0..<header.columnCount).map { header.kind == .delete ? nil : try cursor.newValue(at: $0) }
                .map { $0.map(FunctionArguments.readValue) }
            let clocks = try clocks(table: info.name, key: key)
            try withRow(info, key: keyRaw) { row in
                let current = row.map { statement in
                    info.columns.indices.map {
                        FunctionArguments.readValue(sqlite3_column_value(statement.handle, Int32($0)))
                    }
                }
                let meeting = Meeting(
                    info: info, kind: header.kind, key: key, keyValues: keyValues, clocks: clocks, current: current,
                    old: old, new: new, cursor: cursor, row: row)
                switch configuration.policy {
                case .lastWriterWinsPerRow: try decidePerRow(meeting, &plan)
                case .lastWriterWinsPerColumn: try decidePerColumn(meeting, &plan)
                }
            }
        }
    }

    // MARK: Per row

    private func decidePerRow(_ meeting: Meeting, _ plan: inout Plan) throws {
        let stamp = plan.stamp
        let isConflict: Bool
        switch meeting.kind {
        case .insert: isConflict = meeting.exists
        case .update: isConflict = !meeting.exists || meeting.rowChangedSinceSeen
        case .delete: isConflict = meeting.exists && meeting.rowChangedSinceSeen
        }
        let wins = meeting.clocks.row.map { $0 < stamp } ?? true
        if !wins && meeting.kind == .delete && !meeting.exists { return }  // gone already, by a later delete
        if isConflict || !wins, let resolver = configuration.resolvers[meeting.info.name] {
            try resolve(meeting, with: resolver, &plan)
            return
        }
        guard wins else {
            plan.reports.append(report(.overridden, meeting, loser: stamp, winner: meeting.clocks.row, "a later write"))
            return
        }
        if isConflict, meeting.exists || meeting.clocks.isDeleted {
            plan.reports.append(
                report(
                    .overridden, meeting, loser: meeting.clocks.latest, winner: stamp, "a later write it did not see"))
        }
        try applyWhole(meeting, stamp: stamp, &plan)
    }

    /// Writes the incoming operation as the row's new state: an upsert of its image, or a delete.
    private func applyWhole(_ meeting: Meeting, stamp: WriteStamp, _ plan: inout Plan) throws {
        let info = meeting.info
        switch meeting.kind {
        case .insert, .update:
            if meeting.exists {
                // An update of every other column, whatever the row holds now (a data conflict is
                // answered with replace).
                try emitUpdate(meeting, columns: meeting.nonKeyColumns, &plan) { column in
                    try rawOld(meeting, column)
                } new: { column in
                    try rawImage(meeting, column)
                }
            } else {
                plan.builder.beginOperation(
                    table: info.name, primaryKeyPositions: info.primaryKeyPositions, kind: .insert, isIndirect: false)
                for column in info.columns.indices {
                    switch try rawImage(meeting, column) {
                    case .raw(let value): plan.builder.appendValue(raw: value)
                    case .value(let value): plan.builder.appendValue(value)
                    }
                }
            }
            plan.clockUpdates.append(
                .row(table: info.name, key: meeting.key, stamp: stamp, deleted: false, clearsColumns: true))
            plan.foreignKeyChecks.append(.written(table: info.name, key: meeting.keyValues))
            // Another table may reference columns of this one that the write changes (a UNIQUE
            // column, not the key, which an update never changes).
            if let removed = changedValues(meeting, to: meeting.incomingRow) {
                plan.foreignKeyChecks.append(.removed(table: info.name, oldValues: removed))
            }
        case .delete:
            if let current = meeting.current {
                plan.builder.beginOperation(
                    table: info.name, primaryKeyPositions: info.primaryKeyPositions, kind: .delete, isIndirect: false)
                for column in info.columns.indices {
                    // The row as it is, so that the delete meets no data conflict.
                    plan.builder.appendValue(raw: meeting.row.map { sqlite3_column_value($0.handle, Int32(column)) })
                }
                plan.foreignKeyChecks.append(.removed(table: info.name, oldValues: current))
            }
            plan.clockUpdates.append(
                .row(table: info.name, key: meeting.key, stamp: stamp, deleted: true, clearsColumns: true))
        }
    }

    /// A value to stand as the old value of `column` in an update the plan answers with replace:
    /// the incoming old value, else the new one, else the row's.
    private func rawOld(_ meeting: Meeting, _ column: Int) throws -> Value {
        if meeting.kind != .insert, let value = try meeting.cursor.oldValue(at: column) { return .raw(value) }
        return try rawImage(meeting, column)
    }

    /// The incoming image's value of `column`: the new value, else the old one, else the row's.
    private func rawImage(_ meeting: Meeting, _ column: Int) throws -> Value {
        if meeting.kind != .delete, let value = try meeting.cursor.newValue(at: column) { return .raw(value) }
        if meeting.kind != .insert, let value = try meeting.cursor.oldValue(at: column) { return .raw(value) }
        if let row = meeting.row { return .raw(sqlite3_column_value(row.handle, Int32(column))) }
        throw Rejection(
            reason: "an update of a missing row of '\(meeting.info.name.prefix(80))' lacks column \(column)")
    }

    // MARK: Per column

    private func decidePerColumn(_ meeting: Meeting, _ plan: inout Plan) throws {
        let stamp = plan.stamp
        let info = meeting.info
        let clocks = meeting.clocks
        guard meeting.exists else {
            let deletedLater = clocks.isDeleted && (clocks.row.map { $0 > stamp } ?? false)
            switch meeting.kind {
            case .delete:
                if clocks.row.map({ $0 < stamp }) ?? true {
                    plan.clockUpdates.append(
                        .row(table: info.name, key: meeting.key, stamp: stamp, deleted: true, clearsColumns: true))
                }
            case .insert where !deletedLater:
                try applyWhole(meeting, stamp: stamp, &plan)
            case .insert, .update:
                if deletedLater {
                    plan.reports.append(
                        report(.overridden, meeting, loser: stamp, winner: clocks.row, "a later delete"))
                } else if let resolver = configuration.resolvers[info.name] {
                    try resolve(meeting, with: resolver, &plan)
                } else {
                    plan.reports.append(
                        report(
                            .unresolvable, meeting, loser: stamp, winner: clocks.row,
                            "an update of a row deleted by a write it did not see", changes: try copyOperation(meeting))
                    )
                }
            }
            return
        }
        if meeting.kind == .delete {
            let latestWrite = clocks.latest
            if let latestWrite, latestWrite > stamp {
                if let resolver = configuration.resolvers[info.name] {
                    return try resolve(meeting, with: resolver, &plan)
                }
                plan.reports.append(report(.overridden, meeting, loser: stamp, winner: latestWrite, "a later write"))
                return
            }
            // Each column the delete did not see as it is: its last writer loses.
            let unseen = meeting.nonKeyColumns.filter { column in
                meeting.old[column].map { $0 != meeting.current?[column] } ?? false
            }
            for (loser, columns) in Dictionary(grouping: unseen, by: { clocks.column(info.columns[$0]) }) {
                plan.reports.append(
                    report(
                        .overridden, meeting, loser: loser, winner: stamp, "a later delete it did not see",
                        columns: columns))
            }
            try applyWhole(meeting, stamp: stamp, &plan)
            return
        }
        // An insert over an existing row, or an update: column by column.
        let written = meeting.nonKeyColumns.filter { meeting.new[$0] != nil }
        let taken = written.filter { clocks.column(info.columns[$0]).map { $0 < stamp } ?? true }
        let lost = written.filter { !taken.contains($0) }
        let seenValue: (Int) -> SQLValue? = { column in meeting.kind == .insert ? nil : meeting.old[column] }
        let overwrittenUnseen = taken.filter { column in
            guard let current = meeting.current?[column] else { return false }
            return seenValue(column).map { $0 != current } ?? (current != meeting.new[column])
        }
        if !lost.isEmpty || !overwrittenUnseen.isEmpty, let resolver = configuration.resolvers[info.name] {
            return try resolve(meeting, with: resolver, &plan)
        }
        for (winner, columns) in Dictionary(grouping: lost, by: { clocks.column(info.columns[$0]) }) {
            plan.reports.append(
                report(.overridden, meeting, loser: stamp, winner: winner, "a later write", columns: columns))
        }
        for (loser, columns) in Dictionary(grouping: overwrittenUnseen, by: { clocks.column(info.columns[$0]) }) {
            plan.reports.append(
                report(
                    .overridden, meeting, loser: loser, winner: stamp, "a later write it did not see", columns: columns)
            )
        }
        guard !taken.isEmpty else { return }
        try emitUpdate(meeting, columns: taken, &plan) { column in
            try rawOld(meeting, column)
        } new: { column in
            .raw(try meeting.cursor.newValue(at: column))
        }
        plan.clockUpdates.append(
            .columns(table: info.name, key: meeting.key, names: taken.map { info.columns[$0] }, stamp: stamp))
        plan.foreignKeyChecks.append(.written(table: info.name, key: meeting.keyValues))
        let after = meeting.current.map { current in
            current.indices.map { taken.contains($0) ? (meeting.new[$0] ?? current[$0]) : current[$0] }
        }
        if let removed = changedValues(meeting, to: after) {
            plan.foreignKeyChecks.append(.removed(table: info.name, oldValues: removed))
        }
    }

    /// When another table references columns of this row that the write changes (a `UNIQUE`
    /// column; an update never changes the key), the row's old values of those columns (`NULL`
    /// elsewhere, which the check skips); else `nil`.
    private func changedValues(_ meeting: Meeting, to after: [SQLValue]?) -> [SQLValue?]? {
        guard let current = meeting.current, let after, !meeting.info.referencedBy.isEmpty else { return nil }
        let changed = current.indices.filter { current[$0] != after[$0] }
        let referenced = Set(meeting.info.referencedBy.flatMap(\.parentColumns))
        guard changed.contains(where: { referenced.contains(meeting.info.columns[$0]) }) else { return nil }
        return current.indices.map { changed.contains($0) ? current[$0] : .null }
    }

    // MARK: Custom resolvers

    private func resolve(_ meeting: Meeting, with resolver: SyncResolver, _ plan: inout Plan) throws {
        let stamp = plan.stamp
        let input = SyncResolver.Input(
            columns: meeting.info.columns, local: meeting.current, incoming: meeting.incomingRow,
            localStamp: meeting.clocks.latest, incomingStamp: stamp)
        let newest = laterStamp(meeting.clocks.latest, stamp) ?? stamp
        switch try resolver.resolve(input, db) {
        case .keepLocal:
            plan.reports.append(
                report(
                    .overridden, meeting, loser: stamp, winner: meeting.clocks.latest, "the resolver kept the local row"
                ))
        case .takeIncoming:
            plan.reports.append(
                report(
                    .overridden, meeting, loser: meeting.clocks.latest, winner: stamp,
                    "the resolver took the incoming row"))
            try applyWhole(meeting, stamp: newest, &plan)
        case .unresolvable(let reason):
            plan.reports.append(
                report(
                    .unresolvable, meeting, loser: stamp, winner: meeting.clocks.latest, reason,
                    changes: try copyOperation(meeting)))
        case .merged(let values):
            let info = meeting.info
            guard values.count == info.columns.count, info.keyColumns.map({ values[$0] }) == meeting.keyValues else {
                throw Rejection(reason: "the resolver of '\(info.name.prefix(80))' changed the row's primary key")
            }
            plan.reports.append(
                report(.resolved, meeting, loser: meeting.clocks.latest, winner: stamp, "the resolver merged the rows"))
            if meeting.exists {
                try emitUpdate(meeting, columns: meeting.nonKeyColumns, &plan) { column in
                    .value(values[column])
                } new: { column in
                    .value(values[column])
                }
            } else {
                plan.builder.beginOperation(
                    table: info.name, primaryKeyPositions: info.primaryKeyPositions, kind: .insert, isIndirect: false)
                for value in values { plan.builder.appendValue(value) }
            }
            plan.clockUpdates.append(
                .row(table: info.name, key: meeting.key, stamp: newest, deleted: false, clearsColumns: true))
            plan.foreignKeyChecks.append(.written(table: info.name, key: meeting.keyValues))
        }
    }

    // MARK: Writing operations

    /// A value to write: copied exactly from SQLite, or from Swift.
    enum Value {
        case raw(OpaquePointer?)
        case value(SQLValue?)
    }

    /// Appends an update of `columns` (non-key) of the meeting's row; the old values only need to
    /// be present (a data conflict is answered with replace).
    private func emitUpdate(
        _ meeting: Meeting, columns: [Int], _ plan: inout Plan, old: (Int) throws -> Value, new: (Int) throws -> Value
    ) throws {
        let info = meeting.info
        guard !columns.isEmpty else { return }  // a table of key columns only: nothing to update
        plan.builder.beginOperation(
            table: info.name, primaryKeyPositions: info.primaryKeyPositions, kind: .update, isIndirect: false)
        let keyRaw = try info.keyColumns.map { column in
            meeting.kind == .insert ? try meeting.cursor.newValue(at: column) : try meeting.cursor.oldValue(at: column)
        }
        var keyIndex = 0
        for column in info.columns.indices {
            if info.primaryKeyPositions[column] != 0 {
                plan.builder.appendValue(raw: keyRaw[keyIndex])
                keyIndex += 1
            } else if columns.contains(column) {
                append(try old(column), to: &plan.builder)
            } else {
                plan.builder.appendValue(nil as SQLValue?)
            }
        }
        for column in info.columns.indices {
            if info.primaryKeyPositions[column] == 0, columns.contains(column) {
                append(try new(column), to: &plan.builder)
            } else {
                plan.builder.appendValue(nil as SQLValue?)
            }
        }
    }

    private func append(_ value: Value, to builder: inout ChangesetBuilder) {
        switch value {
        case .raw(let raw): builder.appendValue(raw: raw)
        case .value(let value): builder.appendValue(value ?? .null)
        }
    }

    /// The incoming operation alone, as a changeset (kept with an unresolvable report).
    private func copyOperation(_ meeting: Meeting) throws -> Data {
        var builder = ChangesetBuilder()
        let info = meeting.info
        builder.beginOperation(
            table: info.name, primaryKeyPositions: info.primaryKeyPositions, kind: meeting.kind, isIndirect: false)
        if meeting.kind != .insert {
            for column in info.columns.indices { builder.appendValue(raw: try meeting.cursor.oldValue(at: column)) }
        }
        if meeting.kind != .delete {
            for column in info.columns.indices { builder.appendValue(raw: try meeting.cursor.newValue(at: column)) }
        }
        return builder.changeset().data
    }

    private func report(
        _ kind: SyncConflictReport.Kind, _ meeting: Meeting, loser: WriteStamp?, winner: WriteStamp?, _ reason: String,
        columns: [Int] = [], changes: Data? = nil
    ) -> Report {
        Report(
            kind: kind, table: meeting.info.name, key: meeting.key,
            columns: columns.sorted().map { meeting.info.columns[$0] },
            loser: loser, winner: winner, reason: reason, changes: changes)
    }
}
