import Foundation
import Slate

extension Database {
    /// The schema and rows of the `main` database as text that is the same for the same content:
    /// what a golden file holds.
    ///
    /// ```swift
    /// let expected = try String(contentsOf: goldenFile, encoding: .utf8)
    /// #expect(try db.dump() == expected)
    /// ```
    ///
    /// The text is SQL that rebuilds the database:
    ///
    /// ```sql
    /// CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    /// CREATE INDEX player_on_name ON player(name);
    ///
    /// -- player: 2 rows
    /// INSERT INTO "player" ("id", "name") VALUES (1, 'Ada');
    /// INSERT INTO "player" ("id", "name") VALUES (2, 'Grace');
    /// ```
    ///
    /// - The schema comes first: tables, then indexes, views and triggers, each sorted by name, with
    ///   their SQL as the database stores it. SQLite's own objects (`sqlite_sequence`, automatic
    ///   indexes) and the shadow tables of virtual tables are left out.
    /// - Then the rows of each table, sorted by name. Rows are sorted by every column in turn,
    ///   compared byte by byte (`COLLATE BINARY`), so the order depends on the values alone: not on
    ///   the order of inserts, on rowids, or on a column's collation. Generated and hidden columns
    ///   are left out (their values follow from the others); so are the rows of virtual tables
    ///   (their content lives in other tables).
    /// - Values are SQL literals (``SQLLiteral``).
    ///
    /// - Parameter includingRowIDs: Also write the rowid of each row of a table that has one and
    ///   does not name it (no `INTEGER PRIMARY KEY`), as the first column, and sort those rows by
    ///   rowid: for checks that an operation kept every row where it was (a rebuilt table keeps
    ///   its rowids). Default `false`: the dump depends on the values alone.
    /// - Throws: ``DatabaseError`` when the schema or a table cannot be read.
    public func dump(includingRowIDs: Bool = false) throws -> String {
        let tables = try tableNames()
        let objects = try fetchAll(
            SQL(
                sql: """
                    SELECT type, name, sql FROM main.sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                    ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END,
                      name COLLATE BINARY
                    """)
        ) { row in
            (
                type: try row.decode(String.self, at: 0), name: try row.decode(String.self, at: 1),
                sql: try row.decode(String.self, at: 2)
            )
        }
        var text = ""
        for object in objects where object.type != "table" || tables.contains(object.name) {
            text += object.sql + ";\n"
        }
        for name in tables.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            guard let schema = try tableSchema(named: name), case .table = schema.kind else { continue }
            var columns = schema.columns.filter { !$0.isGenerated && !$0.isHidden }.map(\.name.quotedIdentifier)
            guard !columns.isEmpty else { continue }
            let withRowID = includingRowIDs && !schema.isWithoutRowID && schema.rowIDAlias == nil
            if withRowID { columns.insert("rowid", at: 0) }
            let list = columns.joined(separator: ", ")
            let order =
                withRowID ? "rowid" : (1...columns.count).map { "\($0) COLLATE BINARY" }.joined(separator: ", ")
            let rows = try fetchAll(SQL(sql: "SELECT \(list) FROM main.\(name.quotedIdentifier) ORDER BY \(order)")) {
                row in row.values
            }
            text += "\n-- \(name): \(rows.count) \(rows.count == 1 ? "row" : "rows")\n"
            for row in rows {
                let values = row.map { SQLLiteral($0).text }.joined(separator: ", ")
                text += "INSERT INTO \(name.quotedIdentifier) (\(list)) VALUES (\(values));\n"
            }
        }
        return text
    }
}
