import SlateConcurrency
import SlateCore

/// One `SET "column" = value` of an `UPDATE` or an upsert, made by `column.set(to:)`.
public struct Assignment<Root: Table>: Sendable {
    /// The assigned column's name, unquoted.
    public let column: String
    /// The assigned value: a bound value or an expression.
    public let value: SQL

    /// `"column" = value`.
    public var fragment: SQL {
        sqlConcat(SQL(sql: column.quotedIdentifier + " = "), value)
    }
}

extension Column {
    /// Assigns a value: `$0.name.set(to: "Bob")`, bound as a parameter.
    public func set(to value: Value) -> Assignment<Root> {
        Assignment(column: name, value: bound(value))
    }

    /// Assigns an expression of the column's type: `$0.age.set(to: $0.age + 1)`.
    public func set(to expression: some QueryExpression<Value>) -> Assignment<Root> {
        Assignment(column: name, value: expression.queryFragment)
    }

    /// Assigns a non-optional expression to an optional column:
    /// `$0.composer.set(to: $0.name)`, where `composer` is `String?` and `name` is `String`.
    public func set<Expression: QueryExpression>(to expression: Expression) -> Assignment<Root>
    where Value == Expression.QueryValue? {
        Assignment(column: name, value: expression.queryFragment)
    }
}

/// Collects ``Assignment``s, one per line, with `if`, `switch` and `for` allowed:
///
/// ```swift
/// Person.update {
///     $0.name.set(to: "Bob")
///     if birthday { $0.age.set(to: $0.age + 1) }
/// }
/// ```
@resultBuilder
public enum AssignmentBuilder<Root: Table> {
    /// One assignment.
    public static func buildExpression(_ assignment: Assignment<Root>) -> [Assignment<Root>] { [assignment] }
    /// The assignments of a block.
    public static func buildBlock(_ parts: [Assignment<Root>]...) -> [Assignment<Root>] { parts.flatMap { $0 } }
    /// The assignments of an `if` without `else`.
    public static func buildOptional(_ part: [Assignment<Root>]?) -> [Assignment<Root>] { part ?? [] }
    /// The assignments of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [Assignment<Root>]) -> [Assignment<Root>] { part }
    /// The assignments of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [Assignment<Root>]) -> [Assignment<Root>] { part }
    /// The assignments of a `for` loop.
    public static func buildArray(_ parts: [[Assignment<Root>]]) -> [Assignment<Root>] { parts.flatMap { $0 } }
}

/// `UPDATE "Table" SET … WHERE …`.
///
/// ```swift
/// let changed = try Person.update {
///     $0.name.set(to: "Bob")
///     $0.age.set(to: $0.age + 1)
/// }
/// .where { $0.id == 3 }
/// .execute(db)
/// // UPDATE "Person" SET "name" = ?, "age" = "Person"."age" + ? WHERE "Person"."id" = ?
/// ```
///
/// Without `where`, every row is updated.
public struct Update<Root: Table>: QueryStatement {
    /// The assignments.
    public var assignments: [Assignment<Root>]
    /// `UPDATE OR <resolution>`, or `nil` for a plain `UPDATE`.
    public var conflictResolution: ConflictResolution?
    var predicates: [SQLExpression<Bool>] = []
    let scope = Root.Columns(qualifier: Root.tableName)
    /// The `WITH` clause.
    var commonTables = CommonTableExpressions()

    /// An update with `assignments`.
    public init(_ assignments: [Assignment<Root>], or conflictResolution: ConflictResolution? = nil) {
        self.assignments = assignments
        self.conflictResolution = conflictResolution
    }

    /// Restricts the update to the rows matching `predicate`. Several calls combine with `AND`.
    public func `where`(_ predicate: (Root.Columns) -> some QueryExpression<some BooleanQueryValue>) -> Update {
        var copy = self
        copy.predicates.append(SQLExpression(condition: QueryNesting.with([Root.tableName]) { predicate(scope) }))
        return copy
    }

    /// Restricts the update to the rows matching a condition written in SQL, with bound values.
    public func `where`(sql condition: SQL) -> Update {
        var copy = self
        copy.predicates.append(SQLExpression(sql: condition))
        return copy
    }

    /// The statement's SQL. With no assignment it is not valid SQL, and ``execute(_:)`` does
    /// nothing.
    public var sql: SQL {
        var sql = commonTables.prefix
        sql.append(conflictResolution.map { $0.statementPrefix("UPDATE") } ?? SQL(sql: "UPDATE "))
        sql.append(SQL(sql: Root.tableName.quotedIdentifier + " SET "))
        sql.append(SQL.joined(assignments.map(\.fragment), separator: ", "))
        if !predicates.isEmpty {
            sql.append(" WHERE ")
            sql.append(SelectClauses.conjunction(predicates))
        }
        return sql
    }

    /// Runs the update and returns the number of rows it changed (0 without assignments).
    @discardableResult
    public func execute(_ db: Database) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        let sql = self.sql
        try sql.checkBuildError()
        try Root.prepareForWriting(db)
        try db.execute(sql)
        return db.changesCount
    }
}

extension Table {
    /// An update of every row (restrict it with `where`):
    /// `Person.update { $0.name.set(to: "Bob") }.where { $0.id == 3 }`.
    public static func update(
        or conflictResolution: ConflictResolution? = nil,
        @AssignmentBuilder<Self> _ assignments: (Columns) -> [Assignment<Self>]
    ) -> Update<Self> {
        Update(QueryNesting.with([tableName]) { assignments(Columns(qualifier: tableName)) }, or: conflictResolution)
    }
}
