import CSQLite
import Foundation

/// Writes operations into a changeset, in SQLite's format, without a session: to build a changeset
/// by hand, or to keep some operations of another one.
///
/// ```swift
/// var builder = ChangesetBuilder()
/// for operation in try changeset.operations() where operation.tableName != "log" {
///     try builder.append(operation)
/// }
/// let withoutLog = builder.changeset()
/// ```
///
/// Each operation is checked before it is written (see ``append(_:)``), so what comes out is a
/// changeset SQLite reads, inverts and applies.
public struct ChangesetBuilder: Sendable {
    private var bytes: [UInt8] = []
    private var currentTable: (name: String, primaryKeyPositions: [Int])?

    /// An empty builder.
    public init() {}

    /// The changeset written so far.
    public func changeset() -> Changeset { Changeset(data: Data(bytes)) }

    /// Whether no operation was written.
    public var isEmpty: Bool { bytes.isEmpty }

    /// Writes `operation`.
    ///
    /// - Throws: ``ResultCode/misuse``, writing nothing, when the operation is not one a changeset
    ///   can hold: its values are not one per column; the table has no primary key column; an
    ///   insert lacks a new value or a delete an old one; a primary key value is `NULL` or missing;
    ///   an update changes no column, changes a primary key column (a session records that as a
    ///   delete and an insert), or lacks the old value of a column it changes.
    public mutating func append(_ operation: ChangesetOperation) throws {
        try Self.validate(operation)
        beginOperation(
            table: operation.tableName, primaryKeyPositions: operation.primaryKeyPositions, kind: operation.kind,
            isIndirect: operation.isIndirect)
        if operation.kind != .insert {
            for value in operation.oldValues { appendValue(value) }
        }
        if operation.kind != .delete {
            for value in operation.newValues { appendValue(value) }
        }
    }

    private static func validate(_ operation: ChangesetOperation) throws {
        func refuse(_ reason: String) -> DatabaseError {
            DatabaseError(
                resultCode: .misuse,
                message:
                    "a changeset cannot hold this operation (\(operation.description.truncatedForMessages)): \(reason)"
            )
        }
        let count = operation.primaryKeyPositions.count
        guard count > 0, operation.oldValues.count == count, operation.newValues.count == count else {
            throw refuse("it needs one old and one new value (or nil) per column, and at least one column")
        }
        let positions = operation.primaryKeyPositions.filter { $0 != 0 }.sorted()
        guard !positions.isEmpty else { throw refuse("the table has no primary key column") }
        guard positions == Array(1...positions.count) else {
            throw refuse("the primary key positions are not 1, 2, … once each")
        }
        guard !operation.tableName.utf8.contains(0) else { throw refuse("the table name contains a NUL character") }
        for column in 0..<count {
            let old = operation.oldValues[column]
            let new = operation.newValues[column]
            let isKey = operation.primaryKeyPositions[column] != 0
            switch operation.kind {
            case .insert:
                guard old == nil, let new else { throw refuse("an insert has every new value and no old value") }
                if isKey, new.isNull { throw refuse("primary key column \(column) is NULL") }
            case .delete:
                guard new == nil, let old else { throw refuse("a delete has every old value and no new value") }
                if isKey, old.isNull { throw refuse("primary key column \(column) is NULL") }
            case .update:
                if isKey {
                    guard let old, !old.isNull else { throw refuse("primary key column \(column) has no old value") }
                    guard new == nil else { throw refuse("an update cannot change primary key column \(column)") }
                } else if new != nil, old == nil {
                    throw refuse("column \(column) changes but has no old value")
                }
            }
        }
        if operation.kind == .update, !operation.newValues.contains(where: { $0 != nil }) {
            throw refuse("an update changes at least one column")
        }
    }

    // MARK: Writing piece by piece (for the sync layer, which copies values exactly)

    /// Starts an operation: writes the table header when the table differs from the previous
    /// operation's, then the operation's code and indirect flag. The caller then appends the
    /// records' values (old, then new), one per column, and is responsible for the operation
    /// being one that ``append(_:)`` would accept.
    package mutating func beginOperation(
        table: String, primaryKeyPositions: [Int], kind: ChangesetOperation.Kind, isIndirect: Bool
    ) {
        if currentTable?.name != table || currentTable?.primaryKeyPositions != primaryKeyPositions {
            bytes.append(UInt8(ascii: "T"))
            appendVarint(UInt64(primaryKeyPositions.count))
            for position in primaryKeyPositions { bytes.append(UInt8(clamping: position)) }
            bytes.append(contentsOf: table.utf8)
            bytes.append(0)
            currentTable = (table, primaryKeyPositions)
        }
        bytes.append(UInt8(truncatingIfNeeded: kind.code))
        bytes.append(isIndirect ? 1 : 0)
    }

    /// Appends one field: `nil` is "undefined" (a value the record does not carry).
    package mutating func appendValue(_ value: SQLValue?) {
        guard let value else {
            bytes.append(0)
            return
        }
        switch value {
        case .null:
            bytes.append(UInt8(SQLITE_NULL))
        case .integer(let integer):
            bytes.append(UInt8(SQLITE_INTEGER))
            appendBigEndian(UInt64(bitPattern: integer))
        case .real(let real):
            bytes.append(UInt8(SQLITE_FLOAT))
            appendBigEndian(real.bitPattern)
        case .text(let text):
            bytes.append(UInt8(SQLITE_TEXT))
            appendVarint(UInt64(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        case .blob(let data):
            bytes.append(UInt8(SQLITE_BLOB))
            appendVarint(UInt64(data.count))
            bytes.append(contentsOf: data)
        }
    }

    /// Appends one field copied exactly from an `sqlite3_value` (its storage class and bytes: text
    /// that is not valid UTF-8 stays text), or "undefined" for `nil`.
    package mutating func appendValue(raw value: OpaquePointer?) {
        guard let value else {
            bytes.append(0)
            return
        }
        let type = sqlite3_value_type(value)
        switch type {
        case SQLITE_INTEGER:
            bytes.append(UInt8(SQLITE_INTEGER))
            appendBigEndian(UInt64(bitPattern: sqlite3_value_int64(value)))
        case SQLITE_FLOAT:
            bytes.append(UInt8(SQLITE_FLOAT))
            appendBigEndian(sqlite3_value_double(value).bitPattern)
        case SQLITE_TEXT, SQLITE_BLOB:
            // The pointer first, then the size: the size of the form just read.
            let pointer =
                type == SQLITE_TEXT ? sqlite3_value_text(value).map(UnsafeRawPointer.init) : sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            bytes.append(UInt8(type))
            appendVarint(UInt64(count))
            if let pointer, count > 0 {
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: pointer, count: count))
            }
        default:
            bytes.append(UInt8(SQLITE_NULL))
        }
    }

    private mutating func appendBigEndian(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// SQLite's varint: 7 bits per byte, most significant group first, the high bit set on all
    /// bytes but the last; a ninth byte, when needed, carries 8 bits.
    private mutating func appendVarint(_ value: UInt64) {
        if value > 0x00FF_FFFF_FFFF_FFFF {
            // Nine bytes: eight groups of 7 bits, then the low 8 bits whole.
            var high = value >> 8
            var groups: [UInt8] = []
            for _ in 0..<8 {
                groups.append(UInt8(high & 0x7F) | 0x80)
                high >>= 7
            }
            bytes.append(contentsOf: groups.reversed())
            bytes.append(UInt8(truncatingIfNeeded: value))
            return
        }
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest != 0 {
            groups.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(contentsOf: groups.reversed())
    }
}
