import Foundation
import Hummingbird
import ServiceLifecycle

/// The to-do API, mounted at the root:
///
/// | method and path | does |
/// | --- | --- |
/// | `GET /health` | `{"status": "ok", "database": "sqlite"}` |
/// | `POST /lists` `{"title"}` | creates a list (201); a title in use is 409 |
/// | `GET /lists?limit=&offset=` | a page of lists, each with its item count (one query) |
/// | `GET /lists/{id}` | a list with its item count |
/// | `PATCH /lists/{id}` `{"title"}` | renames a list |
/// | `DELETE /lists/{id}` | deletes a list and its items (204) |
/// | `POST /lists/{id}/items` `{"title", "done"?}` | adds an item (201); an unknown list is 404 |
/// | `GET /lists/{id}/items?done=&q=&limit=&offset=` | a page of items, filtered by state and title |
/// | `GET /lists/{id}/items/{itemID}` | an item |
/// | `PATCH /lists/{id}/items/{itemID}` `{"title"?, "done"?}` | changes an item |
/// | `DELETE /lists/{id}/items/{itemID}` | deletes an item (204) |
/// | `GET /lists/{id}/events` | server-sent events: the list and its items now, then after each change |
public struct TodoRoutes: RouteGroup {
    public init() {}

    public var pathPrefix: String { "" }

    public func addRoutes(to group: RouterGroup<AppRequestContext>, services: AppServices) {
        let store = services.store
        group.get("health") { _, _ in
            HealthResponse(status: "ok", database: store.database.engine)
        }

        group.post("lists") { request, context in
            let input = try await request.decode(as: ListInput.self, context: context)
            let list = try await store.createList(title: try Self.title(input.title, maximumLength: 200))
            return try Self.created(list, request: request, context: context)
        }
        group.get("lists") { request, _ in
            let (limit, offset) = try Self.page(request)
            return try await store.lists(limit: limit, offset: offset)
        }
        group.get("lists/:id") { _, context in
            let id = try Self.id(context, "id")
            guard let list = try await store.list(id: id) else { throw APIError.notFound("no list \(id)") }
            return list
        }
        group.patch("lists/:id") { request, context in
            let id = try Self.id(context, "id")
            let input = try await request.decode(as: ListInput.self, context: context)
            guard let list = try await store.renameList(id: id, title: try Self.title(input.title, maximumLength: 200))
            else { throw APIError.notFound("no list \(id)") }
            return list
        }
        group.delete("lists/:id") { _, context in
            let id = try Self.id(context, "id")
            guard try await store.deleteList(id: id) else { throw APIError.notFound("no list \(id)") }
            return Response(status: .noContent)
        }

        group.post("lists/:id/items") { request, context in
            let listID = try Self.id(context, "id")
            let input = try await request.decode(as: NewItemInput.self, context: context)
            let item = try await store.createItem(
                listID: listID, title: try Self.title(input.title, maximumLength: 500), done: input.done ?? false)
            return try Self.created(item, request: request, context: context)
        }
        group.get("lists/:id/items") { request, context in
            let listID = try Self.id(context, "id")
            guard try await store.list(id: listID) != nil else { throw APIError.notFound("no list \(listID)") }
            let (limit, offset) = try Self.page(request)
            let parameters = request.uri.queryParameters
            var filter = ItemFilter()
            if let done = parameters["done"] {
                guard let value = Bool(String(done)) else { throw APIError.badRequest("done must be true or false") }
                filter.done = value
            }
            filter.titleContains = parameters["q"].map(String.init)
            return try await store.items(listID: listID, filter: filter, limit: limit, offset: offset)
        }
        group.get("lists/:id/items/:itemID") { _, context in
            let (listID, itemID) = (try Self.id(context, "id"), try Self.id(context, "itemID"))
            guard let item = try await store.item(listID: listID, id: itemID) else {
                throw APIError.notFound("no item \(itemID) in list \(listID)")
            }
            return item
        }
        group.patch("lists/:id/items/:itemID") { request, context in
            let (listID, itemID) = (try Self.id(context, "id"), try Self.id(context, "itemID"))
            var patch = try await request.decode(as: ItemPatch.self, context: context)
            if let title = patch.title { patch.title = try Self.title(title, maximumLength: 500) }
            guard let item = try await store.updateItem(listID: listID, id: itemID, patch: patch) else {
                throw APIError.notFound("no item \(itemID) in list \(listID)")
            }
            return item
        }
        group.delete("lists/:id/items/:itemID") { _, context in
            let (listID, itemID) = (try Self.id(context, "id"), try Self.id(context, "itemID"))
            guard try await store.deleteItem(listID: listID, id: itemID) else {
                throw APIError.notFound("no item \(itemID) in list \(listID)")
            }
            return Response(status: .noContent)
        }

        group.get("lists/:id/events") { _, context in
            let listID = try Self.id(context, "id")
            guard try await store.list(id: listID) != nil else { throw APIError.notFound("no list \(listID)") }
            return ServerSentEvents.response(
                for: store.snapshots(listID: listID), event: "snapshot", logger: context.logger)
        }
    }

    // MARK: Input

    /// A path parameter that must be a positive id; anything else is a 404 (no such thing).
    static func id(_ context: AppRequestContext, _ name: String) throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text), id > 0 else {
            throw APIError.notFound("no \(name == "id" ? "list" : "item") \(context.parameters.get(name) ?? "")")
        }
        return id
    }

    /// `limit` (1 to 100, default 20) and `offset` (0 or more, default 0).
    static func page(_ request: Request) throws -> (limit: Int, offset: Int) {
        let parameters = request.uri.queryParameters
        var limit = 20
        var offset = 0
        if let text = parameters["limit"] {
            guard let value = Int(String(text)), (1...100).contains(value) else {
                throw APIError.badRequest("limit must be a number from 1 to 100")
            }
            limit = value
        }
        if let text = parameters["offset"] {
            guard let value = Int(String(text)), value >= 0, value <= 1_000_000_000 else {
                throw APIError.badRequest("offset must be a number of 0 or more")
            }
            offset = value
        }
        return (limit, offset)
    }

    /// A title without its surrounding spaces, not empty and at most `maximumLength` characters.
    static func title(_ text: String, maximumLength: Int) throws -> String {
        let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw APIError.invalid("the title is empty") }
        guard title.count <= maximumLength else {
            throw APIError.invalid("the title is longer than \(maximumLength) characters")
        }
        return title
    }

    static func created(_ value: some ResponseEncodable, request: Request, context: AppRequestContext) throws
        -> Response
    {
        var response = try value.response(from: request, context: context)
        response.status = .created
        return response
    }
}

struct HealthResponse: ResponseEncodable {
    var status: String
    var database: String
}

extension ListSummary: ResponseEncodable {}
extension TodoItem: ResponseEncodable {}
extension Page: ResponseEncodable {}
