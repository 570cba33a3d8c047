import SlateConcurrency
import SlateCore

/// The `ON CONFLICT` clause of an upsert.
struct UpsertClause: Sendable {
    /// The conflict target's columns, or empty for any uniqueness conflict.
    var target: [String]
    /// The `DO UPDATE SET` assignments, or `nil` for `DO NOTHING`.
    var assignments: [SQL]?
    /// The `WHERE` condition of `DO UPDATE`: rows for which it is false are left as they are.
    var condition: SQL?
    /// For ``Table/upsert(_:)``: the record columns (their indices and names) each set from
    /// `excluded`. The columns an insert leaves out, so that their defaults apply, are not
    /// updated: the existing row keeps its values.
    var updatedRecordColumns: [(index: Int, name: String)]?

    /// ` ON CONFLICT ("a", "b") DO UPDATE SET … [WHERE …]` or ` ON CONFLICT … DO NOTHING`, for a
    /// record whose columns at `omitted` (indices into the record columns) are left out.
    func fragment(omitting omitted: [Int]) -> SQL {
        let updating = (assignments.map { !$0.isEmpty } ?? false) || !(updatedRecordColumns ?? []).isEmpty
        var sql = SQL(.construct(.conflictTarget(target, updating: updating)))
        var assignments = self.assignments
        if let columns = updatedRecordColumns, !columns.isEmpty {
            let kept = columns.filter { !omitted.contains($0.index) }
            // Every updated column was left out: the existing row stays as it is, and a no-op
            // assignment keeps the statement an update, so RETURNING reads the stored row.
            let names = kept.isEmpty ? [(columns[0].name, "")] : kept.map { ($0.name, "excluded") }
            assignments = names.map { name, qualifier in
                var assignment = SQL(.identifier(name))
                assignment.append(text: " = ")
                assignment.append(.column(qualifier: qualifier, name: name))
                return assignment
            }
        }
        if let assignments, !assignments.isEmpty {
            sql.append(text: " DO UPDATE SET ")
            sql.append(SQL.joined(assignments, separator: ", "))
            if let condition {
                sql.append(text: " WHERE ")
                sql.append(condition)
            }
        } else {
            sql.append(text: " DO NOTHING")
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
        @AssignmentBuilder<Root> doUpdate assignments: (_ existing: Root.Columns, _ excluded: Root.Columns) ->
            [Assignment<Root>]
    ) -> Insert {
        let columns = Root.Columns(qualifier: Root.tableName)
        var names: [String] = []
        for keyPath in repeat each target { names.append(columns[keyPath: keyPath].name) }
        var copy = self
        let updates = assignments(columns, Root.Columns(qualifier: "excluded"))
        copy.upsert = UpsertClause(target: names, assignments: updates.map { $0.fragment })
        return copy
    }

    /// Makes the insert an upsert whose update applies only where `condition` holds: a conflicting
    /// row for which it is false is left as it is (and, like a row `DO NOTHING` skipped, returns
    /// no row through `RETURNING`).
    ///
    /// ```swift
    /// Score.insert(score).onConflict(\.player) { existing, excluded in
    ///     existing.points.set(to: excluded.points)
    /// } where: { existing, excluded in
    ///     excluded.points > existing.points
    /// }
    /// // … ON CONFLICT ("player") DO UPDATE SET "points" = "excluded"."points"
    /// //   WHERE "excluded"."points" > "Score"."points"
    /// ```
    public func onConflict<each Target: ColumnExpression>(
        _ target: repeat KeyPath<Root.Columns, each Target>,
        @AssignmentBuilder<Root> doUpdate assignments: (_ existing: Root.Columns, _ excluded: Root.Columns) ->
            [Assignment<Root>],
        where condition: (_ existing: Root.Columns, _ excluded: Root.Columns) -> some QueryExpression<
            some BooleanQueryValue
        >
    ) -> Insert {
        var copy = onConflict(repeat each target, doUpdate: assignments)
        let columns = Root.Columns(qualifier: Root.tableName)
        copy.upsert?.condition = condition(columns, Root.Columns(qualifier: "excluded")).queryFragment
        return copy
    }

    /// `ON CONFLICT (target) DO NOTHING`: a row that conflicts on `target` is skipped. Without
    /// target columns, any uniqueness conflict skips the row.
    public func onConflictDoNothing<each Target: ColumnExpression>(_ target: repeat KeyPath<Root.Columns, each Target>)
        -> Insert
    {
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
    ///
    /// A column the insert leaves out so that its SQL default applies (a `nil` value in a column
    /// with a `DEFAULT`) is not updated: the existing row keeps its value, rather than taking the
    /// default.
    public static func upsert(_ record: Self) -> Insert<Self> {
        var insert = Insert([record])
        let columns = schema.recordColumns
        let updated = columns.indices.filter { !columns[$0].isPrimaryKey }.map { (index: $0, name: columns[$0].name) }
        insert.upsert = UpsertClause(target: schema.primaryKey, assignments: nil, updatedRecordColumns: updated)
        return insert
    }
}
