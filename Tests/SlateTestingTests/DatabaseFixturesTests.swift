import Foundation
import Slate
import SlateTestSupport
import SlateTesting
import Testing

/// Copies of a fixture file and seeded databases: a test changes its copy, never the fixture.
@Suite struct DatabaseFixturesTests {
    /// The number of tracks in the bundled Chinook database.
    static let chinookTrackCount = 3503

    static func trackCount(_ db: Database) throws -> Int {
        try db.fetchValue(Int.self, "SELECT count(*) FROM Track")
    }

    @Test func anInMemoryCopyHasTheFixturesRowsAndLeavesTheFixtureUnchanged() throws {
        let fixture = try TemporaryDatabaseFile(copying: Fixtures.path("chinook.sqlite"))
        let copy = try Database.inMemoryCopy(ofFile: fixture.path)
        #expect(copy.location == .inMemory)
        #expect(try Self.trackCount(copy) == Self.chinookTrackCount)
        try copy.execute(sql: "DELETE FROM PlaylistTrack")
        try copy.execute(sql: "DELETE FROM InvoiceLine")
        try copy.execute(sql: "DELETE FROM Track")
        #expect(try Self.trackCount(copy) == 0)
        // A second copy, and the file itself, still have every track.
        #expect(try Self.trackCount(Database.inMemoryCopy(ofFile: fixture.path)) == Self.chinookTrackCount)
        #expect(try Self.trackCount(fixture.open()) == Self.chinookTrackCount)
    }

    @Test func aCopyOfAFixtureInWALModeHoldsTheRowsStillInTheLog() throws {
        let fixture = try TemporaryDatabaseFile()
        let writer = try fixture.open()
        try writer.execute(sql: "PRAGMA journal_mode = WAL")
        try writer.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        try writer.execute(sql: "CREATE TABLE note(body TEXT NOT NULL)")
        try writer.execute("INSERT INTO note(body) VALUES (\("only in the log"))")
        // The writer stays open, so the row is in the -wal file, not in the database file.
        let copy = try Database.inMemoryCopy(ofFile: fixture.path)
        #expect(try copy.fetchAll(String.self, "SELECT body FROM note") == ["only in the log"])
        let fileCopy = try TemporaryDatabaseFile(copying: fixture.path)
        #expect(try fileCopy.open().fetchAll(String.self, "SELECT body FROM note") == ["only in the log"])
        try writer.close()
    }

    @Test func aMissingFixtureIsAClearError() throws {
        let directory = try TemporaryDatabaseFile()
        let missing = directory.directory.appendingPathComponent("missing.sqlite").path
        let error = try #require(throws: DatabaseError.self) { try Database.inMemoryCopy(ofFile: missing) }
        #expect(error.resultCode == .cantOpen)
        // Nothing was created at the fixture's path.
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func aTemporaryFileIsRemovedWithItsDirectoryWhenReleased() throws {
        var file: TemporaryDatabaseFile? = try TemporaryDatabaseFile(seed: { db in
            try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
        })
        let directory = try #require(file?.directory.path)
        #expect(try file?.open().fetchValue(Int.self, "SELECT sum(x) FROM t") == 3)
        #expect(FileManager.default.fileExists(atPath: directory))
        file = nil
        #expect(!FileManager.default.fileExists(atPath: directory))
    }

    @Test func aSeededDatabaseHoldsWhatTheSeedWrote() throws {
        let db = try Database.seeded { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT NOT NULL, score INTEGER NOT NULL)")
            try db.execute("INSERT INTO player VALUES (\("Ada"), \(10)), (\("Grace"), \(12))")
        }
        #expect(try db.fetchAll(String.self, "SELECT name FROM player ORDER BY score DESC") == ["Grace", "Ada"])
        // Each call seeds a database of its own.
        let other = try Database.seeded { db in try db.execute(sql: "CREATE TABLE player(name TEXT)") }
        #expect(try other.fetchValue(Int.self, "SELECT count(*) FROM player") == 0)
    }

    @Test func aFailingSeedThrowsItsError() throws {
        let error = try #require(throws: DatabaseError.self) {
            try Database.seeded { db in try db.execute(sql: "CREATE TABLE broken(") }
        }
        #expect(error.resultCode == .error)
    }
}
