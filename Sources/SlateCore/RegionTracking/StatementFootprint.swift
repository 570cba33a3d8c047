import CSQLite

// What a statement reads and writes, learned from SQLite's authorizer while the statement is
// prepared. Live queries use the reads to know what an observed fetch depends on, and the writes
// to know which columns an UPDATE changes (the update hook reports rows, not columns), which
// tables a statement writes that the update hook never reports, and where savepoints begin and end.

/// A savepoint statement, as the authorizer reports it.
package enum SavepointOperation: Equatable, Sendable {
    /// `SAVEPOINT name`.
    case begin(String)
    /// `RELEASE [SAVEPOINT] name`.
    case release(String)
    /// `ROLLBACK [TRANSACTION] TO [SAVEPOINT] name`.
    case rollback(String)
}

/// What one prepared statement reads and writes.
///
/// A class, so that the tracker hands it around with one retain as each statement starts (a
/// struct of several collections costs a copy of each). Built by `FootprintBuilder`, then never
/// changed.
package final class StatementFootprint: @unchecked Sendable {
    // @unchecked Sendable: the properties are only set while `FootprintBuilder.footprint(sql:info:)`
    // builds the object, before anyone else sees it.
    /// The tables and columns the statement reads.
    package var reads = DatabaseRegion.empty
    /// How many `SELECT`s the statement holds (subqueries, compound parts, CTEs each count).
    package var selectCount = 0
    /// The tables the statement writes: every column for `INSERT` and `DELETE`, the assigned
    /// columns for `UPDATE` (plus `rowid` when a key column is assigned, and every column of a
    /// table with generated columns).
    package var writes: [TableKey: ColumnSet] = [:]
    /// The written tables whose row changes the update hook does not report: `WITHOUT ROWID` and
    /// virtual tables, views, SQLite's own tables, and tables Slate could not inspect.
    package var unreportedWrites: [TableKey: ColumnSet] = [:]
    /// Whether the statement changes the schema (`CREATE`, `DROP`, `ALTER`, `ATTACH`, `DETACH`).
    package var changesSchema = false
    /// Whether the schema change can change what reads return, so that every live query refetches:
    /// tables, views and attached databases, but not indexes and triggers.
    package var changesReadableSchema = false
    /// The savepoint the statement begins, releases or rolls back to.
    package var savepoint: SavepointOperation?
    /// Whether an insert may delete other rows through the `REPLACE` conflict resolution, which
    /// the update hook does not report: the SQL or a written table's schema says `REPLACE`.
    package var mayReplace = false

    /// Whether running the statement changes nothing a live query cares about.
    package var isInert: Bool { writes.isEmpty && !changesSchema && savepoint == nil }
    /// Whether the statement only writes rows the update hook reports: running it again changes
    /// nothing but rows (the tracker's fast path for a statement run in a loop).
    private(set) var onlyWritesReportedRows = false

    package init() {}

    /// Computes the derived properties, once the builder set the others.
    func seal() {
        onlyWritesReportedRows = !writes.isEmpty && unreportedWrites.isEmpty && !changesSchema && savepoint == nil
    }
}

/// What Slate knows about a table, read once per connection and schema.
package struct TableInfo: Sendable {
    /// Whether the update hook reports the table's changes: an ordinary rowid table.
    var reportsRowChanges: Bool
    /// The primary key columns, lowercased.
    var primaryKey: Set<String>
    /// Whether the table has generated columns, whose values change with other columns.
    var hasGeneratedColumns: Bool
    /// Whether the table's schema mentions `REPLACE` (a `REPLACE` conflict clause).
    var mentionsReplace: Bool
    /// The `INTEGER PRIMARY KEY` column whose value is the rowid, lowercased.
    var rowIDAlias: String?
}

/// Collects the authorizer's reports while one statement is prepared, and answers it.
package struct FootprintBuilder {
    private var reads: [TableKey: Set<String>] = [:]
    private var readsEverything = false
    private var selectCount = 0
    private var inserts: Set<TableKey> = []
    private var deletes: Set<TableKey> = []
    private var updates: [TableKey: Set<String>] = [:]
    private var changesSchema = false
    private var changesReadableSchema = false
    private var savepoint: SavepointOperation?
    /// The table a `DROP` just named: its own deletion must be allowed as is.
    private var droppedTable: String?
    /// How many actions were recorded (orphan builders stop collecting past a limit).
    private(set) var actionCount = 0

    package init() {}

    /// Whether nothing was recorded.
    var isEmpty: Bool { actionCount == 0 }

    /// Records one authorizer call and returns the answer: `SQLITE_IGNORE` for the deletion of
    /// an ordinary table's rows, which makes SQLite delete them one by one (reported by the update
    /// hook) instead of truncating the table (not reported); `SQLITE_OK` otherwise.
    mutating func record(
        action: Int32,
        first: UnsafePointer<CChar>?,
        second: UnsafePointer<CChar>?,
        database: UnsafePointer<CChar>?
    ) -> Int32 {
        actionCount += 1
        let schema = database.map { String(cString: $0) } ?? "main"
        switch action {
        case SQLITE_READ:
            guard let first else { return SQLITE_OK }
            let column = second.map { String(cString: $0).asciiLowercased } ?? ""
            reads[TableKey(database: schema, table: String(cString: first)), default: []].insert(column)
        case SQLITE_SELECT:
            selectCount += 1
        case SQLITE_INSERT:
            guard let first else { return SQLITE_OK }
            inserts.insert(TableKey(database: schema, table: String(cString: first)))
        case SQLITE_UPDATE:
            guard let first else { return SQLITE_OK }
            let column = second.map { String(cString: $0).asciiLowercased } ?? ""
            updates[TableKey(database: schema, table: String(cString: first)), default: []].insert(column)
        case SQLITE_DELETE:
            guard let first else { return SQLITE_OK }
            let table = String(cString: first)
            let key = TableKey(database: schema, table: table)
            deletes.insert(key)
            // A DROP asks to delete from the schema table, then to delete the dropped table:
            // `SQLITE_IGNORE` there would silently skip the DROP.
            if key.isInternal { return SQLITE_OK }
            if let droppedTable, droppedTable == key.table {
                self.droppedTable = nil
                return SQLITE_OK
            }
            return SQLITE_IGNORE
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_VTABLE:
            droppedTable = first.map { String(cString: $0).asciiLowercased }
            changesSchema = true
            changesReadableSchema = true
        case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_VIEW, SQLITE_CREATE_TEMP_VIEW,
            SQLITE_CREATE_VTABLE, SQLITE_ALTER_TABLE, SQLITE_ATTACH, SQLITE_DETACH:
            changesSchema = true
            changesReadableSchema = true
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX, SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX,
            SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER:
            changesSchema = true
        case SQLITE_SAVEPOINT:
            guard let first, let second else { return SQLITE_OK }
            let name = String(cString: second).asciiLowercased
            switch String(cString: first) {
            case "BEGIN": savepoint = .begin(name)
            case "RELEASE": savepoint = .release(name)
            case "ROLLBACK": savepoint = .rollback(name)
            default: break
            }
        case SQLITE_FUNCTION:
            // Before SQLite 3.19, `count(*)` reported no read of the counted table.
            if sqlite3_libversion_number() < 3_019_000, let second, String(cString: second).asciiLowercased == "count" {
                readsEverything = true
            }
        default:
            break
        }
        return SQLITE_OK
    }

    /// The footprint of the statement, given what is known of its tables (`info` returns `nil`
    /// for a table Slate could not inspect, which is then treated as conservatively as possible).
    func footprint(sql: UnsafePointer<CChar>?, info: (TableKey) -> TableInfo?) -> StatementFootprint {
        let footprint = StatementFootprint()
        footprint.selectCount = selectCount
        footprint.changesSchema = changesSchema
        footprint.changesReadableSchema = changesReadableSchema
        footprint.savepoint = savepoint
        if readsEverything {
            footprint.reads = .fullDatabase
        } else {
            var region = DatabaseRegion.empty
            for (key, columns) in reads {
                let table = info(key)
                var names = columns
                // A key column or the rowid read: the rowid under any of its names.
                if table == nil
                    || columns.contains(where: { Self.isRowIDName($0) || table?.primaryKey.contains($0) == true })
                {
                    names.insert("rowid")
                }
                region.insert(TableRegion(columns: .some(names)), for: key)
            }
            footprint.reads = region
        }
        var mentionsReplace = sql.map { Self.mentionsReplace(SQLLexer(cString: $0)) } ?? true
        for key in inserts.union(deletes) { footprint.writes[key] = .all }
        for (key, columns) in updates where footprint.writes[key] == nil {
            let table = info(key)
            if table == nil || table?.hasGeneratedColumns == true {
                footprint.writes[key] = .all
                continue
            }
            var names = columns
            if columns.contains(where: { Self.isRowIDName($0) || table?.primaryKey.contains($0) == true }) {
                names.insert("rowid")
            }
            footprint.writes[key] = .some(names)
        }
        for (key, columns) in footprint.writes {
            let table = info(key)
            if key.isInternal || table?.reportsRowChanges != true {
                footprint.unreportedWrites[key] = columns
            }
            if table?.mentionsReplace ?? true { mentionsReplace = true }
        }
        footprint.mayReplace = mentionsReplace && !footprint.writes.isEmpty
        footprint.seal()
        return footprint
    }

    /// The tables whose information the footprint needs.
    var tables: Set<TableKey> {
        Set(reads.keys).union(inserts).union(deletes).union(updates.keys)
    }

    static func isRowIDName(_ name: String) -> Bool {
        name == "rowid" || name == "oid" || name == "_rowid_"
    }

    /// Whether `sql` uses the word `REPLACE`: a `REPLACE` conflict resolution, `REPLACE INTO`, or
    /// the function `replace(…)` (which only costs precision). Names and strings do not count.
    static func mentionsReplace(_ sql: SQLLexer) -> Bool {
        var lexer = sql
        while let token = lexer.next() {
            if lexer.isKeyword(token, "REPLACE") { return true }
        }
        return false
    }

    static func mentionsReplace(_ sql: String) -> Bool {
        mentionsReplace(SQLLexer(sql))
    }
}
