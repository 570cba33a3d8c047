import Foundation
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import Slate
import SlateTelemetry
import Tracing

/// A temporary directory, removed when the value goes away.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "slate-server-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A telemetry object whose logs, spans and metrics the test reads back.
struct Recorder {
    let logs = InMemoryLogHandler()
    let tracer = InMemoryTracer()
    let metrics = TestMetrics()
    let telemetry: DatabaseTelemetry

    init(
        level: Logger.Level = .trace, options: DatabaseTelemetry.Options = .init(), logs logging: Bool = true,
        traces tracing: Bool = true, metrics measuring: Bool = true
    ) {
        let handler = logs
        var logger = Logger(label: "test.database", factory: { _ in handler })
        logger.logLevel = level
        telemetry = DatabaseTelemetry(
            logger: logging ? logger : nil, tracer: tracing ? tracer : nil, metrics: measuring ? metrics : nil,
            options: options)
    }

    /// A configuration reporting to this recorder.
    func configuration(label: String = "test") -> Database.Configuration {
        var configuration = Database.Configuration()
        configuration.label = label
        configuration.instrumentation = telemetry
        return configuration
    }

    /// The log entries whose message is `message`.
    func entries(_ message: String) -> [InMemoryLogHandler.Entry] {
        logs.entries.filter { $0.message.description == message }
    }

    /// The finished spans whose `db.query.text` is `sql`.
    func spans(sql: String) -> [FinishedInMemorySpan] {
        tracer.finishedSpans.filter { $0.attributes.string("db.query.text") == sql }
    }
}

extension SpanAttributes {
    /// A string attribute, or `nil`.
    func string(_ name: String) -> String? {
        guard case .string(let value)? = self[name]?.toSpanAttribute() else { return nil }
        return value
    }

    /// An integer attribute, or `nil`.
    func int(_ name: String) -> Int64? {
        guard case .int64(let value)? = self[name]?.toSpanAttribute() else { return nil }
        return value
    }

    /// A Boolean attribute, or `nil`.
    func bool(_ name: String) -> Bool? {
        guard case .bool(let value)? = self[name]?.toSpanAttribute() else { return nil }
        return value
    }
}

/// Waits until `condition` holds, for up to 5 seconds.
func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(30)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}
