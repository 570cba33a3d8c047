import Foundation
import InlineSnapshotTesting
import Slate
import SlateTesting
import Testing

/// `.dump`: a database as a golden file that swift-snapshot-testing keeps in `__Snapshots__`.
@Suite struct DumpSnapshotTests {
    static func scores() throws -> Database {
        try Database.seeded { db in
            try db.execute(sql: "CREATE TABLE score(player TEXT NOT NULL, points INTEGER NOT NULL)")
            try db.execute("INSERT INTO score VALUES (\("Grace"), \(12)), (\("Ada"), \(10))")
        }
    }

    @Test func aDatabaseMatchesItsGoldenFile() throws {
        assertSnapshot(of: try Self.scores(), as: .dump, named: "scores")
    }

    @Test func aChangedDatabaseDoesNotMatch() throws {
        let db = try Self.scores()
        try db.execute(sql: "UPDATE score SET points = 11 WHERE player = 'Ada'")
        // Never recording: a missing golden file must not be written from this changed database.
        withKnownIssue {
            withSnapshotTesting(record: .never) {
                assertSnapshot(of: db, as: .dump, named: "scores", testName: "aDatabaseMatchesItsGoldenFile")
            }
        }
    }
}
