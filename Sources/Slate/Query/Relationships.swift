// Fetching related records through declared foreign keys.
//
//     let albums = try db.fetchAll(Album.self, belongingTo: artist)      // Album.ArtistId → Artist
//     let artist = try db.fetchOne(Artist.self, referencedBy: album)
//     let reports = try Employee.belonging(to: boss, through: ["ReportsTo"]).fetchAll(db)
//
// The filters are not spelled `where(belongsTo:)`: an overload of `where` would make the compiler's
// diagnostics for mistakes in `where { … }` closures vague ("no exact matches in call").

/// A foreign key from `Child` to `Parent`, with both sides' column positions.
struct ResolvedForeignKey {
    /// The referencing columns of the child, by position in its column descriptors.
    var childIndexes: [Int]
    /// The referenced columns of the parent, by position, in the matching order.
    var parentIndexes: [Int]

    /// The one foreign key from `Child` to `Parent`, or the one made of `columns` when given.
    static func resolve<Child: Table, Parent: Table>(
        from child: Child.Type, to parent: Parent.Type, through columns: [String]?
    ) throws -> ResolvedForeignKey {
        var candidates = Child.foreignKeys.filter { $0.referencedTable.lowercased() == Parent.tableName.lowercased() }
        if let columns {
            candidates = candidates.filter { $0.columns.map { $0.lowercased() } == columns.map { $0.lowercased() } }
        }
        let through = columns.map { " through (\($0.joined(separator: ", ")))" } ?? ""
        guard let foreignKey = candidates.first else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(Child.tableName) has no foreign key to \(Parent.tableName)\(through): declare it in "
                    + "\(Child.self).foreignKeys or with a column's references")
        }
        guard candidates.count == 1 else {
            let listed = candidates.map { "(" + $0.columns.joined(separator: ", ") + ")" }.joined(separator: ", ")
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(Child.tableName) has \(candidates.count) foreign keys to \(Parent.tableName): \(listed); "
                    + "name the columns of the one to use with `through:`")
        }
        let referenced = foreignKey.referencedColumns.isEmpty ? Parent.primaryKeyColumnNames : foreignKey.referencedColumns
        guard referenced.count == foreignKey.columns.count else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the foreign key (\(foreignKey.columns.joined(separator: ", "))) of \(Child.tableName) has "
                    + "\(foreignKey.columns.count) column(s) but references \(referenced.count) column(s) of \(Parent.tableName)")
        }
        return ResolvedForeignKey(
            childIndexes: try foreignKey.columns.map { try index(of: $0, in: Child.self) },
            parentIndexes: try referenced.map { try index(of: $0, in: Parent.self) })
    }

    private static func index<T: Table>(of column: String, in table: T.Type) throws -> Int {
        let name = column.lowercased()
        guard let index = T.columnDescriptors.firstIndex(where: { $0.name.lowercased() == name }) else {
            throw DatabaseError(resultCode: .misuse, message: "\(T.tableName) has no column \(column) (named by a foreign key)")
        }
        return index
    }

    /// `"q"."c1" = ? AND "q"."c2" = ?` for the columns of `T` at `indexes` and the values.
    static func predicate<T: Table>(_ table: T.Type, qualifier: String, indexes: [Int], values: [SQLValue]) -> SQLExpression<Bool> {
        let prefix = qualifier.quotedIdentifier + "."
        let parts = zip(indexes, values).map { index, value in
            SQL(sql: prefix + T.columnDescriptors[index].name.quotedIdentifier + " = ?", arguments: [value])
        }
        return SQLExpression(sql: SQL.joined(parts, separator: " AND "), precedence: parts.count == 1 ? .equality : .and)
    }
}

extension Select {
    /// Keeps the records whose foreign key references `parent`: the pets of a person.
    ///
    /// The foreign key is the one `Root` declares to `Parent`'s table; when it declares several,
    /// name the referencing columns with `through`.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` when no foreign key, or more than one,
    ///   matches.
    public func belonging<Parent: Table>(to parent: Parent, through columns: [String]? = nil) throws -> Select {
        let key = try ResolvedForeignKey.resolve(from: Root.self, to: Parent.self, through: columns)
        let parentValues = try RecordValues.capture(parent)
        var copy = self
        copy.clauses.predicates.append(
            ResolvedForeignKey.predicate(
                Root.self, qualifier: qualifier, indexes: key.childIndexes, values: key.parentIndexes.map { parentValues[$0] }))
        return copy
    }

    /// Keeps the record that `child` references through its foreign key: the owner of a pet.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` when no foreign key, or more than one,
    ///   matches.
    public func referenced<Child: Table>(by child: Child, through columns: [String]? = nil) throws -> Select {
        let key = try ResolvedForeignKey.resolve(from: Child.self, to: Root.self, through: columns)
        let childValues = try RecordValues.capture(child)
        var copy = self
        copy.clauses.predicates.append(
            ResolvedForeignKey.predicate(
                Root.self, qualifier: qualifier, indexes: key.parentIndexes, values: key.childIndexes.map { childValues[$0] }))
        return copy
    }
}

extension Table {
    /// The records whose foreign key references `parent`: `try Pet.belonging(to: person)`.
    public static func belonging<Parent: Table>(to parent: Parent, through columns: [String]? = nil) throws -> Select<Self> {
        try Select().belonging(to: parent, through: columns)
    }

    /// The record `child` references through its foreign key: `try Person.referenced(by: pet)`.
    public static func referenced<Child: Table>(by child: Child, through columns: [String]? = nil) throws -> Select<Self> {
        try Select().referenced(by: child, through: columns)
    }
}

extension Database {
    /// The records of `type` whose foreign key references `parent`.
    public func fetchAll<Child: Table, Parent: Table>(
        _ type: Child.Type, belongingTo parent: Parent, through columns: [String]? = nil
    ) throws -> [Child] {
        try Child.belonging(to: parent, through: columns).fetchAll(self)
    }

    /// The record of `type` that `child` references, or `nil` when its foreign key is NULL or
    /// dangling.
    public func fetchOne<Parent: Table, Child: Table>(
        _ type: Parent.Type, referencedBy child: Child, through columns: [String]? = nil
    ) throws -> Parent? {
        try Parent.referenced(by: child, through: columns).fetchOne(self)
    }
}
