/// The constructs of the query builder that dialects write differently: the vocabulary of the
/// dialect seam. The builder says which construct it means; each dialect's rendering file
/// (`SQLiteRendering`, `PostgreSQLRendering`) writes it, or refuses it, before anything runs.
///
/// Everything else — text, bound values, identifiers, tables, columns and parentheses — every
/// dialect writes with the same code (`SQLWriter`), parenthesizing operands by its own precedence.
/// A new dialect is one file that conforms to ``SQLDialectRendering``.
@usableFromInline
package indirect enum SQLConstruct: Sendable {
    // MARK: Clauses

    /// ` LIMIT n OFFSET m`, with either part absent. A negative limit is no limit and a negative
    /// offset is none, as on SQLite.
    case limit(Int?, offset: Int?)
    /// A term of an `ORDER BY`: the expression, its direction (`nil` when written without one,
    /// which is ascending) and where NULLs go (`nil`: first when ascending, last when descending,
    /// as on SQLite); `nullable`: whether the expression can be NULL.
    case ordering(SQL, descending: Bool?, nullsFirst: Bool?, nullable: Bool)
    /// A term of the `ORDER BY` of a compound select, which names a result column (its columns are
    /// the first member's).
    case compoundOrdering(SQL)
    /// The selection of a statement whose rows are only counted or tested for existence, never
    /// read.
    case rowsOnlySelection(SQL)
    /// `(subquery)` in a `FROM` clause, with the alias a dialect may require.
    case derivedTable(SQL, alias: String)

    // MARK: Writes

    /// `INSERT OR <resolution> INTO ` or `UPDATE OR <resolution> `. `selecting`: the insert takes
    /// its rows from a `SELECT`.
    case conflictResolution(SQLWriteVerb, resolution: String, selecting: Bool)
    /// What ends an `INSERT OR IGNORE` (nothing on SQLite); `withUpsert`: it has an
    /// `ON CONFLICT` clause of its own as well.
    case ignoredConflicts(withUpsert: Bool)
    /// ` ON CONFLICT ("a", …)`, the conflict target of an upsert; `updating`: it is followed by
    /// `DO UPDATE`.
    case conflictTarget([String], updating: Bool)

    // MARK: Operators

    /// ` IN ()` or ` NOT IN ()`: membership in an empty list.
    case emptyList(negated: Bool)
    /// ` IS ` or ` IS NOT `: equality where `NULL` equals `NULL`.
    case nullSafeEquality(negated: Bool)
    /// ` LIKE ?` or ` NOT LIKE ?`, with an escape character.
    case like(pattern: String, negated: Bool, escape: Character?)
    /// ` GLOB ?`.
    case glob(pattern: String)
    /// A case-sensitive match of a literal text at the start, the end or anywhere in the operand.
    case literalMatch(String, SQLTextPosition)
    /// ` COLLATE "name"`.
    case collate(String)
    /// How UUIDs stored as text compare, without regard to letter case: ` COLLATE NOCASE` on
    /// SQLite; nothing where UUIDs are values (PostgreSQL's `uuid`).
    case uuidTextCollation
    /// `lhs / rhs`, or `lhs % rhs` for the `remainder`: `NULL` when `rhs` is zero, as on SQLite.
    case division(SQLOperand, SQLOperand, remainder: Bool)

    // MARK: Functions

    /// An aggregate function call, over a group or a window.
    case aggregate(SQLAggregate)
    /// `round(x, places)`, as a `Double`. Negative places round to a whole number, as on SQLite.
    case round(SQL, places: Int)
    /// `CAST(x AS type)`, from a value of the kind given, to SQLite's type `type`.
    case cast(SQL, to: String, from: SQLValueKind)
    /// `substr(x, start[, length])`.
    case substring(SQL, start: Int, length: Int?)
    /// `instr(x, ?)`: the position of the text in `x`, from 1, or 0.
    case position(of: String, in: SQL)
    /// A bound integer that a function takes as a 32-bit integer on some dialects (`ntile`,
    /// `lag`, `nth_value`).
    case integerArgument(Int)
    /// SQL of one of SQLite's own features: other dialects refuse it.
    case sqliteOnly(SQL, SQLiteOnlyFeature)

    /// The SQL held in the construct, for walking a statement.
    package var parts: [SQL] {
        switch self {
        case .limit, .conflictResolution, .ignoredConflicts, .conflictTarget, .emptyList, .nullSafeEquality, .like,
            .glob, .literalMatch, .collate, .uuidTextCollation, .integerArgument:
            return []
        case .ordering(let sql, _, _, _), .compoundOrdering(let sql), .rowsOnlySelection(let sql),
            .derivedTable(let sql, _), .round(let sql, _),
            .cast(let sql, _, _), .substring(let sql, _, _), .position(_, let sql), .sqliteOnly(let sql, _):
            return [sql]
        case .division(let lhs, let rhs, _):
            return [lhs.sql, rhs.sql]
        case .aggregate(let aggregate):
            return aggregate.arguments + (aggregate.window.map { [$0] } ?? [])
        }
    }
}

/// The verb of a statement that writes rows.
@usableFromInline
package enum SQLWriteVerb: String, Sendable {
    case insert = "INSERT"
    case update = "UPDATE"
}

/// Where a literal text is matched.
@usableFromInline
package enum SQLTextPosition: Sendable {
    case prefix, suffix, anywhere
}

/// What a value's Swift type says about it, for casts.
@usableFromInline
package enum SQLValueKind: Sendable {
    case integer, real, text, other
}

/// An aggregate function call: `name([DISTINCT] arguments)`, and `OVER (…)` for a window.
@usableFromInline
package struct SQLAggregate: Sendable {
    /// The aggregate functions of the builder.
    package enum Function: String, Sendable {
        /// `count(x)`, or `count(*)` without argument.
        case count
        case min, max, sum
        /// `total(x)`: the sum as a `Double`, 0.0 for no row.
        case total
        /// `avg(x)`, as a `Double`.
        case avg
        /// `group_concat(x[, separator])`.
        case groupConcat = "group_concat"
    }

    package var function: Function
    package var arguments: [SQL]
    package var distinct: Bool
    /// The separator of ``Function/groupConcat``; `nil` for the default, `","`.
    package var separator: String?
    /// `(PARTITION BY … ORDER BY … frame)`, for a call over a window.
    package var window: SQL?

    package init(
        _ function: Function, _ arguments: [SQL], distinct: Bool = false, separator: String? = nil, window: SQL? = nil
    ) {
        self.function = function
        self.arguments = arguments
        self.distinct = distinct
        self.separator = separator
        self.window = window
    }
}

/// SQLite's own features, which other dialects refuse (each says why in its rendering file).
@usableFromInline
package enum SQLiteOnlyFeature: Sendable {
    /// FTS5: `MATCH`, `rank`, `bm25`, `highlight`, `snippet`.
    case fullTextSearch
    /// `x ->> 'path'`.
    case jsonPathValue
    /// `json_extract(x, 'path')`.
    case jsonExtract
    /// `json_array_length(x)`.
    case jsonArrayLength
    /// `json_each(x)` as a table.
    case jsonEach
    /// `json_group_array(x)`.
    case jsonGroupArray
    /// `json_group_array(json(x))` of JSON values.
    case jsonGroupArrayOfJSON
    /// `json_object(…)`.
    case jsonObject
    /// `date`, `time`, `datetime`, `julianday`, `unixepoch`, `strftime`.
    case dateFunctions
    /// `substr` with a negative start or length.
    case substringFromEnd
}
