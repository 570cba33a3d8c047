import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct WALTests {
    private func fileSize(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.size] as? NSNumber).intValue
    }

    @Test func inMemoryDatabaseStaysInMemoryMode() throws {
        let db = try Database.memory()
        #expect(try db.journalMode == .memory)
        #expect(try db.setJournalMode(.wal) == .memory, "SQLite reports the mode it kept")
        #expect(try db.journalMode == .memory)
    }

    @Test func fileDatabaseSwitchesModes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("modes.sqlite")
        let db = try Database(path: path)
        #expect(try db.journalMode == .delete)

        #expect(try db.setJournalMode(.wal) == .wal)
        #expect(try db.journalMode == .wal)
        #expect(try db.journalMode(database: "main") == .wal)
        try db.execute(sql: "CREATE TABLE t(x)")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))

        // WAL mode is persistent: a new connection sees it.
        let other = try Database(path: path)
        #expect(try other.journalMode == .wal)
        try other.close()

        #expect(try db.setJournalMode(.truncate, database: "main") == .truncate)
        #expect(try db.journalMode == .truncate)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        try db.close()
    }

    @Test func leavingWALInsideATransactionFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("tx.sqlite"))
        try db.setJournalMode(.wal)
        try db.execute(sql: "BEGIN")
        let error = try #require(throws: DatabaseError.self) { try db.setJournalMode(.delete) }
        #expect(error.resultCode == .error)
        try db.execute(sql: "ROLLBACK")
        #expect(try db.journalMode == .wal)
        try db.close()
    }

    @Test func unknownSchemaFails() throws {
        let db = try Database.memory()
        #expect(throws: DatabaseError.self) { try db.journalMode(database: "nowhere") }
        let error = try #require(throws: DatabaseError.self) { try db.checkpoint(database: "nowhere") }
        #expect(error.resultCode == .error)
    }

    @Test func checkpointOutsideWALModeReportsNoFrames() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("rollback.sqlite"))
        let result = try db.checkpoint()
        #expect(result.walFrameCount == -1)
        #expect(result.checkpointedFrameCount == -1)
        try db.close()
    }

    @Test func passiveCheckpointCopiesEveryFrameWithoutReaders() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("passive.sqlite"))
        try db.setJournalMode(.wal)
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, payload TEXT)")
        try db.transaction {
            for id in 1...50 {
                try db.execute("INSERT INTO t(id, payload) VALUES (\(id), \(String(repeating: "p", count: 200)))")
            }
        }
        let result = try db.checkpoint(.passive)
        #expect(result.walFrameCount > 0)
        #expect(result.checkpointedFrameCount == result.walFrameCount)
        try db.close()
    }

    @Test func truncateCheckpointEmptiesTheLogAndKeepsTheData() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("truncate.sqlite")
        let db = try Database(path: path)
        try db.setJournalMode(.wal)
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, payload TEXT)")
        try db.transaction {
            for id in 1...200 {
                try db.execute("INSERT INTO t(id, payload) VALUES (\(id), \(String(repeating: "x", count: 500)))")
            }
        }
        #expect(try fileSize(path + "-wal") > 0)

        let result = try db.checkpoint(.truncate, database: "main")
        #expect(result.walFrameCount == 0)
        #expect(result.checkpointedFrameCount == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try fileSize(path + "-wal") == 0)

        let reader = try Database(path: path)
        #expect(try reader.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 200)
        #expect(try reader.fetchValue(Int.self, sql: "SELECT sum(length(payload)) FROM t") == 200 * 500)
        try reader.close()
        try db.close()
    }

    @Test func everyModeSucceedsWithoutConcurrentUse() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("modes.sqlite"))
        try db.setJournalMode(.wal)
        try db.execute(sql: "CREATE TABLE t(x)")
        for mode in Database.CheckpointMode.allCases {
            try db.execute("INSERT INTO t(x) VALUES (\(1))")
            let result = try db.checkpoint(mode)
            #expect(result.checkpointedFrameCount == result.walFrameCount, "\(mode)")
        }
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 4)
        try db.close()
    }
}
