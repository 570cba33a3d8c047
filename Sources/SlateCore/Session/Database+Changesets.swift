import CSQLite
import Foundation

/// Why a change could not be applied as recorded (`SQLITE_CHANGESET_*`).
public enum ChangesetConflictKind: Sendable, Hashable, CustomStringConvertible {
    /// The row to update or delete exists, but its values are not the change's old values: it
    /// changed since the changeset was recorded (`SQLITE_CHANGESET_DATA`). Answers: omit, replace
    /// (apply the change anyway), abort.
    case data
    /// The row to update or delete does not exist (`SQLITE_CHANGESET_NOTFOUND`). Answers: omit,
    /// abort.
    case notFound
    /// The row to insert already exists (`SQLITE_CHANGESET_CONFLICT`). Answers: omit, replace
    /// (overwrite the row), abort.
    case conflict
    /// The change violates a constraint: `UNIQUE`, `CHECK`, `NOT NULL`
    /// (`SQLITE_CHANGESET_CONSTRAINT`). Answers: omit, abort.
    case constraint
    /// Once every change is applied, foreign keys are violated (`SQLITE_CHANGESET_FOREIGN_KEY`):
    /// reported once, at the end, with the number of violations. Answers: omit (commit with the
    /// violations), abort.
    case foreignKey

    init?(code: Int32) {
        switch code {
        case SQLITE_CHANGESET_DATA: self = .data
        case SQLITE_CHANGESET_NOTFOUND: self = .notFound
        case SQLITE_CHANGESET_CONFLICT: self = .conflict
        case SQLITE_CHANGESET_CONSTRAINT: self = .constraint
        case SQLITE_CHANGESET_FOREIGN_KEY: self = .foreignKey
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .data: "data"
        case .notFound: "not found"
        case .conflict: "conflict"
        case .constraint: "constraint"
        case .foreignKey: "foreign key"
        }
    }
}

/// A conflict handler's answer (`SQLITE_CHANGESET_OMIT`, `_REPLACE`, `_ABORT`).
public enum ChangesetConflictResolution: Sendable, Hashable {
    /// Skips the change and goes on.
    case omit
    /// Applies the change anyway: for a ``ChangesetConflictKind/data`` conflict, updates or
    /// deletes the row whatever its values; for a ``ChangesetConflictKind/conflict``, replaces the
    /// existing row. Only these two kinds take it.
    case replace
    /// Stops, undoes every change applied so far, and makes the apply throw ``ResultCode/abort``.
    case abort
}

/// A conflict met while applying a changeset, as the conflict handler sees it.
public struct ChangesetConflict: Sendable, Hashable, CustomStringConvertible {
    /// Why the change could not be applied as recorded.
    public var kind: ChangesetConflictKind
    /// The change, with its old and new values; `nil` for ``ChangesetConflictKind/foreignKey``,
    /// which concerns the changeset as a whole.
    public var operation: ChangesetOperation?
    /// For a ``ChangesetConflictKind/data`` or ``ChangesetConflictKind/conflict`` conflict, the
    /// row as it is in the database, by column.
    public var conflictingRow: [SQLValue]?
    /// For a ``ChangesetConflictKind/foreignKey`` conflict, the number of foreign key violations;
    /// 0 otherwise.
    public var foreignKeyViolationCount: Int

    public init(
        kind: ChangesetConflictKind, operation: ChangesetOperation?, conflictingRow: [SQLValue]? = nil,
        foreignKeyViolationCount: Int = 0
    ) {
        self.kind = kind
        self.operation = operation
        self.conflictingRow = conflictingRow
        self.foreignKeyViolationCount = foreignKeyViolationCount
    }

    public var description: String {
        if kind == .foreignKey { return "foreign key conflict: \(foreignKeyViolationCount) violation(s)" }
        return "\(kind) conflict: \(operation?.description ?? "?")"
    }
}

/// How ``Database/apply(_:options:filter:onConflict:)`` applies a changeset.
public struct ChangesetApplyOptions: Sendable, Hashable {
    /// Whether the changes are applied inside a savepoint (the default), so that an abort or an
    /// error undoes them all. Without it (`SQLITE_CHANGESETAPPLY_NOSAVEPOINT`), an error leaves the
    /// changes applied so far: run the apply inside your own transaction.
    public var usesSavepoint = true
    /// Whether the inverse of the changeset is applied (`SQLITE_CHANGESETAPPLY_INVERT`), as
    /// ``Changeset/inverted()`` would give it. A patchset cannot be inverted.
    public var inverts = false
    /// Whether each table of the changeset is checked against the database first (the default):
    /// it must exist with as many columns and the same primary key. SQLite itself skips, without an
    /// error, every change to a table that does not match; with the check, the apply throws
    /// ``ResultCode/schema`` before changing anything.
    public var checksTables = true

    public init(usesSavepoint: Bool = true, inverts: Bool = false, checksTables: Bool = true) {
        self.usesSavepoint = usesSavepoint
        self.inverts = inverts
        self.checksTables = checksTables
    }

    var flags: Int32 {
        (usesSavepoint ? 0 : SQLITE_CHANGESETAPPLY_NOSAVEPOINT) | (inverts ? SQLITE_CHANGESETAPPLY_INVERT : 0)
    }
}

extension Database {
    /// Applies a changeset or patchset to the main database (`sqlite3changeset_apply_v2`), asking
    /// `onConflict` what to do with each change that cannot be applied as recorded.
    ///
    /// ```swift
    /// try db.apply(changeset) { conflict in
    ///     switch conflict.kind {
    ///     case .data, .conflict: return .replace   // the changeset wins
    ///     case .notFound: return .omit             // already deleted
    ///     case .constraint, .foreignKey: return .abort
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - filter: Which tables to apply, asked once per table; `nil` applies every table.
    ///   - onConflict: Called for each conflict, on this thread, while SQLite applies the changes:
    ///     it may read the database but must not change it. An error it throws aborts the apply,
    ///     which rethrows it.
    /// - Throws: ``ResultCode/schema`` when a table of the changeset is missing or differs (see
    ///   ``ChangesetApplyOptions/checksTables``); ``ResultCode/corrupt`` when the bytes are
    ///   malformed or truncated; ``ResultCode/abort`` when `onConflict` answered
    ///   ``ChangesetConflictResolution/abort``; ``ResultCode/misuse`` when it answered
    ///   ``ChangesetConflictResolution/replace`` to a kind that does not take it. With the default
    ///   savepoint, nothing is applied when it throws.
    public func apply<Changes: RecordedChanges>(
        _ changes: Changes,
        options: ChangesetApplyOptions = ChangesetApplyOptions(),
        filter: ((_ tableName: String) -> Bool)? = nil,
        onConflict: (ChangesetConflict) throws -> ChangesetConflictResolution
    ) throws {
        try SessionExtension.requireAvailable()
        try checkOpen()
        let size = try SessionExtension.cSize(of: changes.data)
        let filter = filter ?? { _ in true }
        try withoutActuallyEscaping(onConflict) { onConflict in
            let context = ChangesetApplyContext(database: self, filter: filter, onConflict: onConflict)
            try ChangesetScanner.validate(changes.data) { header in
                if options.checksTables { try context.check(header) }
            }
            defer { if let regionTracker { flushObservations(regionTracker) } }
            let code = withExtendedLifetime(context) {
                changes.data.withUnsafeBytes { bytes in
                    sqlite3changeset_apply_v2(
                        handle, size, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                        ChangesetApplyContext.filterCallback, ChangesetApplyContext.conflictCallback,
                        context.pointer, nil, nil, options.flags)
                }
            }
            try context.check(code)
        }
    }

    /// Applies the changeset or patchset `input` produces, read in pieces, in bounded memory; as
    /// ``apply(_:options:filter:onConflict:)`` otherwise.
    ///
    /// With ``ChangesetApplyOptions/checksTables``, each table is checked as its header is read:
    /// a table that does not match stops the apply, which undoes what it applied (with the default
    /// savepoint) and throws ``ResultCode/schema``.
    public func applyChangeset(
        from input: ChangesetInput,
        options: ChangesetApplyOptions = ChangesetApplyOptions(),
        filter: ((_ tableName: String) -> Bool)? = nil,
        onConflict: (ChangesetConflict) throws -> ChangesetConflictResolution
    ) throws {
        try SessionExtension.requireAvailable()
        try checkOpen()
        let filter = filter ?? { _ in true }
        try withoutActuallyEscaping(onConflict) { onConflict in
            let context = ChangesetApplyContext(database: self, filter: filter, onConflict: onConflict)
            // The tables are read now: the checks run inside SQLite's input callback.
            if options.checksTables { try context.loadAllTables() }
            let stream = ChangesetStreamContext(
                input: input.validated { header in
                    if options.checksTables { try context.check(header) }
                })
            defer { if let regionTracker { flushObservations(regionTracker) } }
            let code = withExtendedLifetime((context, stream)) {
                sqlite3changeset_apply_v2_strm(
                    handle, ChangesetStreamContext.readCallback, stream.pointer,
                    ChangesetApplyContext.filterCallback, ChangesetApplyContext.conflictCallback,
                    context.pointer, nil, nil, options.flags)
            }
            if code != SQLITE_OK, let thrown = stream.thrown { throw thrown }
            try context.check(code)
        }
    }
}

/// What the C callbacks of an apply need, and what they learned.
final class ChangesetApplyContext {
    let database: Database
    let filter: (String) -> Bool
    let onConflict: (ChangesetConflict) throws -> ChangesetConflictResolution
    private var decisions: [String: Bool] = [:]
    private var columns: [String: [Int]]?
    private var names: ChangesetIteration.NameCache?
    /// Why the apply stopped, when a callback stopped it.
    private var failure: (any Error)?

    init(
        database: Database, filter: @escaping (String) -> Bool,
        onConflict: @escaping (ChangesetConflict) throws -> ChangesetConflictResolution
    ) {
        self.database = database
        self.filter = filter
        self.onConflict = onConflict
    }

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Whether the changes to `table` are applied: the filter, asked once per table.
    func includes(_ table: String) -> Bool {
        if let known = decisions[table] { return known }
        let decision = filter(table)
        decisions[table] = decision
        return decision
    }

    /// Reads the columns of every table, for checks made where the connection must not be used.
    func loadAllTables() throws {
        var all: [String: [Int]] = [:]
        for name in try database.fetchAll(
            String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
        {
            all[name] = try database.sessionTableColumns(name)
        }
        columns = all
    }

    /// Checks that the table of `header` exists with the same columns and primary key.
    func check(_ header: ChangesetScanner.TableHeader) throws {
        guard includes(header.name) else { return }
        let actual = try columns.map { $0[header.name] ?? [] } ?? database.sessionTableColumns(header.name)
        let name = "'\(header.name.truncatedForMessages)'"
        if actual.isEmpty {
            throw DatabaseError(
                resultCode: .schema,
                message: "cannot apply the changeset: it changes table \(name), which the database does not have")
        }
        if actual.count != header.primaryKeyPositions.count {
            throw DatabaseError(
                resultCode: .schema,
                message: "cannot apply the changeset: it has \(header.primaryKeyPositions.count) column(s) for table "
                    + "\(name), which has \(actual.count)")
        }
        if actual != header.primaryKeyPositions {
            throw DatabaseError(
                resultCode: .schema,
                message: "cannot apply the changeset: its primary key for table \(name) (columns "
                    + Self.keyDescription(header.primaryKeyPositions) + ") is not the table's ("
                    + Self.keyDescription(actual) + ")")
        }
    }

    private static func keyDescription(_ positions: [Int]) -> String {
        positions.indices.filter { positions[$0] != 0 }.sorted { positions[$0] < positions[$1] }
            .map(String.init).joined(separator: ", ")
    }

    /// Throws why the apply failed, when `code` is not `SQLITE_OK`.
    func check(_ code: Int32) throws {
        if let failure { throw failure }
        guard code != SQLITE_OK else { return }
        if code & 0xFF == SQLITE_CORRUPT { throw SessionExtension.error(code, "applying a changeset") }
        throw DatabaseError.lastError(of: database.handle, code: code)
    }

    fileprivate func conflict(kind code: Int32, iterator: OpaquePointer?) -> Int32 {
        guard failure == nil, let kind = ChangesetConflictKind(code: code), let iterator else {
            return SQLITE_CHANGESET_ABORT
        }
        do {
            var conflict = ChangesetConflict(kind: kind, operation: nil)
            if kind == .foreignKey {
                var count: Int32 = 0
                _ = sqlite3changeset_fk_conflicts(iterator, &count)
                conflict.foreignKeyViolationCount = Int(count)
            } else {
                let operation = try ChangesetIteration.operation(of: iterator, names: &names)
                conflict.operation = operation
                if kind == .data || kind == .conflict {
                    var row: [SQLValue] = []
                    for column in 0..<operation.columnCount {
                        var value: OpaquePointer?
                        let status = sqlite3changeset_conflict(iterator, Int32(column), &value)
                        if status != SQLITE_OK { throw SessionExtension.error(status, "reading a conflict") }
                        row.append(value.map { FunctionArguments.readValue($0) } ?? .null)
                    }
                    conflict.conflictingRow = row
                }
            }
            switch try onConflict(conflict) {
            case .omit:
                return SQLITE_CHANGESET_OMIT
            case .replace where kind == .data || kind == .conflict:
                return SQLITE_CHANGESET_REPLACE
            case .replace:
                throw DatabaseError(
                    resultCode: .misuse,
                    message: "the conflict handler answered replace to a \(kind) conflict, which takes only omit or "
                        + "abort (\(conflict.description.truncatedForMessages))")
            case .abort:
                throw DatabaseError(
                    resultCode: .abort,
                    message: "applying the changeset stopped: the conflict handler answered abort to a "
                        + conflict.description.truncatedForMessages)
            }
        } catch {
            failure = error
            return SQLITE_CHANGESET_ABORT
        }
    }

    static let filterCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Int32 = {
        context, table in
        guard let context, let table else { return 0 }
        let apply = Unmanaged<ChangesetApplyContext>.fromOpaque(context).takeUnretainedValue()
        return apply.includes(String(cString: table)) ? 1 : 0
    }

    static let conflictCallback: @convention(c) (UnsafeMutableRawPointer?, Int32, OpaquePointer?) -> Int32 = {
        context, kind, iterator in
        guard let context else { return SQLITE_CHANGESET_ABORT }
        return Unmanaged<ChangesetApplyContext>.fromOpaque(context).takeUnretainedValue()
            .conflict(kind: kind, iterator: iterator)
    }
}
