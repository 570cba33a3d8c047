import Foundation
import Slate
import SlatePostgres

/// What the routes do with the database. Every query is a typed builder query, written once and
/// run on SQLite or PostgreSQL by ``TodoDatabase``.
public struct TodoStore: Sendable {
    public let database: TodoDatabase
    /// Tells the event streams of a list that it changed, on PostgreSQL (SQLite's live queries
    /// notice commits themselves).
    let changes = ChangeNotifier()

    public init(database: TodoDatabase) {
        self.database = database
    }

    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    // MARK: Lists

    func createList(title: String) async throws -> ListSummary {
        let list = try await database.insert(TodoList(title: title, createdAt: Self.now()))
        guard let id = list.id else { throw APIError.internal("the new list has no id") }
        return ListSummary(id: id, title: list.title, createdAt: list.createdAt, itemCount: 0)
    }

    /// A page of lists with their item counts, read with one query: a left join grouped by list.
    func lists(limit: Int, offset: Int) async throws -> Page<ListSummary> {
        let rows = try await database.fetchAll(
            TodoList.all()
                .leftJoin(TodoItem.self, on: { list, item in list.id == item.listId })
                .group { list, _ in list.id }
                .order { list, _ in list.id }
                .limit(limit, offset: offset)
                .select { list, item in (list.id, list.title, list.createdAt, item.id.count()) })
        let total = try await database.fetchCount(TodoList.all())
        return Page(items: rows.map(Self.summary), limit: limit, offset: offset, total: total)
    }

    /// A list with its item count, or `nil` when there is none with this id.
    func list(id: Int64) async throws -> ListSummary? {
        try await database.fetchOne(
            TodoList.where { $0.id == id }
                .leftJoin(TodoItem.self, on: { list, item in list.id == item.listId })
                .group { list, _ in list.id }
                .select { list, item in (list.id, list.title, list.createdAt, item.id.count()) }
        ).map(Self.summary)
    }

    private static func summary(_ row: (Int64?, String, Int64, Int)) -> ListSummary {
        ListSummary(id: row.0 ?? 0, title: row.1, createdAt: row.2, itemCount: row.3)
    }

    func renameList(id: Int64, title: String) async throws -> ListSummary? {
        let changed = try await database.execute(
            TodoList.update { $0.title.set(to: title) }.where { $0.id == id })
        guard changed > 0 else { return nil }
        changes.notify(listID: id)
        return try await list(id: id)
    }

    /// Deletes a list and, by the foreign key's cascade, its items.
    func deleteList(id: Int64) async throws -> Bool {
        let deleted = try await database.execute(TodoList.delete().where { $0.id == id })
        if deleted > 0 { changes.notify(listID: id) }
        return deleted > 0
    }

    // MARK: Items

    /// Adds an item. A list that does not exist fails the foreign key: ``APIError`` maps that
    /// constraint violation to 404.
    func createItem(listID: Int64, title: String, done: Bool) async throws -> TodoItem {
        let item = try await database.insert(TodoItem(listId: listID, title: title, done: done, createdAt: Self.now()))
        changes.notify(listID: listID)
        return item
    }

    func items(listID: Int64, filter: ItemFilter, limit: Int, offset: Int) async throws -> Page<TodoItem> {
        let matching = Self.items(listID: listID, filter: filter)
        let items = try await database.fetchAll(matching.order { $0.id }.limit(limit, offset: offset))
        let total = try await database.fetchCount(matching)
        return Page(items: items, limit: limit, offset: offset, total: total)
    }

    static func items(listID: Int64, filter: ItemFilter) -> Select<TodoItem> {
        var query = TodoItem.where { $0.listId == listID }
        if let done = filter.done { query = query.where { $0.done == done } }
        if let text = filter.titleContains, !text.isEmpty { query = query.where { $0.title.contains(text) } }
        return query
    }

    func item(listID: Int64, id: Int64) async throws -> TodoItem? {
        try await database.fetchOne(TodoItem.where { $0.listId == listID && $0.id == id })
    }

    func updateItem(listID: Int64, id: Int64, patch: ItemPatch) async throws -> TodoItem? {
        guard patch.title != nil || patch.done != nil else { return try await item(listID: listID, id: id) }
        let update = TodoItem.update { item in
            if let title = patch.title { item.title.set(to: title) }
            if let done = patch.done { item.done.set(to: done) }
        }
        let changed = try await database.execute(update.where { $0.listId == listID && $0.id == id })
        guard changed > 0 else { return nil }
        changes.notify(listID: listID)
        return try await item(listID: listID, id: id)
    }

    func deleteItem(listID: Int64, id: Int64) async throws -> Bool {
        let deleted = try await database.execute(TodoItem.delete().where { $0.listId == listID && $0.id == id })
        if deleted > 0 { changes.notify(listID: listID) }
        return deleted > 0
    }

    // MARK: Events

    /// The list and its items now, then after each change: on SQLite a live query (a commit that
    /// touches neither table's rows of this list refetches nothing); on PostgreSQL a refetch after
    /// each change this server made. Ends when the list is deleted.
    func snapshots(listID: Int64) -> AsyncThrowingStream<ListSnapshot, any Error> {
        switch database {
        case .sqlite(let pool):
            let observation = DatabaseObservation { db -> ListSnapshot? in
                let summary = try TodoList.where({ $0.id == listID })
                    .leftJoin(TodoItem.self, on: { list, item in list.id == item.listId })
                    .group({ list, _ in list.id })
                    .select({ list, item in (list.id, list.title, list.createdAt, item.id.count()) })
                    .fetchOne(db)
                guard let summary else { return nil }
                let items = try TodoItem.where({ $0.listId == listID }).order({ $0.id }).fetchAll(db)
                return ListSnapshot(list: Self.summary(summary), items: items)
            }
            return Self.untilNil(observation.values(in: pool))
        case .postgreSQL:
            let store = self
            return Self.untilNil(
                AsyncThrowingStream<ListSnapshot?, any Error> { continuation in
                    let task = Task {
                        // Subscribed before the first fetch: no change after it is missed.
                        var notifications = store.changes.subscribe(listID: listID)
                        do {
                            var last: ListSnapshot?
                            repeat {
                                let snapshot = try await store.snapshot(listID: listID)
                                if snapshot != last || snapshot == nil { continuation.yield(snapshot) }
                                last = snapshot
                                if snapshot == nil { break }
                            } while await notifications.next() != nil
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: error)
                        }
                    }
                    continuation.onTermination = { _ in task.cancel() }
                })
        }
    }

    private func snapshot(listID: Int64) async throws -> ListSnapshot? {
        guard let list = try await list(id: listID) else { return nil }
        let items = try await database.fetchAll(TodoItem.where { $0.listId == listID }.order { $0.id })
        return ListSnapshot(list: list, items: items)
    }

    /// The values of `sequence` up to its first `nil`.
    private static func untilNil<Values: AsyncSequence & Sendable>(
        _ sequence: Values
    ) -> AsyncThrowingStream<ListSnapshot, any Error> where Values.Element == ListSnapshot? {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await value in sequence {
                        guard let value else { break }
                        continuation.yield(value)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Wakes the event streams of a list after this server changed it (PostgreSQL; with SQLite the
/// live query sees every commit by itself).
final class ChangeNotifier: @unchecked Sendable {
    // @unchecked Sendable: `subscribers` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var subscribers: [Int64: [UUID: AsyncStream<Void>.Continuation]] = [:]

    func subscribe(listID: Int64) -> AsyncStream<Void>.Iterator {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        lock.lock()
        subscribers[listID, default: [:]][id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            lock.lock()
            subscribers[listID]?[id] = nil
            lock.unlock()
        }
        return stream.makeAsyncIterator()
    }

    func notify(listID: Int64) {
        lock.lock()
        let continuations = subscribers[listID].map { Array($0.values) } ?? []
        lock.unlock()
        for continuation in continuations { continuation.yield() }
    }
}
