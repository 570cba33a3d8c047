import Foundation
import SlateCore

/// What a shutdown of a ``DatabaseQueue`` or ``DatabasePool`` did.
public struct ShutdownReport: Sendable {
    /// The work accepted and not finished when the shutdown started: queued or running.
    public var inFlightAtStart: Int
    /// The work still in flight when the grace period ended, which was interrupted (running work,
    /// whose transaction rolled back) or failed before it started. 0 when everything finished in
    /// time.
    public var abandoned: Int
    /// The frames left in the WAL and the frames copied by the final `TRUNCATE` checkpoint, or
    /// `nil` when the database is not in WAL mode.
    public var checkpoint: (walFrameCount: Int, checkpointedFrameCount: Int)?
    /// Why the final checkpoint failed, if it did (another process reading the database, for
    /// example). The WAL then stays, and SQLite applies it when the database opens next: no
    /// committed write is lost.
    public var checkpointError: (any Error)?
    /// How long the shutdown took.
    public var duration: Duration
}

extension DatabaseQueue {
    /// Shuts the queue down: stops accepting work, lets the work it accepted (queued or running)
    /// finish for up to `gracePeriod`, then interrupts what still runs (its transaction rolls
    /// back) and fails what has not started; then checkpoints the WAL (`TRUNCATE`) when the
    /// database is in WAL mode, and closes the connection.
    ///
    /// From the moment it is called, every access throws a ``DatabaseError`` whose
    /// ``DatabaseError/isShutdown`` is `true`; live queries end with that error. A second call
    /// waits for the first shutdown to finish. `DatabaseQueue` is a swift-service-lifecycle
    /// `Service` through the `SlateTelemetry` product, which calls this on graceful shutdown.
    ///
    /// - Throws: The error of closing the connection (statements you prepared yourself and
    ///   still hold keep it open).
    @discardableResult
    public func shutDown(gracePeriod: Duration = .seconds(10)) async throws -> ShutdownReport {
        try await runShutdown(gate: gate, gracePeriod: gracePeriod) {
            try await connection.finish(checkpointing: true)
        }
    }
}

extension DatabasePool {
    /// Shuts the pool down: stops accepting work, lets the work it accepted (queued or running,
    /// reads and writes) finish for up to `gracePeriod`, then interrupts what still runs (its
    /// transaction rolls back) and fails what has not started; then checkpoints the WAL into the
    /// database file and truncates it, and closes the readers and the writer.
    ///
    /// From the moment it is called, every access throws a ``DatabaseError`` whose
    /// ``DatabaseError/isShutdown`` is `true`; live queries end with that error. A second call
    /// waits for the first shutdown to finish. `DatabasePool` is a swift-service-lifecycle
    /// `Service` through the `SlateTelemetry` product, which calls this on graceful shutdown.
    ///
    /// - Throws: The error of closing the writer (statements you prepared yourself and still hold
    ///   keep it open).
    @discardableResult
    public func shutDown(gracePeriod: Duration = .seconds(10)) async throws -> ShutdownReport {
        try await runShutdown(gate: gate, gracePeriod: gracePeriod) {
            readers.releaseIdleReaders()  // every reader is idle now: they close
            return try await writer.finish(checkpointing: true)
        }
    }
}

/// The steps of a shutdown, for a queue or a pool; `finish` checkpoints and closes.
private func runShutdown(
    gate: WorkGate, gracePeriod: Duration,
    finish: () async throws -> (checkpoint: (Int, Int)?, error: (any Error)?)
) async throws -> ShutdownReport {
    let start = ContinuousClock.now
    guard gate.beginShutdown() else {
        while !gate.isClosed { try? await Task.sleep(for: .milliseconds(5)) }
        return ShutdownReport(
            inFlightAtStart: 0, abandoned: 0, checkpoint: nil, checkpointError: nil, duration: .now - start)
    }
    let inFlight = gate.inFlightCount
    var abandoned = 0
    if !(await gate.waitUntilIdle(before: start + max(gracePeriod, .zero))) {
        abandoned = gate.endGracePeriod()
        // An interrupt stops only a statement that is running: keep interrupting until the work
        // is gone (each piece then rolls back and fails, or fails before it starts).
        while !(await gate.waitUntilIdle(before: .now + .milliseconds(10))) { gate.interruptRunning() }
    }
    let finished: (checkpoint: (Int, Int)?, error: (any Error)?)
    do {
        finished = try await finish()
    } catch {
        gate.close()
        throw error
    }
    gate.close()
    return ShutdownReport(
        inFlightAtStart: inFlight, abandoned: abandoned,
        checkpoint: finished.checkpoint.map { (walFrameCount: $0.0, checkpointedFrameCount: $0.1) },
        checkpointError: finished.error, duration: .now - start)
}

extension SerializedConnection {
    /// On the connection's queue: checkpoints the WAL (`TRUNCATE`) when the database is in WAL
    /// mode, then closes the connection. A failed checkpoint is returned, not thrown: it loses
    /// nothing.
    func finish(checkpointing: Bool) async throws -> (checkpoint: (Int, Int)?, error: (any Error)?) {
        try await withCheckedThrowingContinuation { continuation in
            async { db in
                var checkpoint: (Int, Int)?
                var checkpointError: (any Error)?
                do {
                    if checkpointing, !db.isReadOnly, try db.journalMode == .wal {
                        let result = try db.checkpoint(.truncate)
                        checkpoint = (result.walFrameCount, result.checkpointedFrameCount)
                    }
                } catch {
                    checkpointError = error
                }
                do {
                    try db.close()
                    continuation.resume(returning: (checkpoint, checkpointError))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
