import Foundation
import Slate
import SlateSync
import Testing

/// A wall clock the test sets, shared by replicas.
final class ManualClock: @unchecked Sendable {
    // @unchecked Sendable: `milliseconds` is only touched while `lock` is held.
    private let lock = NSLock()
    private var milliseconds: Int64 = 1_000

    var now: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return milliseconds
    }

    func advance(by amount: Int64 = 1_000) {
        lock.lock()
        milliseconds += amount
        lock.unlock()
    }
}

let todoSchema = """
    CREATE TABLE list(id TEXT PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE todo(
        id TEXT PRIMARY KEY,
        list TEXT NOT NULL REFERENCES list(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        done INTEGER NOT NULL DEFAULT 0);
    """

/// A server and replicas of the todo schema, in memory.
struct SyncFixture {
    let server: SyncServer
    let transport: InMemorySyncTransport
    let clock = ManualClock()
    var replicas: [SyncReplica] = []

    init(
        replicas count: Int = 2, policy: SyncConfiguration.Policy = .lastWriterWinsPerRow,
        configure: (inout SyncConfiguration) -> Void = { _ in }
    ) throws {
        server = try SyncServer(writer: try DatabaseQueue(location: .inMemory))
        transport = InMemorySyncTransport(server: server)
        for index in 0..<count {
            replicas.append(try makeReplica(id: "r\(index)", policy: policy, configure: configure))
        }
    }

    func makeReplica(
        id: String, policy: SyncConfiguration.Policy = .lastWriterWinsPerRow, schemaVersion: Int = 1,
        schema: String = todoSchema, configure: (inout SyncConfiguration) -> Void = { _ in }
    ) throws -> SyncReplica {
        let queue = try DatabaseQueue(location: .inMemory)
        try queue.write { db in try db.execute(sql: schema) }
        var configuration = SyncConfiguration(tables: ["list", "todo"], schemaVersion: schemaVersion, policy: policy)
        configuration.replicaID = id
        let clock = self.clock
        configuration.now = { clock.now }
        configure(&configuration)
        return try SyncReplica(writer: queue, configuration: configuration)
    }

    /// Syncs every replica until none has anything left to push or pull.
    func syncAll() async throws {
        for _ in 0..<3 {
            for replica in replicas { try await replica.sync(with: transport) }
        }
    }
}

/// The synced tables, the clocks and the conflict reports, as text: equal on converged replicas.
func dump(_ replica: SyncReplica) throws -> [String] {
    try replica.writer.read { db in
        var lines: [String] = []
        for table in ["list", "todo", "slate_sync_clock", "slate_sync_conflicts"] {
            lines += try db.fetchAll(SQL(sql: "SELECT * FROM \(table)")) { row in
                table + ": " + row.values.map(\.debugDescription).joined(separator: ", ")
            }.sorted()
        }
        return lines
    }
}

func rows(_ replica: SyncReplica, _ sql: String) throws -> [String] {
    try replica.writer.read { db in
        try db.fetchAll(SQL(sql: sql)) { row in row.values.map(\.debugDescription).joined(separator: ", ") }
    }
}
