import SlateCore

// The run-time schema drift check: do the tables of this database file still match the `Table`
// types the app was built with? `slate check` runs the same comparison between two whole schemas.

extension Database {
    /// How the tables of this database differ from the tables `types` declare; empty when they
    /// agree.
    ///
    /// Run it when a connection opens, so that an app refuses a file whose tables no longer match
    /// its record types rather than failing later, in the middle of a query:
    ///
    /// ```swift
    /// let differences = try db.verifySchema(of: [Artist.self, Album.self, Track.self])
    /// guard differences.isEmpty else {
    ///     throw IncompatibleDatabase(differences.map(\.description))  // "column Track.Composer is missing"
    /// }
    /// ```
    ///
    /// Each type's ``Table/schema`` is compared with the table of the same name, read with
    /// ``tableSchema(named:)``, by ``TableSchema/differences(from:primaryKey:)``: a missing table or
    /// view, missing and unexpected columns, another type affinity or declared type, nullability,
    /// defaults, primary key, uniqueness, collation, generated columns, `AUTOINCREMENT`, foreign
    /// keys, indexes, `WITHOUT ROWID` and `STRICT`. Tables of the database that no type declares
    /// are not reported: an app checks what it uses. Differences of spelling (whitespace,
    /// comments, identifier quoting, letter case) are never reported.
    ///
    /// For a view only its columns' names and declared types are compared: SQLite does not say
    /// whether a view's column can be `NULL`.
    ///
    /// The check only reads; it changes nothing.
    ///
    /// - Parameter types: The table types, for example a generated database type's `tables`. A
    ///   type listed twice is checked once.
    /// - Returns: The differences, type by type in the order given.
    /// - Throws: ``DatabaseError`` when the schema cannot be read.
    public func verifySchema(of types: [any Table.Type]) throws -> [SchemaDifference] {
        var expectedSchemas: [TableSchema] = []
        var seen: Set<String> = []
        for type in types where seen.insert(type.schema.name.lowercased()).inserted {
            if let error = type.schemaError { throw error }
            expectedSchemas.append(type.schema)
        }
        var actualSchemas: [String: TableSchema?] = [:]
        func actualSchema(_ name: String) throws -> TableSchema? {
            if let known = actualSchemas[name.lowercased()] { return known }
            let schema = try tableSchema(named: name)
            actualSchemas[name.lowercased()] = schema
            return schema
        }

        var actuals: [TableSchema?] = []
        for expected in expectedSchemas { actuals.append(try actualSchema(expected.name)) }

        // Foreign keys that reference a parent's key without naming its columns compare equal to
        // those that name them: read the parents' keys first (the comparison cannot throw).
        var primaryKeys: [String: [String]] = [:]
        for expected in expectedSchemas { primaryKeys[expected.name.lowercased()] = expected.primaryKey }
        for (expected, actual) in zip(expectedSchemas, actuals) {
            for key in expected.foreignKeys + (actual?.foreignKeys ?? [])
            where primaryKeys[key.referencedTable.lowercased()] == nil {
                primaryKeys[key.referencedTable.lowercased()] = try actualSchema(key.referencedTable)?.primaryKey ?? []
            }
        }

        var differences: [SchemaDifference] = []
        for (expected, actual) in zip(expectedSchemas, actuals) {
            guard let actual else {
                differences.append(
                    SchemaDifference(expected.kind == .view ? .missingView : .missingTable, table: expected.name))
                continue
            }
            if expected.kind == .view && actual.kind == .view {
                differences += expected.viewColumnsOnly.differences(from: actual.viewColumnsOnly)
            } else {
                differences += expected.differences(from: actual) { primaryKeys[$0.lowercased()] }
            }
        }
        return differences
    }
}

extension TableSchema {
    /// The schema with only what SQLite reports of a view's columns: names and declared types.
    var viewColumnsOnly: TableSchema {
        TableSchema(
            name: name, kind: kind, columns: columns.map { TableSchema.Column(name: $0.name, type: $0.declaredType) })
    }
}
