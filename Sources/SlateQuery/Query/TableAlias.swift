import SlateConcurrency
import SlateCore

/// A name for a table in a query, so the same table can appear twice, as in a self-join.
///
/// ```swift
/// let manager = TableAlias<Employee>("manager")
/// let rows: [(Employee, Employee?)] = try Employee.all()
///     .leftJoin(manager, on: { employee, manager in employee.reportsTo == manager.employeeId })
///     .fetchAll(db)
/// // SELECT … FROM "Employee" LEFT JOIN "Employee" AS "manager" ON "Employee"."ReportsTo" = "manager"."EmployeeId"
/// ```
///
/// The same works with a string: `.leftJoin(Employee.self, as: "manager", on: …)`; and
/// `Employee.aliased("e")` renames the first table.
public struct TableAlias<Root: Table>: Sendable, Hashable {
    /// The alias, unquoted.
    public let name: String

    /// An alias for `Root`.
    public init(_ name: String) {
        self.name = name
    }

    /// An alias for `table`: `TableAlias(Employee.self, "manager")`.
    public init(_ table: Root.Type, _ name: String) {
        self.name = name
    }

    /// The table's columns, qualified by the alias.
    public var columns: Root.Columns { Root.Columns(qualifier: name) }

    /// Every record of the table, under this alias.
    public func all() -> Select<Root> {
        Select(alias: name)
    }
}

extension Select {
    /// `JOIN "T" AS "alias" ON condition`.
    public func join<T: Table>(
        _ alias: TableAlias<T>, on condition: (Root.Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Root, T> {
        join(T.self, as: alias.name, on: condition)
    }

    /// `LEFT JOIN "T" AS "alias" ON condition`.
    public func leftJoin<T: Table>(
        _ alias: TableAlias<T>, on condition: (Root.Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Root, T?> {
        leftJoin(T.self, as: alias.name, on: condition)
    }
}

extension Select2 {
    /// `JOIN "T" AS "alias" ON condition`.
    public func join<T: Table>(
        _ alias: TableAlias<T>,
        on condition: (A.JoinedColumns, B.JoinedColumns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select3<A, B, T> {
        join(T.self, as: alias.name, on: condition)
    }

    /// `LEFT JOIN "T" AS "alias" ON condition`.
    public func leftJoin<T: Table>(
        _ alias: TableAlias<T>,
        on condition: (A.JoinedColumns, B.JoinedColumns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select3<A, B, T?> {
        leftJoin(T.self, as: alias.name, on: condition)
    }
}
