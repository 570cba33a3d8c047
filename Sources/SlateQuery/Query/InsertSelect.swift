import SlateConcurrency
import SlateCore

// `INSERT INTO "T" ("a", "b") SELECT …`: rows copied by SQLite from a query, typed so that the
// query's tuple matches the inserted columns, element by element.

/// `INSERT [OR …] INTO "Table" ("a", …) SELECT …`: inserts the rows a query selects.
///
/// ```swift
/// try Playlist.insert { $0.name } select: {
///     Genre.select { $0.name ?? "Unnamed" }
/// }
/// .execute(db)
/// // INSERT INTO "Playlist" ("Name") SELECT coalesce("Genre"."Name", ?) FROM "Genre"
/// ```
///
/// The selection's value types must be the columns' value types, in order: selecting a
/// `String?` into a `String` column, or two values into one column, does not compile. Columns
/// left out take their SQL defaults (or `NULL`, or a new rowid for an `INTEGER PRIMARY KEY`).
public struct InsertSelect<Root: Table>: QueryStatement {
    /// The inserted columns, unquoted, in order.
    public let columns: [String]
    /// `INSERT OR <resolution>`, or `nil` for a plain `INSERT`.
    public var conflictResolution: ConflictResolution?
    /// The query whose rows are inserted.
    let select: SQL

    /// The statement's SQL and bound values: those of the query.
    public var sql: SQL {
        var sql = conflictResolution.map { $0.statementPrefix(.insert, selecting: true) } ?? SQL(text: "INSERT INTO ")
        sql.append(.identifier(Root.tableName))
        sql.append(text: " (")
        for (index, column) in columns.enumerated() {
            if index > 0 { sql.append(text: ", ") }
            sql.append(.identifier(column))
        }
        sql.append(text: ") ")
        sql.append(select)
        return sql
    }

    /// Runs the statement and returns the number of rows it inserted.
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
    /// An insert of the rows `select` returns into the columns `columns` chooses, whose value
    /// types the selection must match, in order:
    ///
    /// ```swift
    /// try Playlist.insert { ($0.playlistId, $0.name) } select: {
    ///     Genre.where { $0.genreId > 20 }.select { ($0.genreId + 100, $0.name) }
    /// }
    /// .execute(db)
    /// ```
    public static func insert<each Inserted: ColumnExpression, Query: SelectStatement>(
        or conflictResolution: ConflictResolution? = nil,
        _ columns: (Columns) -> (repeat each Inserted),
        select: () -> Query
    ) -> InsertSelect<Self> where Query.Output == (repeat (each Inserted).QueryValue) {
        let chosen = columns(Columns(qualifier: tableName))
        var names: [String] = []
        for column in repeat each chosen { names.append(column.name) }
        return InsertSelect(columns: names, conflictResolution: conflictResolution, select: select().sql)
    }
}
