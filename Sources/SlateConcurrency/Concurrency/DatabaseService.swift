import Foundation
import SlateCore

/// A service that owns one connection and runs everything you ask of it in submission order:
/// open, close, run work, migrate.
///
/// Every operation comes in three calling styles:
///
/// - a synchronous call that waits and returns a `Result`, named `…AndWait` (``runAndWait(_:)``);
/// - a completion-handler call that returns at once and delivers the `Result` on the dispatch
///   queue you choose (a global queue by default; pass `.main` for user-interface work);
/// - an `async throws` call that suspends without blocking a thread; cancelling its task skips the
///   operation if it has not started and interrupts its running statement if it has.
///
/// All operations go through one serial queue, so work submitted while a migration runs waits for
/// it and then runs after it, in the order it was submitted:
///
/// ```swift
/// let service = DatabaseService()
/// _ = service.openAndWait(path: path)
/// service.migrate(with: migrator) { result in print("migrated: \(result)") }
/// let players = service.runAndWait { db in try db.fetchAll(String.self, "SELECT name FROM player") }
/// // `players` was fetched after the migration finished.
/// ```
///
/// The ``Database`` passed to `run` is valid only while the closure runs: do
/// not store it or let it escape. The synchronous calls are not reentrant: calling one from inside
/// a closure the service runs fails with ``ResultCode/misuse`` instead of deadlocking.
public final class DatabaseService: @unchecked Sendable {
    // @unchecked Sendable: `database`, the only mutable state, is read and written only by work
    // items of `queue`, a serial queue; the other stored properties are immutable.
    private let queue: DispatchQueue
    private let ownerKey = DispatchSpecificKey<Void>()
    private var database: Database?

    /// Creates a service with no open database.
    ///
    /// - Parameter label: The label of the service's dispatch queue, for debugging.
    public init(label: String = "Slate.DatabaseService") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: ownerKey, value: ())
    }

    // MARK: Synchronous calls
    //
    // Named `…AndWait`, so that they stay reachable in `async` code, where the `async` calls of the
    // same base name would otherwise be chosen.

    /// Opens the database file at `path`, creating it if needed.
    ///
    /// - Returns: `.failure` with a ``DatabaseError`` when the file cannot be opened, or with
    ///   ``ResultCode/misuse`` when a database is already open (close it first).
    public func openAndWait(path: String, configuration: Database.Configuration = .init()) -> Result<Void, any Error> {
        openAndWait(location: .file(path), configuration: configuration)
    }

    /// Opens the database at `location`.
    ///
    /// - Returns: `.failure` with a ``DatabaseError`` when it cannot be opened, or with
    ///   ``ResultCode/misuse`` when a database is already open (close it first).
    public func openAndWait(
        location: Database.Location,
        configuration: Database.Configuration = .init()
    ) -> Result<Void, any Error> {
        sync { try self.openDatabase(location: location, configuration: configuration) }
    }

    /// Closes the open database. Closing when nothing is open succeeds and does nothing.
    public func closeAndWait() -> Result<Void, any Error> {
        sync { try self.closeDatabase() }
    }

    /// Runs `body` with the open database, after everything submitted before it, and returns its
    /// result.
    ///
    /// `body` may read and write; no transaction wraps it, so call ``Database/transaction(_:_:)``
    /// inside it for atomic changes.
    ///
    /// - Returns: `.failure` with what `body` threw, or with ``ResultCode/misuse`` when no
    ///   database is open.
    public func runAndWait<Value: Sendable>(_ body: (Database) throws -> Value) -> Result<Value, any Error> {
        sync { try self.requireDatabase().perform(.plain, cancellation: nil, body) }
    }

    /// Applies the migrations of `migrator` that the open database lacks. Work submitted after
    /// this call runs after the migrations.
    public func migrateAndWait(with migrator: Migrator) -> Result<Void, any Error> {
        sync { try migrator.migrate(self.requireDatabase()) }
    }

    // MARK: Completion-handler calls

    /// Opens the database file at `path` and delivers the outcome on `completionQueue`.
    public func open(
        path: String,
        configuration: Database.Configuration = .init(),
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        open(
            location: .file(path), configuration: configuration, completionQueue: completionQueue,
            completion: completion)
    }

    /// Opens the database at `location` and delivers the outcome on `completionQueue`.
    public func open(
        location: Database.Location,
        configuration: Database.Configuration = .init(),
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        submit(completionQueue: completionQueue, completion: completion) {
            try self.openDatabase(location: location, configuration: configuration)
        }
    }

    /// Closes the open database and delivers the outcome on `completionQueue`.
    public func close(
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        submit(completionQueue: completionQueue, completion: completion) { try self.closeDatabase() }
    }

    /// Runs `body` with the open database, after everything submitted before it, and delivers
    /// its result on `completionQueue`.
    public func run<Value: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> Value,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        submit(completionQueue: completionQueue, completion: completion) {
            try self.requireDatabase().perform(.plain, cancellation: nil, body)
        }
    }

    /// Applies the migrations of `migrator` that the open database lacks, and delivers the
    /// outcome on `completionQueue`. Work submitted after this call runs after the migrations.
    public func migrate(
        with migrator: Migrator,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        submit(completionQueue: completionQueue, completion: completion) {
            try migrator.migrate(self.requireDatabase())
        }
    }

    // MARK: Async calls

    /// Opens the database file at `path`.
    ///
    /// - Throws: ``DatabaseError`` when the file cannot be opened, or ``ResultCode/misuse`` when a
    ///   database is already open.
    public func open(path: String, configuration: Database.Configuration = .init()) async throws {
        try await open(location: .file(path), configuration: configuration)
    }

    /// Opens the database at `location`.
    ///
    /// - Throws: ``DatabaseError`` when it cannot be opened, or ``ResultCode/misuse`` when a
    ///   database is already open.
    public func open(location: Database.Location, configuration: Database.Configuration = .init()) async throws {
        try await submit(cancellable: false) { _ in
            try self.openDatabase(location: location, configuration: configuration)
        }
    }

    /// Closes the open database. Closing when nothing is open does nothing.
    public func close() async throws {
        try await submit(cancellable: false) { _ in try self.closeDatabase() }
    }

    /// Runs `body` with the open database, after everything submitted before it, and returns its
    /// result. Cancelling the task interrupts `body`'s running statement.
    public func run<Value: Sendable>(_ body: @escaping @Sendable (Database) throws -> Value) async throws -> Value {
        try await submit(cancellable: true) { state in
            try self.requireDatabase().perform(.plain, cancellation: state, body)
        }
    }

    /// Applies the migrations of `migrator` that the open database lacks. Cancelling the task
    /// interrupts the running migration, which is rolled back; earlier migrations stay applied.
    public func migrate(with migrator: Migrator) async throws {
        try await submit(cancellable: true) { state in
            try self.requireDatabase().perform(.plain, cancellation: state) { db in try migrator.migrate(db) }
        }
    }

    // MARK: Plumbing

    /// Runs `operation` on the queue and waits for it.
    private func sync<Value>(_ operation: () throws -> Value) -> Result<Value, any Error> {
        do {
            try ownerKey.checkNotReentrant("DatabaseService")
        } catch {
            return .failure(error)
        }
        return queue.sync { Result { try operation() } }
    }

    /// Runs `operation` on the queue and delivers its result on `completionQueue`.
    private func submit<Value: Sendable>(
        completionQueue: DispatchQueue,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
        _ operation: @escaping @Sendable () throws -> Value
    ) {
        queue.async { deliver(Result { try operation() }, on: completionQueue, to: completion) }
    }

    /// Runs `operation` on the queue and awaits its result. A non-cancellable operation still
    /// skips its work when its task was cancelled before the work started.
    private func submit<Value: Sendable>(
        cancellable: Bool,
        _ operation: @escaping @Sendable (DatabaseWorkCancellation?) throws -> Value
    ) async throws -> Value {
        try await withCancellableDatabaseWork { state, complete in
            queue.async {
                let result: Result<Value, any Error>
                if cancellable {
                    result = Result { try operation(state) }
                } else if state.start(interrupting: nil) {
                    result = Result { try operation(nil) }
                    _ = state.finish()
                } else {
                    result = .failure(DatabaseError.cancellation())
                }
                complete(result)
            }
        }
    }

    /// Called on the queue.
    private func openDatabase(location: Database.Location, configuration: Database.Configuration) throws {
        guard database == nil else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the service already has an open database (\(location) was asked for); close it first")
        }
        database = try Database(location: location, configuration: configuration)
    }

    /// Called on the queue.
    private func closeDatabase() throws {
        guard let database else { return }
        try database.close()
        self.database = nil
    }

    /// Called on the queue.
    private func requireDatabase() throws -> Database {
        guard let database else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the service has no open database; open one first (open(path:), openAndWait(path:) …)")
        }
        return database
    }
}
