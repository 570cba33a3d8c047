import Foundation
import SlateCore
import Testing

/// The session extension is there with the system SQLite, and a clear error with SQLCipher 3.4.1,
/// which is built without it (the SQLCipher trait's build compiles the same code).
@Suite struct SessionAvailabilityTests {
    #if SQLCipher
        @Test func everyCallThrowsAClearErrorWithSQLCipher() throws {
            let db = try Database(location: .inMemory)
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
            func isUnavailable(_ error: any Error) -> Bool {
                (error as? DatabaseError)?.resultCode == .error && "\(error)".contains("SQLITE_ENABLE_SESSION")
            }
            #expect { _ = try DatabaseSession(db) } throws: { isUnavailable($0) }
            #expect { _ = try Changeset(data: Data([0x54])).operations() } throws: { isUnavailable($0) }
            #expect { _ = try Changeset(data: Data([0x54])).inverted() } throws: { isUnavailable($0) }
            #expect { try db.apply(Changeset(data: Data([0x54]))) { _ in .abort } } throws: { isUnavailable($0) }
            #expect { _ = try ChangesetGroup() } throws: { isUnavailable($0) }
        }
    #else
        @Test func theSystemLibraryHasTheSessionExtension() throws {
            let db = try Database(location: .inMemory)
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
            let (_, changeset) = try db.recordingChangeset { try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(try changeset.operations().count == 1)
        }
    #endif
}
