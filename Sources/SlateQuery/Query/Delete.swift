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
public struct Delete<Root: Table>: QueryStatement {
    var predicates: [SQLExpression<Bool>] = []
    let scope = Root.Columns(qualifier: Root.tableName)
    /// The `WITH` clause.
    var commonTables = CommonTableExpressions()

    /// A deletion of every row (restrict it with `where`).
    public init() {}

    /// Restricts the deletion to the rows matching `predicate`. Several calls combine with `AND`.
    public func `where`(_ predicate: (Root.Columns) -> some QueryExpression<some BooleanQueryValue>) -> Delete {
        var copy = self
        copy.predicates.append(SQLExpression(condition: QueryNesting.with([Root.tableName]) { predicate(scope) }))
        return copy
    }

    /// Restricts the deletion to the rows matching a condition written in SQL, with bound values.
    public func `where`(sql condition: SQL) -> Delete {
        var copy = self
        copy.predicates.append(SQLExpression(sql: condition))
        return copy
    }

    /// The statement's SQL.
    public var sql: SQL {
        var sql = commonTables.prefix
        sql.append(SQL(sql: "DELETE FROM " + Root.tableName.quotedIdentifier))
        if !predicates.isEmpty {
            sql.append(" WHERE ")
            sql.append(SelectClauses.conjunction(predicates))
        }
        return sql
    }

    /// Runs the deletion and returns the number of rows deleted.
    @discardableResult
    public func execute(_ db: Database) throws -> Int {
        let sql = self.sql
        try sql.checkBuildError()
        try Root.prepareForWriting(db)
        try db.execute(sql)
        return db.changesCount
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
        delete.predicates = [primaryKeyPredicate(values: primaryKeyValues(key), qualifier: tableName)]
        return delete
    }
}
