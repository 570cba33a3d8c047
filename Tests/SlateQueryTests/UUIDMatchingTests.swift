import Foundation
import Slate
import SlateTestSupport
import Testing

// Issue 36: UUID keys matched by exact text, so a row written in lowercase (the sqlite3 shell,
// Python, CSV files, RFC 9562) was not found by a UUID equal by value. Slate now writes lowercase,
// declares UUID text columns COLLATE NOCASE, and compares UUID values COLLATE NOCASE: a UUID
// matches whatever letter case its row was stored in, also in tables created by older versions
// (uppercase, BINARY), and an index still serves the lookup where the column is NOCASE.

@Suite struct UUIDMatchingTests {
    static let lower = UUIDSpellings.lower
    static let upper = UUIDSpellings.upper
    static let mixed = UUIDSpellings.mixed
    let id = UUID(uuidString: UUIDMatchingTests.lower)!

    /// A connection with the tables as Slate creates them.
    func slateTables() throws -> Database {
        let db = try Database.memory()
        try db.createTable(for: UUIDBook.self)
        try db.createTable(for: UUIDReview.self)
        return db
    }

    @Test func writesTheCanonicalLowercaseForm() throws {
        let db = try slateTables()
        try db.insert(UUIDBook(id: id, title: "x"))
        #expect(try db.fetchValue(String.self, "SELECT id FROM book") == Self.lower)
        #expect(id.sqlValue == .text(Self.lower))
        #expect(UUIDStorage.text.sqlValue(for: id) == .text(Self.lower))
    }

    @Test func declaresUUIDTextColumnsNoCase() throws {
        let statements = try UUIDBook.createStatements(dialect: .sqlite)
        #expect(statements.count == 1)
        #expect(statements.first?.contains(#"COLLATE "NOCASE""#) == true, "\(statements)")
        #expect(statements.first?.contains(#""title" TEXT NOT NULL)"#) == true, "\(statements)")
        let db = try slateTables()
        #expect(try db.tableSchema(named: "book")?.column(named: "id")?.collation?.uppercased() == "NOCASE")
    }

    /// The issue's repro, and the same in every letter case: `find`, `==`, `!=`, `in`, `notIn`.
    @Test(arguments: [lower, upper, mixed])
    func findsARowWrittenInAnyCase(_ stored: String) throws {
        let db = try slateTables()
        try db.execute("INSERT INTO book(id, title) VALUES (\(stored), \("x"))")
        #expect(try UUIDBook.find(id).fetchOne(db)?.title == "x")
        #expect(try UUIDBook.find(id).fetchAll(db).count == 1)
        #expect(try UUIDBook.where { $0.id == id }.fetchCount(db) == 1)
        #expect(try UUIDBook.where { $0.id != id }.fetchCount(db) == 0)
        #expect(try UUIDBook.where { $0.id.in([id, UUID()]) }.fetchCount(db) == 1)
        #expect(try UUIDBook.where { $0.id.in([id]) }.fetchCount(db) == 1)
        #expect(try UUIDBook.where { $0.id.notIn([id, UUID()]) }.fetchCount(db) == 0)
        // Reading back gives the same UUID, whatever the stored case.
        #expect(try UUIDBook.all().fetchOne(db)?.id == id)
    }

    @Test func comparisonsRenderCollatedOnSQLiteOnly() throws {
        let query = UUIDBook.where { $0.id == id }
        #expect(
            query.sql.text == #"SELECT "book"."id", "book"."title" FROM "book" WHERE "book"."id" = ? COLLATE NOCASE"#)
        #expect(
            try query.sql.rendered(for: .postgreSQL).text
                == #"SELECT "book"."id", "book"."title" FROM "book" WHERE "book"."id" = $1"#)
        let membership = UUIDBook.where { $0.id.in([id, UUID()]) }
        #expect(membership.sql.text.hasSuffix(#"WHERE "book"."id" COLLATE NOCASE IN (?, ?)"#))
        #expect(try membership.sql.rendered(for: .postgreSQL).text.hasSuffix(#"WHERE "book"."id" IN ($1, $2)"#))
        // A UUID stored as a blob compares bytes: nothing to collate.
        #expect(!Appointment.where { $0.device == id }.sql.text.contains("COLLATE"))
    }

    @Test func anIndexServesTheLookupInTablesSlateCreates() throws {
        let db = try slateTables()
        for query in [
            UUIDBook.where { $0.id == id }.sql, UUIDBook.find(id).sql, UUIDBook.where { $0.id.in([id, id]) }.sql,
        ] {
            let plan = try db.fetchAll(
                CopiedRow.self, SQL(sql: "EXPLAIN QUERY PLAN " + query.text, arguments: query.arguments)
            )
            .map { row -> String in try row["detail"] }
            #expect(plan.contains { $0.hasPrefix("SEARCH book USING INDEX") }, "\(plan)")
        }
        try db.execute(sql: "CREATE INDEX review_book ON review(bookID)")
        let byBook = UUIDReview.where { $0.bookID == id }.sql
        let plan = try db.fetchAll(
            CopiedRow.self, SQL(sql: "EXPLAIN QUERY PLAN " + byBook.text, arguments: byBook.arguments)
        )
        .map { row -> String in try row["detail"] }
        #expect(plan.contains { $0.hasPrefix("SEARCH review USING") }, "\(plan)")
    }

    @Test func joinsMatchKeysStoredInAnotherCase() throws {
        let db = try slateTables()
        try db.execute("INSERT INTO book(id, title) VALUES (\(Self.upper), \("x"))")  // as older Slate wrote it
        try db.insert(UUIDReview(bookID: id, stars: 5))  // lowercase, as Slate writes it now
        try db.execute("INSERT INTO review(bookID, stars) VALUES (\(Self.mixed), \(3))")
        let joined = try UUIDBook.join(UUIDReview.self, on: { $0.id == $1.bookID }).fetchAll(db)
        #expect(joined.map(\.1.stars).sorted() == [3, 5])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM book JOIN review ON review.bookID = book.id") == 2)
        // The foreign key is enforced in any case too.
        #expect(try db.fetchAll(CopiedRow.self, "PRAGMA foreign_key_check").isEmpty)
    }

    /// A table created by an older version of Slate: `TEXT` without `NOCASE`, keys in uppercase.
    /// No row is missed, updated twice or duplicated by a save; `verifySchema` reports the collation.
    @Test func noRowOfAnOlderTableIsMissed() throws {
        let db = try Database.memory()
        try db.execute(sql: #"CREATE TABLE "book" ("id" TEXT NOT NULL PRIMARY KEY, "title" TEXT NOT NULL)"#)
        try db.execute("INSERT INTO book(id, title) VALUES (\(Self.upper), \("old"))")
        #expect(try UUIDBook.find(id).fetchOne(db)?.title == "old")
        #expect(try UUIDBook.where { $0.id == id }.fetchCount(db) == 1)
        #expect(try UUIDBook.where { $0.id.in([id, UUID()]) }.fetchCount(db) == 1)
        #expect(try db.update(UUIDBook(id: id, title: "renamed")))
        #expect(try db.fetchAll(String.self, "SELECT id || ' ' || title FROM book") == [Self.upper + " renamed"])
        try UUIDBook.upsert(UUIDBook(id: UUID(), title: "new")).execute(db)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM book") == 2)
        #expect(try db.delete(UUIDBook(id: id, title: "renamed")))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM book") == 1)
        let differences = try db.verifySchema(of: [UUIDBook.self])
        #expect(differences.map(\.description) == ["column book.id: collation expected NOCASE, found BINARY"])
    }

    @Test func aLiveFindIsNotifiedOfChangesToARowStoredInAnotherCase() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let queue = try DatabaseQueue(path: directory.path("books.sqlite"))
        let id = self.id
        try await queue.write { db in
            try db.createTable(for: UUIDBook.self)
            try db.execute("INSERT INTO book(id, title) VALUES (\(Self.upper), \("first"))")
        }
        var titles: [String?] = []
        for try await title in queue.observe({ db in try UUIDBook.find(id).fetchOne(db)?.title }) {
            titles.append(title)
            if titles.count == 1 {
                _ = try await queue.write { db in
                    try UUIDBook.update { $0.title.set(to: "second") }.where { $0.id == id }.execute(db)
                }
            } else {
                break
            }
        }
        #expect(titles == ["first", "second"])
    }
}
