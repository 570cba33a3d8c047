import Foundation
import SlateCore

/// One connection whose work runs serially, safe to use from any thread or task.
///
/// Every closure you pass runs on the queue's private serial dispatch queue, one after another,
/// and receives the ``Database``. Each method comes in three calling styles:
///
/// - a blocking call, which waits for the closure and returns its result;
/// - an `async throws` call, which suspends without blocking a thread and interrupts the running
///   statement when its task is cancelled;
/// - a completion-handler call, which returns at once and delivers a `Result` on the dispatch
///   queue you choose (a global queue by default, so it works in command-line tools and servers
///   whose main thread never runs a run loop; pass `.main` to update user interfaces).
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/app.sqlite")
/// try dbQueue.write { db in
///     try db.execute("INSERT INTO player(name) VALUES (\(name))")
/// }
/// let count = try await dbQueue.read { db in
///     try db.fetchValue(Int.self, "SELECT count(*) FROM player")
/// }
/// ```
///
/// The ``Database`` a closure receives is valid only while the closure runs: do not store it or
/// let it escape. Results must be `Sendable`, so rows and statements cannot leak out; copy what
/// you need into values. The blocking calls are not reentrant: calling one from inside a closure
/// of the same queue throws ``ResultCode/misuse`` instead of deadlocking.
public final class DatabaseQueue: DatabaseWriter, @unchecked Sendable {
    // @unchecked Sendable: the only mutable state is the connection, which `connection` confines
    // to its serial dispatch queue; every other stored property is an immutable Sendable value.

    /// Where the database lives.
    public let location: Database.Location
    /// The configuration the connection was opened with.
    public let configuration: Database.Configuration

    let connection: SerializedConnection
    private let interruptHandle: InterruptHandle
    private let ownerKey = DispatchSpecificKey<Void>()
    /// Admits work until ``shutDown(gracePeriod:)``, and counts it (Concurrency/Shutdown.swift).
    let gate = WorkGate(owner: "DatabaseQueue")

    /// Opens a connection and wraps it in a queue.
    ///
    /// - Throws: ``DatabaseError`` when the connection cannot be opened; see
    ///   ``Database/init(location:configuration:)``.
    public init(location: Database.Location = .inMemory, configuration: Database.Configuration = .init()) throws {
        let database = try Database(location: location, configuration: configuration)
        self.location = location
        self.configuration = configuration
        self.interruptHandle = database.interruptHandle
        self.connection = SerializedConnection(
            database: database,
            label: "Slate.DatabaseQueue" + (configuration.label.map { ".\($0)" } ?? ""),
            ownerKey: ownerKey)
    }

    /// Opens a connection to the database file at `path` and wraps it in a queue.
    public convenience init(path: String, configuration: Database.Configuration = .init()) throws {
        try self.init(location: .file(path), configuration: configuration)
    }

    /// Makes the statement running on the queue's connection, if any, stop with
    /// ``ResultCode/interrupt``. Safe to call from any thread.
    public func interrupt() {
        interruptHandle.interrupt()
    }

    // MARK: The primitives of the calling styles

    /// Runs `work` on the queue's connection with the access it asks for, waits, and returns its
    /// result. Reads run in a deferred transaction with `PRAGMA query_only` on.
    public func run<Value: Sendable>(_ access: DatabaseAccess, _ work: (Database) throws -> Value) throws -> Value {
        try ownerKey.checkNotReentrant("DatabaseQueue")
        try gate.enter()
        defer { gate.leave() }
        let hop = InstrumentedHop.capture(configuration, access)
        return try connection.sync { db in
            try gate.runAdmitted(db) {
                try hop.run(on: db) { try db.perform(Self.connectionAccess(access), cancellation: nil, work) }
            }
        }
    }

    /// Runs `work` on the queue's connection in its turn and calls `completion` with its result.
    public func schedule<Value: Sendable>(
        _ access: DatabaseAccess,
        cancellation: DatabaseWorkCancellation?,
        _ work: @escaping @Sendable (Database) throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        do { try gate.enter() } catch { return completion(.failure(error)) }
        let completion = gate.leaving(completion)
        let hop = InstrumentedHop.capture(configuration, access)
        connection.async { [gate] db in
            completion(
                Result {
                    try gate.runAdmitted(db) {
                        try hop.run(on: db) {
                            try db.perform(Self.connectionAccess(access), cancellation: cancellation, work)
                        }
                    }
                })
        }
    }

    /// How the queue's one connection serves `access`: reads take `query_only` snapshots; a
    /// barrier has no readers to wait for.
    static func connectionAccess(_ access: DatabaseAccess) -> ConnectionAccess {
        switch access {
        case .read: .queryOnlyRead
        case .write: .transaction(.immediate)
        case .transaction(let kind): .transaction(kind)
        case .savepoint(let name): .savepoint(name)
        case .writeWithoutTransaction, .barrierWrite: .plain
        }
    }
}
