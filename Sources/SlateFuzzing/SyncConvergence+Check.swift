import Foundation
import Slate
import SlateSync

/// Random write transactions over the convergence schema: inserts, updates and deletes (with their
/// cascades), on rows the replica has.
enum RandomWrites {
    static func transaction(_ db: Database, replica: Int, counter: inout Int, _ entropy: inout Entropy) throws {
        for _ in 0..<entropy.int(1...5) {
            counter += 1
            let id = "\(replica)-\(counter)"
            switch entropy.int(0...99) {
            case 0..<15:
                try db.execute(
                    "INSERT INTO project VALUES (\("p" + id), \(word(&entropy)), \(entropy.int(0...10_000)))")
            case 15..<40:
                guard let project = try pick(db, "project", &entropy) else { continue }
                try db.execute(
                    "INSERT INTO task VALUES (\("t" + id), \(project), \(word(&entropy)), \(entropy.int(1...13)), 0)")
            case 40..<50:
                let icon: Data? = entropy.bool() ? Data(entropy.bytes(entropy.int(0...8))) : nil
                try db.execute("INSERT INTO tag VALUES (\("g" + id), \(word(&entropy)), \(icon))")
            case 50..<65:
                guard let task = try pick(db, "task", &entropy), let tag = try pick(db, "tag", &entropy) else {
                    continue
                }
                let weight: Double? = entropy.bool() ? Double(entropy.int(0...100)) / 8 : nil
                try db.execute("INSERT OR IGNORE INTO task_tag VALUES (\(task), \(tag), \(weight))")
            case 65..<90:
                try update(db, &entropy)
            default:
                let table = entropy.pick(["project", "task", "tag", "task_tag"])
                if table == "task_tag" {
                    guard let task = try pick(db, "task", &entropy) else { continue }
                    try db.execute("DELETE FROM task_tag WHERE task = \(task)")
                } else if let id = try pick(db, table, &entropy) {
                    try db.execute(SQL(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id]))
                }
            }
        }
    }

    private static func update(_ db: Database, _ entropy: inout Entropy) throws {
        switch entropy.int(0...3) {
        case 0:
            guard let id = try pick(db, "project", &entropy) else { return }
            if entropy.bool() { try db.execute("UPDATE project SET name = \(word(&entropy)) WHERE id = \(id)") }
            if entropy.bool() {
                try db.execute("UPDATE project SET budget = budget + \(entropy.int(-50...50)) WHERE id = \(id)")
            }
        case 1:
            guard let id = try pick(db, "task", &entropy) else { return }
            switch entropy.int(0...3) {
            case 0: try db.execute("UPDATE task SET title = \(word(&entropy)) WHERE id = \(id)")
            case 1: try db.execute("UPDATE task SET done = 1 - done WHERE id = \(id)")
            case 2: try db.execute("UPDATE task SET points = \(entropy.int(1...13)), done = 0 WHERE id = \(id)")
            default:
                guard let project = try pick(db, "project", &entropy) else { return }
                try db.execute("UPDATE task SET project = \(project) WHERE id = \(id)")
            }
        case 2:
            guard let id = try pick(db, "tag", &entropy) else { return }
            try db.execute("UPDATE tag SET label = \(word(&entropy)) WHERE id = \(id)")
        default:
            guard let task = try pick(db, "task", &entropy) else { return }
            try db.execute("UPDATE task_tag SET weight = \(Double(entropy.int(0...100)) / 4) WHERE task = \(task)")
        }
    }

    /// A row's id, uniformly among the table's rows.
    private static func pick(_ db: Database, _ table: String, _ entropy: inout Entropy) throws -> String? {
        let count = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM \(table)")
        guard count > 0 else { return nil }
        return try db.fetchOne(
            String.self,
            SQL(sql: "SELECT id FROM \(table) ORDER BY id LIMIT 1 OFFSET ?", arguments: [entropy.int(0..<count)]))
    }

    private static func word(_ entropy: inout Entropy) -> String {
        entropy.pick([
            "alpha", "beta", "gamma", "delta", "", "Ωmega", "x'y", "spaces  ",
            "long " + String(repeating: "z", count: 40),
        ])
            + String(entropy.int(0...99))
    }
}

/// The checks at the end of a convergence run.
struct ConvergenceCheck {
    let replicas: [SyncReplica]
    let transport: any SyncTransport
    let acknowledged: [SyncConvergence.Acknowledged]
    let policy: SyncConfiguration.Policy

    /// What a write did to one row, from its changeset: the values it wrote by column (all of
    /// them for an insert or a whole-row update; the changed ones for a per-column update), or
    /// `nil` for a delete.
    struct RowWrite {
        var table: String
        var key: [SQLValue]
        var values: [String: SQLValue]?
    }

    func run(into report: inout SyncConvergence.Report) async throws {
        // 1. Every replica holds the same data, clocks and reports.
        var dumps: [[String]] = []
        for replica in replicas { dumps.append(try await dump(replica)) }
        for (index, other) in dumps.enumerated().dropFirst() where other != dumps[0] {
            let difference = other.difference(from: dumps[0]).prefix(4).map { "\($0)" }
            report.problems.append("replica r\(index) differs from r0: \(difference)")
        }
        let first = replicas[0]
        report.rows = try await first.writer.read { db in
            try SyncConvergence.tables.reduce(0) { try $0 + db.fetchValue(Int.self, sql: "SELECT count(*) FROM \($1)") }
        }
        // 2. The log holds every acknowledged write once, as written, and nothing else.
        var log: [SyncLogEntry] = []
        var after: Int64 = 0
        while true {
            let page = try await transport.pull(SyncPullRequest(after: after, limit: 1000))
            log += page.entries
            guard let last = page.entries.last, last.position < page.latestPosition else { break }
            after = last.position
        }
        report.logEntries = log.count
        var positions: [String: Int64] = [:]
        for logEntry in log {
            let name = "\(logEntry.entry.replicaID)#\(logEntry.entry.sequence)"
            if positions[name] != nil { report.problems.append("\(name) is twice in the log") }
            positions[name] = logEntry.position
        }
        let written = Dictionary(
            acknowledged.map { ("\($0.entry.replicaID)#\($0.entry.sequence)", $0) },
            uniquingKeysWith: { first, _ in first })
        for logEntry in log {
            let name = "\(logEntry.entry.replicaID)#\(logEntry.entry.sequence)"
            guard let write = written[name] else {
                report.problems.append("\(name) is in the log but was never acknowledged")
                continue
            }
            if write.entry.changes != logEntry.entry.changes {
                report.problems.append("\(name) changed on its way to the log")
            }
        }
        for name in written.keys where positions[name] == nil {
            report.problems.append("acknowledged write \(name) is not in the log (lost)")
        }
        // 3. No broken foreign key, no damaged file.
        for replica in replicas {
            let (violations, integrity) = try await replica.writer.read { db in
                (
                    try db.fetchValue(Int.self, sql: "SELECT count(*) FROM pragma_foreign_key_check"),
                    try db.fetchAll(String.self, sql: "PRAGMA integrity_check")
                )
            }
            if violations > 0 { report.problems.append("\(replica.replicaID): \(violations) foreign key violations") }
            if integrity != ["ok"] {
                report.problems.append("\(replica.replicaID): integrity_check \(integrity.prefix(3))")
            }
        }
        // 4. Each acknowledged write is there, or overridden by a later write, or reported.
        let reports = try first.conflictReports()
        report.overridden = reports.filter { $0.kind == .overridden }.count
        report.unresolvable = reports.filter { $0.kind == .unresolvable }.count
        try await checkWrites(log: log, positions: positions, reports: reports, into: &report)
    }

    private func dump(_ replica: SyncReplica) async throws -> [String] {
        try await replica.writer.read { db in
            var lines: [String] = []
            for table in SyncConvergence.tables + ["slate_sync_clock", "slate_sync_conflicts"] {
                lines += try db.fetchAll(SQL(sql: "SELECT * FROM \(table)")) { row in
                    table + ": " + row.values.map(\.debugDescription).joined(separator: ", ")
                }.sorted()
            }
            return lines
        }
    }
}

extension ConvergenceCheck {
    /// A cell: a row (per-row policy, column `*`; its existence, column ``), or a column of a row.
    struct Cell: Hashable {
        var table: String
        var key: Data
        var column: String
    }

    /// The writes of an acknowledged entry, cell by cell: the value written (`nil` for a delete).
    func cells(of entry: SyncEntry) throws -> [(Cell, [String: SQLValue]?)] {
        var result: [(Cell, [String: SQLValue]?)] = []
        let columnsByTable = try replicas[0].writer.read { db in
            try Dictionary(
                uniqueKeysWithValues: SyncConvergence.tables.map { table in
                    (
                        table,
                        try db.fetchAll(
                            String.self,
                            SQL(sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]))
                    )
                })
        }
        for operation in try Changeset(data: entry.changes).operations() {
            let key = SyncKey.encode(operation.primaryKey)
            let columns = columnsByTable[operation.tableName] ?? []
            var image: [String: SQLValue] = [:]
            for (index, name) in columns.enumerated() where index < operation.columnCount {
                if let value = operation.newValues[index]
                    ?? (operation.kind == .update && policy == .lastWriterWinsPerRow ? operation.oldValues[index] : nil)
                    ?? (operation.isPrimaryKeyColumn(index) ? operation.oldValues[index] : nil)
                {
                    image[name] = value
                }
            }
            switch (policy, operation.kind) {
            case (.lastWriterWinsPerRow, .delete), (.lastWriterWinsPerColumn, .delete):
                result.append(
                    (
                        Cell(table: operation.tableName, key: key, column: policy == .lastWriterWinsPerRow ? "*" : ""),
                        nil
                    ))
            case (.lastWriterWinsPerRow, _):
                result.append((Cell(table: operation.tableName, key: key, column: "*"), image))
            case (.lastWriterWinsPerColumn, .insert):
                result.append((Cell(table: operation.tableName, key: key, column: ""), image))
            case (.lastWriterWinsPerColumn, .update):
                for (index, name) in columns.enumerated()
                where index < operation.columnCount && operation.newValues[index] != nil {
                    result.append((Cell(table: operation.tableName, key: key, column: name), image))
                }
            }
        }
        return result
    }

    func checkWrites(
        log: [SyncLogEntry], positions: [String: Int64], reports: [SyncConflictReport],
        into report: inout SyncConvergence.Report
    ) async throws {
        // The final state, from r0 (the others are the same): rows by cell, and each cell's owner.
        let snapshot = try await replicas[0].writer.read {
            db -> ([Cell: [String: SQLValue]], [Cell: (String, Int64, Bool)]) in
            var rows: [Cell: [String: SQLValue]] = [:]
            for table in SyncConvergence.tables {
                let keyColumns = try db.fetchAll(
                    String.self,
                    SQL(sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY cid", arguments: [table]))
                for row in try db.fetchAll(SQL(sql: "SELECT * FROM \(table)"), { row in (row.columnNames, row.values) })
                {
                    let values = Dictionary(uniqueKeysWithValues: zip(row.0, row.1))
                    let key = SyncKey.encode(keyColumns.map { values[$0] ?? .null })
                    rows[Cell(table: table, key: key, column: "*")] = values
                }
            }
            var owners: [Cell: (String, Int64, Bool)] = [:]
            for clock in try db.fetchAll(
                "SELECT tbl, pk, col, replica, sequence, deleted FROM slate_sync_clock",
                { row in
                    (
                        try row.decode(String.self, at: 0), try row.decode(Data.self, at: 1),
                        try row.decode(String.self, at: 2),
                        try row.decode(String.self, at: 3), try row.decode(Int64.self, at: 4),
                        try row.decode(Bool.self, at: 5)
                    )
                })
            {
                owners[Cell(table: clock.0, key: clock.1, column: clock.2)] = (clock.3, clock.4, clock.5)
            }
            return (rows, owners)
        }
        let (rows, owners) = snapshot
        let byName = Dictionary(
            acknowledged.map { ("\($0.entry.replicaID)#\($0.entry.sequence)", $0) }, uniquingKeysWith: { a, _ in a })
        let rejected = Set(
            reports.filter { $0.kind == .unresolvable && $0.tableName.isEmpty }.compactMap { report in
                report.loser.map { "\($0.replicaID)#\($0.sequence)" }
            })
        func stamp(_ entry: SyncEntry) -> WriteStamp {
            WriteStamp(
                clock: HybridLogicalClock(rawValue: entry.clock), replicaID: entry.replicaID, sequence: entry.sequence)
        }
        // Who wrote each cell, in stamp order, to know whether a later write saw an earlier one.
        var writers: [Cell: [SyncConvergence.Acknowledged]] = [:]
        var cellsOf: [String: [(Cell, [String: SQLValue]?)]] = [:]
        for write in acknowledged {
            let cells = try cells(of: write.entry)
            cellsOf["\(write.entry.replicaID)#\(write.entry.sequence)"] = cells
            for (cell, _) in cells { writers[cell, default: []].append(write) }
        }
        func saw(_ later: SyncConvergence.Acknowledged, _ earlier: SyncConvergence.Acknowledged) -> Bool {
            if later.entry.replicaID == earlier.entry.replicaID { return later.entry.sequence > earlier.entry.sequence }
            guard let position = positions["\(earlier.entry.replicaID)#\(earlier.entry.sequence)"] else { return false }
            return position <= later.pulledThroughWhenWritten
        }
        var unaccounted = 0
        for write in acknowledged {
            let name = "\(write.entry.replicaID)#\(write.entry.sequence)"
            if rejected.contains(name) { continue }
            for (cell, values) in cellsOf[name] ?? [] {
                let ownerCell = owners[cell] != nil ? cell : Cell(table: cell.table, key: cell.key, column: "")
                let owner = owners[ownerCell].flatMap { byName["\($0.0)#\($0.1)"] }
                if let owner, owner.entry.replicaID == write.entry.replicaID,
                    owner.entry.sequence == write.entry.sequence
                {
                    // Present: the row (or column) is what this write wrote; under the per-column
                    // policy, the columns a later write owns are checked with that write.
                    let row = rows[Cell(table: cell.table, key: cell.key, column: "*")]
                    let expected: [String: SQLValue]? =
                        switch cell.column {
                        case "*": values
                        case "":
                            values?.filter { column, _ in
                                owners[Cell(table: cell.table, key: cell.key, column: column)].map {
                                    $0.0 == write.entry.replicaID && $0.1 == write.entry.sequence
                                } ?? true
                            }
                        default: values.map { [cell.column: $0[cell.column] ?? .null] }
                        }
                    if let expected {
                        guard let row, expected.allSatisfy({ row[$0.key] == $0.value }) else {
                            report.problems.append("\(cell.table) row of \(name): not what its last writer wrote")
                            continue
                        }
                    } else if row != nil {
                        report.problems.append("\(cell.table) row deleted last by \(name) is there")
                    }
                    continue
                }
                let isReported = reports.contains { report in
                    report.tableName == cell.table && SyncKey.encode(report.primaryKey) == cell.key
                        && report.loser.map {
                            $0.replicaID == write.entry.replicaID && $0.sequence == write.entry.sequence
                        } == true
                }
                if isReported { continue }
                // A later write of the row as a whole (an insert or delete, per column) counts too.
                let rowCell = Cell(table: cell.table, key: cell.key, column: "")
                let laterWriters = (writers[cell] ?? []) + (cell.column.isEmpty ? [] : writers[rowCell] ?? [])
                let overwrittenKnowingly = laterWriters.contains { later in
                    stamp(later.entry) > stamp(write.entry) && saw(later, write)
                }
                if overwrittenKnowingly { continue }
                if let owner, stamp(owner.entry) > stamp(write.entry), values == nil,
                    rows[Cell(table: cell.table, key: cell.key, column: "*")] == nil
                {
                    continue  // a delete of a row a later delete also removed
                }
                unaccounted += 1
                if unaccounted <= 10 {
                    report.problems.append(
                        "write \(name) to \(cell.table) (\(cell.column)) is neither there, nor overridden by a later write that saw it, nor reported (owner: \(owner.map { "\($0.entry.replicaID)#\($0.entry.sequence)" } ?? "none"))"
                    )
                }
            }
        }
        if unaccounted > 10 { report.problems.append("… \(unaccounted) unaccounted writes in all") }
        // Every row has a last writer that was acknowledged.
        for (cell, _) in rows {
            let rowClock = owners[Cell(table: cell.table, key: cell.key, column: "")]
            if rowClock.flatMap({ byName["\($0.0)#\($0.1)"] }) == nil {
                report.problems.append("a row of \(cell.table) has no acknowledged writer")
            }
        }
    }
}
