import CSQLite
import Foundation
import SlateConcurrency
import SlateCore

// Reads a table's schema from a live database through SQLite itself: `sqlite_schema`, the
// `table_list`, `table_xinfo`, `index_list`, `index_info` and `foreign_key_list` pragmas, and
// `sqlite3_table_column_metadata`. The one reader: self-managing tables, migrations, drift checks
// and `SlateSchema` all use it.

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
        guard
            let object = try fetchOne(
                CopiedRow.self,
                "SELECT type, name, sql FROM main.sqlite_master WHERE type IN ('table', 'view') AND name = \(name) COLLATE NOCASE"
            )
        else { return nil }
        let type: String = try object.decode(at: 0)
        let actualName: String = try object.decode(at: 1)
        let sql: String = try object.decode(String?.self, at: 2) ?? ""
        if type == "view" { return try viewSchema(named: actualName) }
        let kind = try SchemaIntrospection.tableKind(self, name: actualName, sql: sql)
        return try SchemaIntrospection.readTable(self, name: actualName, kind: kind)
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
package enum SchemaIntrospection {
    /// What `PRAGMA table_list` says of a table.
    package enum TableKind {
        case table(isWithoutRowID: Bool, isStrict: Bool)
        case virtual(module: String, arguments: String)
        case shadow
    }

    /// The kind of table `name`: `PRAGMA table_list` on SQLite 3.37+, else from its SQL.
    package static func tableKind(_ db: Database, name: String, sql: String) throws -> TableKind {
        let virtual = virtualModule(sql)
        if sqlite3_libversion_number() >= 3_037_000,
            let row = try db.fetchOne(
                CopiedRow.self, "SELECT type, wr, strict FROM pragma_table_list(\(name)) WHERE schema = 'main'")
        {
            switch try row.decode(String.self, at: 0) {
            case "virtual": return .virtual(module: virtual?.module ?? "", arguments: virtual?.arguments ?? "")
            case "shadow": return .shadow
            default:
                return .table(
                    isWithoutRowID: try row.decode(Bool.self, at: 1), isStrict: try row.decode(Bool.self, at: 2))
            }
        }
        if let virtual { return .virtual(module: virtual.module, arguments: virtual.arguments) }
        let tail = sql.uppercased().split(separator: ")").last.map(String.init) ?? ""
        let words = tail.split(whereSeparator: { !$0.isLetter }).map(String.init)
        return .table(
            isWithoutRowID: words.contains("WITHOUT") && words.contains("ROWID"), isStrict: words.contains("STRICT"))
    }

    /// The module and arguments of `CREATE VIRTUAL TABLE … USING module(arguments)`, or `nil` for
    /// other statements.
    package static func virtualModule(_ sql: String) -> (module: String, arguments: String)? {
        // The first three words only: splitting the whole statement costs as much as reading the table.
        let words = sql.split(maxSplits: 3, whereSeparator: \.isWhitespace).prefix(3).map { $0.uppercased() }
        guard words == ["CREATE", "VIRTUAL", "TABLE"], let using = sql.range(of: "USING", options: .caseInsensitive)
        else {
            return nil
        }
        let rest = String(sql[using.upperBound...]).trimmingSQLSpace
        guard let open = rest.firstIndex(of: "(") else {
            return (rest.lowercased(), "")
        }
        let module = String(rest[..<open]).trimmingSQLSpace.lowercased()
        var arguments = String(rest[rest.index(after: open)...])
        if let close = arguments.lastIndex(of: ")") { arguments = String(arguments[..<close]) }
        return (module, arguments.trimmingSQLSpace)
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
                let metadata = columnMetadata(db, table: name, column: columns[index].name)
                columns[index].isAutoIncrement = metadata.isAutoIncrement
                columns[index].collation = metadata.collation
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

    /// Columns from `PRAGMA table_xinfo` (SQLite 3.26+, which also lists generated and hidden
    /// columns), else `PRAGMA table_info`.
    static func readColumns(_ db: Database, table: String) throws -> [TableSchema.Column] {
        let rows: [CopiedRow]
        if sqlite3_libversion_number() >= 3_026_000 {
            rows = try db.fetchAll(
                CopiedRow.self,
                "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(\(table)) ORDER BY cid")
        } else {
            rows = try db.fetchAll(
                CopiedRow.self,
                "SELECT name, type, \"notnull\", dflt_value, pk, 0 FROM pragma_table_info(\(table)) ORDER BY cid")
        }
        return try rows.map { row in
            let hidden = try row.decode(Int.self, at: 5)
            let primaryKeyPosition = try row.decode(Int.self, at: 4)
            return TableSchema.Column(
                name: try row.decode(String.self, at: 0), type: try row.decode(String?.self, at: 1) ?? "",
                isNotNull: try row.decode(Bool.self, at: 2),
                primaryKeyPosition: primaryKeyPosition > 0 ? primaryKeyPosition : nil,
                defaultSQL: try row.decode(String?.self, at: 3),
                generation: hidden == 2 ? .virtual : hidden == 3 ? .stored : .none, isHidden: hidden == 1)
        }
    }

    /// Collation and `AUTOINCREMENT` from `sqlite3_table_column_metadata`.
    static func columnMetadata(_ db: Database, table: String, column: String) -> (
        collation: String?, isAutoIncrement: Bool
    ) {
        var declaredType: UnsafePointer<CChar>?
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0
        var primaryKey: Int32 = 0
        var autoIncrement: Int32 = 0
        let code = sqlite3_table_column_metadata(
            db.handle, "main", table, column, &declaredType, &collation, &notNull, &primaryKey, &autoIncrement)
        guard code == SQLITE_OK else { return (nil, false) }
        let name = collation.map { String(cString: $0) }
        return (name.flatMap { $0.uppercased() == "BINARY" ? nil : $0 }, autoIncrement != 0)
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

    static func readIndexList(_ db: Database, table: String) throws -> [IndexEntry] {
        let list = try db.fetchAll(
            CopiedRow.self, "SELECT name, \"unique\", origin, partial FROM pragma_index_list(\(table))")
        var entries: [IndexEntry] = []
        for row in list {
            let name: String = try row.decode(at: 0)
            let columns = try db.fetchAll(
                CopiedRow.self, "SELECT cid, name FROM pragma_index_info(\(name)) ORDER BY seqno"
            )
            .map { row -> String in
                if try row.decode(Int.self, at: 0) == -1 { return "rowid" }
                return try row.decode(String?.self, at: 1) ?? ""
            }
            let sql = try db.fetchOne(
                String.self, "SELECT sql FROM main.sqlite_master WHERE type = 'index' AND name = \(name)")
            entries.append(
                IndexEntry(
                    name: name, columns: columns, isUnique: try row.decode(Bool.self, at: 1),
                    origin: try row.decode(String.self, at: 2),
                    isPartial: try row.decode(Bool.self, at: 3), sql: sql))
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The text after the last top-level `WHERE` of a `CREATE INDEX` statement.
    static func partialIndexCondition(_ sql: String) -> String? {
        var depth = 0
        var quote: Character?
        var lastWhere: String.Index?
        var index = sql.startIndex
        while index < sql.endIndex {
            let character = sql[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
            } else if character == "[" {
                quote = "]"
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
            } else if depth == 0, sql[index...].prefix(5).uppercased() == "WHERE" {
                let before = index == sql.startIndex ? " " : sql[sql.index(before: index)]
                let afterIndex = sql.index(index, offsetBy: 5, limitedBy: sql.endIndex) ?? sql.endIndex
                let after = afterIndex == sql.endIndex ? " " : sql[afterIndex]
                if !before.isLetter && !before.isNumber && !after.isLetter && !after.isNumber { lastWhere = afterIndex }
            }
            index = sql.index(after: index)
        }
        return lastWhere.map { String(sql[$0...]).trimmingSQLSpace }
    }

    /// Foreign keys in declaration order. SQLite numbers them from the last declared one, so the
    /// highest id comes first.
    static func readForeignKeys(_ db: Database, table: String) throws -> [TableSchema.ForeignKey] {
        let rows = try db.fetchAll(
            CopiedRow.self,
            "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(\(table)) ORDER BY id DESC, seq"
        )
        var keys: [TableSchema.ForeignKey] = []
        var currentID: Int?
        for row in rows {
            let id = try row.decode(Int.self, at: 0)
            let from = try row.decode(String.self, at: 2)
            let to = try row.decode(String?.self, at: 3)
            if id != currentID {
                currentID = id
                keys.append(
                    TableSchema.ForeignKey(
                        columns: [], referencedTable: try row.decode(String.self, at: 1), referencedColumns: [],
                        onDelete: .init(pragmaText: try row.decode(String.self, at: 5)),
                        onUpdate: .init(pragmaText: try row.decode(String.self, at: 4))))
            }
            keys[keys.count - 1].columns.append(from)
            if let to { keys[keys.count - 1].referencedColumns.append(to) }
        }
        return keys
    }
}
