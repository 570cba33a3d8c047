import CSQLite
import Foundation
import SlateCore
import SlateQuery

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
            CopiedRow.self, sql: "SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY name"
        )
        .map { row in
            SchemaObject(
                type: try row.decode(String.self, at: 0), name: try row.decode(String.self, at: 1),
                tableName: try row.decode(String.self, at: 2), sql: try row.decode(String?.self, at: 3) ?? "")
        }
        var tables: [TableSchema] = []
        var virtualTables: [TableSchema] = []
        var viewObjects: [SchemaObject] = []
        var triggers: [DatabaseSchema.Trigger] = []

        for object in objects where !object.name.lowercased().hasPrefix("sqlite_") {
            switch object.type {
            case "table":
                let kind = try SchemaIntrospection.tableKind(db, name: object.name, sql: object.sql)
                switch kind {
                case .shadow:
                    continue
                case .virtual:
                    virtualTables.append(try SchemaIntrospection.readTable(db, name: object.name, kind: kind))
                case .table:
                    tables.append(try SchemaIntrospection.readTable(db, name: object.name, kind: kind))
                }
            case "view":
                viewObjects.append(object)
            case "trigger":
                triggers.append(DatabaseSchema.Trigger(name: object.name, tableName: object.tableName, sql: object.sql))
            default:
                continue
            }
        }
        var schema = DatabaseSchema(tables: tables, views: [], virtualTables: virtualTables, triggers: triggers)
        schema.views = try readViews(db, viewObjects, schema: schema)
        return schema
    }

    struct SchemaObject {
        var type: String
        var name: String
        var tableName: String
        var sql: String
    }

    // MARK: Views

    static func readViews(_ db: Database, _ objects: [SchemaObject], schema: DatabaseSchema) throws -> [DatabaseSchema
        .View]
    {
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
                view.columns.append(
                    DatabaseSchema.ViewColumn(
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
