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
        var warnings: [SchemaWarning] = []
        return try read(from: db, warnings: &warnings)
    }

    /// Reads the schema, adding to `warnings` each view that could only be read with
    /// double-quoted string literals accepted, as the sqlite3 shell reads it.
    static func read(from db: Database, warnings: inout [SchemaWarning]) throws -> DatabaseSchema {
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
        schema.views = try readViews(db, viewObjects, schema: schema, warnings: &warnings)
        return schema
    }

    struct SchemaObject {
        var type: String
        var name: String
        var tableName: String
        var sql: String
    }

    // MARK: Views

    static func readViews(
        _ db: Database, _ objects: [SchemaObject], schema: DatabaseSchema, warnings: inout [SchemaWarning]
    ) throws -> [DatabaseSchema.View] {
        var views: [DatabaseSchema.View] = []
        for object in objects {
            var view = DatabaseSchema.View(name: object.name, sql: object.sql)
            let query = "SELECT * FROM " + object.name.quotedIdentifier
            let statement: Statement
            do {
                statement = try db.prepare(sql: query)
            } catch let error as DatabaseError {
                // A view the sqlite3 shell reads, with double-quoted strings: read it so, and warn.
                guard let lenient = try? DoubleQuotedStrings.accepting(on: db, { try db.prepare(sql: query) }) else {
                    throw SchemaError.unusableView(name: object.name, message: error.message)
                }
                warnings.append(SchemaWarning(message: DoubleQuotedStrings.viewWarning(error.message, view: view)))
                statement = lenient
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
        // The types of columns computed by expressions, from the analyser (views may read views).
        return TypeInference.inferringColumnTypes(of: views, in: schema)
    }
}
