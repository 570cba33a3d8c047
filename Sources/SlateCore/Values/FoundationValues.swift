import Foundation

// MARK: - Date

extension Date: SQLBindable, SQLExtractable {
    /// The date as ``DateStrategy/iso8601`` text. Binding to a statement uses the connection's
    /// ``Database/Configuration/dateStrategy`` instead.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/mismatch`` when ISO-8601 text cannot hold the
    ///   date; see ``DateStrategy/sqlValue(for:)``.
    public var sqlValue: SQLValue { get throws { try DateStrategy.iso8601.sqlValue(for: self) } }

    /// Binds with the statement's date strategy.
    public func bind(to statement: Statement, at index: Int) throws {
        try statement.bindValue(statement.dateStrategy.sqlValue(for: self), at: index)
    }

    /// Reads ISO-8601 text, or a number as Unix seconds.
    public init(sqlValue: SQLValue) throws {
        guard let date = DateStrategy.iso8601.date(from: sqlValue) else {
            throw DatabaseError.conversionFailure(sqlValue, to: Date.self)
        }
        self = date
    }

    /// Reads with the row's date strategy.
    public static func extract(from row: borrowing Row, at index: Int) throws -> Date {
        try row.date(at: index, strategy: row.dateStrategy)
    }
}

extension Row {
    /// Reads column `index` as a date stored with `strategy`, whatever the connection's strategy.
    public func date(at index: Int, strategy: DateStrategy) throws -> Date {
        if let foreign, case let position = position(index), position >= 0, Int(position) < foreign.columnCount,
            let date = foreign.date(at: Int(position))
        {
            return date  // a date or timestamp column of another engine: exact, whatever the strategy
        }
        guard let date = strategy.date(from: value(at: index)) else {
            throw conversionFailure(at: index, to: Date.self)
        }
        return date
    }

    /// Reads column `index` as an optional date stored with `strategy`.
    public func date(at index: Int, strategy: DateStrategy) throws -> Date? {
        if isNull(at: index) { return nil }
        return try date(at: index, strategy: strategy) as Date
    }
}

extension CopiedRow {
    /// Reads column `index` as a date stored with `strategy`, whatever the connection's strategy.
    public func date(at index: Int, strategy: DateStrategy) throws -> Date {
        try withRow { try $0.date(at: index, strategy: strategy) }
    }

    /// Reads column `index` as an optional date stored with `strategy`.
    public func date(at index: Int, strategy: DateStrategy) throws -> Date? {
        try withRow { try $0.date(at: index, strategy: strategy) }
    }
}

extension Statement {
    /// Binds `date` with `strategy`, whatever the connection's strategy.
    public func bind(_ date: Date?, at index: Int, strategy: DateStrategy) throws {
        guard let date else { return try bindNull(at: index) }
        try bindValue(strategy.sqlValue(for: date), at: index)
    }
}

/// A date bound with an explicit ``DateStrategy``, whatever the connection's: what generated code
/// passes for the key of a column with its own date storage.
///
/// ```swift
/// try db.execute("DELETE FROM event WHERE day = \(EncodedDate(day, strategy: .unixSeconds))")
/// ```
public struct EncodedDate: SQLBindable, Sendable, Hashable {
    /// The date.
    public var date: Date
    /// How it is stored.
    public var strategy: DateStrategy

    /// Wraps `date`, to be stored with `strategy`.
    public init(_ date: Date, strategy: DateStrategy) {
        self.date = date
        self.strategy = strategy
    }

    /// The date's SQL value under ``strategy``.
    public var sqlValue: SQLValue { get throws { try strategy.sqlValue(for: date) } }
}

// MARK: - UUID

extension UUID: SQLBindable, SQLExtractable {
    /// Stored as TEXT in RFC 9562's canonical form: lowercase and hyphenated
    /// (`6f1c2a3e-8b4d-4c5e-9f60-123456789abc`), as the `sqlite3` shell, PostgreSQL and most other
    /// tools write it (Foundation's `uuidString` is uppercase). Use ``UUIDStorage/blob`` with
    /// ``Statement/bind(_:at:storage:)`` for 16-byte BLOBs.
    ///
    /// Text in any letter case reads back as the same UUID, and the query builder compares UUID
    /// columns without regard to case (see ``UUIDStorage/text``).
    public var sqlValue: SQLValue { .text(lowercasedText) }

    /// The canonical text form: 36 lowercase hexadecimal digits and hyphens.
    package var lowercasedText: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var out = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    text[out] = digits.utf8Start[Int(byte >> 4)]
                    text[out + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    out += 2
                }
                return out
            }
        }
    }

    /// Reads 36-character text in either case, or a 16-byte BLOB.
    public init(sqlValue: SQLValue) throws {
        switch sqlValue {
        case .text(let text):
            if let uuid = UUID(uuidString: text) {
                self = uuid
                return
            }
        case .blob(let data) where data.count == 16:
            let bytes = [UInt8](data)
            self = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                ))
            return
        default: break
        }
        throw DatabaseError.conversionFailure(sqlValue, to: UUID.self)
    }
}

/// How a UUID is stored.
public enum UUIDStorage: Sendable, Hashable {
    /// 36-character lowercase TEXT, RFC 9562's canonical form (the default).
    ///
    /// Tables Slate creates declare such columns `COLLATE NOCASE`, so that every comparison —
    /// the builder's, `find`, joins, `UNIQUE` and primary keys, SQL written by hand — matches a
    /// UUID whatever the letter case it was stored in (older versions of Slate wrote uppercase),
    /// and indexes still serve the lookups. The builder also compares values with UUID columns
    /// `COLLATE NOCASE`, so that a column declared without it (a table created by an older version
    /// of Slate, or by your own SQL) never misses a row either; such a column cannot use its
    /// index for those lookups, and ``Database/verifySchema(of:)``, `slate check` and
    /// `slate generate` report it.
    case text
    /// 16 raw bytes.
    case blob

    /// The SQL value storing `uuid`.
    public func sqlValue(for uuid: UUID) -> SQLValue {
        switch self {
        case .text: return .text(uuid.lowercasedText)
        case .blob: return .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })
        }
    }
}

extension Statement {
    /// Binds `uuid` with an explicit storage.
    public func bind(_ uuid: UUID?, at index: Int, storage: UUIDStorage) throws {
        guard let uuid else { return try bindNull(at: index) }
        try bindValue(storage.sqlValue(for: uuid), at: index)
    }
}

// MARK: - URL

extension URL: SQLBindable, SQLExtractable {
    /// Stored as TEXT, its `absoluteString`.
    public var sqlValue: SQLValue { .text(absoluteString) }

    public init(sqlValue: SQLValue) throws {
        guard case .text(let text) = sqlValue, let url = URL(string: text) else {
            throw DatabaseError.conversionFailure(sqlValue, to: URL.self)
        }
        self = url
    }
}

// MARK: - Decimal

extension Decimal: SQLBindable, SQLExtractable {
    /// Stored as TEXT in plain decimal notation, so no digit is lost.
    public var sqlValue: SQLValue { .text(description) }

    /// Reads text that spells a decimal number exactly (all of it: `12abc` throws; `NaN`, which is
    /// how ``Decimal/nan`` is stored, reads back as NaN), an integer, and a REAL as the number its
    /// shortest round-trip decimal text spells (`123.456` reads `Decimal(string: "123.456")`, never
    /// `Decimal(123.456)`'s binary digits). A number that a `Decimal` cannot hold exactly — more
    /// significant digits than its 128-bit mantissa holds, or beyond its exponent range — throws ``ResultCode/mismatch``.
    public init(sqlValue: SQLValue) throws {
        let posix = Locale(identifier: "en_US_POSIX")
        switch sqlValue {
        case .text(let text):
            if text == Decimal.nan.description {
                self = .nan
                return
            }
            // `Decimal(string:)` reads the longest number at the start of the text and ignores the
            // rest, and rounds what its 128-bit mantissa cannot hold: check first that all of it is
            // a number, then that no digit was lost.
            if SpelledNumber(text) != nil {
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard let decimal = Decimal(string: trimmed, locale: posix), !decimal.isNaN else {
                    throw DatabaseError.conversionFailure(
                        sqlValue, to: Decimal.self, reason: "the number is beyond the range of Decimal")
                }
                let digits = Decimal.significantDigits(trimmed)
                guard
                    digits.count <= Decimal.maximumSignificantDigits
                        || digits == Decimal.significantDigits(decimal.description)
                else {
                    throw DatabaseError.conversionFailure(
                        sqlValue, to: Decimal.self, reason: "a Decimal cannot hold all its significant digits")
                }
                self = decimal
                return
            }
        case .integer(let integer):
            self = Decimal(integer)
            return
        case .real(let real) where real.isFinite:
            // The shortest text that reads back as this double, exactly as a Decimal.
            if let decimal = Decimal(string: real.description, locale: posix), !decimal.isNaN {
                self = decimal
                return
            }
            throw DatabaseError.conversionFailure(
                sqlValue, to: Decimal.self, reason: "the number is beyond the range of Decimal")
        default: break
        }
        throw DatabaseError.conversionFailure(sqlValue, to: Decimal.self)
    }

    /// The significant decimal digits every `Decimal` holds without rounding (its 128-bit
    /// mantissa holds some numbers of 39 digits, which are compared digit by digit).
    static let maximumSignificantDigits = 38

    /// The significant digits of a decimal literal's mantissa: without leading zeros, nor trailing
    /// zeros (which the exponent absorbs).
    static func significantDigits(_ literal: String) -> [UInt8] {
        var digits: [UInt8] = []
        var pendingZeros = 0
        for byte in literal.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if byte == UInt8(ascii: "0") {
                if !digits.isEmpty { pendingZeros += 1 }
            } else {
                digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: pendingZeros))
                digits.append(byte)
                pendingZeros = 0
            }
        }
        return digits
    }
}

// MARK: - Column storages

/// How a column stores values whose SQL form is a choice: dates, UUIDs, and Codable values as
/// JSON. Typed columns carry their storage, so that a value compared with a column is encoded
/// the way the column's data is stored.
public enum ColumnStorage: Sendable, Hashable {
    /// `Codable` values as JSON text.
    case json
    /// Dates with the given strategy, whatever the connection's.
    case date(DateStrategy)
    /// UUIDs as text or 16-byte blobs.
    case uuid(UUIDStorage)

    /// `value` as the argument this storage binds: a `Date` (or `Date?`) under ``date(_:)`` becomes
    /// an ``EncodedDate``, a `UUID` under ``uuid(_:)`` its SQL value; anything else is bound as it
    /// is (a JSON column's values are already ``JSONEncoded``).
    public func argument<Value: SQLBindable>(_ value: Value) -> any SQLBindable {
        switch self {
        case .date(let strategy):
            if let date = value as? Date? {
                return date.map { EncodedDate($0, strategy: strategy) } as EncodedDate?
            }
        case .uuid(let storage):
            if let uuid = value as? UUID? {
                return uuid.map { storage.sqlValue(for: $0) } as SQLValue?
            }
        case .json:
            break
        }
        return value
    }
}
