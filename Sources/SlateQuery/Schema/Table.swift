import SlateConcurrency
import SlateCore

/// A Swift type stored as the rows of one database table: the runtime protocol of Slate's typed
/// layer.
///
/// Hand-written types, the `@Table` macro, `slate generate` and ``CodableRecord`` all conform the
/// same way: a ``TableSchema`` describing the table, a ``TableColumns`` struct of typed ``Column``s
/// for queries, and two functions that read and hand out the record's values **by position**, in
/// the order of the schema's ``TableSchema/recordColumns``:
///
/// ```swift
/// struct Artist: PrimaryKeyedTable {
///     var artistId: Int64?
///     var name: String?
///
///     static let schema = TableSchema(name: "Artist", columns: [
///         .init(name: "ArtistId", type: "INTEGER", primaryKeyPosition: 1),
///         .init(name: "Name", type: "NVARCHAR(120)"),
///     ])
///     struct Columns: TableColumns {
///         let artistId: Column<Artist, Int64?>
///         let name: Column<Artist, String?>
///         init(qualifier: String) {
///             artistId = Column(qualifier, "ArtistId")
///             name = Column(qualifier, "Name")
///         }
///     }
///     init(row: borrowing Row) throws {
///         artistId = try row.decode(at: 0)
///         name = try row.decode(at: 1)
///     }
///     func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
///         try encoder.encode(artistId)
///         try encoder.encode(name)
///     }
///     mutating func didInsert(rowID: Int64) { artistId = rowID }
///     var primaryKey: Int64? { artistId }
/// }
/// ```
///
/// Then `Artist.where { $0.name == "AC/DC" }.fetchAll(db)`, `Artist.insert(artist).execute(db)`
/// and `db.createTable(for: Artist.self)` all work. See <doc:DefiningTables>.
public protocol Table: RowDecodable, QuerySource, Sendable {
    /// The table: name, columns, keys, indexes. It is read often; declare it with `static let`.
    static var schema: TableSchema { get }

    /// The table name, unquoted. Default: ``TableSchema/name``.
    static var tableName: String { get }

    /// Decodes a record from columns `0..<schema.recordColumns.count` of `row`, by position.
    init(row: borrowing Row) throws

    /// Hands out the record's values, one per column of ``TableSchema/recordColumns``, in order.
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure)

    /// Binds every column, in order, to parameters `index`, `index + 1`, … of a prepared
    /// statement. The default binds what ``encode(to:)`` hands out; types whose values come from
    /// elsewhere (Codable records) provide a faster path.
    func bindColumns(to statement: Statement, startingAt index: Int) throws

    /// Binds each of `records` in turn, as ``bindColumns(to:startingAt:)`` does, and calls `body`
    /// with the record's position once it is bound: the loop of a bulk insert, in one call. The
    /// statement is reset before each record is bound (an implementation of its own calls
    /// `statement.reset()`), and `body` runs it. The default binds every record with
    /// ``bindColumns(to:startingAt:)``; a type with state to find per statement (a Codable
    /// record's binder) finds it once for all the records.
    static func bindEach(
        of records: UnsafeBufferPointer<Self>, to statement: Statement, startingAt index: Int,
        _ body: (_ position: Int) throws -> Void
    ) throws

    /// Called after the record was inserted into a table whose schema has a rowid alias (an
    /// `INTEGER PRIMARY KEY`), with the new row's rowid, which is that key: the record stores it.
    /// The default does nothing.
    ///
    /// - Throws: When the record cannot hold the rowid (a key narrower than 64 bits): the row is
    ///   inserted, and the error says why the record could not learn its key.
    mutating func didInsert(rowID: Int64) throws

    /// Called on the connection before a statement writes to the table: self-managing tables
    /// create or migrate their table here. The default does nothing.
    static func prepareForWriting(_ db: Database) throws
}

extension Table {
    /// The table name, unquoted: ``TableSchema/name``.
    @inlinable
    public static var tableName: String { schema.name }

    /// Binds what ``encode(to:)`` hands out.
    @inlinable
    public func bindColumns(to statement: Statement, startingAt index: Int) throws {
        var binder = StatementBinder(statement: statement, startingAt: index)
        try encode(to: &binder)
    }

    /// Binds each record with ``bindColumns(to:startingAt:)``.
    @inlinable
    public static func bindEach(
        of records: UnsafeBufferPointer<Self>, to statement: Statement, startingAt index: Int,
        _ body: (_ position: Int) throws -> Void
    ) throws {
        for position in records.indices {
            statement.resetQuietly()
            try records[position].bindColumns(to: statement, startingAt: index)
            try body(position)
        }
    }

    /// Does nothing.
    public mutating func didInsert(rowID: Int64) {}

    /// Does nothing.
    @inlinable
    public static func prepareForWriting(_ db: Database) throws {}

    /// Decodes the record itself: in a join, a table on the required side of the join is never
    /// `NULL`.
    @inlinable
    public static func decodeJoined(from row: borrowing Row) throws -> Self {
        try Self(row: row)
    }

    /// The record's column values, in ``TableSchema/recordColumns`` order, unencoded.
    public var columnValues: [any SQLBindable] {
        var collector = ArgumentCollector()
        encode(to: &collector)
        return collector.values
    }
}

/// A ``Table`` whose records are identified by a primary key, so they can be found, updated and
/// deleted one at a time.
///
/// A single-column key is the column's Swift type (`Int64?` for an `INTEGER PRIMARY KEY` that is
/// `nil` until the record is inserted); a composite key is a tuple, and its conformance hands out
/// the tuple's elements:
///
/// ```swift
/// var primaryKey: (Int64, Int64) { (playlistId, trackId) }
/// static func encode<Encoder: ColumnEncoder>(primaryKey key: (Int64, Int64), to encoder: inout Encoder) throws(Encoder.Failure) {
///     try encoder.encode(key.0)
///     try encoder.encode(key.1)
/// }
/// ```
public protocol PrimaryKeyedTable: Table {
    /// The key's Swift type: a column type, or a tuple for a composite key.
    associatedtype PrimaryKey

    /// The record's key.
    var primaryKey: PrimaryKey { get }

    /// Hands out the values of `key`'s columns, ordered by their position in the key, stored as
    /// their columns store them. The default hands out `key` when it is a single bindable value.
    static func encode<Encoder: ColumnEncoder>(primaryKey key: PrimaryKey, to encoder: inout Encoder) throws(Encoder
        .Failure)
}

extension PrimaryKeyedTable where PrimaryKey: SQLBindable {
    /// Hands out `key`.
    @inlinable
    public static func encode<Encoder: ColumnEncoder>(primaryKey key: PrimaryKey, to encoder: inout Encoder)
        throws(Encoder.Failure)
    {
        try encoder.encode(key)
    }
}

extension PrimaryKeyedTable where Self: Identifiable, PrimaryKey == ID {
    /// The record's `id`.
    public var primaryKey: ID { id }
}

extension PrimaryKeyedTable {
    /// The values of `key`'s columns, unencoded, in key order.
    public static func primaryKeyValues(_ key: PrimaryKey) -> [any SQLBindable] {
        var collector = ArgumentCollector()
        encode(primaryKey: key, to: &collector)
        return collector.values
    }
}

/// Whether a bound argument is `NULL`: `nil`, or a boxed `Optional` that is `nil`.
package func isNullArgument(_ value: (any SQLBindable)?) -> Bool {
    guard let value else { return true }
    if let optional = value as? any OptionalQueryValue { return optional.isNone }
    if let sqlValue = value as? SQLValue { return sqlValue.isNull }
    return false
}

/// Rowids handed to ``Table/didInsert(rowID:)``.
public enum RowID {
    /// `rowID` as the key property's integer type.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/mismatch`` when the type cannot hold it (the
    ///   row is inserted; the record cannot learn its key).
    public static func converted<Value: FixedWidthInteger>(_ rowID: Int64, to type: Value.Type) throws -> Value {
        guard let value = Value(exactly: rowID) else {
            throw DatabaseError(
                resultCode: .mismatch,
                message: "the row was inserted with rowid \(rowID), which does not fit the record's \(Value.self) key")
        }
        return value
    }
}

/// `Value`, when it is a column value (`SQLBindable` and `SQLExtractable`): what the `@Table`
/// macro's expansion names a property's type through when the macro cannot see the type's
/// declaration. A type that is not a column value is then reported once —
/// `type 'Genre' does not conform to protocol 'SQLValueConvertible'`, at the alias — instead of at
/// every use in the expansion.
public enum ColumnValueCheck<Wrapped: SQLBindable & SQLExtractable> {
    /// The checked type.
    public typealias Checked = Wrapped
}
