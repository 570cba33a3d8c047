import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// Self-managing storage for record types: opens its database files on first use (creating the
/// files and their directories), creates and migrates each type's table when first needed, and
/// keeps a type in its own file when the type asks for one.
///
/// Works with `@Table` structs (any ``SelfManagingTable``) and with ``CodableRecord`` types:
///
/// ```swift
/// let store = RecordStore(directory: appSupport.appendingPathComponent("Data"))
/// try store.save([c, u])                                   // insert or update by key
/// let found = try store.fetchAll(Example.self) { $0.name == "c" }
/// try store.delete([c])                                    // by key
/// try store.deleteAll(Example.self) { $0.name == "u" }     // by filter
/// try store.deleteAll(Example.self)                        // every row
/// try store.drop(Example.self)                             // the table
/// ```
///
/// A store is safe to use from any thread or task: calls are serialized, one at a time. Each
/// database file has one connection, opened with the store's configuration plus
/// ``Database/Configuration/createsMissingDirectories``.
public final class RecordStore: @unchecked Sendable {
    // @unchecked Sendable: `connections`, the only mutable state, is read and written only while
    // `lock` is held, and each `Database` in it is used only while `lock` is held (calls are
    // serialized); the other stored properties are constants of Sendable types.
    /// The directory that holds the store's files.
    public let directory: URL
    /// The main file's name, for types that do not ask for a file of their own.
    public let mainFile: String
    /// The configuration each connection opens with.
    public let configuration: Database.Configuration

    private let lock = NSRecursiveLock()
    private var connections: [String: Database] = [:]

    /// A store keeping its files in `directory`, created when needed.
    ///
    /// - Parameters:
    ///   - directory: The directory of the database files.
    ///   - mainFile: The file of types without a ``SelfManagingTable/databaseFile``. Default
    ///     `records.sqlite`.
    ///   - configuration: How connections open. Missing directories are always created.
    public init(
        directory: URL, mainFile: String = "records.sqlite",
        configuration: Database.Configuration = Database.Configuration()
    ) {
        self.directory = directory
        self.mainFile = mainFile
        var configuration = configuration
        configuration.createsMissingDirectories = true
        self.configuration = configuration
    }

    /// A store whose main file is at `path`; other files go next to it.
    public convenience init(path: String, configuration: Database.Configuration = Database.Configuration()) {
        let url = URL(fileURLWithPath: path)
        self.init(
            directory: url.deletingLastPathComponent(), mainFile: url.lastPathComponent, configuration: configuration)
    }

    /// The path of the file holding `databaseFile` (`nil` for the main file).
    public func path(forDatabaseFile databaseFile: String?) -> String {
        directory.appendingPathComponent(databaseFile ?? mainFile).path
    }

    /// Runs `body` with the connection to `databaseFile` (`nil` for the main file), opening it first
    /// when needed. Calls are serialized.
    public func withDatabase<Result>(file databaseFile: String? = nil, _ body: (Database) throws -> Result) throws
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        let path = path(forDatabaseFile: databaseFile)
        let db: Database
        if let open = connections[path] {
            db = open
        } else {
            db = try Database(path: path, configuration: configuration)
            connections[path] = db
        }
        return try body(db)
    }

    /// Closes every open connection. The store opens them again when used.
    public func close() throws {
        lock.lock()
        defer { lock.unlock() }
        for (path, db) in connections {
            try db.close()
            connections[path] = nil
        }
    }

    // MARK: Tables

    /// Runs a write to `type`'s table, creating or migrating the table first when needed.
    private func writeTable<T: SelfManagingTable, Result>(_ type: T.Type, _ body: (Database) throws -> Result) throws
        -> Result
    {
        try withDatabase(file: T.databaseFile) { db in
            try db.prepareTable(for: T.self)
            return try body(db)
        }
    }

    /// Runs a read of `type`'s table, or returns `empty` when the table does not exist yet: a read
    /// never creates or migrates a table.
    private func readTable<T: SelfManagingTable, Result>(
        _ type: T.Type, empty: Result, _ body: (Database) throws -> Result
    ) throws -> Result {
        try T.checkSchema()  // a type whose columns cannot be inferred says so, never "no rows"
        return try withDatabase(file: T.databaseFile) { db in
            guard try db.tableExists(T.tableName) else { return empty }
            return try body(db)
        }
    }

    /// Creates or migrates the table of `type` now rather than when first written, and returns what
    /// was done.
    @discardableResult
    public func migrate<T: SelfManagingTable>(_ type: T.Type, options: TableMigrationOptions = TableMigrationOptions())
        throws -> TableMigrationPlan
    {
        try withDatabase(file: T.databaseFile) { db in try db.migrateTable(for: T.self, options: options) }
    }

    /// Drops the table of `type`, if it exists.
    public func drop<T: SelfManagingTable>(_ type: T.Type) throws {
        try withDatabase(file: T.databaseFile) { db in try db.dropTable(for: T.self) }
    }

    // MARK: Records

    /// Inserts each record, or updates the row with its primary key, in one transaction; returns
    /// the records as saved (with new rowids).
    @discardableResult
    public func save<T: SelfManagingTable & PrimaryKeyedTable>(_ records: [T]) throws -> [T] {
        try writeTable(T.self) { db in try db.save(contentsOf: records) }
    }

    /// Every record of `type`.
    public func fetchAll<T: SelfManagingTable>(_ type: T.Type) throws -> [T] {
        try readTable(T.self, empty: []) { db in try T.all().fetchAll(db) }
    }

    /// The records of `type` matching `predicate`: `store.fetchAll(Player.self) { $0.score > 10 }`.
    public func fetchAll<T: SelfManagingTable>(
        _ type: T.Type, where predicate: (T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) throws -> [T] {
        let query = T.where(predicate)
        return try readTable(T.self, empty: []) { db in try query.fetchAll(db) }
    }

    /// The records of `type` matching raw SQL with bound values, in `order`: the escape hatch for
    /// what the typed predicates do not express.
    ///
    /// ```swift
    /// try store.fetchAll(Note.self, where: "json_extract(data, '$.index') > \(1)", orderBy: "id")
    /// ```
    public func fetchAll<T: SelfManagingTable>(_ type: T.Type, where condition: SQL, orderBy order: SQL? = nil) throws
        -> [T]
    {
        var query = T.where(sql: condition)
        if let order { query = query.order(sql: order) }
        return try readTable(T.self, empty: []) { db in try query.fetchAll(db) }
    }

    /// The number of records of `type`.
    public func fetchCount<T: SelfManagingTable>(_ type: T.Type) throws -> Int {
        try readTable(T.self, empty: 0) { db in try T.all().fetchCount(db) }
    }

    /// The number of records of `type` matching `predicate`.
    public func fetchCount<T: SelfManagingTable>(
        _ type: T.Type, where predicate: (T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) throws -> Int {
        let query = T.where(predicate)
        return try readTable(T.self, empty: 0) { db in try query.fetchCount(db) }
    }

    /// The number of records of `type` matching raw SQL with bound values.
    public func fetchCount<T: SelfManagingTable>(_ type: T.Type, where condition: SQL) throws -> Int {
        try readTable(T.self, empty: 0) { db in try T.where(sql: condition).fetchCount(db) }
    }

    /// Deletes the rows with the records' primary keys; returns how many there were.
    @discardableResult
    public func delete<T: SelfManagingTable & PrimaryKeyedTable>(_ records: [T]) throws -> Int {
        try readTable(T.self, empty: 0) { db in
            try db.savepoint { try records.reduce(0) { count, record in count + (try db.delete(record) ? 1 : 0) } }
        }
    }

    /// Deletes the records of `type` matching `predicate`; returns how many there were.
    @discardableResult
    public func deleteAll<T: SelfManagingTable>(
        _ type: T.Type, where predicate: (T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) throws -> Int {
        let delete = T.delete().where(predicate)
        return try readTable(T.self, empty: 0) { db in try delete.execute(db) }
    }

    /// Deletes the records of `type` matching raw SQL with bound values; returns how many there were.
    @discardableResult
    public func deleteAll<T: SelfManagingTable>(_ type: T.Type, where condition: SQL) throws -> Int {
        try readTable(T.self, empty: 0) { db in try T.delete().where(sql: condition).execute(db) }
    }

    /// Deletes every record of `type`; returns how many there were.
    @discardableResult
    public func deleteAll<T: SelfManagingTable>(_ type: T.Type) throws -> Int {
        try readTable(T.self, empty: 0) { db in try T.delete().execute(db) }
    }
}
