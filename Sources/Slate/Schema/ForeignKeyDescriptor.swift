/// A foreign key of a ``Table``: columns of this table referencing columns of another.
///
/// Single-column keys are usually declared on the column (``ColumnDescriptor/references``) and
/// derived by the default ``Table/foreignKeys``; declare multi-column keys here.
public struct ForeignKeyDescriptor: Sendable, Hashable {
    /// The referencing columns of this table, in order.
    public var columns: [String]
    /// The referenced (parent) table.
    public var referencedTable: String
    /// The referenced columns, in the order matching ``columns``. Empty means the parent table's
    /// primary key.
    public var referencedColumns: [String]
    /// What happens when the referenced row is deleted.
    public var onDelete: ForeignKeyAction
    /// What happens when the referenced key is updated.
    public var onUpdate: ForeignKeyAction

    /// Creates a foreign key from `columns` to `referencedTable`(`referencedColumns`).
    public init(
        columns: [String], referencedTable: String, referencedColumns: [String] = [],
        onDelete: ForeignKeyAction = .noAction, onUpdate: ForeignKeyAction = .noAction
    ) {
        self.columns = columns
        self.referencedTable = referencedTable
        self.referencedColumns = referencedColumns
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }
}
