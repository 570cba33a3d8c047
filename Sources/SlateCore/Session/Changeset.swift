import CSQLite
import Foundation

// Changesets and patchsets as values: the bytes SQLite's session extension writes, with what can be
// done to them without a connection (iterate, invert, concatenate). Recording them is
// `DatabaseSession` (DatabaseSession.swift); applying them is `Database.apply` (Database+Changesets.swift).

/// The changes a ``DatabaseSession`` recorded, in one of the session extension's two formats:
/// ``Changeset`` or ``Patchset``.
///
/// Both are plain bytes (``data``), which can be stored, sent and compared; reading them goes
/// through SQLite, which checks them: bytes that are not a well-formed changeset (truncated,
/// corrupted, made up) throw a ``DatabaseError`` with ``ResultCode/corrupt`` and never crash.
public protocol RecordedChanges: Sendable, Hashable {
    /// The bytes, in SQLite's changeset or patchset format.
    var data: Data { get }

    /// Wraps bytes read back from storage or the network. Nothing is checked until the bytes
    /// are read (iterated, applied, inverted, concatenated).
    init(data: Data)

    /// Whether the format is the patchset one.
    static var isPatchset: Bool { get }
}

extension RecordedChanges {
    /// Whether there is no change at all (no bytes).
    public var isEmpty: Bool { data.isEmpty }

    /// The operations, in order, each with its old and new values.
    ///
    /// - Throws: ``ResultCode/corrupt`` when the bytes are malformed or truncated.
    public func operations() throws -> [ChangesetOperation] {
        let cursor = try ChangesetCursor(self)
        var operations: [ChangesetOperation] = []
        while let operation = try cursor.next() { operations.append(operation) }
        return operations
    }

    /// The changes of `groups` then of `self`, as one value of the same format, combined as
    /// SQLite's `sqlite3changegroup` does: changes to the same row merge into one (an insert then
    /// an update is an insert of the updated row; an insert then a delete is nothing).
    ///
    /// - Throws: ``ResultCode/corrupt`` when any of the inputs is malformed;
    ///   ``ResultCode/schema`` when they describe one table with different columns.
    public func concatenated(with others: [Self]) throws -> Self {
        let group = try ChangesetGroup()
        try group.add(self)
        for other in others { try group.add(other) }
        return try group.output(Self.self)
    }

    /// ``concatenated(with:)`` of one other value.
    public func concatenated(with other: Self) throws -> Self {
        try concatenated(with: [other])
    }

    /// Calls `body` for each operation, in order, without collecting them.
    ///
    /// - Throws: ``ResultCode/corrupt`` when the bytes are malformed, or what `body` throws.
    public func forEachOperation(_ body: (ChangesetOperation) throws -> Void) throws {
        let cursor = try ChangesetCursor(self)
        while let operation = try cursor.next() { try body(operation) }
    }
}

/// A changeset: for each changed row, its primary key, the old values of the changed columns and
/// their new values (a deleted row's every old value, an inserted row's every new value).
///
/// A changeset can be inverted (``inverted()``) and applied with full conflict detection: an
/// update or delete whose old values no longer match the database is a
/// ``ChangesetConflictKind/data`` conflict.
public struct Changeset: RecordedChanges {
    public var data: Data

    public init(data: Data) { self.data = data }

    public static var isPatchset: Bool { false }

    /// The changeset that undoes this one: inserts become deletes and deletes inserts, and each
    /// update swaps its old and new values. Applying a changeset then its inverse leaves the
    /// database as it was.
    ///
    /// - Throws: ``ResultCode/corrupt`` when the bytes are malformed or truncated.
    public func inverted() throws -> Changeset {
        try SessionExtension.requireAvailable()
        guard !data.isEmpty else { return self }
        try ChangesetScanner.validate(data)
        let size = try SessionExtension.cSize(of: data)
        var outputSize: Int32 = 0
        var output: UnsafeMutableRawPointer?
        let code = data.withUnsafeBytes { bytes in
            sqlite3changeset_invert(size, bytes.baseAddress, &outputSize, &output)
        }
        defer { sqlite3_free(output) }
        try SessionExtension.check(code, "inverting a changeset")
        return Changeset(data: SessionExtension.data(output, count: outputSize))
    }
}

/// A patchset: like a changeset, but an update records only the new values of the changed columns
/// and a delete only the primary key, so it is smaller.
///
/// Without old values, applying one detects fewer conflicts (an update never meets a
/// ``ChangesetConflictKind/data`` conflict: it overwrites), and it cannot be inverted.
public struct Patchset: RecordedChanges {
    public var data: Data

    public init(data: Data) { self.data = data }

    public static var isPatchset: Bool { true }
}

// MARK: - The C API's conventions, once

/// The checks every call into the session extension shares.
enum SessionExtension {
    /// Throws when the library Slate links was built without the session extension (SQLCipher).
    static func requireAvailable() throws {
        guard slate_session_is_available() != 0 else {
            throw DatabaseError(
                resultCode: .error,
                message:
                    "the session extension (changesets and patchsets) is not available: the SQLite library in use ("
                    + Database.sqliteVersion
                    + ") was built without SQLITE_ENABLE_SESSION; SQLCipher 3.4.1 has no session extension")
        }
    }

    /// The size of `data` as the C API's `int`, or an error when it is 2 GiB or more (use the
    /// streaming forms for larger sets).
    static func cSize(of data: Data) throws -> Int32 {
        guard let size = Int32(exactly: data.count) else {
            throw DatabaseError(
                resultCode: .tooBig,
                message:
                    "a changeset of \(data.count) bytes is too large for SQLite's in-memory calls: use the streaming forms"
            )
        }
        return size
    }

    /// Throws a ``DatabaseError`` for a failing `code` of a call that has no connection.
    static func check(_ code: Int32, _ what: String) throws {
        guard code != SQLITE_OK else { return }
        throw error(code, what)
    }

    static func error(_ code: Int32, _ what: String) -> DatabaseError {
        let reason: String
        switch code & 0xFF {
        case SQLITE_CORRUPT: reason = "the changeset is malformed or truncated"
        case SQLITE_SCHEMA: reason = "the changesets describe the same table with different columns or primary keys"
        case SQLITE_NOMEM: reason = "out of memory"
        default: reason = String(cString: sqlite3_errstr(code))
        }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: "\(what): \(reason)")
    }

    /// Copies a buffer SQLite allocated (the caller frees it).
    static func data(_ pointer: UnsafeMutableRawPointer?, count: Int32) -> Data {
        guard let pointer, count > 0 else { return Data() }
        return Data(bytes: pointer, count: Int(count))
    }
}
