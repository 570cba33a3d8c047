import Foundation

/// The current row of another database engine's result, read by position: what lets a record's
/// ``RowDecodable/init(row:)`` decode a PostgreSQL row (in SlatePostgres) exactly as it decodes
/// an SQLite row. A ``Row`` lent by `Row.withForeign(_:_:)` asks its source for each value it
/// reads; every check of Slate's value conversions (exact integers, no NULL in a non-optional)
/// applies unchanged.
@usableFromInline
package protocol ForeignRowSource: AnyObject {
    /// The number of columns.
    var columnCount: Int { get }
    /// The column names, in order.
    var columnNames: [String] { get }
    /// The SQL the row came from.
    var sql: String? { get }
    /// How dates stored as text or numbers are read.
    var dateStrategy: DateStrategy { get }
    /// Whether column `index` (0-based, in range) holds `NULL`.
    func isNull(at index: Int) -> Bool
    /// The value of column `index` (0-based, in range), in one of SQLite's storage classes.
    func value(at index: Int) -> SQLValue
    /// The value of column `index` when the engine stores it as a date or timestamp, else `nil`
    /// (the row then reads the value with the column's date strategy).
    func date(at index: Int) -> Date?
    /// The typed reads' fast path, straight from the engine's value: column `index` (0-based; any
    /// `index`, `nil` when out of range) when the engine stores an integer there (a boolean as 0
    /// or 1), else `nil`, and the row reads ``value(at:)`` under the exact rules.
    func integer(at index: Int) -> Int64?
    /// Column `index` when the engine stores a floating-point number there, else `nil` (see
    /// ``integer(at:)``).
    func real(at index: Int) -> Double?
    /// Column `index` when the engine stores text there, else `nil` (see ``integer(at:)``). Text
    /// whose bytes are not valid UTF-8 is `nil` here and a blob of its exact bytes in
    /// ``value(at:)``, as SQLite's is: never a repaired `String`.
    func text(at index: Int) -> String?
    /// Whether the engine stores text in column `index` (0-based; any `index`, `false` when out of
    /// range), valid UTF-8 or not:
    /// a `String` read of text that ``value(at:)`` returns as a blob says that it is not UTF-8.
    func isText(at index: Int) -> Bool
}

extension Row {
    // The foreign fast paths of the typed reads: `nil` for a row of SQLite (or a copied row), or
    // when the engine holds another kind of value, which the exact rules then read. Calls, not
    // inlined: a foreign read already makes a call through the existential, and inlined (its copy
    // of the existential, the witness call) these made the inlinable readers too large for the
    // optimizer to inline a record's optional reads (`northwind-orders` `slate-generated`: see
    // Benchmarks/README.md, session 41).

    /// Column `index` of a foreign row as an integer, when its engine stores one there.
    @usableFromInline
    package func foreignInteger(at index: Int) -> Int64? {
        guard case .foreign(let foreign) = source else { return nil }
        return foreign.pointee.integer(at: Int(position(index)))
    }

    /// Column `index` of a foreign row as a double, when its engine stores one there.
    @usableFromInline
    package func foreignReal(at index: Int) -> Double? {
        guard case .foreign(let foreign) = source else { return nil }
        return foreign.pointee.real(at: Int(position(index)))
    }

    /// Column `index` of a foreign row as text, when its engine stores text there.
    @usableFromInline
    package func foreignText(at index: Int) -> String? {
        guard case .foreign(let foreign) = source else { return nil }
        return foreign.pointee.text(at: Int(position(index)))
    }
}
