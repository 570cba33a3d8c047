import SlateConcurrency
import SlateCore

/// A statement built by the query builder. It renders deterministic SQL, with quoted identifiers
/// and `?` placeholders, that you can print:
///
/// ```swift
/// let query = Person.where { $0.age > 18 }.order(by: \.name)
/// print(query)            // SELECT "Person"."id", … FROM "Person" WHERE "Person"."age" > ? ORDER BY "Person"."name"
/// query.sql.arguments     // [18]
/// ```
public protocol QueryStatement: CustomStringConvertible, Sendable {
    /// The statement's SQL text and bound values.
    var sql: SQL { get }
}

extension QueryStatement {
    /// The SQL text (with a comment naming the error, for a statement that cannot run).
    public var description: String { sql.description }
}

/// The clauses of a `SELECT` statement under construction.
///
/// Its content is internal to Slate: a query type stores it and the builder methods of
/// ``SelectStatement`` change it.
public struct SelectClauses: Sendable {
    /// The result columns.
    var selection: SQL
    /// The `FROM` clause: the first table and its joins.
    var from: SQL
    var isDistinct = false
    var predicates: [SQLExpression<Bool>] = []
    var grouping: [SQL] = []
    var havingPredicates: [SQLExpression<Bool>] = []
    var ordering: [SQL] = []
    var limit: Int?
    var offset: Int?
    /// The number of the statement's level (``SQLScope``): its tables' qualifiers carry it.
    let level: UInt64
    /// The qualifiers of the tables in `from`: they take their aliases at this statement's level.
    var qualifiers: [String]
    /// The `WITH` clause.
    var commonTables = CommonTableExpressions()

    init(selection: SQL, from: SQL, level: UInt64, qualifiers: [String]) {
        self.selection = selection
        self.from = from
        self.level = level
        self.qualifiers = qualifiers
    }

    /// The clauses of `SELECT <every column of T> FROM "T" [AS "alias"]`.
    static func table<T: QuerySource>(_ type: T.Type, qualifier: String, level: UInt64) -> SelectClauses {
        SelectClauses(
            selection: columnList(of: type, qualifier: qualifier), from: tableReference(type, qualifier: qualifier),
            level: level, qualifiers: [qualifier])
    }

    /// `"q"."a", "q"."b", …` for every column of `T`.
    static func columnList<T: QuerySource>(of type: T.Type, qualifier: String) -> SQL {
        let columns = T.schema.recordColumns
        var segments: [SQLSegment] = []
        segments.reserveCapacity(2 * columns.count + 1)
        for column in columns {
            if !segments.isEmpty { segments.append(.text(", ")) }
            segments.append(.column(qualifier: qualifier, name: column.name))
        }
        if let error = T.schemaError { segments.append(.failure(error)) }
        return SQL(segments: segments)
    }

    /// `"T"`, or `"T" AS "alias"`.
    static func tableReference<T: QuerySource>(_ type: T.Type, qualifier: String) -> SQL {
        SQL(.table(name: T.schema.name, qualifier: qualifier, source: nil))
    }

    /// Returns a copy selecting `fragments` instead.
    @usableFromInline
    package func selecting(_ fragments: [SQL]) -> SelectClauses {
        var copy = self
        copy.selection = SQL.joined(fragments, separator: ", ")
        return copy
    }

    /// Adds `JOIN "T" [AS "alias"] [ON condition]` and T's columns to the selection.
    mutating func join<T: QuerySource>(
        _ kind: String, _ type: T.Type, qualifier: String, on condition: SQLExpression<Bool>?
    ) {
        from.append(text: " \(kind) ")
        from.append(Self.tableReference(type, qualifier: qualifier))
        if let condition {
            from.append(text: " ON ")
            from.append(condition.queryFragment)
        }
        selection.append(text: ", ")
        selection.append(Self.columnList(of: type, qualifier: qualifier))
        qualifiers.append(qualifier)
    }

    // MARK: Rendering

    /// The whole statement.
    @usableFromInline
    package func render() -> SQL {
        render(limit: limit)
    }

    /// The statement with LIMIT 1 when it has no limit, for fetching one row.
    @usableFromInline
    package func renderForOne() -> SQL {
        render(limit: limit ?? 1)
    }

    /// Whether the statement is grouped: its rows are groups.
    private var isGrouped: Bool { !grouping.isEmpty || !havingPredicates.isEmpty }

    /// `WITH … SELECT [DISTINCT] selection FROM …`, at the statement's level.
    private func render(limit: Int?, selection: SQL? = nil) -> SQL {
        var body = SQL(text: isDistinct ? "SELECT DISTINCT " : "SELECT ")
        body.append(selection ?? self.selection)
        appendBody(to: &body, limit: limit, includingOrdering: true)
        var sql = commonTables.prefix
        sql.append(.scope(qualifiers: qualifiers, body))
        sql.rowIDHint = rowIDHint
        return sql
    }

    /// `FROM … WHERE … GROUP BY … HAVING … ORDER BY … LIMIT … OFFSET …`.
    private func appendBody(to sql: inout SQL, limit: Int?, includingOrdering: Bool) {
        sql.append(text: " FROM ")
        sql.append(from)
        if !predicates.isEmpty {
            sql.append(text: " WHERE ")
            sql.append(Self.conjunction(predicates))
        }
        if !grouping.isEmpty {
            sql.append(text: " GROUP BY ")
            sql.append(SQL.joined(grouping, separator: ", "))
        }
        if !havingPredicates.isEmpty {
            sql.append(text: " HAVING ")
            sql.append(Self.conjunction(havingPredicates))
        }
        if includingOrdering && !ordering.isEmpty {
            sql.append(text: " ORDER BY ")
            sql.append(SQL.joined(ordering, separator: ", "))
        }
        if limit != nil || offset != nil {
            sql.append(.construct(.limit(limit, offset: offset)))
        }
    }

    /// `SELECT count(*) …`: over the table directly when that counts the same rows, else over the
    /// whole statement as a subquery (with DISTINCT, GROUP BY, HAVING, LIMIT or OFFSET).
    @usableFromInline
    package func renderCount() -> SQL {
        if !isDistinct && !isGrouped && limit == nil && offset == nil {
            var body = SQL(text: "SELECT count(*)")
            appendBody(to: &body, limit: nil, includingOrdering: false)
            var sql = commonTables.prefix
            sql.append(.scope(qualifiers: qualifiers, body))
            sql.rowIDHint = rowIDHint
            return sql
        }
        // A dialect may require an alias for a subquery in FROM (PostgreSQL before 16), and a
        // grouped query there may select only grouped columns and aggregates: its rows are its
        // groups whatever it selects, and only they count.
        var sql = SQL(text: "SELECT count(*) FROM ")
        sql.append(.construct(.derivedTable(render(limit: limit, selection: rowsOnlySelection), alias: "counted")))
        return sql
    }

    /// The selection, when only the number of rows matters: a grouped statement's rows are its
    /// groups (unless `DISTINCT` merges some), whatever it selects.
    private var rowsOnlySelection: SQL? {
        guard isGrouped && !isDistinct else { return nil }
        return SQL(.construct(.rowsOnlySelection(selection)))
    }

    /// The statement, for `EXISTS (…)`: only whether it has a row matters.
    package func renderForExistence() -> SQL {
        render(limit: limit, selection: rowsOnlySelection)
    }

    /// `SELECT EXISTS (…)`.
    package func renderExists() -> SQL {
        var sql = SQL(text: "SELECT EXISTS (")
        sql.append(renderForExistence())
        sql.append(text: ")")
        return sql
    }

    /// Predicates joined by AND, parenthesized where needed.
    static func conjunction(_ predicates: [SQLExpression<Bool>]) -> SQL {
        if predicates.count == 1 { return predicates[0].queryFragment }
        return SQL.joined(predicates.map { $0.operandFragment(of: .and) }, separator: " AND ")
    }
}

/// A `SELECT` statement under construction: its clauses, the columns its closures receive
/// (``Scope``), and how a row decodes into its ``Output``.
///
/// ``Select`` (one table's records), ``Select2``, ``Select3`` and ``Select4`` (joins) and
/// ``Selection`` (chosen columns and expressions) conform; they share the builder methods
/// `where`, `order`, `group`, `having`, `limit`, `distinct` and `select`, and the fetch methods.
/// Each builder method returns a modified copy.
public protocol SelectStatement: QueryStatement {
    /// What query closures receive: a table's ``TableColumns``, or a tuple of them for a join.
    associatedtype Scope: Sendable
    /// The Swift type of one result row.
    associatedtype Output

    /// The columns of the statement's tables.
    var scope: Scope { get }
    /// The statement's clauses.
    var clauses: SelectClauses { get set }

    /// Decodes one result row.
    func decode(row: borrowing Row) throws -> Output
}

extension SelectStatement {
    /// The `SELECT` statement's SQL and bound values.
    public var sql: SQL { clauses.render() }

    /// Adds a `WHERE` condition. Several calls combine with `AND`.
    ///
    /// ```swift
    /// Person.where { $0.age >= 18 && $0.name.hasPrefix("A") }
    /// Person.join(Pet.self, on: { $0.id == $1.ownerId }).where { person, pet in pet.name == "Rex" }
    /// ```
    public func `where`(_ predicate: (Scope) -> some QueryExpression<some BooleanQueryValue>) -> Self {
        var copy = self
        copy.clauses.predicates.append(SQLExpression(condition: predicate(scope)))
        return copy
    }

    /// Adds a `WHERE` condition written in SQL, with bound values: the escape hatch for what typed
    /// predicates do not express. Several calls combine with `AND`.
    ///
    /// ```swift
    /// Bookmark.where(sql: "EXISTS (SELECT 1 FROM json_each(tags) WHERE value = \(tag))")
    /// ```
    public func `where`(sql condition: SQL) -> Self {
        var copy = self
        copy.clauses.predicates.append(SQLExpression(sql: condition))
        return copy
    }

    /// Adds `ORDER BY` terms written in SQL: `.order(sql: "name COLLATE NOCASE DESC")`.
    public func order(sql terms: SQL) -> Self {
        var copy = self
        copy.clauses.ordering.append(terms)
        return copy
    }

    /// Adds `ORDER BY` terms: expressions (ascending) or ``Ordering``s. Several calls append.
    ///
    /// ```swift
    /// Track.order { ($0.composer.descending(nulls: .last), $0.name) }
    /// ```
    public func order<each Term: OrderingTerm>(_ terms: (Scope) -> (repeat each Term)) -> Self {
        let terms = terms(scope)
        var copy = self
        for term in repeat each terms { copy.clauses.ordering.append(term.orderingFragment) }
        return copy
    }

    /// Adds `ORDER BY` the columns at `keyPaths`, ascending: `.order(by: \.lastName, \.firstName)`.
    public func order<each Term: OrderingTerm>(by keyPaths: repeat KeyPath<Scope, each Term>) -> Self {
        var copy = self
        for keyPath in repeat each keyPaths { copy.clauses.ordering.append(scope[keyPath: keyPath].orderingFragment) }
        return copy
    }

    /// Adds `GROUP BY` expressions: `.group { $0.genreId }`.
    public func group<each Grouping: QueryExpression>(_ expressions: (Scope) -> (repeat each Grouping)) -> Self {
        let expressions = expressions(scope)
        var copy = self
        for expression in repeat each expressions { copy.clauses.grouping.append(expression.queryFragment) }
        return copy
    }

    /// Adds `GROUP BY` the columns at `keyPaths`: `.group(by: \.genreId)`.
    public func group<each Grouping: QueryExpression>(by keyPaths: repeat KeyPath<Scope, each Grouping>) -> Self {
        var copy = self
        for keyPath in repeat each keyPaths { copy.clauses.grouping.append(scope[keyPath: keyPath].queryFragment) }
        return copy
    }

    /// Adds a `HAVING` condition on groups. Several calls combine with `AND`.
    public func having(_ predicate: (Scope) -> some QueryExpression<some BooleanQueryValue>) -> Self {
        var copy = self
        copy.clauses.havingPredicates.append(SQLExpression(condition: predicate(scope)))
        return copy
    }

    /// Sets `LIMIT n [OFFSET m]`; without `offset`, an offset set before (``offset(_:)``) stays.
    /// A negative limit is no limit, and a negative offset none, as SQLite reads them, in every
    /// dialect.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var copy = self
        copy.clauses.limit = limit
        if let offset { copy.clauses.offset = offset }
        return copy
    }

    /// Skips the first `offset` rows, without a limit: `LIMIT -1 OFFSET m` on SQLite (which has no
    /// `OFFSET` without `LIMIT`, and reads a negative limit as none), `OFFSET m` on PostgreSQL.
    ///
    /// ```swift
    /// Track.order(by: \.trackId).offset(3500)   // … ORDER BY "Track"."TrackId" LIMIT -1 OFFSET 3500
    /// ```
    public func offset(_ offset: Int) -> Self {
        var copy = self
        copy.clauses.offset = offset
        return copy
    }

    /// Makes the statement `SELECT DISTINCT`.
    public func distinct() -> Self {
        var copy = self
        copy.clauses.isDistinct = true
        return copy
    }

    /// Selects chosen columns and expressions instead, decoded into a tuple of their value types,
    /// or into the value itself for a single expression:
    ///
    /// ```swift
    /// let pairs: [(Int64, String)] = try Person.where { $0.id > 2 }.select { ($0.id, $0.name) }.fetchAll(db)
    /// let names: [String] = try Person.select { $0.name }.fetchAll(db)
    /// ```
    ///
    /// Every element of the tuple is selected, including scalar subqueries, whose value is
    /// optional (a subquery that finds no row yields NULL).
    @inlinable
    public func select<each Selected: QueryExpression>(
        _ selection: (Scope) -> (repeat each Selected)
    ) -> Selection<Scope, (repeat (each Selected).QueryValue)>
    where repeat (each Selected).QueryValue: SQLExtractable {
        let expressions = selection(scope)
        var fragments: [SQL] = []
        for expression in repeat each expressions { fragments.append(expression.queryFragment) }
        if fragments.isEmpty { fragments.append(selectedNothing) }
        return Selection(scope: scope, clauses: clauses.selecting(fragments)) { row in
            var index = 0
            return (repeat try extractNext((each Selected).QueryValue.self, from: row, at: &index))
        }
    }
}

extension SelectStatement {
    /// Selects one column or expression instead, decoded into its value type:
    /// `Person.select { $0.name }`.
    ///
    /// (The single-expression form of ``select(_:)-(_)``: it keeps scalar subqueries simple for
    /// the type checker, so that a tuple of several of them selects every one.)
    @inlinable
    public func select<Selected: QueryExpression>(
        _ selection: (Scope) -> Selected
    ) -> Selection<Scope, Selected.QueryValue> where Selected.QueryValue: SQLExtractable {
        let expression = selection(scope)
        return Selection(scope: scope, clauses: clauses.selecting([expression.queryFragment])) { row in
            try Selected.QueryValue.extract(from: row, at: 0)
        }
    }

    /// A selection of nothing does not compile: a closure whose value would be discarded, such as
    /// a tuple the type checker could not solve, must not render `SELECT  FROM …`.
    @available(*, unavailable, message: "select at least one expression")
    public func select(_ selection: (Scope) -> Void) -> Selection<Scope, Void> {
        Selection(scope: scope, clauses: clauses) { _ in () }
    }
}

/// What a selection of nothing renders: a closure whose single value Swift discarded (a value that is
/// not an expression, such as a window function without `over(_:)`) selects no element, and the
/// statement throws this error instead of running `SELECT  FROM …`.
@usableFromInline
let selectedNothing = SQL(
    sql: "",
    failing: DatabaseError(
        resultCode: .misuse,
        message:
            "the select closure selects no expression (a value that is not a query expression, such as a window function without over(_:), is discarded)"
    ))

/// Reads column `index` as `Value` and moves `index` to the next column.
@inlinable
func extractNext<Value: SQLExtractable>(_ type: Value.Type, from row: borrowing Row, at index: inout Int) throws
    -> Value
{
    let value = try Value.extract(from: row, at: index)
    index += 1
    return value
}

/// What a ``Select`` holds besides its qualifier: nothing yet (every record of its table), the
/// key values of `Root.find(key)` (while nothing else was added), or the clauses a builder method
/// changed, boxed.
///
/// One enum rather than two optionals, and the clauses behind one reference, so that a query is a
/// few words and `Root.find(key).fetchOne(db)` runs on it in registers. Measured (Benchmarks/README.md,
/// "The cost of a query value"): with one more word in `Select` (the statement level, when it was
/// added beside the two optionals), the optimizer copied and destroyed the query on every
/// lookup (+3% instructions in `pk-lookups-100k`, `slate-find`).
@usableFromInline
package enum SelectContents: Sendable {
    /// Every record of the table: the clauses are made when asked.
    case table
    /// `Root.find(key)`: the key values, bound by position to the statement kept per record type.
    case primaryKeyLookup(PrimaryKeyValues)
    /// The clauses a builder method changed.
    case clauses(StoredSelectClauses)
}

/// The clauses a ``Select`` stores once a builder method changed them, behind one reference.
/// Immutable: a change stores a new box.
@usableFromInline
package final class StoredSelectClauses: Sendable {
    let clauses: SelectClauses

    init(_ clauses: SelectClauses) {
        self.clauses = clauses
    }
}

/// The records of one table: `SELECT <every column> FROM "Table" …`.
///
/// Start one from the table type: `Person.all()`, `Person.where { … }`, `Person.order(by: \.name)`.
/// Rows decode with ``Table/init(row:)`` straight from the cached statement.
public struct Select<Root: Table>: SelectStatement {
    /// The table's columns.
    public typealias Scope = Root.Columns
    /// A record.
    public typealias Output = Root

    /// The table's columns, qualified by the table name or alias.
    public var scope: Root.Columns { Root.Columns(qualifier: qualifier) }

    /// The statement's clauses. A statement that nothing was added to renders them when asked, so
    /// that `Root.find(key).fetchOne(db)` renders nothing and runs the statement prepared once per
    /// record type.
    public var clauses: SelectClauses {
        get {
            if case .clauses(let stored) = contents { return stored.clauses }
            return initialClauses()
        }
        set { contents = .clauses(StoredSelectClauses(newValue)) }
    }

    /// Nothing yet, the key of `Root.find(key)`, or the clauses a builder method changed: one
    /// stored property, so that a query stays a few words (see ``SelectContents``).
    @usableFromInline package var contents: SelectContents
    /// The explicit alias qualifying the columns, if any.
    @usableFromInline let alias: String?
    /// The number of the statement's level (``SQLScope``).
    @usableFromInline let level: UInt64
    /// The alias, or the table name at the statement's level, qualifying the columns.
    var qualifier: String { alias ?? SQLScope.qualifier(Root.tableName, scope: level) }

    /// Selects every record of `Root`, under `alias` when given (for a table that appears twice in
    /// a query).
    public init(alias: String? = nil) {
        self.alias = alias
        self.level = SQLScope.next()
        self.contents = .table
    }

    /// Selects the record of `Root` whose primary key columns hold `keyValues`. Inlinable, so
    /// that `find(key)` builds it specialized in the client.
    @inlinable
    init(primaryKeyValues keyValues: PrimaryKeyValues) {
        self.alias = nil
        self.level = SQLScope.next()
        self.contents = .primaryKeyLookup(keyValues)
    }

    /// `SELECT <every column> FROM "Root"`, with the primary key condition of a `find`.
    private func initialClauses() -> SelectClauses {
        let qualifier = self.qualifier
        var clauses = SelectClauses.table(Root.self, qualifier: qualifier, level: level)
        if case .primaryKeyLookup(let keyValues) = contents, let keyed = Root.self as? any PrimaryKeyedTable.Type {
            clauses.predicates.append(keyed.primaryKeyPredicate(values: keyValues.array, qualifier: qualifier))
        }
        return clauses
    }

    /// Decodes a record.
    @inlinable
    public func decode(row: borrowing Row) throws -> Root {
        try Root(row: row)
    }
}

/// Chosen columns and expressions, decoded into `Value`: one value type, or a tuple of them.
///
/// Made by ``SelectStatement/select(_:)``. A single-column selection is also an expression (a
/// scalar subquery), usable with `in(_:)` and in comparisons.
public struct Selection<Scope: Sendable, Value>: SelectStatement {
    /// The columns of the statement's tables.
    public let scope: Scope
    /// The statement's clauses.
    public var clauses: SelectClauses
    @usableFromInline package let decoder: @Sendable (borrowing Row) throws -> Value

    @usableFromInline
    package init(scope: Scope, clauses: SelectClauses, decoder: @escaping @Sendable (borrowing Row) throws -> Value) {
        self.scope = scope
        self.clauses = clauses
        self.decoder = decoder
    }

    /// Decodes the selected values.
    @inlinable
    public func decode(row: borrowing Row) throws -> Value {
        try decoder(row)
    }
}

// MARK: - Starting a query from a table type

extension Table {
    /// Every record: `SELECT <every column> FROM "Table"`.
    public static func all() -> Select<Self> {
        Select()
    }

    /// Every record, with the table named `alias` in the query: `Employee.aliased("e")`.
    public static func aliased(_ alias: String) -> Select<Self> {
        Select(alias: alias)
    }

    /// The records matching `predicate`: `Person.where { $0.age >= 18 }`.
    public static func `where`(_ predicate: (Columns) -> some QueryExpression<some BooleanQueryValue>) -> Select<Self> {
        Select().where(predicate)
    }

    /// The records matching a condition written in SQL, with bound values: the escape hatch for
    /// what typed predicates do not express.
    public static func `where`(sql condition: SQL) -> Select<Self> {
        Select().where(sql: condition)
    }

    /// Every record, sorted: `Person.order { $0.name.descending() }`.
    public static func order<each Term: OrderingTerm>(_ terms: (Columns) -> (repeat each Term)) -> Select<Self> {
        Select().order(terms)
    }

    /// Every record, sorted by the columns at `keyPaths`: `Person.order(by: \.name)`.
    public static func order<each Term: OrderingTerm>(by keyPaths: repeat KeyPath<Columns, each Term>) -> Select<Self> {
        Select().order(by: repeat each keyPaths)
    }

    /// Chosen columns and expressions of every row: `Person.select { ($0.id, $0.name) }`.
    @inlinable
    public static func select<each Selected: QueryExpression>(
        _ selection: (Columns) -> (repeat each Selected)
    ) -> Selection<Columns, (repeat (each Selected).QueryValue)>
    where repeat (each Selected).QueryValue: SQLExtractable {
        Select<Self>().select(selection)
    }

    /// One column or expression of every row: `Person.select { $0.name }`.
    @inlinable
    public static func select<Selected: QueryExpression>(
        _ selection: (Columns) -> Selected
    ) -> Selection<Columns, Selected.QueryValue> where Selected.QueryValue: SQLExtractable {
        Select<Self>().select(selection)
    }

    /// A selection of nothing does not compile.
    @available(*, unavailable, message: "select at least one expression")
    public static func select(_ selection: (Columns) -> Void) -> Selection<Columns, Void> {
        Selection(scope: Columns(qualifier: tableName), clauses: Select<Self>().clauses) { _ in () }
    }

    /// Every record, grouped by expressions: `Track.group { $0.genreId }`.
    public static func group<each Grouping: QueryExpression>(_ expressions: (Columns) -> (repeat each Grouping))
        -> Select<Self>
    {
        Select().group(expressions)
    }

    /// Every record, grouped: `Track.group(by: \.genreId)`.
    public static func group<each Grouping: QueryExpression>(by keyPaths: repeat KeyPath<Columns, each Grouping>)
        -> Select<Self>
    {
        Select().group(by: repeat each keyPaths)
    }

    /// At most `limit` records, after skipping `offset`.
    public static func limit(_ limit: Int, offset: Int? = nil) -> Select<Self> {
        Select().limit(limit, offset: offset)
    }
}
