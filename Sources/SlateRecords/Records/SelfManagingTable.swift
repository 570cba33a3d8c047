import SlateConcurrency
import SlateCore
import SlateQuery

/// A ``Table`` whose database table Slate creates when it is first needed and migrates when the
/// type changes. The `@Table` macro adopts it for you.
///
/// ```swift
/// @Table struct Note {
///     var id: Int64?
///     @Column(renamedFrom: "text") var body: String   // was `text`: renamed, data kept
/// }
/// let store = RecordStore(directory: documents)
/// try store.save([Note(id: nil, body: "Hello")])     // creates or migrates "Note" first
/// ```
///
/// See <doc:CodeFirst> for the migration rules.
public protocol SelfManagingTable: Table {
    /// Columns renamed since an earlier version of the type: each current column name, mapped to
    /// its previous name (`["body": "text"]`). A migration renames the column and keeps its data;
    /// without an entry, a renamed property is a dropped column plus a new one. Default: none.
    static var renamedColumns: [String: String] { get }

    /// The database file ``RecordStore`` keeps this type's table in, relative to the store's
    /// directory, or `nil` for the store's main file. Default: `nil`.
    static var databaseFile: String? { get }
}

extension SelfManagingTable {
    /// No renamed columns.
    public static var renamedColumns: [String: String] { [:] }

    /// The store's main file.
    public static var databaseFile: String? { nil }
}
