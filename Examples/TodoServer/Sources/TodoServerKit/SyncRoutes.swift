import Foundation
import Hummingbird
import Slate
import SlateSync

/// The sync server of issue 35, mounted under `/sync`: replicas (`SyncReplica` with an
/// `HTTPSyncTransport` whose base URL is `http://host:port/sync`) push their outbox and pull the
/// ordered log.
///
/// | method and path | does |
/// | --- | --- |
/// | `POST /sync/push` `SyncPushRequest` | takes a replica's entries, in order (`SyncPushResponse`) |
/// | `POST /sync/pull` `SyncPullRequest` | the log's entries after a position (`SyncPullResponse`) |
///
/// The log lives in SQLite: in the app's database when the app runs on SQLite (tables
/// `slate_sync_log` and `slate_sync_replicas`, beside the to-do tables), and in
/// `sync.sqlite` in the data directory when it runs on PostgreSQL. The server orders changes and
/// never applies them, so the log holds any replica schema. Bad input is a 4xx with a JSON error
/// (`{"error": "…"}`), never a 500: malformed JSON 400, a body over 16 MiB 413, entries the server
/// refuses (another replica's, malformed changesets, unaccepted schema versions) 422.
public struct SyncRoutes: RouteGroup {
    /// Where the log goes when the app's database is PostgreSQL.
    public var dataDirectory: String
    /// The largest request body taken, in bytes. Larger than the to-do API's limit: a push carries
    /// up to a batch of changesets.
    public var maximumBodySize = 16 << 20

    public init(dataDirectory: String) {
        self.dataDirectory = dataDirectory
    }

    public var pathPrefix: String { "sync" }

    public func addRoutes(to group: RouterGroup<AppRequestContext>, services: AppServices) throws {
        let writer: any DatabaseWriter
        switch services.database {
        case .sqlite(let pool):
            writer = pool
        case .postgreSQL:
            let directory = URL(fileURLWithPath: dataDirectory, isDirectory: true)
            let path = directory.appendingPathComponent("sync.sqlite").path
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                writer = try DatabasePool(path: path)
            } catch {
                throw StartupError("cannot open the sync log at \(path): \(error)")
            }
        }
        var handler = SyncHTTPHandler(server: try SyncServer(writer: writer))
        handler.maximumBodySize = maximumBodySize
        for route in ["push", "pull"] {
            group.post(RouterPath(route)) { [handler] request, _ -> Response in
                let answer = await handler.respond(
                    to: .init(
                        method: "POST", path: "/" + route,
                        body: try await Self.body(request, upTo: handler.maximumBodySize)))
                guard answer.status == 200 else { throw Self.error(answer) }
                var headers = HTTPFields()
                headers[.contentType] = answer.contentType
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        }
    }

    /// The body, read up to the sync limit (not the to-do API's); a larger one is 413.
    private static func body(_ request: Request, upTo limit: Int) async throws -> Data {
        do {
            return Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, code: "too_large", "the sync request body is larger than \(limit) bytes")
        }
    }

    /// The handler's error answer as the app's JSON error (`{"error": {"status", "code", "message"}}`).
    private static func error(_ answer: SyncHTTPHandler.Response) -> APIError {
        let message =
            (try? JSONDecoder().decode([String: String].self, from: answer.body))?["error"]
            ?? "the sync request failed"
        let code =
            switch answer.status {
            case 400: "bad_request"
            case 404: "not_found"
            case 405: "method_not_allowed"
            case 413: "too_large"
            case 422: "refused"
            default: "unavailable"
            }
        return APIError(.init(code: answer.status), code: code, message)
    }
}
