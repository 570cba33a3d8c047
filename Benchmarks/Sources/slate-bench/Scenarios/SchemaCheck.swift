import CSQLite
import Foundation
import GRDB
import Slate

/// The run-time schema drift check on 50 tables: `db.verifySchema(of:)` with the 50 record types
/// `SlateBuildPlugin` generates from `Schema/checked_tables.sql`, against a file made from the same
/// SQL (so the check finds nothing: every column, key, foreign key and index is compared).
///
/// There is nothing to compare the check with in the C API or in GRDB, so the other contenders
/// read what it reads: the same schema facts of the 50 tables (columns with their declared type,
/// `NOT NULL`, key position and single-column `UNIQUE`; foreign keys; `CREATE INDEX` indexes),
/// with the pragmas through the C API (`raw`), with Slate's reader (`slate-read`,
/// `db.tableSchema(named:)`, which the check uses), and with GRDB's (`grdb-read`). All four fold
/// the same facts into the same checksum; `slate-verify` folds the facts of the types it checked,
/// after the check found no difference.
enum SchemaCheck {
    static let scenario = Scenario(
        name: "schema-check-50",
        summary: "db.verifySchema(of:) over 50 generated table types, against reading the same schema facts"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.tableNames.count,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-read", fixture.slateRead),
                Contender("slate-verify", fixture.slateVerify),
                Contender("grdb-read", fixture.grdbRead),
            ])
    }

    /// The schema facts every contender folds, one table at a time in name order.
    struct TableFacts {
        struct Column {
            var name: String
            var type: String
            var isNotNull: Bool
            var primaryKeyPosition: Int
            var isUnique: Bool
        }

        var name: String
        var columns: [Column]
        /// `from|table|to` per key, sorted.
        var foreignKeys: [String]
        /// `name|columns` per `CREATE INDEX` index, sorted.
        var indexes: [String]

        func combine(into checksum: inout Checksum) {
            checksum.nextRow()
            checksum.combine(name)
            checksum.combine(columns.count)
            for column in columns {
                checksum.combine(column.name)
                checksum.combine(column.type)
                checksum.combine(column.isNotNull ? 1 : 0)
                checksum.combine(column.primaryKeyPosition)
                checksum.combine(column.isUnique ? 1 : 0)
            }
            checksum.combine(foreignKeys.count)
            for key in foreignKeys.sorted() { checksum.combine(key) }
            checksum.combine(indexes.count)
            for index in indexes.sorted() { checksum.combine(index) }
        }

        /// The facts of a table model (what Slate reads, and what the generated types declare).
        init(_ schema: TableSchema) {
            name = schema.name
            columns = schema.columns.map { column in
                Column(
                    name: column.name, type: column.declaredType, isNotNull: column.isNotNull,
                    primaryKeyPosition: column.primaryKeyPosition ?? 0, isUnique: column.isUnique)
            }
            foreignKeys = schema.foreignKeys.map { key in
                key.columns.joined(separator: ",") + "|" + key.referencedTable + "|"
                    + key.referencedColumns.joined(separator: ",")
            }
            indexes = schema.indexes.map { $0.name + "|" + $0.columns.joined(separator: ",") }
        }

        init(name: String, columns: [Column], foreignKeys: [String], indexes: [String]) {
            self.name = name
            self.columns = columns
            self.foreignKeys = foreignKeys
            self.indexes = indexes
        }
    }

    final class Fixture {
        let types: [any Slate.Table.Type]
        let tableNames: [String]
        let expected: Checksum
        let rawConnection: RawConnection
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            // Plain loops: Swift 6.3.1's SILGen crashes (signal 11) on a key path through the
            // existential metatypes in a release build.
            var checked: [(name: String, type: any Slate.Table.Type)] = []
            for type in SlateBenchDatabase.tables {
                let name = type.schema.name
                if name.hasPrefix("checked_") { checked.append((name, type)) }
            }
            checked.sort { $0.name < $1.name }
            types = checked.map { $0.type }
            tableNames = checked.map { $0.name }
            guard tableNames.count == 50 else {
                throw HarnessError("schema-check-50: expected 50 generated checked_* types, found \(tableNames.count)")
            }
            var checksum = Checksum()
            for type in types { TableFacts(type.schema).combine(into: &checksum) }
            expected = checksum

            guard let url = Bundle.module.url(forResource: "checked_tables", withExtension: "sql") else {
                throw HarnessError("checked_tables.sql is missing from the slate-bench resources")
            }
            let path = context.path("schema-check.sqlite")
            try RawConnection(path: path).execute(try String(contentsOf: url, encoding: .utf8))
            rawConnection = try RawConnection(path: path)
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)
        }

        // MARK: Contenders

        /// The pragmas through the C API: `table_xinfo`, `index_list`, `index_info`,
        /// `foreign_key_list`, each prepared per table (their argument is the table name).
        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            let db = rawConnection.handle
            func rows(_ sql: String, _ body: (OpaquePointer) -> Void) throws {
                var statement: OpaquePointer?
                guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
                    throw rawConnection.failure(sql)
                }
                defer { sqlite3_finalize(statement) }
                while true {
                    let code = sqlite3_step(statement)
                    if code == SQLITE_DONE { return }
                    guard code == SQLITE_ROW else { throw rawConnection.failure(sql) }
                    body(statement)
                }
            }
            func text(_ statement: OpaquePointer, _ index: Int32) -> String {
                sqlite3_column_text(statement, index).map { String(cString: $0) } ?? ""
            }
            return try stopwatch.measure {
                var checksum = Checksum()
                for table in tableNames {
                    let quoted = "'" + table.replacingOccurrences(of: "'", with: "''") + "'"
                    var columns: [TableFacts.Column] = []
                    try rows("SELECT name, type, \"notnull\", pk FROM pragma_table_xinfo(\(quoted))") { row in
                        columns.append(
                            TableFacts.Column(
                                name: text(row, 0), type: text(row, 1), isNotNull: sqlite3_column_int(row, 2) != 0,
                                primaryKeyPosition: Int(sqlite3_column_int(row, 3)), isUnique: false))
                    }
                    var indexes: [String] = []
                    var uniqueIndexes: [String] = []
                    var created: [String] = []
                    try rows("SELECT name, origin FROM pragma_index_list(\(quoted))") { row in
                        let origin = text(row, 1)
                        if origin == "u" { uniqueIndexes.append(text(row, 0)) }
                        if origin == "c" { created.append(text(row, 0)) }
                    }
                    for index in uniqueIndexes + created {
                        var indexed: [String] = []
                        let quotedIndex = "'" + index.replacingOccurrences(of: "'", with: "''") + "'"
                        try rows("SELECT name FROM pragma_index_info(\(quotedIndex)) ORDER BY seqno") { row in
                            indexed.append(text(row, 0))
                        }
                        if uniqueIndexes.contains(index), indexed.count == 1,
                            let position = columns.firstIndex(where: { $0.name == indexed[0] })
                        {
                            columns[position].isUnique = true
                        } else if created.contains(index) {
                            indexes.append(index + "|" + indexed.joined(separator: ","))
                        }
                    }
                    var keys: [Int: (from: [String], table: String, to: [String])] = [:]
                    try rows(
                        "SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(\(quoted)) ORDER BY id, seq"
                    ) { row in
                        let id = Int(sqlite3_column_int(row, 0))
                        keys[id, default: ([], text(row, 1), [])].from.append(text(row, 2))
                        keys[id, default: ([], text(row, 1), [])].to.append(text(row, 3))
                    }
                    let foreignKeys = keys.values.map {
                        $0.from.joined(separator: ",") + "|" + $0.table + "|" + $0.to.joined(separator: ",")
                    }
                    TableFacts(name: table, columns: columns, foreignKeys: foreignKeys, indexes: indexes).combine(
                        into: &checksum)
                }
                return checksum
            }
        }

        /// Slate's reader alone: `db.tableSchema(named:)` for each table.
        func slateRead(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                var checksum = Checksum()
                for table in tableNames {
                    guard let schema = try slate.tableSchema(named: table) else {
                        throw HarnessError("slate-read: no table \(table)")
                    }
                    TableFacts(schema).combine(into: &checksum)
                }
                return checksum
            }
        }

        /// The drift check: `db.verifySchema(of:)` over the 50 generated types.
        func slateVerify(_ stopwatch: Stopwatch) throws -> Checksum {
            let differences = try stopwatch.measure { try slate.verifySchema(of: types) }
            guard differences.isEmpty else {
                throw HarnessError("slate-verify: \(differences.count) differences, first: \(differences[0])")
            }
            var checksum = Checksum()
            for type in types { TableFacts(type.schema).combine(into: &checksum) }
            return checksum
        }

        /// GRDB's schema introspection: `columns(in:)`, `indexes(on:)`, `foreignKeys(on:)`, with
        /// its schema cache cleared before each iteration (untimed), so every read reaches SQLite.
        func grdbRead(_ stopwatch: Stopwatch) throws -> Checksum {
            grdb.inDatabase { db in db.clearSchemaCache() }
            return try stopwatch.measure {
                try grdb.inDatabase { db in
                    var checksum = Checksum()
                    for table in tableNames {
                        let indexes = try db.indexes(on: table)
                        let uniqueColumns = Set(
                            indexes.filter { $0.origin == .uniqueConstraint && $0.columns.count == 1 }.map {
                                $0.columns[0]
                            })
                        let columns = try db.columns(in: table).map { column in
                            TableFacts.Column(
                                name: column.name, type: column.type, isNotNull: column.isNotNull,
                                primaryKeyPosition: column.primaryKeyIndex,
                                isUnique: uniqueColumns.contains(column.name))
                        }
                        let keys = try db.foreignKeys(on: table).map { key in
                            key.originColumns.joined(separator: ",") + "|" + key.destinationTable + "|"
                                + key.destinationColumns.joined(separator: ",")
                        }
                        let created = indexes.filter { $0.origin == .createIndex }.map {
                            $0.name + "|" + $0.columns.joined(separator: ",")
                        }
                        TableFacts(name: table, columns: columns, foreignKeys: keys, indexes: created).combine(
                            into: &checksum)
                    }
                    return checksum
                }
            }
        }
    }
}
