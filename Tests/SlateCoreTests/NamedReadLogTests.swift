import Slate
import Testing

@testable import SlateCore

/// The reads by name of a statement's rows follow the order the first row asked for them
/// (`NamedReadLog`). A read of a missing column is not recorded: it must throw on every row, and
/// the reads after it must still find their own columns, never a neighbour's.
@Suite struct NamedReadLogTests {
    /// `t(a, b, c)` with three rows.
    func table() throws -> Database {
        let db: Database = try Database()
        try db.execute(
            sql: """
                CREATE TABLE t(a INTEGER, b INTEGER, c INTEGER);
                INSERT INTO t VALUES (1, 2, 3), (10, 20, 30), (100, 200, 300);
                """)
        return db
    }

    @Test func aMissingColumnThrowsOnEveryRowAndTheNextReadsKeepTheirColumns() throws {
        let db: Database = try table()
        var missingThrows = 0
        let rows: [[Int]] = try db.fetchAll(SQL(sql: "SELECT a, b, c FROM t ORDER BY a")) { row in
            let a: Int = try row["a"]
            do {
                let _: Int = try row["missing"]
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .range)
                missingThrows += 1
            }
            let hasMissing = row.hasColumn("missing")
            #expect(!hasMissing)
            let c: Int = try row["c"]
            let b: Int = try row["b"]
            return [a, b, c]
        }
        #expect(rows == [[1, 2, 3], [10, 20, 30], [100, 200, 300]])
        #expect(missingThrows == 3)
    }

    @Test func anOptionalReadOfAMissingColumnThrowsRatherThanReadingNil() throws {
        let db: Database = try table()
        let statement: Statement = try db.prepare(sql: "SELECT a, b FROM t ORDER BY a")
        var results: [String] = []
        while try statement.step() {
            try statement.withCurrentRow { row in
                let b: Int = try row["b"]
                do {
                    let missing: Int? = try row["c"]
                    results.append("read \(String(describing: missing))")
                } catch {
                    results.append("threw")
                }
                let a: Int = try row["a"]
                results.append("\(a),\(b)")
            }
        }
        #expect(results == ["threw", "1,2", "threw", "10,20", "threw", "100,200"])
    }

    @Test func rowsReadInAnotherOrderStillReadTheirColumns() throws {
        let db: Database = try table()
        var index = 0
        let rows: [[Int]] = try db.fetchAll(SQL(sql: "SELECT a, b, c FROM t ORDER BY a")) { row in
            defer { index += 1 }
            // The first row records c, a; the second asks for a, b, c; the third for b only.
            switch index {
            case 0: return [try row["c"], try row["a"]]
            case 1: return [try row["a"], try row["b"], try row["c"]]
            default: return [try row["b"]]
            }
        }
        #expect(rows == [[3, 1], [10, 20, 30], [200]])
    }

    /// After the first row's reads, the log's last entry leads back to its first: a name read
    /// for the first time in a later row, a name read twice in one row and a second run of the
    /// statement still read their own columns.
    @Test func namesFirstReadInLaterRowsAndRepeatedNamesReadTheirColumns() throws {
        let db: Database = try table()
        let statement: Statement = try db.prepare(sql: "SELECT a, b, c FROM t ORDER BY a")
        var results: [[Int]] = []
        for _ in 0..<2 {
            var index = 0
            while try statement.step() {
                try statement.withCurrentRow { row in
                    defer { index += 1 }
                    // The first row records a, b; the second adds c after them, and reads a again;
                    // the third reads a, b, c.
                    switch index {
                    case 0: results.append([try row["a"], try row["b"]])
                    case 1: results.append([try row["a"], try row["b"], try row["c"], try row["a"]])
                    default: results.append([try row["a"], try row["b"], try row["c"]])
                    }
                }
            }
        }
        let run: [[Int]] = [[1, 2], [10, 20, 30, 10], [100, 200, 300]]
        #expect(results == run + run)
    }
}
