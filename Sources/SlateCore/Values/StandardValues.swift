import CSQLite
import Foundation

// MARK: - Fast column readers shared by the standard conformances

// Each reader takes the column's `sqlite3_value` once (`sqlite3_column_value`) and asks it for its
// storage class and its value with the cheap `sqlite3_value_*` accessors: one column lookup per
// value. The value is only used while the row is lent, on the connection's thread, which is what
// SQLite asks of the unprotected values `sqlite3_column_value` returns. When the storage class is
// the one the type asks for, that is the whole read; anything else (a REAL read as an integer,
// TEXT read as a number, NULL, an out-of-range column) goes through the exact rules of
// `ExactConversion.swift`, the same code a copied row runs.

extension Row {
    /// Reads a column as a 64-bit integer: an INTEGER, or a REAL or numeric TEXT that is exactly a
    /// whole number in range. Anything else throws ``ResultCode/mismatch``, naming the column and
    /// the SQL. See ``SQLExtractable`` for the rules.
    @inlinable
    public func int64(at index: Int) throws -> Int64 {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            if sqlite3_value_type(value) == SQLITE_INTEGER { return sqlite3_value_int64(value) }
        } else if let integer = foreignInteger(at: index) {
            return integer
        }
        return try exactInteger(at: index, as: Int64.self)
    }

    /// Reads a column as a 64-bit integer, or `nil` when it is `NULL`. See ``int64(at:)``.
    @inlinable
    public func int64IfPresent(at index: Int) throws -> Int64? {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            let type = sqlite3_value_type(value)
            if type == SQLITE_INTEGER { return sqlite3_value_int64(value) }
            if type == SQLITE_NULL { return nil }
        } else if let integer = foreignInteger(at: index) {
            return integer
        } else if isNull(at: index) {
            return nil
        }
        return try exactInteger(at: index, as: Int64.self)
    }

    /// Reads a column as a double: a REAL, an INTEGER that a `Double` holds exactly, or numeric
    /// TEXT. Anything else throws ``ResultCode/mismatch``. See ``SQLExtractable`` for the rules.
    @inlinable
    public func double(at index: Int) throws -> Double {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            let type = sqlite3_value_type(value)
            if type == SQLITE_FLOAT { return sqlite3_value_double(value) }
            if type == SQLITE_INTEGER, let real = Double(exactly: sqlite3_value_int64(value)) { return real }
        } else if let real = foreignReal(at: index) {
            return real
        }
        return try exactDouble(at: index)
    }

    /// Reads a column as a double, or `nil` when it is `NULL`. See ``double(at:)``.
    @inlinable
    public func doubleIfPresent(at index: Int) throws -> Double? {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            let type = sqlite3_value_type(value)
            if type == SQLITE_FLOAT { return sqlite3_value_double(value) }
            if type == SQLITE_INTEGER, let real = Double(exactly: sqlite3_value_int64(value)) { return real }
            if type == SQLITE_NULL { return nil }
        } else if let real = foreignReal(at: index) {
            return real
        } else if isNull(at: index) {
            return nil
        }
        return try exactDouble(at: index)
    }

    /// Reads a column as text; an INTEGER or REAL reads as its decimal text. NULL and BLOB throw
    /// ``ResultCode/mismatch``.
    @inlinable
    public func string(at index: Int) throws -> String {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            if sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) {
                let count = Int(sqlite3_value_bytes(value))
                // Invalid UTF-8 is refused by exactString(at:) rather than repaired.
                if let string = String(exactUTF8: text, count: count) { return string }
            }
        } else if let text = foreignText(at: index) {
            return text
        }
        return try exactString(at: index)
    }

    /// Reads a column as text, or `nil` when it is `NULL`. See ``string(at:)``.
    @inlinable
    public func stringIfPresent(at index: Int) throws -> String? {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            let type = sqlite3_value_type(value)
            if type == SQLITE_TEXT, let text = sqlite3_value_text(value) {
                let count = Int(sqlite3_value_bytes(value))
                // Invalid UTF-8 is refused by exactString(at:) rather than repaired.
                if let string = String(exactUTF8: text, count: count) { return string }
            }
            if type == SQLITE_NULL { return nil }
        } else if let text = foreignText(at: index) {
            return text
        } else if isNull(at: index) {
            return nil
        }
        return try exactString(at: index)
    }

    /// Calls `body` with the bytes of a BLOB (or TEXT) column, without copying them.
    @inlinable
    public func withUnsafeBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) throws
        -> Result
    {
        if let sqliteStatement {
            let value = sqlite3_column_value(sqliteStatement, position(index))
            if sqlite3_value_type(value) == SQLITE_BLOB {
                let bytes = sqlite3_value_blob(value)
                let count = Int(sqlite3_value_bytes(value))
                return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
            }
        }
        let value = value(at: index)
        switch value {
        case .blob(let data): return try data.withUnsafeBytes(body)
        case .text(let text): return try Data(text.utf8).withUnsafeBytes(body)
        default: throw conversionFailure(at: index, to: Data.self)
        }
    }
}

// MARK: - Integers

extension SQLBindable where Self: FixedWidthInteger {
    @inlinable
    public var sqlValue: SQLValue {
        get throws {
            guard let integer = Int64(exactly: self) else {
                throw DatabaseError.unrepresentable("\(Self.self) value \(self)", as: "a 64-bit SQLite INTEGER")
            }
            return .integer(integer)
        }
    }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        guard let integer = Int64(exactly: self) else {
            throw DatabaseError.unrepresentable("\(Self.self) value \(self)", as: "a 64-bit SQLite INTEGER")
        }
        try statement.bindInt64(integer, at: index)
    }
}

extension SQLExtractable where Self: FixedWidthInteger {
    /// Reads an INTEGER that fits, a REAL that is exactly a whole number in range, or TEXT that
    /// spells one; anything else throws ``ResultCode/mismatch``.
    @inlinable
    public init(sqlValue: SQLValue) throws {
        self = try sqlValue.exactInteger(as: Self.self)
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Self {
        if let statement = row.sqliteStatement {
            let value = sqlite3_column_value(statement, row.position(index))
            if sqlite3_value_type(value) == SQLITE_INTEGER,
                let integer = Self(exactly: sqlite3_value_int64(value))
            {
                return integer
            }
        } else if let integer = row.foreignInteger(at: index), let value = Self(exactly: integer) {
            return value
        }
        return try row.exactInteger(at: index, as: Self.self)
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Self? {
        if let statement = row.sqliteStatement {
            let value = sqlite3_column_value(statement, row.position(index))
            let type = sqlite3_value_type(value)
            if type == SQLITE_INTEGER, let integer = Self(exactly: sqlite3_value_int64(value)) {
                return integer
            }
            if type == SQLITE_NULL { return nil }
        } else if let integer = row.foreignInteger(at: index), let value = Self(exactly: integer) {
            return value
        } else if row.isNull(at: index) {
            return nil
        }
        return try row.exactInteger(at: index, as: Self.self)
    }
}

extension Int: SQLBindable, SQLExtractable {}
extension Int8: SQLBindable, SQLExtractable {}
extension Int16: SQLBindable, SQLExtractable {}
extension Int32: SQLBindable, SQLExtractable {}
extension UInt: SQLBindable, SQLExtractable {}
extension UInt8: SQLBindable, SQLExtractable {}
extension UInt16: SQLBindable, SQLExtractable {}
extension UInt32: SQLBindable, SQLExtractable {}
extension UInt64: SQLBindable, SQLExtractable {}

extension Int64: SQLBindable, SQLExtractable {
    @inlinable
    public var sqlValue: SQLValue { .integer(self) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindInt64(self, at: index)
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Int64 {
        try row.int64(at: index)
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Int64? {
        try row.int64IfPresent(at: index)
    }
}

// MARK: - Bool

extension Bool: SQLBindable, SQLExtractable {
    /// `true` is stored as 1, `false` as 0.
    @inlinable
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindInt64(self ? 1 : 0, at: index)
    }

    /// Reads an integer under the integer rules (see ``SQLExtractable``): any non-zero integer is
    /// `true`. A REAL 0.5, or text that is not a whole number, throws.
    public init(sqlValue: SQLValue) throws {
        self = try sqlValue.exactInteger(as: Int64.self, reportedAs: Bool.self) != 0
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Bool {
        if let statement = row.sqliteStatement {
            let value = sqlite3_column_value(statement, row.position(index))
            if sqlite3_value_type(value) == SQLITE_INTEGER { return sqlite3_value_int64(value) != 0 }
        } else if let integer = row.foreignInteger(at: index) {
            return integer != 0
        }
        return try row.exactInteger(at: index, as: Int64.self, reportedAs: Bool.self) != 0
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Bool? {
        if let statement = row.sqliteStatement {
            let value = sqlite3_column_value(statement, row.position(index))
            let type = sqlite3_value_type(value)
            if type == SQLITE_INTEGER { return sqlite3_value_int64(value) != 0 }
            if type == SQLITE_NULL { return nil }
        } else if let integer = row.foreignInteger(at: index) {
            return integer != 0
        } else if row.isNull(at: index) {
            return nil
        }
        return try row.exactInteger(at: index, as: Int64.self, reportedAs: Bool.self) != 0
    }
}

// MARK: - Floating point

extension Double: SQLBindable, SQLExtractable {
    @inlinable
    public var sqlValue: SQLValue { .real(self) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindDouble(self, at: index)
    }

    /// Reads a REAL, an INTEGER that a `Double` holds exactly, or TEXT that spells such a number;
    /// anything else throws ``ResultCode/mismatch``.
    public init(sqlValue: SQLValue) throws {
        self = try sqlValue.exactDouble()
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Double {
        try row.double(at: index)
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Double? {
        try row.doubleIfPresent(at: index)
    }
}

extension Float: SQLBindable, SQLExtractable {
    @inlinable
    public var sqlValue: SQLValue { .real(Double(self)) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindDouble(Double(self), at: index)
    }

    /// Reads a `Double` under its rules when a `Float` holds it exactly (`0.5`, `16777216`); a
    /// value that would round (`0.1`, `16777217`) throws ``ResultCode/mismatch``. Read
    /// ``Lenient``<`Float`> to round to the nearest `Float` instead.
    public init(sqlValue: SQLValue) throws {
        let real = try sqlValue.exactDouble()
        guard let float = Float.exactly(real) else {
            throw DatabaseError.conversionFailure(sqlValue, to: Float.self, reason: Float.inexactReason(real))
        }
        self = float
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Float {
        let real = try row.double(at: index)
        guard let float = Float.exactly(real) else {
            throw row.conversionFailure(at: index, to: Float.self, reason: Float.inexactReason(real))
        }
        return float
    }

    /// `real` as a `Float` when it holds it exactly (NaN stays NaN), or `nil`.
    @inlinable
    static func exactly(_ real: Double) -> Float? {
        real.isNaN ? .nan : Float(exactly: real)
    }

    /// Why `real` is not exactly a `Float`.
    @usableFromInline
    static func inexactReason(_ real: Double) -> String {
        Float.rounding(real) == nil
            ? "it is out of the range of Float"
            : "a Float cannot hold this number exactly (read Lenient<Float> to round it)"
    }

    /// `real` rounded to the nearest `Float`, or `nil` when a finite `real` is beyond `Float`'s range.
    @usableFromInline
    static func rounding(_ real: Double) -> Float? {
        let float = Float(real)
        return float.isInfinite && real.isFinite ? nil : float
    }
}

// MARK: - Text and bytes

extension String: SQLBindable, SQLExtractable {
    @inlinable
    public var sqlValue: SQLValue { .text(self) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindText(self, at: index)
    }

    /// Reads TEXT, or an INTEGER or REAL as its decimal text; NULL and BLOB throw
    /// ``ResultCode/mismatch``.
    public init(sqlValue: SQLValue) throws {
        self = try sqlValue.exactString()
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> String {
        try row.string(at: index)
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> String? {
        try row.stringIfPresent(at: index)
    }
}

extension Data: SQLBindable, SQLExtractable {
    @inlinable
    public var sqlValue: SQLValue { .blob(self) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try withUnsafeBytes { try statement.bindBlob($0, at: index) }
    }

    /// Reads a BLOB, or the UTF-8 bytes of TEXT.
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .blob(let data): self = data
        case .text(let text): self = Data(text.utf8)
        default: throw DatabaseError.conversionFailure(sqlValue, to: Data.self)
        }
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Data {
        try row.withUnsafeBytes(at: index) { Data($0) }
    }
}

extension Array: SQLBindable where Element == UInt8 {
    /// Bytes are stored as a BLOB.
    @inlinable
    public var sqlValue: SQLValue { .blob(Data(self)) }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try withUnsafeBytes { try statement.bindBlob($0, at: index) }
    }
}

extension Array: SQLExtractable where Element == UInt8 {
    public init(sqlValue: SQLValue) throws {
        self = Array(try Data(sqlValue: sqlValue))
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> [UInt8] {
        try row.withUnsafeBytes(at: index) { Array($0) }
    }
}

extension SQLValue: SQLBindable, SQLExtractable {
    /// The value itself.
    public var sqlValue: SQLValue { self }

    public init(sqlValue: SQLValue) { self = sqlValue }

    public static func extract(from row: borrowing Row, at index: Int) throws -> SQLValue {
        row.value(at: index)
    }
}

// MARK: - Optionals

extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// `nil` is `NULL`.
    @inlinable
    public var sqlValue: SQLValue {
        get throws {
            guard let self else { return .null }
            return try self.sqlValue
        }
    }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        if let self {
            try self.bind(to: statement, at: index)
        } else {
            try statement.bindNull(at: index)
        }
    }
}

extension Optional: SQLExtractable where Wrapped: SQLExtractable {
    /// An optional is already nullable.
    public typealias SQLNullable = Wrapped?

    /// A condition on an optional value is `NULL` when the value is.
    public typealias SQLCondition = Bool?

    /// `NULL` is `nil`.
    @inlinable
    public init(sqlValue: SQLValue) throws {
        self = sqlValue.isNull ? nil : try Wrapped(sqlValue: sqlValue)
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Wrapped? {
        if let value = try Wrapped.extractIfPresent(from: row, at: index) { return value }
        if !row.isInRange(index) { throw row.outOfRange(index) }
        return nil
    }

    /// A doubly optional read: `nil` for `NULL`.
    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Wrapped?? {
        if row.isNull(at: index) { return nil }
        return try extract(from: row, at: index)
    }
}

// MARK: - RawRepresentable

extension SQLBindable where Self: RawRepresentable, RawValue: SQLBindable {
    /// The raw value's SQL value.
    @inlinable
    public var sqlValue: SQLValue { get throws { try rawValue.sqlValue } }

    @inlinable
    public func bind(to statement: Statement, at index: Int) throws {
        try rawValue.bind(to: statement, at: index)
    }
}

extension SQLExtractable where Self: RawRepresentable, RawValue: SQLExtractable {
    /// Reads the raw value; an unknown raw value is a ``ResultCode/mismatch`` error.
    @inlinable
    public init(sqlValue: SQLValue) throws {
        guard let value = Self(rawValue: try RawValue(sqlValue: sqlValue)) else {
            throw DatabaseError.conversionFailure(sqlValue, to: Self.self, reason: "no such raw value")
        }
        self = value
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Self {
        guard let value = Self(rawValue: try RawValue.extract(from: row, at: index)) else {
            throw row.conversionFailure(at: index, to: Self.self, reason: "no such raw value")
        }
        return value
    }
}
