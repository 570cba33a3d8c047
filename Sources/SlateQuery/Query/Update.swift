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
        var sql = SQL(.identifier(column))
        sql.append(text: " = ")
        sql.append(value)
        return sql
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
public struct Update<Root: Table>: RowWritingStatement {
    /// The assignments.
    public var assignments: [Assignment<Root>]
    /// `UPDATE OR <resolution>`, or `nil` for a plain `UPDATE`.
    public var conflictResolution: ConflictResolution?
    /// The statement's level, `WHERE` and `WITH` clauses.
    var filter: RowFilter<Root>

    /// An update with `assignments`.
    public init(_ assignments: [Assignment<Root>], or conflictResolution: ConflictResolution? = nil) {
        self.init(assignments, or: conflictResolution, filter: RowFilter())
    }

    init(_ assignments: [Assignment<Root>], or conflictResolution: ConflictResolution?, filter: RowFilter<Root>) {
        self.assignments = assignments
        self.conflictResolution = conflictResolution
        self.filter = filter
    }

    /// Restricts the update to the rows matching `predicate`. Several calls combine with `AND`.
    public func `where`(_ predicate: (Root.Columns) -> some QueryExpression<some BooleanQueryValue>) -> Update {
        var copy = self
        copy.filter.add(predicate)
        return copy
    }

    /// Restricts the update to the rows matching a condition written in SQL, with bound values.
    public func `where`(sql condition: SQL) -> Update {
        var copy = self
        copy.filter.predicates.append(SQLExpression(sql: condition))
        return copy
    }

    /// The statement's SQL. With no assignment it is not valid SQL, and ``execute(_:)`` does
    /// nothing.
    public var sql: SQL {
        var head =
            conflictResolution.map {
                SQL(.construct(.conflictResolution(.update, resolution: $0.rawValue, selecting: false)))
            }
            ?? SQL(text: "UPDATE ")
        head.append(.identifier(Root.tableName))
        head.append(text: " SET ")
        head.append(SQL.joined(assignments.map(\.fragment), separator: ", "))
        return filter.render(head)
    }

    /// Runs the update and returns the number of rows it changed (0 without assignments).
    @discardableResult
    public func execute(_ db: Database) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        return try filter.execute(sql, db)
    }
}

extension Table {
    /// An update of every row (restrict it with `where`):
    /// `Person.update { $0.name.set(to: "Bob") }.where { $0.id == 3 }`.
    public static func update(
        or conflictResolution: ConflictResolution? = nil,
        @AssignmentBuilder<Self> _ assignments: (Columns) -> [Assignment<Self>]
    ) -> Update<Self> {
        let filter = RowFilter<Self>()
        return Update(assignments(filter.scope), or: conflictResolution, filter: filter)
    }
}

/// What an `UPDATE` and a `DELETE` share: the statement's level (``SQLScope``), its `WHERE`
/// conditions and its `WITH` clause.
struct RowFilter<Root: Table>: Sendable {
    /// The number of the statement's level.
    let level = SQLScope.next()
    var predicates: [SQLExpression<Bool>] = []
    /// The `WITH` clause.
    var commonTables = CommonTableExpressions()

    /// The table's qualifier at the statement's level.
    var qualifier: String { SQLScope.qualifier(Root.tableName, scope: level) }

    /// The table's columns, for the statement's closures.
    var scope: Root.Columns { Root.Columns(qualifier: qualifier) }

    /// Adds a `WHERE` condition.
    mutating func add(_ predicate: (Root.Columns) -> some QueryExpression<some BooleanQueryValue>) {
        predicates.append(SQLExpression(condition: predicate(scope)))
    }

    /// `WITH … head WHERE …`, at the statement's level.
    func render(_ head: SQL) -> SQL {
        var body = head
        if !predicates.isEmpty {
            body.append(text: " WHERE ")
            body.append(SelectClauses.conjunction(predicates))
        }
        var sql = commonTables.prefix
        sql.append(.scope(qualifiers: [qualifier], body))
        return sql
    }

    /// Runs `statement` (this filter's), after the table is ready for writing, and returns the
    /// number of rows it changed.
    func execute(_ statement: SQL, _ db: Database) throws -> Int {
        try statement.checkBuildError()
        try Root.prepareForWriting(db)
        try db.execute(statement)
        return db.changesCount
    }
}
