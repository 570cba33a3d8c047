import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateCore

/// How Slate names SQL features newer than the SQLite library in use. The library's version is
/// passed in, so these run against any SQLite; EncryptionTests checks the same on SQLCipher 3.4.1
/// (SQLite 3.15.2) for real.
@Suite struct SQLiteFeatureTests {
    private func features(_ sql: String, error: String = "") -> [SQLiteFeature] {
        SQLiteFeature.features(in: sql, errorMessage: error)
    }

    @Test func recognizesNewerSyntax() {
        #expect(features("INSERT INTO t(a) VALUES (1) RETURNING id") == [.returning])
        #expect(features("INSERT INTO t(a) VALUES (1) ON CONFLICT(a) DO UPDATE SET a = excluded.a") == [.upsert])
        #expect(features("INSERT INTO t(a) VALUES (1) ON CONFLICT DO NOTHING") == [.upsert])
        #expect(features("SELECT a, rank() OVER (ORDER BY a) FROM t") == [.windowFunctions])
        #expect(features("SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY a)").contains(.windowFunctions))
        #expect(features("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT) STRICT") == [.strictTables])
        #expect(
            features("CREATE TABLE t(a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) STORED)") == [.generatedColumns])
        #expect(features("CREATE TABLE t(a INTEGER, b INTEGER AS (a * 2))") == [.generatedColumns])
        #expect(features("ALTER TABLE t DROP COLUMN b") == [.dropColumn])
        #expect(features("ALTER TABLE t RENAME COLUMN a TO b") == [.renameColumn])
        #expect(features("SELECT name FROM sqlite_schema") == [.sqliteSchema])
        #expect(features(#"SELECT name FROM "main"."sqlite_schema""#) == [.sqliteSchema])
        #expect(features("SELECT name FROM pragma_table_xinfo('t')") == [.tableXInfo, .tableValuedPragmas])
        #expect(features("SELECT name FROM pragma_table_info('t')") == [.tableValuedPragmas])
        #expect(features("PRAGMA main.table_list") == [.tableList])
        #expect(features("VACUUM INTO 'copy.sqlite'") == [.vacuumInto])
        #expect(features("UPDATE t SET a = u.a FROM u WHERE u.id = t.id") == [.updateFrom])
        #expect(features("SELECT a FROM t ORDER BY a NULLS LAST") == [.nullsOrdering])
        #expect(features("SELECT count(*) FILTER (WHERE a > 1) FROM t") == [.aggregateFilter])
        #expect(features("SELECT data ->> '$.name' FROM t") == [.jsonOperators])
        #expect(features("SELECT a IS NOT DISTINCT FROM b FROM t") == [.isDistinctFrom])
        #expect(features("WITH c AS MATERIALIZED (SELECT 1) SELECT * FROM c") == [.materializedCTE])
        #expect(features("SELECT iif(a, 1, 2) FROM t") == [.iif])
        #expect(features("SELECT x FROM t", error: "no such function: json_extract") == [.json])
        #expect(features("SELECT value FROM json_each('[1]')", error: "no such table: json_each") == [.json])
        #expect(features("SELECT x FROM t", error: "no such function: row_number") == [.windowFunctions])
    }

    @Test func olderSyntaxStringsAndCommentsAreNotMistakenForFeatures() {
        #expect(features("CREATE TABLE t(a UNIQUE ON CONFLICT REPLACE)").isEmpty, "conflict clauses are not UPSERT")
        #expect(features("INSERT OR REPLACE INTO t(a) VALUES ('RETURNING')").isEmpty, "a string is not a keyword")
        #expect(features("SELECT a FROM t -- RETURNING\n/* OVER (x) */").isEmpty, "comments are skipped")
        #expect(features(#"CREATE TABLE t("strict" TEXT)"#).isEmpty, "a quoted column name is not STRICT")
        #expect(features("CREATE TABLE t(a TEXT, strict INTEGER)").isEmpty, "STRICT counts after the column list only")
        #expect(features("CREATE TABLE copy AS SELECT * FROM t").isEmpty)
        #expect(features("SELECT CAST(a AS INTEGER) FROM t").isEmpty)
        #expect(features("ALTER TABLE t RENAME TO u").isEmpty, "renaming a table is old")
        #expect(features("ALTER TABLE t ADD COLUMN c TEXT").isEmpty)
        #expect(features("SELECT name FROM sqlite_master").isEmpty)
        #expect(
            features("UPDATE t SET a = (SELECT b FROM u WHERE u.id = t.id)").isEmpty,
            "a subquery's FROM is not UPDATE FROM")
        #expect(features("SELECT a - > b FROM t").isEmpty)
    }

    @Test func errorsOnOlderLibrariesNameTheFeatureAndBothVersions() throws {
        let original = DatabaseError(
            resultCode: .error, message: #"near "RETURNING": syntax error"#,
            sql: "INSERT INTO t(a) VALUES (1) RETURNING id")
        let old = original.explainingUnavailableFeature(libraryVersion: 3_015_002)
        #expect(old.resultCode == .error)
        #expect(old.sql == original.sql)
        #expect(
            old.message.hasPrefix("RETURNING clause needs SQLite 3.35.0 or later, but this library is SQLite 3.15.2"))
        #expect(old.message.hasSuffix(#"(SQLite said: near "RETURNING": syntax error)"#))

        // A library with the feature, or another kind of error, keeps SQLite's message.
        #expect(original.explainingUnavailableFeature(libraryVersion: 3_035_000) == original)
        var constraint = original
        constraint.extendedResultCode = .constraint
        #expect(constraint.explainingUnavailableFeature(libraryVersion: 3_015_002) == constraint)
        let plain = DatabaseError(resultCode: .error, message: "no such table: nope", sql: "SELECT * FROM nope")
        #expect(plain.explainingUnavailableFeature(libraryVersion: 3_015_002) == plain)

        // Only the features the library lacks are named.
        let upsert = DatabaseError(
            resultCode: .error, message: #"near "DO": syntax error"#,
            sql: "INSERT INTO t(a) VALUES (1) ON CONFLICT(a) DO UPDATE SET a = 2 RETURNING a")
        #expect(
            upsert.explainingUnavailableFeature(libraryVersion: 3_030_000).message.hasPrefix(
                "RETURNING clause needs SQLite 3.35.0"))
        #expect(upsert.explainingUnavailableFeature(libraryVersion: 3_020_000).message.hasPrefix("UPSERT"))
    }

    @Test func pragmasOlderLibrariesIgnoreAreRefused() throws {
        let error = try #require(
            SQLiteFeature.unavailablePragmaError(in: "PRAGMA table_list", libraryVersion: 3_036_000))
        #expect(error.resultCode == .error)
        #expect(
            error.message.contains("PRAGMA table_list needs SQLite 3.37.0 or later, but this library is SQLite 3.36.0"))
        #expect(SQLiteFeature.unavailablePragmaError(in: "PRAGMA table_xinfo(t)", libraryVersion: 3_025_000) != nil)
        #expect(SQLiteFeature.unavailablePragmaError(in: "PRAGMA table_xinfo(t)", libraryVersion: 3_026_000) == nil)
        #expect(SQLiteFeature.unavailablePragmaError(in: "PRAGMA table_info(t)", libraryVersion: 3_015_002) == nil)
        #expect(SQLiteFeature.unavailablePragmaError(in: "SELECT 1", libraryVersion: 3_015_002) == nil)
    }

    @Test func theLibraryInUseIsCheckedAtRunTime() throws {
        #expect(Database.sqliteVersionNumber >= 3_015_000)
        #expect(SQLiteFeature.versionString(Database.sqliteVersionNumber) == Database.sqliteVersion)
        #expect(SQLiteFeature.returning.minimumVersion == "3.35.0")
        #expect("\(SQLiteFeature.strictTables)" == "STRICT tables (SQLite 3.37.0)")

        // Whatever the library, a feature it has works and one it lacks fails with the clear error.
        let db = try Database(location: .inMemory)
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT)")
        let error = capturedDatabaseError {
            try db.fetchAll(Int.self, sql: "INSERT INTO t(a) VALUES ('x') RETURNING id")
        }
        if SQLiteFeature.returning.isAvailable {
            #expect(error == nil)
        } else {
            #expect(error?.message.contains("RETURNING clause needs SQLite 3.35.0") == true)
        }
    }
}
