import SlateConcurrency
import SlateCore

// Fetching related records through declared foreign keys.
//
//     let albums = try Album.belonging(to: artist).fetchAll(db)          // Album.ArtistId → Artist
//     let artist = try Artist.referenced(by: album).fetchOne(db)
//     let reports = try Employee.belonging(to: boss, through: ["ReportsTo"]).fetchAll(db)
//
// The filters are not spelled `where(belongsTo:)`: an overload of `where` would make the compiler's
// diagnostics for mistakes in `where { … }` closures vague ("no exact matches in call").

/// A foreign key from `Child` to `Parent`, with both sides' column positions.
struct ResolvedForeignKey {
    /// The referencing columns of the child, by position in its record columns.
    var childIndexes: [Int]
    /// The referenced columns of the parent, by position, in the matching order.
    var parentIndexes: [Int]

    /// The one foreign key from `Child` to `Parent`, or the one made of `columns` when given.
    static func resolve<Child: Table, Parent: Table>(
        from child: Child.Type, to parent: Parent.Type, through columns: [String]?
    ) throws -> ResolvedForeignKey {
        var candidates = Child.schema.foreignKeys.filter { $0.referencedTable.equalsIdentifier(Parent.tableName) }
        if let columns {
            candidates = candidates.filter { $0.columns.map { $0.lowercased() } == columns.map { $0.lowercased() } }
        }
        let through = columns.map { " through (\($0.joined(separator: ", ")))" } ?? ""
        guard let foreignKey = candidates.first else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(Child.tableName) has no foreign key to \(Parent.tableName)\(through): declare it in "
                    + "the foreign keys of \(Child.self).schema")
        }
        guard candidates.count == 1 else {
            let listed = candidates.map { "(" + $0.columns.joined(separator: ", ") + ")" }.joined(separator: ", ")
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(Child.tableName) has \(candidates.count) foreign keys to \(Parent.tableName): \(listed); "
                    + "name the columns of the one to use (`foreignKey:` in an association, `through:` in "
                    + "`belonging(to:)` and `referenced(by:)`)")
        }
        let referenced = foreignKey.referencedColumns.isEmpty ? Parent.schema.primaryKey : foreignKey.referencedColumns
        guard referenced.count == foreignKey.columns.count else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the foreign key (\(foreignKey.columns.joined(separator: ", "))) of \(Child.tableName) has "
                    + "\(foreignKey.columns.count) column(s) but references \(referenced.count) column(s) of \(Parent.tableName)"
            )
        }
        return ResolvedForeignKey(
            childIndexes: try foreignKey.columns.map { try index(of: $0, in: Child.self) },
            parentIndexes: try referenced.map { try index(of: $0, in: Parent.self) })
    }

    private static func index<T: Table>(of column: String, in table: T.Type) throws -> Int {
        guard let index = T.schema.recordColumns.firstIndex(where: { $0.name.equalsIdentifier(column) }) else {
            throw DatabaseError(
                resultCode: .misuse, message: "\(T.tableName) has no column \(column) (named by a foreign key)")
        }
        return index
    }

    /// `"q"."c1" = ? AND "q"."c2" = ?` for the record columns of `T` at `indexes` and the values
    /// (as the columns they come from store them).
    static func predicate<T: Table>(_ table: T.Type, qualifier: String, indexes: [Int], values: [any SQLBindable])
        -> SQLExpression<Bool>
    {
        let columns = T.schema.recordColumns
        let parts = zip(indexes, values).map { index, value in
            SQL(segments: [.column(qualifier: qualifier, name: columns[index].name), .text(" = "), .binding(value)])
        }
        return SQLExpression(
            sql: SQL.joined(parts, separator: " AND "), precedence: parts.count == 1 ? .equality : .and)
    }
}

extension Select {
    /// Keeps the records whose foreign key references `parent`: the pets of a person.
    ///
    /// ```swift
    /// let albums = try Album.belonging(to: artist).fetchAll(db)
    /// ```
    ///
    /// The foreign key is the one `Root` declares to `Parent`'s table; when it declares several,
    /// name the referencing columns with `through`. When no foreign key, or more than one, matches,
    /// the statement throws ``DatabaseError`` (``ResultCode/misuse``) when it runs.
    public func belonging<Parent: Table>(to parent: Parent, through columns: [String]? = nil) -> Select {
        var copy = self
        do {
            let key = try ResolvedForeignKey.resolve(from: Root.self, to: Parent.self, through: columns)
            let parentValues = parent.columnValues
            copy.clauses.predicates.append(
                ResolvedForeignKey.predicate(
                    Root.self, qualifier: qualifier, indexes: key.childIndexes,
                    values: key.parentIndexes.map { parentValues[$0] }))
        } catch {
            copy.clauses.predicates.append(ResolvedForeignKey.failure(error))
        }
        return copy
    }

    /// Keeps the record that `child` references through its foreign key: the owner of a pet.
    /// Like ``belonging(to:through:)``, an unresolvable foreign key makes the statement throw.
    public func referenced<Child: Table>(by child: Child, through columns: [String]? = nil) -> Select {
        var copy = self
        do {
            let key = try ResolvedForeignKey.resolve(from: Child.self, to: Root.self, through: columns)
            let childValues = child.columnValues
            copy.clauses.predicates.append(
                ResolvedForeignKey.predicate(
                    Root.self, qualifier: qualifier, indexes: key.parentIndexes,
                    values: key.childIndexes.map { childValues[$0] }))
        } catch {
            copy.clauses.predicates.append(ResolvedForeignKey.failure(error))
        }
        return copy
    }
}

extension ResolvedForeignKey {
    /// A predicate that makes its statement throw `error`.
    static func failure(_ error: any Error) -> SQLExpression<Bool> {
        let databaseError = error as? DatabaseError ?? DatabaseError(resultCode: .misuse, message: "\(error)")
        return SQLExpression(sql: SQL(sql: "0", failing: databaseError), precedence: .atomic)
    }
}

extension Table {
    /// The records whose foreign key references `parent`: `Pet.belonging(to: person).fetchAll(db)`.
    public static func belonging<Parent: Table>(to parent: Parent, through columns: [String]? = nil) -> Select<Self> {
        Select().belonging(to: parent, through: columns)
    }

    /// The record `child` references through its foreign key: `Person.referenced(by: pet).fetchOne(db)`.
    public static func referenced<Child: Table>(by child: Child, through columns: [String]? = nil) -> Select<Self> {
        Select().referenced(by: child, through: columns)
    }
}
