import CSQLite
import Foundation

// MARK: - Fast column readers shared by the standard conformances

extension Row {
    /// Reads a column as a 64-bit integer.
    ///
    /// The fast path is one `sqlite3_column_int64` call. SQLite answers 0 for `NULL` and for text
    /// that is not a number, so only a zero is type-checked (a second C call would cost about a
    /// third of a 10-column fetch): `NULL`, non-numeric text and blobs always throw, while a REAL
    /// or numeric TEXT stored in the column converts as SQLite's `CAST` does. Use a `STRICT` table
    /// to rule such values out at write time.
    @inlinable
    public func int64(at index: Int) throws -> Int64 {
        let position = position(index)
        if let sqliteStatement {
            let value = sqlite3_column_int64(sqliteStatement, position)
            if value != 0 || sqlite3_column_type(sqliteStatement, position) == SQLITE_INTEGER { return value }
        }
        return try convertedInt64(at: index, as: Int64.self)
    }

    /// Reads a column as a 64-bit integer, or `nil` when it is `NULL`, in one C call for non-zero
    /// integers. See ``int64(at:)``.
    @inlinable
    public func int64IfPresent(at index: Int) throws -> Int64? {
        let position = position(index)
        if let sqliteStatement {
            let value = sqlite3_column_int64(sqliteStatement, position)
            if value != 0 { return value }
            let type = sqlite3_column_type(sqliteStatement, position)
            if type == SQLITE_INTEGER { return 0 }
            if type == SQLITE_NULL { return nil }
        } else if value(at: index).isNull {
            return nil
        }
        return try convertedInt64(at: index, as: Int64.self)
    }

    /// Reads a column as a double, or `nil` when it is `NULL`. See ``double(at:)``.
    @inlinable
    public func doubleIfPresent(at index: Int) throws -> Double? {
        let position = position(index)
        if let sqliteStatement {
            let value = sqlite3_column_double(sqliteStatement, position)
            if value != 0 { return value }
            let type = sqlite3_column_type(sqliteStatement, position)
            if type == SQLITE_FLOAT || type == SQLITE_INTEGER { return value }
            if type == SQLITE_NULL { return nil }
        } else if value(at: index).isNull {
            return nil
        }
        return try convertedDouble(at: index)
    }

    /// Reads a column as text, or `nil` when it is `NULL`, with one type check.
    @inlinable
    public func stringIfPresent(at index: Int) throws -> String? {
        let position = position(index)
        if let sqliteStatement {
            let type = sqlite3_column_type(sqliteStatement, position)
            if type == SQLITE_TEXT, let text = sqlite3_column_text(sqliteStatement, position) {
                let count = Int(sqlite3_column_bytes(sqliteStatement, position))
                // Invalid UTF-8 is refused by convertedString(at:) rather than repaired.
                if let string = String(exactUTF8: text, count: count) { return string }
            }
            if type == SQLITE_NULL { return nil }
        } else if value(at: index).isNull {
            return nil
        }
        return try convertedString(at: index)
    }

    /// Reads a column as a double. Like ``int64(at:)``, only a zero result is type-checked, so
    /// `NULL` and non-numeric values throw while integers convert.
    @inlinable
    public func double(at index: Int) throws -> Double {
        let position = position(index)
        if let sqliteStatement {
            let value = sqlite3_column_double(sqliteStatement, position)
            if value != 0 { return value }
            let type = sqlite3_column_type(sqliteStatement, position)
            if type == SQLITE_FLOAT || type == SQLITE_INTEGER { return value }
        }
        return try convertedDouble(at: index)
    }

    /// Reads a column as text; numbers convert to their SQL text.
    @inlinable
    public func string(at index: Int) throws -> String {
        let position = position(index)
        if let sqliteStatement, sqlite3_column_type(sqliteStatement, position) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, position)
        {
            let count = Int(sqlite3_column_bytes(sqliteStatement, position))
            // Invalid UTF-8 is refused by convertedString(at:) rather than repaired.
            if let string = String(exactUTF8: text, count: count) { return string }
        }
        return try convertedString(at: index)
    }

    /// Calls `body` with the bytes of a BLOB (or TEXT) column, without copying them.
    @inlinable
    public func withUnsafeBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        if let sqliteStatement {
            let position = position(index)
            let type = sqlite3_column_type(sqliteStatement, position)
            if type == SQLITE_BLOB {
                let bytes = sqlite3_column_blob(sqliteStatement, position)
                let count = Int(sqlite3_column_bytes(sqliteStatement, position))
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

    @usableFromInline
    package func convertedInt64(at index: Int, as type: Any.Type) throws -> Int64 {
        switch value(at: index) {
        case .integer(let integer): return integer
        case .real(let real):
            if let integer = SQLValue.truncatedInteger(real) { return integer }
            throw conversionFailure(at: index, to: type, reason: "it is not a number")
        case .text(let text):
            if let integer = Int64(text.trimmingCharacters(in: .whitespaces)) { return integer }
            throw conversionFailure(at: index, to: type)
        default:
            throw conversionFailure(at: index, to: type)
        }
    }

    @usableFromInline
    package func convertedDouble(at index: Int) throws -> Double {
        switch value(at: index) {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        case .text(let text):
            if let real = Double(text.trimmingCharacters(in: .whitespaces)) { return real }
            throw conversionFailure(at: index, to: Double.self)
        default:
            throw conversionFailure(at: index, to: Double.self)
        }
    }

    @usableFromInline
    package func convertedString(at index: Int) throws -> String {
        switch value(at: index) {
        case .text(let text): return text
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .blob where sqliteStatement.map({ sqlite3_column_type($0, position(index)) == SQLITE_TEXT }) == true:
            throw conversionFailure(at: index, to: String.self, reason: "the TEXT is not valid UTF-8")
        default: throw conversionFailure(at: index, to: String.self)
        }
    }

    /// An integer read into a narrower type that cannot hold it.
    @usableFromInline
    package func overflow(at index: Int, to type: Any.Type) -> DatabaseError {
        conversionFailure(at: index, to: type, reason: "integer overflow")
    }
}

extension SQLValue {
    @usableFromInline
    package func int64(as type: Any.Type) throws -> Int64 {
        switch self {
        case .integer(let integer): return integer
        case .real(let real):
            if let integer = Self.truncatedInteger(real) { return integer }
        case .text(let text):
            if let integer = Int64(text.trimmingCharacters(in: .whitespaces)) { return integer }
        default: break
        }
        throw DatabaseError.conversionFailure(self, to: type)
    }

    /// A REAL read as an integer truncates toward zero and saturates at the 64-bit bounds, as
    /// SQLite's `CAST(x AS INTEGER)` does; `nil` for NaN.
    @usableFromInline
    package static func truncatedInteger(_ real: Double) -> Int64? {
        if real.isNaN { return nil }
        if real >= 9.223372036854775807e18 { return .max }
        if real <= -9.223372036854775808e18 { return .min }
        return Int64(real)
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
    @inlinable
    public init(sqlValue: SQLValue) throws {
        let integer = try sqlValue.int64(as: Self.self)
        guard let value = Self(exactly: integer) else {
            throw DatabaseError.conversionFailure(sqlValue, to: Self.self, reason: "integer overflow")
        }
        self = value
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Self {
        let integer = try row.int64(at: index)
        guard let value = Self(exactly: integer) else { throw row.overflow(at: index, to: Self.self) }
        return value
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Self? {
        guard let integer = try row.int64IfPresent(at: index) else { return nil }
        guard let value = Self(exactly: integer) else { throw row.overflow(at: index, to: Self.self) }
        return value
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

    /// Any non-zero number is `true`.
    public init(sqlValue: SQLValue) throws {
        self = try sqlValue.int64(as: Bool.self) != 0
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Bool {
        try row.int64(at: index) != 0
    }

    @inlinable
    public static func extractIfPresent(from row: borrowing Row, at index: Int) throws -> Bool? {
        try row.int64IfPresent(at: index).map { $0 != 0 }
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

    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .real(let real): self = real
        case .integer(let integer): self = Double(integer)
        case .text(let text):
            guard let real = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw DatabaseError.conversionFailure(sqlValue, to: Double.self)
            }
            self = real
        default: throw DatabaseError.conversionFailure(sqlValue, to: Double.self)
        }
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

    public init(sqlValue: SQLValue) throws {
        self = Float(try Double(sqlValue: sqlValue))
    }

    @inlinable
    public static func extract(from row: borrowing Row, at index: Int) throws -> Float {
        Float(try row.double(at: index))
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

    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .text(let text): self = text
        case .integer(let integer): self = String(integer)
        case .real(let real): self = String(real)
        default: throw DatabaseError.conversionFailure(sqlValue, to: String.self)
        }
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
