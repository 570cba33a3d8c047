import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct ConcurrencyQueueTests {
    private func makeQueue() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        }
        return queue
    }

    // MARK: Blocking

    @Test func blockingWriteThenReadReturnsTheRows() throws {
        let queue = try makeQueue()
        let id = try queue.write { db in
            try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
            try db.execute("INSERT INTO item(name) VALUES (\("pear"))")
            return db.lastInsertedRowID
        }
        #expect(id == 2)
        let names = try queue.read { db in try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }
        #expect(names == ["apple", "pear"])
    }

    @Test func blockingWriteRollsBackWhenTheClosureThrows() throws {
        let queue = try makeQueue()
        let error = capturedDatabaseError {
            try queue.write { db in
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")  // UNIQUE violation
            }
        }
        #expect(error?.extendedResultCode == .constraintUnique)
        #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 0)
    }

    @Test func readIsReadOnlyAndRunsInATransaction() throws {
        let queue = try makeQueue()
        let inTransaction = try queue.read { db in db.isInTransaction }
        #expect(inTransaction)
        let error = capturedDatabaseError {
            try queue.read { db in try db.execute("INSERT INTO item(name) VALUES (\("apple"))") }
        }
        #expect(error?.resultCode == .readOnly)
        // query_only is switched off again afterwards.
        try queue.write { db in try db.execute("INSERT INTO item(name) VALUES (\("apple"))") }
        #expect(try queue.writeWithoutTransaction { db in try db.fetchValue(Bool.self, "PRAGMA query_only") } == false)
        #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT count(*) FROM item") } == 1)
    }

    @Test func writeWithoutTransactionRunsOutsideTransactionsAndWriteInside() throws {
        let queue = try makeQueue()
        #expect(try queue.writeWithoutTransaction { db in db.isInTransaction } == false)
        #expect(try queue.writeWithoutTransaction { db in db.isInTransaction } == false)
        #expect(try queue.write { db in db.isInTransaction } == true)
        // writeWithoutTransaction can run what a transaction cannot.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    @Test func transactionAndSavepointCommitOrRollBack() throws {
        let queue = try makeQueue()
        try queue.transaction(.exclusive) { db in try db.execute("INSERT INTO item(name) VALUES (\("a"))") }
        #expect(
            capturedDatabaseError {
                try queue.transaction { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("b"))")
                    throw DatabaseError(resultCode: .abort, message: "changed my mind")
                }
            }?.resultCode == .abort)
        try queue.savepoint { db in try db.execute("INSERT INTO item(name) VALUES (\("c"))") }
        #expect(
            capturedDatabaseError {
                try queue.savepoint("named") { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("d"))")
                    try db.execute("INSERT INTO item(name) VALUES (\("d"))")
                }
            }?.resultCode == .constraint)
        let names = try queue.read { db in try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }
        #expect(names == ["a", "c"])
        #expect(try queue.writeWithoutTransaction { db in db.isInTransaction } == false)
    }

    @Test func blockingCallsInsideAClosureFailInsteadOfDeadlocking() throws {
        let queue = try makeQueue()
        let error = try queue.writeWithoutTransaction { _ in capturedDatabaseError { try queue.read { _ in 1 } } }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("not reentrant") == true)
    }

    @Test func fileQueueKeepsDataAcrossQueues() throws {
        let (directory, path) = try makeTemporaryDatabase()
        defer { directory.remove() }
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE t(x INTEGER)")
                try db.execute("INSERT INTO t(x) VALUES (\(42))")
            }
        }
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { db in try db.fetchValue(Int.self, "SELECT x FROM t") } == 42)
        #expect(queue.location == .file(path))
    }

    // MARK: Async

    @Test func asyncCallsWriteReadAndRollBack() async throws {
        let queue = try makeQueue()
        let id = try await queue.write { db in
            try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
            return db.lastInsertedRowID
        }
        #expect(id == 1)
        try await queue.writeWithoutTransaction { db in try db.execute("INSERT INTO item(name) VALUES (\("pear"))") }
        try await queue.writeWithoutTransaction { db in try db.execute("INSERT INTO item(name) VALUES (\("plum"))") }
        try await queue.transaction(.immediate) { db in try db.execute("INSERT INTO item(name) VALUES (\("fig"))") }
        try await queue.savepoint { db in try db.execute("INSERT INTO item(name) VALUES (\("kiwi"))") }

        let failure = await capturedAsyncDatabaseError {
            try await queue.write { db in
                try db.execute("INSERT INTO item(name) VALUES (\("lime"))")
                try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
            }
        }
        #expect(failure?.extendedResultCode == .constraintUnique)
        let savepointFailure = await capturedAsyncDatabaseError {
            try await queue.savepoint { db in
                try db.execute("INSERT INTO item(name) VALUES (\("date"))")
                throw DatabaseError(resultCode: .abort, message: "no dates")
            }
        }
        #expect(savepointFailure?.resultCode == .abort)
        let transactionFailure = await capturedAsyncDatabaseError {
            try await queue.transaction { db in
                try db.execute("INSERT INTO item(name) VALUES (\("date"))")
                throw DatabaseError(resultCode: .abort, message: "no dates")
            }
        }
        #expect(transactionFailure?.resultCode == .abort)

        let names = try await queue.read { db in try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }
        #expect(names == ["apple", "pear", "plum", "fig", "kiwi"])
        let readOnly = await capturedAsyncDatabaseError {
            try await queue.read { db in try db.execute(sql: "DELETE FROM item") }
        }
        #expect(readOnly?.resultCode == .readOnly)
    }

    @Test func concurrentAsyncWritesAreSerialized() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.execute(sql: "CREATE TABLE counter(value INTEGER NOT NULL)")
            try db.execute(sql: "INSERT INTO counter(value) VALUES (0)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await queue.write { db in
                        // Read, then write: lost updates would show if two closures overlapped.
                        let value = try db.fetchValue(Int.self, "SELECT value FROM counter")
                        try db.execute("UPDATE counter SET value = \(value + 1)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await queue.read { db in try db.fetchValue(Int.self, "SELECT value FROM counter") } == 50)
    }

    // MARK: Completion handlers

    @Test func completionHandlersDeliverResults() async throws {
        let queue = try makeQueue()
        let written = await awaitCompletion { done in
            queue.write(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("apple"))")
                    return db.lastInsertedRowID
                }, completion: done)
        }
        #expect(try written.get() == 1)

        let inDatabase = await awaitCompletion { done in
            queue.writeWithoutTransaction(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("pear"))")
                    return db.isInTransaction
                }, completion: done)
        }
        #expect(try inDatabase.get() == false)

        let transaction = await awaitCompletion { done in
            queue.transaction(
                .exclusive,
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("fig"))")
                }, completion: done)
        }
        #expect(throws: Never.self) { try transaction.get() }

        let savepoint = await awaitCompletion { done in
            queue.savepoint { db in
                try db.execute("INSERT INTO item(name) VALUES (\("kiwi"))")
                try db.execute("INSERT INTO item(name) VALUES (\("kiwi"))")
            } completion: {
                done($0)
            }
        }
        #expect(savepoint.failureAsDatabaseError?.extendedResultCode == .constraintUnique)

        let failedWrite = await awaitCompletion { done in
            queue.write(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("plum"))")
                    try db.execute(sql: "INSERT INTO missing_table VALUES (1)")
                }, completion: done)
        }
        #expect(failedWrite.failureAsDatabaseError?.resultCode == .error)
        let failureMessage: String = failedWrite.failureAsDatabaseError?.message ?? ""
        #expect(failureMessage.contains("missing_table"))

        let read = await awaitCompletion { done in
            queue.read({ db in try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id") }, completion: done)
        }
        #expect(try read.get() == ["apple", "pear", "fig"])
    }

    @Test func completionIsDeliveredOnTheGivenQueue() async throws {
        let queue = try makeQueue()
        let key = DispatchSpecificKey<String>()
        let target = DispatchQueue(label: "completion-target")
        target.setSpecific(key: key, value: "target")
        let label = await withCheckedContinuation { continuation in
            queue.read({ _ in 1 }, completionQueue: target) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
            }
        }
        #expect(label == "target")
    }

    @Test func completionCallsRunInSubmissionOrder() async throws {
        let queue = try makeQueue()
        let order = ConcurrentLog<Int>()
        let group = DispatchGroup()
        for index in 0..<20 {
            group.enter()
            queue.write(
                { db in
                    try db.execute("INSERT INTO item(name) VALUES (\("item \(index)"))")
                    order.append(index)
                }, completion: { _ in group.leave() })
        }
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) { continuation.resume() }
        }
        let expectedOrder: [Int] = Array(0..<20)
        let values: [Int] = order.values
        #expect(values == expectedOrder)
        let ids: [String] = try await queue.read { db in
            try db.fetchAll(String.self, "SELECT name FROM item ORDER BY id")
        }
        let expectedIDs: [String] = (0..<20).map { (index: Int) -> String in "item \(index)" }
        #expect(ids == expectedIDs)
    }
}
