import Foundation

// Saving, fetching and deleting CodableRecord values. Each method prepares the type's table first
// (creating or migrating it when needed, once per connection and schema change).

extension Database {
    /// Inserts `record`, or updates the row with its primary key, and returns it as saved: a
    /// record whose `INTEGER PRIMARY KEY` was `nil` gets its new rowid through
    /// ``CodableRecord/didInsert(rowID:)``.
    ///
    /// The statement is `INSERT … ON CONFLICT (<key>) DO UPDATE SET <every other column>`; a type
    /// without primary key is always inserted.
    @discardableResult
    public func save<R: CodableRecord>(_ record: R) throws -> R {
        try save(contentsOf: [record])[0]
    }

    /// Saves every record (see `save(_:)`) with one prepared statement, inside a savepoint:
    /// either all are saved or none is.
    @discardableResult
    public func save<R: CodableRecord>(contentsOf records: [R]) throws -> [R] {
        let definition = try TableDefinition(R.self)
        try prepareTable(definition)
        guard !records.isEmpty else { return [] }
        let columns = definition.columns.map(\.name)
        let keys = definition.primaryKeyColumns
        var sql = "INSERT INTO " + definition.name.quotedIdentifier
            + " (" + columns.map(\.quotedIdentifier).joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        if !keys.isEmpty {
            let keySet = Set(keys)
            let updates = columns.filter { !keySet.contains($0) }
            sql += " ON CONFLICT (" + keys.map(\.quotedIdentifier).joined(separator: ", ") + ")"
            sql += updates.isEmpty
                ? " DO NOTHING"
                : " DO UPDATE SET " + updates.map { "\($0.quotedIdentifier) = excluded.\($0.quotedIdentifier)" }.joined(separator: ", ")
        }
        let rowIDColumn = definition.rowIDColumn
        let hasHiddenRowID = keys.isEmpty && !definition.isWithoutRowID
        let run = { () throws -> [R] in
            let statement = try self.cachedStatement(sql: sql)
            statement.isCheckedOut = true
            defer {
                statement.isCheckedOut = false
                statement.resetQuietly()
            }
            let binder = RecordBinder(statement: statement, columns: columns, columnNames: R.columnNames)
            var saved: [R] = []
            saved.reserveCapacity(records.count)
            for var record in records {
                statement.resetQuietly()
                try binder.bind(record)
                try statement.run()
                if hasHiddenRowID || (rowIDColumn.map { !binder.hasValue(forColumn: $0) } ?? false) {
                    record.didInsert(rowID: self.lastInsertedRowID)
                }
                saved.append(record)
            }
            return saved
        }
        return records.count == 1 ? try run() : try savepoint(nil, run)
    }

    /// Every record of `type` matching `filter` (all when `nil`), in `order` (SQL such as
    /// `"name DESC"`), decoded by column name.
    ///
    /// ```swift
    /// let adults = try db.fetchAll(Person.self, where: "age >= \(18)", orderBy: "name")
    /// ```
    public func fetchAll<R: CodableRecord>(_ type: R.Type, where filter: SQL? = nil, orderBy order: SQL? = nil, limit: Int? = nil) throws -> [R] {
        let definition = try TableDefinition(R.self)
        try prepareTable(definition)
        var sql = SQL(sql: "SELECT * FROM " + definition.name.quotedIdentifier)
        if let filter {
            sql.append(" WHERE ")
            sql.append(filter)
        }
        if let order {
            sql.append(" ORDER BY ")
            sql.append(order)
        }
        if let limit { sql.append(" LIMIT \(limit)") }
        let decoder = RowDecoder(columnNames: R.columnNames)
        return try fetchAll(sql) { row in try decoder.decode(R.self, from: row) }
    }

    /// The first record of `type` matching `filter`, or `nil`.
    public func fetchOne<R: CodableRecord>(_ type: R.Type, where filter: SQL? = nil, orderBy order: SQL? = nil) throws -> R? {
        try fetchAll(type, where: filter, orderBy: order, limit: 1).first
    }

    /// The number of records of `type` matching `filter`.
    public func fetchCount<R: CodableRecord>(_ type: R.Type, where filter: SQL? = nil) throws -> Int {
        let definition = try TableDefinition(R.self)
        try prepareTable(definition)
        var sql = SQL(sql: "SELECT count(*) FROM " + definition.name.quotedIdentifier)
        if let filter {
            sql.append(" WHERE ")
            sql.append(filter)
        }
        return try fetchValue(Int.self, sql)
    }

    /// Deletes the row with `record`'s primary key. Returns whether there was one.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` when the type has no primary key.
    @discardableResult
    public func delete<R: CodableRecord>(_ record: R) throws -> Bool {
        try delete(contentsOf: [record]) > 0
    }

    /// Deletes the rows with the records' primary keys, inside a savepoint. Returns the number of
    /// rows deleted.
    @discardableResult
    public func delete<R: CodableRecord>(contentsOf records: [R]) throws -> Int {
        let definition = try TableDefinition(R.self)
        let keys = definition.primaryKeyColumns
        guard !keys.isEmpty else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(R.self) has no primary key, so its records cannot be deleted one by one: delete with a filter instead")
        }
        try prepareTable(definition)
        let sql = "DELETE FROM " + definition.name.quotedIdentifier + " WHERE "
            + keys.map { "\($0.quotedIdentifier) = ?" }.joined(separator: " AND ")
        let encoder = RowEncoder(columnNames: R.columnNames)
        return try savepoint {
            var count = 0
            for record in records {
                let encoded = try encoder.encode(record)
                try execute(SQL(sql: sql, arguments: StatementArguments(keys.map { encoded[$0] })))
                count += changesCount
            }
            return count
        }
    }

    /// Deletes the records of `type` matching `filter`, or all of them when `filter` is `nil`.
    /// Returns the number of rows deleted.
    @discardableResult
    public func deleteAll<R: CodableRecord>(_ type: R.Type, where filter: SQL? = nil) throws -> Int {
        let definition = try TableDefinition(R.self)
        try prepareTable(definition)
        var sql = SQL(sql: "DELETE FROM " + definition.name.quotedIdentifier)
        if let filter {
            sql.append(" WHERE ")
            sql.append(filter)
        }
        try execute(sql)
        return changesCount
    }
}
