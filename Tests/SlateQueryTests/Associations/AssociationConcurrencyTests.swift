import Foundation
import Slate
import SlateTestSupport
import Testing

/// Eager loads wherever the builder runs: queue and pool, sync and async, and live queries that
/// refetch when a table of any level changes and not for other tables.
@Suite struct AssociationConcurrencyTests {
    /// A writable copy of Chinook in a file, for a pool or a queue.
    private func chinookFile() throws -> (path: String, directory: TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let path = directory.path("chinook.sqlite")
        try Database.chinook().backup(to: try Database(path: path))
        return (path, directory)
    }

    private static let load = Artist.where { $0.artistId <= 3 }.order(by: \.artistId)
        .including(all: \.albums) { $0.order(by: \.albumId).including(all: \.tracks) { $0.order(by: \.trackId) } }

    @Test func runsOnAPoolSyncAndAsync() async throws {
        let (path, directory) = try chinookFile()
        defer { directory.remove() }
        let pool = try DatabasePool(path: path)
        let expected = try Self.load.fetchAll(try Database.chinook())
        let sync = try Self.readSynchronously(pool)
        let async = try await pool.read { db in try Self.load.fetchAll(db) }
        #expect(sync.map(\.0) == expected.map(\.0))
        // Typed closures, outside `#expect`: inferred, they took the type checker over the CI budget.
        let asyncTracks: [[[Track]]] = async.map { artist -> [[Track]] in artist.1.map { $0.1 } }
        let expectedTracks: [[[Track]]] = expected.map { artist -> [[Track]] in artist.1.map { $0.1 } }
        #expect(asyncTracks == expectedTracks)
        let trackCount = asyncTracks.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        #expect(trackCount == 37)
        let queue = try DatabaseQueue(path: path)
        #expect(try await queue.read { db in try Self.load.fetchAll(db) }.map(\.0) == expected.map(\.0))
    }

    /// The synchronous `read`, called from synchronous code.
    private static func readSynchronously(_ pool: DatabasePool) throws -> [(Artist, [(Album, [Track])])] {
        try pool.read { db in try load.fetchAll(db) }
    }

    @Test func liveQueryRefetchesForEveryLevelAndNotForOtherTables() async throws {
        let (path, directory) = try chinookFile()
        defer { directory.remove() }
        let pool = try DatabasePool(path: path)
        let fetches = FetchCounter()
        let observation = DatabaseObservation { db in
            fetches.increment()
            return try Self.load.fetchAll(db).flatMap { $0.1.flatMap { $0.1.map(\.name) } }
        }.keepingDuplicates()
        var iterator = observation.values(in: pool).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.contains("Balls to the Wall") == true)
        // An unrelated table: no refetch.
        try await pool.write { db in try db.execute(sql: "UPDATE Customer SET Company = 'X' WHERE CustomerId = 1") }
        // The deepest level's table: a refetch, with the change.
        try await pool.write { db in try db.execute(sql: "UPDATE Track SET Name = 'Renamed' WHERE TrackId = 2") }
        let second = try await iterator.next()
        #expect(second?.contains("Renamed") == true)
        #expect(second?.contains("Balls to the Wall") == false)
        #expect(fetches.count == 2)
        // The middle level's table.
        try await pool.write { db in try db.execute(sql: "UPDATE Album SET ArtistId = 10 WHERE AlbumId = 1") }
        let third = try await iterator.next()
        #expect(third?.count == (second?.count ?? 0) - 10)
        #expect(fetches.count == 3)
    }
}

/// A thread-safe count of fetches.
private final class FetchCounter: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored = 0

    func increment() {
        lock.lock()
        stored += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
