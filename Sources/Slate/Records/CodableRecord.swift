import Foundation

/// A `Codable` struct stored as the rows of a table, with no other code: Slate encodes and decodes
/// it by column name, creates its table when first needed and migrates the table when the type
/// changes.
///
/// ```swift
/// struct Bookmark: CodableRecord {
///     var id: Int64?                 // INTEGER PRIMARY KEY: nil until saved
///     var title: String
///     var url: URL
///     var tags: [String]             // nested values are stored as JSON text
///     mutating func didInsert(rowID: Int64) { id = rowID }
/// }
///
/// var bookmark = try db.save(Bookmark(id: nil, title: "Swift", url: swiftURL, tags: ["lang"]))
/// let tagged = try db.fetchAll(Bookmark.self, where: "EXISTS (SELECT 1 FROM json_each(tags) WHERE value = \("lang"))")
/// ```
///
/// The path through `Codable` is convenient but slower than the `@Table` macro's positional code.
///
/// Column types are inferred by decoding the type once with a probing decoder: see <doc:CodeFirst>.
/// Every requirement has a default.
public protocol CodableRecord: Codable {
    /// The table name. Default: the type name.
    static var tableName: String { get }

    /// The primary key's column names, in key order. Default: `["id"]` when the type has an `id`
    /// column, else none (the table keeps its hidden rowid).
    static var primaryKey: [String] { get }

    /// Column names for coding keys that are stored under another name: `["createdAt":
    /// "created_at"]`. Default: none, every key is its column's name.
    static var columnNames: [String: String] { get }

    /// Columns renamed since an earlier version of the type: each current column name mapped to its
    /// previous name. Migrations rename the column and keep its data. Default: none.
    static var renamedColumns: [String: String] { get }

    /// `DEFAULT` expressions (SQL text) for columns: `["score": "0"]`. A non-optional property
    /// added to a type whose table has rows needs one. Default: none.
    static var columnDefaults: [String: String] { get }

    /// Indexes to create with the table. Default: none.
    static var indexes: [IndexDescriptor] { get }

    /// The database file ``RecordStore`` keeps this type's table in, relative to the store's
    /// directory, or `nil` for the store's main file. Default: `nil`.
    static var databaseFile: String? { get }

    /// The columns, declared by hand, for types whose shape cannot be inferred (see <doc:CodeFirst>).
    /// Default: `nil`, inferred from the `Codable` implementation.
    static var declaredColumns: [ColumnDescriptor]? { get }

    /// Called after the record was inserted, with the new row's rowid. Store it when the primary
    /// key is an `INTEGER PRIMARY KEY`. Default: does nothing.
    mutating func didInsert(rowID: Int64)
}

extension CodableRecord {
    /// The type name.
    public static var tableName: String { String(describing: Self.self) }

    /// `["id"]`, used only when the type has an `id` column.
    public static var primaryKey: [String] { ["id"] }

    /// No renamed keys.
    public static var columnNames: [String: String] { [:] }

    /// No renamed columns.
    public static var renamedColumns: [String: String] { [:] }

    /// No defaults.
    public static var columnDefaults: [String: String] { [:] }

    /// No indexes.
    public static var indexes: [IndexDescriptor] { [] }

    /// The store's main file.
    public static var databaseFile: String? { nil }

    /// Inferred columns.
    public static var declaredColumns: [ColumnDescriptor]? { nil }

    /// Does nothing.
    public mutating func didInsert(rowID: Int64) {}
}

extension CodableRecord {
    /// The column name of a coding key.
    static func columnName(forKey key: String) -> String {
        columnNames[key] ?? key
    }
}
