import CSQLite

// The one reader of SQLite's schema pragmas. Everything in Slate that asks SQLite about a table
// (the schema reader of `slate generate`, `Database.tableSchema(named:)`, self-managing tables,
// migrations and drift checks, the region tracker of live queries, the CSV importer) asks through
// these functions, so they all read the same pragmas the same way on every SQLite Slate links
// (SQLCipher's 3.15.2 included: the statement form of the pragmas, which that library has, with
// `table_info` where `table_xinfo` is missing). The query layer builds a `TableSchema` from these
// rows (`SlateQuery/Schema/TableSchema+Reading.swift`).

/// Reads what SQLite says about tables: `sqlite_schema`, the `table_list`, `table_xinfo`,
/// `index_list`, `index_info` and `foreign_key_list` pragmas, and `sqlite3_table_column_metadata`.
package enum SchemaIntrospection {
    /// Where the reader runs its queries.
    package struct Connection {
        fileprivate let handle: OpaquePointer
        /// The rows of `sql` with `arguments` bound. `isFixed` when the text is one of the
        /// reader's fixed texts (its look-ups in `sqlite_schema` of `main` or `temp`, values
        /// bound), which a `Database` keeps prepared.
        fileprivate let rows: (_ sql: String, _ arguments: [String], _ isFixed: Bool) throws -> [[SQLValue]]

        /// Through the connection's own statements, like any other read (traced, and seen by
        /// the region tracker), but kept out of the statement cache: the pragmas name their table
        /// in their text, and would push the application's statements out. The look-ups in
        /// `sqlite_schema`, whose text is fixed, run through statements the connection keeps
        /// with its other fixed statements (``Database/fixedStatement(sql:)``), finalized when it
        /// closes; SQLite prepares them again by itself after a schema change.
        package static func database(_ db: Database) -> Connection {
            Connection(handle: db.handle) { sql, arguments, isFixed in
                let statement = isFixed ? try db.fixedStatement(sql: sql) : try db.prepare(sql: sql)
                // A kept statement is left reset, so that it holds no read transaction open.
                defer { if isFixed { statement.resetQuietly() } }
                if !arguments.isEmpty { try statement.bind(StatementArguments(arguments)) }
                return try statement.collectRows { row in
                    try (0..<row.count).map { try row.decode(SQLValue.self, at: $0) }
                }
            }
        }

        /// Directly on the C handle, for code that runs while Slate prepares one of its own
        /// statements (the region tracker), where Slate's statement machinery must not run.
        package static func handle(_ handle: OpaquePointer) -> Connection {
            Connection(handle: handle) { sql, arguments, _ in try rawRows(handle, sql: sql, arguments: arguments) }
        }
    }

    // Why the pragmas keep their statement form, `PRAGMA "main".table_xinfo("t")`, with the table
    // quoted in the text and a statement prepared per read, rather than the table-valued form
    // `SELECT … FROM pragma_table_xinfo(?1, ?2)` prepared once and reused: the table-valued form
    // prepares that same `PRAGMA` statement inside SQLite on every run (the pragma virtual table's
    // `xFilter`), and its rows then pass through the virtual table. Measured with callgrind on the
    // 50 tables of `schema-check-50` (SQLite 3.40.1, C API, `Benchmarks/pragma-forms`,
    // instructions a read): `table_xinfo` prepared per read 60,400, table-valued and reused
    // 101,200; `index_list` 21,200 against 35,300; `index_info` 17,500 against 30,200. What a kept
    // statement does save is the compilation of a `SELECT` on `sqlite_schema`: an index's
    // statement by name, 149,000 prepared per read against 111,300 reused (both scan the table,
    // which has no index).

    /// Whether `schema` is one whose fixed look-ups a `Database` keeps prepared: `main` and
    /// `temp`, a bounded set (attached databases come and go under names the application picks).
    private static func keepsLookups(in schema: String) -> Bool {
        schema == "main" || schema == "temp"
    }

    /// A table or view of `sqlite_schema`.
    package struct SchemaObject: Sendable, Hashable {
        /// `table` or `view`.
        package var type: String
        /// The name as SQLite stores it.
        package var name: String
        /// The `CREATE` statement (empty for SQLite's internal tables).
        package var sql: String
    }

    /// The table or view called `name` in `schema`, compared as SQLite compares names (ASCII
    /// letters without regard to case), or `nil`.
    package static func object(named name: String, schema: String = "main", in connection: Connection) throws
        -> SchemaObject?
    {
        let rows = try connection.rows(
            "SELECT type, name, sql FROM \(schema.quotedIdentifier).sqlite_master "
                + "WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE",
            [name], keepsLookups(in: schema))
        guard let row = rows.first else { return nil }
        return SchemaObject(type: text(row, 0) ?? "", name: text(row, 1) ?? name, sql: text(row, 2) ?? "")
    }

    /// One column, as `PRAGMA table_xinfo` (or `table_info`) reports it.
    package struct Column: Sendable, Hashable {
        package var name: String
        /// The declared type, `""` when none.
        package var declaredType: String
        package var isNotNull: Bool
        /// The `DEFAULT` expression as written.
        package var defaultSQL: String?
        /// The column's position in the primary key, from 1; 0 when it is not part of it.
        package var primaryKeyPosition: Int
        /// 0 for an ordinary column, 1 for a hidden column of a virtual table, 2 for a virtual
        /// generated column, 3 for a stored one (always 0 where only `table_info` exists).
        package var hidden: Int
    }

    /// The columns of `table`, in order: `PRAGMA table_xinfo` (SQLite 3.26+, which also lists
    /// generated and hidden columns), else `PRAGMA table_info`. With `schema` `nil`, the table is
    /// found as an unqualified name in a statement finds it (`temp`, then `main`, then attached
    /// databases).
    package static func columns(ofTable table: String, schema: String? = "main", in connection: Connection) throws
        -> [Column]
    {
        let pragma = sqlite3_libversion_number() >= 3_026_000 ? "table_xinfo" : "table_info"
        let qualifier = schema.map { "\($0.quotedIdentifier)." } ?? ""
        let rows = try connection.rows("PRAGMA \(qualifier)\(pragma)(\(table.quotedIdentifier))", [], false)
        return rows.map { row in
            Column(
                name: text(row, 1) ?? "", declaredType: text(row, 2) ?? "", isNotNull: integer(row, 3) != 0,
                defaultSQL: text(row, 4), primaryKeyPosition: Int(integer(row, 5)),
                hidden: row.count > 6 ? Int(integer(row, 6)) : 0)
        }
    }

    /// What `PRAGMA table_list` says of a table.
    package struct TableListEntry: Sendable, Hashable {
        /// The name as SQLite stores it.
        package var name: String
        /// `table`, `view`, `virtual` or `shadow`.
        package var type: String
        package var isWithoutRowID: Bool
        package var isStrict: Bool
    }

    /// Whether the library has `PRAGMA table_list` (3.37).
    package static var hasTableList: Bool { sqlite3_libversion_number() >= 3_037_000 }

    /// The `PRAGMA table_list` entry of table or view `table` (compared as SQLite compares names),
    /// or `nil` when there is none or the library is older than the pragma (3.37). The schema
    /// table itself, which the pragma lists under `sqlite_master` and its other names, is none:
    /// it is not a row of `sqlite_schema`.
    package static func tableListEntry(ofTable table: String, schema: String = "main", in connection: Connection)
        throws -> TableListEntry?
    {
        guard hasTableList else { return nil }
        let rows = try connection.rows(
            "PRAGMA \(schema.quotedIdentifier).table_list(\(table.quotedIdentifier))", [], false)
        // Columns: schema, name, type, ncol, wr, strict.
        guard let row = rows.first(where: { text($0, 0) == schema }) ?? rows.first, let name = text(row, 1) else {
            return nil
        }
        if ["sqlite_schema", "sqlite_temp_schema", "sqlite_master", "sqlite_temp_master"].contains(name.asciiLowercased)
        {
            return nil
        }
        return TableListEntry(
            name: name, type: text(row, 2) ?? "", isWithoutRowID: integer(row, 4) != 0,
            isStrict: integer(row, 5) != 0)
    }

    /// One entry of `PRAGMA index_list`.
    package struct Index: Sendable, Hashable {
        package var name: String
        package var isUnique: Bool
        /// `c` for `CREATE INDEX`, `u` for a `UNIQUE` constraint, `pk` for the primary key.
        package var origin: String
        package var isPartial: Bool
    }

    /// The indexes of `table`, the most recently created first. With `schema` `nil`, the table is
    /// found as an unqualified name in a statement finds it.
    package static func indexes(ofTable table: String, schema: String? = "main", in connection: Connection) throws
        -> [Index]
    {
        let qualifier = schema.map { "\($0.quotedIdentifier)." } ?? ""
        return try connection.rows("PRAGMA \(qualifier)index_list(\(table.quotedIdentifier))", [], false).map { row in
            Index(
                name: text(row, 1) ?? "", isUnique: integer(row, 2) != 0, origin: text(row, 3) ?? "c",
                isPartial: integer(row, 4) != 0)
        }
    }

    /// The columns of index `name`, in order; `rowid` for the rowid, `""` for an expression.
    package static func indexColumns(ofIndex name: String, schema: String? = "main", in connection: Connection)
        throws -> [String]
    {
        let qualifier = schema.map { "\($0.quotedIdentifier)." } ?? ""
        return try connection.rows("PRAGMA \(qualifier)index_info(\(name.quotedIdentifier))", [], false).map { row in
            // Columns: seqno, cid, name; rows in seqno order.
            integer(row, 1) == -1 ? "rowid" : text(row, 2) ?? ""
        }
    }

    /// The `CREATE INDEX` statement of index `name`, or `nil` for an automatic index.
    package static func indexSQL(named name: String, schema: String = "main", in connection: Connection) throws
        -> String?
    {
        try connection.rows(
            "SELECT sql FROM \(schema.quotedIdentifier).sqlite_master WHERE type = 'index' AND name = ?", [name],
            keepsLookups(in: schema)
        ).first.flatMap { text($0, 0) }
    }

    /// The `CREATE INDEX` statements of the indexes of table `table`, named as SQLite stores it
    /// (compared exactly), by index name as stored; automatic indexes, which have none, are left
    /// out. One look-up in `sqlite_schema` for all of them. (The exact comparison, first, costs a
    /// third less than `type` first and the name without regard to case: 87,200 instructions
    /// against 125,300 on the 150 rows of `schema-check-50`.)
    package static func indexSQLs(ofTable table: String, schema: String = "main", in connection: Connection) throws
        -> [String: String]
    {
        let rows = try connection.rows(
            "SELECT name, sql FROM \(schema.quotedIdentifier).sqlite_master "
                + "WHERE tbl_name = ? AND type = 'index' AND sql IS NOT NULL",
            [table], keepsLookups(in: schema))
        var statements: [String: String] = [:]
        for row in rows {
            if let name = text(row, 0), let sql = text(row, 1) { statements[name] = sql }
        }
        return statements
    }

    /// One row of `PRAGMA foreign_key_list`: one column of one foreign key.
    package struct ForeignKeyColumn: Sendable, Hashable {
        /// The key's number: SQLite numbers keys from the last declared one.
        package var id: Int
        package var referencedTable: String
        package var column: String
        /// `nil` when the key references the other table's primary key implicitly.
        package var referencedColumn: String?
        package var onUpdate: String
        package var onDelete: String
    }

    /// The foreign key columns of `table`, key by key in declaration order (the highest id first),
    /// each key's columns in order.
    package static func foreignKeyColumns(ofTable table: String, schema: String = "main", in connection: Connection)
        throws -> [ForeignKeyColumn]
    {
        // Columns: id, seq, table, from, to, on_update, on_delete, match.
        let rows = try connection.rows(
            "PRAGMA \(schema.quotedIdentifier).foreign_key_list(\(table.quotedIdentifier))", [], false)
        return rows.map { row in
            (
                seq: integer(row, 1),
                key: ForeignKeyColumn(
                    id: Int(integer(row, 0)), referencedTable: text(row, 2) ?? "", column: text(row, 3) ?? "",
                    referencedColumn: text(row, 4), onUpdate: text(row, 5) ?? "NO ACTION",
                    onDelete: text(row, 6) ?? "NO ACTION")
            )
        }
        .sorted { ($0.key.id, $1.seq) > ($1.key.id, $0.seq) }
        .map(\.key)
    }

    /// What `sqlite3_table_column_metadata` says of a column, or `nil` when there is no such
    /// column (the rowid exists under its three names in every rowid table).
    package struct ColumnMetadata: Sendable, Hashable {
        /// The collation, `nil` for `BINARY`.
        package var collation: String?
        package var isNotNull: Bool
        package var isPrimaryKey: Bool
        package var isAutoIncrement: Bool
    }

    package static func columnMetadata(
        table: String, column: String, schema: String = "main", in connection: Connection
    ) -> ColumnMetadata? {
        var declaredType: UnsafePointer<CChar>?
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0
        var primaryKey: Int32 = 0
        var autoIncrement: Int32 = 0
        // `withCString` lends each string's own bytes; passing the strings themselves made an
        // array of each (`utf8CString`): 1,400 instructions a column.
        let code = schema.withCString { schema in
            table.withCString { table in
                column.withCString { column in
                    sqlite3_table_column_metadata(
                        connection.handle, schema, table, column, &declaredType, &collation, &notNull, &primaryKey,
                        &autoIncrement)
                }
            }
        }
        guard code == SQLITE_OK else { return nil }
        // Most columns are `BINARY`: compared in C, without making a string of it.
        let name = collation.flatMap { sqlite3_stricmp($0, "BINARY") == 0 ? nil : String(cString: $0) }
        return ColumnMetadata(
            collation: name, isNotNull: notNull != 0, isPrimaryKey: primaryKey != 0,
            isAutoIncrement: autoIncrement != 0)
    }

    /// The module and arguments of `CREATE VIRTUAL TABLE … USING module(arguments)`, or `nil` for
    /// other statements.
    package static func virtualModule(_ sql: String) -> (module: String, arguments: String)? {
        var lexer = SQLLexer(sql)
        // The first three words only: reading the whole statement costs as much as reading the table.
        guard let create = lexer.next(), lexer.isKeyword(create, "CREATE"), let virtual = lexer.next(),
            lexer.isKeyword(virtual, "VIRTUAL"), let table = lexer.next(), lexer.isKeyword(table, "TABLE")
        else { return nil }
        var tokens: [SQLLexer.Token] = []
        while let token = lexer.next() { tokens.append(token) }
        guard let using = tokens.firstIndex(where: { lexer.isKeyword($0, "USING") }), using + 1 < tokens.count else {
            return nil
        }
        let module = lexer.value(of: tokens[using + 1]).lowercased()
        guard using + 2 < tokens.count, lexer.isSymbol(tokens[using + 2], "("),
            let close = tokens.lastIndex(where: { lexer.isSymbol($0, ")") }), close > using + 2
        else { return (module, "") }
        var arguments = lexer.bytes[tokens[using + 2].end..<tokens[close].start]
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while let first = arguments.first, isSpace(first) { arguments = arguments.dropFirst() }
        while let last = arguments.last, isSpace(last) { arguments = arguments.dropLast() }
        return (module, String(decoding: arguments, as: UTF8.self))
    }

    // MARK: Rows

    private static func text(_ row: [SQLValue], _ index: Int) -> String? {
        guard index < row.count else { return nil }
        switch row[index] {
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .null, .blob: return nil
        }
    }

    private static func integer(_ row: [SQLValue], _ index: Int) -> Int64 {
        guard index < row.count else { return 0 }
        switch row[index] {
        case .integer(let value): return value
        case .text(let text): return Int64(text) ?? 0
        default: return 0
        }
    }

    /// Runs `sql` on the C handle and returns its rows.
    private static func rawRows(_ handle: OpaquePointer, sql: String, arguments: [String]) throws -> [[SQLValue]] {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK, let statement else { throw DatabaseError.lastError(of: handle, code: code, sql: sql) }
        for (index, argument) in arguments.enumerated() {
            let bound = sqlite3_bind_text(statement, Int32(index + 1), argument, -1, slate_sqlite_transient())
            guard bound == SQLITE_OK else { throw DatabaseError.lastError(of: handle, code: bound, sql: sql) }
        }
        let columnCount = sqlite3_column_count(statement)
        var rows: [[SQLValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw DatabaseError.lastError(of: handle, code: step, sql: sql) }
            rows.append(
                (0..<columnCount).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
                    case SQLITE_NULL: return .null
                    default: return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                    }
                })
        }
    }
}
