import Foundation
import Slate

// Tables of the full-text and JSON tests, shared by the SQLite tests (SlateQueryTests) and the
// PostgreSQL dialect tests (SlatePostgresTests).

/// The content table of an external-content full-text index.
package struct Post: PrimaryKeyedTable, Equatable {
    package var id: Int64?
    package var title: String
    package var body: String

    package static let schema = TableSchema(
        name: "post",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "title", type: "TEXT", isNotNull: true),
            .init(name: "body", type: "TEXT", isNotNull: true),
        ])

    package struct Columns: TableColumns {
        package let id: Column<Post, Int64?>
        package let title: Column<Post, String>
        package let body: Column<Post, String>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            title = Column(qualifier, "title")
            body = Column(qualifier, "body")
        }
    }

    package init(id: Int64? = nil, title: String, body: String) {
        self.id = id
        self.title = title
        self.body = body
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        title = try row.decode(at: 1)
        body = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(body)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }
    package var primaryKey: Int64? { id }
}

/// A hand-written FTS5 table indexing `post` (external content).
package struct PostSearch: Table, Equatable {
    package var title: String?
    package var body: String?

    package static let schema = TableSchema(
        name: "post_search",
        kind: .virtual(module: "fts5", arguments: "title, body, content='post', content_rowid='id'"),
        columns: [.init(name: "title"), .init(name: "body")])

    package struct Columns: FullTextColumns {
        package let rowid: Column<PostSearch, Int64>
        package let title: Column<PostSearch, String?>
        package let body: Column<PostSearch, String?>
        package init(qualifier: String) {
            rowid = Column(qualifier, "rowid")
            title = Column(qualifier, "title")
            body = Column(qualifier, "body")
        }
    }

    package init(title: String?, body: String?) {
        self.title = title
        self.body = body
    }

    package init(row: borrowing Row) throws {
        title = try row.decode(at: 0)
        body = try row.decode(at: 1)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(title)
        try encoder.encode(body)
    }
}

/// A table with JSON columns: one stored through `JSONEncoded`, one plain text.
package struct Gadget: PrimaryKeyedTable, Equatable {
    package struct Specs: Codable, Equatable, Sendable {
        package var brand: String
        package var weight: Int
        package var colors: [String]

        package init(brand: String, weight: Int, colors: [String]) {
            self.brand = brand
            self.weight = weight
            self.colors = colors
        }
    }

    package var id: Int64?
    package var specs: Specs
    package var tags: String?

    package static let schema = TableSchema(
        name: "gadget",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "specs", type: "TEXT", isNotNull: true),
            .init(name: "tags", type: "TEXT"),
        ])

    package struct Columns: TableColumns {
        package let id: Column<Gadget, Int64?>
        package let specs: Column<Gadget, JSONEncoded<Specs>>
        package let tags: Column<Gadget, String?>
        package init(qualifier: String) {
            id = Column(qualifier, "id")
            specs = Column(qualifier, "specs")
            tags = Column(qualifier, "tags")
        }
    }

    package init(id: Int64? = nil, specs: Specs, tags: String?) {
        self.id = id
        self.specs = specs
        self.tags = tags
    }

    package init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        specs = try row.decode(JSONEncoded<Specs>.self, at: 1).value
        tags = try row.decode(at: 2)
    }

    package func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(JSONEncoded(specs))
        try encoder.encode(tags)
    }

    package mutating func didInsert(rowID: Int64) { id = rowID }
    package var primaryKey: Int64? { id }
}

/// The shape `jsonObject` builds in the tests.
package struct ArtistSummary: Codable, Equatable, Sendable {
    package var id: Int64
    package var name: String?

    package init(id: Int64, name: String?) {
        self.id = id
        self.name = name
    }
}
