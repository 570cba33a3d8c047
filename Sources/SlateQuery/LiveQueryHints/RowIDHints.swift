import SlateCore

// The query layer's part of region tracking for live queries: a predicate that pins the rowid of
// its table (`$0.id == 3`, `$0.id.in([1, 2])`, `find(3)`, joined with others by `AND`) carries the
// rowids, and a `SELECT` whose top-level conditions carry some hands them to the connection with
// its SQL. A live query then refetches only after changes to those rows, not to others of the same
// table. The connection applies the hint only when the statement reads that one table, in a single
// `SELECT`, and the live table's `INTEGER PRIMARY KEY` is the column named (see `RegionTracker`).

/// A column that may be its table's rowid alias.
protocol RowIDAliasCandidate {
    /// The table and column names when the column is its table's rowid alias (its
    /// `INTEGER PRIMARY KEY`), else `nil`.
    var rowIDAliasName: (table: String, column: String)? { get }
}

extension Column: RowIDAliasCandidate {
    var rowIDAliasName: (table: String, column: String)? {
        guard failure == nil, let alias = Root.schema.rowIDAlias, alias.name.asciiLowercased == name.asciiLowercased
        else {
            return nil
        }
        return (Root.schema.name, name)
    }
}

extension SQLExpression {
    /// The predicate (a condition, `Bool` or `Bool?`), noting that it holds only for rows whose `column` is one of `values`, when
    /// the column is its table's rowid alias and every value an integer.
    func pinningRowIDs<Values: Sequence>(of column: some QueryExpression, to values: Values) -> Self {
        guard let candidate = column as? any RowIDAliasCandidate, let alias = candidate.rowIDAliasName else {
            return self
        }
        var rowIDs: Set<Int64> = []
        for value in values {
            guard let integer = value as? any BinaryInteger, let rowID = Int64(exactly: integer) else { return self }
            rowIDs.insert(rowID)
        }
        var copy = self
        copy.rowIDHint = RowIDHint(table: alias.table, column: alias.column, rowIDs: rowIDs)
        return copy
    }

    /// `lhs AND rhs`, noting the rows both conditions allow.
    func conjoiningRowIDHints<L, R>(_ lhs: SQLExpression<L>, _ rhs: SQLExpression<R>) -> Self {
        var copy = self
        switch (lhs.rowIDHint, rhs.rowIDHint) {
        case (let left?, let right?): copy.rowIDHint = left.intersection(right)
        case (let hint?, nil), (nil, let hint?): copy.rowIDHint = hint
        case (nil, nil): break
        }
        return copy
    }
}

extension SelectClauses {
    /// The rows the `WHERE` clause pins: the hints of its top-level conditions, intersected.
    var rowIDHint: RowIDHint? {
        var result: RowIDHint?
        for predicate in predicates {
            guard let hint = predicate.rowIDHint else { continue }
            result = result.map { $0.intersection(hint) } ?? hint
        }
        return result
    }
}

extension Table {
    /// The hint of a primary key lookup by `values`, for a table whose key is its rowid alias.
    static func rowIDHint(primaryKeyValues values: [any SQLBindable]) -> RowIDHint? {
        guard values.count == 1, let alias = schema.rowIDAlias,
            let integer = values[0] as? any BinaryInteger, let rowID = Int64(exactly: integer)
        else { return nil }
        return RowIDHint(table: schema.name, column: alias.name, rowIDs: [rowID])
    }
}
