import Foundation
import Slate
import SlateSync
import Testing

/// A Codable record synced with a custom resolver.
struct Note: CodableRecord, Equatable {
    var id: String
    var text: String
    var votes: Int
}

@Suite struct SyncSchemaAndResolverTests {
    @Test func aReplicaRefusesEntriesOfANewerSchemaAndSaysSo() async throws {
        let fixture = try SyncFixture(replicas: 0)
        let old = try fixture.makeReplica(id: "old", schemaVersion: 1)
        let new = try fixture.makeReplica(
            id: "new", schemaVersion: 2,
            schema: todoSchema + "ALTER TABLE list ADD COLUMN color TEXT;")
        try await old.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'From v1')") }
        try await new.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l2', 'From v2', 'red')") }
        try await old.sync(with: fixture.transport)
        try await new.push(to: fixture.transport)
        // The old replica applies what it can (its own entry) and stops at the newer one.
        await #expect {
            try await old.sync(with: fixture.transport)
        } throws: { error in
            (error as? SyncError)?.kind == .schemaTooNew && "\(error)".contains("update the application")
        }
        #expect(try old.pulledThrough() == 1)
        #expect(try rows(old, "SELECT id FROM list") == ["'l1'"])
        // The new replica meets an entry of version 1 whose table no longer fits.
        await #expect {
            try await new.sync(with: fixture.transport)
        } throws: { error in
            (error as? SyncError)?.kind == .schemaIncompatible
        }
        #expect(try new.pulledThrough() == 0)
    }

    @Test func anUpgradeRewritesOldEntriesThatNoLongerFit() async throws {
        let fixture = try SyncFixture(replicas: 0)
        let old = try fixture.makeReplica(id: "old", schemaVersion: 1)
        let new = try fixture.makeReplica(
            id: "new", schemaVersion: 2, schema: todoSchema + "ALTER TABLE list ADD COLUMN color TEXT;"
        ) { configuration in
            // Version 2 added list.color: old inserts get NULL.
            configuration.upgrade = { entry, _ in
                var builder = ChangesetBuilder()
                for var operation in try Changeset(data: entry.changes).operations() {
                    if operation.tableName == "list" {
                        operation.primaryKeyPositions.append(0)
                        operation.oldValues.append(operation.kind == .insert ? nil : .null)
                        operation.newValues.append(operation.kind == .delete ? nil : .null)
                    }
                    try builder.append(operation)
                }
                return builder.changeset().data
            }
        }
        try await old.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'From v1')") }
        try await old.sync(with: fixture.transport)
        try await new.sync(with: fixture.transport)
        #expect(try rows(new, "SELECT * FROM list") == ["'l1', 'From v1', NULL"])
    }

    @Test func theServerRefusesVersionsItNoLongerTakes() async throws {
        var configuration = SyncServer.Configuration()
        configuration.acceptedSchemaVersions = 2...3
        let server = try SyncServer(writer: try DatabaseQueue(location: .inMemory), configuration: configuration)
        let fixture = try SyncFixture(replicas: 0)
        let old = try fixture.makeReplica(id: "old", schemaVersion: 1)
        try await old.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'x')") }
        await #expect {
            try await old.sync(with: InMemorySyncTransport(server: server))
        } throws: { error in
            (error as? SyncError)?.kind == .refused && "\(error)".contains("schema version 1")
        }
        #expect(try old.pendingEntries().count == 1)
    }

    @Test func aTypedResolverMergesConcurrentWrites() async throws {
        let fixture = try SyncFixture(replicas: 0)
        let seen = Collected<String>()
        func replica(_ id: String) throws -> SyncReplica {
            let queue = try DatabaseQueue(location: .inMemory)
            // The record's own table, as the record declares it.
            try queue.write { db in try Note.prepareForWriting(db) }
            var configuration = SyncConfiguration(tables: [Note.self])
            configuration.replicaID = id
            let clock = fixture.clock
            configuration.now = { clock.now }
            configuration.resolve(Note.self) { conflict in
                seen.append("\(conflict.local?.text ?? "-")|\(conflict.incoming?.text ?? "-")")
                guard let local = conflict.local, let incoming = conflict.incoming else { return .takeIncoming }
                // Votes add up; the longer text wins.
                let text = local.text.count >= incoming.text.count ? local.text : incoming.text
                return .merged(Note(id: local.id, text: text, votes: local.votes + incoming.votes - 1))
            }
            return try SyncReplica(writer: queue, configuration: configuration)
        }
        let a = try replica("a")
        let b = try replica("b")
        try await a.write { db in try db.insert(Note(id: "n1", text: "Hi", votes: 1)) }
        try await a.sync(with: fixture.transport)
        try await b.sync(with: fixture.transport)
        try await a.write { db in
            try db.execute(sql: "UPDATE Note SET votes = votes + 1, text = 'Hello there' WHERE id = 'n1'")
        }
        fixture.clock.advance()
        try await b.write { db in try db.execute(sql: "UPDATE Note SET votes = votes + 1 WHERE id = 'n1'") }
        try await a.sync(with: fixture.transport)
        try await b.sync(with: fixture.transport)
        try await a.sync(with: fixture.transport)
        let notes = try await a.writer.read { db in try db.fetchAll(Note.self, sql: "SELECT * FROM Note") }
        #expect(notes == [Note(id: "n1", text: "Hello there", votes: 3)])
        #expect(try await b.writer.read { db in try db.fetchAll(Note.self, sql: "SELECT * FROM Note") } == notes)
        #expect(try a.conflictReports().map(\.kind) == [.resolved])
        #expect(seen.values.contains("Hello there|Hi"))
    }
}
