import SlateCore
import SlateQuery

extension DatabaseSchema {
    /// How `actual` differs from this schema, the expected one; empty when they agree. What
    /// `slate check DATABASE --against SOURCE…` reports.
    ///
    /// ```swift
    /// let expected = try SchemaLoader.load(from: [URL(fileURLWithPath: "schema.sql")])
    /// let actual = try SchemaLoader.loadDatabase(at: URL(fileURLWithPath: "app.sqlite"))
    /// for difference in expected.differences(from: actual) {
    ///     print(difference)   // column Track.Composer is missing (expected NVARCHAR(220))
    /// }
    /// ```
    ///
    /// Tables and virtual tables are compared by ``Slate/TableSchema/differences(from:primaryKey:)``
    /// (columns, types, nullability, defaults, keys, uniqueness, collations, generated columns,
    /// foreign keys, indexes, `WITHOUT ROWID`, `STRICT`), and reported missing or not expected;
    /// views by their columns and their query, triggers by their definition. Names are matched as
    /// SQLite matches them, and differences of spelling — whitespace, comments, identifier quoting,
    /// letter case — are never reported. The list is sorted by table, view and trigger name.
    public func differences(from actual: DatabaseSchema) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        let expectedTables = (tables + virtualTables).sorted { $0.name.lowercased() < $1.name.lowercased() }
        let actualTables = actual.tables + actual.virtualTables
        func primaryKey(_ name: String) -> [String]? {
            (expectedTables.first { $0.name.equalsIdentifier(name) }
                ?? actualTables.first { $0.name.equalsIdentifier(name) })?.primaryKey
        }
        for expected in expectedTables {
            guard let found = actualTables.first(where: { $0.name.equalsIdentifier(expected.name) }) else {
                differences.append(SchemaDifference(.missingTable, table: expected.name))
                continue
            }
            differences += expected.differences(from: found, primaryKey: primaryKey)
        }
        for found in actualTables.sorted(by: { $0.name.lowercased() < $1.name.lowercased() })
        where !expectedTables.contains(where: { $0.name.equalsIdentifier(found.name) }) {
            differences.append(SchemaDifference(.extraTable, table: found.name))
        }

        for view in views.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            guard let found = actual.view(named: view.name) else {
                differences.append(SchemaDifference(.missingView, table: view.name))
                continue
            }
            differences += view.columnsSchema.differences(from: found.columnsSchema)
            if Self.viewBody(view.sql) != Self.viewBody(found.sql) {
                differences.append(
                    SchemaDifference(.viewDefinition, table: view.name, expected: view.sql, actual: found.sql))
            }
        }
        for found in actual.views.sorted(by: { $0.name.lowercased() < $1.name.lowercased() })
        where view(named: found.name) == nil {
            differences.append(SchemaDifference(.extraView, table: found.name))
        }

        for trigger in triggers.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            guard let found = actual.triggers.first(where: { $0.name.equalsIdentifier(trigger.name) }) else {
                differences.append(SchemaDifference(.missingTrigger, table: trigger.tableName, name: trigger.name))
                continue
            }
            if Self.canonicalDefinition(trigger.sql) != Self.canonicalDefinition(found.sql) {
                differences.append(
                    SchemaDifference(
                        .triggerDefinition, table: trigger.tableName, name: trigger.name, expected: trigger.sql,
                        actual: found.sql))
            }
        }
        for found in actual.triggers.sorted(by: { $0.name.lowercased() < $1.name.lowercased() })
        where !triggers.contains(where: { $0.name.equalsIdentifier(found.name) }) {
            differences.append(SchemaDifference(.extraTrigger, table: found.tableName, name: found.name))
        }
        return differences
    }

    /// A `CREATE` statement in canonical form, without `IF NOT EXISTS` and `TEMP`, which SQLite
    /// does not keep anyway.
    static func canonicalDefinition(_ sql: String) -> String {
        var text = SchemaText.canonical(sql)
        for noise in [" if not exists", " temporary", " temp"] {
            if let range = text.range(of: noise), text[..<range.lowerBound].split(separator: " ").count <= 2 {
                text.removeSubrange(range)
            }
        }
        return text
    }

    /// The query of `CREATE VIEW name [(columns)] AS query`, in canonical form.
    static func viewBody(_ sql: String) -> String {
        let tokens = SQLLexer.lexemes(of: sql)[...]
        guard let asIndex = tokens.firstTopLevelIndex(where: { $0.isKeyword("AS") }) else {
            return canonicalDefinition(sql)
        }
        let start = tokens[asIndex].end
        let bytes = Array(sql.utf8)
        return SchemaText.canonical(String(decoding: bytes[min(start, bytes.count)...], as: UTF8.self))
    }
}

extension DatabaseSchema.View {
    /// The view as a table model: its columns' names and declared types.
    var columnsSchema: TableSchema {
        TableSchema(
            name: name, kind: .view,
            columns: columns.map { TableSchema.Column(name: $0.name, type: $0.declaredType ?? "") })
    }
}

extension DatabaseSchema {
    /// The columns declared with a UUID type (`UUID`, `GUID`, `UNIQUEIDENTIFIER`: those
    /// `slate generate` maps to `UUID`) and a text affinity that compare case-sensitively, as
    /// "table.column" names: columns declared without `COLLATE NOCASE`.
    ///
    /// Slate writes UUIDs in lowercase and compares them with such a column `COLLATE NOCASE`, so
    /// that no row written in another letter case is missed (see `UUIDStorage.text`); without
    /// `NOCASE` on the column, SQLite cannot use its index for those lookups, and a join between two
    /// such columns still compares text exactly. `slate check` and `slate generate` warn about them.
    public var caseSensitiveUUIDColumns: [String] {
        let uuidTypes: Set<String> = ["UUID", "GUID", "UNIQUEIDENTIFIER"]
        var names: [String] = []
        for table in tables {
            for column in table.columns where column.collation?.uppercased() != "NOCASE" {
                let base = column.declaredType.uppercased().prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)
                if uuidTypes.contains(base) { names.append(table.name + "." + column.name) }
            }
        }
        return names
    }

    /// A warning for each of ``caseSensitiveUUIDColumns``.
    public var uuidCollationWarnings: [String] {
        caseSensitiveUUIDColumns.map { name in
            "column \(name) holds UUIDs but is not declared COLLATE NOCASE: Slate matches UUIDs in any letter case, "
                + "which cannot use an index on it; declare it COLLATE NOCASE"
        }
    }
}
