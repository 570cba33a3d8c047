import CSQLite
import Foundation

/// Walks the bytes of a changeset or patchset, in pieces as they arrive, checks that they are well
/// formed, and reports each table header: the table, its column count and its primary key columns.
/// It builds no value.
///
/// Every call that hands bytes to the session extension checks them here first, because SQLite
/// 3.40's own checks are not complete: `sqlite3changegroup_add` reads past the end of its buffer
/// when a primary key field of a record is undefined (found by Slate's random-damage tests). The rules are the
/// documented format (sqlite3session.c, "CHANGESET FORMAT" and "PATCHSET FORMAT"): known operation
/// codes and value types, lengths within the bytes, nothing cut short at the end, at least one
/// primary key column per table; an insert's and a delete's fields all defined, their key fields
/// not `NULL`; an update's old key fields defined and not `NULL` and its new key fields undefined,
/// and each other column defined in both its records or in neither.
///
/// `Database.apply` also compares the headers with the database's tables before SQLite applies
/// anything: SQLite skips, without an error, every change to a table that is missing or has other
/// columns or another primary key.
package struct ChangesetScanner {
    /// One table header.
    package struct TableHeader: Hashable, Sendable {
        package var name: String
        package var primaryKeyPositions: [Int]
        package var isPatchset: Bool
    }

    /// Where the walk is: inside which part of the format, with what is left of it.
    private enum State {
        /// Between operations: a table header (`T`, `P`) or an operation code comes next.
        case boundary
        case columnCount(value: UInt64, length: Int)
        case primaryKeyFlags(remaining: Int)
        case tableName
        case indirectFlag
        case valueType
        case fixedValue(remaining: Int)
        case valueLength(value: UInt64, length: Int)
        case valuePayload(remaining: Int)
    }

    private var state = State.boundary
    private var header: TableHeader?
    private var columnCount = 0
    private var flags: [Int] = []
    private var name: [UInt8] = []
    private var isPatchset = false
    /// What a record's fields must be.
    private enum Role {
        /// An insert's new record, a changeset delete's old record: every field defined.
        case whole
        /// A patchset delete's record: the key fields only, each defined.
        case keyOnly
        /// A changeset update's old record: key fields defined; which others are is remembered.
        case updateOld
        /// A changeset update's new record: key fields undefined; the others as in the old record.
        case updateNew
        /// A patchset update's record: key fields defined, the others any.
        case patchUpdate
    }

    /// The records left in the current operation, the current one first.
    private var records: [Role] = []
    /// The field of the current record the next value belongs to.
    private var fieldIndex = 0
    /// The columns of the current table's primary key, in column order.
    private var keyColumns: [Int] = []
    /// For a changeset update, which columns its old record defines.
    private var definedInOld: [Bool] = []
    /// The number of operations walked.
    package private(set) var operationCount = 0
    private let onTable: (TableHeader) throws -> Void

    /// A scanner that calls `onTable` with each table header as soon as it is complete.
    package init(onTable: @escaping (TableHeader) throws -> Void) {
        self.onTable = onTable
    }

    private static func corrupt(_ reason: String) -> DatabaseError {
        DatabaseError(resultCode: .corrupt, message: "the changeset is malformed or truncated: \(reason)")
    }

    /// Walks the next piece of the bytes.
    ///
    /// - Throws: ``ResultCode/corrupt`` at the first byte that cannot be where it is, or what
    ///   `onTable` throws.
    package mutating func consume(_ bytes: UnsafeRawBufferPointer) throws {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .boundary:
                index += 1
                if byte == UInt8(ascii: "T") || byte == UInt8(ascii: "P") {
                    isPatchset = byte == UInt8(ascii: "P")
                    state = .columnCount(value: 0, length: 0)
                    continue
                }
                guard header != nil else { throw Self.corrupt("an operation before any table header") }
                guard let kind = ChangesetOperation.Kind(code: Int32(byte)) else {
                    throw Self.corrupt("unknown operation code \(byte)")
                }
                operationCount += 1
                switch (kind, isPatchset) {
                case (.insert, _), (.delete, false): records = [.whole]
                case (.delete, true): records = [.keyOnly]
                case (.update, false): records = [.updateOld, .updateNew]
                case (.update, true): records = [.patchUpdate]
                }
                fieldIndex = 0
                state = .indirectFlag
            case .columnCount(let value, let length):
                index += 1
                let (next, done) = Self.varintStep(value, byte, length)
                if !done {
                    state = .columnCount(value: next, length: length + 1)
                    continue
                }
                guard next > 0, next <= 32767 else { throw Self.corrupt("a table of \(next) columns") }
                columnCount = Int(next)
                flags = []
                state = .primaryKeyFlags(remaining: columnCount)
            case .primaryKeyFlags(let remaining):
                index += 1
                flags.append(Int(byte))
                if remaining > 1 {
                    state = .primaryKeyFlags(remaining: remaining - 1)
                } else {
                    name = []
                    state = .tableName
                }
            case .tableName:
                // The name runs to its NUL: take what this piece holds of it at once.
                let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
                if let end = rest.firstIndex(of: 0) {
                    name.append(contentsOf: rest[..<end])
                    index += end - rest.startIndex + 1
                    guard name.count <= 65536 else { throw Self.corrupt("a table name of \(name.count) bytes") }
                    guard !name.isEmpty else { throw Self.corrupt("a table without a name") }
                    keyColumns = flags.indices.filter { flags[$0] != 0 }
                    guard !keyColumns.isEmpty else { throw Self.corrupt("a table without a primary key column") }
                    let table = TableHeader(
                        name: String(decoding: name, as: UTF8.self), primaryKeyPositions: flags,
                        isPatchset: isPatchset)
                    header = table
                    state = .boundary
                    try onTable(table)
                } else {
                    name.append(contentsOf: rest)
                    index = bytes.count
                    guard name.count <= 65536 else { throw Self.corrupt("a table name of \(name.count) bytes") }
                }
            case .indirectFlag:
                index += 1
                state = .valueType
            case .valueType:
                index += 1
                try checkField(type: byte)
                switch Int32(byte) {
                case 0, SQLITE_NULL: fieldDone()
                case SQLITE_INTEGER, SQLITE_FLOAT: state = .fixedValue(remaining: 8)
                case SQLITE_TEXT, SQLITE_BLOB: state = .valueLength(value: 0, length: 0)
                default: throw Self.corrupt("unknown value type \(byte)")
                }
            case .fixedValue(let remaining):
                let taken = min(remaining, bytes.count - index)
                index += taken
                if taken == remaining { fieldDone() } else { state = .fixedValue(remaining: remaining - taken) }
            case .valueLength(let value, let length):
                index += 1
                let (next, done) = Self.varintStep(value, byte, length)
                if !done {
                    state = .valueLength(value: next, length: length + 1)
                    continue
                }
                guard next <= UInt64(Int32.max) else { throw Self.corrupt("a value of \(next) bytes") }
                if next == 0 { fieldDone() } else { state = .valuePayload(remaining: Int(next)) }
            case .valuePayload(let remaining):
                let taken = min(remaining, bytes.count - index)
                index += taken
                if taken == remaining { fieldDone() } else { state = .valuePayload(remaining: remaining - taken) }
            }
        }
    }

    /// Checks that the bytes ended between two operations.
    package func finish() throws {
        guard case .boundary = state else { throw Self.corrupt("the bytes end inside a table header or a record") }
    }

    /// One step of SQLite's varint: the value so far and whether it is complete.
    private static func varintStep(_ value: UInt64, _ byte: UInt8, _ length: Int) -> (UInt64, Bool) {
        if length == 8 { return ((value << 8) | UInt64(byte), true) }
        let next = (value << 7) | UInt64(byte & 0x7F)
        return (next, byte & 0x80 == 0)
    }

    /// The number of fields of a record of `role`.
    private func fieldCount(_ role: Role) -> Int {
        role == .keyOnly ? keyColumns.count : columnCount
    }

    /// Checks the type of the field at `fieldIndex` against what its record allows.
    private mutating func checkField(type: UInt8) throws {
        guard let role = records.first else { throw Self.corrupt("a value outside any record") }
        let column = role == .keyOnly ? keyColumns[fieldIndex] : fieldIndex
        let isKey = flags[column] != 0
        let isDefined = type != 0
        let isValue = type >= 1 && type <= 4
        switch role {
        case .whole:
            guard isDefined else { throw Self.corrupt("an undefined field in an insert or delete") }
            guard !isKey || isValue else { throw Self.corrupt("a NULL primary key field") }
        case .keyOnly, .patchUpdate:
            guard !isKey || isValue else { throw Self.corrupt("a missing or NULL primary key field") }
        case .updateOld:
            if fieldIndex == 0 { definedInOld = [] }
            definedInOld.append(isDefined)
            guard !isKey || isValue else { throw Self.corrupt("a missing or NULL primary key field") }
        case .updateNew:
            if isKey {
                guard !isDefined else { throw Self.corrupt("an update that sets a primary key field") }
            } else if isDefined != definedInOld[column] {
                throw Self.corrupt("an update field defined in one of its records only")
            }
        }
    }

    private mutating func fieldDone() {
        fieldIndex += 1
        guard let role = records.first, fieldIndex >= fieldCount(role) else {
            state = .valueType
            return
        }
        records.removeFirst()
        fieldIndex = 0
        state = records.isEmpty ? .boundary : .valueType
    }
}

extension ChangesetScanner {
    /// Checks that `data` is a well-formed changeset or patchset, calling `onTable` with each table
    /// header.
    ///
    /// - Throws: ``ResultCode/corrupt`` when it is not, or what `onTable` throws.
    package static func validate(
        _ data: Data, onTable: @escaping (TableHeader) throws -> Void = { _ in }
    ) throws {
        var scanner = ChangesetScanner(onTable: onTable)
        try data.withUnsafeBytes { try scanner.consume($0) }
        try scanner.finish()
    }
}

extension ChangesetInput {
    /// This input, checked by a ``ChangesetScanner`` as it is read: the read that hands over
    /// malformed bytes, or ends in the middle of a record, throws instead.
    func validated(onTable: @escaping (ChangesetScanner.TableHeader) throws -> Void = { _ in }) -> ChangesetInput {
        var scanner = ChangesetScanner(onTable: onTable)
        let read = self.read
        return ChangesetInput { buffer in
            let count = try read(buffer)
            guard count > 0, count <= buffer.count else {
                if count == 0 { try scanner.finish() }
                return count
            }
            try scanner.consume(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            return count
        }
    }
}
