import Foundation
import Slate
import SlateTestingFaults
import Testing

/// A 10,000-row CSV import under every fault: the table is there with every row, or (when the
/// import created it) not at all; with batches, every batch reported committed is there.
@Suite(.serialized) struct CSVImportSweepTests {
    static let rows = 10_000

    /// The CSV file, written once per process: an id, a name and a price per row.
    static let file: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-fault-import-\(getpid()).csv")
        var text = "id,name,price\n"
        for id in 1...rows { text += "\(id),name \(id),\(id / 4).\(id % 4 * 25)\n" }
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8))
        atexit {
            unlink(
                FileManager.default.temporaryDirectory.appendingPathComponent("slate-fault-import-\(getpid()).csv").path
            )
        }
        return url
    }()

    struct Import: FaultScenario {
        /// Rows per transaction, or `nil` for one transaction.
        var batch: Int?

        func prepare(at path: String) throws {
            _ = CSVImportSweepTests.file
            let db = try Database(path: path)
            try db.execute(sql: "CREATE TABLE probe(id INTEGER PRIMARY KEY, note TEXT)")
            try db.close()
        }

        func run(_ context: FaultRunContext) throws -> Int {
            let db = try Database(location: context.location)
            defer { try? db.close() }
            context.attempt("import")
            do {
                let result = try db.importCSV(
                    from: CSVImportSweepTests.file, into: "city", options: CSVImportOptions(rowsPerTransaction: batch))
                context.reportDone("import")
                if result.rowsImported != CSVImportSweepTests.rows {
                    context.record(FaultIssue(.wrongResult, "the import reported \(result.rowsImported) rows"))
                }
                return result.rowsImported
            } catch {
                if let csvError = error as? CSVError {
                    context.tally("rows reported committed before a failure", csvError.committedRows)
                    if csvError.committedRows > 0 { context.reportDone("rows \(csvError.committedRows)") }
                }
                context.probe(after: error) {
                    if let rollbackError = (error as? CSVError)?.rollbackError {
                        throw FaultIssue(.unusableConnection, "the import could not roll back: \(rollbackError)")
                    }
                    try db.transaction { try db.execute(sql: "INSERT INTO probe(note) VALUES ('after the fault')") }
                }
                throw error
            }
        }

        func databaseError(in error: any Error) -> DatabaseError? {
            (error as? CSVError)?.databaseError ?? error as? DatabaseError
        }

        func verify(_ db: Database, outcome: Result<Int, any Error>, context: FaultRunContext) throws {
            let exists = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'city'") > 0
            let count = exists ? try db.fetchValue(Int.self, sql: "SELECT count(*) FROM city") : 0
            if exists {
                // Every row there is whole, with its inferred types, and the rows are a prefix.
                let intact = try db.fetchValue(
                    Int.self,
                    sql: """
                        SELECT count(*) FROM city
                        WHERE typeof(id) = 'integer' AND name = 'name ' || id
                          AND price = CAST(id / 4 AS REAL) + (id % 4) * 0.25 AND id <= \(count)
                        """)
                guard intact == count else {
                    throw FaultIssue(.halfApplied, "\(count) rows imported, \(intact) of them whole and in order")
                }
            }
            let committed = context.done.compactMap { $0.hasPrefix("rows ") ? Int($0.dropFirst(5)) : nil }.max() ?? 0
            switch outcome {
            case .success:
                guard count == CSVImportSweepTests.rows else {
                    throw FaultIssue(.lostCommit, "the import reported success; the table holds \(count) rows")
                }
            case .failure:
                guard count >= committed else {
                    throw FaultIssue(.lostCommit, "\(committed) rows were reported committed; the table holds \(count)")
                }
                // Whole batches only (or every row, when the last commit landed and reported failure).
                let unit = batch ?? CSVImportSweepTests.rows
                guard count % unit == 0 || count == CSVImportSweepTests.rows else {
                    throw FaultIssue(.halfApplied, "the failed import left \(count) rows, not whole batches of \(unit)")
                }
                if batch == nil, exists, count == 0 {
                    throw FaultIssue(.halfApplied, "the failed import left the table it created")
                }
            }
            context.tally("imported rows checked", count)
        }
    }

    @Test func importInOneTransaction() throws {
        try SweepSettings.run(Import(batch: nil), named: "CSV import of 10,000 rows", coverage: .sample(12))
    }

    @Test func importInBatches() throws {
        try SweepSettings.run(
            Import(batch: 2_500), named: "CSV import of 10,000 rows in batches of 2,500", coverage: .sample(8))
    }
}
