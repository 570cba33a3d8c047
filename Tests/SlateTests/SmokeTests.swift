import Foundation
import Slate
import Testing

@Suite struct SmokeTests {
    @Test func roundTripsThroughInterpolatedSQL() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
        let name = "O'Brien"
        try db.execute("INSERT INTO t(name) VALUES (\(name))")
        #expect(try db.fetchValue(String.self, "SELECT name FROM t WHERE id = \(1)") == "O'Brien")
        #expect(try db.fetchAll(Int.self, "SELECT id FROM t") == [1])
        #expect(FileManager.default.fileExists(atPath: Fixtures.path("chinook.sqlite")))
    }
}
