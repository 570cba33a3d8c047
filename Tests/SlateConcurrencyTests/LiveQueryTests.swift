import CSQLite
import Foundation
import Observation
import Slate
import SlateTestSupport
import Testing

@testable import SlateCore

// Live queries on queues and pools: the three calling styles (async sequence, callback with a
// token, `@Observable` object), refetch counts, error delivery, cancellation, pool snapshot
// ordering and other connections' writes. The per-rule region tests are in RegionTrackingTests.

/// Values delivered to a callback, from any thread, with a way to wait for them.
private final class Delivered<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `values`, `errors` are only touched while `lock` is held.
    private let lock = NSLock()
    private var storedValues: [Value] = []
    private var storedErrors: [any Error] = []

    func append(_ value: Value) {
        lock.lock()
        storedValues.append(value)
        lock.unlock()
    }

    func fail(_ error: any Error) {
        lock.lock()
        storedErrors.append(error)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storedValues
    }

    var errors: [any Error] {
        lock.lock()
        defer { lock.unlock() }
        return storedErrors
    }

    /// Waits (polling, at most 120 s: a generous limit, reached only when it never holds) until `condition` holds for the values; returns whether it did.
    func wait(until condition: @escaping ([Value]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(livenessTimeout)
        while Date() < deadline {
            if condition(values) { return true }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return condition(values)
    }

    /// Waits until `condition` holds for the values, and records an issue when it never does.
    func expect(sourceLocation: SourceLocation = #_sourceLocation, until condition: @escaping ([Value]) -> Bool) async {
        let reached = await wait(until: condition)
        if !reached { Issue.record("values never matched: \(values)", sourceLocation: sourceLocation) }
    }

    /// Waits until an error arrived.
    func waitForError() async -> Bool {
        let deadline = Date().addingTimeInterval(livenessTimeout)
        while Date() < deadline, errors.isEmpty {
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return !errors.isEmpty
    }
}

/// A thread-safe counter.
private final class Counter: @unchecked Sendable {
    // @unchecked Sendable: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var storedCount = 0

    func increment() {
        lock.lock()
        storedCount += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return storedCount
    }
}

/// An object whose deallocation shows that whoever held it let it go.
private final class Canary: Sendable {}

/// A weak reference that can be read from any thread.
private final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    // @unchecked Sendable: `object` is only touched while `lock` is held.
    private let lock = NSLock()
    private weak var storedObject: Object?

    var object: Object? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return storedObject
        }
        set {
            lock.lock()
            storedObject = newValue
            lock.unlock()
        }
    }
}

/// The writers live queries run on: a queue, and a pool on a temporary file.
enum LiveQueryWriterKind: CaseIterable, CustomStringConvertible {
    case queue, pool

    var description: String { self == .queue ? "queue" : "pool" }
}

private struct Fixture {
    let writer: any DatabaseWriter
    let directory: TemporaryDirectory
    let path: String

    init(_ kind: LiveQueryWriterKind) throws {
        (directory, path) = try makeTemporaryDatabase()
        switch kind {
        case .queue: writer = try DatabaseQueue(path: path)
        case .pool: writer = try DatabasePool(path: path)
        }
        try writer.write { db in
            try db.createTable(for: Person.self)
            try db.createTable(for: Pet.self)
            for index in 1...5 {
                try db.insert(Person(id: Int64(index), name: "P\(index)", age: Int64(20 + index), email: "p\(index)@x"))
            }
            try db.insert(Pet(id: 1, ownerId: 1, name: "Rex"))
        }
    }

    /// Whether the writer connection still has live queries attached.
    var writerIsObserved: Bool {
        get throws {
            try writer.writeWithoutTransaction { db in db.regionTracker?.observesChanges ?? false }
        }
    }
}

private func names(_ db: Database) throws -> [String] {
    try db.fetchAll(String.self, "SELECT name FROM person ORDER BY id")
}

@Suite struct LiveQueryTests {
    // MARK: Calling styles

    @Test(arguments: LiveQueryWriterKind.allCases)
    func theAsyncSequenceDeliversTheFirstValueThenEachChange(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let writer = fixture.writer
        var received: [[String]] = []
        for try await value in writer.observe({ db in try names(db) }) {
            received.append(value)
            if received.count == 1 {
                try await writer.write { db in try db.execute("UPDATE person SET name = \("Ann") WHERE id = \(1)") }
            } else {
                break
            }
        }
        #expect(received.first?.first == "P1")
        #expect(received.last?.first == "Ann")
        // Leaving the loop ended the observation.
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
    }

    @Test(arguments: LiveQueryWriterKind.allCases)
    func theCallbackRunsOnTheChosenQueueUntilTheTokenIsCancelled(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "chosen")
        queue.setSpecific(key: key, value: "chosen")
        let delivered = Delivered<Int>()
        let onChosenQueue = Counter()
        let token = fixture.writer.observe({ db in try Person.all().fetchCount(db) }, queue: queue) { error in
            Issue.record(error)
        } onChange: { count in
            if DispatchQueue.getSpecific(key: key) == "chosen" { onChosenQueue.increment() }
            delivered.append(count)
        }
        await delivered.expect { $0 == [5] }
        _ = try await fixture.writer.write { db in try db.insert(Person(name: "Six")) }
        await delivered.expect { $0 == [5, 6] }
        #expect(onChosenQueue.count == 2)
        token.cancel()
        #expect(token.isCancelled)
        _ = try await fixture.writer.write { db in try db.insert(Person(name: "Seven")) }
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
        // Nothing is delivered once `cancel()` returned.
        #expect(delivered.values == [5, 6])
    }

    @Test @MainActor
    func theObservableObjectHoldsTheLatestValue() async throws {
        let fixture = try Fixture(.pool)
        defer { fixture.directory.remove() }
        let query = LiveQuery(in: fixture.writer, initialValue: -1, queue: .global()) { db in
            try Person.all().fetchCount(db)
        }
        await expectEventually { query.value == 5 }
        #expect(query.isLoaded)
        let changed = ConcurrentFlag()
        withObservationTracking {
            _ = query.value
        } onChange: {
            changed.set()
        }
        _ = try await fixture.writer.write { db in try db.insert(Person(name: "Six")) }
        let changedInTime = await changed.wait()
        #expect(changedInTime)
        await expectEventually { query.value == 6 }
        #expect(query.error == nil)
        query.cancel()
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
    }

    // MARK: Refetching only when the read changed

    @Test(arguments: LiveQueryWriterKind.allCases)
    func unrelatedCommitsCauseNoRefetch(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let fetches = Counter()
        let delivered = Delivered<[String]>()
        let token = fixture.writer.observe(
            { db in
                fetches.increment()
                return try db.fetchAll(String.self, "SELECT name FROM person WHERE id <= 3 ORDER BY id")
            }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
        await delivered.expect { $0.count == 1 }
        for index in 0..<30 {
            try await fixture.writer.write { db in
                try db.execute("UPDATE pet SET name = \("Pet \(index)")")  // another table
                try db.execute("UPDATE person SET age = \(index)")  // a column the read does not use
            }
        }
        // Rolled back: never notifies.
        struct Abort: Error {}
        _ = try? await fixture.writer.write { db in
            try db.execute("UPDATE person SET name = 'Gone'")
            throw Abort()
        }
        try await fixture.writer.write { db in try db.execute("UPDATE person SET name = 'Ann' WHERE id = 1") }
        await delivered.expect { $0.last?.first == "Ann" }
        #expect(fetches.count == 2)
        #expect(delivered.values.count == 2)
        token.cancel()
    }

    @Test(arguments: LiveQueryWriterKind.allCases)
    func readsOfOneRowIgnoreOtherRows(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let fetches = Counter()
        let delivered = Delivered<String?>()
        let token = fixture.writer.observe(
            { db in
                fetches.increment()
                return try Person.find(3).fetchOne(db)?.name
            }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
        await delivered.expect { $0 == ["P3"] }
        for index in 0..<20 {
            try await fixture.writer.write { db in
                try db.execute("UPDATE person SET name = \("N\(index)") WHERE id <> 3")
            }
        }
        try await fixture.writer.write { db in try db.execute("UPDATE person SET name = 'Three' WHERE id = 3") }
        await delivered.expect { $0 == ["P3", "Three"] }
        #expect(fetches.count == 2)
        token.cancel()
    }

    @Test(arguments: LiveQueryWriterKind.allCases)
    func equalValuesAreNotDeliveredTwice(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let fetches = Counter()
        let delivered = Delivered<[String]>()
        let token = fixture.writer.observe(
            { db in
                fetches.increment()
                return try names(db)
            }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
        await delivered.expect { $0.count == 1 }
        // Writes the column the read uses, to the same value: refetched, not delivered.
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE person SET name = name") }
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE person SET name = 'Ann' WHERE id = 1") }
        await delivered.expect { $0.last?.first == "Ann" }
        #expect(fetches.count >= 2)
        #expect(delivered.values.count == 2)
        token.cancel()

        // Opting out delivers every value fetched.
        let all = Delivered<[String]>()
        let keeping = DatabaseObservation { db in try names(db) }.keepingDuplicates()
            .start(in: fixture.writer, onError: { Issue.record($0) }, onChange: { all.append($0) })
        await all.expect { $0.count == 1 }
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE person SET name = name") }
        await all.expect { $0.count == 2 }
        #expect(all.values[0] == all.values[1])
        keeping.cancel()
    }

    @Test(arguments: LiveQueryWriterKind.allCases)
    func writesThroughTheCHandleAndWithoutTransactionAreSeen(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let delivered = Delivered<[String]>()
        let token = fixture.writer.observe(
            { db in try names(db) }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
        await delivered.expect { $0.count == 1 }
        try await fixture.writer.writeWithoutTransaction { db in
            _ = sqlite3_exec(db.handle, "UPDATE person SET name = 'C' WHERE id = 1", nil, nil, nil)
        }
        await delivered.expect { $0.last?.first == "C" }
        try await fixture.writer.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM person") }
        await delivered.expect { $0.last == [] }
        token.cancel()
    }

    // MARK: Errors

    @Test(arguments: LiveQueryWriterKind.allCases)
    func anErrorInTheReadIsDeliveredAndEndsTheObservation(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        try await fixture.writer.write { db in
            try db.execute(sql: "CREATE TABLE note(text TEXT); INSERT INTO note VALUES ('a')")
        }
        let delivered = Delivered<[String]>()
        let token = fixture.writer.observe(
            { db in try db.fetchAll(String.self, "SELECT text FROM note") },
            onError: { delivered.fail($0) }, onChange: { delivered.append($0) })
        await delivered.expect { $0 == [["a"]] }
        try await fixture.writer.write { db in try db.execute(sql: "DROP TABLE note") }
        let failed = await delivered.waitForError()
        #expect(failed)
        let error = try #require(delivered.errors.first as? DatabaseError)
        #expect(error.message.contains("no such table"))
        #expect(token.isCancelled)
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)

        // The async sequence throws it.
        let failing = fixture.writer.observe { db in try db.fetchAll(String.self, "SELECT text FROM missing") }
        let thrown = await capturedAsyncDatabaseError {
            for try await _ in failing {}
        }
        #expect(thrown?.resultCode == .error)
    }

    // MARK: Cancellation

    @Test(arguments: LiveQueryWriterKind.allCases)
    func cancellingReleasesEverything(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let weakCanary = WeakReference<Canary>()
        do {
            let canary = Canary()
            weakCanary.object = canary
            let delivered = Delivered<Int>()
            let token = fixture.writer.observe(
                { db in
                    _ = canary
                    return try Person.all().fetchCount(db)
                }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
            await delivered.expect { $0 == [5] }
            token.cancel()
        }
        await expectEventually { weakCanary.object == nil }
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
    }

    @Test(arguments: LiveQueryWriterKind.allCases)
    func droppingTheTokenCancels(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let weakCanary = WeakReference<Canary>()
        let delivered = Delivered<Int>()
        do {
            let canary = Canary()
            weakCanary.object = canary
            let token = fixture.writer.observe(
                { db in
                    _ = canary
                    return try Person.all().fetchCount(db)
                }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
            await delivered.expect { $0 == [5] }
            _ = token
        }
        await expectEventually { weakCanary.object == nil }
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
    }

    @Test(arguments: LiveQueryWriterKind.allCases)
    func cancellingTheIteratingTaskEndsTheSequence(_ kind: LiveQueryWriterKind) async throws {
        let fixture = try Fixture(kind)
        defer { fixture.directory.remove() }
        let started = ConcurrentFlag()
        let writer = fixture.writer
        let task = Task {
            var count = 0
            for try await _ in writer.observe({ db in try Person.all().fetchCount(db) }) {
                count += 1
                started.set()
            }
            return count
        }
        let didStart = await started.wait()
        #expect(didStart)
        task.cancel()
        let count = try await task.value
        #expect(count == 1)
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
    }

    @Test func theObservableObjectStopsWhenDeallocated() async throws {
        let fixture = try Fixture(.queue)
        defer { fixture.directory.remove() }
        let weakQuery = WeakReference<LiveQuery<Int>>()
        do {
            let query = LiveQuery(in: fixture.writer, initialValue: 0, queue: .global()) { db in
                try Person.all().fetchCount(db)
            }
            weakQuery.object = query
            await expectEventually { query.value == 5 }
        }
        #expect(weakQuery.object == nil)
        let observed = try await waitUntilUnobserved(fixture)
        #expect(!observed)
    }

    // MARK: Pools: snapshots and other connections

    /// A commit that lands after the first fetch's snapshot began, but before the observation
    /// registered what the fetch read, is not lost.
    @Test func aCommitBetweenTheFirstFetchAndTheStartOfObservationIsNotLost() async throws {
        let fixture = try Fixture(.pool)
        defer { fixture.directory.remove() }
        let inFirstFetch = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let fetches = Counter()
        let delivered = Delivered<[String]>()
        let token = fixture.writer.observe(
            { db in
                let value = try names(db)  // the snapshot began before this read
                fetches.increment()
                if fetches.count == 1 {
                    inFirstFetch.signal()
                    written.wait()
                }
                return value
            }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
        try await runOnThread { inFirstFetch.wait() }
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE person SET name = 'Late' WHERE id = 1") }
        written.signal()
        await delivered.expect { $0.last?.first == "Late" }
        #expect(delivered.values.first?.first == "P1")  // the first fetch's snapshot predates the write
        token.cancel()
    }

    @Test func valuesArriveInCommitOrder() async throws {
        let fixture = try Fixture(.pool)
        defer { fixture.directory.remove() }
        let delivered = Delivered<Int>()
        let token = fixture.writer.observe(
            { db in try Person.all().fetchCount(db) }, onError: { Issue.record($0) },
            onChange: { delivered.append($0) })
        await delivered.expect { $0 == [5] }
        for index in 0..<50 {
            _ = try await fixture.writer.write { db in try db.insert(Person(name: "N\(index)")) }
        }
        await delivered.expect { $0.last == 55 }
        let values = delivered.values
        #expect(values == values.sorted())  // never goes back in time
        token.cancel()
    }

    /// A reader's cached `SELECT *` is compiled again after the writer adds a column; SQLite reports
    /// the statement before recompiling it, and the new column must still be in the region.
    @Test func aColumnAddedByTheWriterIsObservedByReaders() async throws {
        let fixture = try Fixture(.pool)
        defer { fixture.directory.remove() }
        let delivered = Delivered<[String]>()
        let token = fixture.writer.observe(
            { db in
                try db.fetchAll(CopiedRow.self, "SELECT * FROM person WHERE id = 1").map { row in
                    row.values.map { "\($0)" }.joined(separator: ",") + "/\(row.count)"
                }
            }, onError: { Issue.record($0) }, onChange: { delivered.append($0) })
        await delivered.expect { $0.count == 1 }
        try await fixture.writer.write { db in try db.execute(sql: "ALTER TABLE person ADD COLUMN nickname TEXT") }
        await delivered.expect { $0.last?.first?.hasSuffix("/6") == true }
        let before = delivered.values.count
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE person SET nickname = 'Nick' WHERE id = 1") }
        await delivered.expect { $0.count > before && $0.last?.first?.contains("Nick") == true }
        token.cancel()
    }

    @Test func otherConnectionsWritesAreSeenWhenPolling() async throws {
        let fixture = try Fixture(.pool)
        defer { fixture.directory.remove() }
        let other = try DatabaseQueue(path: fixture.path)
        let polled = Delivered<Int>()
        let polling = DatabaseObservation { db in try Person.all().fetchCount(db) }
            .pollingExternalChanges(every: .milliseconds(5))
            .start(in: fixture.writer, onError: { Issue.record($0) }, onChange: { polled.append($0) })
        let fetches = Counter()
        let notPolled = Delivered<Int>()
        let plain = fixture.writer.observe(
            { db in
                fetches.increment()
                return try Person.all().fetchCount(db)
            }, onError: { Issue.record($0) }, onChange: { notPolled.append($0) })
        await polled.expect { $0 == [5] }
        await notPolled.expect { $0 == [5] }
        _ = try await other.write { db in try db.insert(Person(name: "From elsewhere")) }
        await polled.expect { $0 == [5, 6] }
        // Without polling, only the pool's own commits refetch.
        #expect(fetches.count == 1)
        _ = try await fixture.writer.write { db in try db.insert(Person(name: "Seven")) }
        await notPolled.expect { $0 == [5, 7] }
        #expect(fetches.count == 2)
        polling.cancel()
        plain.cancel()
    }
}

/// Waits (polling, at most 120 s: a generous limit, reached only when it never holds) until `condition` holds; returns whether it did.
private func waitUntil(_ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(livenessTimeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// Waits until `condition` holds, and records an issue when it never does.
private func expectEventually(sourceLocation: SourceLocation = #_sourceLocation, _ condition: @Sendable () -> Bool)
    async
{
    let reached = await waitUntil(condition)
    if !reached { Issue.record("the condition never held", sourceLocation: sourceLocation) }
}

/// Waits until no live query observes the fixture's writer connection; returns whether one still does.
private func waitUntilUnobserved(_ fixture: Fixture) async throws -> Bool {
    let deadline = Date().addingTimeInterval(livenessTimeout)
    while Date() < deadline {
        if try !fixture.writerIsObserved { return false }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
    return try fixture.writerIsObserved
}
