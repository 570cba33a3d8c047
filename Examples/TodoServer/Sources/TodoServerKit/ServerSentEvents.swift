import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Server-sent events (`text/event-stream`): one event per value of an async sequence, each its
/// JSON on one `data:` line.
enum ServerSentEvents {
    /// A streaming response that writes an `event` for each value of `values`, and a comment every
    /// 15 seconds so that proxies keep the connection. It ends when `values` ends or fails, when
    /// the client goes away, or when the server shuts down gracefully.
    static func response<Values: AsyncSequence & Sendable>(
        for values: Values, event: String, logger: Logger
    ) -> Response where Values.Element: Encodable & Sendable {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            // The values and a heartbeat, merged; both stop on graceful shutdown.
            let (events, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(16))
            let producer = Task {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                do {
                    for try await value in values.cancelOnGracefulShutdown() {
                        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
                        continuation.yield(ByteBuffer(string: "event: \(event)\ndata: \(json)\n\n"))
                    }
                } catch {
                    logger.debug("Event stream ended", metadata: ["error": "\(error)"])
                }
                continuation.finish()
            }
            let heartbeat = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    continuation.yield(ByteBuffer(string: ": keep-alive\n\n"))
                }
            }
            defer {
                producer.cancel()
                heartbeat.cancel()
            }
            // Sent at once, so that the client knows the stream is open.
            try await writer.write(ByteBuffer(string: ": stream open\n\n"))
            for await buffer in events.cancelOnGracefulShutdown() {
                try await writer.write(buffer)
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
