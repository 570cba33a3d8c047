import CSQLite

/// A SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// Compare an error's ``DatabaseError/resultCode`` with the primary constants and its
/// ``DatabaseError/extendedResultCode`` with the extended ones:
///
/// ```swift
/// catch let error as DatabaseError where error.extendedResultCode == .constraintUnique { … }
/// ```
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric code, as the SQLite C API returns it.
    public let rawValue: Int32

    /// Creates a result code from its numeric value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code: the low 8 bits of an extended code.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    /// SQLite's English description of the code, such as `"constraint failed"`.
    public var description: String {
        String(cString: sqlite3_errstr(rawValue)) + " (\(rawValue))"
    }

    /// Success (`SQLITE_OK`).
    public static let ok = ResultCode(rawValue: SQLITE_OK)
    /// A generic error, such as bad SQL (`SQLITE_ERROR`).
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    /// An internal malfunction of SQLite (`SQLITE_INTERNAL`).
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    /// The requested access mode cannot be provided (`SQLITE_PERM`).
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    /// An operation was aborted, for example by a callback (`SQLITE_ABORT`).
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    /// The database file is locked by another connection (`SQLITE_BUSY`).
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    /// A table is locked within the same connection, or by a shared cache (`SQLITE_LOCKED`).
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    /// A memory allocation failed (`SQLITE_NOMEM`).
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    /// A write was attempted on a read-only database (`SQLITE_READONLY`).
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    /// The operation was interrupted, for example by cancellation (`SQLITE_INTERRUPT`).
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    /// The operating system reported an I/O error (`SQLITE_IOERR`).
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    /// The database file is malformed (`SQLITE_CORRUPT`).
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    /// An unknown opcode or file control (`SQLITE_NOTFOUND`).
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    /// The disk is full, or the database reached its size limit (`SQLITE_FULL`).
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    /// The database file cannot be opened (`SQLITE_CANTOPEN`).
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    /// A locking protocol error (`SQLITE_PROTOCOL`).
    public static let `protocol` = ResultCode(rawValue: SQLITE_PROTOCOL)
    /// The schema changed while a statement ran (`SQLITE_SCHEMA`).
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    /// A string or blob exceeds the size limit (`SQLITE_TOOBIG`).
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    /// A constraint was violated (`SQLITE_CONSTRAINT`); the extended code says which.
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    /// A datatype mismatch, such as a non-integer rowid (`SQLITE_MISMATCH`).
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    /// The API was used incorrectly, such as a closed connection (`SQLITE_MISUSE`).
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    /// An authorizer denied the statement (`SQLITE_AUTH`).
    public static let authorization = ResultCode(rawValue: SQLITE_AUTH)
    /// A parameter or column index is out of range, or a column is missing (`SQLITE_RANGE`).
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    /// The file is not a database (`SQLITE_NOTADB`).
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    /// A step produced a row (`SQLITE_ROW`).
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    /// A statement finished running (`SQLITE_DONE`).
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    // Extended codes users commonly match on (the primary code in the low byte).
    /// A `CHECK` constraint failed.
    public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
    /// A commit hook vetoed the commit.
    public static let constraintCommitHook = ResultCode(rawValue: SQLITE_CONSTRAINT | (2 << 8))
    /// A foreign key constraint failed.
    public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    /// A function reported a constraint failure.
    public static let constraintFunction = ResultCode(rawValue: SQLITE_CONSTRAINT | (4 << 8))
    /// A `NOT NULL` constraint failed.
    public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
    /// A `PRIMARY KEY` constraint failed.
    public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    /// A trigger raised an abort (`RAISE(ABORT, …)`).
    public static let constraintTrigger = ResultCode(rawValue: SQLITE_CONSTRAINT | (7 << 8))
    /// A `UNIQUE` constraint failed.
    public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    /// A rowid is not unique.
    public static let constraintRowID = ResultCode(rawValue: SQLITE_CONSTRAINT | (10 << 8))
    /// Busy: another connection is recovering the WAL.
    public static let busyRecovery = ResultCode(rawValue: SQLITE_BUSY | (1 << 8))
    /// Busy: a read transaction's snapshot is too old to start writing.
    public static let busySnapshot = ResultCode(rawValue: SQLITE_BUSY | (2 << 8))
    /// Busy: a blocking lock timed out.
    public static let busyTimeout = ResultCode(rawValue: SQLITE_BUSY | (3 << 8))
    /// Read-only: the database file was moved or deleted while open.
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: SQLITE_READONLY | (4 << 8))
    /// Aborted: a statement was cancelled by a rollback.
    public static let abortRollback = ResultCode(rawValue: SQLITE_ABORT | (2 << 8))
    /// Cannot open: the path is a directory.
    public static let cantOpenIsDirectory = ResultCode(rawValue: SQLITE_CANTOPEN | (2 << 8))
}

extension ResultCode {
    /// Matches an extended code against a primary one, so `case .constraint` in a `switch` over an
    /// extended code catches every kind of constraint violation.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern == code || (pattern.rawValue == pattern.primary.rawValue && pattern == code.primary)
    }
}
