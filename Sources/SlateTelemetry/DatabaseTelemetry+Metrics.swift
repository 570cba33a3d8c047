import CoreMetrics
import Foundation
import SlateCore

extension DatabaseTelemetry {
    /// `db.client.operation.duration`, by system, operation and, for a failure, error type.
    func recordStatementMetrics(_ statement: StatementTrace, outcome: StatementOutcome) {
        var dimensions = [
            ("db.system.name", statement.connection.system.rawValue),
            ("db.operation.name", statement.operationName),
        ]
        if let error = outcome.error { dimensions.append(("error.type", ErrorDescription(error).type)) }
        meters.timer("db.client.operation.duration", dimensions)?.recordNanoseconds(Self.nanoseconds(outcome.duration))
    }
}

/// The metrics a telemetry object reports to, made once per label and dimensions (their
/// cardinality is low: operations, pools, databases) and reused.
final class MetricCache: @unchecked Sendable {
    // @unchecked Sendable: `cache` is read and written only while `lock` is held; the metrics are
    // Sendable.
    private let factory: (any MetricsFactory)?
    private let lock = NSLock()
    private var cache: [String: AnyObject] = [:]

    init(factory: (any MetricsFactory)?) {
        self.factory = factory
    }

    func timer(_ label: String, _ dimensions: [(String, String)]) -> CoreMetrics.Timer? {
        metric(label, dimensions) { CoreMetrics.Timer(label: label, dimensions: dimensions, factory: $0) }
    }

    func counter(_ label: String, _ dimensions: [(String, String)]) -> Counter? {
        metric(label, dimensions) { Counter(label: label, dimensions: dimensions, factory: $0) }
    }

    func gauge(_ label: String, _ dimensions: [(String, String)]) -> Gauge? {
        metric(label, dimensions) { Gauge(label: label, dimensions: dimensions, factory: $0) }
    }

    private func metric<Metric: AnyObject>(
        _ label: String, _ dimensions: [(String, String)], make: (any MetricsFactory) -> Metric
    ) -> Metric? {
        guard let factory else { return nil }
        let key = ([label] + dimensions.map { "\($0.0)=\($0.1)" }).joined(separator: "\u{1F}")
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] as? Metric { return cached }
        let metric = make(factory)
        cache[key] = metric
        return metric
    }
}
