import Foundation
import Slate
import SlateTestSupport
import Testing

// Issue 36: decoding a raw joined row into two records needed `Row.shifted(by:)`, which became
// package-only. `row.decode(_:startingAt:)` is the public way.
@Suite struct RowStartingAtTests {
    @Test func decodesOneRecordPerTableOfARawJoin() throws {
        let db = try Database.memory()
        try db.createTable(for: UUIDBook.self)
        try db.createTable(for: UUIDReview.self)
        let dune = UUIDBook(id: UUID(), title: "Dune")
        let emma = UUIDBook(id: UUID(), title: "Emma")
        try db.insert(contentsOf: [dune, emma])
        let review = try db.insert(UUIDReview(bookID: dune.id, stars: 5))
        let offset = UUIDBook.schema.recordColumns.count
        let rows = try db.fetchAll(
            "SELECT book.*, review.* FROM book LEFT JOIN review ON review.bookID = book.id ORDER BY book.title"
        ) { row in
            (try row.decode(UUIDBook.self, startingAt: 0), try row.decode(UUIDReview?.self, startingAt: offset))
        }
        #expect(rows.map(\.0) == [dune, emma])
        #expect(rows.map(\.1) == [review, nil])
        // Copied rows too.
        let copied = try db.fetchAll(
            CopiedRow.self, "SELECT book.*, review.* FROM book JOIN review ON review.bookID = book.id")
        #expect(try copied[0].withRow { try $0.decode(UUIDReview.self, startingAt: offset) } == review)
    }

    @Test func aPositionOutsideTheRowThrows() throws {
        let db = try Database.memory()
        for position in [-1, 3] {
            let error = try #require(throws: DatabaseError.self) {
                _ = try db.fetchAll("SELECT 1, 2") { row in try row.decode(UUIDBook.self, startingAt: position) }
            }
            #expect(error.resultCode == .range)
            #expect(error.message == "cannot decode a record from column \(position) of a row of 2 column(s)")
        }
    }
}
