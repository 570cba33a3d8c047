import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateRecords

/// A row that breaks a constraint names the column from what SQLite knows of the table (its
/// pragmas and its schema), not from the error message: names with spaces or punctuation, a key
/// of several columns, several keys, a table's check, and the rows in between stay exact.
@Suite("CSV import: the column of a broken constraint") struct CSVConstraintColumnTests {
    static func skipped(_ sql: String, _ csv: String, emptyFieldsAreNull: Bool = true) throws -> [CSVSkippedRow] {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: sql)
        var options = CSVImportOptions()
        options.badRows = .skip
        options.emptyFieldsAreNull = emptyFieldsAreNull
        return try db.importCSV(from: scratch.file(csv), into: "t", options: options).skippedRows
    }

    @Test func namesWithSpacesAndPunctuation() throws {
        let rows = try Self.skipped(
            #"""
            CREATE TABLE t("first name" TEXT NOT NULL, "e-mail.address" TEXT UNIQUE,
              "x.y" INTEGER CHECK ("x.y" > 0))
            """#,
            "first name,e-mail.address,x.y\nAnn,a@x,1\n,b@x,2\nBob,a@x,3\nCy,c@x,-3\n")
        #expect(rows.map(\.line) == [3, 4, 5])
        #expect(rows.map(\.column) == [1, 2, 3])
    }

    @Test func theKeyARowAlreadyHoldsAmongSeveral() throws {
        // Two UNIQUE keys, one of two columns: the column is the first of the key that is broken.
        let rows = try Self.skipped(
            "CREATE TABLE t(id INTEGER PRIMARY KEY, code TEXT UNIQUE, a TEXT, b INTEGER, UNIQUE (b, a))",
            "id,code,a,b\n1,c1,x,1\n2,c2,x,1\n3,c1,y,2\n1,c4,z,3\n")
        #expect(rows.map(\.line) == [3, 4, 5])
        #expect(rows.map(\.column) == [4, 2, 1], "b of (b, a); code; the rowid key")
    }

    @Test func aCheckOfTheTableOnOneColumnAndChecksOnSeveral() throws {
        let one = try Self.skipped("CREATE TABLE t(a INTEGER, b INTEGER, CHECK (b < 10))", "a,b\n1,2\n3,40\n")
        #expect(one.map(\.column) == [2])
        // Checks on two columns: which one failed is not told by SQLite, so no column is named.
        let two = try Self.skipped(
            "CREATE TABLE t(a INTEGER CHECK (a < 10), b INTEGER CHECK (b < 10))", "a,b\n1,2\n30,4\n")
        #expect(two.map(\.line) == [3])
        #expect(two.map(\.column) == [nil])
        #expect(two.first?.reason.contains("CHECK constraint failed") == true)
    }

    @Test func theFirstNotNullColumnInTheTablesOrder() throws {
        // `c` is empty (NULL) and NOT NULL, but `b`, before it and not in the file, fails first:
        // it is no field of the file.
        let before = try Self.skipped("CREATE TABLE t(a TEXT, b TEXT NOT NULL, c TEXT NOT NULL)", "a,c\nx,\n")
        #expect(before.map(\.column) == [nil])
        #expect(before.first?.reason.contains("t.b") == true)
        // With a default, `b` is no NULL: `c` is the one.
        let after = try Self.skipped(
            "CREATE TABLE t(a TEXT, b TEXT NOT NULL DEFAULT 'b', c TEXT NOT NULL)", "a,c\nx,\n")
        #expect(after.map(\.column) == [2])
        #expect(after.first?.reason.contains("t.c") == true)
    }
}
