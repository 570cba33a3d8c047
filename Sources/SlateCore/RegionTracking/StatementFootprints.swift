import CSQLite
import Foundation

// The footprints room of the region tracker: what each prepared statement reads and writes.
//
// While the tracker exists, SQLite's authorizer stays installed. Every statement Slate prepares is
// prepared inside a capture, which turns the authorizer's reports into the statement's footprint,
// kept by statement handle. Statements prepared elsewhere (through the raw C handle) and
// statements SQLite recompiles after a schema change report to an "orphan" builder, which is
// attributed when it is safe to. What a footprint needs to know of a table (its key, whether the
// update hook reports its rows) comes from the one PRAGMA reader, `SchemaIntrospection`.

/// The footprints of a connection's statements, and what they need to know of its tables.
final class StatementFootprints {
    /// A statement whose footprint is known.
    struct KnownStatement {
        var footprint: StatementFootprint
        /// The statement's recompilation count when the footprint was taken.
        var recompilations: Int32
        /// The schema generation when the footprint was taken (for SQLite before 3.20).
        var generation: Int
        /// For statements Slate did not prepare, their SQL, to recognize a reused handle.
        var foreignSQL: [CChar]?
    }

    private let connection: OpaquePointer
    /// Whether `sqlite3_stmt_status(SQLITE_STMTSTATUS_REPREPARE)` exists (SQLite 3.20).
    let detectsRecompilation = sqlite3_libversion_number() >= 3_020_000
    private(set) var known: [OpaquePointer: KnownStatement] = [:]
    /// How many entries of `known` are statements Slate did not prepare.
    private var foreignCount = 0
    private static let foreignLimit = 256
    private var captures: [FootprintBuilder] = []
    /// The reports of statements being prepared outside a capture (or recompiled).
    private(set) var orphans = FootprintBuilder()
    static let orphanLimit = 4096
    /// Set while the tracker runs its own queries: their reports are not the user's.
    private(set) var suspended = 0
    private(set) var tableInfos: [TableKey: TableInfo] = [:]
    /// Bumped by every schema change this connection runs.
    private(set) var generation = 0
    /// Cached statements whose footprint went stale, to prepare again at the next occasion.
    var hasStaleStatements = false

    init(connection: OpaquePointer) {
        self.connection = connection
    }

    /// Whether the orphan reports can be attributed to a statement.
    var hasUsableOrphans: Bool { !orphans.isEmpty && orphans.actionCount < Self.orphanLimit }

    // MARK: Capturing

    func beginCapture() {
        captures.append(FootprintBuilder())
    }

    func endCapture() -> FootprintBuilder {
        captures.popLast() ?? FootprintBuilder()
    }

    /// Keeps the footprint of a statement Slate prepared, once what it needs to know of its
    /// tables is known (`tablesToRead(for:)`, `readTableInfo(_:connection:)`).
    func register(_ statement: OpaquePointer, builder: FootprintBuilder) {
        let footprint = builder.footprint(sql: sqlite3_sql(statement)) { tableInfos[$0] }
        known[statement] = KnownStatement(
            footprint: footprint, recompilations: recompilationCount(statement), generation: generation,
            foreignSQL: nil)
    }

    func forget(_ statement: OpaquePointer) {
        known.removeValue(forKey: statement)
    }

    /// The authorizer: records into the capture in progress, or into the orphan builder.
    func authorize(
        action: Int32, first: UnsafePointer<CChar>?, second: UnsafePointer<CChar>?, database: UnsafePointer<CChar>?
    ) -> Int32 {
        if suspended > 0 { return SQLITE_OK }
        if !captures.isEmpty {
            return captures[captures.count - 1].record(action: action, first: first, second: second, database: database)
        }
        if orphans.actionCount >= Self.orphanLimit {
            // Too much to attribute safely: keep answering deletions without collecting.
            var scratch = FootprintBuilder()
            return scratch.record(action: action, first: first, second: second, database: database)
        }
        return orphans.record(action: action, first: first, second: second, database: database)
    }

    /// Forgets the orphan reports (a statement started: they were its, or nobody's).
    func clearOrphans() {
        orphans = FootprintBuilder()
    }

    // MARK: Looking up

    func recompilationCount(_ statement: OpaquePointer) -> Int32 {
        // 5: SQLITE_STMTSTATUS_REPREPARE, which SQLCipher's older header lacks.
        detectsRecompilation ? sqlite3_stmt_status(statement, 5, 0) : 0
    }

    func isCurrent(_ entry: KnownStatement, _ statement: OpaquePointer) -> Bool {
        if detectsRecompilation {
            if entry.recompilations != recompilationCount(statement) { return false }
        } else if entry.generation != generation {
            return false
        }
        if let foreignSQL = entry.foreignSQL {
            guard let sql = sqlite3_sql(statement) else { return false }
            return foreignSQL.matches(sql)
        }
        return true
    }

    /// Whether the footprint of a statement, as prepared now, is known.
    func knowsFootprint(of statement: OpaquePointer) -> Bool {
        guard let entry = known[statement] else { return false }
        return isCurrent(entry, statement)
    }

    /// The footprint of a statement that starts running, or `nil` when it cannot be known.
    ///
    /// A statement SQLite recompiled since its footprint was taken (after a schema change) gets
    /// the reports of its recompilation, collected since the previous statement started; a
    /// statement prepared through the C API gets the reports collected since then when it is the
    /// connection's newest statement. Either may include more than the statement's own reports
    /// (another statement prepared meanwhile): more tables, never fewer.
    func footprint(startingStatement statement: OpaquePointer) -> StatementFootprint? {
        if let entry = known[statement] {
            if isCurrent(entry, statement) { return entry.footprint }
            if entry.foreignSQL == nil, hasUsableOrphans {
                let footprint = orphans.footprint(sql: sqlite3_sql(statement)) { tableInfos[$0] }
                known[statement] = KnownStatement(
                    footprint: footprint, recompilations: recompilationCount(statement), generation: generation,
                    foreignSQL: nil)
                return footprint
            }
            known.removeValue(forKey: statement)
            // A statement Slate prepared went stale without reports to rebuild from: Slate
            // prepares it again at the next occasion. A foreign one may be a new statement at the
            // address of a finalized one: adopted below if it can be.
            guard entry.foreignSQL != nil else {
                hasStaleStatements = true
                return nil
            }
            foreignCount -= 1
        }
        guard hasUsableOrphans, sqlite3_next_stmt(connection, nil) == statement, let sql = sqlite3_sql(statement)
        else { return nil }
        let footprint = orphans.footprint(sql: sql) { tableInfos[$0] }
        // Finalized foreign statements are never reported: keep a bounded number.
        if foreignCount >= Self.foreignLimit {
            known = known.filter { $0.value.foreignSQL == nil }
            foreignCount = 0
        }
        known[statement] = KnownStatement(
            footprint: footprint, recompilations: recompilationCount(statement), generation: generation,
            foreignSQL: Array(UnsafeBufferPointer(start: sql, count: strlen(sql) + 1)))
        foreignCount += 1
        return footprint
    }

    /// The footprint of a statement SQLite recompiled after it started, rebuilt from the orphan
    /// reports, or `nil` when they cannot tell (the statement is then forgotten).
    func rebuildRecompiled(_ statement: OpaquePointer) -> StatementFootprint? {
        if hasUsableOrphans, var entry = known[statement] {
            let rebuilt = orphans.footprint(sql: sqlite3_sql(statement)) { tableInfos[$0] }
            entry.footprint = rebuilt
            entry.recompilations = recompilationCount(statement)
            entry.generation = generation
            known[statement] = entry
            return rebuilt
        }
        if let entry = known.removeValue(forKey: statement) {
            if entry.foreignSQL == nil { hasStaleStatements = true } else { foreignCount -= 1 }
        }
        return nil
    }

    /// A statement that changes the schema runs: what was read of the tables may no longer hold.
    func schemaWillChange() {
        generation &+= 1
        tableInfos.removeAll()
    }

    // MARK: Table information

    /// The tables of `builder` whose information has not been read yet.
    func tablesToRead(for builder: FootprintBuilder) -> [TableKey] {
        builder.tables.filter { tableInfos[$0] == nil && !$0.isInternal }
    }

    /// Marks the start and end of the tracker's own queries: their reports are not the user's.
    func suspend() { suspended += 1 }
    func resume() { suspended -= 1 }

    func setTableInfo(_ info: TableInfo, for key: TableKey) {
        tableInfos[key] = info
    }

    /// Reads what the footprints need to know about a table, through the one PRAGMA reader on the
    /// C handle. The caller suspends the tracker meanwhile (`suspend()`), so that the authorizer
    /// and the trace callback ignore these statements — and calls it outside any access to the
    /// footprints, since SQLite calls the authorizer back while it prepares them. `nil` on any
    /// failure: the table stays unknown, which the footprints treat as conservatively as possible
    /// (every column changed, every row).
    static func readTableInfo(_ key: TableKey, connection handle: OpaquePointer) -> TableInfo? {
        do {
            return try tableInfo(key, in: .handle(handle))
        } catch {
            return nil  // unknown: treated conservatively, as said above
        }
    }

    private static func tableInfo(_ key: TableKey, in connection: SchemaIntrospection.Connection) throws -> TableInfo? {
        guard let object = try SchemaIntrospection.object(named: key.table, schema: key.database, in: connection)
        else { return nil }
        let isVirtual = SchemaIntrospection.virtualModule(object.sql) != nil
        var reportsRowChanges = false
        if object.type == "table" && !isVirtual {
            reportsRowChanges = ["rowid", "oid", "_rowid_"].allSatisfy { name in
                SchemaIntrospection.columnMetadata(table: key.table, column: name, schema: key.database, in: connection)
                    != nil
            }
        }
        var primaryKey: Set<String> = []
        var hasGeneratedColumns = false
        var integerKey: String?
        for column in try SchemaIntrospection.columns(ofTable: key.table, schema: key.database, in: connection) {
            if column.primaryKeyPosition > 0 {
                primaryKey.insert(column.name.asciiLowercased)
                if column.declaredType.uppercased() == "INTEGER" { integerKey = column.name.asciiLowercased }
            }
            if column.hidden == 2 || column.hidden == 3 { hasGeneratedColumns = true }
        }
        // `INTEGER PRIMARY KEY DESC` is not an alias of the rowid: SQLite then keeps an index for
        // the key, which `PRAGMA index_list` reports with origin `pk`.
        var rowIDAlias: String?
        if reportsRowChanges, primaryKey.count == 1, let integerKey {
            let indexes = try SchemaIntrospection.indexes(ofTable: key.table, schema: key.database, in: connection)
            if !indexes.contains(where: { $0.origin == "pk" }) { rowIDAlias = integerKey }
        }
        return TableInfo(
            reportsRowChanges: reportsRowChanges, primaryKey: primaryKey, hasGeneratedColumns: hasGeneratedColumns,
            mentionsReplace: FootprintBuilder.mentionsReplace(object.sql), rowIDAlias: rowIDAlias)
    }
}
