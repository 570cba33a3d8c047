/// An SQL query with its arguments bound, and how each of its rows becomes an `Element`: what
/// `slate generate` makes of a named query in a `.sql` file.
///
/// ```swift
/// // -- name: tracksOfAlbum
/// // SELECT TrackId, Name, Composer FROM Track WHERE AlbumId = :albumId
/// let tracks = try ChinookDatabase.tracksOfAlbum(albumId: 1).fetchAll(db)
/// let first = try ChinookDatabase.tracksOfAlbum(albumId: 1).fetchOne(db)
/// let cursor = try ChinookDatabase.tracksOfAlbum(albumId: 1).fetchCursor(db)
/// while let track = try cursor.next() { print(track.name) }
/// ```
///
/// The statement is cached by its text like every statement Slate runs, so running the same query
/// again with other arguments does not prepare it again. A query value holds no connection: build
/// it anywhere and run it on the connection a queue or pool hands you.
public struct SQLQuery<Element>: Sendable {
    /// The SQL text and its arguments.
    public let sql: SQL
    /// Reads one row.
    @usableFromInline let decode: @Sendable (borrowing Row) throws -> Element

    /// A query whose rows `decode` reads.
    public init(_ sql: SQL, decode: @escaping @Sendable (borrowing Row) throws -> Element) {
        self.sql = sql
        self.decode = decode
    }

    /// A query whose rows are records, each read by its ``RowDecodable/init(row:)``.
    public init(_ sql: SQL) where Element: RowDecodable & Sendable {
        self.init(sql) { row in try Element(row: row) }
    }

    /// A query of one column, each row's value read as `type` (an optional type accepts `NULL`).
    public init(_ sql: SQL, column type: Element.Type) where Element: SQLExtractable & Sendable {
        self.init(sql) { row in try Element.extract(from: row, at: 0) }
    }

    /// Every row.
    ///
    /// - Throws: ``DatabaseError`` when the statement fails (with SQLite's code, message and the
    ///   SQL) or a value cannot be read as its Swift type.
    @inlinable
    public func fetchAll(_ db: Database) throws -> [Element] {
        try db.fetchAll(sql, decode)
    }

    /// The first row, or `nil` when there is none. The statement stops after that row.
    ///
    /// For a one-column query whose values may be `NULL`, `Element` is itself optional: `nil` is
    /// then "no row", and `.some(nil)` a row holding `NULL`.
    @inlinable
    public func fetchOne(_ db: Database) throws -> Element? {
        try db.withStatement(sql) { statement in
            guard try statement.step() else { return nil }
            return try decode(Row(statement: statement))
        }
    }

    /// A cursor reading the rows one at a time, without holding them all.
    public func fetchCursor(_ db: Database) throws -> DatabaseCursor<Element> {
        DatabaseCursor(statement: try db.boundStatement(sql), decode: decode)
    }
}

/// An SQL statement that changes the database and returns no rows (`INSERT`, `UPDATE`, `DELETE`
/// without `RETURNING`), with its arguments bound: what `slate generate` makes of such a named
/// statement in a `.sql` file.
///
/// ```swift
/// // -- name: renameArtist
/// // UPDATE Artist SET Name = :name WHERE ArtistId = :artistId
/// let changed = try ChinookDatabase.renameArtist(name: "AC/DC", artistId: 1).execute(db)
/// ```
public struct SQLCommand: Sendable {
    /// The SQL text and its arguments.
    public let sql: SQL

    /// A statement to run.
    public init(_ sql: SQL) {
        self.sql = sql
    }

    /// Runs the statement.
    ///
    /// - Returns: The number of rows it inserted, updated or deleted (`sqlite3_changes64`; rows
    ///   changed by triggers and foreign key actions are not counted).
    /// - Throws: ``DatabaseError`` with SQLite's code, message and the SQL, such as
    ///   ``ResultCode/constraint`` when a constraint fails.
    @discardableResult
    public func execute(_ db: Database) throws -> Int {
        try db.execute(sql)
        return db.changesCount
    }
}
