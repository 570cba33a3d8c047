import CSQLite
import Foundation
import SlateConcurrency
import SlateCore

// A table's schema from a live database, as a `TableSchema`, built from what the one PRAGMA reader
// (`SchemaIntrospection`, in SlateCore) reads: `sqlite_schema`, the `table_list`, `table_xinfo`,
// `index_list`, `index_info` and `foreign_key_list` pragmas, and `sqlite3_table_column_metadata`.
// Self-managing tables, migrations, drift checks and `SlateSchema` all read tables this way.

extension Database {
    /// The schema of table (or view, or virtual table) `name` in the `main` database, compared
    /// case-insensitively, or `nil` when there is none.
    ///
    /// ```swift
    /// let album = try db.tableSchema(named: "Album")
    /// print(album?.columns.map(\.name), album?.primaryKey, album?.foreignKeys)
    /// ```
    ///
    /// A read never changes anything.
    public func tableSchema(named name: String) throws -> TableSchema? {
        let connection = SchemaIntrospection.Connection.database(self)
        guard SchemaIntrospection.hasTableList else {
            guard let object = try SchemaIntrospection.object(named: name, in: connection) else { return nil }
            if object.type == "view" { return try viewSchema(named: object.name) }
            let kind = try SchemaIntrospection.tableKind(self, name: object.name, sql: object.sql)
            return try SchemaIntrospection.readTable(self, name: object.name, kind: kind)
        }
        // `PRAGMA table_list` finds the table, its stored name and kind without reading
        // `sqlite_schema` (a scan: it has no index); only a virtual table's module and arguments
        // need its `CREATE` statement from there.
        guard let entry = try SchemaIntrospection.tableListEntry(ofTable: name, in: connection) else { return nil }
        if entry.type == "view" { return try viewSchema(named: entry.name) }
        let sql = entry.type == "virtual" ? try SchemaIntrospection.object(named: entry.name, in: connection)?.sql : nil
        let kind = SchemaIntrospection.tableKind(entry, sql: sql ?? "")
        return try SchemaIntrospection.readTable(self, name: entry.name, kind: kind)
    }

    /// The names of the `main` database's tables, sorted, without SQLite's internal `sqlite_*`
    /// tables and the shadow tables of virtual tables.
    public func tableNames() throws -> [String] {
        let objects = try fetchAll(
            CopiedRow.self,
            "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
        )
        var names: [String] = []
        for object in objects {
            let name: String = try object.decode(at: 0)
            let sql: String = try object.decode(String?.self, at: 1) ?? ""
            if case .shadow = try SchemaIntrospection.tableKind(self, name: name, sql: sql) { continue }
            names.append(name)
        }
        return names
    }

    /// A view's result columns, with the declared types SQLite reports for columns taken straight
    /// from tables.
    private func viewSchema(named name: String) throws -> TableSchema {
        let statement = try prepare(sql: "SELECT * FROM " + name.quotedIdentifier)
        let columns = (0..<statement.columnCount).map { index in
            TableSchema.Column(name: statement.columnName(at: index), type: statement.declaredType(at: index) ?? "")
        }
        return TableSchema(name: name, kind: .view, columns: columns)
    }
}

/// The pieces of schema reading, shared with `SlateSchema`'s whole-database reader.
extension SchemaIntrospection {
    /// What `PRAGMA table_list` says of a table.
    package enum TableKind {
        case table(isWithoutRowID: Bool, isStrict: Bool)
        case virtual(module: String, arguments: String)
        case shadow
    }

    /// The kind of table `name`: `PRAGMA table_list` on SQLite 3.37+, else from its SQL.
    package static func tableKind(_ db: Database, name: String, sql: String) throws -> TableKind {
        if let entry = try tableListEntry(ofTable: name, in: .database(db)) { return tableKind(entry, sql: sql) }
        if let virtual = virtualModule(sql) { return .virtual(module: virtual.module, arguments: virtual.arguments) }
        // `WITHOUT ROWID` and `STRICT` follow the column list's closing parenthesis.
        var lexer = SQLLexer(sql)
        var options: [SQLLexer.Token] = []
        while let token = lexer.next() {
            if lexer.isSymbol(token, ")") { options = [] } else { options.append(token) }
        }
        return .table(
            isWithoutRowID: options.contains { lexer.isKeyword($0, "WITHOUT") }
                && options.contains { lexer.isKeyword($0, "ROWID") },
            isStrict: options.contains { lexer.isKeyword($0, "STRICT") })
    }

    /// The kind `entry` of `PRAGMA table_list` says, with a virtual table's module and arguments
    /// from its `CREATE` statement `sql`.
    package static func tableKind(_ entry: TableListEntry, sql: String) -> TableKind {
        switch entry.type {
        case "virtual":
            let virtual = virtualModule(sql)
            return .virtual(module: virtual?.module ?? "", arguments: virtual?.arguments ?? "")
        case "shadow": return .shadow
        default: return .table(isWithoutRowID: entry.isWithoutRowID, isStrict: entry.isStrict)
        }
    }

    /// Reads table `name` of kind `kind`.
    package static func readTable(_ db: Database, name: String, kind: TableKind) throws -> TableSchema {
        let isVirtual: Bool
        let schemaKind: TableSchema.Kind
        var isWithoutRowID = false
        var isStrict = false
        switch kind {
        case .table(let withoutRowID, let strict):
            isVirtual = false
            schemaKind = .table
            isWithoutRowID = withoutRowID
            isStrict = strict
        case .virtual(let module, let arguments):
            isVirtual = true
            schemaKind = .virtual(module: module, arguments: arguments)
        case .shadow:
            isVirtual = false
            schemaKind = .table
        }
        var columns: [TableSchema.Column]
        do {
            columns = try readColumns(db, table: name)
        } catch let error as DatabaseError where isVirtual && error.message.contains("no such module") {
            // A virtual table whose module this connection lacks has no columns it can describe.
            columns = []
        }
        let indexList = isVirtual ? [] : try readIndexList(db, table: name)
        var uniqueConstraints: [[String]] = []
        var indexes: [TableSchema.Index] = []
        var hasPrimaryKeyIndex = false
        for entry in indexList {
            switch entry.origin {
            case "pk":
                hasPrimaryKeyIndex = true
            case "u":
                if entry.columns.count == 1,
                    let position = columns.firstIndex(where: { $0.name.equalsIdentifier(entry.columns[0]) })
                {
                    columns[position].isUnique = true
                } else {
                    uniqueConstraints.append(entry.columns)
                }
            default:
                var index = TableSchema.Index(name: entry.name, columns: entry.columns, isUnique: entry.isUnique)
                index.isPartial = entry.isPartial
                index.sql = entry.sql
                if entry.isPartial, let sql = entry.sql { index.condition = partialIndexCondition(sql) }
                indexes.append(index)
            }
        }
        if !isVirtual {
            for index in columns.indices {
                let metadata = columnMetadata(table: name, column: columns[index].name, in: .database(db))
                columns[index].isAutoIncrement = metadata?.isAutoIncrement ?? false
                columns[index].collation = metadata?.collation
            }
        }
        var schema = TableSchema(
            name: name, kind: schemaKind, columns: columns,
            foreignKeys: isVirtual ? [] : try readForeignKeys(db, table: name), indexes: indexes,
            uniqueConstraints: uniqueConstraints, isWithoutRowID: isWithoutRowID, isStrict: isStrict)
        // `INTEGER PRIMARY KEY DESC` is not a rowid alias: SQLite makes an index for it.
        if hasPrimaryKeyIndex, let alias = schema.columns.firstIndex(where: \.isRowIDAlias) {
            schema.columns[alias].isPrimaryKeyDescending = true
            schema.markRowIDAlias()
        }
        return schema
    }

    /// The columns of `table`, with their collation and `AUTOINCREMENT`.
    static func readColumns(_ db: Database, table: String) throws -> [TableSchema.Column] {
        try columns(ofTable: table, in: .database(db)).map { column in
            TableSchema.Column(
                name: column.name, type: column.declaredType, isNotNull: column.isNotNull,
                primaryKeyPosition: column.primaryKeyPosition > 0 ? column.primaryKeyPosition : nil,
                defaultSQL: column.defaultSQL,
                generation: column.hidden == 2 ? .virtual : column.hidden == 3 ? .stored : .none,
                isHidden: column.hidden == 1)
        }
    }

    /// One entry of `PRAGMA index_list`, with its columns and SQL.
    struct IndexEntry {
        var name: String
        var columns: [String]
        var isUnique: Bool
        var origin: String
        var isPartial: Bool
        var sql: String?
    }

    /// The indexes of `table`, with the `CREATE INDEX` statements of the created ones (those of
    /// `UNIQUE` and `PRIMARY KEY` constraints have none), read in one look-up for the table.
    static func readIndexList(_ db: Database, table: String) throws -> [IndexEntry] {
        let connection = Connection.database(db)
        let list = try indexes(ofTable: table, in: connection)
        let isCreated = { (index: Index) in index.origin != "u" && index.origin != "pk" }
        let statements = list.contains(where: isCreated) ? try indexSQLs(ofTable: table, in: connection) : [:]
        return try list.map { index in
            // By its own name when `table` is not spelled as stored (the look-up compares exactly).
            let sql = isCreated(index) ? try statements[index.name] ?? indexSQL(named: index.name, in: connection) : nil
            return IndexEntry(
                name: index.name, columns: try indexColumns(ofIndex: index.name, in: connection),
                isUnique: index.isUnique, origin: index.origin, isPartial: index.isPartial, sql: sql)
        }
        .sorted { $0.name < $1.name }
    }

    /// The text after the last top-level `WHERE` of a `CREATE INDEX` statement.
    static func partialIndexCondition(_ sql: String) -> String? {
        var lexer = SQLLexer(sql)
        var depth = 0
        var conditionStart: Int?
        while let token = lexer.next() {
            if lexer.isSymbol(token, "(") {
                depth += 1
            } else if lexer.isSymbol(token, ")") {
                depth -= 1
            } else if depth == 0, lexer.isKeyword(token, "WHERE") {
                conditionStart = token.end
            }
        }
        return conditionStart.map { String(decoding: lexer.bytes[$0...], as: UTF8.self).trimmingSQLSpace }
    }

    /// Foreign keys in declaration order. SQLite numbers them from the last declared one, so the
    /// highest id comes first.
    static func readForeignKeys(_ db: Database, table: String) throws -> [TableSchema.ForeignKey] {
        var keys: [TableSchema.ForeignKey] = []
        var currentID: Int?
        for row in try foreignKeyColumns(ofTable: table, in: .database(db)) {
            if row.id != currentID {
                currentID = row.id
                keys.append(
                    TableSchema.ForeignKey(
                        columns: [], referencedTable: row.referencedTable, referencedColumns: [],
                        onDelete: .init(pragmaText: row.onDelete), onUpdate: .init(pragmaText: row.onUpdate)))
            }
            keys[keys.count - 1].columns.append(row.column)
            if let referenced = row.referencedColumn { keys[keys.count - 1].referencedColumns.append(referenced) }
        }
        return keys
    }
}
