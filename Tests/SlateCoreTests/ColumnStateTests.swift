import Slate
import Testing

/// A statement that learned something from its result columns (their names, where a read by name
/// found its column) checks once per run that SQLite did not re-prepare it since: a schema change
/// can change the columns of `SELECT *` under a statement that is reused. These tests reuse one
/// prepared statement across runs that end in each possible way — finished, stopped after a row
/// and reset, failed — with the table recreated in another column order between the runs, so a
/// kept position would read `c` (3) or `a` (1) instead of `b` (2). They need no `DROP COLUMN`, so
/// they also run against SQLCipher's SQLite 3.15.2, which cannot count re-preparations and
/// compares the column names instead.
@Suite struct ColumnStateTests {
    /// A table `pair(a, x, b, c)` with rows (1, 99, 2, 3) and (10, 990, 20, 30).
    func pairs() throws -> Database {
        let db: Database = try Database()
        try db.execute(
            sql: """
                CREATE TABLE pair(a INTEGER, x INTEGER, b INTEGER, c INTEGER);
                INSERT INTO pair VALUES (1, 99, 2, 3), (10, 990, 20, 30);
                """)
        return db
    }

    /// Recreates `pair` as `(b, c, a)`: every column moves.
    func reorder(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE pair2(b INTEGER, c INTEGER, a INTEGER);
                INSERT INTO pair2 SELECT b, c, a FROM pair;
                DROP TABLE pair;
                ALTER TABLE pair2 RENAME TO pair;
                """)
    }

    /// Both rows read as `[b, a]`.
    static let bothRows: [[Int]] = [[2, 1], [20, 10]]
    /// The first row read as `[b, a]`.
    static let firstRow: [[Int]] = [[2, 1]]

    /// Steps `statement` through every row, reading `b` and then `a` by name.
    func readAll(_ statement: Statement) throws -> [[Int]] {
        var values: [[Int]] = []
        while try statement.step() {
            let pair: [Int] = try statement.withCurrentRow { row in
                [try row.decode(Int.self, named: "b"), try row.decode(Int.self, named: "a")]
            }
            values.append(pair)
        }
        return values
    }

    @Test func aFinishedRunIsFollowedByACheck() throws {
        let db: Database = try pairs()
        let statement: Statement = try db.prepare(sql: "SELECT * FROM pair ORDER BY a")
        let before: [[Int]] = try readAll(statement)
        try reorder(db)
        // No reset: SQLite starts the next run itself after the end of the rows.
        let after: [[Int]] = try readAll(statement)
        #expect(before == Self.bothRows)
        #expect(after == Self.bothRows)
    }

    @Test func aRunStoppedAfterItsFirstRowIsFollowedByACheck() throws {
        let db: Database = try pairs()
        let statement: Statement = try db.prepare(sql: "SELECT * FROM pair ORDER BY a")
        #expect(try statement.step())
        let first: Int = try statement.withCurrentRow { try $0.decode(Int.self, named: "b") }
        try statement.reset()
        try reorder(db)
        let after: [[Int]] = try readAll(statement)
        #expect(first == 2)
        #expect(after == Self.bothRows)
    }

    @Test func namesReadBeforeTheFirstStepAreCheckedWhenTheRunStarts() throws {
        let db: Database = try pairs()
        let statement: Statement = try db.prepare(sql: "SELECT * FROM pair ORDER BY a")
        let namesBefore: [String] = statement.columnNames
        try reorder(db)
        let after: [[Int]] = try readAll(statement)
        let namesAfter: [String] = statement.columnNames
        #expect(namesBefore == ["a", "x", "b", "c"])
        #expect(after == Self.bothRows)
        #expect(namesAfter == ["b", "c", "a"])
    }

    @Test func aFailedRunIsFollowedByACheck() throws {
        let db: Database = try pairs()
        // The second row fails: abs() of the smallest integer overflows. (No ORDER BY: a sort
        // would compute every row, and fail, before the first one is returned.)
        let statement: Statement = try db.prepare(
            sql: """
                SELECT *, abs(CASE WHEN a = 10 THEN -9223372036854775807 - 1 ELSE 0 END) AS failing
                FROM pair
                """)
        var firstRun: [Int] = []
        var failed: Bool = false
        do {
            while try statement.step() {
                firstRun.append(try statement.withCurrentRow { try $0.decode(Int.self, named: "b") })
            }
        } catch is DatabaseError {
            failed = true
        }
        try db.execute(sql: "DELETE FROM pair WHERE a = 10")
        try reorder(db)
        let after: [[Int]] = try readAll(statement)
        #expect(firstRun == [2])
        #expect(failed)
        #expect(after == Self.firstRow)
    }

    /// The check runs once per run, not once per row: after the first read by name on a row there
    /// is nothing left to check until the run ends.
    @Test func theCheckRunsOncePerRun() throws {
        let db: Database = try pairs()
        let statement: Statement = try db.prepare(sql: "SELECT * FROM pair ORDER BY a")
        var pendingOnEachRow: [Bool] = []
        while try statement.step() {
            _ = try statement.withCurrentRow { try $0.decode(Int.self, named: "b") }
            pendingOnEachRow.append(statement.columnStateNeedsCheck)
        }
        let pendingAfterTheRun: Bool = statement.columnStateNeedsCheck
        #expect(pendingOnEachRow == [false, false])
        #expect(pendingAfterTheRun)
    }
}
