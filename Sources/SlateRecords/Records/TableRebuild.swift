import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// SQLite's 12-step procedure for schema changes `ALTER TABLE` cannot make ("Making Other Kinds Of
/// Table Schema Changes" in SQLite's `ALTER TABLE` documentation), with checks that turn every
/// row that cannot be carried over into an error instead of a silent loss:
///
/// 1. `PRAGMA foreign_keys = OFF` (outside the transaction), 2. `BEGIN`, then renamed columns are
/// renamed in place, 3. the table's indexes and triggers are remembered, 4. `CREATE TABLE` under a
/// temporary name, 5. `INSERT INTO … SELECT` every row (rowids kept), checked for `NULL`s in new
/// `NOT NULL` columns and for values the new column types cannot hold, 6. `DROP TABLE`, 7. `ALTER
/// TABLE … RENAME TO` (with `legacy_alter_table`, so views and other tables' triggers keep
/// referring to the table by name), 8. indexes and triggers re-created, 9. views checked,
/// 10. `PRAGMA foreign_key_check`, 11. `COMMIT`, 12. `PRAGMA foreign_keys = ON`.
///
/// Any failure rolls the transaction back: the database is left as it was.
struct TableRebuild {
    let db: Database
    let planner: MigrationPlanner
    let existing: TableSchema

    private var definition: TableSchema { planner.schema }
    private var table: String { definition.name.quotedIdentifier }

    init(db: Database, planner: MigrationPlanner) throws {
        guard let existing = planner.existing else {
            throw DatabaseError(resultCode: .internal, message: "a rebuild needs an existing table")
        }
        self.db = db
        self.planner = planner
        self.existing = existing
    }

    // MARK: The statements

    private func temporaryName() throws -> String {
        var name = "slate_new_" + definition.name
        var counter = 1
        while try db.fetchOne(Int.self, "SELECT 1 FROM sqlite_master WHERE name = \(name) COLLATE NOCASE") != nil {
            counter += 1
            name = "slate_new\(counter)_" + definition.name
        }
        return name
    }

    private func renameStatements() -> [String] {
        planner.plan.renamedColumns.sorted { $0.key < $1.key }.map { new, old in
            "ALTER TABLE \(table) RENAME COLUMN \(old.quotedIdentifier) TO \(new.quotedIdentifier)"
        }
    }

    /// The name a source column has once renamed columns are renamed.
    private func currentName(of column: TableSchema.Column, source: TableSchema.Column) -> String {
        planner.plan.renamedColumns[column.name] != nil ? column.name : source.name
    }

    private var keepsRowID: Bool {
        !definition.isWithoutRowID && !existing.isWithoutRowID && definition.rowIDAlias == nil
    }

    private func copyStatement(into temporary: String) -> String {
        var targets: [String] = []
        var values: [String] = []
        if keepsRowID {
            targets.append("rowid")
            values.append("rowid")
        }
        for (column, source) in planner.sources {
            if let source {
                var value = currentName(of: column, source: source).quotedIdentifier
                if !column.isNullable, !source.isNotNull, let defaultSQL = column.defaultSQL {
                    value = "coalesce(\(value), \(DefaultExpression.rendered(defaultSQL)))"
                }
                targets.append(column.name.quotedIdentifier)
                values.append(value)
            } else if column.name == definition.rowIDAlias?.name && !existing.isWithoutRowID {
                targets.append(column.name.quotedIdentifier)
                values.append("rowid")
            }
        }
        return
            "INSERT INTO \(temporary.quotedIdentifier) (\(targets.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(table)"
    }

    /// `CREATE INDEX` for the declared indexes the old table does not have.
    private func newIndexStatements(besides objects: [SchemaObject]) -> [String] {
        let present = Set(objects.map { $0.name.lowercased() })
        return definition.indexes.filter { !present.contains($0.name.lowercased()) }.map {
            definition.createIndexSQL($0)
        }
    }

    /// Whether an index of the old table can be re-created (it uses no dropped column).
    private func survives(_ object: SchemaObject) -> Bool {
        guard object.type == "index" else { return true }
        let dropped = Set(planner.plan.droppedColumns.map { $0.lowercased() })
        return !object.indexColumns.contains { $0.map { dropped.contains($0.lowercased()) } ?? false }
    }

    /// The planned statements, for a dry run. Indexes and triggers are shown as they are stored
    /// now; a rename rewrites them before they are re-created.
    func plannedPlan(foreignKeysOn: Bool) throws -> TableMigrationPlan {
        var plan = planner.plan
        let temporary = try temporaryName()
        var statements: [String] = []
        if foreignKeysOn { statements.append("PRAGMA foreign_keys = OFF") }
        statements.append(db.isInTransaction ? "SAVEPOINT slate_rebuild" : "BEGIN IMMEDIATE TRANSACTION")
        statements += renameStatements()
        statements.append(try definition.createTableSQL(named: temporary))
        statements.append(copyStatement(into: temporary))
        statements.append("DROP TABLE \(table)")
        statements.append("PRAGMA legacy_alter_table = ON")
        statements.append("ALTER TABLE \(temporary.quotedIdentifier) RENAME TO \(table)")
        statements.append("PRAGMA legacy_alter_table = OFF")
        let objects = try SchemaObject.read(db, table: existing.name)
        for object in objects {
            if survives(object) { statements.append(object.sql) } else { plan.droppedIndexes.append(object.name) }
        }
        statements += newIndexStatements(besides: objects.filter(survives))
        statements.append("PRAGMA foreign_key_check")
        statements.append(db.isInTransaction ? "RELEASE SAVEPOINT slate_rebuild" : "COMMIT TRANSACTION")
        if foreignKeysOn { statements.append("PRAGMA foreign_keys = ON") }
        plan.statements = statements
        return plan
    }

    // MARK: Running

    /// Rebuilds the table and returns the plan with the statements that ran.
    func run() throws -> TableMigrationPlan {
        let foreignKeysOn = try db.fetchValue(Bool.self, "PRAGMA foreign_keys")
        if foreignKeysOn && db.isInTransaction {
            throw failure(
                .misuse,
                "the table must be rebuilt, which needs foreign keys off, and SQLite cannot turn them off inside a transaction: migrate outside the transaction"
            )
        }
        var plan = planner.plan
        var executed: [String] = []
        func run(_ sql: String) throws {
            try db.execute(sql: sql)
            executed.append(sql)
        }
        if foreignKeysOn { try run("PRAGMA foreign_keys = OFF") }
        let legacyAlterTable = try db.fetchValue(Bool.self, "PRAGMA legacy_alter_table")
        let body = {
            try checkTriggersForDroppedColumns()
            for statement in renameStatements() { try run(statement) }
            let objects = try SchemaObject.read(db, table: existing.name)
            try checkRowsBeforeCopy()
            let temporary = try temporaryName()
            try run(try definition.createTableSQL(named: temporary))
            do {
                try run(copyStatement(into: temporary))
            } catch let error as DatabaseError {
                throw failure(error.extendedResultCode, "copying the rows failed: \(error.message)")
            }
            try checkRowsAfterCopy(in: temporary)
            let sequence = try autoIncrementSequence()
            try run("DROP TABLE \(table)")
            try run("PRAGMA legacy_alter_table = ON")
            try restoring(
                "legacy_alter_table",
                {
                    try run("ALTER TABLE \(temporary.quotedIdentifier) RENAME TO \(table)")
                },
                restore: {
                    try run("PRAGMA legacy_alter_table = \(legacyAlterTable ? "ON" : "OFF")")
                })
            if let sequence {
                // AUTOINCREMENT never reuses a rowid: keep the old table's high-water mark.
                try db.execute(
                    "UPDATE sqlite_sequence SET seq = \(sequence) WHERE name = \(definition.name) AND seq < \(sequence)"
                )
            }
            for object in objects {
                guard survives(object) else {
                    plan.droppedIndexes.append(object.name)
                    continue
                }
                do {
                    try run(object.sql)
                } catch let error as DatabaseError {
                    throw failure(
                        error.extendedResultCode,
                        "the \(object.type) \(object.name) cannot be re-created: \(error.message)")
                }
            }
            for statement in newIndexStatements(besides: objects.filter(survives)) { try run(statement) }
            try checkViews()
            try checkForeignKeys()
            executed.append("PRAGMA foreign_key_check")
        }
        try restoring(
            "foreign_keys",
            {
                if db.isInTransaction {
                    executed.append("SAVEPOINT slate_rebuild")
                    try db.savepoint("slate_rebuild", body)
                    executed.append("RELEASE SAVEPOINT slate_rebuild")
                } else {
                    executed.append("BEGIN IMMEDIATE TRANSACTION")
                    try db.transaction(.immediate, body)
                    executed.append("COMMIT TRANSACTION")
                }
            },
            restore: {
                if foreignKeysOn { try run("PRAGMA foreign_keys = ON") }
            })
        plan.statements = executed
        return plan
    }

    /// The old table's `AUTOINCREMENT` high-water mark, when both tables use `AUTOINCREMENT`.
    private func autoIncrementSequence() throws -> Int64? {
        guard existing.hasAutoIncrement, definition.columns.contains(where: \.isAutoIncrement) else { return nil }
        return try db.fetchOne(Int64.self, "SELECT seq FROM sqlite_sequence WHERE name = \(existing.name)")
    }

    // MARK: Checks

    private func failure(_ code: ResultCode, _ reason: String) -> DatabaseError {
        DatabaseError(
            resultCode: code,
            message: "cannot migrate table \(table): \(reason); the database was left unchanged")
    }

    /// `NULL`s headed for a `NOT NULL` column without a default, and new `NOT NULL` columns without
    /// a default in a table that has rows.
    private func checkRowsBeforeCopy() throws {
        let label = existing.rowLabelSQL
        for (column, source) in planner.sources {
            let isRowIDAlias = column.name == definition.rowIDAlias?.name && !existing.isWithoutRowID
            if column.isNullable || column.defaultSQL != nil || isRowIDAlias { continue }
            if let source {
                let name = currentName(of: column, source: source).quotedIdentifier
                if let row = try db.fetchOne(
                    String.self, sql: "SELECT \(label) FROM \(table) WHERE \(name) IS NULL LIMIT 1")
                {
                    throw failure(
                        .constraintNotNull,
                        "column \(column.name) becomes NOT NULL, but \(row) holds NULL there; give the column a default, or keep the property optional"
                    )
                }
            } else if let row = try db.fetchOne(String.self, sql: "SELECT \(label) FROM \(table) LIMIT 1") {
                throw failure(
                    .constraintNotNull,
                    "new column \(column.name) is NOT NULL without a default, so existing rows (such as \(row)) would have no value; give the column a default, or make the property optional"
                )
            }
        }
    }

    /// Values that kept a storage class the new column type does not accept (text that is not a
    /// number in a numeric column, a blob in a text column).
    private func checkRowsAfterCopy(in temporary: String) throws {
        let label: String
        if definition.isWithoutRowID {
            label =
                "'key (' || "
                + definition.primaryKey.map { "quote(\($0.quotedIdentifier))" }.joined(separator: " || ', ' || ")
                + " || ')'"
        } else {
            label = "'rowid ' || rowid"
        }
        for (column, source) in planner.sources {
            guard let source else { continue }
            let affinity = column.affinity
            guard affinity != source.affinity, let accepted = SchemaText.acceptedStorageClasses(affinity: affinity)
            else { continue }
            let name = column.name.quotedIdentifier
            let classes = accepted.map { "'\($0)'" }.joined(separator: ", ")
            let sql =
                "SELECT \(label), typeof(\(name)), quote(\(name)) FROM \(temporary.quotedIdentifier) WHERE typeof(\(name)) NOT IN (\(classes)) LIMIT 1"
            if let row = try db.fetchOne(CopiedRow.self, sql: sql) {
                let rowLocation: String = try row.decode(at: 0)
                let storage: String = try row.decode(at: 1)
                let value: String = try row.decode(at: 2)
                throw failure(
                    .mismatch,
                    "column \(column.name) becomes \(column.declaredType), but the \(storage) value \(value.truncatedForMessages) of \(rowLocation) cannot be converted to it"
                )
            }
        }
    }

    /// SQLite re-creates a trigger whose body names a dropped column without complaint, and the
    /// trigger fails later: refuse the migration instead.
    private func checkTriggersForDroppedColumns() throws {
        let dropped = Set(planner.plan.droppedColumns.map { $0.lowercased() })
        guard !dropped.isEmpty else { return }
        let triggers = try db.fetchAll(
            CopiedRow.self, "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL")
        for trigger in triggers {
            let name: String = try trigger.decode(at: 0)
            let table: String = try trigger.decode(at: 1)
            let identifiers = SchemaText.identifiers(in: try trigger.decode(at: 2))
            guard
                table.caseInsensitiveCompare(existing.name) == .orderedSame
                    || identifiers.contains(existing.name.lowercased())
            else { continue }
            if let column = identifiers.intersection(dropped).sorted().first {
                throw failure(
                    .constraintTrigger,
                    "trigger \(name) refers to column \(column), which is dropped; change or drop the trigger first")
            }
        }
    }

    private func checkViews() throws {
        let views = try db.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'view'")
        for view in views {
            do {
                _ = try db.prepare(sql: "SELECT * FROM \(view.quotedIdentifier) LIMIT 0")
            } catch let error as DatabaseError {
                throw failure(error.extendedResultCode, "view \(view) would no longer work: \(error.message)")
            }
        }
    }

    private func checkForeignKeys() throws {
        let rows = try db.fetchAll(CopiedRow.self, "SELECT \"table\", rowid, parent FROM pragma_foreign_key_check")
        for row in rows {
            let child: String = try row.decode(at: 0)
            let parent: String = try row.decode(at: 2)
            guard
                child.caseInsensitiveCompare(existing.name) == .orderedSame
                    || parent.caseInsensitiveCompare(existing.name) == .orderedSame
            else { continue }
            let rowID: Int64? = try row.decode(at: 1)
            throw failure(
                .constraintForeignKey,
                "row \(rowID.map(String.init) ?? "?") of table \(child) would reference a missing row of \(parent)")
        }
    }
}

/// An index or trigger of a table, with the SQL that re-creates it.
struct SchemaObject {
    var type: String
    var name: String
    var sql: String
    /// For indexes: the indexed column names (`nil` for an expression).
    var indexColumns: [String?]

    /// The indexes (other than automatic ones) and triggers of `table`, in creation order.
    static func read(_ db: Database, table: String) throws -> [SchemaObject] {
        let rows = try db.fetchAll(
            CopiedRow.self,
            "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = \(table) COLLATE NOCASE AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid"
        )
        var objects: [SchemaObject] = []
        for row in rows {
            let type: String = try row.decode(at: 0)
            let name: String = try row.decode(at: 1)
            var columns: [String?] = []
            if type == "index" {
                columns = try db.fetchAll(String?.self, "SELECT name FROM pragma_index_info(\(name))")
            }
            objects.append(SchemaObject(type: type, name: name, sql: try row.decode(at: 2), indexColumns: columns))
        }
        return objects
    }
}

extension TableSchema {
    /// A SQL expression naming a row of the table in error messages: `'rowid 3'`, or its key.
    var rowLabelSQL: String {
        if !isWithoutRowID { return "'rowid ' || rowid" }
        let parts = primaryKey.map { "quote(\($0.quotedIdentifier))" }.joined(separator: " || ', ' || ")
        return "'key (' || " + (parts.isEmpty ? "''" : parts) + " || ')'"
    }
}

extension SchemaText {
    /// The identifiers in SQL text, lowercased: bare words and quoted names, not string literals,
    /// as the one lexer (`SQLLexer`) reads them.
    static func identifiers(in sql: String) -> Set<String> {
        let lexer = SQLLexer(sql)
        var result: Set<String> = []
        for token in lexer where token.kind == .word || token.kind == .quotedIdentifier {
            result.insert(lexer.value(of: token).lowercased())
        }
        return result
    }

    /// The storage classes a column of `affinity` holds after a lossless conversion, or `nil` when
    /// it holds anything.
    static func acceptedStorageClasses(affinity: TableSchema.Affinity) -> [String]? {
        switch affinity {
        case .integer, .real, .numeric: return ["integer", "real", "null"]
        case .text: return ["text", "null"]
        case .blob: return nil
        }
    }
}

/// Runs `body`, then `restore`, whatever `body` did: a setting changed for the duration of `body`
/// is put back. When putting it back fails, the error says so (and carries `body`'s own error, if
/// any): the connection is never left changed without an error.
func restoring<Result>(_ setting: String, _ body: () throws -> Result, restore: () throws -> Void) throws -> Result {
    let outcome: Swift.Result<Result, any Error>
    do {
        outcome = .success(try body())
    } catch {
        outcome = .failure(error)
    }
    do {
        try restore()
    } catch let restoreError {
        let restoreMessage = (restoreError as? DatabaseError)?.message ?? "\(restoreError)"
        switch outcome {
        case .success:
            throw DatabaseError(
                resultCode: (restoreError as? DatabaseError)?.extendedResultCode ?? .error,
                message:
                    "the work succeeded, but restoring \(setting) failed: \(restoreMessage); the connection keeps the changed setting"
            )
        case .failure(let error):
            let message = (error as? DatabaseError)?.message ?? "\(error)"
            throw DatabaseError(
                resultCode: (error as? DatabaseError)?.extendedResultCode ?? .error,
                message: "\(message); restoring \(setting) failed too: \(restoreMessage)")
        }
    }
    return try outcome.get()
}
