import Foundation

/// A labelled statement of a `.sql` file, prepared by SQLite against the schema and described:
/// what `slate generate` turns into a typed Swift function.
///
/// ```sql
/// -- name: tracksOfAlbum
/// -- The tracks of one album, in track order.
/// SELECT TrackId, Name, Composer FROM Track WHERE AlbumId = :albumId ORDER BY TrackId;
/// ```
///
/// Read them with ``SchemaLoader/loadSchemaAndQueries(from:)``. Everything here comes from SQLite
/// where SQLite says it: the result columns, their declared types and the table columns they come
/// from (`sqlite3_column_decltype`, `sqlite3_column_table_name`, `sqlite3_column_origin_name`),
/// whether those allow `NULL` (`sqlite3_table_column_metadata`), the parameters
/// (`sqlite3_bind_parameter_name`) and whether the statement writes (`sqlite3_stmt_readonly`).
/// What SQLite does not say — whether an expression or a column on the right of a `LEFT JOIN` can
/// be `NULL`, the type of an expression or of a parameter — follows rules that never guess
/// "not `NULL`": see ``ResultColumn/isNullable``.
public struct NamedQuery: Sendable, Hashable, Codable {
    /// The label's name: `tracksOfAlbum`.
    public var name: String
    /// The `.sql` file.
    public var file: String
    /// The line of the label.
    public var line: Int
    /// The comment lines between the label and the statement.
    public var documentation: [String]
    /// The statement as SQLite runs it: parameter annotations (`:id AS INTEGER`) removed.
    public var sql: String
    /// The named parameters, in SQLite's order (`sqlite3_bind_parameter_index`).
    public var parameters: [Parameter]
    /// The result columns; empty for a statement that returns no rows.
    public var columns: [ResultColumn]
    /// Whether the statement only reads (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool
    /// For an `INSERT`, `UPDATE` or `DELETE` with `RETURNING`: the statement before `RETURNING` and
    /// the expression of each result column, so a generator can read them otherwise (the raw style
    /// converts dates this way). `nil` for other statements.
    public var returning: ReturningClause?

    /// Creates a description.
    public init(
        name: String, file: String, line: Int, documentation: [String] = [], sql: String, parameters: [Parameter] = [],
        columns: [ResultColumn] = [], isReadOnly: Bool = true, returning: ReturningClause? = nil
    ) {
        self.returning = returning
        self.name = name
        self.file = file
        self.line = line
        self.documentation = documentation
        self.sql = sql
        self.parameters = parameters
        self.columns = columns
        self.isReadOnly = isReadOnly
    }

    /// The `RETURNING` clause of a write, taken apart.
    public struct ReturningClause: Sendable, Hashable, Codable {
        /// Where the keyword `RETURNING` starts in ``NamedQuery/sql`` (a UTF-8 offset).
        public var keywordOffset: Int
        /// The expression of each result column, without its alias; `*` is written out as the
        /// table's quoted column names.
        public var expressions: [String]
        /// Where each expression is in ``NamedQuery/sql`` (UTF-8 ranges); `nil` for a column `*`
        /// stands for.
        public var expressionRanges: [Range<Int>?]

        /// Creates a description.
        public init(keywordOffset: Int, expressions: [String], expressionRanges: [Range<Int>?]) {
            self.keywordOffset = keywordOffset
            self.expressions = expressions
            self.expressionRanges = expressionRanges
        }
    }

    /// Whether the statement returns rows (a `SELECT`, or a write with `RETURNING`).
    public var returnsRows: Bool { !columns.isEmpty }

    /// A named parameter: `:albumId`.
    public struct Parameter: Sendable, Hashable, Codable {
        /// The name without its prefix: `albumId`.
        public var name: String
        /// The name as written, prefix included: `:albumId`.
        public var sqlName: String
        /// The SQL type the value has: the declared type of the column it is compared with or
        /// assigned to, or the type of its annotation.
        public var declaredType: String
        /// The table (or view) of that column, when the type comes from one.
        public var table: String?
        /// That column.
        public var column: String?
        /// Whether `NULL` is a meaningful value: the parameter is assigned to a column that
        /// accepts `NULL`, compared with `IS`, or annotated with `?`.
        public var isOptional: Bool
        /// Where the type comes from, for documentation: `compared with Track.AlbumId`.
        public var origin: String
        /// Where the parameter appears in ``NamedQuery/sql``: UTF-8 byte ranges, in order.
        public var ranges: [Range<Int>]

        /// Creates a parameter description.
        public init(
            name: String, sqlName: String, declaredType: String, table: String? = nil, column: String? = nil,
            isOptional: Bool = false, origin: String = "", ranges: [Range<Int>] = []
        ) {
            self.ranges = ranges
            self.name = name
            self.sqlName = sqlName
            self.declaredType = declaredType
            self.table = table
            self.column = column
            self.isOptional = isOptional
            self.origin = origin
        }
    }

    /// A result column.
    public struct ResultColumn: Sendable, Hashable, Codable {
        /// The column name without a nullability suffix: `total` for `AS "total!"`.
        public var name: String
        /// The name SQLite gives the column (`sqlite3_column_name`).
        public var sqlName: String
        /// The declared type: SQLite's (`sqlite3_column_decltype`) for a column taken from a
        /// table, else inferred from the expression (`count(*)` is `INTEGER`); `nil` when unknown.
        public var declaredType: String?
        /// Whether ``declaredType`` was inferred rather than reported by SQLite.
        public var isInferredType: Bool
        /// The table the value comes from, when SQLite reports one (`sqlite3_column_table_name`).
        public var table: String?
        /// The table column the value comes from (`sqlite3_column_origin_name`).
        public var column: String?
        /// Whether the value can be `NULL`. A column is non-`NULL` only when that is proven: a
        /// `NOT NULL` (or rowid, or `WITHOUT ROWID` key) column not on the null side of an outer
        /// join nor read bare from an aggregate over possibly no row; a literal; `count`,
        /// `total`; `coalesce` with a non-`NULL` argument; `CASE` with `ELSE` and non-`NULL`
        /// branches; arithmetic, comparisons and `||` of non-`NULL` operands; or an override.
        public var isNullable: Bool
        /// The override written as a suffix of the column's alias: `!` (never `NULL`) or `?`
        /// (may be `NULL`), or `nil`.
        public var nullabilityOverride: NullabilityOverride?

        /// Creates a result column description.
        public init(
            name: String, sqlName: String? = nil, declaredType: String? = nil, isInferredType: Bool = false,
            table: String? = nil, column: String? = nil, isNullable: Bool = true,
            nullabilityOverride: NullabilityOverride? = nil
        ) {
            self.name = name
            self.sqlName = sqlName ?? name
            self.declaredType = declaredType
            self.isInferredType = isInferredType
            self.table = table
            self.column = column
            self.isNullable = isNullable
            self.nullabilityOverride = nullabilityOverride
        }
    }

    /// A nullability override: a `!` or `?` suffix on a result column's alias.
    public enum NullabilityOverride: String, Sendable, Hashable, Codable {
        /// `AS "name!"`: the value is never `NULL`. Reading a `NULL` anyway throws.
        case nonNull = "!"
        /// `AS "name?"`: the value may be `NULL`.
        case nullable = "?"
    }
}

/// A schema and the named queries of its `.sql` files.
public struct SchemaAndQueries: Sendable, Hashable {
    /// The schema.
    public var schema: DatabaseSchema
    /// The named queries, in file order, then statement order.
    public var queries: [NamedQuery]
    /// What was accepted with a warning: schema statements and views that use double-quoted string
    /// literals, as the `sqlite3` shell accepts them.
    public var warnings: [SchemaWarning]

    /// Creates a value.
    public init(schema: DatabaseSchema, queries: [NamedQuery] = [], warnings: [SchemaWarning] = []) {
        self.schema = schema
        self.queries = queries
        self.warnings = warnings
    }
}
