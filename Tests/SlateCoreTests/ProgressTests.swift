import CSQLite
import Foundation
import Slate
import Testing

/// A flag shared between the test's threads.
private final class InterruptStopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}

@Suite struct ProgressTests {
    /// Counts to ten million: seconds of work unless something stops it.
    private static let longQuery = """
        WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < 100000000)
        SELECT count(*) FROM counter
        """

    /// Waits (without a time limit that a loaded machine could break) until `flag` is set.
    private static func waitUntilSet(_ flag: InterruptStopFlag) {
        while !flag.isSet { Thread.sleep(forTimeInterval: 0.001) }
    }

    private static func countTo(_ limit: Int) -> String {
        """
        WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < \(limit))
        SELECT count(*) FROM counter
        """
    }

    @Test func progressHandlerInterruptsALongQuery() throws {
        let db = try Database.memory()
        var calls = 0
        db.setProgressHandler(every: 1_000) {
            calls += 1
            return calls >= 5
        }
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, sql: Self.longQuery)
        }
        #expect(error.resultCode == .interrupt)
        #expect(calls == 5)

        // The connection is usable afterwards, and a removed handler is not called any more.
        db.removeProgressHandler()
        #expect(try db.fetchValue(Int.self, sql: Self.countTo(10_000)) == 10_000)
        #expect(calls == 5)
        #expect(!db.isInTransaction)
    }

    @Test func handlerReturningFalseLetsTheQueryFinish() throws {
        let db = try Database.memory()
        var calls = 0
        db.setProgressHandler(every: 100) {
            calls += 1
            return false
        }
        #expect(try db.fetchValue(Int.self, sql: Self.countTo(10_000)) == 10_000)
        #expect(calls > 10)
    }

    @Test func newHandlerReplacesTheOldOne() throws {
        let db = try Database.memory()
        var first = 0
        var second = 0
        db.setProgressHandler(every: 100) {
            first += 1
            return false
        }
        db.setProgressHandler(every: 100) {
            second += 1
            return false
        }
        _ = try db.fetchValue(Int.self, sql: Self.countTo(1_000))
        #expect(first == 0)
        #expect(second > 0)
    }

    @Test func interruptHandleStopsAQueryRunningOnAnotherThread() throws {
        let db = try Database.memory()
        let handle = db.interruptHandle
        let finished = InterruptStopFlag()
        let started = InterruptStopFlag()
        let stopped = InterruptStopFlag()
        let interrupter = Thread {
            // An interrupt that arrives before the query starts is lost, so keep interrupting
            // until the query has stopped.
            started.set()
            while !finished.isSet {
                handle.interrupt()
                Thread.sleep(forTimeInterval: 0.005)
            }
            stopped.set()
        }
        interrupter.start()
        defer { finished.set() }
        Self.waitUntilSet(started)

        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, sql: Self.longQuery)
        }
        finished.set()
        #expect(error.resultCode == .interrupt)

        // Once the interrupter has stopped (waited for, not slept for: a loaded machine can hold
        // its thread back between its check and its last interrupt), the connection runs
        // statements normally.
        Self.waitUntilSet(stopped)
        #expect(try db.fetchValue(Int.self, sql: "SELECT 40 + 2") == 42)
    }

    @Test func interruptingFromADispatchQueueWorksToo() throws {
        let db = try Database.memory()
        let handle = db.interruptHandle
        let finished = InterruptStopFlag()
        let started = InterruptStopFlag()
        DispatchQueue.global().async {
            started.set()
            while !finished.isSet {
                handle.interrupt()
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        defer { finished.set() }
        // Under load the global queue can start the block late: the query must not run first.
        Self.waitUntilSet(started)
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, sql: Self.longQuery)
        }
        finished.set()
        #expect(error.resultCode == .interrupt)
    }

    /// An interrupt racing the connection's close never reaches the freed connection: the close
    /// holds the handle's lock while SQLite frees it (under AddressSanitizer, which
    /// `.ci/sanitize-address.sh` runs this suite with, a call on the freed connection is a
    /// use-after-free report). Afterwards an interrupt does nothing, and a second close too.
    @Test func interruptsRacingCloseNeverReachAClosedConnection() throws {
        for round in 0..<200 {
            let db = try Database.memory()
            let handle = db.interruptHandle
            let finished = InterruptStopFlag()
            let started = InterruptStopFlag()
            let interrupter = Thread {
                started.set()
                while !finished.isSet { handle.interrupt() }
            }
            interrupter.start()
            Self.waitUntilSet(started)
            if round.isMultiple(of: 2) {
                // Running a statement first, which the interrupter may stop: only that error. (An
                // interrupt while SQLite checked what follows the statement's text was reported
                // as "several statements were given", a misuse.)
                do {
                    _ = try db.fetchValue(Int.self, sql: "SELECT 1")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .interrupt, "\(error)")
                }
            }
            try db.close()
            finished.set()
            handle.interrupt()
            try db.close()
            #expect(throws: DatabaseError.self) { _ = try db.fetchValue(Int.self, sql: "SELECT 1") }
        }
    }

    /// While SQLite closes a connection, an interrupt from another thread waits: it runs after the
    /// close, and then does nothing (it never reaches the freed connection).
    @Test func anInterruptWaitsWhileTheConnectionCloses() throws {
        var connection: OpaquePointer?
        #expect(sqlite3_open_v2(":memory:", &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        let handle = InterruptHandle(try #require(connection))
        let attempted = InterruptStopFlag()
        let returned = InterruptStopFlag()
        let code = handle.closeConnection { connection in
            Thread {
                attempted.set()
                handle.interrupt()
                returned.set()
            }.start()
            Self.waitUntilSet(attempted)
            Thread.sleep(forTimeInterval: 0.05)
            // The interrupt is still waiting for the close.
            #expect(!returned.isSet)
            return sqlite3_close(connection)
        }
        #expect(code == SQLITE_OK)
        Self.waitUntilSet(returned)
        // Closed and forgotten: a later interrupt and a second close do nothing.
        handle.interrupt()
        #expect(handle.closeConnection { _ in SQLITE_MISUSE } == SQLITE_OK)
    }
}
