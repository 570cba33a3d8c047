import Foundation
import Slate

// Tables the builder corpus and the builder tests share: a common table expression's row and a
// derived table's row.

/// A common table expression's row: an employee and their depth in the reporting tree.
package struct Level: Table, Equatable {
    package var employeeId: Int64?
    package var depth: Int64

    package static let schema = TableSchema(
        name: "level",
        columns: [.init(name: "employeeId", type: "INTEGER"), .init(name: "depth", type: "INTEGER", isNotNull: true)])

    package struct Columns: TableColumns {
        package let employeeId: Column<Level, Int64?>
        package let depth: Column<Level, Int64>
        package init(qualifier: String) {
            employeeId = Column(qualifier, "employeeId")
            depth = Column(qualifier, "depth")
        }
    }

    package init(employeeId: Int64?, depth: Int64) {
        self.employeeId = employeeId
        self.depth = depth
    }

    package init(row: borrowing Row) throws {
        employeeId = try row.decode(at: 0)
        depth = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(employeeId)
        try encoder.encode(depth)
    }
}

extension Level {
    /// Chinook's reporting tree: the top employee at depth 0, each report one deeper.
    package static var levels: CompoundSelect<Employee.Columns, (Int64?, Int64)> {
        Employee.where { $0.reportsTo == nil }.select { ($0.employeeId, SQLExpression<Int64>(value: 0)) }
            .unionAll(
                Employee.join(Level.self, on: { $0.reportsTo == $1.employeeId }).select { employee, level in
                    (employee.employeeId, level.depth + 1)
                })
    }

    package static let handWrittenLevels = """
        WITH RECURSIVE level(employeeId, depth) AS (
          SELECT EmployeeId, 0 FROM Employee WHERE ReportsTo IS NULL
          UNION ALL SELECT e.EmployeeId, level.depth + 1 FROM Employee e JOIN level ON e.ReportsTo = level.employeeId)
        """
}

/// A derived table's row: a customer and what they spent.
package struct Spending: Table, Equatable {
    package var customerId: Int64
    package var spent: Double?

    package static let schema = TableSchema(
        name: "spending",
        columns: [.init(name: "customerId", type: "INTEGER", isNotNull: true), .init(name: "spent", type: "REAL")])

    package struct Columns: TableColumns {
        package let customerId: Column<Spending, Int64>
        package let spent: Column<Spending, Double?>
        package init(qualifier: String) {
            customerId = Column(qualifier, "customerId")
            spent = Column(qualifier, "spent")
        }
    }

    package init(customerId: Int64, spent: Double?) {
        self.customerId = customerId
        self.spent = spent
    }

    package init(row: borrowing Row) throws {
        customerId = try row.decode(at: 0)
        spent = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(customerId)
        try encoder.encode(spent)
    }
}
