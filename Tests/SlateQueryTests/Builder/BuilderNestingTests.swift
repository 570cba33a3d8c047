import Foundation
import Slate
import SlateTestSupport
import Testing

/// Which queries take an alias: those built inside a clause closure of a statement that already
/// names their table, on the thread running that closure; never one built outside every closure,
/// nor one built on another thread meanwhile. `find(key)` follows the same rule.
@Suite struct BuilderNestingTests {
    @Test func aFindBuiltInsideAClauseClosureIsAliased() throws {
        let db = try Database.chinook()
        let query = Employee.where { e in exists(Employee.find(2).where { $0.reportsTo == e.reportsTo }) }
            .select { $0.employeeId }
        let text = query.sql.text
        #expect(text.contains(#"FROM "Employee" AS "Employee_2" WHERE "Employee_2"."EmployeeId" = ?"#))
        #expect(text.contains(#""Employee_2"."ReportsTo" = "Employee"."ReportsTo""#))
        // Employee 2 reports to 1: the employees with the same manager.
        let ids = try query.fetchAll(db)
        #expect(ids == [2, 6])
    }

    @Test func aFindBuiltOutsideEveryClauseClosureIsNotAliased() throws {
        let db = try Database.chinook()
        let find = Employee.find(3)
        let text = find.sql.text
        #expect(text.contains(#"FROM "Employee" WHERE "Employee"."EmployeeId" = ?"#))
        #expect(!text.contains("Employee_2"))
        let found = try find.fetchOne(db)
        #expect(found?.employeeId == 3)
        // Once a nested query was built, queries built outside its closures have no alias again.
        let nested = Employee.where { e in exists(Employee.where { $0.reportsTo == e.employeeId }) }
        #expect(nested.sql.text.contains("Employee_2"))
        let after = Employee.find(3).sql.text
        #expect(!after.contains("Employee_2"))
    }

    @Test func aQueryBuiltOnAnotherThreadWhileAClosureRunsIsNotAliased() throws {
        let started = DispatchSemaphore(value: 0)
        let built = DispatchSemaphore(value: 0)
        let text = LockedText()
        let query = Employee.where { e in
            // While this closure runs, another thread builds the same table's find.
            let thread = Thread {
                started.wait()
                text.set(Employee.find(1).sql.text)
                built.signal()
            }
            thread.start()
            started.signal()
            built.wait()
            return e.employeeId == 1
        }
        let other = text.get()
        #expect(other.contains(#"FROM "Employee" WHERE "Employee"."EmployeeId" = ?"#))
        #expect(!other.contains("Employee_2"))
        #expect(query.sql.text.contains(#"WHERE "Employee"."EmployeeId" = ?"#))
    }
}

/// A string shared between two threads.
private final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func set(_ value: String) {
        lock.lock()
        text = value
        lock.unlock()
    }

    func get() -> String {
        lock.lock()
        defer { lock.unlock() }
        return text
    }
}
