import CSQLite
import Foundation

/// Which tables a ``DatabaseSession`` records.
public enum SessionTables {
    /// Every table of the schema, including tables created while the session records.
    case all
    /// The named tables only.
    case named([String])
    /// The tables whose name `include` accepts, asked once per table, the first time the session
    /// sees a change to it. `include` runs inside SQLite's change callbacks: it must not use the
    /// connection.
    case matching(_ include: (String) -> Bool)
}

/// Records the changes made to tables of one connection, for a ``Changeset`` or ``Patchset``
/// (SQLite's `sqlite3_session`).
///
/// ```swift
/// let session = try DatabaseSession(db, tables: .named(["player"]))
/// try db.execute(sql: "UPDATE player SET score = score + 1")
/// let changeset = try session.changeset()
/// ```
///
/// A session records each changed row once, with its values from before the first change; the
/// changeset it produces compares them with the row as it is now, so a row changed then changed
/// back, or changed inside a transaction that rolled back, is not in it. Changes by any statement on
/// the connection are recorded, including those of triggers and foreign key actions.
///
/// Only tables with a `PRIMARY KEY` can be recorded (SQLite identifies rows by it): attaching a
/// table without one throws, and so does ``changeset()`` when a table without one changed, rather
/// than leaving its changes out silently. Rows whose primary key holds a `NULL` are not recorded.
///
/// A session belongs to its connection and is used like it, from one thread at a time. Closing the
/// connection deletes its sessions; using one afterwards throws. ``Database/recordingChangeset(of:schemaName:_:)``
/// records over a block of work.
public final class DatabaseSession {
    /// The connection whose changes are recorded.
    public let database: Database
    /// The schema recorded: `main`, `temp`, or an attached database's name.
    public let schemaName: String
    private let handle: SessionHandle
    /// The tables the session was asked to record, or that its filter accepted: checked for a
    /// primary key before a changeset is produced.
    private let recorded = RecordedTables()

    /// Starts recording changes to `tables` of `schemaName`.
    ///
    /// - Throws: ``ResultCode/error`` when the library lacks the session extension (SQLCipher);
    ///   ``ResultCode/misuse`` when a named table exists without a primary key; SQLite's error
    ///   when the schema is unknown.
    public init(_ database: Database, schemaName: String = "main", tables: SessionTables = .all) throws {
        try SessionExtension.requireAvailable()
        try database.checkOpen()
        self.database = database
        self.schemaName = schemaName
        var session: OpaquePointer?
        let code = sqlite3session_create(database.handle, schemaName, &session)
        guard code == SQLITE_OK, let session else {
            throw DatabaseError.lastError(of: database.handle, code: code == SQLITE_OK ? SQLITE_NOMEM : code)
        }
        handle = SessionHandle(session)
        database.sessions.register(handle)
        do {
            switch tables {
            case .all:
                recorded.filter = { _ in true }
                try attachAll()
            case .matching(let include):
                recorded.filter = include
                try attachAll()
            case .named(let names):
                for name in names { try attach(name) }
            }
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Stops recording and frees the session. Using the session afterwards throws; closing twice
    /// does nothing.
    public func close() {
        handle.delete()
        database.sessions.unregister(handle)
    }

    private func session() throws -> OpaquePointer {
        guard let pointer = handle.pointer else {
            throw DatabaseError(resultCode: .misuse, message: "the session is closed, or its connection is")
        }
        return pointer
    }

    /// Starts recording `table` as well.
    ///
    /// - Throws: ``ResultCode/misuse`` when the table exists without a primary key.
    public func attach(_ table: String) throws {
        let session = try session()
        if let hasKey = try database.sessionTableHasPrimaryKey(table, schemaName: schemaName), !hasKey {
            throw Self.noPrimaryKey([table])
        }
        let code = sqlite3session_attach(session, table)
        guard code == SQLITE_OK else { throw DatabaseError.lastError(of: database.handle, code: code) }
        recorded.names.insert(table)
    }

    private func attachAll() throws {
        let session = try session()
        let code = sqlite3session_attach(session, nil)
        guard code == SQLITE_OK else { throw DatabaseError.lastError(of: database.handle, code: code) }
        sqlite3session_table_filter(
            session, RecordedTables.filterCallback, Unmanaged.passUnretained(recorded).toOpaque())
    }

    /// Whether the session records changes. A disabled session keeps what it recorded and
    /// ignores changes until enabled again.
    public var isEnabled: Bool {
        get { handle.pointer.map { sqlite3session_enable($0, -1) != 0 } ?? false }
        set { if let pointer = handle.pointer { sqlite3session_enable(pointer, newValue ? 1 : 0) } }
    }

    /// Whether the changes recorded from now on are marked indirect
    /// (``ChangesetOperation/isIndirect``): work the application did not ask for directly.
    public var isIndirect: Bool {
        get { handle.pointer.map { sqlite3session_indirect($0, -1) != 0 } ?? false }
        set { if let pointer = handle.pointer { sqlite3session_indirect(pointer, newValue ? 1 : 0) } }
    }

    /// Whether no change was recorded. A row changed and changed back still counts as recorded
    /// here, though the changeset leaves it out.
    public var isEmpty: Bool { handle.pointer.map { sqlite3session_isempty($0) != 0 } ?? true }

    /// The changes recorded so far, as a changeset.
    ///
    /// - Throws: ``ResultCode/misuse`` when a recorded table has no primary key (its changes
    ///   could not be recorded), or SQLite's error.
    public func changeset() throws -> Changeset {
        Changeset(data: try produce(patchset: false))
    }

    /// The changes recorded so far, as a patchset.
    ///
    /// - Throws: As ``changeset()``.
    public func patchset() throws -> Patchset {
        Patchset(data: try produce(patchset: true))
    }

    /// Writes the changes recorded so far to `output` as a changeset, in pieces, in bounded memory.
    public func writeChangeset(to output: ChangesetOutput) throws {
        try stream(patchset: false, to: output)
    }

    /// Writes the changes recorded so far to `output` as a patchset, in pieces.
    public func writePatchset(to output: ChangesetOutput) throws {
        try stream(patchset: true, to: output)
    }

    /// Records, as changes, what it takes to turn `table` of the database `otherSchemaName`
    /// (attached to the connection) into `table` of this session's schema
    /// (`sqlite3session_diff`): the changeset then brings a copy up to date.
    ///
    /// - Throws: SQLite's error when the tables differ in their columns or primary key, or one is
    ///   missing.
    public func recordDifferences(of table: String, from otherSchemaName: String) throws {
        let session = try session()
        if recorded.filter == nil, !recorded.names.contains(table) { try attach(table) }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3session_diff(session, otherSchemaName, table, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            var error = DatabaseError.lastError(of: database.handle, code: code)
            if let message { error.message = String(cString: message) }
            throw error
        }
        recorded.names.insert(table)
    }

    private func produce(patchset: Bool) throws -> Data {
        let session = try session()
        try checkRecordedTables()
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let code =
            patchset
            ? sqlite3session_patchset(session, &size, &bytes) : sqlite3session_changeset(session, &size, &bytes)
        defer { sqlite3_free(bytes) }
        guard code == SQLITE_OK else { throw DatabaseError.lastError(of: database.handle, code: code) }
        return SessionExtension.data(bytes, count: size)
    }

    private func stream(patchset: Bool, to output: ChangesetOutput) throws {
        let session = try session()
        try checkRecordedTables()
        let context = ChangesetStreamContext(output: output)
        let code = withExtendedLifetime(context) {
            patchset
                ? sqlite3session_patchset_strm(session, ChangesetStreamContext.writeCallback, context.pointer)
                : sqlite3session_changeset_strm(session, ChangesetStreamContext.writeCallback, context.pointer)
        }
        try context.check(code, patchset ? "writing a patchset" : "writing a changeset")
    }

    /// Throws when a table the session records has no primary key: SQLite ignores its changes.
    private func checkRecordedTables() throws {
        var missing: [String] = []
        for name in recorded.names.sorted() {
            if let hasKey = try database.sessionTableHasPrimaryKey(name, schemaName: schemaName), !hasKey {
                missing.append(name)
            }
        }
        if !missing.isEmpty { throw Self.noPrimaryKey(missing) }
    }

    private static func noPrimaryKey(_ tables: [String]) -> DatabaseError {
        DatabaseError(
            resultCode: .misuse,
            message: "the session extension cannot record changes to "
                + tables.map { "'\($0)'" }.joined(separator: ", ").truncatedForMessages
                + " (no PRIMARY KEY): exclude the table from the session, or give it a primary key")
    }
}

/// The `sqlite3_session *` of a ``DatabaseSession``, shared with the connection's registry so that
/// closing the connection deletes the session first (SQLite requires it).
final class SessionHandle {
    private(set) var pointer: OpaquePointer?

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    func delete() {
        if let pointer { sqlite3session_delete(pointer) }
        pointer = nil
    }
}

/// The sessions open on a connection.
final class SessionRegistry {
    private var handles: [ObjectIdentifier: SessionHandle] = [:]

    func register(_ handle: SessionHandle) { handles[ObjectIdentifier(handle)] = handle }

    func unregister(_ handle: SessionHandle) { handles[ObjectIdentifier(handle)] = nil }

    /// Deletes every session, before the connection closes.
    func deleteAll() {
        for handle in handles.values { handle.delete() }
        handles.removeAll()
    }
}

/// The tables a session records, filled by the table filter SQLite calls on each table's first
/// change (a C callback: it only records names).
final class RecordedTables {
    var names: Set<String> = []
    var filter: ((String) -> Bool)?

    static let filterCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32 = {
        context, table in
        guard let context, let table else { return 0 }
        let tables = Unmanaged<RecordedTables>.fromOpaque(context).takeUnretainedValue()
        let name = String(cString: table)
        guard tables.filter?(name) ?? true else { return 0 }
        tables.names.insert(name)
        return 1
    }
}

extension Database {
    /// Whether `table` of `schemaName` has a primary key, or `nil` when there is no such table.
    func sessionTableHasPrimaryKey(_ table: String, schemaName: String) throws -> Bool? {
        let columns = try sessionTableColumns(table, schemaName: schemaName)
        return columns.isEmpty ? nil : columns.contains { $0 != 0 }
    }

    /// The primary key position of each column of `table` (0 for other columns), as the session
    /// extension compares them; empty when there is no such table.
    package func sessionTableColumns(_ table: String, schemaName: String = "main") throws -> [Int] {
        try fetchAll(Int.self, "SELECT pk FROM pragma_table_info(\(table), \(schemaName)) ORDER BY cid")
    }

    /// Records the changes `body` makes to `tables`, and returns them as a changeset beside the
    /// body's value. Nothing is recorded once `body` returns; when it throws, nothing is returned.
    ///
    /// ```swift
    /// let (_, changeset) = try db.recordingChangeset(of: .named(["player"])) {
    ///     try db.transaction {
    ///         try db.execute(sql: "UPDATE player SET score = 0")
    ///     }
    /// }
    /// ```
    ///
    /// Work inside a transaction that rolls back leaves no change in the changeset.
    public func recordingChangeset<Result>(
        of tables: SessionTables = .all, schemaName: String = "main", _ body: () throws -> Result
    ) throws -> (value: Result, changeset: Changeset) {
        let session = try DatabaseSession(self, schemaName: schemaName, tables: tables)
        defer { session.close() }
        let value = try body()
        return (value, try session.changeset())
    }

    /// As ``recordingChangeset(of:schemaName:_:)``, as a patchset.
    public func recordingPatchset<Result>(
        of tables: SessionTables = .all, schemaName: String = "main", _ body: () throws -> Result
    ) throws -> (value: Result, patchset: Patchset) {
        let session = try DatabaseSession(self, schemaName: schemaName, tables: tables)
        defer { session.close() }
        let value = try body()
        return (value, try session.patchset())
    }
}
