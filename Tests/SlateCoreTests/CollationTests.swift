import Foundation
import Slate
import Testing

/// Orders text with embedded numbers by their numeric value: "string 2" before "string 10".
private func numericOrder(_ lhs: String, _ rhs: String) -> ComparisonResult {
    lhs.compare(rhs, options: .numeric)
}

/// Compares text case-insensitively beyond ASCII, unlike SQLite's NOCASE.
private func unicodeCaseInsensitiveOrder(_ lhs: String, _ rhs: String) -> ComparisonResult {
    let lhs = lhs.lowercased()
    let rhs = rhs.lowercased()
    return lhs < rhs ? .orderedAscending : lhs == rhs ? .orderedSame : .orderedDescending
}

/// Something a registered closure captures, to observe when SQLite releases the closure.
private final class ReleaseMarker {}

/// Records the strings SQLite passes to a collation.
private final class ComparisonLog {
    var pairs: [[String]] = []
}

@Suite struct CollationTests {
    static let names = ["string 1", "string 21", "string 12", "string 11", "string 02"]
    static let numericOrdering = ["string 1", "string 02", "string 11", "string 12", "string 21"]
    static let binaryOrdering = ["string 02", "string 1", "string 11", "string 12", "string 21"]

    private func insertNames(_ db: Database, table: String) throws {
        for name in Self.names {
            try db.execute("INSERT INTO \(identifier: table)(name) VALUES (\(name))")
        }
    }

    @Test func orderByCollateUsesTheCollation() throws {
        let db = try Database.memory()
        try db.createCollation("NUMERIC_TEXT", numericOrder)
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        try insertNames(db, table: "t")
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE NUMERIC_TEXT")
                == Self.numericOrdering)
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE numeric_text DESC")
                == Self.numericOrdering.reversed())
        #expect(try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name") == Self.binaryOrdering)
    }

    @Test func columnDeclaredWithTheCollationUsesIt() throws {
        let db = try Database.memory()
        try db.createCollation("NUMERIC_TEXT", numericOrder)
        try db.execute(sql: "CREATE TABLE t(name TEXT COLLATE NUMERIC_TEXT)")
        try insertNames(db, table: "t")
        #expect(try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name") == Self.numericOrdering)
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t WHERE name < \("string 3") ORDER BY name")
                == ["string 1", "string 02"])
        #expect(try db.fetchValue(String.self, "SELECT max(name) FROM t") == "string 21")
        // An index on the column is built and searched with the collation too.
        try db.execute(sql: "CREATE INDEX t_name ON t(name)")
        #expect(
            try db.fetchAll(
                String.self, "SELECT name FROM t INDEXED BY t_name WHERE name > \("string 5") ORDER BY name")
                == ["string 11", "string 12", "string 21"])
    }

    @Test func equalityAndUniquenessFollowTheCollation() throws {
        let db = try Database.memory()
        try db.createCollation("UNICASE", unicodeCaseInsensitiveOrder)
        try db.execute(sql: "CREATE TABLE school(name TEXT UNIQUE COLLATE UNICASE)")
        try db.execute("INSERT INTO school VALUES (\("ÉCOLE"))")
        #expect(try db.fetchAll(String.self, "SELECT name FROM school WHERE name = \("école")") == ["ÉCOLE"])
        // SQLite's own NOCASE folds ASCII only.
        #expect(try db.fetchValue(Bool.self, "SELECT \("ÉCOLE") = \("école") COLLATE NOCASE") == false)
        #expect(try db.fetchValue(Bool.self, "SELECT \("ÉCOLE") = \("école") COLLATE UNICASE") == true)
        let duplicate = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO school VALUES (\("École"))")
        }
        #expect(duplicate.extendedResultCode == .constraintUnique)
    }

    @Test func collationReceivesExactStringsWithoutTerminators() throws {
        let db = try Database.memory()
        let log = ComparisonLog()
        try db.createCollation("LOGGED") { lhs, rhs in
            log.pairs.append([lhs, rhs])
            return lhs.compare(rhs)
        }
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        // Stored records pack values back to back, so each buffer is only delimited by its length.
        try db.execute("INSERT INTO t VALUES (\("naïve🚀")), (\("ab")), (\("a"))")
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE LOGGED") == ["a", "ab", "naïve🚀"])
        let seen = Set(log.pairs.flatMap { $0 })
        #expect(seen == ["naïve🚀", "ab", "a"])
        log.pairs.removeAll()
        #expect(try db.fetchValue(Bool.self, "SELECT \("") < \("x") COLLATE LOGGED") == true)
        #expect(log.pairs == [["", "x"]])
    }

    @Test func removedCollationIsNoLongerAvailable() throws {
        let db = try Database.memory()
        try db.createCollation("NUMERIC_TEXT", numericOrder)
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        try insertNames(db, table: "t")
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE NUMERIC_TEXT")
                == Self.numericOrdering)
        try db.removeCollation("NUMERIC_TEXT")
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE NUMERIC_TEXT")
        }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("no such collation sequence: NUMERIC_TEXT"))
        try db.removeCollation("NEVER_REGISTERED")
    }

    @Test func replacingACollationReordersCachedQueries() throws {
        let db = try Database.memory()
        try db.createCollation("CUSTOM", numericOrder)
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        try insertNames(db, table: "t")
        #expect(try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE CUSTOM") == Self.numericOrdering)
        try db.createCollation("CUSTOM") { lhs, rhs in numericOrder(rhs, lhs) }
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE CUSTOM")
                == Self.numericOrdering.reversed())
    }

    @Test func sqliteReleasesTheClosureOnRemoveAndClose() throws {
        let db = try Database.memory()
        weak var removed: ReleaseMarker?
        weak var closed: ReleaseMarker?
        do {
            let first = ReleaseMarker()
            let second = ReleaseMarker()
            removed = first
            closed = second
            try db.createCollation("FIRST") { lhs, rhs in withExtendedLifetime(first) { lhs.compare(rhs) } }
            try db.createCollation("SECOND") { lhs, rhs in withExtendedLifetime(second) { lhs.compare(rhs) } }
        }
        #expect(try db.fetchValue(Bool.self, "SELECT 'a' < 'b' COLLATE FIRST AND 'a' < 'b' COLLATE SECOND") == true)
        #expect(removed != nil && closed != nil)
        try db.removeCollation("FIRST")
        #expect(removed == nil)
        #expect(closed != nil)
        try db.close()
        #expect(closed == nil)
    }

    @Test func replacingACollationInUseIsBusyAndReleasesTheNewClosure() throws {
        let db = try Database.memory()
        try db.createCollation("NUMERIC_TEXT", numericOrder)
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        try insertNames(db, table: "t")
        let statement = try db.prepare(sql: "SELECT name FROM t ORDER BY name COLLATE NUMERIC_TEXT")
        #expect(try statement.step())

        weak var rejected: ReleaseMarker?
        do {
            let marker = ReleaseMarker()
            rejected = marker
            let error = try #require(throws: DatabaseError.self) {
                try db.createCollation("NUMERIC_TEXT") { lhs, rhs in withExtendedLifetime(marker) { lhs.compare(rhs) } }
            }
            #expect(error.resultCode == .busy)
            #expect(error.message.contains("NUMERIC_TEXT"))
        }
        #expect(rejected == nil)
        #expect(try statement.withCurrentRow { try $0.decode(String.self, at: 0) } == "string 1")
        try statement.reset()
        #expect(
            try db.fetchAll(String.self, "SELECT name FROM t ORDER BY name COLLATE NUMERIC_TEXT")
                == Self.numericOrdering)
    }
}
