import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server side of the HTTP transport, independent of any HTTP server: it turns a request
/// (method, path, body) into a response (status, body). Mount it in your server's router under a
/// prefix, such as `/sync`: `POST {prefix}/push` and `POST {prefix}/pull`, JSON bodies. The
/// example app `Examples/TodoServer` mounts it in Hummingbird.
///
/// Bad input gets a 4xx with a JSON error (`{"error": "…"}`): malformed JSON 400, unknown path 404,
/// wrong method 405, a body over ``maximumBodySize`` 413, entries the server refuses 422. A failure
/// of the server's database is a 503.
public struct SyncHTTPHandler: Sendable {
    /// A request, as the HTTP server hands it over.
    public struct Request: Sendable {
        public var method: String
        /// The path below the mount point: `/push` or `/pull`.
        public var path: String
        public var body: Data

        public init(method: String, path: String, body: Data) {
            self.method = method
            self.path = path
            self.body = body
        }
    }

    /// A response, for the HTTP server to send.
    public struct Response: Sendable {
        public var status: Int
        /// Always `application/json`.
        public var contentType = "application/json"
        public var body: Data
    }

    public let server: SyncServer
    /// The largest request body taken, in bytes.
    public var maximumBodySize = 64 << 20

    public init(server: SyncServer) {
        self.server = server
    }

    /// The response to `request`.
    public func respond(to request: Request) async -> Response {
        let path = request.path.hasSuffix("/") ? String(request.path.dropLast()) : request.path
        guard path == "/push" || path == "/pull" else { return Self.error(404, "no sync route \(path.prefix(80))") }
        guard request.method.uppercased() == "POST" else { return Self.error(405, "use POST for \(path)") }
        guard request.body.count <= maximumBodySize else {
            return Self.error(413, "the body has \(request.body.count) bytes; the limit is \(maximumBodySize)")
        }
        do {
            if path == "/push" {
                let push = try Self.decode(SyncPushRequest.self, request.body)
                return try Self.json(await server.push(push))
            }
            let pull = try Self.decode(SyncPullRequest.self, request.body)
            return try Self.json(await server.pull(pull))
        } catch let error as BadRequest {
            return Self.error(400, error.message)
        } catch let error as SyncError where error.kind == .refused {
            return Self.error(422, error.message)
        } catch {
            return Self.error(503, "the sync server failed: \(String(describing: error).prefix(200))")
        }
    }

    private struct BadRequest: Error {
        var message: String
    }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ body: Data) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw BadRequest(message: "the body is not a \(type) in JSON: \(String(describing: error).prefix(200))")
        }
    }

    private static func json<Value: Encodable>(_ value: Value) throws -> Response {
        Response(status: 200, body: try JSONEncoder().encode(value))
    }

    static func error(_ status: Int, _ message: String) -> Response {
        let body = (try? JSONEncoder().encode(["error": message])) ?? Data("{\"error\":\"?\"}".utf8)
        return Response(status: status, body: body)
    }
}

/// The client side of the HTTP transport, over `URLSession` (FoundationNetworking on Linux): no
/// SwiftNIO. Talks to a ``SyncHTTPHandler`` mounted at `baseURL`.
public struct HTTPSyncTransport: SyncTransport {
    public let baseURL: URL
    public let session: URLSession
    /// Headers sent with every request (authorization, say).
    public var headers: [String: String]

    public init(baseURL: URL, session: URLSession = .shared, headers: [String: String] = [:]) {
        self.baseURL = baseURL
        self.session = session
        self.headers = headers
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await post("push", request, SyncPushResponse.self)
    }

    public func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
        try await post("pull", request, SyncPullResponse.self)
    }

    private func post<Body: Encodable, Answer: Decodable>(
        _ route: String, _ body: Body, _ answer: Answer.Type
    ) async throws -> Answer {
        var request = URLRequest(url: baseURL.appendingPathComponent(route))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = try JSONEncoder().encode(body)
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            let message =
                (try? JSONDecoder().decode(ErrorBody.self, from: data))?.message
                ?? String(decoding: data.prefix(200), as: UTF8.self)
            throw SyncError(status == 422 ? .refused : .transport, "HTTP \(status) from \(route): \(message)")
        }
        do {
            return try JSONDecoder().decode(answer, from: data)
        } catch {
            throw SyncError(.transport, "the answer of \(route) is not a \(answer) in JSON: \(error)")
        }
    }
}

/// An error answer: `{"error": "…"}` (``SyncHTTPHandler``'s), or `{"error": {"message": "…", …}}`
/// (an app's own error format, such as the example TodoServer's).
private struct ErrorBody: Decodable {
    var message: String

    private enum Keys: String, CodingKey { case error, message }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let message = try? container.decode(String.self, forKey: .error) {
            self.message = message
        } else {
            message = try container.nestedContainer(keyedBy: Keys.self, forKey: .error).decode(
                String.self, forKey: .message)
        }
    }
}
