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

    public static let ok = ResultCode(rawValue: SQLITE_OK)
    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let `internal` = ResultCode(rawValue: SQLITE_INTERNAL)
    public static let permission = ResultCode(rawValue: SQLITE_PERM)
    public static let abort = ResultCode(rawValue: SQLITE_ABORT)
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
    public static let noMemory = ResultCode(rawValue: SQLITE_NOMEM)
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    public static let interrupt = ResultCode(rawValue: SQLITE_INTERRUPT)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    public static let notFound = ResultCode(rawValue: SQLITE_NOTFOUND)
    public static let full = ResultCode(rawValue: SQLITE_FULL)
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let `protocol` = ResultCode(rawValue: SQLITE_PROTOCOL)
    public static let schema = ResultCode(rawValue: SQLITE_SCHEMA)
    public static let tooBig = ResultCode(rawValue: SQLITE_TOOBIG)
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let authorization = ResultCode(rawValue: SQLITE_AUTH)
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)
    public static let row = ResultCode(rawValue: SQLITE_ROW)
    public static let done = ResultCode(rawValue: SQLITE_DONE)

    // Extended codes users commonly match on.
    public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
    public static let constraintCommitHook = ResultCode(rawValue: SQLITE_CONSTRAINT | (2 << 8))
    public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    public static let constraintFunction = ResultCode(rawValue: SQLITE_CONSTRAINT | (4 << 8))
    public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
    public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    public static let constraintTrigger = ResultCode(rawValue: SQLITE_CONSTRAINT | (7 << 8))
    public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    public static let constraintRowID = ResultCode(rawValue: SQLITE_CONSTRAINT | (10 << 8))
    public static let busyRecovery = ResultCode(rawValue: SQLITE_BUSY | (1 << 8))
    public static let busySnapshot = ResultCode(rawValue: SQLITE_BUSY | (2 << 8))
    public static let busyTimeout = ResultCode(rawValue: SQLITE_BUSY | (3 << 8))
    public static let readOnlyDatabaseMoved = ResultCode(rawValue: SQLITE_READONLY | (4 << 8))
    public static let abortRollback = ResultCode(rawValue: SQLITE_ABORT | (2 << 8))
    public static let cantOpenIsDirectory = ResultCode(rawValue: SQLITE_CANTOPEN | (2 << 8))
}

extension ResultCode {
    /// Matches an extended code against a primary one, so `case .constraint` in a `switch` over an
    /// extended code catches every kind of constraint violation.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern == code || (pattern.rawValue == pattern.primary.rawValue && pattern == code.primary)
    }
}
