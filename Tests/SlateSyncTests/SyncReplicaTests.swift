import Foundation
import Slate
import SlateSync
import Testing

@Suite struct SyncReplicaTests {
    @Test func aWriteReachesTheOtherReplica() async throws {
        let fixture = try SyncFixture()
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        try await a.write { db in
            try db.execute(
                sql: "INSERT INTO list VALUES ('l1', 'Groceries'); INSERT INTO todo VALUES ('t1', 'l1', 'Milk', 0)")
        }
        #expect(try a.pendingEntries().count == 1)
        let pushed = try await a.sync(with: fixture.transport)
        #expect(pushed.pushed == 1)
        #expect(pushed.applied == 1)
        // Its own entry came back through the log: nothing pending.
        #expect(try a.pendingEntries().isEmpty)
        let pulled = try await b.sync(with: fixture.transport)
        #expect(pulled.applied == 1)
        #expect(try rows(b, "SELECT * FROM todo") == ["'t1', 'l1', 'Milk', 0"])
        #expect(try dump(a) == dump(b))
    }

    @Test func aWriteThatRollsBackRecordsNothing() throws {
        let fixture = try SyncFixture()
        let a = fixture.replicas[0]
        struct Oops: Error {}
        #expect(throws: Oops.self) {
            try a.write { db in
                try db.execute(sql: "INSERT INTO list VALUES ('l1', 'Groceries')")
                throw Oops()
            }
        }
        #expect(try a.pendingEntries().isEmpty)
        #expect(try rows(a, "SELECT count(*) FROM list") == ["0"])
        // A write that changes nothing records nothing either.
        try a.write { db in try db.execute(sql: "UPDATE list SET name = 'x' WHERE id = 'none'") }
        #expect(try a.pendingEntries().isEmpty)
        try a.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'Groceries')") }
        let entries = try a.pendingEntries()
        #expect(entries.map(\.sequence) == [1])
        #expect(entries.first?.replicaID == "r0")
    }

    @Test func repeatedAndLostMessagesChangeNothing() async throws {
        let fixture = try SyncFixture()
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        for index in 0..<20 {
            try await a.write { db in try db.execute("INSERT INTO list VALUES (\("l\(index)"), \("List \(index)"))") }
        }
        var faults = FaultyTransport<InMemorySyncTransport>.Faults()
        faults.lostRequests = 0.3
        faults.lostAnswers = 0.3
        faults.repeatedRequests = 0.5
        faults.lostEntries = 0.3
        let network = FaultyTransport(fixture.transport, faults: faults, seed: 35)
        var failures = 0
        for _ in 0..<200 {
            do {
                try await a.sync(with: network)
                try await b.sync(with: network)
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
        try await fixture.syncAll()
        // Each entry is in the log once, whatever was repeated.
        let log = try await fixture.server.pull(SyncPullRequest(after: 0, limit: 1000))
        #expect(log.entries.count == 20)
        #expect(Set(log.entries.map(\.entry.sequence)).count == 20)
        #expect(try rows(b, "SELECT count(*) FROM list") == ["20"])
        #expect(try dump(a) == dump(b))
    }

    @Test func aGapIsNoticedAndFetchedAgain() async throws {
        let fixture = try SyncFixture()
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        for index in 0..<5 {
            try await a.write { db in try db.execute("INSERT INTO list VALUES (\("l\(index)"), 'x')") }
        }
        try await a.sync(with: fixture.transport)
        // A network that loses the third entry of every answer.
        struct Holey: SyncTransport {
            let base: InMemorySyncTransport
            func push(_ request: SyncPushRequest) async throws -> SyncPushResponse { try await base.push(request) }
            func pull(_ request: SyncPullRequest) async throws -> SyncPullResponse {
                var response = try await base.pull(request)
                response.entries = response.entries.filter { $0.position != 3 }
                return response
            }
        }
        await #expect(throws: SyncError.self) { try await b.sync(with: Holey(base: fixture.transport)) }
        // Entries 1 and 2 applied; nothing after the gap.
        #expect(try b.pulledThrough() == 2)
        #expect(try rows(b, "SELECT id FROM list ORDER BY id") == ["'l0'", "'l1'"])
        try await b.sync(with: fixture.transport)
        #expect(try b.pulledThrough() == 5)
        #expect(try dump(a) == dump(b))
    }

    @Test func theLaterWriteWinsTheRowWhicheverArrivesFirst() async throws {
        for laterPushesFirst in [false, true] {
            let fixture = try SyncFixture()
            let (a, b) = (fixture.replicas[0], fixture.replicas[1])
            try await a.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'Start')") }
            try await fixture.syncAll()
            try await a.write { db in try db.execute(sql: "UPDATE list SET name = 'Early' WHERE id = 'l1'") }
            fixture.clock.advance()
            try await b.write { db in try db.execute(sql: "UPDATE list SET name = 'Late' WHERE id = 'l1'") }
            if laterPushesFirst {
                try await b.sync(with: fixture.transport)
                try await a.sync(with: fixture.transport)
            } else {
                try await a.sync(with: fixture.transport)
                try await b.sync(with: fixture.transport)
            }
            try await fixture.syncAll()
            #expect(try rows(a, "SELECT name FROM list") == ["'Late'"])
            #expect(try dump(a) == dump(b))
            let reports = try a.conflictReports()
            #expect(reports.count == 1)
            #expect(reports.first?.kind == .overridden)
            #expect(reports.first?.loser?.replicaID == "r0")
            #expect(reports.first?.winner?.replicaID == "r1")
            #expect(reports.first?.primaryKey == [.text("l1")])
        }
    }

    @Test func perColumnKeepsConcurrentWritesToDifferentColumns() async throws {
        let fixture = try SyncFixture(policy: .lastWriterWinsPerColumn)
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        try await a.write { db in
            try db.execute(sql: "INSERT INTO list VALUES ('l1', 'L'); INSERT INTO todo VALUES ('t1', 'l1', 'Milk', 0)")
        }
        try await fixture.syncAll()
        try await a.write { db in try db.execute(sql: "UPDATE todo SET title = 'Oat milk' WHERE id = 't1'") }
        fixture.clock.advance()
        try await b.write { db in try db.execute(sql: "UPDATE todo SET done = 1 WHERE id = 't1'") }
        try await b.sync(with: fixture.transport)
        try await fixture.syncAll()
        #expect(try rows(a, "SELECT title, done FROM todo") == ["'Oat milk', 1"])
        #expect(try a.conflictReports().isEmpty)
        #expect(try dump(a) == dump(b))
    }

    @Test func anUpdateOfARowDeletedByAnOlderUnseenDeleteIsKeptAsUnresolvable() async throws {
        let fixture = try SyncFixture(policy: .lastWriterWinsPerColumn)
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        try await a.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'L')") }
        try await fixture.syncAll()
        try await a.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 'l1'") }
        fixture.clock.advance()
        try await b.write { db in try db.execute(sql: "UPDATE list SET name = 'Renamed' WHERE id = 'l1'") }
        try await a.sync(with: fixture.transport)
        try await fixture.syncAll()
        #expect(try rows(b, "SELECT count(*) FROM list") == ["0"])
        let report = try #require(try b.conflictReports().first)
        #expect(report.kind == .unresolvable)
        #expect(report.loser?.replicaID == "r1")
        let kept = try #require(report.changes)
        #expect(try kept.operations().first?.newValues[1] == .text("Renamed"))
        #expect(try dump(a) == dump(b))
    }

    @Test func aDeleteThatWouldOrphanAnotherReplicasRowIsUnresolvable() async throws {
        let fixture = try SyncFixture()
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        try await a.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'L')") }
        try await fixture.syncAll()
        // A deletes the list; B, offline, adds a todo to it.
        try await a.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 'l1'") }
        try await b.write { db in try db.execute(sql: "INSERT INTO todo VALUES ('t1', 'l1', 'Milk', 0)") }
        try await a.sync(with: fixture.transport)
        try await b.sync(with: fixture.transport)
        try await fixture.syncAll()
        // B's todo would reference a deleted list: B's write is kept, not applied, and reported.
        #expect(try rows(a, "SELECT count(*) FROM todo") == ["0"])
        #expect(try rows(b, "SELECT count(*) FROM todo") == ["0"])
        let reports = try a.conflictReports()
        #expect(reports.map(\.kind) == [.unresolvable])
        #expect(reports.first?.loser?.replicaID == "r1")
        #expect(reports.first?.reason.contains("references a missing row") == true)
        #expect(try dump(a) == dump(b))
        // Nothing left of the foreign keys' promise broken on either replica.
        #expect(try rows(b, "SELECT count(*) FROM pragma_foreign_key_check") == ["0"])
    }

    @Test func aLaterUpdateBringsBackARowDeletedByAnEarlierWriteUnderThePerRowPolicy() async throws {
        let fixture = try SyncFixture()
        let (a, b) = (fixture.replicas[0], fixture.replicas[1])
        try await a.write { db in try db.execute(sql: "INSERT INTO list VALUES ('l1', 'L')") }
        try await fixture.syncAll()
        try await a.write { db in try db.execute(sql: "DELETE FROM list WHERE id = 'l1'") }
        fixture.clock.advance()
        try await b.write { db in try db.execute(sql: "UPDATE list SET name = 'Kept' WHERE id = 'l1'") }
        try await a.sync(with: fixture.transport)
        try await fixture.syncAll()
        #expect(try rows(a, "SELECT * FROM list") == ["'l1', 'Kept'"])
        #expect(try a.conflictReports().map(\.loser?.replicaID) == ["r0"])
        #expect(try dump(a) == dump(b))
    }
}

@Suite struct SyncServerTests {
    @Test func twoReplicasSharingAnIDAreRefusedNotTakenForRepeats() async throws {
        let fixture = try SyncFixture(replicas: 0)
        let original = try fixture.makeReplica(id: "same")
        let copy = try fixture.makeReplica(id: "same")
        try await original.write { db in try db.execute(sql: "INSERT INTO list VALUES ('a', 'Original')") }
        try await copy.write { db in try db.execute(sql: "INSERT INTO list VALUES ('b', 'Copy')") }
        try await original.sync(with: fixture.transport)
        await #expect {
            try await copy.sync(with: fixture.transport)
        } throws: { error in
            (error as? SyncError)?.kind == .refused && "\(error)".contains("share this id")
        }
        // The copy's write is still in its outbox, not lost.
        #expect(try copy.pendingEntries().count == 1)
    }
}

@Suite struct HybridLogicalClockTests {
    @Test func theClockNeverGoesBackAndStopsAtTheEndOfItsRange() {
        let start = HybridLogicalClock(milliseconds: 5_000, counter: 0)
        // The wall clock going back does not move the clock back.
        let next = HybridLogicalClock.tick(after: start, now: 1_000)
        #expect(next > start)
        #expect(next.milliseconds == 5_000 && next.counter == 1)
        // A full counter moves to the next millisecond.
        let full = HybridLogicalClock(milliseconds: 5_000, counter: 0xFFFF)
        #expect(HybridLogicalClock.tick(after: full, now: 0) == HybridLogicalClock(milliseconds: 5_001, counter: 0))
        // A clock received at the end of the range stays there: no wrap to a negative value.
        let end = HybridLogicalClock(rawValue: .max)
        #expect(HybridLogicalClock.tick(after: end, now: .max) == end)
        #expect(HybridLogicalClock.tick(after: end, now: .max).rawValue > 0)
    }
}
