import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateRecords

@Suite("CSV export and round trip") struct CSVRoundTripTests {
    /// The options that read an export back: `NULL` is an empty unquoted field.
    static let readBack = CSVImportOptions(emptyFieldsAreNull: true)

    /// Every value of `table` with its storage class, in rowid order.
    private func contents(of table: String, in db: Database) throws -> [[SQLValue]] {
        try db.fetchAll(SQL(sql: "SELECT * FROM \(table.quotedIdentifier) ORDER BY rowid")) { $0.values }
    }

    /// Exports every table of a sample database, imports each file into an empty copy of its
    /// table, and compares every value, storage class included.
    private func roundTripEveryTable(of database: String, options: CSVExportOptions = CSVExportOptions()) throws -> Int
    {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        let source = try Database(path: Fixtures.path(database), configuration: configuration)
        let copy = try Database.memory { $0.foreignKeysEnabled = false }
        let tables = try source.fetchAll(
            String.self,
            sql: "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var values = 0
        for table in tables {
            let create = try source.fetchValue(
                String.self, sql: "SELECT sql FROM sqlite_schema WHERE name = ?", arguments: [table])
            try copy.execute(sql: create)
            let url = scratch.url("\(table).csv")
            let exported = try source.exportCSV(table: table, to: url, options: options)
            var importOptions = Self.readBack
            importOptions.delimiter = options.delimiter
            importOptions.hasHeaderRow = options.includesHeaderRow
            let imported = try copy.importCSV(from: url, into: table, options: importOptions)
            let original = try contents(of: table, in: source)
            #expect(
                exported.rowCount == original.count && imported.rowsImported == original.count, "\(database) \(table)")
            let roundTripped = try contents(of: table, in: copy)
            #expect(roundTripped == original, "\(database) \(table)")
            values += original.reduce(0) { $0 + $1.count }
        }
        return values
    }

    @Test func everyChinookTableRoundTripsValueForValue() throws {
        #expect(try roundTripEveryTable(of: "chinook.sqlite") > 50_000)
    }

    @Test func everyNorthwindTableRoundTripsIncludingBlobs() throws {
        #expect(try roundTripEveryTable(of: "northwind.sqlite") > 5_000)
        #expect(
            try roundTripEveryTable(of: "northwind.sqlite", options: CSVExportOptions(delimiter: ";", lineEnding: .lf))
                > 5_000)
        #expect(
            try roundTripEveryTable(
                of: "chinook.sqlite", options: CSVExportOptions(delimiter: "\t", includesHeaderRow: false)) > 50_000)
    }

    private static let edgeSchema = "CREATE TABLE edge(i INTEGER, r REAL, t TEXT, b BLOB, u, n NUMERIC)"

    private func edgeDatabase() throws -> Database {
        let db = try Database.memory()
        try db.execute(sql: Self.edgeSchema)
        let insert = try db.prepare(sql: "INSERT INTO edge VALUES (?, ?, ?, ?, ?, ?)")
        let rows: [[SQLValue]] = [
            [nil, nil, nil, nil, nil, nil],
            [0, 0.0, "", .blob(Data()), "", ""],
            [.integer(.min), 0.1, "a,b", .blob(Data([0, 0xFF, 0x10])), 5, 1.5],
            [.integer(.max), 1e300, "he said \"hi\"", .blob(Data((0..<256).map { UInt8($0) })), "5", "x"],
            [-1, 1e-7, "line 1\r\nline 2\rline 3\n", nil, 1.5, 12],
            [42, .real(.infinity), "007", nil, "X'00'", ""],
            [7, -2.5e-300, " spaced ", nil, .blob(Data([1, 2])), "1e3"],
            [8, 100000.0, "123", nil, "héllo 日本 🎉", "-0"],
            [9, 123456789.123, "\"", nil, "\"quoted\"", "NULL"],
        ]
        for row in rows {
            for (index, value) in row.enumerated() { try insert.bindValue(value, at: index + 1) }
            try insert.run()
            try insert.reset()
        }
        return db
    }

    @Test func nullEmptyTextNumbersTextThatLooksLikeNumbersAndBlobsRoundTrip() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let source = try edgeDatabase()
        let original = try contents(of: "edge", in: source)
        for options in [
            CSVExportOptions(), CSVExportOptions(delimiter: ";", lineEnding: .lf), CSVExportOptions(delimiter: "|"),
        ] {
            let url = scratch.url("edge.csv")
            try source.exportCSV(table: "edge", to: url, options: options)
            let copy = try Database.memory()
            try copy.execute(sql: Self.edgeSchema)
            var importOptions = Self.readBack
            importOptions.delimiter = options.delimiter
            for chunkSize in csvChunkSizes {
                try copy.execute(sql: "DELETE FROM edge")
                try copy.importCSV(from: url, into: "edge", options: importOptions, chunkSize: chunkSize)
                #expect(try contents(of: "edge", in: copy) == original, "\(options), chunk size \(chunkSize)")
            }
        }
    }

    @Test func theExportIsRFC4180WithNullsAndEmptyTextApart() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE t("id" INTEGER, "the name" TEXT, note TEXT, data BLOB, price REAL);
                INSERT INTO t VALUES (1, 'Ann', NULL, x'CAFE', 9.5), (2, 'Bob, Jr.', '', NULL, 10.0), (3, 'say "hi"', 'two
                lines', NULL, 0.1), (4, '42', 'x', x'', NULL);
                """)
        let url = scratch.url("out.csv")
        let result = try db.exportCSV(table: "t", to: url)
        let text = try String(contentsOf: url, encoding: .utf8)
        let expected = [
            "id,the name,note,data,price",
            "1,Ann,,X'CAFE',9.5",
            "2,\"Bob, Jr.\",\"\",,10.0",
            "3,\"say \"\"hi\"\"\",\"two\nlines\",,0.1",
            "4,\"42\",x,X'',",
        ].map { $0 + "\r\n" }.joined()
        #expect(text == expected)
        #expect(result.rowCount == 4 && result.byteCount == text.utf8.count)

        try db.exportCSV(
            sql: "SELECT id FROM t WHERE id > ?", arguments: [2], to: url,
            options: CSVExportOptions(includesHeaderRow: false, lineEnding: .lf))
        #expect(try String(contentsOf: url, encoding: .utf8) == "3\n4\n")
        let minimum = 3
        try db.exportCSV(
            "SELECT \"the name\" FROM t WHERE id >= \(minimum) ORDER BY id DESC", to: url,
            options: CSVExportOptions(delimiter: ";"))
        #expect(try String(contentsOf: url, encoding: .utf8) == "the name\r\n\"42\"\r\n\"say \"\"hi\"\"\"\r\n")
    }

    @Test func aFailedExportLeavesNoPartialFileAndTheOldFileUnchanged() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), ('x')")
        let url = try scratch.file("out.csv", "previous contents")
        let error = #expect(throws: CSVError.self) {
            try db.exportCSV(sql: "SELECT nosuchcolumn FROM t", to: url)
        }
        #expect(error?.databaseError?.message.contains("no such column") == true)
        // A failure half-way through the rows (a function that fails on the third row).
        try db.createFunction("fail_on_text", argumentCount: 1) { arguments in
            if case .text = arguments.value(at: 0) { throw DatabaseError(resultCode: .error, message: "text!") }
            return 1
        }
        let midway = #expect(throws: CSVError.self) {
            try db.exportCSV(sql: "SELECT fail_on_text(a) FROM t", to: url)
        }
        #expect(midway?.databaseError?.message.contains("text!") == true)
        #expect(midway?.line == 4)
        #expect(try String(contentsOf: url, encoding: .utf8) == "previous contents")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.directory.url.path) == ["out.csv"])

        let missingDirectory = #expect(throws: CSVError.self) {
            try db.exportCSV(table: "t", to: URL(fileURLWithPath: "/nonexistent/dir/out.csv"))
        }
        guard case .fileError(let message)? = missingDirectory?.reason else {
            Issue.record("expected a file error, got \(String(describing: missingDirectory))")
            return
        }
        #expect(message.contains("cannot create"))
    }

    @Test func typedExportAndImportRoundTrip() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.createTable(for: Person.self)
        let people = [
            Person(name: "Ann, the first", age: 30, email: "ann@example.com", score: 1.5),
            Person(name: "Bob \"B\"", age: 0, email: nil, score: -2),
        ]
        _ = try db.insert(contentsOf: people)
        let url = scratch.url("people.csv")
        try db.exportCSV(Person.self, to: url)
        #expect(
            try String(contentsOf: url, encoding: .utf8).hasPrefix(
                "id,name,age,email,score\r\n1,\"Ann, the first\",30,"))
        let copy = try Database.memory()
        try copy.importCSV(from: url, into: Person.self, options: Self.readBack)
        #expect(try Person.all().fetchAll(copy) == Person.all().fetchAll(db))
    }
}
