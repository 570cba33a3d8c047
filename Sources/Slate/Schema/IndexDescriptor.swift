/// An index declared by a ``Table``, created with the table by ``Database/create(table:ifNotExists:)``.
public struct IndexDescriptor: Sendable, Hashable {
    /// The index name, unquoted.
    public var name: String
    /// The indexed columns, in order.
    public var columns: [String]
    /// Whether the index is `UNIQUE`.
    public var isUnique: Bool

    /// Creates an index declaration.
    public init(name: String, columns: [String], isUnique: Bool = false) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
    }
}
