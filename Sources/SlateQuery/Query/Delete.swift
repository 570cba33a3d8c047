import SlateConcurrency
import SlateCore

/// `DELETE FROM "Table" WHERE …`.
///
/// ```swift
/// let deleted = try Person.delete().where { $0.age < 18 }.execute(db)
/// try Person.delete(key: 3).execute(db)
/// ```
///
/// Without `where`, every row is deleted.
public struct Delete<Root: Table>: RowWritingStatement {
    /// The statement's level, `WHERE` and `WITH` clauses.
    var filter = RowFilter<Root>()

    /// A deletion of every row (restrict it with `where`).
    public init() {}

    /// Restricts the deletion to the rows matching `predicate`. Several calls combine with `AND`.
    public func `where`(_ predicate: (Root.Columns) -> some QueryExpression<some BooleanQueryValue>) -> Delete {
        var copy = self
        copy.filter.add(predicate)
        return copy
    }

    /// Restricts the deletion to the rows matching a condition written in SQL, with bound values.
    public func `where`(sql condition: SQL) -> Delete {
        var copy = self
        copy.filter.predicates.append(SQLExpression(sql: condition))
        return copy
    }

    /// The statement's SQL.
    public var sql: SQL {
        var head = SQL(text: "DELETE FROM ")
        head.append(.identifier(Root.tableName))
        return filter.render(head)
    }

    /// Runs the deletion and returns the number of rows deleted.
    @discardableResult
    public func execute(_ db: Database) throws -> Int {
        try filter.execute(sql, db)
    }
}

extension Table {
    /// A deletion of every row (restrict it with `where`): `Person.delete().where { $0.age < 18 }`.
    public static func delete() -> Delete<Self> {
        Delete()
    }
}

extension PrimaryKeyedTable {
    /// The deletion of the row with primary key `key`: `Person.delete(key: 3)`.
    public static func delete(key: PrimaryKey) -> Delete<Self> {
        var delete = Delete<Self>()
        delete.filter.predicates = [
            primaryKeyPredicate(values: primaryKeyValues(key), qualifier: delete.filter.qualifier)
        ]
        return delete
    }
}
