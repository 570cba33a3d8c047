import Foundation
import InMemoryTracing
import Logging
import Metrics
import ServiceLifecycle
import SlateTelemetry
import Tracing

/// The app's logs, spans and metrics.
///
/// Every request's log lines carry its `hb.request.id` (Hummingbird binds a task-local logger
/// per request); the database's lines, written by ``DatabaseTelemetry`` on the pool's threads,
/// carry it too, since Slate hands the caller's task-local logger and tracing context to the
/// connection that runs the work. With `TRACE=1`, spans are kept in memory and each finished one
/// is logged with its trace, span and parent ids: a request's span (Hummingbird's
/// `TracingMiddleware`), its transactions' and statements' spans below it, one trace. A real
/// deployment bootstraps an OpenTelemetry exporter (swift-otel) instead.
struct Observability {
    /// The database's telemetry; `nil` with `TELEMETRY=off`.
    let telemetry: DatabaseTelemetry?
    /// The span logger, a service of the app, when spans are logged.
    let services: [any Service]

    init(configuration: AppConfiguration, logger: Logger) {
        var databaseLogger = logger
        databaseLogger[metadataKey: "component"] = "database"
        var tracer: InMemoryTracer?
        if configuration.logsSpans {
            let inMemory = InMemoryTracer()
            InstrumentationSystem.bootstrap(inMemory)
            tracer = inMemory
        }
        telemetry =
            configuration.databaseTelemetry
            ? DatabaseTelemetry(
                logger: databaseLogger, tracer: tracer.map { $0 as any Tracer }, metrics: MetricsSystem.factory)
            : nil
        services = tracer.map { [SpanLogger(tracer: $0, logger: logger)] } ?? []
    }
}

/// Logs the spans the in-memory tracer finished, every 100 ms and once more at shutdown.
struct SpanLogger: Service {
    let tracer: InMemoryTracer
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
            flush()
        }
        // The last requests' spans end while the server shuts down.
        try? await Task.sleep(for: .milliseconds(200))
        flush()
    }

    private func flush() {
        for span in tracer.popFinishedSpans() {
            var metadata: Logger.Metadata = [
                "trace_id": "\(span.traceID)",
                "span_id": "\(span.spanID)",
                "parent_span_id": "\(span.parentSpanID ?? "")",
                "span.kind": "\(span.kind)",
                "duration_ms":
                    "\(Double(span.endInstant.nanosecondsSinceEpoch &- span.startInstant.nanosecondsSinceEpoch) / 1e6)",
            ]
            span.attributes.forEach { name, value in metadata["attr.\(name)"] = "\(Self.plain(value))" }
            logger.info("span \(span.operationName)", metadata: metadata)
        }
    }

    /// An attribute's value as it reads: `sqlite`, not `string("sqlite")`.
    private static func plain(_ value: SpanAttribute) -> String {
        switch value {
        case .string(let text): text
        case .int64(let number): String(number)
        case .int32(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        default: "\(value)"
        }
    }
}
