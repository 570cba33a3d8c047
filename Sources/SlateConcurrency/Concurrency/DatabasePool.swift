import Foundation
import SlateCore

/// A database file in WAL mode with one writer connection and a pool of reader connections,
/// safe to use from any thread or task.
///
/// Writes are serialized on the writer connection. Reads run in parallel on up to
/// ``maximumReaderCount`` read-only connections, opened on demand; each read sees one committed
/// snapshot of the database for its whole closure, even while a write is in progress, because it
/// runs inside a deferred transaction started with a read.
///
/// ```swift
/// let pool = try DatabasePool(path: "/path/to/app.sqlite")
/// try pool.write { db in try db.execute("INSERT INTO player(name) VALUES (\(name))") }
/// let names = try await pool.read { db in try db.fetchAll(String.self, "SELECT name FROM player") }
/// ```
///
/// Each access comes in the three calling styles of ``DatabaseReader`` and ``DatabaseWriter``:
/// blocking, `async throws` (cancelling the task interrupts the running statement) and completion
/// handler (delivered on a global queue unless you pass another). For maintenance that must not
/// run beside reads, ``barrierWrite(_:)-(_)`` waits for them.
///
/// The pool's own connections never report ``ResultCode/busy`` to each other: WAL lets readers and
/// the writer work at the same time, writes are serialized, and every connection waits at least
/// ``minimumBusyTimeout`` for the locks SQLite takes for a few microseconds behind the scenes (a
/// reader that catches the WAL index mid-update briefly takes the write lock to re-read it). When
/// another process or connection outside the pool holds the write lock, a write waits up to
/// ``Database/Configuration/busyTimeout`` (or ``minimumBusyTimeout`` if that is longer) and then
/// throws a ``DatabaseError`` with ``ResultCode/busy`` that says so.
///
/// The ``Database`` a closure receives is valid only while the closure runs: do not store it or
/// let it escape. The blocking calls are not reentrant: calling one from inside a closure of the
/// same pool throws ``ResultCode/misuse`` instead of deadlocking.
public final class DatabasePool: DatabaseWriter, @unchecked Sendable {
    // @unchecked Sendable: the writer connection is confined to its serial queue, each reader to
    // its own, and the reader pool guards its state with a lock; every other stored property is
    // an immutable Sendable value.

    /// Where the database lives.
    public let location: Database.Location
    /// The configuration the pool was opened with. The writer and the readers use it with a busy
    /// timeout of at least ``minimumBusyTimeout``; readers open read-only.
    public let configuration: Database.Configuration
    /// The largest number of reader connections open at once.
    public var maximumReaderCount: Int { readers.maximumCount }
    /// How long readers stay open once every read has finished, or `nil` to keep them until
    /// ``releaseIdleReaders()``.
    public let idleReaderTimeout: TimeInterval?

    /// The default of ``maximumReaderCount``.
    public static let defaultMaximumReaderCount = 5
    /// The smallest busy timeout the pool's connections get, in seconds, whatever the
    /// configuration says, so that the brief locks its own connections take never surface as
    /// ``ResultCode/busy``.
    public static let minimumBusyTimeout: Double = 1

    let writer: SerializedConnection
    let readers: ReaderPool
    private let ownerKey: DispatchSpecificKey<Void>
    /// Admits work until ``shutDown(gracePeriod:)``, and counts it (Concurrency/Shutdown.swift).
    let gate = WorkGate(owner: "DatabasePool")

    /// Opens the writer connection, switches the database to WAL mode, and prepares a pool of
    /// readers that open when reads need them.
    ///
    /// - Parameters:
    ///   - location: A file or `file:` URI. In-memory and temporary databases cannot be shared
    ///     between connections and are rejected.
    ///   - configuration: How connections open. The busy timeout is how long a write waits for a
    ///     lock held outside the pool; the pool raises it to ``minimumBusyTimeout`` when shorter.
    ///   - maximumReaderCount: The largest number of reader connections, at least 1.
    ///   - idleReaderTimeout: When set, idle readers close this many seconds after the last read
    ///     finishes.
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` for an in-memory or temporary location
    ///   or a reader count below 1, with ``ResultCode/error`` when the database cannot use WAL, and
    ///   the errors of ``Database/init(location:configuration:)``.
    public init(
        location: Database.Location,
        configuration: Database.Configuration = .init(),
        maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount,
        idleReaderTimeout: TimeInterval? = nil
    ) throws {
        switch location {
        case .inMemory, .temporary:
            throw DatabaseError(
                resultCode: .misuse,
                message: "a DatabasePool needs a database file that several connections can open;"
                    + " \(location) is private to one connection (use DatabaseQueue instead)")
        case .file, .uri:
            break
        }
        guard maximumReaderCount >= 1 else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "a DatabasePool needs at least one reader, but maximumReaderCount is \(maximumReaderCount)")
        }
        var writerConfiguration = configuration
        writerConfiguration.busyTimeout = max(configuration.busyTimeout ?? 0, Self.minimumBusyTimeout)
        let database = try Database(location: location, configuration: writerConfiguration)
        try Self.requireWAL(database, location: location)

        let label = "Slate.DatabasePool" + (configuration.label.map { ".\($0)" } ?? "")
        let ownerKey = DispatchSpecificKey<Void>()
        var readerConfiguration = writerConfiguration
        readerConfiguration.isReadOnly = true

        self.location = location
        self.configuration = configuration
        self.idleReaderTimeout = idleReaderTimeout
        self.ownerKey = ownerKey
        self.writer = SerializedConnection(database: database, label: label + ".writer", ownerKey: ownerKey)
        self.readers = ReaderPool(
            maximumCount: maximumReaderCount,
            idleTimeout: idleReaderTimeout,
            label: label + ".reader",
            ownerKey: ownerKey,
            openDatabase: { [readerConfiguration] in
                try Database(location: location, configuration: readerConfiguration)
            },
            countDidChange: Self.readerCountReporter(configuration))
    }

    /// Reports the number of open readers to the configuration's instrumentation, if any.
    private static func readerCountReporter(_ configuration: Database.Configuration) -> (@Sendable (Int) -> Void)? {
        guard let instrumentation = configuration.instrumentation else { return nil }
        let label = configuration.label
        return { count in instrumentation.record(.readerCount(pool: label, count: count)) }
    }

    /// Opens a pool on the database file at `path`; see ``init(location:configuration:maximumReaderCount:idleReaderTimeout:)``.
    public convenience init(
        path: String,
        configuration: Database.Configuration = .init(),
        maximumReaderCount: Int = DatabasePool.defaultMaximumReaderCount,
        idleReaderTimeout: TimeInterval? = nil
    ) throws {
        try self.init(
            location: .file(path),
            configuration: configuration,
            maximumReaderCount: maximumReaderCount,
            idleReaderTimeout: idleReaderTimeout)
    }

    private static func requireWAL(_ database: Database, location: Database.Location) throws {
        let mode =
            database.configuration.isReadOnly
            ? try database.fetchValue(String.self, sql: "PRAGMA journal_mode")
            : try database.fetchValue(String.self, sql: "PRAGMA journal_mode = WAL")
        guard mode.lowercased() == "wal" else {
            throw DatabaseError(
                resultCode: .error,
                message: "a DatabasePool needs the WAL journal mode, but the database at \(location)"
                    + " stays in \(mode) mode")
        }
    }

    /// The number of reader connections open now, busy or idle.
    public var readerCount: Int { readers.openReaderCount }

    /// Closes the reader connections no read is using, to free their memory (for example on a
    /// memory warning). Readers in use stay open; new reads open readers again as needed.
    public func releaseIdleReaders() {
        readers.releaseIdleReaders()
    }

    // MARK: The primitives of the calling styles

    /// Runs `work` with the access it asks for, waits, and returns its result.
    ///
    /// A read runs on a reader with one committed snapshot: it waits for a free reader when
    /// ``maximumReaderCount`` are busy, and while a barrier write runs; it does not see writes that
    /// commit after it started, and writing fails with ``ResultCode/readOnly``. Writes run on the
    /// writer, one at a time. A ``DatabaseAccess/barrierWrite`` waits for the reads in progress and
    /// holds new reads back until it returns: it runs outside any transaction, so it can `VACUUM`,
    /// truncate the WAL with `PRAGMA wal_checkpoint(TRUNCATE)` or change the journal mode.
    public func run<Value: Sendable>(_ access: DatabaseAccess, _ work: (Database) throws -> Value) throws -> Value {
        try ownerKey.checkNotReentrant("DatabasePool")
        try gate.enter()
        defer { gate.leave() }
        let hop = InstrumentedHop.capture(configuration, access)
        switch access {
        case .read:
            let reader = try readers.acquire()
            defer { readers.release(reader) }
            return try reader.sync { db in
                try gate.runAdmitted(db) {
                    try hop.run(on: db) { try db.perform(.snapshotRead, cancellation: nil, work) }
                }
            }
        case .barrierWrite:
            return try writer.sync { db in
                readers.beginBarrier()
                defer { readers.endBarrier() }
                return try gate.runAdmitted(db) {
                    try hop.run(on: db) { try db.perform(.plain, cancellation: nil, work) }
                }
            }
        default:
            return try writer.sync { db in
                try gate.runAdmitted(db) {
                    try hop.run(on: db) { try db.perform(Self.writerAccess(access), cancellation: nil, work) }
                }
            }
        }
    }

    /// Runs `work` in its turn, on a reader or the writer as its access asks, and calls
    /// `completion` with its result.
    public func schedule<Value: Sendable>(
        _ access: DatabaseAccess,
        cancellation: DatabaseWorkCancellation?,
        _ work: @escaping @Sendable (Database) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        do { try gate.enter() } catch { return completion(.failure(error)) }
        let completion = gate.leaving(completion)
        let hop = InstrumentedHop.capture(configuration, access)
        if access == .read {
            scheduleRead(cancellation: cancellation, hop: hop, work, completion: completion)
        } else {
            scheduleWrite(
                Self.writerAccess(access), barrier: access == .barrierWrite, cancellation: cancellation, hop: hop, work,
                completion: completion)
        }
    }

    /// How the writer serves `access`.
    static func writerAccess(_ access: DatabaseAccess) -> ConnectionAccess {
        switch access {
        case .read: .snapshotRead
        case .write: .transaction(.immediate)
        case .transaction(let kind): .transaction(kind)
        case .savepoint(let name): .savepoint(name)
        case .writeWithoutTransaction, .barrierWrite: .plain
        }
    }

    // MARK: Plumbing for the other calling styles

    /// Runs `body` on a reader when one is free, then calls `completion` with its result.
    func scheduleRead<Value: Sendable>(
        cancellation: DatabaseWorkCancellation?,
        hop: InstrumentedHop?,
        _ body: @escaping @Sendable (Database) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let readers = self.readers
        let gate = self.gate
        readers.acquire { acquired in
            switch acquired {
            case .failure(let error):
                completion(.failure(error))
            case .success(let reader):
                reader.async { db in
                    let result = Result {
                        try gate.runAdmitted(db) {
                            try hop.run(on: db) { try db.perform(.snapshotRead, cancellation: cancellation, body) }
                        }
                    }
                    readers.release(reader)
                    completion(result)
                }
            }
        }
    }

    /// Runs `body` on the writer in its turn, then calls `completion` with its result.
    func scheduleWrite<Value: Sendable>(
        _ access: ConnectionAccess,
        barrier: Bool,
        cancellation: DatabaseWorkCancellation?,
        hop: InstrumentedHop?,
        _ body: @escaping @Sendable (Database) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let readers = self.readers
        let gate = self.gate
        writer.async { db in
            if barrier { readers.beginBarrier() }
            let result = Result {
                try gate.runAdmitted(db) {
                    try hop.run(on: db) { try db.perform(access, cancellation: cancellation, body) }
                }
            }
            if barrier { readers.endBarrier() }
            completion(result)
        }
    }
}

// MARK: - Barrier writes

extension DatabasePool {
    /// Runs `work` on the writer while no read runs, and returns its result.
    ///
    /// The barrier waits for the reads in progress to finish and holds new reads back until
    /// `work` returns. `work` runs outside any transaction, so it can `VACUUM`, truncate the WAL
    /// with `PRAGMA wal_checkpoint(TRUNCATE)` or change the journal mode; call
    /// ``Database/transaction(_:_:)`` inside it for atomic changes.
    public func barrierWrite<Value: Sendable>(_ work: (Database) throws -> Value) throws -> Value {
        try run(.barrierWrite, work)
    }

    /// Runs `work` on the writer while no read runs, without blocking a thread.
    public func barrierWrite<Value: Sendable>(_ work: @escaping @Sendable (Database) throws -> Value) async throws
        -> Value
    {
        try await awaitWork(.barrierWrite, work)
    }

    /// Runs `work` on the writer while no read runs, and delivers its result.
    public func barrierWrite<Value: Sendable>(
        _ work: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        deliverWork(.barrierWrite, work, completionQueue: completionQueue, completion: completion)
    }
}
