import SlateConcurrency
import SlateCore

// FTS5 full-text search: `MATCH` with a bound query, `rank`, `bm25`, `highlight` and `snippet`,
// built from the same fragments as every other expression. A full-text table is a `Table` whose
// schema is `.virtual(module: "fts5", …)` and whose columns also list its `rowid`.

/// The typed columns of an FTS5 table: the table's columns plus its `rowid`, the key that joins an
/// external-content table to its content table.
///
/// ```swift
/// struct Columns: FullTextColumns {
///     let rowid: Column<PostSearch, Int64>
///     let title: Column<PostSearch, String?>
///     init(qualifier: String) {
///         rowid = Column(qualifier, "rowid")
///         title = Column(qualifier, "title")
///     }
/// }
/// PostSearch.where { $0.match("swift") }.order { $0.rank }
/// ```
public protocol FullTextColumns: TableColumns {
    /// The full-text table.
    associatedtype Root: Table
    /// The row's `rowid`: for an external-content table (`content=`), the content row's key.
    var rowid: Column<Root, Int64> { get }
}

/// An FTS5 query, bound as one parameter: never spliced into the statement.
///
/// ```swift
/// let query: FullTextQuery = "swift AND (macro OR plugin)"   // FTS5 query syntax, as written
/// FullTextQuery.phrase(userInput)                             // the words of any text, as one phrase
/// FullTextQuery.prefix("comp")                               // "comp" *
/// .all(.phrase("type"), .prefix("check"))                    // … AND …
/// ```
public struct FullTextQuery: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The query in FTS5 syntax.
    public let text: String

    /// A query in FTS5 syntax, as written: `"swift NOT objc"`, `"title : sqlite"`.
    public init(_ text: String) {
        self.text = text
    }

    /// A query in FTS5 syntax, as written.
    public init(stringLiteral text: String) {
        self.text = text
    }

    /// `text` as one FTS5 phrase: its tokens, in order. Any text is safe here — quotes are doubled,
    /// and operators (`AND`, `*`, `:` …) are searched as words, not obeyed.
    public static func phrase(_ text: String) -> FullTextQuery {
        FullTextQuery("\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
    }

    /// The rows with a token starting with `text` (a phrase followed by `*`).
    public static func prefix(_ text: String) -> FullTextQuery {
        FullTextQuery(phrase(text).text + " *")
    }

    /// The rows matching every query: `(a) AND (b)`.
    public static func all(_ queries: FullTextQuery...) -> FullTextQuery {
        FullTextQuery(queries.map { "(" + $0.text + ")" }.joined(separator: " AND "))
    }

    /// The rows matching any query: `(a) OR (b)`.
    public static func any(_ queries: FullTextQuery...) -> FullTextQuery {
        FullTextQuery(queries.map { "(" + $0.text + ")" }.joined(separator: " OR "))
    }

    /// The rows matching this query but not `other`: `(a) NOT (b)`.
    public func excluding(_ other: FullTextQuery) -> FullTextQuery {
        FullTextQuery("(" + text + ") NOT (" + other.text + ")")
    }

    /// The query text.
    public var description: String { text }
}

extension FullTextColumns {
    /// The table's hidden column, named as the table: `"alias"."table"`, what `MATCH` and the
    /// auxiliary functions take.
    var tableColumn: SQL {
        SQL(.column(qualifier: rowid.scopedQualifier, name: Root.tableName))
    }

    /// `"table" MATCH ?`: the rows matching `query` in any column.
    public func match(_ query: FullTextQuery) -> SQLExpression<Bool> {
        sqliteOnly(
            SQLExpression(
                sql: sqlConcat(tableColumn, SQL(text: " MATCH "), SQL(.binding(query.text))), precedence: .membership),
            .fullTextSearch)
    }

    /// The `rank` column: how well the row matches, lower is better (by default `bm25`). Sort by it
    /// in a query with ``match(_:)``.
    public var rank: SQLExpression<Double> {
        sqliteOnly(
            SQLExpression(sql: SQL(.column(qualifier: rowid.scopedQualifier, name: "rank")), precedence: .atomic),
            .fullTextSearch)
    }

    /// `bm25(table)`: the row's BM25 score, lower (more negative) is better.
    public func bm25() -> SQLExpression<Double> {
        sqliteOnly(functionCall("bm25", [tableColumn]), .fullTextSearch)
    }

    /// `bm25(table, w1, w2, …)`: the BM25 score with a weight per column, in column order.
    public func bm25(weights: Double...) -> SQLExpression<Double> {
        sqliteOnly(functionCall("bm25", [tableColumn] + weights.map { SQL(.binding($0)) }), .fullTextSearch)
    }

    /// `snippet(table, -1, …)`: a short fragment of the column that matches best, with the matched
    /// phrases between `open` and `close`, and `ellipsis` where text was cut.
    ///
    /// - Parameter tokens: The fragment's length in tokens (1 to 64).
    public func snippet(open: String, close: String, ellipsis: String = "…", tokens: Int = 16) -> SQLExpression<String?>
    {
        fullTextSnippet(
            tableColumn, column: SQL(text: "-1"), open: open, close: close, ellipsis: ellipsis, tokens: tokens)
    }
}

/// The snippet's length, bound; outside FTS5's 1...64 the statement fails with `misuse` instead of
/// returning a snippet of another length than asked.
private func snippetLength(_ tokens: Int) -> SQL {
    guard (1...64).contains(tokens) else {
        return SQL(
            sql: "NULL",
            failing: DatabaseError(
                resultCode: .misuse, message: "a snippet's length must be 1 to 64 tokens (FTS5's limit), not \(tokens)")
        )
    }
    return SQL(.binding(Int64(tokens)))
}

/// `snippet(table, column, ?, ?, ?, ?)`.
func fullTextSnippet(
    _ table: SQL, column: SQL, open: String, close: String, ellipsis: String, tokens: Int
) -> SQLExpression<String?> {
    sqliteOnly(
        functionCall(
            "snippet",
            [
                table, column, SQL(.binding(open)), SQL(.binding(close)), SQL(.binding(ellipsis)),
                snippetLength(tokens),
            ]), .fullTextSearch)
}

extension Column where Root.Columns: FullTextColumns, Value: TextQueryValue {
    /// `"table"."column" MATCH ?`: the rows matching `query` in this column.
    public func match(_ query: FullTextQuery) -> SQLExpression<Bool> {
        sqliteOnly(
            SQLExpression(
                sql: sqlConcat(queryFragment, SQL(text: " MATCH "), SQL(.binding(query.text))),
                precedence: .membership),
            .fullTextSearch)
    }

    /// The column's position among the table's columns, as the auxiliary functions number them.
    var fullTextIndex: SQL {
        let index = Root.schema.recordColumns.firstIndex { $0.name.equalsIdentifier(name) }
        guard let index else {
            return SQL(
                sql: "NULL",
                failing: DatabaseError(
                    resultCode: .misuse, message: "\(name) is not a column of the full-text table \(Root.tableName)"))
        }
        return SQL(text: String(index))
    }

    /// The full-text table's hidden column, `"alias"."table"`.
    var fullTextTable: SQL {
        SQL(.column(qualifier: scopedQualifier, name: Root.tableName))
    }

    /// `highlight(table, column, ?, ?)`: the column's whole text, with each matched phrase between
    /// `open` and `close`. `NULL` for a `NULL` column.
    public func highlight(open: String, close: String) -> SQLExpression<String?> {
        sqliteOnly(
            functionCall(
                "highlight",
                [
                    fullTextTable, fullTextIndex, SQL(.binding(open)), SQL(.binding(close)),
                ]), .fullTextSearch)
    }

    /// `snippet(table, column, …)`: a short fragment of this column around the matches, with the
    /// matched phrases between `open` and `close`, and `ellipsis` where text was cut.
    ///
    /// - Parameter tokens: The fragment's length in tokens (1 to 64).
    public func snippet(open: String, close: String, ellipsis: String = "…", tokens: Int = 16) -> SQLExpression<String?>
    {
        fullTextSnippet(
            fullTextTable, column: fullTextIndex, open: open, close: close, ellipsis: ellipsis, tokens: tokens)
    }
}

extension Table where Columns: FullTextColumns {
    /// The rows matching `query`, best first: `SELECT … WHERE "table" MATCH ? ORDER BY "rank"`.
    public static func matching(_ query: FullTextQuery) -> Select<Self> {
        Select().where { $0.match(query) }.order { $0.rank }
    }
}
