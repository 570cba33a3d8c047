import Foundation

/// The current row of another database engine's result, read by position: what lets a record's
/// ``RowDecodable/init(row:)`` decode a PostgreSQL row (in SlatePostgres) exactly as it decodes
/// an SQLite row. A ``Row`` made with ``Row/init(foreign:)`` asks its source for each value it
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
}
