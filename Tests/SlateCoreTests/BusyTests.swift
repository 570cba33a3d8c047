import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct BusyTests {
    /// Two connections to one file; `holder` has created table `t` and holds the write lock.
    private struct LockedPair {
        let directory: TemporaryDirectory
        let holder: Database
        let waiter: Database

        init() throws {
            directory = try TemporaryDirectory()
            let path = directory.path("busy.sqlite")
            holder = try Database(path: path)
            try holder.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
            waiter = try Database(path: path)
            try holder.execute(sql: "BEGIN IMMEDIATE")
        }

        func insert(_ id: Int) throws {
            try waiter.execute("INSERT INTO t(id) VALUES (\(id))")
        }

        func finish() {
            try? holder.close()
            try? waiter.close()
            directory.remove()
        }
    }

    @Test func writeFailsWithBusyAfterTheTimeout() throws {
        let pair = try LockedPair()
        defer { pair.finish() }
        #expect(try pair.waiter.busyTimeout == 5, "the configuration's default")
        pair.waiter.setBusyTimeout(0.2)
        #expect(try pair.waiter.busyTimeout == 0.2)

        let start = Date()
        let error = try #require(throws: DatabaseError.self) { try pair.insert(1) }
        let elapsed = Date().timeIntervalSince(start)
        #expect(error.resultCode == .busy)
        #expect(elapsed >= 0.15, "waited for the timeout, not \(elapsed) s")

        try pair.holder.execute(sql: "COMMIT")
        try pair.insert(1)
        #expect(try pair.holder.fetchAll(Int.self, sql: "SELECT id FROM t") == [1])
    }

    @Test func zeroTimeoutFailsAtOnce() throws {
        let pair = try LockedPair()
        defer { pair.finish() }
        pair.waiter.setBusyTimeout(0)
        let start = Date()
        let error = try #require(throws: DatabaseError.self) { try pair.insert(1) }
        #expect(error.resultCode == .busy)
        #expect(Date().timeIntervalSince(start) < 0.1)
    }

    @Test func customHandlerIsCalledWithIncreasingCountsUntilItGivesUp() throws {
        let pair = try LockedPair()
        defer { pair.finish() }
        var counts: [Int] = []
        pair.waiter.setBusyHandler { retryCount in
            counts.append(retryCount)
            return retryCount < 3
        }
        #expect(try pair.waiter.busyTimeout == 0, "a custom handler replaces the timeout")

        let error = try #require(throws: DatabaseError.self) { try pair.insert(1) }
        #expect(error.resultCode == .busy)
        #expect(counts == [0, 1, 2, 3])

        // The count starts again for the next lock attempt.
        counts.removeAll()
        #expect(throws: DatabaseError.self) { try pair.insert(1) }
        #expect(counts == [0, 1, 2, 3])
    }

    @Test func handlerReturningTrueRetriesUntilTheLockIsFree() throws {
        let pair = try LockedPair()
        defer { pair.finish() }
        var counts: [Int] = []
        pair.waiter.setBusyHandler { retryCount in
            counts.append(retryCount)
            if retryCount == 2 {
                try? pair.holder.execute(sql: "COMMIT")  // another connection frees the lock
            }
            return retryCount < 10
        }
        try pair.insert(1)
        #expect(counts == [0, 1, 2])
        #expect(try pair.holder.fetchAll(Int.self, sql: "SELECT id FROM t") == [1])
    }

    @Test func removedHandlerIsNoLongerCalled() throws {
        let pair = try LockedPair()
        defer { pair.finish() }
        var counts: [Int] = []
        pair.waiter.setBusyHandler { retryCount in
            counts.append(retryCount)
            return false
        }
        #expect(throws: DatabaseError.self) { try pair.insert(1) }
        #expect(counts == [0])

        pair.waiter.removeBusyHandler()
        let start = Date()
        let error = try #require(throws: DatabaseError.self) { try pair.insert(1) }
        #expect(error.resultCode == .busy)
        #expect(counts == [0])
        #expect(Date().timeIntervalSince(start) < 0.1)
        #expect(try pair.waiter.busyTimeout == 0)
    }

    @Test func settingATimeoutReplacesTheHandler() throws {
        let pair = try LockedPair()
        defer { pair.finish() }
        var counts: [Int] = []
        pair.waiter.setBusyHandler { retryCount in
            counts.append(retryCount)
            return false
        }
        pair.waiter.setBusyTimeout(0.05)
        #expect(throws: DatabaseError.self) { try pair.insert(1) }
        #expect(counts.isEmpty)
        #expect(try pair.waiter.busyTimeout == 0.05)
    }
}
