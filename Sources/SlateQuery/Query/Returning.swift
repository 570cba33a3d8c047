import SlateConcurrency
import SlateCore

/// An `INSERT`, `UPDATE` or `DELETE` with a `RETURNING` clause, fetched like a query.
///
/// ```swift
/// let id = try Person.insert(person).returning(\.id).fetchOne(db)
/// let renamed: [(Int64?, String)] = try Person.update { $0.name.set(to: $0.name.upper()) }
///     .returning { ($0.id, $0.name) }
///     .fetchAll(db)
/// let deleted: [Person] = try Person.delete().where { $0.age < 18 }.returning().fetchAll(db)
/// ```
public struct Returning<Root: Table, Output>: QueryStatement {
    let base: ReturningBase<Root>
    /// The `RETURNING` clause, without the keyword.
    package let returning: SQL
    let decoder: @Sendable (borrowing Row) throws -> Output
    init(base: ReturningBase<Root>, returning: SQL, decoder: @escaping @Sendable (borrowing Row) throws -> Output) {
        self.base = base
        self.returning = returning
        self.decoder = decoder
    }

    /// ` RETURNING …`.
    var returningClause: SQL {
        var sql = SQL(text: " RETURNING ")
        sql.append(returning)
        return sql
    }

    /// The statement's SQL and bound values (for an insert, those of its first record).
    public var sql: SQL {
        switch base {
        case .insert(let insert): sqlConcat(insert.sql, returningClause)
        case .statement(let sql): sqlConcat(sql, returningClause)
        }
    }

    /// The statements to run, each with its values: one per record for an insert (leaving out
    /// the columns at `alsoOmitting` when the record's value there is `nil`, as well as those
    /// with a default), else one.
    package func statementsPerRecord(alsoOmitting extra: [Int] = []) -> [SQL] {
        switch base {
        case .insert(let insert):
            return insert.records.map { record in
                sqlConcat(insert.statement(for: record, alsoOmitting: extra), returningClause)
            }
        case .statement(let sql):
            return [sqlConcat(sql, returningClause)]
        }
    }

    /// The insert, when the statement is one (run once per record).
    package var insert: Insert<Root>? {
        if case .insert(let insert) = base { return insert }
        return nil
    }

    /// Whether the statement is an insert (run once per record).
    package var isInsert: Bool {
        if case .insert = base { return true }
        return false
    }

    /// Decodes one returned row.
    package func decode(row: borrowing Row) throws -> Output {
        try decoder(row)
    }

    /// Runs the statement and returns every returned row.
    public func fetchAll(_ db: Database) throws -> [Output] {
        var results: [Output] = []
        try run(db) { _, output in
            if let output { results.append(output) }
        }
        return results
    }

    /// Runs the statement and returns the first returned row, or `nil` when none was. The
    /// statement always runs to completion.
    public func fetchOne(_ db: Database) throws -> Output? {
        try fetchAll(db).first
    }

    /// Runs the statement, calling `body` with each returned row, decoded, or with `nil` for an
    /// inserted record that returned no row (skipped by `OR IGNORE` or `DO NOTHING`). The index is
    /// the record's, for an insert.
    func run(_ db: Database, _ body: (Int, Output?) throws -> Void) throws {
        try sql.checkBuildError()
        switch base {
        case .insert(let insert):
            var index = 0
            try insert.forEachRecord(db, suffix: returningClause) { statement, _ in
                var returned = false
                while try statement.step() {
                    returned = true
                    try body(index, decoder(Row(statement: statement)))
                }
                if !returned { try body(index, nil) }
                index += 1
            }
        case .statement:
            try db.withStatement(sql) { statement in
                while try statement.step() { try body(0, decoder(Row(statement: statement))) }
            }
        }
    }
}

/// What a ``Returning`` adds its clause to: an insert (run once per record), or another statement.
enum ReturningBase<Root: Table>: Sendable {
    case insert(Insert<Root>)
    case statement(SQL)
}

/// A statement that writes rows of one table — an ``Insert``, an ``Update`` or a ``Delete`` — and
/// can return them with `RETURNING`.
public protocol RowWritingStatement: QueryStatement {
    /// The table the statement writes.
    associatedtype Root: Table
}

extension RowWritingStatement {
    /// Returns chosen columns or expressions of each row written: for an insert or an update, as
    /// stored by it; for a delete, as it was.
    ///
    /// ```swift
    /// let id = try Person.insert(person).returning(\.id).fetchOne(db)
    /// let renamed = try Person.update { $0.name.set(to: $0.name.upper()) }.returning { ($0.id, $0.name) }.fetchAll(db)
    /// ```
    public func returning<each Selected: QueryExpression>(
        _ selection: (Root.Columns) -> (repeat each Selected)
    ) -> Returning<Root, (repeat (each Selected).QueryValue)> where repeat (each Selected).QueryValue: SQLExtractable {
        let expressions = selection(Root.Columns(qualifier: Root.tableName))
        var fragments: [SQL] = []
        for expression in repeat each expressions { fragments.append(expression.queryFragment) }
        return Returning(base: returningBase, returning: SQL.joined(fragments, separator: ", ")) { row in
            var index = 0
            return (repeat try extractNext((each Selected).QueryValue.self, from: row, at: &index))
        }
    }

    /// Returns each row written as a record: for an insert or an update, as stored by it; for a
    /// delete, as it was.
    public func returning() -> Returning<Root, Root> {
        Returning(
            base: returningBase, returning: SelectClauses.columnList(of: Root.self, qualifier: Root.tableName)
        ) {
            try Root(row: $0)
        }
    }

    /// An insert runs once per record; another statement once.
    private var returningBase: ReturningBase<Root> {
        if let insert = self as? Insert<Root> { return .insert(insert) }
        return .statement(sql)
    }
}
