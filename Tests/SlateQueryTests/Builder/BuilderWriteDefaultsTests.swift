import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// A table whose `NOT NULL` columns have defaults Swift cannot write: the properties are optional
/// only so that `nil` lets the default apply; the typed columns are not optional.
struct Entry: PrimaryKeyedTable, Equatable {
    var id: Int64?
    var body: String
    /// `NOT NULL DEFAULT CURRENT_TIMESTAMP`: `nil` until inserted.
    var addedAt: Date?
    /// `NOT NULL DEFAULT (40 + 2)`.
    var score: Int64?

    static let schema = TableSchema(
        name: "entry",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "body", type: "TEXT", isNotNull: true),
            .init(name: "addedAt", type: "DATETIME", isNotNull: true, defaultSQL: "CURRENT_TIMESTAMP"),
            .init(name: "score", type: "INTEGER", isNotNull: true, defaultSQL: "40 + 2"),
        ])

    struct Columns: TableColumns {
        let id: Column<Entry, Int64?>
        let body: Column<Entry, String>
        let addedAt: Column<Entry, Date>
        let score: Column<Entry, Int64>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            body = Column(qualifier, "body")
            addedAt = Column(qualifier, "addedAt")
            score = Column(qualifier, "score")
        }
    }

    init(id: Int64? = nil, body: String, addedAt: Date? = nil, score: Int64? = nil) {
        self.id = id
        self.body = body
        self.addedAt = addedAt
        self.score = score
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        body = try row.decode(at: 1)
        addedAt = try row.decode(at: 2)
        score = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(body)
        try encoder.encode(addedAt)
        try encoder.encode(score)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

/// A keyed table whose only other column has a default.
struct Hits: PrimaryKeyedTable, Equatable {
    var page: String
    var count: Int64?

    static let schema = TableSchema(
        name: "hits",
        columns: [
            .init(name: "page", type: "TEXT", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "count", type: "INTEGER", isNotNull: true, defaultSQL: "(1)"),
        ])

    struct Columns: TableColumns {
        let page: Column<Hits, String>
        let count: Column<Hits, Int64>
        init(qualifier: String) {
            page = Column(qualifier, "page")
            count = Column(qualifier, "count")
        }
    }

    init(page: String, count: Int64? = nil) {
        self.page = page
        self.count = count
    }

    init(row: borrowing Row) throws {
        page = try row.decode(at: 0)
        count = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(page)
        try encoder.encode(count)
    }

    var primaryKey: String { page }
}

/// Writes to tables whose columns have defaults: `NOT NULL` columns with non-literal defaults,
/// upserts that keep left-out columns, and `ON CONFLICT … DO UPDATE … WHERE`.
@Suite struct BuilderWriteDefaultsTests {
    static func entries() throws -> Database {
        let db = try Database()
        try db.createTable(for: Entry.self)
        return db
    }

    // MARK: NOT NULL columns with defaults

    @Test func notNullColumnsWithExpressionDefaultsAreLeftOutAndReadBack() throws {
        #expect(
            SQLLayout.lines(Entry.insert(Entry(body: "a")).sql) == """
                INSERT INTO "entry" ("id", "body")
                VALUES (?, ?)
                -- arguments: NULL, 'a'
                """)
        let db = try Self.entries()
        #expect(
            SQLLayout.lines(try db.fetchValue(String.self, "SELECT sql FROM sqlite_master WHERE name = 'entry'"))
                == """
                CREATE TABLE "entry" (
                  "id" INTEGER PRIMARY KEY,
                  "body" TEXT NOT NULL,
                  "addedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
                  "score" INTEGER NOT NULL DEFAULT (40 + 2)
                )
                """)
        let inserted = try db.insert(Entry(body: "a"))
        #expect(inserted.id == 1)
        #expect(inserted.score == 42)
        let addedAt = try #require(inserted.addedAt)
        #expect(abs(addedAt.timeIntervalSinceNow) < 3600)
        // The record holds what SQLite stored, in SQLite's own text form.
        #expect(
            try db.fetchValue(
                Int.self, "SELECT count(*) FROM entry WHERE addedAt = datetime('now') OR addedAt = datetime(addedAt)")
                == 1)
        #expect(try Entry.find(1).fetchOne(db) == inserted)
        // Given values are written, not the defaults.
        let given = try db.insert(Entry(body: "b", addedAt: Date(timeIntervalSince1970: 0), score: 7))
        #expect(given.score == 7 && given.addedAt == Date(timeIntervalSince1970: 0))
        // The typed columns are not optional: predicates compare with plain values.
        let scores = try Entry.where { $0.score > 10 }.select { $0.score }.fetchAll(db)
        #expect(scores == [42])
        // No NULL was ever stored.
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM entry WHERE addedAt IS NULL OR score IS NULL") == 0)
    }

    // MARK: Upserts keep left-out columns

    @Test func upsertDoesNotResetLeftOutColumnsToTheirDefaults() throws {
        let db = try Self.entries()
        let first = try db.insert(Entry(body: "a", addedAt: Date(timeIntervalSince1970: 86_400), score: 7))
        let upsert = Entry.upsert(Entry(id: first.id, body: "changed"))
        #expect(
            SQLLayout.lines(upsert.sql) == """
                INSERT INTO "entry" ("id", "body")
                VALUES (?, ?)
                ON CONFLICT ("id") DO UPDATE SET "body" = "excluded"."body"
                -- arguments: 1, 'changed'
                """)
        let stored = try upsert.execute(db)
        #expect(stored == [Entry(id: 1, body: "changed", addedAt: Date(timeIntervalSince1970: 86_400), score: 7)])
        #expect(try db.fetchValue(Int64.self, "SELECT score FROM entry WHERE id = 1") == 7)
        // Given values are updated.
        let updated = try Entry.upsert(Entry(id: 1, body: "again", score: 9)).execute(db)
        #expect(updated.first?.score == 9 && updated.first?.addedAt == Date(timeIntervalSince1970: 86_400))
        // A new key inserts, with the defaults.
        let inserted = try Entry.upsert(Entry(id: 5, body: "new")).execute(db)
        #expect(inserted.first?.score == 42 && inserted.first?.addedAt != nil)
    }

    @Test func upsertWhoseEveryUpdatedColumnIsLeftOutKeepsTheRow() throws {
        let db = try Database()
        try db.createTable(for: Hits.self)
        try db.insert(Hits(page: "home", count: 10))
        let upsert = Hits.upsert(Hits(page: "home"))
        #expect(
            SQLLayout.lines(upsert.sql) == """
                INSERT INTO "hits" ("page")
                VALUES (?)
                ON CONFLICT ("page") DO UPDATE SET "count" = "count"
                -- arguments: 'home'
                """)
        #expect(try upsert.execute(db) == [Hits(page: "home", count: 10)])
        #expect(try Hits.upsert(Hits(page: "about")).execute(db) == [Hits(page: "about", count: 1)])
        #expect(try Hits.upsert(Hits(page: "home", count: 11)).execute(db) == [Hits(page: "home", count: 11)])
    }

    // MARK: ON CONFLICT … DO UPDATE … WHERE

    @Test func onConflictUpdatesOnlyWhereTheConditionHolds() throws {
        let db = try Self.entries()
        try db.insert(Entry(id: 1, body: "a", score: 50))
        func keepBest(_ entry: Entry) -> Insert<Entry> {
            Entry.insert(entry).onConflict(\.id) { existing, excluded in
                existing.score.set(to: excluded.score)
                existing.body.set(to: excluded.body)
            } where: { existing, excluded in
                excluded.score > existing.score
            }
        }
        #expect(
            SQLLayout.lines(keepBest(Entry(id: 1, body: "low", score: 20)).sql) == """
                INSERT INTO "entry" ("id", "body", "score")
                VALUES (?, ?, ?)
                ON CONFLICT ("id") DO UPDATE SET "score" = "excluded"."score", "body" = "excluded"."body"
                WHERE "excluded"."score" > "entry"."score"
                -- arguments: 1, 'low', 20
                """)
        // The condition is false: the row is left as it is, and no row comes back.
        let skipped = try keepBest(Entry(id: 1, body: "low", score: 20)).returning { $0.score }.fetchAll(db)
        #expect(skipped.isEmpty)
        #expect(try db.fetchValue(String.self, "SELECT body || score FROM entry WHERE id = 1") == "a50")
        // The condition holds: the row is updated.
        let stored = try keepBest(Entry(id: 1, body: "high", score: 80)).execute(db)
        #expect(stored.first?.body == "high" && stored.first?.score == 80)
        #expect(try db.fetchValue(String.self, "SELECT body || score FROM entry WHERE id = 1") == "high80")
        // Values bound in the condition come after the inserted ones.
        let bounded = Entry.insert(Entry(id: 1, body: "x", score: 90)).onConflict(\.id) { existing, excluded in
            existing.score.set(to: excluded.score)
        } where: { existing, _ in
            existing.score < 85
        }
        #expect(
            SQLLayout.lines(bounded.sql) == """
                INSERT INTO "entry" ("id", "body", "score")
                VALUES (?, ?, ?)
                ON CONFLICT ("id") DO UPDATE SET "score" = "excluded"."score"
                WHERE "entry"."score" < ?
                -- arguments: 1, 'x', 90, 85
                """)
        try bounded.execute(db)
        #expect(try db.fetchValue(Int64.self, "SELECT score FROM entry WHERE id = 1") == 90)
        try bounded.execute(db)
        #expect(try db.fetchValue(String.self, "SELECT body FROM entry WHERE id = 1") == "high")
    }
}
