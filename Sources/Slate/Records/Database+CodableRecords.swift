import Foundation

// Saving, fetching and deleting CodableRecord values. Writes prepare the type's table first
// (creating it, or adding the columns it lacks, once per connection and schema change). Reads never
// change the schema: a type whose table does not exist yet has no records, and a read that needs a
// column the table lacks throws SQLite's "no such column" error.

extension Database {
    /// Updates the row with `record`'s primary key, or inserts `record` when its key is `NULL` or no
    /// row has it, and returns it as saved: a record whose `INTEGER PRIMARY KEY` was `nil` gets its
    /// new rowid through ``CodableRecord/didInsert(rowID:)``. A type without primary key is always
    /// inserted.
    ///
    /// The update writes the record's columns only, so columns of the table that the type does not
    /// declare (added by another version of the app) keep their values.
    @discardableResult
    public func save<R: CodableRecord>(_ record: R) throws -> R {
        try save(contentsOf: [record])[0]
    }

    /// Saves every record (see `save(_:)`) with two prepared statements, an `UPDATE` by key and an
    /// `INSERT`, inside a savepoint: either all are saved or none is.
    @discardableResult
    public func save<R: CodableRecord>(contentsOf records: [R]) throws -> [R] {
        let definition = try TableDefinition(R.self)
        try prepareTable(definition)
        guard !records.isEmpty else { return [] }
        let columns = definition.columns.map(\.name)
        let keys = definition.primaryKeyColumns
        let insertSQL = "INSERT INTO " + definition.name.quotedIdentifier
            + " (" + columns.map(\.quotedIdentifier).joined(separator: ", ") + ") VALUES ("
            + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        // Numbered parameters in column order, so that one binding layout serves both statements.
        let keySet = Set(keys)
        let parameter = { (index: Int) in columns[index].quotedIdentifier + " = ?\(index + 1)" }
        var assigned = columns.indices.filter { !keySet.contains(columns[$0]) }
        if assigned.isEmpty { assigned = columns.indices.filter { keySet.contains(columns[$0]) } }
        let updateSQL = keys.isEmpty ? nil : "UPDATE " + definition.name.quotedIdentifier + " SET "
            + assigned.map(parameter).joined(separator: ", ") + " WHERE "
            + columns.indices.filter { keySet.contains(columns[$0]) }.map(parameter).joined(separator: " AND ")
        let rowIDColumn = definition.rowIDColumn
        let hasHiddenRowID = keys.isEmpty && !definition.isWithoutRowID
        let run = { () throws -> [R] in
            let insert = try self.cachedStatement(sql: insertSQL)
            let update = try updateSQL.map { try self.cachedStatement(sql: $0) }
            insert.isCheckedOut = true
            update?.isCheckedOut = true
            defer {
                insert.isCheckedOut = false
                insert.resetQuietly()
                update?.isCheckedOut = false
                update?.resetQuietly()
            }
            let insertBinder = RecordBinder(statement: insert, columns: columns, columnNames: R.columnNames)
            let updateBinder = update.map { RecordBinder(statement: $0, columns: columns, columnNames: R.columnNames) }
            var saved: [R] = []
            saved.reserveCapacity(records.count)
            for var record in records {
                insert.resetQuietly()
                try insertBinder.bind(record)
                if let update, let updateBinder, keys.allSatisfy(insertBinder.hasValue(forColumn:)) {
                    update.resetQuietly()
                    try updateBinder.bind(record)
                    try update.run()
                    if self.changesCount > 0 {
                        saved.append(record)
                        continue
                    }
                }
                try insert.run()
                if hasHiddenRowID || (rowIDColumn.map { !insertBinder.hasValue(forColumn: $0) } ?? false) {
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
    /// A read never changes the schema: when the type's table does not exist yet, there are no
    /// records; columns of the table that the type does not declare are not read.
    ///
    /// ```swift
    /// let adults = try db.fetchAll(Person.self, where: "age >= \(18)", orderBy: "name")
    /// ```
    public func fetchAll<R: CodableRecord>(_ type: R.Type, where filter: SQL? = nil, orderBy order: SQL? = nil, limit: Int? = nil) throws -> [R] {
        let definition = try TableDefinition(R.self)
        guard try tableExists(definition.name) else { return [] }
        var sql = SQL(
            sql: "SELECT " + definition.columns.map(\.name.quotedIdentifier).joined(separator: ", ") + " FROM "
                + definition.name.quotedIdentifier)
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
        guard try tableExists(definition.name) else { return 0 }
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

extension Database {
    /// Whether the `main` database has a table called `name` (compared case-insensitively, as SQLite
    /// compares identifiers).
    func tableExists(_ name: String) throws -> Bool {
        try fetchOne(Int.self, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = \(name) COLLATE NOCASE") != nil
    }
}
