import Foundation
import SlateCore

/// What a piece of work carries from its caller to the connection that runs it when the
/// configuration has an instrumentation (``Database/Configuration/instrumentation``): the caller's
/// context (a tracing context, a task-local logger), and when it was submitted, to report how long
/// it waited for a connection.
///
/// Without an instrumentation there is no hop (`nil`) and nothing is captured or reported.
struct InstrumentedHop: Sendable {
    let instrumentation: any DatabaseInstrumentation
    let context: (any Sendable)?
    let submitted: ContinuousClock.Instant
    let pool: String?
    let kind: ConnectionWaitKind

    /// Captures the caller's context, on the caller's thread or task.
    static func capture(_ configuration: Database.Configuration, _ access: DatabaseAccess) -> InstrumentedHop? {
        guard let instrumentation = configuration.instrumentation else { return nil }
        return InstrumentedHop(
            instrumentation: instrumentation, context: instrumentation.captureContext(), submitted: .now,
            pool: configuration.label, kind: access == .read ? .read : .write)
    }
}

extension Optional where Wrapped == InstrumentedHop {
    /// Runs `body` on the connection `db`: as it is without an instrumentation; else after
    /// reporting the wait, with the caller's context in effect, and reporting the work's last
    /// statement when it returns.
    func run<Value>(on db: Database, _ body: () throws -> Value) throws -> Value {
        guard let hop = self else { return try body() }
        hop.instrumentation.record(.connectionWait(pool: hop.pool, kind: hop.kind, duration: .now - hop.submitted))
        return try hop.instrumentation.withContext(hop.context) {
            defer { db.settleInstrumentation() }
            return try body()
        }
    }
}
