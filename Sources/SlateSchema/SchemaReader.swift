import CSQLite
import Foundation
import Slate

/// Reads the schema of an open database through SQLite itself: `sqlite_schema`, the
/// `table_list`, `table_xinfo`, `index_list`, `index_info` and `foreign_key_list` pragmas,
/// `sqlite3_table_column_metadata`, and the declared types of a view's result columns.
///
/// ```swift
/// let db = try Database(path: "chinook.sqlite", configuration: readOnly)
/// let schema = try SchemaReader.read(from: db)
/// ```
///
/// SQLite's internal tables (`sqlite_sequence`, `sqlite_stat1` …) and the shadow tables of virtual
/// tables are left out. The types of view columns computed by expressions are inferred from the
/// view's SQL (see ``DatabaseSchema/ViewColumn/inferredType``).
public enum SchemaReader {
    /// Reads the schema of the `main` database of `db`.
    ///
    /// - Throws: ``DatabaseError`` when SQLite cannot answer a schema query.
    public static func read(from db: Database) throws -> DatabaseSchema {
        let objects = try db.fetchAll(
            CopiedRow.self, sql: "SELECT type, name, tbl_name, sql FROM main.sqlite_schema ORDER BY name")
            .map { row in
                SchemaObject(
                    type: try row.decode(String.self, at: 0), name: try row.decode(String.self, at: 1),
                    tableName: try row.decode(String.self, at: 2), sql: try row.decode(String?.self, at: 3) ?? "")
            }
        let kinds = try tableKinds(db, objects: objects)

        var tables: [DatabaseSchema.Table] = []
        var virtualTables: [DatabaseSchema.VirtualTable] = []
        var viewObjects: [SchemaObject] = []
        var triggers: [DatabaseSchema.Trigger] = []
        var indexSQL: [String: String] = [:]

        for object in objects where !object.name.lowercased().hasPrefix("sqlite_") {
            switch object.type {
            case "table":
                let kind = kinds[object.name] ?? TableKind(type: "table", isWithoutRowID: false, isStrict: false)
                switch kind.type {
                case "virtual":
                    virtualTables.append(try readVirtualTable(db, object))
                case "shadow":
                    continue
                default:
                    tables.append(try readTable(db, object, kind: kind))
                }
            case "view":
                viewObjects.append(object)
            case "trigger":
                triggers.append(DatabaseSchema.Trigger(name: object.name, tableName: object.tableName, sql: object.sql))
            case "index":
                indexSQL[object.name] = object.sql
            default:
                continue
            }
        }

        // Foreign keys that name no columns reference the parent's primary key.
        for tableIndex in tables.indices {
            for keyIndex in tables[tableIndex].foreignKeys.indices
            where !tables[tableIndex].foreignKeys[keyIndex].namesReferencedColumns {
                let parent = tables[tableIndex].foreignKeys[keyIndex].referencedTable
                let key = tables.first { $0.name.caseInsensitiveEquals(parent) }?.primaryKey ?? []
                tables[tableIndex].foreignKeys[keyIndex].referencedColumns = key
            }
            for index in tables[tableIndex].indexes.indices {
                tables[tableIndex].indexes[index].sql = indexSQL[tables[tableIndex].indexes[index].name]
            }
            tables[tableIndex].triggerNames = triggers
                .filter { $0.tableName.caseInsensitiveEquals(tables[tableIndex].name) }.map(\.name).sorted()
        }

        var schema = DatabaseSchema(
            tables: tables, views: [], virtualTables: virtualTables,
            indexes: tables.flatMap(\.indexes).sorted { $0.name < $1.name }, triggers: triggers)
        schema.views = try readViews(db, viewObjects, schema: schema)
        return schema
    }

    // MARK: Tables

    struct SchemaObject {
        var type: String
        var name: String
        var tableName: String
        var sql: String
    }

    struct TableKind {
        var type: String
        var isWithoutRowID: Bool
        var isStrict: Bool
    }

    /// `PRAGMA table_list` (SQLite 3.37+) tells ordinary, virtual and shadow tables apart and
    /// reports `WITHOUT ROWID` and `STRICT`. Older libraries get the same answers from the SQL.
    static func tableKinds(_ db: Database, objects: [SchemaObject]) throws -> [String: TableKind] {
        var kinds: [String: TableKind] = [:]
        do {
            for row in try db.fetchAll(
                CopiedRow.self, sql: "SELECT name, type, wr, strict FROM pragma_table_list WHERE schema = 'main'")
            {
                kinds[try row.decode(String.self, at: 0)] = TableKind(
                    type: try row.decode(String.self, at: 1), isWithoutRowID: try row.decode(Bool.self, at: 2),
                    isStrict: try row.decode(Bool.self, at: 3))
            }
            return kinds
        } catch {
            // Older SQLite: derive the same facts from the CREATE statements.
            let virtualNames = objects.filter { $0.type == "table" && SQLTokenizer.isCreateVirtualTable($0.sql) }
                .map(\.name)
            for object in objects where object.type == "table" {
                let isVirtual = virtualNames.contains(object.name)
                let isShadow = !isVirtual && virtualNames.contains { object.name.lowercased().hasPrefix($0.lowercased() + "_") }
                let options = SQLTokenizer.tableOptions(object.sql)
                kinds[object.name] = TableKind(
                    type: isVirtual ? "virtual" : isShadow ? "shadow" : "table",
                    isWithoutRowID: options.withoutRowID, isStrict: options.strict)
            }
            return kinds
        }
    }

    static func readTable(_ db: Database, _ object: SchemaObject, kind: TableKind) throws -> DatabaseSchema.Table {
        let indexes = try readIndexes(db, table: object.name)
        var columns = try readColumns(db, table: object.name, includeHidden: false)
        let primaryKey = columns.filter { $0.primaryKeyPosition != nil }
            .sorted { ($0.primaryKeyPosition ?? 0) < ($1.primaryKeyPosition ?? 0) }.map(\.name)

        // An INTEGER PRIMARY KEY of a rowid table is the rowid itself: SQLite makes no index for it.
        // Any other primary key (INT, BIGINT, INTEGER … DESC, WITHOUT ROWID) gets an automatic one.
        let hasPrimaryKeyIndex = indexes.contains { $0.origin == .primaryKey }
        for index in columns.indices {
            let column = columns[index]
            if !kind.isWithoutRowID, primaryKey.count == 1, column.primaryKeyPosition == 1, !hasPrimaryKeyIndex,
                column.declaredType.trimmingCharacters(in: .whitespaces).uppercased() == "INTEGER"
            {
                columns[index].isRowIDAlias = true
            }
            if primaryKey.count == 1 && column.primaryKeyPosition == 1 {
                columns[index].isUnique = true
            }
            if indexes.contains(where: { $0.isUnique && !$0.isPartial && $0.columns.count == 1 && $0.columns[0].caseInsensitiveEquals(column.name) }) {
                columns[index].isUnique = true
            }
            let metadata = columnMetadata(db, table: object.name, column: column.name)
            columns[index].isAutoIncrement = metadata.isAutoIncrement
            columns[index].collation = metadata.collation
        }

        return DatabaseSchema.Table(
            name: object.name, sql: object.sql, isWithoutRowID: kind.isWithoutRowID, isStrict: kind.isStrict,
            columns: columns, primaryKey: primaryKey, foreignKeys: try readForeignKeys(db, table: object.name),
            indexes: indexes)
    }

    /// Columns from `PRAGMA table_xinfo`, which also lists generated and hidden columns.
    static func readColumns(_ db: Database, table: String, includeHidden: Bool) throws -> [DatabaseSchema.Column] {
        try db.fetchAll(
            CopiedRow.self,
            sql: "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?) ORDER BY cid",
            arguments: [table]
        ).compactMap { row -> DatabaseSchema.Column? in
            let hidden = try row.decode(Int.self, at: 5)
            if hidden == 1 && !includeHidden { return nil }
            let primaryKeyPosition = try row.decode(Int.self, at: 4)
            let declaredType = try row.decode(String?.self, at: 1) ?? ""
            return DatabaseSchema.Column(
                name: try row.decode(String.self, at: 0),
                declaredType: declaredType,
                isNotNull: try row.decode(Bool.self, at: 2),
                defaultSQL: try row.decode(String?.self, at: 3),
                generation: hidden == 2 ? .virtual : hidden == 3 ? .stored : .none,
                isHidden: hidden == 1,
                primaryKeyPosition: primaryKeyPosition > 0 ? primaryKeyPosition : nil)
        }
    }

    /// Collation and AUTOINCREMENT from `sqlite3_table_column_metadata`.
    static func columnMetadata(_ db: Database, table: String, column: String) -> (collation: String?, isAutoIncrement: Bool) {
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

    static func readIndexes(_ db: Database, table: String) throws -> [DatabaseSchema.Index] {
        let list = try db.fetchAll(
            CopiedRow.self, sql: "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", arguments: [table])
        var indexes: [DatabaseSchema.Index] = []
        for row in list {
            let name = try row.decode(String.self, at: 0)
            let columns = try db.fetchAll(
                CopiedRow.self, sql: "SELECT cid, name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name]
            ).map { row -> String in
                let cid = try row.decode(Int.self, at: 0)
                if cid == -1 { return "rowid" }
                return try row.decode(String?.self, at: 1) ?? ""
            }
            indexes.append(DatabaseSchema.Index(
                name: name, tableName: table, columns: columns, isUnique: try row.decode(Bool.self, at: 1),
                origin: DatabaseSchema.Index.Origin(rawValue: try row.decode(String.self, at: 2)) ?? .createIndex,
                isPartial: try row.decode(Bool.self, at: 3)))
        }
        return indexes.sorted { $0.name < $1.name }
    }

    /// Foreign keys in declaration order. SQLite numbers them from the last declared one, so the
    /// highest id comes first.
    static func readForeignKeys(_ db: Database, table: String) throws -> [DatabaseSchema.ForeignKey] {
        let rows = try db.fetchAll(
            CopiedRow.self,
            sql: "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq",
            arguments: [table])
        var keys: [DatabaseSchema.ForeignKey] = []
        var currentID: Int?
        for row in rows {
            let id = try row.decode(Int.self, at: 0)
            let from = try row.decode(String.self, at: 2)
            let to = try row.decode(String?.self, at: 3)
            if id != currentID {
                currentID = id
                keys.append(DatabaseSchema.ForeignKey(
                    columns: [], referencedTable: try row.decode(String.self, at: 1), referencedColumns: [],
                    namesReferencedColumns: to != nil,
                    onDelete: .init(pragmaText: try row.decode(String.self, at: 5)),
                    onUpdate: .init(pragmaText: try row.decode(String.self, at: 4))))
            }
            keys[keys.count - 1].columns.append(from)
            if let to { keys[keys.count - 1].referencedColumns.append(to) }
        }
        return keys
    }

    // MARK: Virtual tables

    static func readVirtualTable(_ db: Database, _ object: SchemaObject) throws -> DatabaseSchema.VirtualTable {
        let module = SQLTokenizer.virtualTableModule(object.sql) ?? ""
        // The module may not be available to this connection; then the columns are unknown.
        let columns = (try? readColumns(db, table: object.name, includeHidden: false)) ?? []
        return DatabaseSchema.VirtualTable(name: object.name, module: module, sql: object.sql, columns: columns)
    }

    // MARK: Views

    static func readViews(_ db: Database, _ objects: [SchemaObject], schema: DatabaseSchema) throws -> [DatabaseSchema.View] {
        var views: [DatabaseSchema.View] = []
        for object in objects {
            var view = DatabaseSchema.View(name: object.name, sql: object.sql)
            let statement: Statement
            do {
                statement = try db.prepare(sql: "SELECT * FROM " + object.name.quotedIdentifier)
            } catch let error as DatabaseError {
                throw SchemaError.unusableView(name: object.name, message: error.message)
            }
            for index in 0..<statement.columnCount {
                view.columns.append(DatabaseSchema.ViewColumn(
                    name: statement.columnName(at: index),
                    declaredType: statement.declaredType(at: index),
                    originTable: statement.originTableName(at: index),
                    originColumn: statement.originColumnName(at: index)))
            }
            views.append(view)
        }
        // Views may select from views: infer until nothing changes (bounded by the view count).
        var inference = ViewTypeInference(schema: schema, views: views)
        for _ in 0...views.count {
            if !inference.inferPass() { break }
        }
        return inference.views
    }
}
