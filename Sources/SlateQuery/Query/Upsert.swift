import SlateConcurrency
import SlateCore

/// The `ON CONFLICT` clause of an upsert.
struct UpsertClause {
    /// The conflict target's columns, or empty for any uniqueness conflict.
    var target: [String]
    /// The `DO UPDATE SET` assignments, or `nil` for `DO NOTHING`.
    var assignments: [SQL]?

    /// ` ON CONFLICT ("a", "b") DO UPDATE SET …` or ` ON CONFLICT … DO NOTHING`.
    var fragment: SQL {
        var sql = SQL(sql: " ON CONFLICT")
        if !target.isEmpty {
            sql.append(SQL(sql: " (" + target.map(\.quotedIdentifier).joined(separator: ", ") + ")"))
        }
        if let assignments, !assignments.isEmpty {
            sql.append(" DO UPDATE SET ")
            sql.append(SQL.joined(assignments, separator: ", "))
        } else {
            sql.append(" DO NOTHING")
        }
        return sql
    }
}

extension Insert {
    /// Makes the insert an upsert: when a row with the same `target` columns exists, the
    /// assignments update it instead. The closure receives the existing row's columns and the
    /// `excluded` pseudo-table, the row that was being inserted:
    ///
    /// ```swift
    /// Player.insert(player).onConflict(\.email) { existing, excluded in
    ///     existing.name.set(to: excluded.name)
    ///     existing.visits.set(to: existing.visits + 1)
    /// }
    /// // INSERT INTO "Player" (…) VALUES (…) ON CONFLICT ("email")
    /// //   DO UPDATE SET "name" = "excluded"."name", "visits" = "Player"."visits" + ?
    /// ```
    ///
    /// Without target columns, any uniqueness conflict triggers the update.
    public func onConflict<each Target: ColumnExpression>(
        _ target: repeat KeyPath<Root.Columns, each Target>,
        @AssignmentBuilder<Root> doUpdate assignments: (_ existing: Root.Columns, _ excluded: Root.Columns) -> [Assignment<Root>]
    ) -> Insert {
        let columns = Root.Columns(qualifier: Root.tableName)
        var names: [String] = []
        for keyPath in repeat each target { names.append(columns[keyPath: keyPath].name) }
        var copy = self
        let updates = assignments(columns, Root.Columns(qualifier: "excluded"))
        copy.upsert = UpsertClause(target: names, assignments: updates.map { $0.fragment })
        return copy
    }

    /// `ON CONFLICT (target) DO NOTHING`: a row that conflicts on `target` is skipped. Without
    /// target columns, any uniqueness conflict skips the row.
    public func onConflictDoNothing<each Target: ColumnExpression>(_ target: repeat KeyPath<Root.Columns, each Target>) -> Insert {
        let columns = Root.Columns(qualifier: Root.tableName)
        var names: [String] = []
        for keyPath in repeat each target { names.append(columns[keyPath: keyPath].name) }
        var copy = self
        copy.upsert = UpsertClause(target: names, assignments: nil)
        return copy
    }
}

extension Table {
    /// Inserts `record`, or updates every other column of the row with the same primary key:
    ///
    /// ```sql
    /// INSERT INTO "Person" ("id", "name") VALUES (?, ?)
    ///   ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name"
    /// ```
    ///
    /// A table whose columns all belong to the key gets `DO NOTHING`; a table without primary key
    /// updates on any uniqueness conflict. ``Insert/execute(_:)`` returns the row as stored.
    public static func upsert(_ record: Self) -> Insert<Self> {
        var insert = Insert([record])
        let keyColumns = schema.primaryKey
        let assignments = schema.recordColumns.filter { !$0.isPrimaryKey }.map { column in
            SQL(sql: column.name.quotedIdentifier + " = \"excluded\"." + column.name.quotedIdentifier)
        }
        insert.upsert = UpsertClause(target: keyColumns, assignments: assignments)
        return insert
    }
}
