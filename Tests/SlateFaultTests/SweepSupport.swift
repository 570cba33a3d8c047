import Foundation
import Slate
import SlateTestingFaults
import Testing

/// How much of each sweep runs. `swift test` (and so CI) runs seeded samples; the long run
/// (`.ci/fault-sweep.sh --full`) sets `SLATE_FAULT_SWEEP=full`, or a number of points per
/// operation and kind, and `SLATE_FAULT_SEED` for another sample.
enum SweepSettings {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// `default`, unless `SLATE_FAULT_SWEEP` says otherwise.
    static func coverage(default fallback: FaultSweep.Coverage) -> FaultSweep.Coverage {
        switch environment["SLATE_FAULT_SWEEP"] {
        case "full": .every
        case let value?: Int(value).map { .sample(max(2, $0)) } ?? fallback
        case nil: fallback
        }
    }

    static var seed: UInt64 {
        environment["SLATE_FAULT_SEED"].flatMap { UInt64($0) } ?? 34
    }

    /// Runs `scenario` under `kinds`, prints the report's summary (and writes the whole report
    /// into `SLATE_FAULT_REPORT_DIR` when set), and expects no finding.
    @discardableResult
    static func run<Scenario: FaultScenario>(
        _ scenario: Scenario, named name: String, coverage: FaultSweep.Coverage,
        kinds: [FaultInjector.Kind] = FaultSweep.allKinds, operations: [FaultInjector.Operation]? = nil,
        isPersistent: Bool = false, acceptedCodes: Set<ResultCode> = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> FaultSweepReport {
        var sweep = FaultSweep(
            kinds: kinds, operations: operations, coverage: Self.coverage(default: coverage), seed: seed,
            isPersistent: isPersistent)
        sweep.expectedCodes.formUnion(acceptedCodes)
        let report = try sweep.run(scenario, named: name)
        print(report.summary)
        if let directory = environment["SLATE_FAULT_REPORT_DIR"] {
            let file = directory + "/" + name.replacingOccurrences(of: " ", with: "-") + ".txt"
            try? report.description(issueLimit: .max).write(toFile: file, atomically: true, encoding: .utf8)
        }
        #expect(report.issues.isEmpty, "\(report)", sourceLocation: sourceLocation)
        #expect(report.injected > 0, "no fault was injected: \(report)", sourceLocation: sourceLocation)
        return report
    }
}

/// Batches of rows with a running total: a transaction inserts one batch and updates the totals,
/// so a transaction applied in part does not add up, and every batch's rows are recognisable.
enum Ledger {
    static let rowsPerBatch = 8
    static let payloadSize = 700

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, batch INTEGER NOT NULL, payload BLOB NOT NULL);
                CREATE INDEX item_batch ON item(batch);
                CREATE TABLE total(id INTEGER PRIMARY KEY CHECK (id = 1), items INTEGER NOT NULL, batches INTEGER NOT NULL);
                INSERT INTO total VALUES (1, 0, 0);
                CREATE TABLE probe(id INTEGER PRIMARY KEY, note TEXT);
                """)
    }

    /// The payload of every row of `batch`.
    static func payload(of batch: Int) -> Data {
        Data(repeating: UInt8(truncatingIfNeeded: batch &* 37 &+ 11), count: payloadSize)
    }

    /// Inserts batch `batch` and updates the totals; call inside a transaction.
    static func insert(batch: Int, into db: Database) throws {
        let payload = payload(of: batch)
        for _ in 0..<rowsPerBatch {
            try db.execute("INSERT INTO item(batch, payload) VALUES (\(batch), \(payload))")
        }
        try db.execute("UPDATE total SET items = items + \(rowsPerBatch), batches = batches + 1")
    }

    /// Checks through `db` (in the operation, right after a commit) that batch `batch` reads back
    /// whole: a read that went wrong without an error is a wrong result.
    static func readBack(batch: Int, from db: Database, context: FaultRunContext) throws {
        let count = try db.fetchValue(
            Int.self, "SELECT count(*) FROM item WHERE batch = \(batch) AND payload = \(payload(of: batch))")
        if count != rowsPerBatch {
            context.record(
                FaultIssue(.wrongResult, "batch \(batch) read back \(count) of \(rowsPerBatch) rows after its commit"))
        }
    }

    /// A small write and a read on a connection after a failure (in a transaction when `db` is
    /// in none: a queue's or pool's `write` already runs one).
    static func probe(_ db: Database) throws {
        if db.isInTransaction {
            try db.execute(sql: "INSERT INTO probe(note) VALUES ('after the fault')")
        } else {
            try db.transaction { try db.execute(sql: "INSERT INTO probe(note) VALUES ('after the fault')") }
        }
        _ = try db.fetchValue(Int.self, sql: "SELECT count(*) FROM item")
    }

    /// Every batch the run reported committed is there whole; every batch there is whole and was
    /// at least started; the totals add up.
    static func verify(_ db: Database, context: FaultRunContext, seeded: Int = 0) throws {
        let batches = try db.fetchAll(
            CopiedRow.self, sql: "SELECT batch, count(*) FROM item GROUP BY batch ORDER BY batch")
        var present: Set<Int> = []
        var items = 0
        for row in batches {
            let batch: Int = try row.decode(at: 0)
            let count: Int = try row.decode(at: 1)
            present.insert(batch)
            items += count
            let intact = try db.fetchValue(
                Int.self, "SELECT count(*) FROM item WHERE batch = \(batch) AND payload = \(payload(of: batch))")
            if count != rowsPerBatch || intact != rowsPerBatch {
                throw FaultIssue(.halfApplied, "batch \(batch) has \(count) rows, \(intact) intact, of \(rowsPerBatch)")
            }
            if batch > seeded && !context.attempted.contains("batch \(batch)") {
                throw FaultIssue(.wrongResult, "batch \(batch) is there but was never written")
            }
        }
        let totals = try db.fetchOne(CopiedRow.self, sql: "SELECT items, batches FROM total")
        let totalItems: Int? = try totals?.decode(at: 0)
        let totalBatches: Int? = try totals?.decode(at: 1)
        if totalItems != items || totalBatches != present.count {
            throw FaultIssue(
                .halfApplied,
                "the totals say \(totalItems ?? -1) rows in \(totalBatches ?? -1) batches; the table holds \(items) in \(present.count)"
            )
        }
        for batch in 1...max(1, seeded) where seeded > 0 && !present.contains(batch) {
            throw FaultIssue(.lostCommit, "seeded batch \(batch) is missing")
        }
        for item in context.done where item.hasPrefix("batch ") {
            guard let batch = Int(item.dropFirst(6)), present.contains(batch) else {
                throw FaultIssue(.lostCommit, "\(item) was reported committed and is missing")
            }
            context.tally("reported commits found")
        }
    }
}
