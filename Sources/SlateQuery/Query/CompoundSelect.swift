import SlateConcurrency
import SlateCore

// Compound selects: `UNION`, `UNION ALL`, `INTERSECT` and `EXCEPT` of statements with the same
// output type. Built from the members' own SQL; the compound's ORDER BY and LIMIT follow the last
// member, as SQLite requires.

/// How a compound select combines its members.
public enum CompoundOperator: String, Sendable, Hashable, CaseIterable {
    /// The rows of either side, duplicates removed.
    case union = "UNION"
    /// The rows of both sides, duplicates kept.
    case unionAll = "UNION ALL"
    /// The rows of the left side that the right side has too, duplicates removed.
    case intersect = "INTERSECT"
    /// The rows of the left side that the right side does not have, duplicates removed.
    case except = "EXCEPT"
}

/// Statements combined with ``CompoundOperator``s, decoded as the first one decodes: made by
/// ``SelectStatement/union(_:)`` and its siblings.
///
/// ```swift
/// let names: [String?] = try Artist.select { $0.name }
///     .union(Genre.select { $0.name })
///     .order { $0.name }
///     .fetchAll(db)
/// // SELECT "Artist"."Name" FROM "Artist" UNION SELECT "Genre"."Name" FROM "Genre" ORDER BY "Artist"."Name"
/// ```
///
/// `order` and `limit` apply to the whole compound; their closures receive the first statement's
/// columns, and SQLite requires each ordering term to be one of the selected columns. A member
/// that has its own `ORDER BY` or `LIMIT` is wrapped as `SELECT * FROM (…)`, so they keep applying
/// to it alone.
public struct CompoundSelect<Scope: Sendable, Output>: QueryStatement {
    /// The first statement's columns.
    public let scope: Scope
    /// The first member, then each operator with its member.
    let first: SQL
    let rest: [(CompoundOperator, SQL)]
    var ordering: [SQL] = []
    var limit: Int?
    var offset: Int?
    let decoder: @Sendable (borrowing Row) throws -> Output

    /// A member's SQL: wrapped when it has an ordering or a limit of its own.
    static func member(_ clauses: SelectClauses) -> SQL {
        let sql = clauses.render()
        if clauses.ordering.isEmpty && clauses.limit == nil && clauses.offset == nil { return sql }
        var wrapped = SQL(text: "SELECT * FROM ")
        wrapped.append(.construct(.derivedTable(sql, alias: "member")))
        return wrapped
    }

    /// The compound with one more member.
    func adding(_ op: CompoundOperator, _ member: SQL) -> CompoundSelect {
        CompoundSelect(
            scope: scope, first: first, rest: rest + [(op, member)], ordering: ordering, limit: limit, offset: offset,
            decoder: decoder)
    }

    /// The statement's SQL and bound values.
    public var sql: SQL { render(limit: limit) }

    /// The statement ``fetchOne(_:)`` runs: with `LIMIT 1` unless the compound has a limit.
    package var sqlForOne: SQL { render(limit: limit ?? 1) }

    /// Decodes one result row.
    package func decode(row: borrowing Row) throws -> Output { try decoder(row) }

    private func render(limit: Int?) -> SQL {
        var sql = first
        for (op, member) in rest {
            sql.append(text: " " + op.rawValue + " ")
            sql.append(member)
        }
        if !ordering.isEmpty {
            sql.append(text: " ORDER BY ")
            sql.append(SQL.joined(ordering, separator: ", "))
        }
        if limit != nil || offset != nil {
            sql.append(.construct(.limit(limit, offset: offset)))
        }
        return sql
    }

    /// The statement ``fetchCount(_:)`` runs: `SELECT count(*) FROM (…)`.
    public var countSQL: SQL {
        var sql = SQL(text: "SELECT count(*) FROM ")
        sql.append(.construct(.derivedTable(self.sql, alias: "compound")))
        return sql
    }

    // MARK: Building

    /// Adds another statement with `UNION`.
    public func union<Other: SelectStatement>(_ other: Other) -> CompoundSelect where Other.Output == Output {
        adding(.union, Self.member(other.clauses))
    }

    /// Adds another statement with `UNION ALL`.
    public func unionAll<Other: SelectStatement>(_ other: Other) -> CompoundSelect where Other.Output == Output {
        adding(.unionAll, Self.member(other.clauses))
    }

    /// Adds another statement with `INTERSECT`.
    public func intersect<Other: SelectStatement>(_ other: Other) -> CompoundSelect where Other.Output == Output {
        adding(.intersect, Self.member(other.clauses))
    }

    /// Adds another statement with `EXCEPT`.
    public func except<Other: SelectStatement>(_ other: Other) -> CompoundSelect where Other.Output == Output {
        adding(.except, Self.member(other.clauses))
    }

    /// Adds `ORDER BY` terms for the whole compound: columns of the first statement's selection.
    public func order<each Term: OrderingTerm>(_ terms: (Scope) -> (repeat each Term)) -> CompoundSelect {
        let terms = terms(scope)
        var copy = self
        for term in repeat each terms {
            copy.ordering.append(SQL(.construct(.compoundOrdering(term.orderingFragment))))
        }
        return copy
    }

    /// Sets `LIMIT` and `OFFSET` for the whole compound; without `offset`, an offset set before
    /// stays.
    public func limit(_ limit: Int, offset: Int? = nil) -> CompoundSelect {
        var copy = self
        copy.limit = limit
        if let offset { copy.offset = offset }
        return copy
    }

    /// Skips the first `offset` rows of the whole compound, without a limit: `LIMIT -1 OFFSET m`.
    public func offset(_ offset: Int) -> CompoundSelect {
        var copy = self
        copy.offset = offset
        return copy
    }

    // MARK: Fetching

    /// Every row.
    public func fetchAll(_ db: Database) throws -> [Output] {
        try db.withStatement(sql) { statement in
            var results: [Output] = []
            while try statement.step() {
                results.append(try decoder(Row(statement: statement)))
            }
            return results
        }
    }

    /// The first row, or `nil`. Adds `LIMIT 1` unless the compound has a limit.
    public func fetchOne(_ db: Database) throws -> Output? {
        try db.withStatement(render(limit: limit ?? 1)) { statement in
            guard try statement.step() else { return nil }
            return try decoder(Row(statement: statement))
        }
    }

    /// The number of rows: `SELECT count(*) FROM (…)`.
    public func fetchCount(_ db: Database) throws -> Int {
        try db.fetchValue(Int.self, countSQL)
    }
}

extension SelectStatement {
    /// This statement's rows and `other`'s, duplicates removed: `… UNION …`.
    public func union<Other: SelectStatement>(_ other: Other) -> CompoundSelect<Scope, Output>
    where Other.Output == Output {
        compound().union(other)
    }

    /// This statement's rows and `other`'s, duplicates kept: `… UNION ALL …`.
    public func unionAll<Other: SelectStatement>(_ other: Other) -> CompoundSelect<Scope, Output>
    where Other.Output == Output {
        compound().unionAll(other)
    }

    /// The rows of this statement that `other` has too: `… INTERSECT …`.
    public func intersect<Other: SelectStatement>(_ other: Other) -> CompoundSelect<Scope, Output>
    where Other.Output == Output {
        compound().intersect(other)
    }

    /// The rows of this statement that `other` does not have: `… EXCEPT …`.
    public func except<Other: SelectStatement>(_ other: Other) -> CompoundSelect<Scope, Output>
    where Other.Output == Output {
        compound().except(other)
    }

    /// A compound of this statement alone.
    private func compound() -> CompoundSelect<Scope, Output> {
        let statement = self
        return CompoundSelect(
            scope: scope, first: CompoundSelect<Scope, Output>.member(clauses), rest: [],
            decoder: { row in try statement.decode(row: row) })
    }
}
