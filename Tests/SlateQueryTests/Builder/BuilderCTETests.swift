import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// `WITH [RECURSIVE] … AS (…)` before selects, updates and deletes.
@Suite struct BuilderCTETests {
    /// Chinook's reporting tree (`Level.levels`).
    static var levels: CompoundSelect<Employee.Columns, (Int64?, Int64)> { Level.levels }

    static let handWrittenLevels = Level.handWrittenLevels

    @Test func rendersRecursiveAndPlainCommonTables() throws {
        let query = Level.all().with(Level.self, recursive: true, as: Self.levels).order { ($0.depth, $0.employeeId) }
        #expect(
            SQLLayout.lines(query.sql) == """
                WITH RECURSIVE "level"("employeeId", "depth") AS (
                  SELECT "Employee"."EmployeeId", ?
                  FROM "Employee"
                  WHERE "Employee"."ReportsTo" IS NULL
                  UNION ALL SELECT "Employee"."EmployeeId", "level"."depth" + ?
                  FROM "Employee"
                  JOIN "level" ON "Employee"."ReportsTo" = "level"."employeeId"
                )
                SELECT "level"."employeeId", "level"."depth"
                FROM "level"
                ORDER BY "level"."depth", "level"."employeeId"
                -- arguments: 0, 1
                """)
        let plain = Level.all().with(
            Level.self, as: Employee.select { ($0.employeeId, SQLExpression<Int64>(value: 1)) })
        #expect(
            plain.sql.text.hasPrefix(
                #"WITH "level"("employeeId", "depth") AS (SELECT "Employee"."EmployeeId", ? FROM "Employee") SELECT "#))
        #expect(plain.countSQL.text.hasPrefix(#"WITH "level""#))
    }

    @Test func selectsFromARecursiveTreeLikeHandWrittenSQL() throws {
        let db = try Database.chinook()
        let levels = try Level.all().with(Level.self, recursive: true, as: Self.levels).order {
            ($0.depth, $0.employeeId)
        }.fetchAll(db)
        let expected = try db.fetchAll(
            SQL(sql: Self.handWrittenLevels + " SELECT employeeId, depth FROM level ORDER BY depth, employeeId")
        ) { row in Level(employeeId: try row.decode(at: 0), depth: try row.decode(at: 1)) }
        #expect(levels == expected)
        let depths: [Int64] = levels.map(\.depth)
        #expect(depths == [0, 1, 1, 2, 2, 2, 2, 2])
        // Joined back to the table, and counted.
        let deepest: [(String, Int64)] = try Employee.join(Level.self, on: { $0.employeeId == $1.employeeId })
            .with(Level.self, recursive: true, as: Self.levels)
            .where { _, level in level.depth == 2 }
            .order { employee, _ in employee.lastName }
            .select { employee, level in (employee.lastName, level.depth) }.fetchAll(db)
        #expect(deepest.count == 5 && deepest.allSatisfy { $0.1 == 2 })
        #expect(
            try Level.all().with(Level.self, recursive: true, as: Self.levels).where { $0.depth >= 1 }.fetchCount(db)
                == 7)
    }

    @Test func updatesAndDeletesUseCommonTables() throws {
        let db = try Database.chinookCopy()
        let update = Employee.update { $0.title.set(to: "Deep") }
            .where { $0.employeeId.in(Level.where { $0.depth == 2 }.select { $0.employeeId }) }
            .with(Level.self, recursive: true, as: Self.levels)
        #expect(update.sql.text.hasPrefix(#"WITH RECURSIVE "level"("employeeId", "depth") AS ("#))
        #expect(
            SQLLayout.lines(update.sql).contains(
                """
                UPDATE "Employee"
                SET "Title" = ?
                WHERE "Employee"."EmployeeId" IN (
                  SELECT "level"."employeeId"
                  FROM "level"
                  WHERE "level"."depth" = ?
                )
                """))
        #expect(try update.execute(db) == 5)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM Employee WHERE Title = 'Deep'") == 5)
        let written = try Database.chinookCopy()
        // Customers have invoices: compare the deletions without the foreign keys.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        try written.execute(sql: "PRAGMA foreign_keys = OFF")
        try written.execute(
            sql: Self.handWrittenLevels + """

                DELETE FROM Customer
                WHERE SupportRepId IN (SELECT employeeId FROM level WHERE depth = 2) AND Country = 'USA'
                """
        )
        let deleted = try Customer.delete()
            .where { $0.supportRepId.in(Level.where { $0.depth == 2 }.select { $0.employeeId }) && $0.country == "USA" }
            .with(Level.self, recursive: true, as: Self.levels)
            .execute(db)
        #expect(deleted == 13)
        let after = try db.fetchAll(SQL(sql: "SELECT * FROM Customer ORDER BY rowid")) { row in row.values }
        let expectedAfter = try written.fetchAll(SQL(sql: "SELECT * FROM Customer ORDER BY rowid")) { row in row.values
        }
        #expect(after == expectedAfter)
    }
}
