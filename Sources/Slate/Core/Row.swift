import CSQLite
import Foundation

/// One result row.
///
/// Inside a cursor or a fetch, a row reads straight from the statement's current row: no value is
/// copied until you ask for it. Such a row is only valid until the statement steps again; call
/// ``copy()`` to keep it. Rows returned by ``Database/fetchAll(_:_:)-(Row.Type,_)`` are copies.
///
/// ```swift
/// for row in try db.fetchAll(Row.self, "SELECT name, price FROM car") {
///     let name: String = try row[0]           // by index
///     let price: Int = try row["price"]       // by column name
/// }
/// ```
public struct Row {
    /// The live statement's `sqlite3_stmt *`, or `nil` for a copied row.
    @usableFromInline let sqliteStatement: OpaquePointer?
    /// The live statement, unretained: a live row never outlives the fetch that made it.
    /// (`Unmanaged` rather than an `unowned(unsafe)` optional, whose layout generic code misreads.)
    @usableFromInline let statementReference: Unmanaged<Statement>?
    /// The values of a copied row.
    @usableFromInline let storage: RowStorage?
    /// Where this row's column 0 is in the underlying result: non-zero for a view of the columns
    /// of one table in a join.
    @usableFromInline let columnOffset: Int32

    /// A row reading the current row of `statement`.
    @inlinable
    public init(statement: Statement) {
        self.sqliteStatement = statement.handle
        self.statementReference = Unmanaged.passUnretained(statement)
        self.storage = nil
        self.columnOffset = 0
    }

    /// A row holding `values`, named by `columnNames`.
    public init(columnNames: [String], values: [SQLValue], dateStrategy: DateStrategy = .iso8601) {
        self.sqliteStatement = nil
        self.statementReference = nil
        self.storage = RowStorage(columnNames: columnNames, values: values, dateStrategy: dateStrategy, sql: nil)
        self.columnOffset = 0
    }

    /// A row reading the current row of a live statement, from its parts: building it involves no
    /// reference counting.
    @inlinable
    init(sqliteStatement: OpaquePointer, statementReference: Unmanaged<Statement>?, columnOffset: Int32) {
        self.sqliteStatement = sqliteStatement
        self.statementReference = statementReference
        self.storage = nil
        self.columnOffset = columnOffset
    }

    @inlinable
    init(base: Row, offset: Int32) {
        self.sqliteStatement = base.sqliteStatement
        self.statementReference = base.statementReference
        self.storage = base.storage
        self.columnOffset = base.columnOffset &+ offset
    }

    /// A view of this row whose column 0 is column `offset` of this row. Joins use it so each
    /// table's record decodes its columns from position 0.
    @inlinable
    public func shifted(by offset: Int) -> Row {
        Row(base: self, offset: Int32(truncatingIfNeeded: offset))
    }

    @usableFromInline
    var statement: Statement? { statementReference?.takeUnretainedValue() }

    /// The number of columns (after the offset).
    public var count: Int {
        if let sqliteStatement { return max(0, Int(sqlite3_column_count(sqliteStatement)) - Int(columnOffset)) }
        return max(0, (storage?.values.count ?? 0) - Int(columnOffset))
    }

    /// The column names, in order.
    public var columnNames: [String] {
        let names = statement?.columnNames ?? storage?.columnNames ?? []
        return columnOffset == 0 ? names : Array(names.dropFirst(Int(columnOffset)))
    }

    /// How dates in this row are read.
    public var dateStrategy: DateStrategy {
        statement?.dateStrategy ?? storage?.dateStrategy ?? .iso8601
    }

    /// The SQL the row came from, when known.
    public var sql: String? { statement?.sql ?? storage?.sql }

    /// The index of the first column called `name` (case-insensitive), or `nil`.
    public func index(ofColumn name: String) -> Int? {
        if columnOffset == 0, let statementReference {
            return statementReference._withUnsafeGuaranteedRef { $0.columnIndex(named: name) }
        }
        if columnOffset != 0 {
            return columnNames.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
        }
        if let statement { return statement.columnIndex(named: name) }
        return storage?.columnIndex(named: name)
    }

    /// Whether a column called `name` exists.
    public func hasColumn(_ name: String) -> Bool { index(ofColumn: name) != nil }

    /// Whether column `index` holds `NULL` (or does not exist).
    @inlinable
    public func isNull(at index: Int32) -> Bool {
        if let sqliteStatement { return sqlite3_column_type(sqliteStatement, index &+ columnOffset) == SQLITE_NULL }
        return value(at: index).isNull
    }

    /// The boxed value of column `index` (0-based); `.null` when out of range.
    public func value(at index: Int32) -> SQLValue {
        let position = index &+ columnOffset
        if let sqliteStatement { return Self.readValue(sqliteStatement, position) }
        guard let values = storage?.values, index >= 0, Int(position) < values.count else { return .null }
        return values[Int(position)]
    }

    /// The boxed value of column `name`, or `nil` when there is no such column.
    public func value(named name: String) -> SQLValue? {
        index(ofColumn: name).map { value(at: Int32($0)) }
    }

    /// Every value, boxed, in column order.
    public var values: [SQLValue] {
        if let storage { return columnOffset == 0 ? storage.values : Array(storage.values.dropFirst(Int(columnOffset))) }
        return (0..<Int32(count)).map { value(at: $0) }
    }

    /// Reads column `index` as `Value`: `let name: String = try row[0]`.
    @inlinable
    public subscript<Value: SQLExtractable>(_ index: Int) -> Value {
        get throws { try Value.extract(from: self, at: Int32(truncatingIfNeeded: index)) }
    }

    /// Reads the column called `name` as `Value`: `let name: String = try row["name"]`.
    @inlinable
    public subscript<Value: SQLExtractable>(_ name: String) -> Value {
        get throws { try Value.extract(from: self, at: columnPosition(named: name)) }
    }

    /// The index of column `name`, or a ``ResultCode/range`` error listing the row's columns.
    @usableFromInline
    func columnPosition(named name: String) throws -> Int32 {
        guard let index = index(ofColumn: name) else { throw missingColumn(name) }
        return Int32(index)
    }

    /// Reads column `index` as `type`; the spelling generated code uses.
    @inlinable
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, at index: Int32) throws -> Value {
        try Value.extract(from: self, at: index)
    }

    /// Reads the column called `name` as `type`.
    @inlinable
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, named name: String) throws -> Value {
        try Value.extract(from: self, at: columnPosition(named: name))
    }

    /// A copy that stays valid after the statement moves on.
    public func copy() -> Row {
        if storage != nil && columnOffset == 0 { return self }
        let row = Row(columnNames: columnNames, values: values, dateStrategy: dateStrategy)
        row.storage?.sql = statement?.sql
        return row
    }

    private func missingColumn(_ name: String) -> DatabaseError {
        DatabaseError(
            resultCode: .range,
            message: "no column named \(name); the row has columns \(columnNames.joined(separator: ", "))",
            sql: sql)
    }

    /// Adds the column and the SQL to a conversion error.
    @usableFromInline
    func contextualize(_ error: DatabaseError, column index: Int32) -> DatabaseError {
        var error = error
        let names = columnNames
        if index < 0 || Int(index) >= names.count {
            error.extendedResultCode = .range
            error.message = "column index \(index) is out of range: the row has \(names.count) column(s)"
        } else {
            error.message = "column \(index) (\(names[Int(index)])): \(error.message)"
        }
        if error.sql == nil { error.sql = sql }
        return error
    }

    /// A conversion error for column `index`, with context.
    @usableFromInline
    func conversionFailure(at index: Int32, to type: Any.Type, reason: String? = nil) -> DatabaseError {
        contextualize(.conversionFailure(value(at: index), to: type, reason: reason), column: index)
    }

    static func readValue(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index))))
        default:
            return .null
        }
    }
}

/// The values of a copied row.
@usableFromInline
final class RowStorage: @unchecked Sendable {
    let columnNames: [String]
    @usableFromInline let values: [SQLValue]
    let dateStrategy: DateStrategy
    var sql: String?
    private lazy var indexes: [String: Int] = {
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where indexes[name.lowercased()] == nil {
            indexes[name.lowercased()] = index
        }
        return indexes
    }()

    init(columnNames: [String], values: [SQLValue], dateStrategy: DateStrategy, sql: String?) {
        self.columnNames = columnNames
        self.values = values
        self.dateStrategy = dateStrategy
        self.sql = sql
    }

    func columnIndex(named name: String) -> Int? { indexes[name.lowercased()] }
}

extension Row: Equatable {
    /// Rows are equal when their column names and values are equal.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.columnNames == rhs.columnNames && lhs.values == rhs.values
    }
}

extension Row: CustomStringConvertible {
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1.debugDescription)" }.joined(separator: ", ") + "]"
    }
}

/// A type that can be built from a result row, such as a record decoded by column position.
///
/// ```swift
/// struct Car: RowDecodable {
///     var name: String
///     var price: Int
///     init(row: Row) throws {
///         name = try row.decode(at: 0)
///         price = try row.decode(at: 1)
///     }
/// }
/// let cars = try db.fetchAll(Car.self, "SELECT name, price FROM car")
/// ```
public protocol RowDecodable {
    /// Creates a value from the current row. The row is valid only during this call.
    init(row: Row) throws
}

extension Row: RowDecodable {
    /// Copies `row`.
    public init(row: Row) throws {
        self = row.copy()
    }
}
