import Foundation

/// A table as it is in the database, read through SQLite's schema pragmas: what migrations compare
/// a ``TableDefinition`` with.
struct ExistingTable {
    struct Column {
        var name: String
        var type: String
        var isNotNull: Bool
        var defaultSQL: String?
        /// 1-based position in the primary key, 0 when not part of it.
        var primaryKeyPosition: Int
        /// Generated or hidden columns are not copied.
        var isGenerated: Bool
    }

    struct ForeignKey {
        var table: String
        var from: [String]
        var to: [String?]
        var onUpdate: String
        var onDelete: String
    }

    struct SchemaObject {
        var type: String
        var name: String
        var sql: String
        /// For indexes: the indexed column names (`nil` for an expression).
        var indexColumns: [String?]
    }

    var name: String
    var sql: String
    var columns: [Column]
    var foreignKeys: [ForeignKey]
    /// Lowercased names of columns with a single-column `UNIQUE` constraint.
    var uniqueColumns: Set<String>
    var isWithoutRowID: Bool
    var hasAutoIncrement: Bool
    /// Indexes with SQL text (not the automatic ones) and triggers of the table.
    var objects: [SchemaObject]

    var copiedColumns: [Column] { columns.filter { !$0.isGenerated } }

    func column(named name: String) -> Column? {
        columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// A SQL expression naming a row of the table in error messages: `'rowid 3'`, or its key.
    var rowLabelSQL: String {
        if !isWithoutRowID { return "'rowid ' || rowid" }
        let keys = columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        let parts = keys.map { "quote(\($0.name.quotedIdentifier))" }.joined(separator: " || ', ' || ")
        return "'key (' || " + (parts.isEmpty ? "''" : parts) + " || ')'"
    }

    /// Reads table `name` (compared case-insensitively), or returns `nil` when there is none.
    static func read(_ db: Database, name: String) throws -> ExistingTable? {
        guard let row = try db.fetchOne(
            CopiedRow.self, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name = \(name) COLLATE NOCASE")
        else { return nil }
        let actualName: String = try row.decode(at: 0)
        let sql: String = try row.decode(String?.self, at: 1) ?? ""

        let columns = try db.fetchAll(
            "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(\(actualName)) ORDER BY cid"
        ) { row in
            Column(
                name: try row.decode(at: 0), type: try row.decode(String?.self, at: 1) ?? "",
                isNotNull: try row.decode(at: 2), defaultSQL: try row.decode(at: 3), primaryKeyPosition: try row.decode(at: 4),
                isGenerated: try row.decode(Int.self, at: 5) != 0)
        }

        var foreignKeys: [Int: ForeignKey] = [:]
        var order: [Int] = []
        _ = try db.fetchAll(
            "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(\(actualName)) ORDER BY id, seq"
        ) { row -> Void in
            let id: Int = try row.decode(at: 0)
            if foreignKeys[id] == nil {
                order.append(id)
                foreignKeys[id] = ForeignKey(
                    table: try row.decode(at: 1), from: [], to: [], onUpdate: try row.decode(at: 4), onDelete: try row.decode(at: 5))
            }
            foreignKeys[id]?.from.append(try row.decode(at: 2))
            foreignKeys[id]?.to.append(try row.decode(at: 3))
        }

        var uniqueColumns: Set<String> = []
        let uniqueIndexes = try db.fetchAll(
            String.self, "SELECT name FROM pragma_index_list(\(actualName)) WHERE origin = 'u' AND \"unique\"")
        for index in uniqueIndexes {
            let names = try db.fetchAll(String?.self, "SELECT name FROM pragma_index_info(\(index))")
            if names.count == 1, let name = names[0] { uniqueColumns.insert(name.lowercased()) }
        }

        var objects: [SchemaObject] = []
        let rows = try db.fetchAll(
            CopiedRow.self,
            "SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = \(actualName) AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid")
        for row in rows {
            let type: String = try row.decode(at: 0)
            let objectName: String = try row.decode(at: 1)
            var columns: [String?] = []
            if type == "index" {
                columns = try db.fetchAll(String?.self, "SELECT name FROM pragma_index_info(\(objectName))")
            }
            objects.append(SchemaObject(type: type, name: objectName, sql: try row.decode(at: 2), indexColumns: columns))
        }

        let tail = sql.uppercased().split(separator: ")").last.map(String.init) ?? ""
        return ExistingTable(
            name: actualName, sql: sql, columns: columns, foreignKeys: order.compactMap { foreignKeys[$0] },
            uniqueColumns: uniqueColumns, isWithoutRowID: tail.contains("WITHOUT") && tail.contains("ROWID"),
            hasAutoIncrement: sql.uppercased().contains("AUTOINCREMENT"), objects: objects)
    }
}

// MARK: - Normalization for comparisons

enum SchemaText {
    /// A declared type, uppercased with single spaces.
    static func type(_ text: String) -> String {
        text.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A default expression without enclosing parentheses or surrounding space.
    static func defaultValue(_ text: String?) -> String? {
        guard var text = text?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        while DefaultExpression.isParenthesized(text) {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if text.uppercased() == "NULL" { return nil }
        if TableDefinition.isKeywordDefault(text) || ["TRUE", "FALSE"].contains(text.uppercased()) { return text.uppercased() }
        return text
    }

    /// The identifiers in SQL text, lowercased: bare words and quoted names, not string literals.
    static func identifiers(in sql: String) -> Set<String> {
        var result: Set<String> = []
        var characters = sql.unicodeScalars[...]
        func isIdentifierStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
        func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || c == "$" || ("0"..."9").contains(c) }
        while let first = characters.first {
            switch first {
            case "'", "\"", "`", "[":
                let close: Unicode.Scalar = first == "[" ? "]" : first
                characters = characters.dropFirst()
                var text = ""
                while let next = characters.first {
                    characters = characters.dropFirst()
                    if next == close {
                        if close != "]", characters.first == close {  // doubled quote
                            text.unicodeScalars.append(next)
                            characters = characters.dropFirst()
                            continue
                        }
                        break
                    }
                    text.unicodeScalars.append(next)
                }
                if first != "'" { result.insert(text.lowercased()) }
            case _ where isIdentifierStart(first):
                var text = ""
                while let next = characters.first, isIdentifierPart(next) {
                    text.unicodeScalars.append(next)
                    characters = characters.dropFirst()
                }
                result.insert(text.lowercased())
            default:
                characters = characters.dropFirst()
            }
        }
        return result
    }

    /// The affinity SQLite gives a declared type (section 3.1 of "Datatypes In SQLite").
    static func affinity(_ declaredType: String) -> String {
        let type = declaredType.uppercased()
        if type.contains("INT") { return "INTEGER" }
        if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return "TEXT" }
        if type.contains("BLOB") || type.isEmpty { return "BLOB" }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return "REAL" }
        return "NUMERIC"
    }

    /// The storage classes a column of `affinity` holds after a lossless conversion, or `nil` when
    /// it holds anything.
    static func acceptedStorageClasses(affinity: String) -> [String]? {
        switch affinity {
        case "INTEGER", "REAL", "NUMERIC": return ["integer", "real", "null"]
        case "TEXT": return ["text", "null"]
        default: return nil
        }
    }
}
