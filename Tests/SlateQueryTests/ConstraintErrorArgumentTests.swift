import Foundation
import Slate
import SlateTestSupport
import Testing

// Issue 36: a duplicate primary key showed the SQL but not the values (PostgreSQL's error showed
// them). A record's write now reports the record's values, each truncated, on SQLite too.
@Suite struct ConstraintErrorArgumentTests {
    let id = UUID(uuidString: UUIDMatchingTests.lower)!
    let longTitle = String(repeating: "a", count: 100)

    @Test func aDuplicateKeyShowsTheRecordsValuesTruncated() throws {
        let db = try Database.memory()
        try db.createTable(for: UUIDBook.self)
        try db.insert(UUIDBook(id: id, title: "first"))
        let error = try #require(throws: DatabaseError.self) { try db.insert(UUIDBook(id: id, title: longTitle)) }
        #expect(error.extendedResultCode == .constraintPrimaryKey)
        #expect(error.arguments == [.text(UUIDMatchingTests.lower), .text(longTitle)])
        #expect(
            error.description
                == "SQLite error 1555: UNIQUE constraint failed: book.id — while executing "
                + #"`INSERT INTO "book" ("id", "title") VALUES (?, ?)` with arguments ['\#(UUIDMatchingTests.lower)', "#
                + "'\(String(repeating: "a", count: 80))…' (100 bytes)]")
        // Several records: the one that failed.
        let many = try #require(throws: DatabaseError.self) {
            try db.insert(contentsOf: [UUIDBook(id: UUID(), title: "ok"), UUIDBook(id: id, title: "again")])
        }
        #expect(many.arguments == [.text(UUIDMatchingTests.lower), .text("again")])
    }

    @Test func anUpdateThatBreaksAConstraintShowsItsValues() throws {
        let db = try Database.memory()
        try db.createTable(for: UUIDBook.self)
        try db.createTable(for: UUIDReview.self)
        try db.execute(sql: "CREATE UNIQUE INDEX one_review ON review(bookID)")
        let other = UUID()
        try db.insert(contentsOf: [UUIDBook(id: id, title: "a"), UUIDBook(id: other, title: "b")])
        let first = try db.insert(UUIDReview(bookID: id, stars: 1))
        var second = try db.insert(UUIDReview(bookID: other, stars: 2))
        second.bookID = first.bookID
        let error = try #require(throws: DatabaseError.self) { try db.update(second) }
        #expect(error.resultCode == .constraint)
        #expect(error.arguments == [.integer(second.id ?? 0), .text(UUIDMatchingTests.lower), .integer(2)])
    }

    @Test func valuesStayOutWhenTheConnectionSaysSo() throws {
        let db = try Database.memory { $0.includesArgumentsInErrors = false }
        try db.createTable(for: UUIDBook.self)
        try db.insert(UUIDBook(id: id, title: "first"))
        let error = try #require(throws: DatabaseError.self) { try db.insert(UUIDBook(id: id, title: "secret")) }
        #expect(error.arguments == nil)
        #expect(!error.description.contains("secret"))
    }
}
