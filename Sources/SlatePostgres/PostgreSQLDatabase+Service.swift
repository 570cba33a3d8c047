import PostgresNIO
import ServiceLifecycle
import SlateConcurrency

extension PostgreSQLDatabase: Service {
    /// Runs the database as a swift-service-lifecycle service: runs the client's connection pool
    /// until the service group shuts down gracefully, then stops accepting statements and
    /// transactions (new ones throw a ``SlateCore/DatabaseError`` whose `isShutdown` is `true`),
    /// lets those in flight finish for up to ``shutdownGracePeriod``, and stops the client, which
    /// closes its connections (PostgreSQL rolls back a transaction still open then).
    ///
    /// ```swift
    /// let pg = PostgreSQLDatabase(client: PostgresClient(configuration: configuration), logger: logger)
    /// let group = ServiceGroup(services: [pg, server], gracefulShutdownSignals: [.sigterm], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// Put the database before the services that use it: a service group shuts its services down
    /// in reverse order. Do not also run the client yourself. When the task is cancelled rather
    /// than shut down gracefully, the work in flight is not waited for.
    public func run() async throws {
        let gate = self.gate
        let gracePeriod = shutdownGracePeriod
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let graceful: Bool
            do {
                try await gracefulShutdown()
                graceful = true
            } catch {
                graceful = false  // cancelled
            }
            _ = gate.beginShutdown()
            var drained = false
            if graceful { drained = await gate.waitUntilIdle(before: .now + max(gracePeriod, .zero)) }
            if !drained { _ = gate.endGracePeriod() }
            group.cancelAll()
        }
        gate.close()
    }
}
