import Foundation
import Slate
import SlateTestingFaults
import Testing

/// Transactions of inserts through a `DatabaseQueue`, under every fault, in both journal modes.
@Suite(.serialized) struct TransactionSweepTests {
    /// Three transactions, each inserting one batch of the ledger and updating its totals.
    struct InsertTransactions: FaultScenario {
        var journalMode: Database.JournalMode
        var transactions = 3

        func prepare(at path: String) throws {
            let db = try Database(path: path)
            try db.setJournalMode(journalMode)
            try Ledger.create(db)
            try db.transaction { try Ledger.insert(batch: 1, into: db) }
            try db.close()
        }

        func run(_ context: FaultRunContext) throws -> Int {
            let queue = try DatabaseQueue(location: context.location)
            for batch in 2..<(2 + transactions) {
                context.attempt("batch \(batch)")
                do {
                    try queue.write { db in try Ledger.insert(batch: batch, into: db) }
                } catch {
                    context.probe(after: error) { try queue.write { db in try Ledger.probe(db) } }
                    throw error
                }
                context.reportDone("batch \(batch)")
                try queue.read { db in try Ledger.readBack(batch: batch, from: db, context: context) }
            }
            return transactions
        }

        func verify(_ db: Database, outcome: Result<Int, any Error>, context: FaultRunContext) throws {
            try Ledger.verify(db, context: context, seeded: 1)
            if case .success = outcome, context.done.count != transactions {
                throw FaultIssue(.wrongResult, "the run succeeded with \(context.done.count) commits")
            }
        }
    }

    @Test func insertsInRollbackJournalMode() throws {
        try SweepSettings.run(
            InsertTransactions(journalMode: .delete), named: "insert transactions (rollback journal)", coverage: .every)
    }

    /// A disk that stays broken: from the fault point on, every call of that class fails.
    @Test func insertsWithPersistentIOErrors() throws {
        try SweepSettings.run(
            InsertTransactions(journalMode: .delete),
            named: "insert transactions (rollback journal, persistent I/O errors)",
            coverage: .every, kinds: [.ioError], isPersistent: true)
    }

    @Test func insertsInWALMode() throws {
        try SweepSettings.run(
            InsertTransactions(journalMode: .wal), named: "insert transactions (WAL)", coverage: .every)
    }
}
