import CSQLite
import Foundation
import SlateCore

/// What sync needs to know of a synced table, read from the database: its columns in declaration
/// order (the changeset's order), its primary key, and the foreign keys on either side of it.
struct SyncTableInfo: Sendable {
    var name: String
    var columns: [String]
    /// For each column, its position in the primary key, or 0 (as a changeset records it).
    var primaryKeyPositions: [Int]
    /// The foreign keys this table declares.
    var foreignKeys: [SyncForeignKey]
    /// The foreign keys of any table that reference this one.
    var referencedBy: [SyncForeignKey]

    /// The indexes of the key columns, in column order.
    var keyColumns: [Int] { primaryKeyPositions.indices.filter { primaryKeyPositions[$0] != 0 } }

    /// `SELECT "a", "b" FROM "t" WHERE "id" = ?1`: the row by its key, bound in column order.
    var selectByKey: String {
        "SELECT " + columns.map(\.quotedIdentifier).joined(separator: ", ") + " FROM " + name.quotedIdentifier
            + " WHERE "
            + keyColumns.enumerated().map { "\(columns[$1].quotedIdentifier) = ?\($0 + 1)" }
            .joined(separator: " AND ")
    }
}

/// One foreign key: `child(childColumns)` references `parent(parentColumns)`.
struct SyncForeignKey: Sendable {
    var child: String
    var childColumns: [String]
    var parent: String
    var parentColumns: [String]
}

/// The synced tables of a database, read once per schema version.
struct SyncSchema: Sendable {
    var tables: [String: SyncTableInfo]
    var schemaVersion: Int64

    static func read(_ db: Database, synced names: [String]) throws -> SyncSchema {
        let version = try db.fetchValue(Int64.self, sql: "PRAGMA schema_version")
        let allTables = try db.fetchAll(
            String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var keys: [String: [Int]] = [:]
        var columns: [String: [String]] = [:]
        for table in allTables {
            let info = try db.fetchAll(
                SQL(sql: "SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", arguments: [table])
            ) {
                row in (try row.decode(String.self, at: 0), try row.decode(Int.self, at: 1))
            }
            columns[table] = info.map(\.0)
            keys[table] = info.map(\.1)
        }
        // Every foreign key of the database, with the parent's key filled in where it is implicit.
        var foreignKeys: [SyncForeignKey] = []
        for table in allTables {
            let rows = try db.fetchAll(
                SQL(
                    sql: "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq",
                    arguments: [table])
            ) { row in
                (
                    try row.decode(Int.self, at: 0), try row.decode(String.self, at: 1),
                    try row.decode(String.self, at: 2),
                    try row.decode(String?.self, at: 3)
                )
            }
            var byID: [Int: SyncForeignKey] = [:]
            var order: [Int] = []
            for (id, parent, from, to) in rows {
                if byID[id] == nil {
                    order.append(id)
                    byID[id] = SyncForeignKey(child: table, childColumns: [], parent: parent, parentColumns: [])
                }
                byID[id]?.childColumns.append(from)
                if let to { byID[id]?.parentColumns.append(to) }
            }
            for id in order {
                guard var key = byID[id] else { continue }
                if key.parentColumns.isEmpty, let parentKeys = keys[key.parent], let parentColumns = columns[key.parent]
                {
                    key.parentColumns = parentKeys.indices.filter { parentKeys[$0] != 0 }
                        .sorted { parentKeys[$0] < parentKeys[$1] }.map { parentColumns[$0] }
                }
                foreignKeys.append(key)
            }
        }
        var tables: [String: SyncTableInfo] = [:]
        for name in names {
            guard let tableColumns = columns[name], let tableKeys = keys[name] else {
                throw SyncError(.configuration, "the synced table '\(name.prefix(80))' does not exist")
            }
            guard tableKeys.contains(where: { $0 != 0 }) else {
                throw SyncError(
                    .configuration,
                    "the synced table '\(name.prefix(80))' has no PRIMARY KEY: the session extension cannot record it")
            }
            tables[name] = SyncTableInfo(
                name: name, columns: tableColumns, primaryKeyPositions: tableKeys,
                foreignKeys: foreignKeys.filter { $0.child == name },
                referencedBy: foreignKeys.filter { $0.parent == name })
        }
        return SyncSchema(tables: tables, schemaVersion: version)
    }

    /// Why `changes` does not fit these tables (a table that is not synced here, or that has
    /// other columns or another primary key), or `nil` when it fits.
    func mismatch(of changes: Data) -> String? {
        var problem: String?
        do {
            try ChangesetScanner.validate(changes) { header in
                guard problem == nil else { return }
                guard let table = tables[header.name] else {
                    problem = "it changes table '\(header.name.prefix(80))', which is not synced here"
                    return
                }
                if table.primaryKeyPositions != header.primaryKeyPositions {
                    problem =
                        "it has \(header.primaryKeyPositions.count) column(s) for table '\(header.name.prefix(80))', "
                        + "which has \(table.columns.count) (or another primary key)"
                }
            }
        } catch {
            return "it is not a well-formed changeset (\(error))"
        }
        return problem
    }
}
