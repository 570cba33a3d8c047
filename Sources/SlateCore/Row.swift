import CSQLite
import Foundation

/// The current row of a query, lent to your code while the statement is positioned on it.
///
/// A `Row` is *non-copyable* and only ever *borrowed*: fetch methods, cursors and
/// ``RowDecodable/init(row:)`` hand it to a closure or initializer, and it cannot outlive that call.
/// So a row can never be read after its statement has moved on, been reset or been finalized —
/// the compiler refuses code that would keep it. Call ``copy()`` to keep the values:
///
/// ```swift
/// let names = try db.fetchAll("SELECT name, price FROM car") { row in
///     let name: String = try row[0]            // by index
///     let price: Int = try row["price"]        // by column name
///     return name
/// }
/// let kept: [CopiedRow] = try db.fetchAll("SELECT * FROM car") { $0.copy() }
/// ```
///
/// Reading a live row goes straight to `sqlite3_column_*`: no value is copied until you ask for it.
public struct Row: ~Copyable {
    /// Where a row's values are: one place, by construction.
    ///
    /// Every payload is a plain pointer, so a row is trivially destroyed and lending one per result
    /// row costs no reference counting. The values of a copied row and the source of a foreign row
    /// are reached through pointers that are valid while the row is lent (see
    /// `CopiedRow.withRow(_:)` and `Row.withForeign(_:_:)`), which the row cannot outlive.
    @usableFromInline
    package enum Source {
        /// The current row of a live statement: its `sqlite3_stmt *`, read by every typed read,
        /// and the statement, unretained (the row is borrowed only while the statement is on it).
        ///
        /// The one `Unmanaged` of `SlateCore` outside C callbacks. A strong reference makes the
        /// row non-trivial: a `swift_retain` and a `swift_release` for every `Row` made, and the
        /// Codable decoder makes one for every value it reads (`RowDecodingState.row`). Measured
        /// with a build that held `Statement` strongly here (session 40, `--quick --instructions`):
        /// `fetch-200k-ints` `slate-codable` 170.18 M → 195.39 M instructions, +14.8 %;
        /// `slate-record` 55.54 M → 56.50 M, +1.7 % (`slate-row-name` +1.8 %).
        ///
        /// The third payload is the statement's ``NamedReadLog``, which reads by name use without
        /// going through the statement.
        case statement(OpaquePointer, Unmanaged<Statement>, UnsafeMutablePointer<NamedReadLog>)
        /// Values copied out of a statement.
        case copied(UnsafePointer<CopiedRow>)
        /// The current row of another engine's result (a PostgreSQL row, in SlatePostgres).
        case foreign(UnsafePointer<any ForeignRowSource>)
    }

    /// Where this row's values are.
    @usableFromInline package let source: Source
    /// Where this row's column 0 is in the underlying result: non-zero for the columns of one
    /// table in a join.
    @usableFromInline package let columnOffset: Int32

    @inlinable
    package init(source: Source, columnOffset: Int32 = 0) {
        self.source = source
        self.columnOffset = columnOffset
    }

    /// A row reading the current row of `statement`.
    @inlinable
    package init(statement: Statement) {
        self.init(
            source: .statement(statement.handle, Unmanaged.passUnretained(statement), statement.namedReadLog))
    }

    /// A row reading copied values, valid while `copied` is.
    @inlinable
    package init(copied: UnsafePointer<CopiedRow>) {
        self.init(source: .copied(copied))
    }

    /// Lends a row reading the current row of another engine's result to `body`.
    @inlinable
    package static func withForeign<Result>(
        _ source: any ForeignRowSource, _ body: (borrowing Row) throws -> Result
    ) rethrows -> Result {
        try withUnsafePointer(to: source) { source in try body(Row(source: .foreign(source))) }
    }

    /// The live statement's `sqlite3_stmt *`, or `nil` for a row that is not a statement's.
    @inlinable
    package var sqliteStatement: OpaquePointer? {
        if case .statement(let handle, _, _) = source { return handle }
        return nil
    }

    /// The values of a row read from a ``CopiedRow``.
    @usableFromInline
    package var copied: CopiedRow? {
        if case .copied(let copied) = source { return copied.pointee }
        return nil
    }

    /// The current row of another engine's result, or `nil`.
    @usableFromInline
    package var foreign: (any ForeignRowSource)? {
        if case .foreign(let foreign) = source { return foreign.pointee }
        return nil
    }

    /// A view of the same row whose column 0 is column `offset` of this row: joins decode each
    /// table's record from position 0. The view is as short-lived as this row.
    @inlinable
    package func shifted(by offset: Int) -> Row {
        Row(source: source, columnOffset: columnOffset &+ Int32(clamping: offset))
    }

    /// The live statement, while the row is lent.
    @usableFromInline
    package var statement: Statement? {
        if case .statement(_, let statement, _) = source { return statement.takeUnretainedValue() }
        return nil
    }

    /// The SQLite column position of column `index` of this row, or -1 when `index` is negative or
    /// too large (SQLite answers out-of-range positions with `NULL`, which ``isInRange(_:)`` tells
    /// apart).
    @inlinable
    package func position(_ index: Int) -> Int32 {
        guard index >= 0, index <= Int(Int32.max) else { return -1 }
        return Int32(truncatingIfNeeded: index) &+ columnOffset
    }

    /// Whether `index` is a column of this row.
    ///
    /// An optional read of a live row asks this for every `NULL` it reads (SQLite answers an
    /// out-of-range column with `NULL` too), so the live case is one `sqlite3_column_count` call.
    @inlinable
    public func isInRange(_ index: Int) -> Bool {
        if case .statement(let handle, _, _) = source {
            // `position(index)` wraps below `columnOffset` only for an index past any real column.
            let position = position(index)
            return index >= 0 && position >= columnOffset && position < sqlite3_column_count(handle)
        }
        return index >= 0 && index < count
    }

    /// The number of columns.
    public var count: Int {
        let columns: Int
        switch source {
        case .statement(let handle, _, _): columns = Int(sqlite3_column_count(handle))
        case .copied(let copied): columns = copied.pointee.values.count
        case .foreign(let foreign): columns = foreign.pointee.columnCount
        }
        return max(0, columns - Int(columnOffset))
    }

    /// The column names, in order.
    public var columnNames: [String] {
        let names: [String]
        switch source {
        case .statement(_, let statement, _): names = statement.takeUnretainedValue().columnNames
        case .copied(let copied): names = copied.pointee.columnNames
        case .foreign(let foreign): names = foreign.pointee.columnNames
        }
        return columnOffset == 0 ? names : Array(names.dropFirst(Int(columnOffset)))
    }

    /// How dates in this row are read.
    public var dateStrategy: DateStrategy {
        switch source {
        case .statement(_, let statement, _): statement.takeUnretainedValue().dateStrategy
        case .copied(let copied): copied.pointee.dateStrategy
        case .foreign(let foreign): foreign.pointee.dateStrategy
        }
    }

    /// The SQL the row came from, when known.
    public var sql: String? {
        switch source {
        case .statement(_, let statement, _): statement.takeUnretainedValue().sql
        case .copied(let copied): copied.pointee.sql
        case .foreign(let foreign): foreign.pointee.sql
        }
    }

    /// An object that stands for the row's result columns, or `nil` when nothing does (a row of
    /// another engine): the live statement's ``Statement/columnsToken``, which changes when SQLite
    /// re-prepares the statement with other columns, or a copied row's column layout. What is
    /// learned from one row's columns (a Codable decoder's key order) holds for another row while
    /// this is the same object.
    package var columnsIdentity: AnyObject? {
        switch source {
        case .statement(_, let statement, _): statement.takeUnretainedValue().columnsToken
        case .copied(let copied): copied.pointee.layout
        case .foreign: nil
        }
    }

    /// The index of the first column called `name` (exact match first, then case-insensitive), or
    /// `nil`.
    public func index(ofColumn name: String) -> Int? {
        switch source {
        case .statement(_, let statement, _) where columnOffset == 0:
            return statement.takeUnretainedValue().columnIndexForRead(named: name)
        case .copied(let copied) where columnOffset == 0:
            return copied.pointee.layout.index(ofColumn: name)
        default:
            let names = columnNames
            return names.firstIndex(of: name) ?? names.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
        }
    }

    /// Whether a column called `name` exists.
    public func hasColumn(_ name: String) -> Bool { index(ofColumn: name) != nil }

    /// Whether column `index` holds `NULL` (or does not exist).
    @inlinable
    public func isNull(at index: Int) -> Bool {
        switch source {
        case .statement(let handle, _, _):
            return sqlite3_column_type(handle, position(index)) == SQLITE_NULL
        case .foreign(let foreign):
            let position = position(index)
            return position < 0 || Int(position) >= foreign.pointee.columnCount
                || foreign.pointee.isNull(at: Int(position))
        case .copied:
            return value(at: index).isNull
        }
    }

    /// The boxed value of column `index` (0-based); `.null` when out of range.
    public func value(at index: Int) -> SQLValue {
        let position = position(index)
        switch source {
        case .statement(let handle, _, _):
            return Self.readValue(handle, position)
        case .foreign(let foreign):
            let source = foreign.pointee
            return position >= 0 && Int(position) < source.columnCount ? source.value(at: Int(position)) : .null
        case .copied(let copied):
            let values = copied.pointee.values
            return position >= 0 && Int(position) < values.count ? values[Int(position)] : .null
        }
    }

    /// The boxed value of column `name`, or `nil` when there is no such column.
    public func value(named name: String) -> SQLValue? {
        index(ofColumn: name).map { value(at: $0) }
    }

    /// Every value, boxed, in column order.
    public var values: [SQLValue] {
        if case .copied(let copied) = source {
            let values = copied.pointee.values
            return columnOffset == 0 ? values : Array(values.dropFirst(Int(columnOffset)))
        }
        return (0..<count).map { value(at: $0) }
    }

    /// Reads column `index` as `Value`: `let name: String = try row[0]`.
    @inlinable
    public subscript<Value: SQLExtractable>(_ index: Int) -> Value {
        get throws { try Value.extract(from: self, at: index) }
    }

    /// Reads the column called `name` as `Value`: `let name: String = try row["name"]`.
    @inlinable
    public subscript<Value: SQLExtractable>(_ name: String) -> Value {
        get throws { try read(Value.self, named: name) }
    }

    /// Reads the column called `name`, or throws a ``ResultCode/range`` error listing the row's
    /// columns. A live statement finds each name with one comparison while the rows are read by
    /// name in the same order (see `Statement.columnIndexForRead(named:)`).
    @inlinable
    package func read<Value: SQLExtractable>(_ type: Value.Type, named name: String) throws -> Value {
        if columnOffset == 0, case .statement(_, _, let log) = source,
            let recorded = log.pointee.nextRecordedIndex(named: name)
        {
            // The value's read inlined here, for a recorded column only: its position is known
            // to be in range, so the read has no clamp of the index.
            return try Value.extract(from: self, at: recorded)
        }
        return try read(Value.self, lookingUp: name)
    }

    /// The slow path of ``read(_:named:)``: the column found by ``columnIndex(named:)``, then the
    /// value's read. Specialized for the caller's type but kept a call (`@inline(never)`), so that
    /// the inlined read stays small: the recorded name's comparison and the value's read (one read
    /// inlined for both paths cost 4 more instructions a read, its clamp of the index to `Int32`,
    /// in `fetch-200k-ints` `slate-row-name`).
    @inlinable @inline(never)
    package func read<Value: SQLExtractable>(_ type: Value.Type, lookingUp name: String) throws -> Value {
        try Value.extract(from: self, at: try columnIndex(named: name))
    }

    /// The index of column `name` found by ``index(ofColumn:)``, or a ``ResultCode/range`` error
    /// listing the row's columns.
    @usableFromInline
    package func columnIndex(named name: String) throws -> Int {
        guard let index = index(ofColumn: name) else { throw missingColumn(name) }
        return index
    }

    /// Reads column `index` as `type`; the spelling generated code uses.
    @inlinable
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, at index: Int) throws -> Value {
        try Value.extract(from: self, at: index)
    }

    /// Reads the column called `name` as `type`.
    @inlinable
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, named name: String) throws -> Value {
        try read(Value.self, named: name)
    }

    /// A copy of the row's values, which stays valid after the statement moves on.
    public func copy() -> CopiedRow {
        if columnOffset == 0, case .copied(let copied) = source { return copied.pointee }
        if columnOffset == 0, let statement {
            return CopiedRow(
                layout: statement.rowLayout, values: values, dateStrategy: statement.dateStrategy, sql: statement.sql)
        }
        return CopiedRow(
            layout: RowLayout(columnNames: columnNames), values: values, dateStrategy: dateStrategy, sql: sql)
    }

    @usableFromInline
    func missingColumn(_ name: String) -> DatabaseError {
        DatabaseError(
            resultCode: .range,
            message:
                "no column named \(name.truncatedForMessages); the row has columns \(columnNames.joined(separator: ", ").truncatedForMessages)",
            sql: sql)
    }

    /// Adds the column and the SQL to a conversion error.
    @usableFromInline
    package func contextualize(_ error: DatabaseError, column index: Int) -> DatabaseError {
        var error = error
        let names = columnNames
        if index < 0 || index >= names.count {
            error.extendedResultCode = .range
            error.message = "column index \(index) is out of range: the row has \(names.count) column(s)"
        } else {
            error.message = "column \(index) (\(names[index])): \(error.message)"
        }
        if error.sql == nil { error.sql = sql }
        return error
    }

    /// A conversion error for column `index`, with context.
    @usableFromInline
    package func conversionFailure(at index: Int, to type: Any.Type, reason: String? = nil) -> DatabaseError {
        contextualize(.conversionFailure(value(at: index), to: type, reason: reason), column: index)
    }

    /// The error for a read of a column that does not exist.
    @usableFromInline
    package func outOfRange(_ index: Int) -> DatabaseError {
        contextualize(DatabaseError(resultCode: .range, message: ""), column: index)
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
            return .text(bytes: text, count: count)
        case SQLITE_BLOB:
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index))))
        default:
            return .null
        }
    }
}

/// The column names of a result, with their lookup table, shared by every row copied from it.
@usableFromInline
package final class RowLayout: Sendable {
    let columnNames: [String]
    private let lowercasedIndexes: [String: Int]

    init(columnNames: [String]) {
        self.columnNames = columnNames
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where indexes[name.lowercased()] == nil {
            indexes[name.lowercased()] = index
        }
        self.lowercasedIndexes = indexes
    }

    /// The first column called `name`: exact match first, then case-insensitive.
    func index(ofColumn name: String) -> Int? {
        columnNames.firstIndex(of: name) ?? lowercasedIndexes[name.lowercased()]
    }
}

/// The values of a row, copied out of its statement: what ``Row/copy()`` returns, and what
/// `db.fetchAll(CopiedRow.self, …)` fetches. It is an ordinary value — keep it, compare it, send it
/// across tasks.
///
/// ```swift
/// for row in try db.fetchAll(CopiedRow.self, "SELECT name, price FROM car") {
///     let name: String = try row[0]
///     let price: Int = try row["price"]
/// }
/// let car = try row.decode(Car.self)   // a RowDecodable record from the copy
/// ```
public struct CopiedRow: Sendable {
    @usableFromInline package let layout: RowLayout
    /// Every value, in column order.
    public let values: [SQLValue]
    /// How dates in this row are read.
    public let dateStrategy: DateStrategy
    /// The SQL the row came from, when known.
    public let sql: String?

    init(layout: RowLayout, values: [SQLValue], dateStrategy: DateStrategy, sql: String?) {
        self.layout = layout
        self.values = values
        self.dateStrategy = dateStrategy
        self.sql = sql
    }

    /// A row holding `values`, named by `columnNames`.
    public init(columnNames: [String], values: [SQLValue], dateStrategy: DateStrategy = .iso8601) {
        self.init(layout: RowLayout(columnNames: columnNames), values: values, dateStrategy: dateStrategy, sql: nil)
    }

    /// The column names, in order.
    public var columnNames: [String] { layout.columnNames }

    /// The number of columns.
    public var count: Int { values.count }

    /// Lends the copy as a ``Row``, for code written against rows.
    @inlinable
    public func withRow<Result>(_ body: (borrowing Row) throws -> Result) rethrows -> Result {
        try withUnsafePointer(to: self) { try body(Row(copied: $0)) }
    }

    /// Decodes a record from the copy, as ``RowDecodable/init(row:)`` does from a live row.
    @inlinable
    public func decode<Record: RowDecodable>(_ type: Record.Type) throws -> Record {
        try withRow { try Record(row: $0) }
    }

    /// The index of the first column called `name`, or `nil`.
    public func index(ofColumn name: String) -> Int? { layout.index(ofColumn: name) }

    /// Whether a column called `name` exists.
    public func hasColumn(_ name: String) -> Bool { index(ofColumn: name) != nil }

    /// Whether column `index` holds `NULL` (or does not exist).
    public func isNull(at index: Int) -> Bool { value(at: index).isNull }

    /// The boxed value of column `index`; `.null` when out of range.
    public func value(at index: Int) -> SQLValue {
        values.indices.contains(index) ? values[index] : .null
    }

    /// The boxed value of column `name`, or `nil` when there is no such column.
    public func value(named name: String) -> SQLValue? {
        index(ofColumn: name).map { values[$0] }
    }

    /// Reads column `index` as `Value`.
    @inlinable
    public subscript<Value: SQLExtractable>(_ index: Int) -> Value {
        get throws { try withRow { try $0.decode(at: index) } }
    }

    /// Reads the column called `name` as `Value`.
    @inlinable
    public subscript<Value: SQLExtractable>(_ name: String) -> Value {
        get throws { try withRow { try $0.decode(named: name) } }
    }

    /// Reads column `index` as `type`.
    @inlinable
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, at index: Int) throws -> Value {
        try withRow { try $0.decode(at: index) }
    }

    /// Reads the column called `name` as `type`.
    @inlinable
    public func decode<Value: SQLExtractable>(_ type: Value.Type = Value.self, named name: String) throws -> Value {
        try withRow { try $0.decode(named: name) }
    }
}

extension CopiedRow: Hashable {
    /// Rows are equal when their column names and values are equal.
    public static func == (lhs: CopiedRow, rhs: CopiedRow) -> Bool {
        lhs.columnNames == rhs.columnNames && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(values)
    }
}

extension CopiedRow: CustomStringConvertible {
    /// `[name: value, …]`, each value truncated.
    public var description: String {
        "[" + zip(columnNames, values).map { "\($0): \($1.shortDescription)" }.joined(separator: ", ") + "]"
    }
}

extension CopiedRow: RowDecodable {
    /// Copies `row`.
    public init(row: borrowing Row) throws {
        self = row.copy()
    }
}

/// A type that can be built from a result row, such as a record decoded by column position.
///
/// ```swift
/// struct Car: RowDecodable {
///     var name: String
///     var price: Int
///     init(row: borrowing Row) throws {
///         name = try row.decode(at: 0)
///         price = try row.decode(at: 1)
///     }
/// }
/// let cars = try db.fetchAll(Car.self, "SELECT name, price FROM car")
/// ```
public protocol RowDecodable {
    /// Creates a value from the current row, which is lent for this call only.
    init(row: borrowing Row) throws
}

extension Statement {
    /// Lends the statement's current row, after a ``step()`` that returned `true`:
    ///
    /// ```swift
    /// let statement = try db.prepare(sql: "SELECT name FROM player")
    /// while try statement.step() {
    ///     let name: String = try statement.withCurrentRow { try $0[0] }
    /// }
    /// ```
    @inlinable
    public func withCurrentRow<Result>(_ body: (borrowing Row) throws -> Result) rethrows -> Result {
        try body(Row(statement: self))
    }
}

extension String {
    /// The string, cut to 200 characters with a mark when longer: what error messages show of a
    /// value, so that a failed read of a large value stays cheap and readable.
    package var truncatedForMessages: String {
        let limit = 200
        guard utf8.count > limit else { return self }
        var cut = String(prefix(limit))
        while cut.utf8.count > limit { cut.removeLast() }
        return cut + "… (\(utf8.count) bytes)"
    }
}
