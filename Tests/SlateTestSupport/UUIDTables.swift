import Foundation
import Slate

// Tables keyed by UUIDs stored as text (issue 36), shared by the query, core and PostgreSQL tests.

/// A book keyed by a UUID stored as text, declared as Slate declares UUID text columns.
package struct UUIDBook: PrimaryKeyedTable, Equatable {
    package var id: UUID
    package var title: String

    package static let schema = TableSchema(
        name: "book",
        columns: [
            .init(name: "id", type: "TEXT", isNotNull: true, primaryKeyPosition: 1, collation: "NOCASE"),
            .init(name: "title", type: "TEXT", isNotNull: true),
        ])

    package struct Columns: TableColumns {
        package let id: Column<UUIDBook, UUID>
        package let title: Column<UUIDBook, String>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            title = Column(qualifier, "title")
        }
    }

    package init(id: UUID, title: String) {
        self.id = id
        self.title = title
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        title = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(title)
    }

    package var primaryKey: UUID { id }
}

/// A review of a book: a UUID foreign key.
package struct UUIDReview: PrimaryKeyedTable, Equatable {
    package var id: Int64?
    package var bookID: UUID
    package var stars: Int

    package static let schema = TableSchema(
        name: "review",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "bookID", type: "TEXT", isNotNull: true, collation: "NOCASE"),
            .init(name: "stars", type: "INTEGER", isNotNull: true),
        ],
        foreignKeys: [.init(columns: ["bookID"], referencedTable: "book", referencedColumns: ["id"])])

    package struct Columns: TableColumns {
        package let id: Column<UUIDReview, Int64?>
        package let bookID: Column<UUIDReview, UUID>
        package let stars: Column<UUIDReview, Int>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            bookID = Column(qualifier, "bookID")
            stars = Column(qualifier, "stars")
        }
    }

    package init(id: Int64? = nil, bookID: UUID, stars: Int) {
        self.id = id
        self.bookID = bookID
        self.stars = stars
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        bookID = try row.decode(at: 1)
        stars = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(bookID)
        try encoder.encode(stars)
    }

    package var primaryKey: Int64? { id }

    package mutating func didInsert(rowID: Int64) { id = rowID }
}

/// UUID strings of one value in three letter cases.
package enum UUIDSpellings {
    package static let lower = "6f1c2a3e-8b4d-4c5e-9f60-123456789abc"
    package static let upper = lower.uppercased()
    package static let mixed = "6F1c2A3e-8b4D-4c5E-9f60-123456789AbC"
}
