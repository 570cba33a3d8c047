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

    // MARK: Blocking calls

    /// Runs `body` with the connection, outside any transaction, and returns its result.
    ///
    /// Use it for work that cannot run in a transaction (`VACUUM`, `PRAGMA foreign_keys`) or to
    /// manage transactions yourself.
    ///
    /// - Throws: what `body` throws, or ``ResultCode/misuse`` when called from a closure running
    ///   on this queue.
    public func inDatabase<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value {
        try perform(.plain, body)
    }

    /// Runs `body` with read-only access and returns its result.
    ///
    /// The closure runs inside a deferred transaction with `PRAGMA query_only` on: it sees one
    /// consistent snapshot, and any attempt to write fails with ``ResultCode/readOnly``.
    public func read<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value {
        try perform(.queryOnlyRead, body)
    }

    /// Runs `body` in an immediate transaction that commits when it returns and rolls back when
    /// it throws, and returns its result.
    public func write<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value {
        try perform(.transaction(.immediate), body)
    }

    /// The same as ``inDatabase(_:)``, for code written against ``DatabaseWriter``.
    public func writeWithoutTransaction<Value: Sendable>(_ body: (Database) throws -> Value) throws -> Value {
        try perform(.plain, body)
    }

    /// Runs `body` in a transaction of the given kind that commits when it returns and rolls back
    /// when it throws, and returns its result.
    public func transaction<Value: Sendable>(
        _ kind: Database.TransactionKind = .deferred,
        _ body: (Database) throws -> Value
    ) throws -> Value {
        try perform(.transaction(kind), body)
    }

    /// Runs `body` inside a savepoint that is released when it returns and rolled back when it
    /// throws, and returns its result. Outside a transaction a savepoint acts as a deferred
    /// transaction.
    public func savepoint<Value: Sendable>(
        _ name: String = DatabaseQueue.defaultSavepointName,
        _ body: (Database) throws -> Value
    ) throws -> Value {
        try perform(.savepoint(name), body)
    }

    /// The savepoint name ``savepoint(_:_:)`` uses when you give none.
    public static let defaultSavepointName = "slate_queue_savepoint"

    private func perform<Value>(_ access: ConnectionAccess, _ body: (Database) throws -> Value) throws -> Value {
        try ownerKey.checkNotReentrant("DatabaseQueue")
        return try connection.sync { db in try db.perform(access, cancellation: nil, body) }
    }

    // MARK: Plumbing for the other calling styles

    func performAsync<Value: Sendable>(
        _ access: ConnectionAccess,
        _ body: @escaping @Sendable (Database) throws -> Value
    ) async throws -> Value {
        try await withCancellableDatabaseWork { state, complete in
            connection.async { db in
                complete(Result { try db.perform(access, cancellation: state, body) })
            }
        }
    }

    func perform<Value: Sendable>(
        _ access: ConnectionAccess,
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        connection.async { db in
            deliver(Result { try db.perform(access, cancellation: nil, body) }, on: completionQueue, to: completion)
        }
    }
}
