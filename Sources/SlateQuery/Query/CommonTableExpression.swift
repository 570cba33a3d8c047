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
        if definitions.isEmpty { return SQL(segments: []) }
        var sql = SQL(text: isRecursive ? "WITH RECURSIVE " : "WITH ")
        sql.append(SQL.joined(definitions, separator: ", "))
        sql.append(text: " ")
        return sql
    }

    /// Adds `"T"("a", …) AS (definition)`: the columns are `T`'s, in order, and the definition
    /// selects one value for each.
    mutating func add<T: Table>(_ table: T.Type, recursive: Bool, definition: SQL) {
        var sql = SQL(.identifier(T.tableName))
        sql.append(text: "(")
        for (index, column) in T.schema.recordColumns.enumerated() {
            if index > 0 { sql.append(text: ", ") }
            sql.append(.identifier(column.name))
        }
        sql.append(text: ") AS (")
        sql.append(definition)
        sql.append(text: ")")
        definitions.append(sql)
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
        copy.filter.commonTables.add(T.self, recursive: recursive, definition: definition.sql)
        return copy
    }
}

extension Delete {
    /// Adds a common table expression before the deletion: `WITH "T"(…) AS (definition) DELETE …`.
    public func with<T: Table>(_ table: T.Type, recursive: Bool = false, as definition: some QueryStatement) -> Delete {
        var copy = self
        copy.filter.commonTables.add(T.self, recursive: recursive, definition: definition.sql)
        return copy
    }
}

// MARK: - A select as a table source

extension Table {
    /// The rows of `subquery`, as the table `Self` describes them: a select used as a table source,
    /// with typed columns. `Self`'s schema names the source and its columns, and `subquery`
    /// selects one value for each, in order.
    ///
    /// ```swift
    /// // struct Spending: Table { customerId: Int64, spent: Double? }, schema named "spending"
    /// let big = try Spending.from(Invoice.group(by: \.customerId).select { ($0.customerId, $0.total.sum()) })
    ///     .where { $0.spent > 45 }
    ///     .fetchAll(db)
    /// // WITH "spending"("customerId", "spent") AS (SELECT … GROUP BY …) SELECT … FROM "spending" WHERE …
    /// ```
    ///
    /// It renders as a common table expression, which SQLite plans as it plans a subquery in
    /// `FROM` (and SQLite has no column list for a subquery's alias, which this needs).
    public static func from(_ subquery: some QueryStatement) -> Select<Self> {
        Select().with(Self.self, as: subquery)
    }

    /// `SELECT … FROM "Self" JOIN` the rows of `subquery`, as the table `T` describes them.
    public static func join<T: Table>(
        _ table: T.Type, from subquery: some QueryStatement,
        on condition: (Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Self, T> {
        Select<Self>().join(table, from: subquery, on: condition)
    }

    /// `SELECT … FROM "Self" LEFT JOIN` the rows of `subquery`, as the table `T` describes them.
    public static func leftJoin<T: Table>(
        _ table: T.Type, from subquery: some QueryStatement,
        on condition: (Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Self, T?> {
        Select<Self>().leftJoin(table, from: subquery, on: condition)
    }
}

extension Select {
    /// `JOIN` the rows of `subquery`, as the table `T` describes them (see ``Table/from(_:)``):
    ///
    /// ```swift
    /// Customer.join(Spending.self, from: spendingQuery, on: { $0.customerId == $1.customerId })
    /// ```
    public func join<T: Table>(
        _ table: T.Type, from subquery: some QueryStatement,
        on condition: (Root.Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Root, T> {
        var joined = join(T.self, on: condition)
        joined.clauses.commonTables.add(T.self, recursive: false, definition: subquery.sql)
        return joined
    }

    /// `LEFT JOIN` the rows of `subquery`, as the table `T` describes them: `nil` for `T` when no
    /// row matched.
    public func leftJoin<T: Table>(
        _ table: T.Type, from subquery: some QueryStatement,
        on condition: (Root.Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Root, T?> {
        var joined = leftJoin(T.self, on: condition)
        joined.clauses.commonTables.add(T.self, recursive: false, definition: subquery.sql)
        return joined
    }
}
