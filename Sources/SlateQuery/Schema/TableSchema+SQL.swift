import Foundation
import SlateConcurrency
import SlateCore

// `CREATE TABLE`, `CREATE INDEX` and column definitions rendered from a ``TableSchema``: the one
// place Slate writes DDL, whoever produced the schema (a hand-written `Table`, the `@Table` macro,
// `slate generate`, a Codable record, a migration).

extension TableSchema {
    /// The `CREATE TABLE` (or `CREATE VIRTUAL TABLE`) statement, for the table named `tableName`
    /// (default: ``name``).
    ///
    /// The form is canonical: a single-column primary key and single-column foreign keys are
    /// declared on their column (`"id" INTEGER PRIMARY KEY`, `REFERENCES "artist" ("id")`); a
    /// composite key, multi-column unique constraints and multi-column foreign keys are table
    /// constraints.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` for a view, which is created from its
    ///   `SELECT`, not from a schema.
    public func createTableSQL(named tableName: String? = nil, ifNotExists: Bool = false) throws -> String {
        let name = (tableName ?? self.name).quotedIdentifier
        let existence = ifNotExists ? "IF NOT EXISTS " : ""
        switch kind {
        case .view:
            throw DatabaseError(
                resultCode: .misuse,
                message: "\(self.name) is a view: it is created with CREATE VIEW, not from a table schema")
        case .virtual(let module, let arguments):
            return "CREATE VIRTUAL TABLE " + existence + name + " USING " + module + "(" + arguments + ")"
        case .table:
            break
        }
        if let generated = columns.first(where: { $0.generation != .none && $0.generationExpression == nil }) {
            throw DatabaseError(
                resultCode: .misuse,
                message:
                    "cannot create table \(self.name): the expression of generated column \(generated.name) is unknown")
        }
        let keyColumns = primaryKey
        let inlineKey = keyColumns.count == 1
        var definitions = columns.map { columnDefinition($0, inlineKey: inlineKey) }
        if keyColumns.count > 1 {
            definitions.append("PRIMARY KEY (" + keyColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for unique in uniqueConstraints where unique.count > 1 {
            definitions.append("UNIQUE (" + unique.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for foreignKey in foreignKeys where foreignKey.columns.count != 1 || column(named: foreignKey.columns[0]) == nil
        {
            definitions.append(
                "FOREIGN KEY (" + foreignKey.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
                    + Self.referenceClause(foreignKey))
        }
        var options: [String] = []
        if isWithoutRowID { options.append("WITHOUT ROWID") }
        if isStrict { options.append("STRICT") }
        return "CREATE TABLE " + existence + name + " (" + definitions.joined(separator: ", ") + ")"
            + (options.isEmpty ? "" : " " + options.joined(separator: ", "))
    }

    /// `CREATE [UNIQUE] INDEX` for each index in ``indexes``.
    public func createIndexSQL(ifNotExists: Bool = false) -> [String] {
        indexes.map { createIndexSQL($0, ifNotExists: ifNotExists) }
    }

    /// `CREATE [UNIQUE] INDEX` for one index of this table.
    public func createIndexSQL(_ index: Index, ifNotExists: Bool = false) -> String {
        (index.isUnique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") + (ifNotExists ? "IF NOT EXISTS " : "")
            + index.name.quotedIdentifier + " ON " + name.quotedIdentifier
            + " (" + index.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
            + (index.condition.map { " WHERE " + $0 } ?? "")
    }

    /// The table and its indexes: every statement that creates them.
    public func createStatements(ifNotExists: Bool = false) throws -> [String] {
        [try createTableSQL(ifNotExists: ifNotExists)] + createIndexSQL(ifNotExists: ifNotExists)
    }

    /// The column's definition in `CREATE TABLE` or `ALTER TABLE ADD COLUMN`: `"name" TYPE` and its
    /// constraints. `inlineKey` declares `PRIMARY KEY` on the column (a single-column key).
    public func columnDefinition(_ column: Column, inlineKey: Bool) -> String {
        var definition = column.name.quotedIdentifier
        if !column.declaredType.isEmpty { definition += " " + column.declaredType }
        if inlineKey && column.isPrimaryKey {
            definition += column.isPrimaryKeyDescending ? " PRIMARY KEY DESC" : " PRIMARY KEY"
            if column.isAutoIncrement { definition += " AUTOINCREMENT" }
        }
        if column.isNotNull { definition += " NOT NULL" }
        if column.isUnique { definition += " UNIQUE" }
        if let defaultSQL = column.defaultSQL { definition += " DEFAULT " + DefaultExpression.rendered(defaultSQL) }
        if let collation = column.collation { definition += " COLLATE " + collation.quotedIdentifier }
        if column.generation != .none, let expression = column.generationExpression {
            definition +=
                " GENERATED ALWAYS AS (" + expression + ")" + (column.generation == .stored ? " STORED" : " VIRTUAL")
        }
        if let foreignKey = foreignKeys.first(where: {
            $0.columns.count == 1 && $0.columns[0].equalsIdentifier(column.name)
        }) {
            definition += Self.referenceClause(foreignKey)
        }
        return definition
    }

    /// ` REFERENCES "parent" ("a", …) ON DELETE … ON UPDATE …`.
    static func referenceClause(_ foreignKey: ForeignKey) -> String {
        var clause = " REFERENCES " + foreignKey.referencedTable.quotedIdentifier
        if !foreignKey.referencedColumns.isEmpty {
            clause += " (" + foreignKey.referencedColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
        }
        if foreignKey.onDelete != .noAction { clause += " ON DELETE " + foreignKey.onDelete.rawValue }
        if foreignKey.onUpdate != .noAction { clause += " ON UPDATE " + foreignKey.onUpdate.rawValue }
        return clause
    }
}

// MARK: - PostgreSQL

extension TableSchema {
    /// The Swift type of a column's values, and its storage, for choosing a PostgreSQL type.
    public struct ColumnValueType: Sendable {
        /// The value type, unwrapped from `Optional`.
        public var type: Any.Type
        /// How the column stores dates, UUIDs or JSON, when declared.
        public var storage: ColumnStorage?

        /// A column of `type`, stored as `storage` says.
        public init(_ type: Any.Type, storage: ColumnStorage? = nil) {
            self.type = type
            self.storage = storage
        }
    }

    /// The statements that create the table and its indexes on PostgreSQL.
    ///
    /// Each column's PostgreSQL type comes from its Swift type when `valueTypes` knows it (keyed by
    /// column name; ``Table/createStatements(dialect:ifNotExists:)`` reads them from the table's
    /// ``Column``s), else from its declared type. See ``postgreSQLType(of:valueType:)``.
    ///
    /// A rowid alias (`INTEGER PRIMARY KEY`) becomes `BIGINT GENERATED BY DEFAULT AS IDENTITY
    /// PRIMARY KEY`. `WITHOUT ROWID` and `STRICT` have no meaning there and are left out.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/misuse`` for what PostgreSQL cannot create
    ///   from the schema: a view, a virtual table (FTS5, R*Tree), a virtual generated column, a
    ///   `NOCASE` or `RTRIM` collation.
    public func postgreSQLCreateStatements(
        valueTypes: [String: ColumnValueType] = [:], ifNotExists: Bool = false
    ) throws -> [String] {
        func unsupported(_ what: String) -> DatabaseError {
            DatabaseError(resultCode: .misuse, message: "cannot create table \(name) on PostgreSQL: \(what)")
        }
        switch kind {
        case .view: throw unsupported("it is a view")
        case .virtual(let module, _): throw unsupported("it is a virtual table (\(module)), which is SQLite's")
        case .table: break
        }
        let keyColumns = primaryKey
        let inlineKey = keyColumns.count == 1
        var definitions: [String] = []
        for column in columns {
            var definition = column.name.quotedIdentifier + " "
            definition += postgreSQLType(of: column, valueType: valueTypes[column.name])
            if column.isRowIDAlias {
                definition += " GENERATED BY DEFAULT AS IDENTITY"
            }
            if inlineKey && column.isPrimaryKey {
                definition += column.isPrimaryKeyDescending ? " PRIMARY KEY" : " PRIMARY KEY"
            }
            if column.isNotNull { definition += " NOT NULL" }
            if column.isUnique { definition += " UNIQUE" }
            if let defaultSQL = column.defaultSQL { definition += " DEFAULT " + DefaultExpression.rendered(defaultSQL) }
            // A UUID column's NOCASE (UUIDStorage.text) has nothing to do on PostgreSQL: its `uuid`
            // type compares values, and Slate writes text-stored UUIDs in one (lowercase) form.
            let isUUID = valueTypes[column.name].map { $0.type == UUID.self } ?? false
            if let collation = column.collation, !(isUUID && collation.uppercased() == "NOCASE") {
                switch collation.uppercased() {
                case "BINARY": definition += " COLLATE \"C\""
                case "NOCASE", "RTRIM":
                    throw unsupported("column \(column.name) has the \(collation) collation, which PostgreSQL lacks")
                default: definition += " COLLATE " + collation.quotedIdentifier
                }
            }
            switch column.generation {
            case .none: break
            case .virtual:
                throw unsupported("column \(column.name) is a virtual generated column; PostgreSQL 15 stores them")
            case .stored:
                guard let expression = column.generationExpression else {
                    throw unsupported("the expression of generated column \(column.name) is unknown")
                }
                definition += " GENERATED ALWAYS AS (" + expression + ") STORED"
            }
            if let foreignKey = foreignKeys.first(where: {
                $0.columns.count == 1 && $0.columns[0].equalsIdentifier(column.name)
            }) {
                definition += Self.referenceClause(foreignKey)
            }
            definitions.append(definition)
        }
        if keyColumns.count > 1 {
            definitions.append("PRIMARY KEY (" + keyColumns.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for unique in uniqueConstraints where unique.count > 1 {
            definitions.append("UNIQUE (" + unique.map(\.quotedIdentifier).joined(separator: ", ") + ")")
        }
        for foreignKey in foreignKeys where foreignKey.columns.count != 1 || column(named: foreignKey.columns[0]) == nil
        {
            definitions.append(
                "FOREIGN KEY (" + foreignKey.columns.map(\.quotedIdentifier).joined(separator: ", ") + ")"
                    + Self.referenceClause(foreignKey))
        }
        let table =
            "CREATE TABLE " + (ifNotExists ? "IF NOT EXISTS " : "") + name.quotedIdentifier
            + " (" + definitions.joined(separator: ", ") + ")"
        return [table] + createIndexSQL(ifNotExists: ifNotExists)
    }

    /// The PostgreSQL type of `column`: from its Swift type when known, else from its declared
    /// type.
    ///
    /// | Swift type | PostgreSQL |
    /// | --- | --- |
    /// | `Bool` | `BOOLEAN` |
    /// | `Int8`, `Int16`, `UInt8` | `SMALLINT` |
    /// | `Int32`, `UInt16` | `INTEGER` |
    /// | `Int`, `Int64`, `UInt32`, `UInt`, `UInt64` | `BIGINT` |
    /// | `Double` | `DOUBLE PRECISION` |
    /// | `Float` | `REAL` |
    /// | `String`, `URL` | `TEXT`, or `VARCHAR(n)` when declared `VARCHAR(n)` / `NVARCHAR(n)` / `CHAR(n)` |
    /// | `Decimal` | `NUMERIC` |
    /// | `Data`, `[UInt8]` | `BYTEA` |
    /// | `Date` | `TIMESTAMPTZ` (`TEXT` with an ISO-8601 date storage, `DOUBLE PRECISION` with a numeric one) |
    /// | `UUID` | `UUID` (`TEXT` or `BYTEA` with a UUID storage) |
    /// | `JSONEncoded` (JSON storage) | `JSONB` |
    ///
    /// Without a Swift type, the declared type decides: `BOOLEAN`, `DATE`/`DATETIME`/`TIMESTAMP`,
    /// `UUID` and `JSON` map to `BOOLEAN`, `TIMESTAMPTZ`, `UUID` and `JSONB`; otherwise the
    /// affinity: INTEGER → `BIGINT`, REAL → `DOUBLE PRECISION`, TEXT → `TEXT` (or `VARCHAR(n)`),
    /// BLOB → `BYTEA`, NUMERIC → `NUMERIC` (with the declared precision).
    public func postgreSQLType(of column: Column, valueType: ColumnValueType?) -> String {
        let declared = column.declaredType.trimmingSQLSpace.uppercased()
        let sized = Self.sizedCharacterType(declared)
        if let valueType {
            switch valueType.storage {
            case .date(let strategy): return strategy == .iso8601 ? "TEXT" : "DOUBLE PRECISION"
            case .uuid(let storage): return storage == .text ? "TEXT" : "BYTEA"
            case .json: return "JSONB"
            case nil: break
            }
            switch valueType.type {
            case is Bool.Type: return "BOOLEAN"
            case is Int8.Type, is Int16.Type, is UInt8.Type: return "SMALLINT"
            case is Int32.Type, is UInt16.Type: return "INTEGER"
            case is Int.Type, is Int64.Type, is UInt32.Type, is UInt.Type, is UInt64.Type: return "BIGINT"
            case is Double.Type: return "DOUBLE PRECISION"
            case is Float.Type: return "REAL"
            case is String.Type, is URL.Type: return sized ?? "TEXT"
            case is Decimal.Type: return "NUMERIC"
            case is Data.Type, is [UInt8].Type: return "BYTEA"
            case is Date.Type: return "TIMESTAMPTZ"
            case is UUID.Type: return "UUID"
            case is any JSONStoredValue.Type: return "JSONB"
            default: break
            }
        }
        let base = declared.prefix { $0 != "(" }.trimmingCharacters(in: .whitespaces)
        switch base {
        case "BOOL", "BOOLEAN": return "BOOLEAN"
        case "DATE", "DATETIME", "TIMESTAMP", "TIMESTAMPTZ": return "TIMESTAMPTZ"
        case "UUID": return "UUID"
        case "JSON", "JSONB": return "JSONB"
        default: break
        }
        switch column.affinity {
        case .integer: return "BIGINT"
        case .real: return "DOUBLE PRECISION"
        case .text: return sized ?? "TEXT"
        case .blob: return "BYTEA"
        case .numeric:
            if base == "NUMERIC" || base == "DECIMAL" { return declared.replacingOccurrences(of: " ", with: "") }
            return "NUMERIC"
        }
    }

    /// `VARCHAR(n)` for a declared `VARCHAR(n)`, `NVARCHAR(n)`, `CHARACTER VARYING(n)`, or
    /// `CHAR(n)`-like type with a size, else `nil`.
    private static func sizedCharacterType(_ declared: String) -> String? {
        guard declared.contains("CHAR"), let open = declared.firstIndex(of: "("),
            let close = declared.lastIndex(of: ")"),
            open < close,
            let size = Int(declared[declared.index(after: open)..<close].trimmingCharacters(in: .whitespaces)),
            size > 0
        else { return nil }
        return "VARCHAR(\(size))"
    }
}
