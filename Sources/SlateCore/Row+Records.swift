// Decoding several records from one row: a raw joined row holds one record's columns after
// another's.

extension Row {
    /// Decodes `type` from the columns that start at `position`: column `position` of this row is
    /// column 0 of the record's ``RowDecodable/init(row:)``. Use it to decode a raw joined row into
    /// one record per table:
    ///
    /// ```swift
    /// // SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId
    /// let pairs = try db.fetchAll(sql) { row in
    ///     (try row.decode(Book.self, startingAt: 0), try row.decode(Author.self, startingAt: 3))
    /// }
    /// ```
    ///
    /// A `Table` reads its columns by position, so `position` is the number of columns before its
    /// own (`Book.schema.recordColumns.count` for the second table of `book.*, author.*`). The
    /// query builder's joins (`Book.join(Author.self, on: …)`) do this for you. For the optional
    /// side of a left join, see `decode(_:startingAt:)` for an optional `Table` (SlateQuery).
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/range`` when `position` is negative or past the
    ///   row's last column; any error of the record's initializer.
    @inlinable
    public func decode<Record: RowDecodable>(_ type: Record.Type, startingAt position: Int) throws -> Record {
        try checkDecodingPosition(position)
        return try Record(row: shifted(by: position))
    }

    /// Throws unless `position` is a column of this row, or its end (a record of no column).
    @usableFromInline
    package func checkDecodingPosition(_ position: Int) throws {
        guard position >= 0, position <= count else {
            throw DatabaseError(
                resultCode: .range,
                message: "cannot decode a record from column \(position) of a row of \(count) column(s)")
        }
    }
}
