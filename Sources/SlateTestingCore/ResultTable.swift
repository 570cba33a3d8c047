import Foundation
import Slate

/// The rows a statement returned, drawn as a table of text: what `assertQuery` shows beside the
/// SQL, and what a test can compare.
///
/// ```swift
/// let table = try ResultTable(Player.order(by: \.name).select { ($0.name, $0.score) }.sql, in: db)
/// print(table)
/// // ┌─────────┬───────┐
/// // │ name    │ score │
/// // ├─────────┼───────┤
/// // │ 'Ada'   │ 10    │
/// // │ 'Grace' │ 12    │
/// // └─────────┴───────┘
/// ```
///
/// Each value is written as an SQL literal (``SQLLiteral``): `NULL`, `42`, `2.5`, `'text'`,
/// `X'0A1B'`, so `'42'` (text) and `42` (an integer) never look alike.
public struct ResultTable: Sendable, Hashable, CustomStringConvertible {
    /// The names of the result columns.
    public var columnNames: [String]
    /// The rows, each with one value per column.
    public var rows: [[SQLValue]]

    /// A table of the given columns and rows.
    public init(columnNames: [String], rows: [[SQLValue]]) {
        self.columnNames = columnNames
        self.rows = rows
    }

    /// Runs `sql` on `db` and keeps every row it returns. A statement that changes the database
    /// (an `INSERT`, with or without `RETURNING`) changes it.
    ///
    /// - Throws: ``DatabaseError`` when the statement fails.
    public init(_ sql: SQL, in db: Database) throws {
        // The names from a statement prepared apart, so that a statement returning no rows still
        // has its header; the rows from running it once.
        columnNames = try db.prepare(sql).columnNames
        rows = try db.fetchAll(sql) { row in row.values }
    }

    /// The table drawn with box-drawing characters: a header with the column names, then one line
    /// per row. A statement without result columns (an `UPDATE`) draws as `(no result columns)`;
    /// a query without rows draws its header alone.
    public var description: String {
        guard !columnNames.isEmpty else { return "(no result columns)" }
        let cells = rows.map { $0.map { SQLLiteral($0).text } }
        var widths = columnNames.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ left: String, _ fill: String, _ middle: String, _ right: String) -> String {
            left + widths.map { String(repeating: fill, count: $0 + 2) }.joined(separator: middle) + right
        }
        func row(_ values: [String]) -> String {
            "│"
                + widths.indices.map { index in
                    let value = index < values.count ? values[index] : ""
                    return " " + value + String(repeating: " ", count: widths[index] - value.count) + " "
                }.joined(separator: "│") + "│"
        }
        var lines = [line("┌", "─", "┬", "┐"), row(columnNames)]
        if !cells.isEmpty {
            lines.append(line("├", "─", "┼", "┤"))
            lines += cells.map(row)
        }
        lines.append(line("└", "─", "┴", "┘"))
        return lines.joined(separator: "\n")
    }
}

/// A value written as an SQL literal, the way dumps and result tables show it: `NULL`, `42`,
/// `2.5`, `'it''s'`, `X'0A1B'`.
///
/// Reals use Swift's shortest text that reads back as the same `Double` (`0.1`, `1e-05`), and
/// keep a decimal point or an exponent so they never look like integers. A line break or a tab
/// inside text is written as `\n` or `\t`, so that every value stays on one line (SQL itself has
/// no such escape: the text of a dump's `INSERT` holds such characters only this way).
public struct SQLLiteral: Sendable, Hashable, CustomStringConvertible {
    /// The literal's text.
    public var text: String

    /// The literal for `value`.
    public init(_ value: SQLValue) {
        switch value {
        case .null:
            text = "NULL"
        case .integer(let integer):
            text = String(integer)
        case .real(let real):
            if real.isNaN {
                text = "NULL"  // SQLite stores NaN as NULL; a read never returns it
            } else if real.isInfinite {
                text = real > 0 ? "9e999" : "-9e999"  // what SQLite's own quote() writes
            } else {
                let shortest = "\(real)"
                text = shortest.contains(where: { $0 == "." || $0 == "e" }) ? shortest : shortest + ".0"
            }
        case .text(let string):
            var escaped = "'"
            for character in string {
                switch character {
                case "'": escaped += "''"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                default: escaped.append(character)
                }
            }
            text = escaped + "'"
        case .blob(let data):
            text = "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    public var description: String { text }
}
