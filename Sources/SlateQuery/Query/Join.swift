import SlateConcurrency
import SlateCore

// Joins: inner, left and cross, of up to four tables. A joined statement's closures receive the
// columns of every table, in join order, and its rows decode as tuples of records, each table
// decoding its own columns from a shifted view of the row.

/// A table as it appears in a query: a ``Table`` (the required side of a join), or an optional
/// table, `T?` (the nullable side of a left join, `nil` when no row matched).
public protocol QuerySource {
    /// The table's columns.
    associatedtype Columns: TableColumns
    /// The table's schema.
    static var schema: TableSchema { get }
    /// Decodes the table's value from `row`, whose column 0 is the table's first column.
    static func decodeJoined(from row: borrowing Row) throws -> Self

    /// Why ``schema`` cannot be used, when it cannot: a `CodableRecord` whose columns could not be
    /// inferred. Statements on the table, `createTable(for:)`, migrations and schema checks throw
    /// it before anything runs, rather than SQL for a table without columns. Default: `nil`.
    static var schemaError: DatabaseError? { get }

    /// The table's columns as a joined statement's closures see them: ``Columns`` for a table,
    /// ``NullableColumns`` for the optional side of a left join, whose values can all be NULL.
    associatedtype JoinedColumns: Sendable = Columns
    /// The columns qualified by `qualifier`, as the statement's closures see them.
    static func joinedColumns(qualifier: String) -> JoinedColumns
}

extension QuerySource {
    /// `nil`: the schema is declared.
    public static var schemaError: DatabaseError? { nil }

    /// Throws ``schemaError``, if any.
    package static func checkSchema() throws {
        if let schemaError { throw schemaError }
    }
}

extension QuerySource where JoinedColumns == Columns {
    /// The table's own columns.
    public static func joinedColumns(qualifier: String) -> Columns { Columns(qualifier: qualifier) }
}

extension Optional: QuerySource where Wrapped: Table {
    /// The table's columns.
    public typealias Columns = Wrapped.Columns

    /// The columns of a left-joined table: every value optional.
    public static func joinedColumns(qualifier: String) -> NullableColumns<Wrapped.Columns> {
        NullableColumns(Wrapped.Columns(qualifier: qualifier))
    }

    /// The table's schema.
    public static var schema: TableSchema { Wrapped.schema }

    /// The table's ``QuerySource/schemaError``.
    public static var schemaError: DatabaseError? { Wrapped.schemaError }

    /// `nil` when the left join matched no row, that is when every primary key column (or every
    /// column, for a table without primary key) is NULL; the record otherwise.
    @inlinable
    public static func decodeJoined(from row: borrowing Row) throws -> Wrapped? {
        let columns = Wrapped.schema.recordColumns
        var hasPrimaryKey = false
        for index in columns.indices where columns[index].primaryKeyPosition != nil {
            hasPrimaryKey = true
            if !row.isNull(at: index) { return try Wrapped(row: row) }
        }
        if hasPrimaryKey { return nil }
        for index in columns.indices where !row.isNull(at: index) {
            return try Wrapped(row: row)
        }
        return nil
    }
}

/// The columns of a table joined under `alias`, or its own name at the statement's level.
func joinedColumns<T: QuerySource>(_ type: T.Type, alias: String?, level: UInt64) -> (
    qualifier: String, columns: T.Columns
) {
    let qualifier = alias ?? SQLScope.qualifier(T.schema.name, scope: level)
    return (qualifier, T.Columns(qualifier: qualifier))
}

// MARK: - Two tables

/// The rows of two joined tables, decoded as `(A, B)`; `B` is optional (`T?`) for a left join.
///
/// ```swift
/// let rows: [(Person, Pet?)] = try Person.leftJoin(Pet.self, on: { $0.id == $1.ownerId }).fetchAll(db)
/// ```
public struct Select2<A: QuerySource, B: QuerySource>: SelectStatement {
    /// The columns of both tables.
    public typealias Scope = (A.JoinedColumns, B.JoinedColumns)
    /// One row of each table.
    public typealias Output = (A, B)

    /// The columns of both tables.
    public let scope: (A.JoinedColumns, B.JoinedColumns)
    /// The statement's clauses.
    public var clauses: SelectClauses
    @usableFromInline package let offsetB: Int

    init(scope: (A.JoinedColumns, B.JoinedColumns), clauses: SelectClauses) {
        self.scope = scope
        self.clauses = clauses
        self.offsetB = A.schema.recordColumns.count
    }

    /// Decodes each table from its columns.
    @inlinable
    public func decode(row: borrowing Row) throws -> (A, B) {
        (try A.decodeJoined(from: row), try B.decodeJoined(from: row.shifted(by: offsetB)))
    }
}

extension Select {
    /// `JOIN "T" ON condition`: rows of both tables where the condition holds.
    ///
    /// ```swift
    /// Person.join(Pet.self, on: { person, pet in person.id == pet.ownerId })
    /// ```
    public func join<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (Root.Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Root, T> {
        joining("JOIN", T.self, alias: alias) { SQLExpression(condition: condition(scope, $0)) }
    }

    /// `LEFT JOIN "T" ON condition`: every row of this table, with the matching row of `T` or `nil`.
    public func leftJoin<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (Root.Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Root, T?> {
        joining("LEFT JOIN", T?.self, alias: alias) { SQLExpression(condition: condition(scope, $0)) }
    }

    /// `CROSS JOIN "T"`: every combination of rows (filter it with `where`).
    public func crossJoin<T: Table>(_ table: T.Type, as alias: String? = nil) -> Select2<Root, T> {
        joining("CROSS JOIN", T.self, alias: alias) { _ in nil }
    }

    private func joining<T: QuerySource>(
        _ kind: String, _ type: T.Type, alias: String?, _ condition: (T.Columns) -> SQLExpression<Bool>?
    ) -> Select2<Root, T> {
        var clauses = self.clauses
        let (joinedQualifier, columns) = joinedColumns(T.self, alias: alias, level: clauses.level)
        let condition = condition(columns)
        clauses.join(kind, T.self, qualifier: joinedQualifier, on: condition)
        return Select2(
            scope: (Root.joinedColumns(qualifier: qualifier), T.joinedColumns(qualifier: joinedQualifier)),
            clauses: clauses)
    }
}

extension Table {
    /// `SELECT … FROM "Self" JOIN "T" ON condition`.
    public static func join<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Self, T> {
        Select<Self>().join(table, as: alias, on: condition)
    }

    /// `SELECT … FROM "Self" LEFT JOIN "T" ON condition`.
    public static func leftJoin<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (Columns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select2<Self, T?> {
        Select<Self>().leftJoin(table, as: alias, on: condition)
    }

    /// `SELECT … FROM "Self" CROSS JOIN "T"`.
    public static func crossJoin<T: Table>(_ table: T.Type, as alias: String? = nil) -> Select2<Self, T> {
        Select<Self>().crossJoin(table, as: alias)
    }
}

// MARK: - Three tables

/// The rows of three joined tables, decoded as `(A, B, C)`.
public struct Select3<A: QuerySource, B: QuerySource, C: QuerySource>: SelectStatement {
    /// The columns of the three tables.
    public typealias Scope = (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns)
    /// One row of each table.
    public typealias Output = (A, B, C)

    /// The columns of the three tables.
    public let scope: (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns)
    /// The statement's clauses.
    public var clauses: SelectClauses
    @usableFromInline package let offsetB: Int
    @usableFromInline package let offsetC: Int

    init(scope: (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns), clauses: SelectClauses) {
        self.scope = scope
        self.clauses = clauses
        self.offsetB = A.schema.recordColumns.count
        self.offsetC = offsetB + B.schema.recordColumns.count
    }

    /// Decodes each table from its columns.
    @inlinable
    public func decode(row: borrowing Row) throws -> (A, B, C) {
        (
            try A.decodeJoined(from: row),
            try B.decodeJoined(from: row.shifted(by: offsetB)),
            try C.decodeJoined(from: row.shifted(by: offsetC))
        )
    }
}

extension Select2 {
    /// `JOIN "T" ON condition`, the condition receiving the columns of all three tables.
    public func join<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (A.JoinedColumns, B.JoinedColumns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select3<A, B, T> {
        joining("JOIN", T.self, alias: alias) { SQLExpression(condition: condition(scope.0, scope.1, $0)) }
    }

    /// `LEFT JOIN "T" ON condition`: `nil` for `T` when no row matched.
    public func leftJoin<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (A.JoinedColumns, B.JoinedColumns, T.Columns) -> some QueryExpression<some BooleanQueryValue>
    ) -> Select3<A, B, T?> {
        joining("LEFT JOIN", T?.self, alias: alias) { SQLExpression(condition: condition(scope.0, scope.1, $0)) }
    }

    /// `CROSS JOIN "T"`.
    public func crossJoin<T: Table>(_ table: T.Type, as alias: String? = nil) -> Select3<A, B, T> {
        joining("CROSS JOIN", T.self, alias: alias) { _ in nil }
    }

    private func joining<T: QuerySource>(
        _ kind: String, _ type: T.Type, alias: String?, _ condition: (T.Columns) -> SQLExpression<Bool>?
    ) -> Select3<A, B, T> {
        var clauses = self.clauses
        let (joinedQualifier, columns) = joinedColumns(T.self, alias: alias, level: clauses.level)
        let condition = condition(columns)
        clauses.join(kind, T.self, qualifier: joinedQualifier, on: condition)
        return Select3(scope: (scope.0, scope.1, T.joinedColumns(qualifier: joinedQualifier)), clauses: clauses)
    }
}

// MARK: - Four tables

/// The rows of four joined tables, decoded as `(A, B, C, D)`.
public struct Select4<A: QuerySource, B: QuerySource, C: QuerySource, D: QuerySource>: SelectStatement {
    /// The columns of the four tables.
    public typealias Scope = (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns, D.JoinedColumns)
    /// One row of each table.
    public typealias Output = (A, B, C, D)

    /// The columns of the four tables.
    public let scope: (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns, D.JoinedColumns)
    /// The statement's clauses.
    public var clauses: SelectClauses
    @usableFromInline package let offsetB: Int
    @usableFromInline package let offsetC: Int
    @usableFromInline package let offsetD: Int

    init(scope: (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns, D.JoinedColumns), clauses: SelectClauses) {
        self.scope = scope
        self.clauses = clauses
        self.offsetB = A.schema.recordColumns.count
        self.offsetC = offsetB + B.schema.recordColumns.count
        self.offsetD = offsetC + C.schema.recordColumns.count
    }

    /// Decodes each table from its columns.
    @inlinable
    public func decode(row: borrowing Row) throws -> (A, B, C, D) {
        (
            try A.decodeJoined(from: row),
            try B.decodeJoined(from: row.shifted(by: offsetB)),
            try C.decodeJoined(from: row.shifted(by: offsetC)),
            try D.decodeJoined(from: row.shifted(by: offsetD))
        )
    }
}

extension Select3 {
    /// `JOIN "T" ON condition`, the condition receiving the columns of all four tables.
    public func join<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns, T.Columns) -> some QueryExpression<
            some BooleanQueryValue
        >
    ) -> Select4<A, B, C, T> {
        joining("JOIN", T.self, alias: alias) { SQLExpression(condition: condition(scope.0, scope.1, scope.2, $0)) }
    }

    /// `LEFT JOIN "T" ON condition`: `nil` for `T` when no row matched.
    public func leftJoin<T: Table>(
        _ table: T.Type, as alias: String? = nil,
        on condition: (A.JoinedColumns, B.JoinedColumns, C.JoinedColumns, T.Columns) -> some QueryExpression<
            some BooleanQueryValue
        >
    ) -> Select4<A, B, C, T?> {
        joining("LEFT JOIN", T?.self, alias: alias) {
            SQLExpression(condition: condition(scope.0, scope.1, scope.2, $0))
        }
    }

    /// `CROSS JOIN "T"`.
    public func crossJoin<T: Table>(_ table: T.Type, as alias: String? = nil) -> Select4<A, B, C, T> {
        joining("CROSS JOIN", T.self, alias: alias) { _ in nil }
    }

    private func joining<T: QuerySource>(
        _ kind: String, _ type: T.Type, alias: String?, _ condition: (T.Columns) -> SQLExpression<Bool>?
    ) -> Select4<A, B, C, T> {
        var clauses = self.clauses
        let (joinedQualifier, columns) = joinedColumns(T.self, alias: alias, level: clauses.level)
        let condition = condition(columns)
        clauses.join(kind, T.self, qualifier: joinedQualifier, on: condition)
        return Select4(
            scope: (scope.0, scope.1, scope.2, T.joinedColumns(qualifier: joinedQualifier)), clauses: clauses)
    }
}

// MARK: - The optional side of a left join

/// The columns of the optional side of a left join, as the statement's closures see them: each
/// column has an optional value type, since it is NULL in rows where the join matched nothing.
///
/// ```swift
/// Album.leftJoin(Artist.self, on: { $0.artistId == $1.artistId })
///     .where { album, artist in artist.name == nil }        // Column<Artist, String?>
///     .select { album, artist in (album.title, artist.name) } // (String, String?)
/// ```
@dynamicMemberLookup
public struct NullableColumns<Columns: TableColumns>: Sendable {
    /// The table's columns, with their declared value types (as the `ON` condition sees them).
    public let columns: Columns

    /// Wraps a table's columns.
    public init(_ columns: Columns) {
        self.columns = columns
    }

    /// A column whose values can be NULL in a left join: `Value?`.
    public subscript<Root, Value>(dynamicMember keyPath: KeyPath<Columns, Column<Root, Value>>) -> Column<Root, Value?>
    {
        Column(nullable: columns[keyPath: keyPath])
    }

    /// An optional column, as it is.
    public subscript<Root, Value>(dynamicMember keyPath: KeyPath<Columns, Column<Root, Value?>>) -> Column<Root, Value?>
    {
        columns[keyPath: keyPath]
    }
}

extension Row {
    /// Decodes the optional side of a left join from the columns that start at `position`: `nil`
    /// when the join matched no row (every primary key column, or every column of a table without
    /// one, is `NULL`), the record otherwise. See ``SlateCore/Row/decode(_:startingAt:)``.
    ///
    /// ```swift
    /// // SELECT book.*, review.* FROM book LEFT JOIN review ON review.bookId = book.id
    /// let review = try row.decode(Review?.self, startingAt: Book.schema.recordColumns.count)
    /// ```
    @inlinable
    public func decode<Record: Table>(_ type: Record?.Type, startingAt position: Int) throws -> Record? {
        try checkDecodingPosition(position)
        return try Record?.decodeJoined(from: shifted(by: position))
    }
}
