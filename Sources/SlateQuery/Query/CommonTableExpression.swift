import SlateConcurrency
import SlateCore

// Common table expressions: `WITH [RECURSIVE] "name"("a", "b") AS (…)` before a select, an update
// or a delete. A CTE is declared as a `Table` type whose schema names it and its columns, so the
// statement (and the recursive member itself) query it like any table, with typed columns.

/// The `WITH` clause of a statement: its common table expressions, in order.
public struct CommonTableExpressions: Sendable {
    /// `"name"("a", …) AS (…)` for each table.
    var definitions: [SQL] = []
    /// Whether one of them is recursive: `WITH RECURSIVE`.
    var isRecursive = false

    /// `WITH [RECURSIVE] … ` (with a trailing space), or nothing.
    var prefix: SQL {
        if definitions.isEmpty { return SQL(sql: "") }
        return sqlConcat(SQL(sql: isRecursive ? "WITH RECURSIVE " : "WITH "), SQL.joined(definitions, separator: ", "), " ")
    }

    /// Adds `"T"("a", …) AS (definition)`: the columns are `T`'s, in order, and the definition
    /// selects one value for each.
    mutating func add<T: Table>(_ table: T.Type, recursive: Bool, definition: SQL) {
        let columns = T.schema.recordColumns.map(\.name.quotedIdentifier).joined(separator: ", ")
        definitions.append(sqlConcat(SQL(sql: T.tableName.quotedIdentifier + "(" + columns + ") AS ("), definition, ")"))
        isRecursive = isRecursive || recursive
    }
}

extension SelectStatement {
    /// Adds a common table expression to the statement: `WITH "T"(…) AS (definition)`. `T` is a
    /// ``Table`` whose schema names the CTE and its columns; the statement queries it as any table
    /// (`T.all()`, joins, subqueries), and the definition selects a value for each column, in order.
    ///
    /// ```swift
    /// // struct Level: Table { employeeId: Int64?, depth: Int64 }, schema named "level"
    /// let anchor = Employee.where { $0.reportsTo == nil }.select { ($0.employeeId, SQLExpression<Int64>(value: 0)) }
    /// let step = Employee.join(Level.self, on: { $0.reportsTo == $1.employeeId })
    ///     .select { employee, level in (employee.employeeId, level.depth + 1) }
    /// let levels = try Level.all().with(Level.self, recursive: true, as: anchor.unionAll(step)).fetchAll(db)
    /// ```
    ///
    /// - Parameter recursive: Whether the definition refers to `T` itself: `WITH RECURSIVE`.
    public func with<T: Table>(_ table: T.Type, recursive: Bool = false, as definition: some QueryStatement) -> Self {
        var copy = self
        copy.clauses.commonTables.add(T.self, recursive: recursive, definition: definition.sql)
        return copy
    }
}

extension Update {
    /// Adds a common table expression before the update: `WITH "T"(…) AS (definition) UPDATE …`.
    public func with<T: Table>(_ table: T.Type, recursive: Bool = false, as definition: some QueryStatement) -> Update {
        var copy = self
        copy.commonTables.add(T.self, recursive: recursive, definition: definition.sql)
        return copy
    }
}

extension Delete {
    /// Adds a common table expression before the deletion: `WITH "T"(…) AS (definition) DELETE …`.
    public func with<T: Table>(_ table: T.Type, recursive: Bool = false, as definition: some QueryStatement) -> Delete {
        var copy = self
        copy.commonTables.add(T.self, recursive: recursive, definition: definition.sql)
        return copy
    }
}
