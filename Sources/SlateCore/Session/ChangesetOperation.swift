import CSQLite
import Foundation

/// One operation of a changeset or patchset: a row inserted, updated or deleted, with its old and
/// new values.
///
/// Values are by column position, in the order of the table's declaration. A value that the
/// format does not carry is `nil` (distinct from ``SQLValue/null``, SQL `NULL`):
///
/// | Operation | ``oldValues`` | ``newValues`` |
/// | --- | --- | --- |
/// | insert | all `nil` | every column |
/// | delete | every column (a patchset: the primary key only) | all `nil` |
/// | update | the primary key and the changed columns (a patchset: the primary key only) | the changed columns |
///
/// TEXT that is not valid UTF-8 reads as a ``SQLValue/blob(_:)`` of its bytes, as everywhere in
/// Slate.
public struct ChangesetOperation: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the row.
    public enum Kind: Sendable, Hashable {
        /// The row was inserted (`SQLITE_INSERT`).
        case insert
        /// The row was updated (`SQLITE_UPDATE`).
        case update
        /// The row was deleted (`SQLITE_DELETE`).
        case delete
    }

    /// The table's name (unqualified).
    public var tableName: String
    /// What happened to the row.
    public var kind: Kind
    /// Whether the change was made while the recording session was indirect
    /// (``DatabaseSession/isIndirect``), such as by a trigger the application did not ask for.
    public var isIndirect: Bool
    /// For each column, its position in the table's primary key (1 for the first key column), or
    /// 0 when it is not a key column: the `pk` column of `PRAGMA table_info`, as the changeset
    /// records it.
    public var primaryKeyPositions: [Int]
    /// The values before the change, by column (see the table above).
    public var oldValues: [SQLValue?]
    /// The values after the change, by column (see the table above).
    public var newValues: [SQLValue?]

    /// Creates an operation; ``ChangesetBuilder`` encodes operations into a changeset.
    public init(
        tableName: String,
        kind: Kind,
        isIndirect: Bool = false,
        primaryKeyPositions: [Int],
        oldValues: [SQLValue?],
        newValues: [SQLValue?]
    ) {
        self.tableName = tableName
        self.kind = kind
        self.isIndirect = isIndirect
        self.primaryKeyPositions = primaryKeyPositions
        self.oldValues = oldValues
        self.newValues = newValues
    }

    /// The number of columns of the table.
    public var columnCount: Int { primaryKeyPositions.count }

    /// Whether the column at `index` belongs to the primary key.
    public func isPrimaryKeyColumn(_ index: Int) -> Bool { primaryKeyPositions[index] != 0 }

    /// The primary key of the row, in column order: its old values for an update or delete, its
    /// new values for an insert.
    public var primaryKey: [SQLValue] {
        let source = kind == .insert ? newValues : oldValues
        var key: [SQLValue] = []
        for index in primaryKeyPositions.indices where primaryKeyPositions[index] != 0 {
            key.append(source[index] ?? .null)
        }
        return key
    }

    /// A short description such as `update player [1] score: 10 → 12`; values are cut short.
    public var description: String {
        var text = "\(kind) \(tableName) [" + primaryKey.map(\.shortDescription).joined(separator: ", ") + "]"
        if kind == .update {
            for index in newValues.indices where newValues[index] != nil {
                let old = oldValues[index].map(\.shortDescription) ?? "?"
                text += " #\(index): \(old) → \(newValues[index]?.shortDescription ?? "?")"
            }
        }
        return text
    }
}

extension ChangesetOperation.Kind {
    /// The kind of a `SQLITE_INSERT`, `SQLITE_UPDATE` or `SQLITE_DELETE` code.
    init?(code: Int32) {
        switch code {
        case SQLITE_INSERT: self = .insert
        case SQLITE_UPDATE: self = .update
        case SQLITE_DELETE: self = .delete
        default: return nil
        }
    }

    /// The operation's code.
    var code: Int32 {
        switch self {
        case .insert: SQLITE_INSERT
        case .update: SQLITE_UPDATE
        case .delete: SQLITE_DELETE
        }
    }
}

/// Reads the operations of a changeset or patchset one at a time (`sqlite3changeset_iter`).
///
/// ```swift
/// let cursor = try ChangesetCursor(changeset)
/// while let operation = try cursor.next() {
///     print(operation)
/// }
/// ```
///
/// A cursor reads from its own copy of the bytes, or from a ``ChangesetInput`` stream, so it holds
/// no reference to anything the caller keeps. Bytes that are malformed or truncated make ``next()``
/// throw ``ResultCode/corrupt``; after an error the cursor reports no more operations.
public final class ChangesetCursor {
    private var iterator: OpaquePointer?
    /// The bytes read, for a cursor over a value: SQLite reads them in place. Freed with the
    /// iterator.
    private var bytes: UnsafeMutableRawBufferPointer?
    /// The stream read, for a streaming cursor, and the error it threw.
    private let stream: ChangesetStreamContext?
    private var lastTable: ChangesetIteration.NameCache?
    private var isFinished = false

    /// A cursor over `changes`. With `inverted`, it reads the operations of the inverse changeset
    /// (a patchset cannot be inverted).
    public init(_ changes: some RecordedChanges, inverted: Bool = false) throws {
        try SessionExtension.requireAvailable()
        try ChangesetScanner.validate(changes.data)
        let size = try SessionExtension.cSize(of: changes.data)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, changes.data.count), alignment: 8)
        changes.data.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = copy.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        bytes = copy
        stream = nil
        var iterator: OpaquePointer?
        let code = sqlite3changeset_start_v2(
            &iterator, size, copy.baseAddress, inverted ? SQLITE_CHANGESETSTART_INVERT : 0)
        self.iterator = iterator
        if code != SQLITE_OK {
            release()
            throw SessionExtension.error(code, "reading a changeset")
        }
    }

    /// A cursor over the changeset or patchset `input` produces, read as the cursor advances, so
    /// a set of any size is read in bounded memory.
    public init(reading input: ChangesetInput, inverted: Bool = false) throws {
        try SessionExtension.requireAvailable()
        bytes = nil
        let stream = ChangesetStreamContext(input: input.validated())
        self.stream = stream
        var iterator: OpaquePointer?
        let code = sqlite3changeset_start_v2_strm(
            &iterator, ChangesetStreamContext.readCallback, stream.pointer,
            inverted ? SQLITE_CHANGESETSTART_INVERT : 0)
        self.iterator = iterator
        if code != SQLITE_OK {
            release()
            throw stream.error(code, "reading a changeset stream")
        }
    }

    deinit {
        release()
    }

    /// Finalizes the iterator and frees the bytes, once; returns what finalizing reported (the
    /// error of the iteration, if any).
    @discardableResult
    private func release() -> Int32 {
        var code = SQLITE_OK
        if let iterator { code = sqlite3changeset_finalize(iterator) }
        iterator = nil
        isFinished = true
        bytes?.deallocate()
        bytes = nil
        return code
    }

    /// The next operation, or `nil` after the last.
    ///
    /// - Throws: ``ResultCode/corrupt`` when the bytes are malformed or truncated, or the error
    ///   of a ``ChangesetInput``.
    public func next() throws -> ChangesetOperation? {
        guard try advance() else { return nil }
        return try currentOperation()
    }

    /// Moves to the next operation; `false` after the last. The current operation's details are
    /// then read with the package accessors below.
    package func advance() throws -> Bool {
        guard !isFinished, let iterator else { return false }
        let code = sqlite3changeset_next(iterator)
        if code == SQLITE_ROW { return true }
        // Finalizing reports the error of the iteration (SQLITE_CORRUPT for bad bytes).
        let finalCode = release()
        if code == SQLITE_DONE && finalCode == SQLITE_OK { return false }
        let failure = code == SQLITE_DONE ? finalCode : code
        if let stream { throw stream.error(failure, "reading a changeset stream") }
        throw SessionExtension.error(failure, "reading a changeset")
    }

    /// The current operation, as a value.
    package func currentOperation() throws -> ChangesetOperation {
        try ChangesetIteration.operation(of: currentIterator(), names: &lastTable)
    }

    /// The current operation's table, kind and primary key positions.
    package func currentHeader() throws -> ChangesetIteration.Header {
        try ChangesetIteration.header(of: currentIterator(), names: &lastTable)
    }

    /// The current operation's old value of `column` (`sqlite3_value *`, valid until the cursor
    /// moves), or `nil` when the operation does not carry it.
    package func oldValue(at column: Int) throws -> OpaquePointer? {
        try ChangesetIteration.value(of: currentIterator(), old: true, at: column)
    }

    /// The current operation's new value of `column`, as ``oldValue(at:)``.
    package func newValue(at column: Int) throws -> OpaquePointer? {
        try ChangesetIteration.value(of: currentIterator(), old: false, at: column)
    }

    private func currentIterator() throws -> OpaquePointer {
        guard let iterator else { throw Self.noCurrentOperation() }
        return iterator
    }

    private static func noCurrentOperation() -> DatabaseError {
        DatabaseError(resultCode: .misuse, message: "the changeset cursor has no current operation")
    }
}

/// Reading the operation an `sqlite3_changeset_iter` points at: for cursors, and for the conflict
/// handler of an apply, which is handed SQLite's own iterator.
package enum ChangesetIteration {
    /// An operation's table, kind and key.
    package struct Header {
        package var tableName: String
        package var kind: ChangesetOperation.Kind
        package var isIndirect: Bool
        package var columnCount: Int
        package var primaryKeyPositions: [Int]
    }

    /// The last table name read, so that consecutive operations on one table make one `String`.
    /// Compared by its own bytes: SQLite's pointer to the previous name may be freed by now.
    package typealias NameCache = String

    static func header(of iterator: OpaquePointer, names: inout NameCache?) throws -> Header {
        var table: UnsafePointer<CChar>?
        var columnCount: Int32 = 0
        var operation: Int32 = 0
        var indirect: Int32 = 0
        var code = sqlite3changeset_op(iterator, &table, &columnCount, &operation, &indirect)
        guard code == SQLITE_OK, let table, let kind = ChangesetOperation.Kind(code: operation) else {
            throw SessionExtension.error(code == SQLITE_OK ? SQLITE_CORRUPT : code, "reading a changeset")
        }
        var flags: UnsafeMutablePointer<UInt8>?
        var flagCount: Int32 = 0
        code = sqlite3changeset_pk(iterator, &flags, &flagCount)
        guard code == SQLITE_OK, flagCount == columnCount else {
            throw SessionExtension.error(code == SQLITE_OK ? SQLITE_CORRUPT : code, "reading a changeset")
        }
        let positions = (0..<Int(flagCount)).map { Int(flags?[$0] ?? 0) }
        let name: String
        if let last = names, last.withCString({ strcmp($0, table) == 0 }) {
            name = last
        } else {
            name = String(cString: table)
            names = name
        }
        return Header(
            tableName: name, kind: kind, isIndirect: indirect != 0, columnCount: Int(columnCount),
            primaryKeyPositions: positions)
    }

    static func value(of iterator: OpaquePointer, old: Bool, at column: Int) throws -> OpaquePointer? {
        var value: OpaquePointer?
        let code =
            old
            ? sqlite3changeset_old(iterator, Int32(column), &value)
            : sqlite3changeset_new(iterator, Int32(column), &value)
        if code != SQLITE_OK { throw SessionExtension.error(code, "reading a changeset") }
        return value
    }

    static func operation(of iterator: OpaquePointer, names: inout NameCache?) throws -> ChangesetOperation {
        let header = try header(of: iterator, names: &names)
        var old = [SQLValue?](repeating: nil, count: header.columnCount)
        var new = [SQLValue?](repeating: nil, count: header.columnCount)
        for column in 0..<header.columnCount {
            if header.kind != .insert {
                old[column] = try value(of: iterator, old: true, at: column).map { FunctionArguments.readValue($0) }
            }
            if header.kind != .delete {
                new[column] = try value(of: iterator, old: false, at: column).map { FunctionArguments.readValue($0) }
            }
        }
        return ChangesetOperation(
            tableName: header.tableName, kind: header.kind, isIndirect: header.isIndirect,
            primaryKeyPositions: header.primaryKeyPositions, oldValues: old, newValues: new)
    }
}
