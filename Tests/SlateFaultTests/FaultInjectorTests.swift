import Foundation
import Slate
import SlateTestingFaults
import Testing

/// The fault-injecting VFS itself: it passes calls through, fails the scheduled one with the right
/// code, counts, and drops exactly the unsynced writes at a power loss.
@Suite struct FaultInjectorTests {
    @Test func passesEveryCallThroughWithoutASchedule() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try Database(location: faults.location(ofFile: directory.path("db.sqlite")))
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
        try db.transaction { try db.execute(sql: "INSERT INTO t(value) VALUES ('a'), ('b')") }
        #expect(try db.fetchAll(String.self, sql: "SELECT value FROM t ORDER BY id") == ["a", "b"])
        #expect(try db.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
        // Every class that a write transaction in rollback-journal mode uses was counted.
        for operation: FaultInjector.Operation in [.read, .write, .sync, .lock, .fileSize, .open, .delete, .access] {
            #expect(faults.count(of: operation) > 0, "\(operation)")
        }
        #expect(faults.injectedFaultCount == 0)
        try db.close()
        // The VFS's name reaches SQLite.
        let plain = try Database(path: directory.path("db.sqlite"))
        #expect(try plain.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 2)
    }

    @Test func failsTheScheduledCallWithTheOperationsCode() throws {
        let cases: [(FaultInjector.Operation, FaultInjector.Kind, ResultCode)] = [
            (.write, .ioError, ResultCode(rawValue: 10 | (3 << 8))),  // SQLITE_IOERR_WRITE
            (.sync, .ioError, ResultCode(rawValue: 10 | (4 << 8))),  // SQLITE_IOERR_FSYNC
            (.write, .diskFull, .full),
            (.write, .shortWrite, .full),
        ]
        for (operation, kind, expected) in cases {
            let directory = try TemporaryDirectory()
            let faults = try FaultInjector()
            let db = try Database(location: faults.location(ofFile: directory.path("db.sqlite")))
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, value TEXT)")
            faults.resetCounts()
            faults.schedule(FaultInjector.Fault(operation, occurrence: 1, kind: kind))
            let error = #expect(throws: DatabaseError.self) {
                try db.transaction { try db.execute(sql: "INSERT INTO t(value) VALUES ('a')") }
            }
            #expect(error?.extendedResultCode == expected, "\(operation) \(kind): \(String(describing: error))")
            #expect(faults.injectedFaultCount == 1)
            #expect(faults.lastInjectedFault?.operation == operation)
            // The fault was transient: the same connection works, and nothing was half written.
            faults.schedule(nil)
            try db.transaction { try db.execute(sql: "INSERT INTO t(value) VALUES ('b')") }
            #expect(try db.fetchAll(String.self, sql: "SELECT value FROM t") == ["b"])
            try db.close()
        }
    }

    @Test func aPersistentFaultFailsEveryLaterCall() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try Database(location: faults.location(ofFile: directory.path("db.sqlite")))
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
        faults.schedule(FaultInjector.Fault(.write, occurrence: 1, kind: .ioError, isPersistent: true))
        for _ in 0..<3 {
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        }
        #expect(faults.injectedFaultCount >= 3)
        faults.schedule(nil)
        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 1)
    }

    @Test func aPowerLossDropsWhatWasNotSynced() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let faults = try FaultInjector()
        do {
            let db = try Database(location: faults.location(ofFile: path))
            try db.execute(sql: "CREATE TABLE t(value TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES ('synced')")
            #expect(faults.unsyncedByteCount == 0)
            // Without syncs a commit stays in the (simulated) page cache.
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(sql: "INSERT INTO t VALUES ('not synced')")
            #expect(faults.unsyncedByteCount > 0)
            #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 2)
            faults.schedule(FaultInjector.Fault(.write, occurrence: faults.count(of: .write) + 1, kind: .powerLoss))
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES ('cut')") }
            #expect(faults.isPoweredOff)
            // Nothing works on a connection that saw the power go, even once it is back.
            try faults.restorePower()
            #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
            try db.close()
        }
        let reopened = try Database(location: faults.location(ofFile: path))
        #expect(try reopened.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
        #expect(try reopened.fetchAll(String.self, sql: "SELECT value FROM t") == ["synced"])
    }

    @Test func aTornPowerLossLandsTheFirstBytesOfTheCutWrite() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let setup = try Database(path: path)
        try setup.execute(sql: "PRAGMA journal_mode = OFF")
        try setup.execute(sql: "CREATE TABLE t(value BLOB)")
        try setup.execute(sql: "INSERT INTO t VALUES (zeroblob(3000))")
        try setup.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        for torn in [nil, 100] as [Int?] {
            try before.write(to: URL(fileURLWithPath: path))
            let faults = try FaultInjector()
            let db = try Database(location: faults.location(ofFile: path))
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            faults.resetCounts()
            let kind: FaultInjector.Kind = torn.map { .tornPowerLoss(bytes: $0) } ?? .powerLoss
            faults.schedule(FaultInjector.Fault(.write, occurrence: 1, kind: kind))
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE t SET value = randomblob(3000)")
            }
            try db.close()
            try faults.restorePower()
            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(after.count == before.count)
            let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            if let torn {
                // Only bytes of the first `torn` of one page write changed, and some did.
                #expect(!changed.isEmpty)
                #expect((changed.max() ?? 0) - (changed.min() ?? 0) < torn)
            } else {
                #expect(changed.isEmpty)
            }
        }
    }

    @Test func injectorsDoNotShareSchedules() throws {
        let directory = try TemporaryDirectory()
        let first = try FaultInjector()
        let second = try FaultInjector()
        #expect(first.vfsName != second.vfsName)
        let one = try Database(location: first.location(ofFile: directory.path("one.sqlite")))
        let two = try Database(location: second.location(ofFile: directory.path("two.sqlite")))
        first.schedule(FaultInjector.Fault(.write, occurrence: 1, kind: .ioError, isPersistent: true))
        #expect(throws: DatabaseError.self) { try one.execute(sql: "CREATE TABLE t(x)") }
        try two.execute(sql: "CREATE TABLE t(x)")
        #expect(second.injectedFaultCount == 0)
        #expect(second.count(of: .write) > 0)
    }

    @Test func locationsAreURIsThatSurviveSpecialCharacters() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let path = directory.path("a b?c#d%e.sqlite")
        let db = try Database(location: faults.location(ofFile: path))
        try db.execute(sql: "CREATE TABLE t(x)")
        try db.close()
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(faults.count(of: .write) > 0)
    }
}

/// A temporary directory deleted when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-fault-tests-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
