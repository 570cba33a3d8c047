import FluentKit
import FluentPostgresDriver
import FluentSQL
import FluentSQLiteDriver
import Foundation
import Hummingbird
import Logging
import NIOPosix

// The TodoServer API with Fluent: the same paths, JSON and status codes as Examples/TodoServer,
// written as a Fluent user would (models with property wrappers, the query builder, SQLKit for the
// grouped count). Settings: HOST, PORT, DATA_DIR, DATABASE_URL (`postgres:` takes the PG*
// variables), LOG_LEVEL.

// MARK: Models

final class ListModel: Model, @unchecked Sendable {
    static let schema = "todo_list"
    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Field(key: "title") var title: String
    @Field(key: "created_at") var createdAt: Int64
    init() {}
    init(title: String, createdAt: Int64) {
        self.title = title
        self.createdAt = createdAt
    }
}

final class ItemModel: Model, @unchecked Sendable {
    static let schema = "todo_item"
    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Parent(key: "list_id") var list: ListModel
    @Field(key: "title") var title: String
    @Field(key: "done") var done: Bool
    @Field(key: "created_at") var createdAt: Int64
    init() {}
    init(listID: Int64, title: String, done: Bool, createdAt: Int64) {
        self.$list.id = listID
        self.title = title
        self.done = done
        self.createdAt = createdAt
    }
    var json: ItemJSON { ItemJSON(id: id ?? 0, listId: $list.id, title: title, done: done, createdAt: createdAt) }
}

struct CreateTodoTables: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema("todo_list")
            .field("id", .int64, .identifier(auto: true))
            .field("title", .string, .required)
            .field("created_at", .int64, .required)
            .unique(on: "title")
            .create()
        try await database.schema("todo_item")
            .field("id", .int64, .identifier(auto: true))
            .field("list_id", .int64, .required, .references("todo_list", "id", onDelete: .cascade))
            .field("title", .string, .required)
            .field("done", .bool, .required)
            .field("created_at", .int64, .required)
            .create()
    }

    func revert(on database: any Database) async throws {
        try await database.schema("todo_item").delete()
        try await database.schema("todo_list").delete()
    }
}

// MARK: JSON

struct ListJSON: ResponseEncodable {
    var id: Int64
    var title: String
    var createdAt: Int64
    var itemCount: Int
}

struct ItemJSON: ResponseEncodable, Equatable {
    var id: Int64
    var listId: Int64
    var title: String
    var done: Bool
    var createdAt: Int64
}

struct PageJSON<Element: Encodable & Sendable>: ResponseEncodable {
    var items: [Element]
    var limit: Int
    var offset: Int
    var total: Int
}

struct ListInput: Decodable { var title: String }
struct NewItemInput: Decodable {
    var title: String
    var done: Bool?
}
struct ItemPatch: Decodable {
    var title: String?
    var done: Bool?
}

/// An error's JSON body: `{"error": {"status", "code", "message"}}`.
struct ErrorBody: Encodable {
    struct Detail: Encodable {
        var status: Int
        var code: String
        var message: String
    }
    var error: Detail
}

struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }
    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONEncoder().encode(
            ErrorBody(error: .init(status: status.code, code: code, message: message)))
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            return try APIError(error.status, "client_error", error.body ?? error.status.reasonPhrase)
                .response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            return try APIError(error.status, "client_error", error.status.reasonPhrase)
                .response(from: request, context: context)
        } catch let error as any FluentKit.DatabaseError where error.isConstraintFailure {
            return try APIError(.conflict, "conflict", "a list with this title already exists")
                .response(from: request, context: context)
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(error)"])
            return try APIError(.internalServerError, "internal", "the server failed to answer this request")
                .response(from: request, context: context)
        }
    }
}

struct AppContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    var maxUploadSize: Int { 64 * 1024 }
}

// MARK: Routes

func id(_ context: AppContext, _ name: String) throws -> Int64 {
    guard let text = context.parameters.get(name), let id = Int64(text), id > 0 else {
        throw APIError(.notFound, "not_found", "no such \(name == "id" ? "list" : "item")")
    }
    return id
}

func page(_ request: Request) throws -> (Int, Int) {
    let parameters = request.uri.queryParameters
    var limit = 20
    var offset = 0
    if let text = parameters["limit"] {
        guard let value = Int(String(text)), (1...100).contains(value) else {
            throw APIError(.badRequest, "bad_request", "limit must be a number from 1 to 100")
        }
        limit = value
    }
    if let text = parameters["offset"] {
        guard let value = Int(String(text)), value >= 0 else {
            throw APIError(.badRequest, "bad_request", "offset must be a number of 0 or more")
        }
        offset = value
    }
    return (limit, offset)
}

func title(_ text: String, maximumLength: Int) throws -> String {
    let title = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty, title.count <= maximumLength else {
        throw APIError(.unprocessableContent, "invalid", "the title must have 1 to \(maximumLength) characters")
    }
    return title
}

func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

func created(_ value: some ResponseEncodable, _ request: Request, _ context: AppContext) throws -> Response {
    var response = try value.response(from: request, context: context)
    response.status = .created
    return response
}

/// The lists with their item counts: one grouped query, through SQLKit (Fluent's query builder
/// has no GROUP BY with aggregates).
func summaries(_ db: any Database, id: Int64? = nil, limit: Int, offset: Int) async throws -> [ListJSON] {
    guard let sql = db as? any SQLDatabase else { throw APIError(.internalServerError, "internal", "not SQL") }
    let filter: SQLQueryString = id.map { "WHERE l.id = \(bind: $0)" } ?? ""
    let rows = try await sql.raw(
        """
        SELECT l.id, l.title, l.created_at, count(i.id) AS item_count
        FROM todo_list l LEFT JOIN todo_item i ON i.list_id = l.id \(filter)
        GROUP BY l.id ORDER BY l.id LIMIT \(bind: limit) OFFSET \(bind: offset)
        """
    ).all()
    return try rows.map { row in
        ListJSON(
            id: try row.decode(column: "id", as: Int64.self), title: try row.decode(column: "title", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            itemCount: try row.decode(column: "item_count", as: Int.self))
    }
}

func addRoutes(_ router: Router<AppContext>, databases: Databases, logger: Logger, eventLoop: any EventLoop) {
    @Sendable func db() -> any Database { databases.database(logger: logger, on: eventLoop)! }

    router.get("health") { _, _ in ["status": "ok", "database": "fluent"] }
    router.post("lists") { request, context in
        let input = try await request.decode(as: ListInput.self, context: context)
        let list = ListModel(title: try title(input.title, maximumLength: 200), createdAt: now())
        try await list.create(on: db())
        return try created(
            ListJSON(id: list.id ?? 0, title: list.title, createdAt: list.createdAt, itemCount: 0), request, context)
    }
    router.get("lists") { request, _ in
        let (limit, offset) = try page(request)
        let items = try await summaries(db(), limit: limit, offset: offset)
        let total = try await ListModel.query(on: db()).count()
        return PageJSON(items: items, limit: limit, offset: offset, total: total)
    }
    router.get("lists/:id") { _, context in
        let listID = try id(context, "id")
        guard let list = try await summaries(db(), id: listID, limit: 1, offset: 0).first else {
            throw APIError(.notFound, "not_found", "no list \(listID)")
        }
        return list
    }
    router.patch("lists/:id") { request, context in
        let listID = try id(context, "id")
        let input = try await request.decode(as: ListInput.self, context: context)
        guard let list = try await ListModel.find(listID, on: db()) else {
            throw APIError(.notFound, "not_found", "no list \(listID)")
        }
        list.title = try title(input.title, maximumLength: 200)
        try await list.update(on: db())
        return try await summaries(db(), id: listID, limit: 1, offset: 0)[0]
    }
    router.delete("lists/:id") { _, context in
        let listID = try id(context, "id")
        guard let list = try await ListModel.find(listID, on: db()) else {
            throw APIError(.notFound, "not_found", "no list \(listID)")
        }
        try await list.delete(on: db())
        return Response(status: .noContent)
    }
    router.post("lists/:id/items") { request, context in
        let listID = try id(context, "id")
        let input = try await request.decode(as: NewItemInput.self, context: context)
        let itemTitle = try title(input.title, maximumLength: 500)
        guard try await ListModel.find(listID, on: db()) != nil else {
            throw APIError(.notFound, "not_found", "no list \(listID)")
        }
        let item = ItemModel(listID: listID, title: itemTitle, done: input.done ?? false, createdAt: now())
        try await item.create(on: db())
        return try created(item.json, request, context)
    }
    router.get("lists/:id/items") { request, context in
        let listID = try id(context, "id")
        guard try await ListModel.find(listID, on: db()) != nil else {
            throw APIError(.notFound, "not_found", "no list \(listID)")
        }
        let (limit, offset) = try page(request)
        let parameters = request.uri.queryParameters
        let query = ItemModel.query(on: db()).filter(\.$list.$id == listID)
        if let done = parameters["done"] {
            guard let value = Bool(String(done)) else {
                throw APIError(.badRequest, "bad_request", "done must be true or false")
            }
            query.filter(\.$done == value)
        }
        if let text = parameters["q"], !text.isEmpty { query.filter(\.$title ~~ String(text)) }
        let total = try await query.copy().count()
        let items = try await query.sort(\.$id).range(offset..<(offset + limit)).all()
        return PageJSON(items: items.map(\.json), limit: limit, offset: offset, total: total)
    }
    router.get("lists/:id/items/:itemID") { _, context in
        let (listID, itemID) = (try id(context, "id"), try id(context, "itemID"))
        guard
            let item = try await ItemModel.query(on: db()).filter(\.$id == itemID).filter(\.$list.$id == listID).first()
        else { throw APIError(.notFound, "not_found", "no item \(itemID) in list \(listID)") }
        return item.json
    }
    router.patch("lists/:id/items/:itemID") { request, context in
        let (listID, itemID) = (try id(context, "id"), try id(context, "itemID"))
        let patch = try await request.decode(as: ItemPatch.self, context: context)
        guard
            let item = try await ItemModel.query(on: db()).filter(\.$id == itemID).filter(\.$list.$id == listID).first()
        else { throw APIError(.notFound, "not_found", "no item \(itemID) in list \(listID)") }
        if let newTitle = patch.title { item.title = try title(newTitle, maximumLength: 500) }
        if let done = patch.done { item.done = done }
        try await item.update(on: db())
        return item.json
    }
    router.delete("lists/:id/items/:itemID") { _, context in
        let (listID, itemID) = (try id(context, "id"), try id(context, "itemID"))
        guard
            let item = try await ItemModel.query(on: db()).filter(\.$id == itemID).filter(\.$list.$id == listID).first()
        else { throw APIError(.notFound, "not_found", "no item \(itemID) in list \(listID)") }
        try await item.delete(on: db())
        return Response(status: .noContent)
    }
}

// MARK: Main

let environment = ProcessInfo.processInfo.environment
var logger = Logger(label: "todo-server-fluent")
logger.logLevel = environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info
let eventLoopGroup = MultiThreadedEventLoopGroup.singleton
let threadPool = NIOThreadPool.singleton
let databases = Databases(threadPool: threadPool, on: eventLoopGroup)
do {
    if let url = environment["DATABASE_URL"], !url.isEmpty {
        let configuration: SQLPostgresConfiguration
        if url == "postgres:" {
            let host = environment["PGHOST"] ?? "localhost"
            configuration = .init(
                unixDomainSocketPath: "\(host)/.s.PGSQL.\(environment["PGPORT"] ?? "5432")",
                username: environment["PGUSER"] ?? "postgres", password: environment["PGPASSWORD"],
                database: environment["PGDATABASE"])
        } else {
            configuration = try SQLPostgresConfiguration(url: url)
        }
        // As many connections as the Slate server's pool (16), spread over the event loops.
        let loops = max(1, System.coreCount)
        databases.use(
            .postgres(
                configuration: configuration, maxConnectionsPerEventLoop: max(1, 16 / loops), sqlLogLevel: .debug),
            as: .psql)
    } else {
        let directory = environment["DATA_DIR"] ?? "data-fluent"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        databases.use(.sqlite(.file(directory + "/todo.sqlite"), sqlLogLevel: .debug), as: .sqlite)
    }
    let migrations = Migrations()
    migrations.add(CreateTodoTables())
    let migrator = Migrator(databases: databases, migrations: migrations, logger: logger, on: eventLoopGroup.any())
    try await migrator.setupIfNeeded().get()
    try await migrator.prepareBatch().get()

    let router = Router(context: AppContext.self)
    router.add(middleware: ErrorMiddleware())
    addRoutes(router, databases: databases, logger: logger, eventLoop: eventLoopGroup.any())
    let app = Application(
        router: router,
        configuration: .init(
            address: .hostname(environment["HOST"] ?? "127.0.0.1", port: Int(environment["PORT"] ?? "") ?? 8081),
            serverName: "TodoServerFluent"),
        onServerRunning: { channel in
            let line = "TodoServerFluent listening on \(channel.localAddress?.description ?? "?")\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        },
        logger: logger)
    try await app.runService()
    await databases.shutdownAsync()
} catch {
    FileHandle.standardError.write(Data("TodoServerFluent: \(error)\n".utf8))
    exit(1)
}
