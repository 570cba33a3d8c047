import CSQLite
import SlateCore

/// A column of an import's target table, as `PRAGMA table_xinfo` reports it.
struct CSVTableColumn {
    var name: String
    var declaredType: String
    /// A generated column, or a hidden column of a virtual table: not insertable.
    var isHidden: Bool
    /// `NOT NULL`.
    var isNotNull: Bool
    /// The column's position in the primary key (1-based), or 0.
    var primaryKeyPosition: Int
    /// Whether the column has a default value.
    var hasDefault: Bool
}

/// What an import learns of its target table from SQLite: its columns, its keys and its checks,
/// read from SQLite's pragmas and its schema (never from an error message).
final class CSVTableInspector {
    let db: Database
    let table: String
    /// The table's `UNIQUE` keys and `CHECK`s, read when a row first breaks one.
    private var knownUniqueKeys: [[String]]?
    private var knownChecks: [[String]]?

    init(db: Database, table: String) {
        self.db = db
        self.table = table
    }

    /// The table's columns, generated and hidden ones included; empty when there is no table. The
    /// table is found as the import's `INSERT` finds its unqualified name (`temp`, `main`, then
    /// attached databases), through the one PRAGMA reader, ``SchemaIntrospection``.
    func columns() throws -> [CSVTableColumn] {
        try SchemaIntrospection.columns(ofTable: table, schema: nil, in: .database(db)).map {
            CSVTableColumn(
                name: $0.name, declaredType: $0.declaredType, isHidden: $0.hidden != 0, isNotNull: $0.isNotNull,
                primaryKeyPosition: $0.primaryKeyPosition, hasDefault: $0.defaultSQL != nil)
        }
    }

    /// The columns of each `UNIQUE` index of the table (the ones `UNIQUE` constraints create and
    /// the explicit ones, not partial ones), the oldest index first; the primary key is not among
    /// them.
    func uniqueKeys() throws -> [[String]] {
        let connection = SchemaIntrospection.Connection.database(db)
        return try SchemaIntrospection.indexes(ofTable: table, schema: nil, in: connection).reversed()
            .filter { $0.isUnique && $0.origin != "pk" && !$0.isPartial }
            .map { try SchemaIntrospection.indexColumns(ofIndex: $0.name, schema: nil, in: connection) }
    }

    /// The columns each `CHECK` constraint of the table belongs to, from the table's definition in
    /// `sqlite_schema` (read with ``SQLLexer``): a column's own check belongs to that column; a
    /// table's check to the columns it names.
    func checkedColumns(among columnNames: [String]) throws -> [[String]] {
        let statement = try db.prepare(sql: "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?")
        try statement.bindText(table, at: 1)
        guard try statement.step() else { return [] }
        let lexer = SQLLexer(Self.text(statement, 0))
        let tokens = Array(lexer)
        let known = Set(columnNames.map(CSVColumnNaming.asciiLowercased))
        guard let open = tokens.firstIndex(where: { lexer.isSymbol($0, "(") }) else { return [] }
        var checks: [[String]] = []
        var depth = 0
        var definitionStart = open + 1
        var index = open + 1
        // Each definition between the table's parentheses, split at its top-level commas.
        while index < tokens.count {
            let token = tokens[index]
            if lexer.isSymbol(token, "(") {
                depth += 1
            } else if lexer.isSymbol(token, ")") {
                if depth == 0 {
                    checks += Self.checks(in: tokens[definitionStart..<index], lexer: lexer, known: known)
                    break
                }
                depth -= 1
            } else if depth == 0, lexer.isSymbol(token, ",") {
                checks += Self.checks(in: tokens[definitionStart..<index], lexer: lexer, known: known)
                definitionStart = index + 1
            }
            index += 1
        }
        return checks
    }

    /// The `CHECK`s of one column definition or table constraint, each as the columns it belongs to.
    private static func checks(
        in definition: ArraySlice<SQLLexer.Token>, lexer: SQLLexer, known: Set<String>
    ) -> [[String]] {
        guard let first = definition.first else { return [] }
        let tableConstraintWords = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        let isColumn =
            !(first.kind == .word && tableConstraintWords.contains(lexer.text(of: first).uppercased()))
        var checks: [[String]] = []
        for position in definition.indices where lexer.isKeyword(definition[position], "CHECK") {
            if isColumn {
                checks.append([lexer.value(of: first)])
                continue
            }
            // The names inside the check's parentheses that are columns of the table.
            var names: [String] = []
            var depth = 0
            for token in definition[(position + 1)...] {
                if lexer.isSymbol(token, "(") { depth += 1 }
                if lexer.isSymbol(token, ")") {
                    depth -= 1
                    if depth == 0 { break }
                }
                guard token.kind == .word || token.kind == .quotedIdentifier else { continue }
                let name = lexer.value(of: token)
                if known.contains(CSVColumnNaming.asciiLowercased(name)), !names.contains(name) { names.append(name) }
            }
            checks.append(names)
        }
        return checks
    }

    /// The plan of the column whose constraint a row broke (`error` is SQLite's), from what SQLite
    /// knows of the table: the first `NOT NULL` column that got a `NULL` (`nil` when it is not in
    /// the file); the first column of the primary
    /// key, or of the `UNIQUE` key whose values a row of the table already holds; the column a
    /// `CHECK` belongs to, when the table's checks belong to one column of the file. `nil` when it
    /// cannot be told.
    ///
    /// - Parameters:
    ///   - isNull: Whether the row's field of a plan was bound as `NULL`.
    ///   - text: The row's field of a plan, as text.
    func constraintColumn(
        of error: DatabaseError, plans: [CSVColumnPlan], columns: [CSVTableColumn],
        isNull: (CSVColumnPlan) -> Bool, text: (CSVColumnPlan) -> String
    ) throws -> CSVColumnPlan? {
        func plan(_ name: String) -> CSVColumnPlan? {
            let key = CSVColumnNaming.asciiLowercased(name)
            return plans.first { CSVColumnNaming.asciiLowercased($0.column) == key }
        }
        switch error.extendedResultCode {
        case .constraintNotNull:
            // SQLite checks the columns in the table's order: the first NOT NULL one that gets a
            // NULL, from the file or, left out of it, for want of a default.
            let rowID = columns.filter { $0.primaryKeyPosition > 0 }
            for column in columns where column.isNotNull && !column.isHidden {
                if rowID.count == 1, column.primaryKeyPosition == 1, column.declaredType.uppercased() == "INTEGER" {
                    continue  // the rowid: a NULL there is a new rowid
                }
                if let plan = plan(column.name) {
                    if isNull(plan) { return plan }
                } else if !column.hasDefault {
                    return nil
                }
            }
            return nil
        case .constraintPrimaryKey:
            let key = columns.filter { $0.primaryKeyPosition > 0 }.sorted {
                $0.primaryKeyPosition < $1.primaryKeyPosition
            }
            return key.lazy.compactMap { plan($0.name) }.first
        case .constraintUnique:
            if knownUniqueKeys == nil { knownUniqueKeys = try uniqueKeys() }
            // The keys whose every column comes from the file, and of those the one a row holds.
            let candidates = (knownUniqueKeys ?? []).compactMap { key -> [CSVColumnPlan]? in
                let keyPlans = key.compactMap(plan)
                return keyPlans.count == key.count && !keyPlans.contains(where: isNull) ? keyPlans : nil
            }
            if candidates.count == 1 { return candidates[0].first }
            for key in candidates where try rowExists(withValuesOf: key, text: text) { return key.first }
            return nil
        case .constraintCheck:
            if knownChecks == nil { knownChecks = try checkedColumns(among: columns.map(\.name)) }
            let owners = (knownChecks ?? []).flatMap { $0 }.compactMap(plan)
            return Set(owners.map(\.field)).count == 1 ? owners.first : nil
        default:
            return nil
        }
    }

    /// Whether a row of the table holds `text`'s values in the columns of `key` (each compared with
    /// the column's affinity, as the insert stored it).
    private func rowExists(withValuesOf key: [CSVColumnPlan], text: (CSVColumnPlan) -> String) throws -> Bool {
        let condition = key.enumerated().map { "\($1.column.quotedIdentifier) = ?\($0 + 1)" }
        let statement = try db.prepare(
            sql: "SELECT 1 FROM \(table.quotedIdentifier) WHERE " + condition.joined(separator: " AND "))
        for (index, plan) in key.enumerated() {
            try statement.bindText(text(plan), at: index + 1)
        }
        return try statement.step()
    }

    /// SQLite's limit on the parameters of one statement.
    var parameterLimit: Int {
        Int(sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }

    private static func text(_ statement: Statement, _ index: Int32) -> String {
        guard let text = sqlite3_column_text(statement.handle, index) else { return "" }
        return String(cString: text)
    }
}
