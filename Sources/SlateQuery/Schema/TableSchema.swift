import SlateConcurrency
import SlateCore

/// One table as Slate models it everywhere: what a ``Table`` type declares, what
/// `Database.tableSchema(named:)` reads from a live database, what `CREATE TABLE` is rendered
/// from, what migrations and drift checks compare.
///
/// ```swift
/// static let schema = TableSchema(
///     name: "Album",
///     columns: [
///         .init(name: "AlbumId", type: "INTEGER", primaryKeyPosition: 1),
///         .init(name: "Title", type: "NVARCHAR(160)", isNotNull: true),
///         .init(name: "ArtistId", type: "INTEGER", isNotNull: true),
///     ],
///     foreignKeys: [.init(columns: ["ArtistId"], referencedTable: "Artist", referencedColumns: ["ArtistId"])],
///     indexes: [.init(name: "IFK_AlbumArtistId", columns: ["ArtistId"])])
/// ```
///
/// The model says what SQLite knows, not how a statement spelled it: two tables with the same
/// schema give equal values whatever whitespace, quoting or letter case their SQL used.
public struct TableSchema: Sendable, Hashable, Codable {
    /// The table name, unquoted.
    public var name: String
    /// What kind of table this is.
    public var kind: Kind
    /// The columns, in table order, generated columns included.
    public var columns: [Column]
    /// Every foreign key, single- and multi-column, in declaration order.
    public var foreignKeys: [ForeignKey]
    /// The indexes made with `CREATE INDEX`. (Indexes SQLite makes for `PRIMARY KEY` and `UNIQUE`
    /// constraints are described by ``Column/isUnique``, ``uniqueConstraints`` and the key.)
    public var indexes: [Index]
    /// Multi-column `UNIQUE` constraints, each as its column names. Single-column ones are
    /// ``Column/isUnique``.
    public var uniqueConstraints: [[String]]
    /// Whether the table is declared `WITHOUT ROWID`.
    public var isWithoutRowID: Bool
    /// Whether the table is declared `STRICT`.
    public var isStrict: Bool

    /// Creates a table model. A lone `INTEGER` primary key column of a rowid table is marked as
    /// the rowid alias.
    public init(
        name: String, kind: Kind = .table, columns: [Column], foreignKeys: [ForeignKey] = [], indexes: [Index] = [],
        uniqueConstraints: [[String]] = [], isWithoutRowID: Bool = false, isStrict: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.columns = columns
        self.foreignKeys = foreignKeys
        self.indexes = indexes
        self.uniqueConstraints = uniqueConstraints
        self.isWithoutRowID = isWithoutRowID
        self.isStrict = isStrict
        markRowIDAlias()
    }

    /// Marks the rowid alias: the only primary key column of a rowid table, declared exactly
    /// `INTEGER`.
    package mutating func markRowIDAlias() {
        let keys = columns.indices.filter { columns[$0].primaryKeyPosition != nil }
        for index in columns.indices { columns[index].isRowIDAlias = false }
        guard kind == .table, !isWithoutRowID, keys.count == 1 else { return }
        let key = keys[0]
        if columns[key].declaredType.trimmingSQLSpace.uppercased() == "INTEGER" && columns[key].generation == .none
            && !columns[key].isPrimaryKeyDescending
        {
            columns[key].isRowIDAlias = true
        }
    }

    /// The primary key's column names, in key order; empty when the table has no declared key.
    public var primaryKey: [String] {
        columns.enumerated()
            .compactMap { index, column in
                column.primaryKeyPosition.map { (position: $0, index: index, name: column.name) }
            }
            .sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            .map(\.name)
    }

    /// The positions in ``columns`` of the primary key's columns, in key order.
    public var primaryKeyIndexes: [Int] {
        columns.enumerated()
            .compactMap { index, column in column.primaryKeyPosition.map { (position: $0, index: index) } }
            .sorted { ($0.position, $0.index) < ($1.position, $1.index) }
            .map(\.index)
    }

    /// The column whose value is the rowid (an `INTEGER PRIMARY KEY` of a rowid table), if any.
    public var rowIDAlias: Column? { columns.first(where: \.isRowIDAlias) }

    /// The columns a record holds, reads and writes: every column but generated and hidden ones,
    /// in table order.
    public var recordColumns: [Column] {
        columns.filter { $0.generation == .none && !$0.isHidden }
    }

    /// The column called `name`, compared as SQLite compares identifiers (ASCII
    /// case-insensitively).
    public func column(named name: String) -> Column? {
        columns.first { $0.name.equalsIdentifier(name) }
    }

    /// Whether any column is `AUTOINCREMENT`.
    public var hasAutoIncrement: Bool { columns.contains(where: \.isAutoIncrement) }

    /// Whether the values of column `name` alone are unique: it is the whole primary key, has a
    /// `UNIQUE` constraint, or has a full unique index of its own.
    public func isUniqueColumn(_ name: String) -> Bool {
        let key = primaryKey
        if key.count == 1 && key[0].equalsIdentifier(name) { return true }
        if column(named: name)?.isUnique == true { return true }
        if uniqueConstraints.contains(where: { $0.count == 1 && $0[0].equalsIdentifier(name) }) { return true }
        return indexes.contains {
            $0.isUnique && !$0.isPartial && $0.columns.count == 1 && $0.columns[0].equalsIdentifier(name)
        }
    }
}

// MARK: - Kinds and affinity

extension TableSchema {
    /// What kind of table a schema describes.
    public enum Kind: Sendable, Hashable, Codable {
        /// An ordinary table (rowid, `WITHOUT ROWID` or `STRICT`).
        case table
        /// A view: read-only, without keys.
        case view
        /// A virtual table of `module` (`"fts5"` …), created with `arguments` (the text between
        /// the parentheses of `USING module(…)`).
        case virtual(module: String, arguments: String)
    }

    /// A column's type affinity: the storage class SQLite prefers for its values, derived from the
    /// declared type by the rules of [SQLite's documentation, section 3.1](https://www.sqlite.org/datatype3.html#determination_of_column_affinity).
    public enum Affinity: String, Sendable, Hashable, Codable, CaseIterable {
        /// The declared type contains `INT`.
        case integer = "INTEGER"
        /// The declared type contains `CHAR`, `CLOB` or `TEXT`.
        case text = "TEXT"
        /// The declared type contains `BLOB`, or there is no declared type.
        case blob = "BLOB"
        /// The declared type contains `REAL`, `FLOA` or `DOUB`.
        case real = "REAL"
        /// Any other declared type, such as `NUMERIC`, `DECIMAL(10,2)`, `BOOLEAN` or `DATETIME`.
        case numeric = "NUMERIC"

        /// The affinity of a column declared with `declaredType`, by SQLite's rules, applied in
        /// order: `INT` → integer; `CHAR`, `CLOB`, `TEXT` → text; `BLOB` or no type → blob;
        /// `REAL`, `FLOA`, `DOUB` → real; anything else → numeric.
        ///
        /// ```swift
        /// TableSchema.Affinity(declaredType: "NVARCHAR(120)")   // .text
        /// TableSchema.Affinity(declaredType: "FLOATING POINT")  // .integer: "POINT" contains "INT"
        /// ```
        public init(declaredType: String) {
            // SQLite's rules (sqlite3AffinityType), on ASCII letters folded to upper case as SQLite
            // folds them: no Unicode case mapping, which could turn other letters into ASCII ones.
            var type = Array(declaredType.utf8)
            for index in type.indices where type[index] >= UInt8(ascii: "a") && type[index] <= UInt8(ascii: "z") {
                type[index] -= 0x20
            }
            func contains(_ word: StaticString) -> Bool {
                let count = word.utf8CodeUnitCount
                guard type.count >= count else { return false }
                return word.withUTF8Buffer { needle in
                    (0...(type.count - count)).contains { start in
                        (0..<count).allSatisfy { type[start + $0] == needle[$0] }
                    }
                }
            }
            if contains("INT") {
                self = .integer
            } else if contains("CHAR") || contains("CLOB") || contains("TEXT") {
                self = .text
            } else if contains("BLOB") || type.allSatisfy({ [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains($0) }) {
                self = .blob
            } else if contains("REAL") || contains("FLOA") || contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }

    /// How a column is generated.
    public enum Generation: String, Sendable, Hashable, Codable {
        /// An ordinary column.
        case none
        /// `GENERATED ALWAYS AS (…) VIRTUAL`: computed when read.
        case virtual
        /// `GENERATED ALWAYS AS (…) STORED`: computed when written.
        case stored
    }
}

// MARK: - Columns

extension TableSchema {
    /// A column.
    public struct Column: Sendable, Hashable, Codable {
        /// The column name, unquoted.
        public var name: String
        /// The declared type as written (`"NVARCHAR(120)"`), or `""` when none was given.
        public var declaredType: String {
            didSet { affinity = Affinity(declaredType: declaredType) }
        }
        /// The type affinity SQLite derives from ``declaredType``.
        public private(set) var affinity: Affinity
        /// Whether the column is declared `NOT NULL`. An `INTEGER PRIMARY KEY` never holds `NULL`
        /// without saying so: see ``isNullable``.
        public var isNotNull: Bool
        /// The `DEFAULT` expression as SQL text (`"0"`, `"'none'"`, `"CURRENT_TIMESTAMP"`), or `nil`.
        /// It is schema text written by a developer or read from a database, never user input.
        public var defaultSQL: String?
        /// The column's collation (`"NOCASE"`), or `nil` for the default `BINARY`.
        public var collation: String?
        /// The column's 1-based position in the primary key, or `nil`.
        public var primaryKeyPosition: Int?
        /// Whether a single-column primary key is declared `PRIMARY KEY DESC`, which makes an
        /// `INTEGER` key an ordinary column rather than the rowid.
        public var isPrimaryKeyDescending: Bool
        /// Whether an `INTEGER PRIMARY KEY` is declared `AUTOINCREMENT`.
        public var isAutoIncrement: Bool
        /// Whether the column alone is unique: a single-column `UNIQUE` constraint (or a lone
        /// primary key column, which is unique too).
        public var isUnique: Bool
        /// Whether, and how, the column is generated.
        public var generation: Generation
        /// The expression of a generated column, as SQL text, when known (a declaration gives it;
        /// SQLite's pragmas do not report it).
        public var generationExpression: String?
        /// Whether the column is a hidden column of a virtual table.
        public var isHidden: Bool
        /// Whether the column is the table's rowid alias. ``TableSchema`` sets it.
        public internal(set) var isRowIDAlias: Bool

        /// Creates a column. Only the name is required; the defaults describe a nullable column
        /// without type or constraints.
        public init(
            name: String, type declaredType: String = "", isNotNull: Bool = false, primaryKeyPosition: Int? = nil,
            isPrimaryKeyDescending: Bool = false, isAutoIncrement: Bool = false, isUnique: Bool = false,
            defaultSQL: String? = nil, collation: String? = nil,
            generation: Generation = .none, generationExpression: String? = nil, isHidden: Bool = false
        ) {
            self.name = name
            self.declaredType = declaredType
            self.affinity = Affinity(declaredType: declaredType)
            self.isNotNull = isNotNull
            self.defaultSQL = defaultSQL
            self.collation = collation
            self.primaryKeyPosition = primaryKeyPosition
            self.isPrimaryKeyDescending = isPrimaryKeyDescending
            self.isAutoIncrement = isAutoIncrement
            self.isUnique = isUnique
            self.generation = generation
            self.generationExpression = generationExpression
            self.isHidden = isHidden
            self.isRowIDAlias = false
        }

        /// Whether the column can hold `NULL`: not `NOT NULL` and not the rowid alias.
        public var isNullable: Bool { !isNotNull && !isRowIDAlias }

        /// Whether the column is part of the primary key.
        public var isPrimaryKey: Bool { primaryKeyPosition != nil }

        /// Whether the column is generated, so it cannot be inserted or updated.
        public var isGenerated: Bool { generation != .none }
    }
}

// MARK: - Keys and indexes

/// What a foreign key does when the row it references is deleted or its key is updated.
public enum ForeignKeyAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing happens at once; the constraint is checked at the end of the statement (the default).
    case noAction = "NO ACTION"
    /// The change to the referenced row is refused while it is referenced.
    case restrict = "RESTRICT"
    /// The referencing columns are set to `NULL`.
    case setNull = "SET NULL"
    /// The referencing columns are set to their default values.
    case setDefault = "SET DEFAULT"
    /// The change is propagated: referencing rows are deleted or their key is updated.
    case cascade = "CASCADE"

    /// The action SQLite reports in `PRAGMA foreign_key_list`; unknown text is `NO ACTION`.
    public init(pragmaText: String) {
        self = ForeignKeyAction(rawValue: pragmaText.uppercased()) ?? .noAction
    }
}

extension TableSchema {
    /// A foreign key: columns of this table referencing columns of another.
    public struct ForeignKey: Sendable, Hashable, Codable {
        /// The referencing columns, in order.
        public var columns: [String]
        /// The referenced (parent) table.
        public var referencedTable: String
        /// The referenced columns, in the order matching ``columns``; empty for the parent's
        /// primary key (`REFERENCES parent` without columns).
        public var referencedColumns: [String]
        /// What happens when the referenced row is deleted.
        public var onDelete: ForeignKeyAction
        /// What happens when the referenced key is updated.
        public var onUpdate: ForeignKeyAction

        /// Creates a foreign key.
        public init(
            columns: [String], referencedTable: String, referencedColumns: [String] = [],
            onDelete: ForeignKeyAction = .noAction, onUpdate: ForeignKeyAction = .noAction
        ) {
            self.columns = columns
            self.referencedTable = referencedTable
            self.referencedColumns = referencedColumns
            self.onDelete = onDelete
            self.onUpdate = onUpdate
        }
    }

    /// An index made with `CREATE INDEX`.
    public struct Index: Sendable, Hashable, Codable {
        /// The index name.
        public var name: String
        /// The indexed columns, in order. An indexed expression is listed as `""`.
        public var columns: [String]
        /// Whether the index is `UNIQUE`.
        public var isUnique: Bool
        /// The `WHERE` condition of a partial index, as SQL text, when known; `nil` for a full index.
        /// (SQLite's pragmas only say that an index is partial: a read index has ``isPartial`` set
        /// and its statement in ``sql``.)
        public var condition: String?
        /// Whether the index is partial (`CREATE INDEX … WHERE …`).
        public var isPartial: Bool
        /// The `CREATE INDEX` statement as stored, for an index read from a database.
        public var sql: String?

        /// Creates an index.
        public init(name: String, columns: [String], isUnique: Bool = false, condition: String? = nil) {
            self.name = name
            self.columns = columns
            self.isUnique = isUnique
            self.condition = condition
            self.isPartial = condition != nil
            self.sql = nil
        }

        /// Whether an indexed term is an expression rather than a column.
        public var hasExpressions: Bool { columns.contains("") }
    }
}

extension String {
    /// Whether two identifiers are equal as SQLite compares them (ASCII case-insensitively).
    package func equalsIdentifier(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }

    /// The text without leading and trailing ASCII whitespace.
    package var trimmingSQLSpace: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            slice = slice.dropFirst()
        }
        while let last = slice.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            slice = slice.dropLast()
        }
        return String(slice)
    }
}
