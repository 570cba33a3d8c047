import Foundation
import Slate

// Databases for tests: copies of a fixture file that a test may change freely, and databases
// seeded by a closure.

extension Database {
    /// An in-memory copy of the database file at `path`: a test may write to it freely, and the
    /// file is never changed.
    ///
    /// ```swift
    /// let db = try Database.inMemoryCopy(ofFile: Bundle.module.path(forResource: "app", ofType: "sqlite")!)
    /// try db.execute(sql: "DELETE FROM player")   // the fixture keeps its players
    /// ```
    ///
    /// The copy is made with SQLite's online backup, so a fixture in WAL mode is copied with the
    /// content of its log, and a fixture that another connection is writing is copied as one
    /// consistent snapshot.
    ///
    /// - Parameters:
    ///   - path: The fixture, opened read-only. It must exist.
    ///   - configuration: How to open the copy (a date strategy, a busy timeout, a
    ///     `prepareDatabase` closure, which runs before the content is copied).
    /// - Throws: ``DatabaseError`` when the fixture cannot be opened or read (``ResultCode/cantOpen``
    ///   for a missing file, ``ResultCode/notADatabase`` for a file that is not a database).
    public static func inMemoryCopy(ofFile path: String, configuration: Configuration = .init()) throws -> Database {
        let copy = try Database(location: .inMemory, configuration: configuration)
        try copyFixture(at: path, into: copy)
        return copy
    }

    /// An in-memory database that `seed` prepared: its schema and its rows, the same for every
    /// test that asks for it.
    ///
    /// ```swift
    /// let db = try Database.seeded { db in
    ///     try migrator.migrate(db)
    ///     try db.insert(Player(name: "Ada", score: 10))
    /// }
    /// ```
    ///
    /// - Throws: Whatever `seed` throws, or ``DatabaseError`` when the connection cannot be opened.
    public static func seeded(
        configuration: Configuration = .init(),
        _ seed: (Database) throws -> Void
    ) throws -> Database {
        let db = try Database(location: .inMemory, configuration: configuration)
        try seed(db)
        return db
    }

    /// Copies the database file at `path` into `destination` through SQLite's online backup.
    static func copyFixture(at path: String, into destination: Database) throws {
        var readOnly = Configuration()
        readOnly.isReadOnly = true
        readOnly.createsFile = false
        let fixture = try Database(path: path, configuration: readOnly)
        defer { try? fixture.close() }
        try fixture.backup(to: destination, pagesPerStep: -1)
    }
}

/// A database file in a new directory of its own under the system temporary directory, removed
/// with its directory when the value is released.
///
/// Use one when a test needs a file rather than an in-memory database: for a ``DatabasePool``
/// (several connections, WAL mode), a ``DatabaseQueue`` that the test reopens, or code under test
/// that takes a path.
///
/// ```swift
/// let file = try TemporaryDatabaseFile(copying: fixturePath)
/// let pool = try DatabasePool(path: file.path)
/// // …
/// ```
///
/// Keep the value alive as long as connections use the file: the directory is removed when the
/// last reference goes away.
public final class TemporaryDatabaseFile: Sendable {
    /// The path of the database file. Nothing is created at that path until a connection opens it,
    /// unless the file was made from a fixture or a seed.
    public let path: String
    /// The directory that holds the file (and its `-wal` and `-shm` files), removed with the value.
    public let directory: URL

    /// A path for a new database file, named `name`, in a fresh temporary directory.
    ///
    /// - Throws: A Foundation error when the directory cannot be created.
    public init(named name: String = "database.sqlite") throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("slate-testing-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(name).path
    }

    /// A temporary copy of the database file at `fixture`, made with SQLite's online backup (see
    /// ``Database/inMemoryCopy(ofFile:configuration:)``).
    ///
    /// - Throws: ``DatabaseError`` when the fixture cannot be opened or read, or the copy written.
    public convenience init(copying fixture: String, named name: String = "database.sqlite") throws {
        try self.init(named: name)
        let copy = try Database(path: path)
        defer { try? copy.close() }
        try Database.copyFixture(at: fixture, into: copy)
    }

    /// A temporary database file that `seed` prepared on a connection of its own, closed before
    /// the initializer returns.
    ///
    /// - Throws: Whatever `seed` throws, or ``DatabaseError`` when the file cannot be opened.
    public convenience init(
        named name: String = "database.sqlite",
        configuration: Database.Configuration = .init(),
        seed: (Database) throws -> Void
    ) throws {
        try self.init(named: name)
        let db = try Database(path: path, configuration: configuration)
        try seed(db)
        try db.close()
    }

    /// A new connection to the file.
    public func open(configuration: Database.Configuration = .init()) throws -> Database {
        try Database(path: path, configuration: configuration)
    }

    deinit {
        // Nothing to report to: a directory left behind is only litter in the temporary directory.
        try? FileManager.default.removeItem(at: directory)
    }
}
