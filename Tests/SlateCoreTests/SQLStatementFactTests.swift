import CSQLite
import Foundation
import Slate
import Testing

@testable import SlateCore

/// What Slate reads from a statement's SQL with the one lexer where SQLite does not say it on every
/// library: `EXPLAIN` (SQLCipher's SQLite 3.15.2 predates `sqlite3_stmt_isexplain`) and the
/// savepoint statements the region tracker did not see prepared.
@Suite struct SQLStatementFactTests {
    @Test func explainModesAsSQLiteReportsThem() throws {
        let db = try Database(location: .inMemory)
        for sql in [
            "SELECT 1", "EXPLAIN SELECT 1", "EXPLAIN QUERY PLAN SELECT 1", "/* c */ explain -- x\n query plan SELECT 1",
            "  EXPLAIN\tSELECT 'EXPLAIN QUERY PLAN'",
        ] {
            var handle: OpaquePointer?
            #expect(sqlite3_prepare_v2(db.handle, sql, -1, &handle, nil) == SQLITE_OK)
            defer { sqlite3_finalize(handle) }
            let statement = try #require(handle)
            let fromText = SQLLexer.explainMode(of: SQLLexer(sql))
            #expect(SQLLexer.isExplain(statement) == (fromText != 0), "\(sql)")
            if Database.sqliteVersionNumber >= 3_028_000 {
                #expect(Int(slate_stmt_isexplain(statement)) == fromText, "\(sql)")
            }
        }
    }

    @Test func savepointStatementsAreRecognized() {
        func operation(_ sql: String) -> SavepointOperation? {
            sql.withCString { SQLLexer.savepointOperation(in: $0) }
        }
        #expect(operation("SAVEPOINT One") == .begin("one"))
        #expect(operation("/* x */ savepoint \"Two Words\"") == .begin("two words"))
        #expect(operation("SAVEPOINT 'quoted'") == .begin("quoted"))
        #expect(operation("RELEASE SAVEPOINT a") == .release("a"))
        #expect(operation("RELEASE [b]") == .release("b"))
        #expect(operation("ROLLBACK TO a") == .rollback("a"))
        #expect(operation("ROLLBACK TRANSACTION TO SAVEPOINT a") == .rollback("a"))
        #expect(operation("ROLLBACK TRANSACTION t TO SAVEPOINT a") == .rollback("a"))
        #expect(operation("ROLLBACK") == nil)
        #expect(operation("ROLLBACK TRANSACTION") == nil)
        #expect(operation("SELECT 'SAVEPOINT a'") == nil)
        #expect(operation("-- SAVEPOINT a\nSELECT 1") == nil)
        #expect(operation("SAVEPOINT") == nil)
    }
}
