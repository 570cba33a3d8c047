import CSQLite
import SlateConcurrency
import SlateCore

// Tables at two levels of one statement. A correlated subquery names the outer query's columns,
// which render qualified by their table, `"Staff"."id"`; had the subquery the same table under
// the same name, SQLite would resolve that name to the inner table and the condition would compare
// the inner row with itself. So while a clause closure runs, the tables of the statement it
// belongs to are known as outer tables, and a table that a query built inside it names again
// takes an alias of its own (`"Staff" AS "Staff_2"`). Tables given an explicit alias keep it.
//
// Clause closures are synchronous, so the ones running on a thread are exactly those of its call
// stack. Each thread counts them (a plain C thread-local, touched by that thread only): a query
// built outside every clause closure, such as `Person.find(id)` in a loop, neither reads the
// task-local value nor copies it. A task started inside a clause closure runs after it, or on
// another thread, so the queries it builds are not part of the statement and take no alias.

/// The tables of the statements whose clause closures are running.
@usableFromInline
enum QueryNesting {
    /// The qualifiers (table names or aliases) of the enclosing statements' tables, while the
    /// thread's nesting depth is above zero.
    @TaskLocal static var outerQualifiers: [String] = []

    /// Whether a clause closure is running on this thread: without one, every qualifier is the
    /// name itself.
    @inlinable
    static var isActive: Bool { slate_query_nesting_depth() != 0 }

    /// `name`, or `name_2`, `name_3`, … when an enclosing statement already uses `name` (SQLite
    /// compares identifiers without regard to ASCII case).
    @usableFromInline
    static func qualifier(for name: String) -> String {
        if !isActive { return name }
        let outer = outerQualifiers
        if outer.isEmpty { return name }
        let taken = Set(outer.map { $0.lowercased() })
        guard taken.contains(name.lowercased()) else { return name }
        var number = 2
        while taken.contains("\(name)_\(number)".lowercased()) { number += 1 }
        return "\(name)_\(number)"
    }

    /// Runs `body` with `qualifiers` added to the outer tables.
    static func with<Result>(_ qualifiers: [String], _ body: () throws -> Result) rethrows -> Result {
        let depth = slate_query_nesting_depth()
        slate_set_query_nesting_depth(depth + 1)
        defer { slate_set_query_nesting_depth(depth) }
        return try $outerQualifiers.withValue(depth == 0 ? qualifiers : outerQualifiers + qualifiers, operation: body)
    }
}

extension SelectStatement {
    /// Runs a clause closure of this statement: queries built inside it alias the tables this
    /// statement (or one around it) already names.
    @usableFromInline
    func withOuterQualifiers<Result>(_ body: () throws -> Result) rethrows -> Result {
        try QueryNesting.with(clauses.qualifiers, body)
    }
}
