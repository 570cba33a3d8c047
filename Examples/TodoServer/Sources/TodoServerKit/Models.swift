import Foundation
import Slate

// The two tables. `@Table` (product SlateMacros) writes these conformances; they are written by
// hand here so that the example does not build swift-syntax. The JSON the API speaks is the
// records' Codable form.

/// A to-do list.
public struct TodoList: PrimaryKeyedTable, Codable, Sendable, Equatable {
    public var id: Int64?
    public var title: String
    /// When the list was created, in milliseconds since 1970.
    public var createdAt: Int64

    public init(id: Int64? = nil, title: String, createdAt: Int64) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
    }

    public static let schema = TableSchema(
        name: "todo_list",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "title", type: "TEXT", isNotNull: true),
            .init(name: "created_at", type: "INTEGER", isNotNull: true),
        ])

    public struct Columns: TableColumns {
        public let id: Column<TodoList, Int64?>
        public let title: Column<TodoList, String>
        public let createdAt: Column<TodoList, Int64>
        public init(qualifier: String) {
            id = Column(qualifier, "id")
            title = Column(qualifier, "title")
            createdAt = Column(qualifier, "created_at")
        }
    }

    public init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        title = try row.decode(at: 1)
        createdAt = try row.decode(at: 2)
    }

    public func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(createdAt)
    }

    public mutating func didInsert(rowID: Int64) { id = rowID }

    public var primaryKey: Int64? { id }
}

/// An item of a list.
public struct TodoItem: PrimaryKeyedTable, Codable, Sendable, Equatable {
    public var id: Int64?
    public var listId: Int64
    public var title: String
    public var done: Bool
    /// When the item was created, in milliseconds since 1970.
    public var createdAt: Int64

    public init(id: Int64? = nil, listId: Int64, title: String, done: Bool, createdAt: Int64) {
        self.id = id
        self.listId = listId
        self.title = title
        self.done = done
        self.createdAt = createdAt
    }

    public static let schema = TableSchema(
        name: "todo_item",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "list_id", type: "INTEGER", isNotNull: true),
            .init(name: "title", type: "TEXT", isNotNull: true),
            .init(name: "done", type: "BOOLEAN", isNotNull: true),
            .init(name: "created_at", type: "INTEGER", isNotNull: true),
        ])

    public struct Columns: TableColumns {
        public let id: Column<TodoItem, Int64?>
        public let listId: Column<TodoItem, Int64>
        public let title: Column<TodoItem, String>
        public let done: Column<TodoItem, Bool>
        public let createdAt: Column<TodoItem, Int64>
        public init(qualifier: String) {
            id = Column(qualifier, "id")
            listId = Column(qualifier, "list_id")
            title = Column(qualifier, "title")
            done = Column(qualifier, "done")
            createdAt = Column(qualifier, "created_at")
        }
    }

    public init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        listId = try row.decode(at: 1)
        title = try row.decode(at: 2)
        done = try row.decode(at: 3)
        createdAt = try row.decode(at: 4)
    }

    public func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(listId)
        try encoder.encode(title)
        try encoder.encode(done)
        try encoder.encode(createdAt)
    }

    public mutating func didInsert(rowID: Int64) { id = rowID }

    public var primaryKey: Int64? { id }
}

/// A list with the number of its items: what `GET /lists` returns, read with one query (a left
/// join grouped by list).
public struct ListSummary: Codable, Sendable, Equatable {
    public var id: Int64
    public var title: String
    public var createdAt: Int64
    public var itemCount: Int
}

/// One page of results.
public struct Page<Element: Codable & Sendable>: Codable, Sendable {
    public var items: [Element]
    public var limit: Int
    public var offset: Int
    /// The number of results on every page together.
    public var total: Int
}

/// What a server-sent event about a list carries: the list and its items, as they are after a
/// change.
public struct ListSnapshot: Codable, Sendable, Equatable {
    public var list: ListSummary
    public var items: [TodoItem]
}

// MARK: Requests

/// `POST /lists`, `PATCH /lists/{id}`.
struct ListInput: Decodable {
    var title: String
}

/// `POST /lists/{id}/items`.
struct NewItemInput: Decodable {
    var title: String
    var done: Bool?
}

/// `PATCH /lists/{id}/items/{itemID}`: what to change.
struct ItemPatch: Decodable {
    var title: String?
    var done: Bool?
}
