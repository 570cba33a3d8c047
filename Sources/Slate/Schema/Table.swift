/// A Swift type stored as the rows of one database table: the runtime protocol of Slate's typed
/// layer.
///
/// Hand-written types, the `@Table` macro and `slate generate` all conform the same way, with
/// straight-line code and no reflection: the table name, one ``ColumnDescriptor`` per column, a
/// ``TableColumns`` struct of typed ``Column``s for queries, and two functions that read and bind
/// the columns **by position**, in the order of ``columnDescriptors``:
///
/// ```swift
/// struct Artist: PrimaryKeyedTable, Hashable, Sendable {
///     var artistId: Int64?
///     var name: String?
///
///     static let tableName = "Artist"
///     static let columnDescriptors: [ColumnDescriptor] = [
///         .init(name: "ArtistId", sqlType: "INTEGER", isNullable: false, primaryKeyPosition: 1),
///         .init(name: "Name", sqlType: "NVARCHAR(120)"),
///     ]
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
///     func bindColumns(to statement: Statement, startingAt index: Int) throws {
///         try artistId.bind(to: statement, at: index)
///         try name.bind(to: statement, at: index + 1)
///     }
///     mutating func didInsert(rowID: Int64) { artistId = rowID }
///     var primaryKey: Int64? { artistId }
/// }
/// ```
///
/// Then `Artist.where { $0.name == "AC/DC" }.fetchAll(db)`, `db.insert(artist)`, and
/// `db.create(table: Artist.self)` all work. See <doc:DefiningTables>.
///
/// `Table` refines ``QuerySource``, from which it takes its ``QuerySource/Columns`` type: the typed
/// columns handed to query closures.
public protocol Table: RowDecodable, QuerySource {
    /// The table name, unquoted.
    static var tableName: String { get }

    /// The columns, in the order ``init(row:)`` decodes them and ``bindColumns(to:startingAt:)``
    /// binds them.
    static var columnDescriptors: [ColumnDescriptor] { get }

    /// The table's foreign keys. The default derives one single-column key from each column's
    /// ``ColumnDescriptor/references``; override it to declare multi-column keys.
    static var foreignKeys: [ForeignKeyDescriptor] { get }

    /// The indexes ``Database/create(table:ifNotExists:)`` creates with the table. Default: none.
    static var indexes: [IndexDescriptor] { get }

    /// Whether the table is declared `WITHOUT ROWID`. Default `false`.
    static var isWithoutRowID: Bool { get }

    /// Decodes a record from columns `0..<columnDescriptors.count` of `row`, by position.
    init(row: borrowing Row) throws

    /// Binds every column, in ``columnDescriptors`` order, to parameters `index`, `index + 1`, ….
    func bindColumns(to statement: Statement, startingAt index: Int) throws

    /// Called after the record was inserted, with the new row's rowid. Records whose primary key is
    /// an `INTEGER PRIMARY KEY` store it; the default does nothing.
    mutating func didInsert(rowID: Int64)
}

extension Table {
    /// Single-column foreign keys derived from the columns' ``ColumnDescriptor/references``.
    public static var foreignKeys: [ForeignKeyDescriptor] {
        columnDescriptors.compactMap { column in
            column.references.map { reference in
                ForeignKeyDescriptor(
                    columns: [column.name], referencedTable: reference.table,
                    referencedColumns: reference.column.map { [$0] } ?? [],
                    onDelete: reference.onDelete, onUpdate: reference.onUpdate)
            }
        }
    }

    /// No indexes.
    public static var indexes: [IndexDescriptor] { [] }

    /// A rowid table.
    public static var isWithoutRowID: Bool { false }

    /// Does nothing.
    public mutating func didInsert(rowID: Int64) {}

    /// Decodes the record itself: in a join, a table on the required side of the join is never
    /// `NULL`.
    @inlinable
    public static func decodeJoined(from row: borrowing Row) throws -> Self {
        try Self(row: row)
    }

    /// The names of the primary key columns, ordered by their position in the key.
    static var primaryKeyColumnNames: [String] {
        columnDescriptors.enumerated()
            .compactMap { index, column in column.primaryKeyPosition.map { (position: $0, index: index, name: column.name) } }
            .sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            .map(\.name)
    }

    /// The 0-based positions of the primary key columns, ordered by their position in the key.
    static var primaryKeyColumnIndexes: [Int] {
        columnDescriptors.enumerated()
            .compactMap { index, column in column.primaryKeyPosition.map { (position: $0, index: index) } }
            .sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            .map(\.index)
    }
}

/// A ``Table`` whose records are identified by a primary key, so they can be found, updated and
/// deleted one at a time.
///
/// A single-column key is the column's Swift type (`Int64?` for an `INTEGER PRIMARY KEY` that is
/// `nil` until the record is inserted); a composite key is a tuple and its conformance lists the
/// tuple's elements:
///
/// ```swift
/// var primaryKey: (Int64, Int64) { (playlistId, trackId) }
/// static func primaryKeyArguments(_ key: (Int64, Int64)) -> [(any SQLBindable)?] { [key.0, key.1] }
/// ```
public protocol PrimaryKeyedTable: Table {
    /// The key's Swift type: a column type, or a tuple for a composite key.
    associatedtype PrimaryKey

    /// The record's key.
    var primaryKey: PrimaryKey { get }

    /// The values of `key`'s columns, ordered by their position in the key. The default returns
    /// `[key]` when the key is a single bindable value.
    static func primaryKeyArguments(_ key: PrimaryKey) -> [(any SQLBindable)?]
}

extension PrimaryKeyedTable where PrimaryKey: SQLBindable {
    /// `[key]`.
    public static func primaryKeyArguments(_ key: PrimaryKey) -> [(any SQLBindable)?] {
        [key]
    }
}

extension PrimaryKeyedTable {
    /// The record's key values, ordered by their position in the key.
    var primaryKeyValues: [(any SQLBindable)?] { Self.primaryKeyArguments(primaryKey) }
}

/// Whether a bound argument is `NULL`: `nil`, or a boxed `Optional` that is `nil`.
func isNullArgument(_ value: (any SQLBindable)?) -> Bool {
    guard let value else { return true }
    if let optional = value as? any OptionalQueryValue { return optional.isNone }
    return false
}
