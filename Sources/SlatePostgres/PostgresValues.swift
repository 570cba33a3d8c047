import Foundation
import NIOCore
import PostgresNIO
import SlateCore
import SlateQuery

// Values between Slate and PostgreSQL's binary format: the encoder that binds what records and
// queries hand out (PostgreSQLColumnEncoder), and the row source that lets `init(row:)` decode a
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
/// | `Date` | `timestamptz`, rounded to the microsecond (a date PostgreSQL cannot hold throws) |
/// | `UUID` | `uuid` |
/// | `Decimal` | `numeric` |
/// | ``JSONEncoded`` | `jsonb` |
/// | anything else | its ``SQLBindable/sqlValue``: `int8`, `float8`, `text` or `bytea` |
///
/// A date or UUID bound with an explicit storage (``EncodedDate``, or the ``SQLValue`` a UUID
/// storage makes) binds as that storage says, for columns that keep it (see
/// ``TableSchema/postgreSQLType(of:valueType:)``).
public struct PostgreSQLColumnEncoder: ColumnEncoder {
    /// The parameters so far.
    public var bindings: PostgresBindings

    /// An encoder with no parameter yet.
    public init(capacity: Int = 8) {
        bindings = PostgresBindings(capacity: capacity)
    }

    /// Binds `value` as the next parameter.
    ///
    /// The common types (`Int64`, `Int`, `String`, `Double`, `Bool`, `Date`, `UUID`, `Data` and
    /// their optionals) bind as themselves, recognised by comparing `Value` with each (no boxing,
    /// no dynamic cast); any other value binds through ``bind(_:)``.
    public mutating func encode<Value: SQLBindable>(_ value: Value) throws(any Error) {
        if let value = Self.exactly(value, Int64.self) { return bindings.append(value) }
        if let value = Self.exactly(value, String.self) { return bindings.append(value) }
        if let value = Self.exactly(value, Double.self) { return bindings.append(value) }
        if let value = Self.exactly(value, Int.self) { return bindings.append(Int64(value)) }
        if let value = Self.exactly(value, Int64?.self, Self.optionalInt64) {
            return value.map { bindings.append($0) } ?? bindings.appendNull()
        }
        if let value = Self.exactly(value, String?.self, Self.optionalString) {
            return value.map { bindings.append($0) } ?? bindings.appendNull()
        }
        if let value = Self.exactly(value, Double?.self, Self.optionalDouble) {
            return value.map { bindings.append($0) } ?? bindings.appendNull()
        }
        if let value = Self.exactly(value, Int?.self, Self.optionalInt) {
            return value.map { bindings.append(Int64($0)) } ?? bindings.appendNull()
        }
        if let value = Self.exactly(value, Bool.self) { return bindings.append(value) }
        if let value = Self.exactly(value, Bool?.self, Self.optionalBool) {
            return value.map { bindings.append($0) } ?? bindings.appendNull()
        }
        if let value = Self.exactly(value, Date.self) { return bindings.append(try PostgresTimestamp(value)) }
        if let value = Self.exactly(value, Date?.self, Self.optionalDate) {
            guard let value else { return bindings.appendNull() }
            return bindings.append(try PostgresTimestamp(value))
        }
        if let value = Self.exactly(value, UUID.self) { return bindings.append(value) }
        if let value = Self.exactly(value, UUID?.self, Self.optionalUUID) {
            return value.map { bindings.append($0) } ?? bindings.appendNull()
        }
        try bind(value)
    }

    /// `value` as a `Target` when `Value` is `Target` itself, else `nil`: a comparison of the two
    /// types' metadata first, so that the cast runs only for the type it succeeds for.
    private static func exactly<Value, Target>(_ value: Value, _ target: Target.Type) -> Target? {
        guard Value.self == Target.self else { return nil }
        return value as? Target
    }

    /// `value` as a `Target` when `Value` is `Target`, whose metadata is `identity` (one of the
    /// `Optional` identities below): an `Optional`'s metadata is looked up in the runtime's
    /// table each time it is named in code that is not specialized (~450 instructions), a
    /// stored identity is read once.
    private static func exactly<Value, Target>(_ value: Value, _ target: Target.Type, _ identity: ObjectIdentifier)
        -> Target?
    {
        guard ObjectIdentifier(Value.self) == identity else { return nil }
        return value as? Target
    }

    static let optionalInt64 = ObjectIdentifier(Int64?.self)
    static let optionalString = ObjectIdentifier(String?.self)
    static let optionalDouble = ObjectIdentifier(Double?.self)
    static let optionalInt = ObjectIdentifier(Int?.self)
    static let optionalBool = ObjectIdentifier(Bool?.self)
    static let optionalDate = ObjectIdentifier(Date?.self)
    static let optionalUUID = ObjectIdentifier(UUID?.self)

    /// Whether `value` is `nil`, when `Value` is one of the common optionals (without boxing
    /// it); else `nil`.
    static func isNone<Value>(_ value: Value) -> Bool? {
        let type = ObjectIdentifier(Value.self)
        if type == optionalInt64 { return exactly(value, Int64?.self, type).map { $0 == nil } }
        if type == optionalString { return exactly(value, String?.self, type).map { $0 == nil } }
        if type == optionalDouble { return exactly(value, Double?.self, type).map { $0 == nil } }
        if type == optionalInt { return exactly(value, Int?.self, type).map { $0 == nil } }
        if type == optionalBool { return exactly(value, Bool?.self, type).map { $0 == nil } }
        if type == optionalDate { return exactly(value, Date?.self, type).map { $0 == nil } }
        if type == optionalUUID { return exactly(value, UUID?.self, type).map { $0 == nil } }
        return nil
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
        case let value as Date: bindings.append(try PostgresTimestamp(value))
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
        case let value as Decimal: try bindings.append(value)
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

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeInteger(UInt8(1))
        byteBuffer.writeString(text)
    }
}

/// The current row of a PostgreSQL result, read by position: what a ``Row`` lent by
/// `Row.withForeign(_:_:)` asks for each value. One source serves every row of a result.
///
/// The cells of the common types (`int2`, `int4`, `int8`, `bool`, `float4`, `float8`, `text`,
/// `varchar`, `bpchar`, `name` in binary format) are decoded by ``load(_:)`` straight from their
/// bytes into plain numbers (text cells keep their bytes, made a `String` when read), and a
/// typed read (`Int64`, `Int32`, `Double`, `String`, `Bool`, …) takes them through
/// ``integer(at:)``, ``real(at:)`` or ``text(at:)``, with no ``SQLValue`` in between. The row's
/// exact rules apply to what they return (an `int8` read into an `Int32` must fit) and to every
/// other read, which goes through ``value(at:)``. The cells of every other type are converted by
/// ``load(_:)`` into SQLite's storage classes. It throws for a cell it cannot decode or convert
/// exactly.
///
/// Text is never repaired (postgres-nio's `String` decoding replaces invalid UTF-8): a text cell
/// whose bytes are not valid UTF-8 — which a `SQL_ASCII` database stores and sends as they are —
/// is no `String` (``text(at:)`` is `nil`) and a blob of its exact bytes in ``value(at:)``, as on
/// SQLite, so that a `String` read throws ``ResultCode/mismatch`` with the SQL and the column.
///
/// | PostgreSQL | value read |
/// | --- | --- |
/// | `int2`, `int4`, `int8`, `oid` | integer |
/// | `bool` | integer 0 or 1 |
/// | `float4`, `float8` | real |
/// | `numeric` | integer when whole and within 64 bits, else its exact decimal text |
/// | `text`, `varchar`, `bpchar`, `name`, `json`, `jsonb` | text |
/// | `uuid` | text, lowercased |
/// | `bytea` | blob |
/// | `timestamptz`, `timestamp`, `date` | ISO-8601 text; a `Date` reads the exact instant |
/// | anything else | an error naming the type (cast it in SQL: `CAST(x AS text)`) |
final class PostgresRowSource: ForeignRowSource {
    /// How the cells of a column are read.
    enum Kind {
        case int16, int32, int64, bool, float32, float64, text
        /// Converted by `load(_:)` into `converted` (and `dates`).
        case converted

        init(_ type: PostgresDataType, format: PostgresFormat) {
            guard format == .binary else {
                self = .converted
                return
            }
            switch type {
            case .int2: self = .int16
            case .int4: self = .int32
            case .int8: self = .int64
            case .bool: self = .bool
            case .float4: self = .float32
            case .float8: self = .float64
            case .text, .varchar, .bpchar, .name: self = .text
            default: self = .converted
            }
        }

        /// The number a cell of this kind holds (an integer, or a `Double`'s bit pattern), 0
        /// for text, or `nil` when `bytes` are not a valid cell of this kind (the length of its
        /// binary format; 0 or 1 for a boolean). Text is checked when read (``exactText(_:)``).
        func number(_ bytes: ByteBuffer) -> UInt64? {
            let start = bytes.readerIndex
            switch self {
            case .int16:
                guard bytes.readableBytes == 2, let value = bytes.getInteger(at: start, as: Int16.self) else {
                    return nil
                }
                return UInt64(bitPattern: Int64(value))
            case .int32:
                guard bytes.readableBytes == 4, let value = bytes.getInteger(at: start, as: Int32.self) else {
                    return nil
                }
                return UInt64(bitPattern: Int64(value))
            case .int64:
                guard bytes.readableBytes == 8, let value = bytes.getInteger(at: start, as: Int64.self) else {
                    return nil
                }
                return UInt64(bitPattern: value)
            case .bool:
                guard bytes.readableBytes == 1, let value = bytes.getInteger(at: start, as: UInt8.self), value <= 1
                else { return nil }
                return UInt64(value)
            case .float32:
                guard bytes.readableBytes == 4, let value = bytes.getInteger(at: start, as: UInt32.self) else {
                    return nil
                }
                return Double(Float(bitPattern: value)).bitPattern
            case .float64:
                guard bytes.readableBytes == 8, let value = bytes.getInteger(at: start, as: UInt64.self) else {
                    return nil
                }
                return value
            case .text, .converted:
                return 0
            }
        }
    }

    let sql: String?
    /// The columns and the current row, in memory the source allocates and frees (the pattern of
    /// SlateCore's `NamedReadLog`). One source is read by one task, a row at a time. Every access
    /// to a stored `var` of a class is checked for exclusivity at run time (`swift_beginAccess`,
    /// ~80 instructions; the compiler removed none of them here, although the state is private),
    /// memory reached through a pointer is not: the row's load and each read go through `current`,
    /// a `let`. What the pointer saves, measured in `fetch-all-20000` (`slate-pg-bench
    /// --instructions --scenario fetch`, 2026-11-29): the same struct as a stored `var` of the
    /// class (one check per load and per read) counted 308.5 M instructions per iteration, the
    /// pointer 296.4 M: +4.1 % without it (1.125× the hand-written baseline instead of 1.087×).
    private let current: UnsafeMutablePointer<CurrentRow>
    private var names: [String]?
    /// The first row, for its column names.
    private var firstRow: PostgresRow?

    init(sql: String?) {
        self.sql = sql
        current = .allocate(capacity: 1)
        current.initialize(to: CurrentRow())
    }

    deinit {
        current.deinitialize(count: 1)
        current.deallocate()
    }

    var columnCount: Int { current.pointee.columnCount }

    /// Moves to `row`, decoding each of its cells once.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/mismatch`` for a cell of a type Slate does
    ///   not convert, or whose bytes are not a valid value of its type.
    func load(_ row: PostgresRow) throws {
        if try current.pointee.load(row, sql: sql) { firstRow = row }
    }

    var columnNames: [String] {
        if let names { return names }
        guard let firstRow else { return [] }
        let found = firstRow.map(\.columnName)
        names = found
        return found
    }

    var dateStrategy: DateStrategy { .iso8601 }

    func isNull(at index: Int) -> Bool { current.pointee.isNull(at: index) }
    func date(at index: Int) -> Date? { current.pointee.date(at: index) }
    func integer(at index: Int) -> Int64? { current.pointee.integer(at: index) }
    func real(at index: Int) -> Double? { current.pointee.real(at: index) }
    func text(at index: Int) -> String? { current.pointee.text(at: index) }
    func value(at index: Int) -> SQLValue { current.pointee.value(at: index) }
    func isText(at index: Int) -> Bool { current.pointee.isText(at: index) }

    /// A column and its cell in the current row. One array of them, not one per field: each array
    /// a statement allocates costs ~800 instructions (its storage type's metadata is looked up at
    /// run time), which counts for an insert's one `RETURNING` row.
    struct Cell {
        /// How the column is read, from the first row (every row of a result has the same columns).
        var kind = Kind.converted
        /// Whether the column holds text (of any type PostgreSQL stores as text: `text`, `varchar`,
        /// `bpchar`, `name`, `json`, `jsonb`), valid UTF-8 or not.
        var isTextColumn = false
        /// Whether the cell is `NULL`.
        var isNull = true
        /// The value of an integer or boolean cell, the bit pattern of a floating-point one (as a
        /// `Double`); 0 for the other columns.
        var number: UInt64 = 0
        /// The bytes of a text cell; `nil` for the other columns.
        var text: ByteBuffer?
    }

    /// The columns and the current row's cells, decoded.
    struct CurrentRow {
        var columnCount = 0
        /// The columns and the current row's cells.
        var cells: [Cell] = []
        /// Whether some column is read as `.converted`.
        var convertsSome = false
        /// The value of each `.converted` cell (`.null` for the other columns); empty when none is.
        var converted: [SQLValue] = []
        /// The instant of each date or timestamp cell; empty when the row has none.
        var dates: [Date?] = []
        /// Whether ``cells`` are set up (from the first row).
        var hasColumns = false

        /// Moves to `row`; returns whether it is the first.
        mutating func load(_ row: PostgresRow, sql: String?) throws -> Bool {
            // The first row sets the columns up as its cells are read (one pass over them: each
            // step of the row's iterator makes a cell, ~600 instructions, which counts for a
            // statement that returns one row, as an insert's `RETURNING` does).
            let isFirst = !hasColumns
            if isFirst {
                hasColumns = true
                let count = row.count
                // Array(repeating:count:) is specialized here; reserveCapacity ran as generic code.
                cells = Array(repeating: Cell(), count: count)
                columnCount = count
            } else if convertsSome {
                converted.removeAll(keepingCapacity: true)
                dates.removeAll(keepingCapacity: true)
            }
            // Every row of a result has its columns (postgres-nio checks each row's count).
            var rowCells = row.makeIterator()
            for index in 0..<columnCount {
                guard let cell = rowCells.next() else {
                    throw DatabaseError(
                        resultCode: .mismatch,
                        message: "a PostgreSQL row has \(index) columns, its result \(columnCount)", sql: sql)
                }
                if isFirst {
                    let kind = Kind(cell.dataType, format: cell.format)
                    cells[index].kind = kind
                    cells[index].isTextColumn = PostgresRowSource.isTextType(cell.dataType)
                    if case .converted = kind { convertsSome = true }
                }
                let kind = cells[index].kind
                if case .converted = kind {
                    let (value, date) = try PostgresRowSource.convert(cell, sql: sql)
                    while converted.count < index { converted.append(.null) }
                    converted.append(value)
                    if let date {
                        while dates.count < index { dates.append(nil) }
                        dates.append(date)
                    }
                    cells[index].isNull = value.isNull
                } else if let bytes = cell.bytes {
                    guard let number = kind.number(bytes) else {
                        throw PostgresRowSource.failure(cell, "not a valid \(cell.dataType) value", sql: sql)
                    }
                    cells[index].isNull = false
                    cells[index].number = number
                    if case .text = kind { cells[index].text = bytes }
                } else {
                    cells[index].isNull = true
                    if case .text = kind { cells[index].text = nil }
                }
            }
            return isFirst
        }

        func isNull(at index: Int) -> Bool {
            guard cells.indices.contains(index) else { return true }
            return cells[index].isNull
        }

        func date(at index: Int) -> Date? {
            dates.indices.contains(index) ? dates[index] : nil
        }

        func integer(at index: Int) -> Int64? {
            guard cells.indices.contains(index), !cells[index].isNull else { return nil }
            switch cells[index].kind {
            case .int16, .int32, .int64, .bool: return Int64(bitPattern: cells[index].number)
            case .converted:
                if case .integer(let integer) = converted[index] { return integer }
                return nil
            case .float32, .float64, .text: return nil
            }
        }

        func real(at index: Int) -> Double? {
            guard cells.indices.contains(index), !cells[index].isNull else { return nil }
            switch cells[index].kind {
            case .float32, .float64: return Double(bitPattern: cells[index].number)
            case .converted:
                if case .real(let real) = converted[index] { return real }
                return nil
            case .int16, .int32, .int64, .bool, .text: return nil
            }
        }

        func text(at index: Int) -> String? {
            guard cells.indices.contains(index), !cells[index].isNull else { return nil }
            switch cells[index].kind {
            case .text:
                guard let bytes = cells[index].text else { return nil }
                return PostgresRowSource.exactText(bytes)
            case .converted:
                if case .text(let text) = converted[index] { return text }
                return nil
            case .int16, .int32, .int64, .bool, .float32, .float64: return nil
            }
        }

        func value(at index: Int) -> SQLValue {
            guard cells.indices.contains(index), !cells[index].isNull else { return .null }
            switch cells[index].kind {
            case .int16, .int32, .int64, .bool: return integer(at: index).map { .integer($0) } ?? .null
            case .float32, .float64: return real(at: index).map { .real($0) } ?? .null
            case .text:
                guard let bytes = cells[index].text else { return .null }
                return PostgresRowSource.textValue(bytes)
            case .converted: return converted[index]
            }
        }

        func isText(at index: Int) -> Bool {
            guard cells.indices.contains(index), !cells[index].isNull else { return false }
            switch cells[index].kind {
            case .text: return true
            case .converted: return cells[index].isTextColumn
            case .int16, .int32, .int64, .bool, .float32, .float64: return false
            }
        }
    }

    /// Whether PostgreSQL stores the values of `type` as text (in any encoding).
    static func isTextType(_ type: PostgresDataType) -> Bool {
        switch type {
        case .text, .varchar, .bpchar, .name, .json, .jsonb: true
        default: false
        }
    }

    /// The text of `bytes` when they are valid UTF-8, else `nil`: never a repaired string (as
    /// `ByteBuffer.getString` and postgres-nio's `String` decoding return). PostgreSQL text never
    /// holds a zero byte, so the bytes are all of the text.
    ///
    /// Read by `String(exactUTF8:count:)`, the one exact UTF-8 reader SQLite's text uses too (ASCII
    /// checked 8 bytes at a time and copied without a second validation, other bytes validated).
    /// Callgrind, 70,000 strings, per string against an unchecked `String(decoding:as:)`: ASCII of
    /// 10 bytes −25 instructions, of 18 bytes +14; the validating path alone +49;
    /// `String(validating:as:)` runs its generic validation unspecialized, ~+1,000.
    static func exactText(_ bytes: ByteBuffer) -> String? {
        bytes.withUnsafeReadableBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { buffer in
                guard let base = buffer.baseAddress else { return "" }
                return String(exactUTF8: base, count: buffer.count)
            }
        }
    }

    /// A text cell as a value: its text, or a blob of its exact bytes when they are not valid
    /// UTF-8 (as SQLite's TEXT reads, ``SlateCore/SQLValue/text(_:)``).
    static func textValue(_ bytes: ByteBuffer) -> SQLValue {
        if let text = exactText(bytes) { return .text(text) }
        return .blob(Data(bytes.readableBytesView))
    }

    /// The error for `cell`.
    static func failure(_ cell: PostgresCell, _ reason: String, sql: String?) -> DatabaseError {
        DatabaseError(
            resultCode: .mismatch,
            message:
                "column \(cell.columnIndex) (\(cell.columnName.truncatedForMessages)) of PostgreSQL type \(cell.dataType): \(reason)",
            sql: sql)
    }

    /// The value of one cell, and its instant for a date or timestamp.
    static func convert(_ cell: PostgresCell, sql: String?) throws -> (SQLValue, Date?) {
        guard var bytes = cell.bytes else { return (.null, nil) }
        func failure(_ reason: String) -> DatabaseError { Self.failure(cell, reason, sql: sql) }
        do {
            switch cell.dataType {
            case .int2, .int4, .int8, .oid:
                return (.integer(try cell.decode(Int64.self)), nil)
            case .bool:
                return (.integer(try cell.decode(Bool.self) ? 1 : 0), nil)
            case .float4, .float8:
                return (.real(try cell.decode(Double.self)), nil)
            case .numeric:
                guard cell.format == .binary, let text = NumericText.decode(&bytes) else {
                    throw failure("not a valid numeric value")
                }
                if let integer = Int64(text) { return (.integer(integer), nil) }
                return (.text(text), nil)
            case .bytea:
                return (.blob(Data(bytes.readableBytesView)), nil)
            case .uuid:
                return (.text(try cell.decode(UUID.self).lowercasedText), nil)
            case .timestamptz, .timestamp, .date:
                let date = try cell.decode(Date.self)
                return (try DateStrategy.iso8601.sqlValue(for: date), date)
            case .jsonb where cell.format == .binary:
                // Version 1 of jsonb's binary format: a version byte, then the text.
                guard bytes.readInteger(as: UInt8.self) == 1 else { throw failure("not a valid jsonb value") }
                return (textValue(bytes), nil)
            case .text, .varchar, .bpchar, .name, .json, .jsonb:
                return (textValue(bytes), nil)
            default:
                throw failure("Slate reads no value of this type; cast it in SQL (CAST(… AS text))")
            }
        } catch let error as DatabaseError {
            throw error
        } catch {
            throw failure("\(error)".truncatedForMessages)
        }
    }
}
