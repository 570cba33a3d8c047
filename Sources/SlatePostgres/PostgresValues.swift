#if Postgres
import Foundation
import NIOCore
import PostgresNIO
import SlateCore
import SlateQuery

// Values between Slate and PostgreSQL's binary format: the encoder that binds what records and
// queries hand out (PostgresColumnEncoder), and the row source that lets `init(row:)` decode a
// PostgreSQL row by position (PostgresRowSource).

/// Binds each value handed to it as the next parameter of a PostgreSQL statement: the encoder of
/// SlatePostgres's write path, as ``StatementBinder`` is SQLite's.
///
/// | Swift value | PostgreSQL parameter |
/// | --- | --- |
/// | `Bool` | `bool` |
/// | integers | `int8` (a `UInt64` above `Int64.max` throws) |
/// | `Double`, `Float` | `float8`, `float4` |
/// | `String` | `text` |
/// | `Data`, `[UInt8]` | `bytea` |
/// | `Date` | `timestamptz` |
/// | `UUID` | `uuid` |
/// | `Decimal` | `numeric` |
/// | ``JSONEncoded`` | `jsonb` |
/// | anything else | its ``SQLBindable/sqlValue``: `int8`, `float8`, `text` or `bytea` |
///
/// A date or UUID bound with an explicit storage (``EncodedDate``, or the ``SQLValue`` a UUID
/// storage makes) binds as that storage says, for columns that keep it (see
/// ``TableSchema/postgreSQLType(of:valueType:)``).
public struct PostgresColumnEncoder: ColumnEncoder {
    /// The parameters so far.
    public var bindings: PostgresBindings

    /// An encoder with no parameter yet.
    public init(capacity: Int = 8) {
        bindings = PostgresBindings(capacity: capacity)
    }

    /// Binds `value` as the next parameter.
    public mutating func encode<Value: SQLBindable>(_ value: Value) throws(any Error) {
        try bind(value)
    }

    /// Binds a boxed value, `NULL` for `nil`.
    public mutating func bind(_ value: (any SQLBindable)?) throws(any Error) {
        guard let value else { return bindings.appendNull() }
        switch value {
        case let value as Int64: bindings.append(value)
        case let value as String: bindings.append(value)
        case let value as Int: bindings.append(Int64(value))
        case let value as Double: bindings.append(value)
        case let value as Bool: bindings.append(value)
        case let value as Date: bindings.append(value)
        case let value as UUID: bindings.append(value)
        case let value as Data: bindings.append(ByteBuffer(bytes: value))
        case let value as SQLValue: try bind(sqlValue: value)
        case let value as any OptionalBindable:
            try bind(value.wrappedBindable)
        case let value as Int32: bindings.append(Int64(value))
        case let value as Int16: bindings.append(Int64(value))
        case let value as Int8: bindings.append(Int64(value))
        case let value as UInt8: bindings.append(Int64(value))
        case let value as UInt16: bindings.append(Int64(value))
        case let value as UInt32: bindings.append(Int64(value))
        case let value as Float: bindings.append(value)
        case let value as [UInt8]: bindings.append(ByteBuffer(bytes: value))
        case let value as Decimal: bindings.append(value)
        case let value as any JSONStoredValue: bindings.append(JSONBText(text: try value.jsonText))
        default:
            // UInt64 and UInt above Int64.max, EncodedDate, RawRepresentable enums, URL, …: the
            // value as SQLite would store it (a lossy value throws there).
            try bind(sqlValue: value.sqlValue)
        }
    }

    /// Binds a boxed SQLite value.
    mutating func bind(sqlValue: SQLValue) throws(any Error) {
        switch sqlValue {
        case .null: bindings.appendNull()
        case .integer(let value): bindings.append(value)
        case .real(let value): bindings.append(value)
        case .text(let value): bindings.append(value)
        case .blob(let value): bindings.append(ByteBuffer(bytes: value))
        }
    }
}

/// `Optional`, seen as a bindable value that may be `nil`.
protocol OptionalBindable {
    var wrappedBindable: (any SQLBindable)? { get }
}

extension Optional: OptionalBindable where Wrapped: SQLBindable {
    var wrappedBindable: (any SQLBindable)? { self }
}

/// JSON text sent as `jsonb` (version 1 of its binary format: a version byte, then the text).
struct JSONBText: PostgresNonThrowingEncodable {
    let text: String

    static var psqlType: PostgresDataType { .jsonb }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(UInt8(1))
        byteBuffer.writeString(text)
    }
}

/// The current row of a PostgreSQL result, read by position: what a ``Row`` made with
/// `Row(foreign:)` asks for each value. One source serves every row of a result, moved to the next
/// row with ``load(_:)``; reading columns in order (as `init(row:)` does) walks the row's
/// binary cells once.
final class PostgresRowSource: ForeignRowSource {
    private var row: PostgresRow?
    private var iterator: PostgresRow.Iterator?
    private var current: PostgresCell?
    private var currentIndex = -1
    let sql: String?
    private(set) var columnCount = 0
    private var names: [String]?

    init(sql: String?) {
        self.sql = sql
    }

    /// Moves to `row`.
    func load(_ row: PostgresRow) {
        self.row = row
        iterator = nil
        current = nil
        currentIndex = -1
        if columnCount == 0 || names == nil { columnCount = row.count }
    }

    var columnNames: [String] {
        if let names { return names }
        guard let row else { return [] }
        let found = row.map(\.columnName)
        names = found
        return found
    }

    var dateStrategy: DateStrategy { .iso8601 }

    /// The cell at `index`, walking forward from the last one read.
    private func cell(at index: Int) -> PostgresCell? {
        guard let row, index >= 0, index < columnCount else { return nil }
        if index == currentIndex { return current }
        if iterator == nil || index < currentIndex {
            iterator = row.makeIterator()
            currentIndex = -1
        }
        while currentIndex < index {
            current = iterator?.next()
            currentIndex += 1
        }
        return current
    }

    func isNull(at index: Int) -> Bool {
        cell(at: index)?.bytes == nil
    }

    func date(at index: Int) -> Date? {
        guard let cell = cell(at: index), cell.bytes != nil else { return nil }
        switch cell.dataType {
        case .timestamptz, .timestamp, .date:
            return try? cell.decode(Date.self)  // nil: not readable as a date; the row then reports the value
        default:
            return nil
        }
    }

    func value(at index: Int) -> SQLValue {
        guard let cell = cell(at: index), var bytes = cell.bytes else { return .null }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8, .oid:
                return .integer(try cell.decode(Int64.self))
            case .bool:
                return .integer(try cell.decode(Bool.self) ? 1 : 0)
            case .float4, .float8:
                return .real(try cell.decode(Double.self))
            case .numeric:
                // Exact: an integer when it is one and fits, else its decimal text.
                let decimal = try cell.decode(Decimal.self)
                if decimal == decimal.rounded(), decimal.magnitude <= Decimal(Int64.max), let integer = Int64(exactly: NSDecimalNumber(decimal: decimal).int64Value),
                    Decimal(integer) == decimal
                {
                    return .integer(integer)
                }
                return .text(decimal.description)
            case .bytea:
                return .blob(Data(bytes.readableBytesView))
            case .uuid:
                return .text(try cell.decode(UUID.self).uuidString.lowercased())
            case .timestamptz, .timestamp, .date:
                let date = try cell.decode(Date.self)
                do {
                    return try DateStrategy.iso8601.sqlValue(for: date)
                } catch {
                    return .real(date.timeIntervalSince1970)  // outside ISO-8601's years: Unix seconds
                }
            case .text, .varchar, .bpchar, .name, .json, .jsonb:
                return .text(try cell.decode(String.self))
            default:
                if cell.format == .text, let text = bytes.readString(length: bytes.readableBytes) { return .text(text) }
                // A type Slate does not convert: its binary value, as bytes.
                return .blob(Data(bytes.readableBytesView))
            }
        } catch {
            return .blob(Data(bytes.readableBytesView))
        }
    }
}

extension Decimal {
    fileprivate func rounded() -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, .plain)
        return result
    }
}
#endif
