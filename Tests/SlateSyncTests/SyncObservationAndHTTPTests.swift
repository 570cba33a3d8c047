import Foundation
import Slate
import SlateSync
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Values delivered to a callback from any thread.
final class Collected<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        stored.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    /// Waits (at most 10 s) until `condition` holds.
    func wait(until condition: ([Value]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if condition(values) { return true }
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        return condition(values)
    }
}

@Suite struct SyncObservationTests {
    @Test func aLiveQueryRefetchesWhenAPullChangesWhatItReads() async throws {
        let fixture = try SyncFixture()
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        let names = Collected<[String]>()
        let token = DatabaseObservation { db in try db.fetchAll(String.self, sql: "SELECT name FROM list ORDER BY id") }
            .start(in: b.writer, onError: { Issue.record($0) }, onChange: { names.append($0) })
        defer { token.cancel() }
        #expect(await names.wait { $0 == [[]] })
        try await a.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'Groceries')") }
        try await a.sync(with: fixture.transport)
        try await b.sync(with: fixture.transport)
        #expect(await names.wait { $0.last == ["Groceries"] })
        let count = names.values.count
        // A pull that brings nothing new writes nothing: no refetch.
        try await b.sync(with: fixture.transport)
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(names.values.count == count)
    }
}

/// Routes `URLSession` requests to a `SyncHTTPHandler`, in the process: the client and the handler
/// talk HTTP without a socket.
final class HandlerProtocol: URLProtocol {
    nonisolated(unsafe) static var handler: SyncHTTPHandler?

    override class func canInit(with request: URLRequest) -> Bool { request.url?.host == "sync.test" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let handler = Self.handler, let url = request.url else { return }
        let method = request.httpMethod ?? "GET"
        var body = request.httpBody ?? Data()
        if body.isEmpty, let stream = request.httpBodyStream {
            stream.open()
            var buffer = [UInt8](repeating: 0, count: 65536)
            while stream.hasBytesAvailable {
                let count = stream.read(&buffer, maxLength: buffer.count)
                if count <= 0 { break }
                body.append(contentsOf: buffer[0..<count])
            }
            stream.close()
        }
        let path = String(url.path.dropFirst("/sync".count))
        let request = SyncHTTPHandler.Request(method: method, path: path, body: body)
        let box = ResponseBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.response = await handler.respond(to: request)
            done.signal()
        }
        done.wait()
        guard let response = box.response,
            let http = HTTPURLResponse(
                url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": response.contentType])
        else { return }
        client?.urlProtocol(self, didReceive: http, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: response.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

/// The response handed from the handler's task to the protocol's thread.
final class ResponseBox: @unchecked Sendable {
    // @unchecked Sendable: written once before the semaphore is signalled, read after.
    var response: SyncHTTPHandler.Response?
}

@Suite(.serialized) struct SyncHTTPTests {
    @Test func theHandlerAnswersBadInputWithA4xxAndAJSONError() async throws {
        let server = try SyncServer(writer: try DatabaseQueue(location: .inMemory))
        let handler = SyncHTTPHandler(server: server)
        func status(_ method: String, _ path: String, _ body: String) async -> (Int, String) {
            let response = await handler.respond(to: .init(method: method, path: path, body: Data(body.utf8)))
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        #expect(await status("POST", "/push", "{not json").0 == 400)
        #expect(await status("POST", "/nowhere", "{}").0 == 404)
        #expect(await status("GET", "/pull", "").0 == 405)
        let garbage = Data([1, 2, 3]).base64EncodedString()
        let refused = await status(
            "POST", "/push",
            "{\"replicaID\":\"r\",\"entries\":[{\"replicaID\":\"r\",\"sequence\":1,\"clock\":1,\"schemaVersion\":1,\"changes\":\"\(garbage)\"}]}"
        )
        #expect(refused.0 == 422)
        #expect(refused.1.contains("\"error\""))
        #expect(refused.1.contains("well-formed"))
        var small = handler
        small.maximumBodySize = 10
        #expect(await small.respond(to: .init(method: "POST", path: "/pull", body: Data(count: 11))).status == 413)
        let pulled = await status("POST", "/pull", "{\"after\":0,\"limit\":10}")
        #expect(pulled.0 == 200)
        #expect(pulled.1.contains("\"latestPosition\":0"))
    }

    @Test func replicasConvergeThroughTheHTTPClient() async throws {
        let fixture = try SyncFixture()
        HandlerProtocol.handler = SyncHTTPHandler(server: fixture.server)
        defer { HandlerProtocol.handler = nil }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [HandlerProtocol.self]
        let transport = HTTPSyncTransport(
            baseURL: try #require(URL(string: "http://sync.test/sync")),
            session: URLSession(configuration: configuration))
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        try await a.write { db in
            try db.execute(
                sql: "INSERT INTO list VALUES ('l1', 'Groceries'); INSERT INTO todo VALUES ('t1', 'l1', 'Milk', 0)")
        }
        try await b.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l2', 'Work')") }
        try await a.sync(with: transport)
        try await b.sync(with: transport)
        try await a.sync(with: transport)
        #expect(try rows(a, "SELECT id FROM list ORDER BY id") == ["'l1'", "'l2'"])
        #expect(try dump(a) == dump(b))
    }
}
