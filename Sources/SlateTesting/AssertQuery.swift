import Foundation
import InlineSnapshotTesting
import Slate
import SlateTestingCore

/// Asserts that a query renders the SQL that `sql` returns and that running it on `db` returns the
/// rows that `results` draws, as inline snapshots: when a closure is missing (or recording is on),
/// the test fails once and writes the actual SQL or table into the test file, at the call.
///
/// ```swift
/// @Test func bestPlayers() throws {
///     let db = try Database.seeded(with: migrator) { db in
///         try db.insert(contentsOf: [Player(name: "Ada", score: 10), Player(name: "Grace", score: 12)])
///     }
///     assertQuery(Player.where { $0.score > 5 }.order { $0.score.descending() }.select(\.name), in: db) {
///         """
///         SELECT "player"."name"
///         FROM "player"
///         WHERE "player"."score" > ?
///         ORDER BY "player"."score" DESC
///         -- arguments: 5
///         """
///     } results: {
///         """
///         ┌─────────┐
///         │ name    │
///         ├─────────┤
///         │ 'Grace' │
///         │ 'Ada'   │
///         └─────────┘
///         """
///     }
/// }
/// ```
///
/// The SQL is laid out one clause per line (``SQLLayout``), followed by its arguments; the rows are
/// drawn by ``ResultTable``, each value as an SQL literal. An error from SQLite is shown in place of
/// the table, so a query that must fail is asserted the same way. A statement that writes (an
/// `INSERT … RETURNING`) changes `db`.
///
/// Recording follows swift-snapshot-testing: `withSnapshotTesting(record: .all) { … }` or the
/// `SNAPSHOT_TESTING_RECORD` environment variable rewrite the snapshots.
public func assertQuery(
    _ query: some QueryStatement,
    in db: Database,
    sql: (() -> String)? = nil,
    results: (() -> String)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: StaticString = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    assertQuery(
        query.sql, in: db, sql: sql, results: results, fileID: fileID, filePath: filePath, function: function,
        line: line, column: column)
}

/// Asserts that `statement`, SQL text and arguments written by hand or generated from a named query
/// (`SQLQuery.sql`), is laid out as `sql` returns and that running it on `db` returns the rows that
/// `results` draws, as inline snapshots (see ``assertQuery(_:in:sql:results:fileID:filePath:function:line:column:)-(QueryStatement,_,_,_,_,_,_,_,_)``).
public func assertQuery(
    _ statement: SQL,
    in db: Database,
    sql: (() -> String)? = nil,
    results: (() -> String)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    function: StaticString = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    assertInlineSnapshot(
        of: SQLLayout.lines(statement),
        as: .lines,
        message: "The SQL differs from the snapshot",
        syntaxDescriptor: InlineSnapshotSyntaxDescriptor(trailingClosureLabel: "sql", trailingClosureOffset: 0),
        matches: sql,
        fileID: fileID, file: filePath, function: function, line: line, column: column)
    let table: String
    do {
        table = try ResultTable(statement, in: db).description
    } catch {
        // Shown in the snapshot, where a test expecting rows fails on it.
        table = "error: \(error)"
    }
    assertInlineSnapshot(
        of: table,
        as: .lines,
        message: "The results differ from the snapshot",
        syntaxDescriptor: InlineSnapshotSyntaxDescriptor(trailingClosureLabel: "results", trailingClosureOffset: 1),
        matches: results,
        fileID: fileID, file: filePath, function: function, line: line, column: column)
}

extension Snapshotting where Value == Database, Format == String {
    /// A database's ``SlateTestingCore/Database/dump()`` as a text snapshot: schema and rows, for a
    /// golden file kept beside the tests by `assertSnapshot(of: db, as: .dump)`.
    ///
    /// A failed dump is written into the snapshot as `-- the dump failed: …`, which no recorded
    /// golden file holds, so the assertion fails and shows the error.
    public static var dump: Snapshotting {
        var snapshotting = Snapshotting<String, String>.lines.pullback { (db: Database) in
            do {
                return try db.dump()
            } catch {
                return "-- the dump failed: \(error)\n"
            }
        }
        snapshotting.pathExtension = "sql"
        return snapshotting
    }
}
