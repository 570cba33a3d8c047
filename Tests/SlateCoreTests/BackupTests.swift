import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct BackupTests {
    /// A source of about 2 MB: 2,000 rows of 1 KB of random text.
    private func makeSource() throws -> Database {
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE document(id INTEGER PRIMARY KEY, body TEXT NOT NULL);
                WITH RECURSIVE counter(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM counter WHERE x < 2000)
                INSERT INTO document(id, body) SELECT x, hex(randomblob(512)) FROM counter;
                """)
        return db
    }

    /// A 64-bit FNV-1a hash of every document, in id order.
    private func checksum(_ db: Database) throws -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for body in try db.fetchAll(String.self, sql: "SELECT id || ':' || body FROM document ORDER BY id") {
            for byte in body.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return hash
    }

    private func rowCount(_ db: Database) throws -> Int {
        try db.fetchValue(Int.self, sql: "SELECT count(*) FROM document")
    }

    @Test func backupCopiesAMultiPageDatabaseStepByStep() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try makeSource()
        let destination = try Database(path: directory.path("copy.sqlite"))
        try destination.execute(sql: "CREATE TABLE leftover(x)")

        var reports: [BackupProgress] = []
        try source.backup(to: destination, pagesPerStep: 5) { progress in
            reports.append(progress)
            return .continue
        }

        let total = try source.fetchValue(Int.self, sql: "PRAGMA page_count")
        #expect(total > 400, "the source spans many pages")
        #expect(reports.count == (total + 4) / 5)
        #expect(reports.allSatisfy { $0.totalPageCount == total })
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy {
                $0.remainingPageCount > $1.remainingPageCount && $0.fractionCompleted < $1.fractionCompleted
            })
        #expect(reports.first?.completedPageCount == 5)
        #expect(reports.last?.remainingPageCount == 0)
        #expect(reports.last?.isFinished == true)
        #expect(reports.last?.fractionCompleted == 1)

        #expect(try rowCount(destination) == 2000)
        #expect(try checksum(destination) == checksum(source))
        #expect(
            try destination.fetchOne(String.self, sql: "SELECT name FROM sqlite_schema WHERE name = 'leftover'") == nil)
        try destination.close()

        let reopened = try Database(path: directory.path("copy.sqlite"))
        #expect(try rowCount(reopened) == 2000)
        #expect(try checksum(reopened) == checksum(source))
        try reopened.close()
    }

    @Test func cancellingAfterTheFirstStepThrowsAndLeavesTheDestinationUnchanged() throws {
        let source = try makeSource()
        let destination = try Database.memory()
        try destination.execute(sql: "CREATE TABLE original(x); INSERT INTO original(x) VALUES (1)")

        var calls = 0
        let error = try #require(throws: DatabaseError.self) {
            try source.backup(to: destination, pagesPerStep: 5) { _ in
                calls += 1
                return .cancel
            }
        }
        #expect(calls == 1)
        #expect(error.resultCode == .abort)
        #expect(error.message.contains("cancelled"))
        #expect(try destination.fetchValue(Int.self, sql: "SELECT x FROM original") == 1)
        #expect(
            try destination.fetchOne(String.self, sql: "SELECT name FROM sqlite_schema WHERE name = 'document'") == nil)

        // Both connections were released cleanly: a second backup succeeds.
        try source.backup(to: destination)
        #expect(try checksum(destination) == checksum(source))
        try destination.close()
        try source.close()
    }

    @Test func backupToFileCreatesAReadableCopy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try makeSource()
        let path = directory.path("it's a copy.sqlite")
        var lastReport: BackupProgress?
        try source.backup(toFile: path, pagesPerStep: 50) { progress in
            lastReport = progress
            return .continue
        }
        #expect(lastReport?.isFinished == true)

        let copy = try Database(path: path)
        #expect(try rowCount(copy) == 2000)
        #expect(try checksum(copy) == checksum(source))
        try copy.close()
    }

    @Test func backingUpIntoItselfFails() throws {
        let db = try Database.memory()
        #expect(throws: DatabaseError.self) { try db.backup(to: db) }
    }

    @Test func vacuumIntoWritesACompactCopy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try makeSource()
        try source.execute(sql: "DELETE FROM document WHERE id > 1000")
        let path = directory.path("vacuumed 'copy'.sqlite")  // quotes would break a spliced path
        try source.vacuum(into: path)

        let copy = try Database(path: path)
        #expect(try rowCount(copy) == 1000)
        #expect(try checksum(copy) == checksum(source))
        #expect(try copy.fetchValue(Int.self, sql: "PRAGMA freelist_count") == 0)
        try copy.close()

        let error = try #require(throws: DatabaseError.self) { try source.vacuum(into: path) }
        #expect(error.resultCode == .error, "VACUUM INTO refuses to overwrite a database")
    }
}
