import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateRecords

@Suite("CSV import") struct CSVImportTests {
    // MARK: Existing tables

    @Test func headersMatchColumnsCaseInsensitivelyInAnyOrder() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(
            sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER DEFAULT 18, note TEXT)")
        let result = try db.importCSV(from: scratch.file("NAME, Id\nAnn,10\nBob,11\n"), into: "t")
        #expect(try db.csvRows() == [[10, "Ann", 18, nil], [11, "Bob", 18, nil]])
        #expect(!result.createdTable && result.rowsImported == 2)
        #expect(
            result.columns == [
                CSVImportResult.Column(name: "name", declaredType: "TEXT"),
                CSVImportResult.Column(name: "id", declaredType: "INTEGER"),
            ])
    }

    /// The importer reads the columns of the table its `INSERT` writes to: a `TEMP` table that
    /// shadows a main one, and a table only an attached database has.
    @Test func theTableIsFoundAsTheInsertFindsIt() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE t(in_main TEXT);
                CREATE TEMP TABLE t(id INTEGER, name TEXT);
                ATTACH DATABASE ':memory:' AS other;
                CREATE TABLE other.elsewhere(code TEXT);
                """)
        let result = try db.importCSV(from: scratch.file("name,id\nAnn,1\n"), into: "t")
        #expect(!result.createdTable && result.rowsImported == 1)
        #expect(try db.csvRows("t") == [[1, "Ann"]])
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM main.t") == 0)
        try db.importCSV(from: scratch.file("code\nx\n"), into: "elsewhere")
        #expect(try db.csvRows("elsewhere") == [["x"]])
    }

    @Test func withoutHeaderOrByPositionFieldsFillColumnsInOrder() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, b TEXT, c REAL DEFAULT 0.5)")
        var options = CSVImportOptions()
        options.hasHeaderRow = false
        try db.importCSV(from: scratch.file("1,x\n2,y\n"), into: "t", options: options)
        options.hasHeaderRow = true
        options.columnMatching = .byPosition
        try db.importCSV(from: scratch.file("whatever,names\n3,z\n"), into: "t", options: options)
        #expect(try db.csvRows() == [[1, "x", 0.5], [2, "y", 0.5], [3, "z", 0.5]])

        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("1,2,3,4\n"), into: "t", options: options)
        }
        #expect(error?.reason == .tooManyColumns(fields: 4, tableColumns: 3))
        #expect(try db.csvRows().count == 3)
    }

    @Test func anUnknownHeaderIsAnErrorListingTheTablesColumns() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'kept')")
        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("a,bee\n2,x\n"), into: "t")
        }
        #expect(error?.reason == .unknownColumn("bee"))
        #expect(error?.line == 1 && error?.column == 2)
        #expect(error?.description.contains("the table's columns: a, b") == true)
        #expect(try db.csvRows() == [[1, "kept"]])

        let duplicate = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("a,A\n2,3\n"), into: "t")
        }
        #expect(duplicate?.reason == .duplicateColumn("a"))
    }

    @Test func valuesAreStoredAsTheColumnsAffinitiesSay() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(i INTEGER, r REAL, n NUMERIC, s TEXT, v VARCHAR(10), u, b BLOB)")
        try db.importCSV(
            from: scratch.file(
                "i,r,n,s,v,u,b\n01234,3,1.50,007,1e3,5,X'00ff'\n12,2.5,x,1.5,abc,\"5\",\"X'00'\"\nabc, 7 ,,,,X'',1.5\n"),
            into: "t")
        let typed = try db.fetchAll(
            SQL(
                sql:
                    """
                    SELECT typeof(i), typeof(r), typeof(n), typeof(s), typeof(v), typeof(u), typeof(b)
                    FROM t
                    ORDER BY rowid
                    """
            )
        ) {
            $0.values
        }
        let expectedRows: [[SQLValue]] = [
            [1234, 3.0, 1.5, "007", "1e3", 5, .blob(Data([0x00, 0xFF]))],
            [12, 2.5, "x", "1.5", "abc", "5", "X'00'"],
            ["abc", 7.0, "", "", "", .blob(Data()), 1.5],
        ]
        let storedRows: [[SQLValue]] = try db.csvRows()
        #expect(storedRows == expectedRows)
        let expectedTypes: [[SQLValue]] = [
            ["integer", "real", "real", "text", "text", "integer", "blob"],
            ["integer", "real", "text", "text", "text", "text", "text"],
            ["text", "real", "text", "text", "text", "blob", "real"],
        ]
        #expect(typed == expectedTypes)
    }

    @Test func generatedColumnsAreLeftToTheDatabase() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER, twice INTEGER GENERATED ALWAYS AS (a * 2))")
        try db.importCSV(from: scratch.file("a,twice\n1,999\n2,\n"), into: "t")
        #expect(try db.csvRows() == [[1, 2], [2, 4]])
    }

    @Test func aMissingTableIsAnErrorWhenCreationIsOff() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        var options = CSVImportOptions()
        options.createsMissingTable = false
        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("a\n1\n"), into: "t", options: options)
        }
        #expect(error?.reason == .tableNotFound)
        #expect(try !db.csvTableExists())
    }

    // MARK: All or nothing

    @Test func aConstraintFailureRollsEverythingBackAndNamesLineColumnAndRow() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(
            sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO t VALUES (1, 'before')")
        var options = CSVImportOptions()
        options.emptyFieldsAreNull = true
        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("id,name\n2,Ann\n3,Bob\n4,\n5,Dan\n"), into: "t", options: options)
        }
        #expect(error?.databaseError?.extendedResultCode == .constraintNotNull)
        #expect(error?.databaseError?.sql == #"INSERT INTO "t" ("id", "name") VALUES (?, ?)"#)
        #expect(error?.line == 4)
        #expect(error?.column == 2 && error?.columnName == "name")
        #expect(error?.row == "4,")
        #expect(
            error?.description.hasSuffix(
                "data.csv:4: column 2 (\"name\"): SQLite error 1299: NOT NULL constraint failed: t.name — while executing `INSERT INTO \"t\" (\"id\", \"name\") VALUES (?, ?)`; row: 4,"
            ) == true)
        #expect(try db.csvRows() == [[1, "before"]], "nothing imported, the old row intact")
        #expect(!db.isInTransaction)

        let duplicate = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("id,name\n7,x\n1,y\n"), into: "t")
        }
        #expect(duplicate?.databaseError?.resultCode == .constraint)
        #expect(duplicate?.line == 3)
        #expect(try db.csvRows() == [[1, "before"]])
    }

    @Test func aFailureDropsTheTableTheImportCreated() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database(path: scratch.directory.path("app.sqlite"))
        #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("a,b\n1,2\n3\n"), into: "t")
        }
        #expect(try !db.csvTableExists())
        // A second connection sees no table either: nothing was committed.
        let other = try Database(path: scratch.directory.path("app.sqlite"))
        #expect(try !other.csvTableExists())
    }

    @Test func insideATransactionTheImportIsASavepoint() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER NOT NULL)")
        try db.transaction {
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.importCSV(from: scratch.file("a\n2\n3\n"), into: "t")
            #expect(throws: CSVError.self) {
                try db.importCSV(
                    from: scratch.file("bad.csv", "a\n4\n\n"), into: "t",
                    options: CSVImportOptions(emptyFieldsAreNull: true))
            }
            #expect(db.isInTransaction, "the failed import rolled back its savepoint only")
            try db.execute(sql: "INSERT INTO t VALUES (5)")
        }
        #expect(try db.csvRows() == [[1], [2], [3], [5]])
    }

    @Test func batchesCommitAsTheyGoAndAFailureKeepsThem() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a INTEGER CHECK (a < 8))")
        var options = CSVImportOptions()
        options.rowsPerTransaction = 3
        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("a\n1\n2\n3\n4\n5\n6\n7\n8\n9\n"), into: "t", options: options)
        }
        #expect(error?.committedRows == 6)
        #expect(error?.line == 9)
        #expect(error?.description.contains("6 rows were committed") == true)
        #expect(try db.csvRows() == [[1], [2], [3], [4], [5], [6]])
        options.rowsPerTransaction = 0
        let invalid = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("a\n1\n"), into: "t", options: options)
        }
        #expect(invalid?.reason == .invalidOptions("rowsPerTransaction must be at least 1, not 0"))
    }

    @Test func rowsInsertedManyAtATimeStillReportTheExactFailingRow() throws {
        // 500 rows: multi-row INSERTs of 50 rows; row 321 breaks UNIQUE, row 402 is ragged.
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        var text = "id,code\n"
        for row in 1...500 {
            text += row == 402 ? "402\n" : "\(row),\(row == 321 ? "code-7" : "code-\(row)")\n"
        }
        let url = try scratch.file(text)
        for chunkSize in csvChunkSizes {
            let db = try Database.memory()
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, code TEXT UNIQUE)")
            let error = #expect(throws: CSVError.self) {
                try db.importCSV(from: url, into: "t", options: CSVImportOptions(), chunkSize: chunkSize)
            }
            #expect(error?.line == 322 && error?.column == 2, "chunk size \(chunkSize)")
            #expect(error?.row == "321,code-7")
            #expect(error?.databaseError?.extendedResultCode == .constraintUnique)
            #expect(try db.csvRows().isEmpty)

            var options = CSVImportOptions()
            options.badRows = .skip
            let result = try db.importCSV(from: url, into: "t", options: options, chunkSize: chunkSize)
            #expect(result.rowsImported == 498)
            #expect(result.skippedRows.map(\.line) == [322, 403], "in file order, chunk size \(chunkSize)")
            let ids = try db.fetchAll(Int.self, sql: "SELECT id FROM t ORDER BY rowid")
            let expectedIDs: [Int] = Array(1...500).filter { $0 != 321 && $0 != 402 }
            #expect(ids == expectedIDs)
        }
    }

    // MARK: Skipping bad rows

    @Test func badRowsAreSkippedAndReportedWhenAsked() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL, n INTEGER CHECK (n >= 0))")
        var options = CSVImportOptions()
        options.badRows = .skip
        options.emptyFieldsAreNull = true
        let bytes =
            Array("id,name,n\n1,Ann,1\n2,Bob\n3,,3\n4,\"Cy\"x,4\n5,D".utf8) + [0xFF]
            + Array(",5\n1,Dup,6\n7,Eve,-7\n8,Fay,8\n".utf8)
        let result = try db.importCSV(from: scratch.file(bytes: bytes), into: "t", options: options)
        #expect(try db.csvRows() == [[1, "Ann", 1], [8, "Fay", 8]])
        #expect(result.rowsImported == 2)
        #expect(result.skippedRowCount == 6)
        #expect(result.skippedRows.map(\.line) == [3, 4, 5, 6, 7, 8])
        #expect(result.skippedRows.map(\.column) == [nil, 2, 2, 2, 1, 3])
        let reasons = result.skippedRows.map(\.reason)
        #expect(reasons[0] == "the row has 2 fields, expected 3")
        #expect(reasons[1].contains("NOT NULL constraint failed: t.name"))
        #expect(reasons[2].contains("closing quote"))
        #expect(reasons[3].contains("invalid UTF-8"))
        #expect(reasons[4].contains("UNIQUE constraint failed") || reasons[4].contains("PRIMARY KEY"))
        #expect(reasons[5].contains("CHECK constraint failed"))
        #expect(result.skippedRows[0].row == "2,Bob")
    }

    @Test func theSkippedRowListIsCappedButTheCountIsExact() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        var options = CSVImportOptions()
        options.badRows = .skip
        options.maximumReportedSkippedRows = 3
        let text = "a,b\n" + (0..<50).map { "\($0)\n" }.joined() + "1,2\n"
        let result = try db.importCSV(from: scratch.file(text), into: "t", options: options)
        #expect(result.skippedRowCount == 50)
        #expect(result.skippedRows.count == 3)
        #expect(result.rowsImported == 1)
    }

    // MARK: Progress and cancellation

    /// `rows` rows of three columns, about 40 bytes each.
    private func largeFile(_ scratch: CSVScratch, rows: Int, name: String = "large.csv") throws -> URL {
        var text = "id,name,price\n"
        text.reserveCapacity(rows * 40)
        for row in 0..<rows { text += "\(row),\"name \(row), with a comma\",\(row % 1000).25\n" }
        return try scratch.file(name, text)
    }

    @Test func progressReportsBytesAndRowsChunkByChunk() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let url = try largeFile(scratch, rows: 20_000)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
        let db = try Database.memory()
        var reports: [CSVImportProgress] = []
        let result = try db.importCSV(from: url, into: "t", options: CSVImportOptions(), chunkSize: 64 * 1024) {
            progress in
            reports.append(progress)
            return .continue
        }
        #expect(result.rowsImported == 20_000)
        #expect(reports.count > 5, "one report per 64 KiB chunk")
        #expect(
            zip(reports, reports.dropFirst()).allSatisfy {
                $0.bytesRead <= $1.bytesRead && $0.rowsImported <= $1.rowsImported
            })
        #expect(reports.last?.bytesRead == size && reports.last?.totalBytes == size)
        #expect(reports.last?.rowsImported == 20_000)
        #expect(reports.last?.fractionCompleted == 1)
        #expect(result.bytesRead == size)
    }

    @Test func cancellingFromTheProgressHandlerRollsBack() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let url = try largeFile(scratch, rows: 20_000)
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER, name TEXT, price REAL); INSERT INTO t VALUES (-1, 'old', 0)")
        var calls = 0
        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: url, into: "t", options: CSVImportOptions(), chunkSize: 64 * 1024) { progress in
                calls += 1
                return progress.rowsImported > 5_000 ? .cancel : .continue
            }
        }
        #expect(error?.reason == .cancelled)
        #expect(error?.description.contains("rolled back") == true)
        #expect(calls > 2)
        #expect(try db.csvRows() == [[-1, "old", 0.0]])
        #expect(!db.isInTransaction)
    }

    @Test func cancellingTheTaskRollsBack() async throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let url = try largeFile(scratch, rows: 20_000)
        let path = scratch.directory.path("app.sqlite")
        let task = Task { () throws -> Int in
            let db = try Database(path: path)
            withUnsafeCurrentTask { $0?.cancel() }
            return try db.importCSV(from: url, into: "t").rowsImported
        }
        let result = await task.result
        guard case .failure(let error as CSVError) = result else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(error.reason == .cancelled)
        #expect(try !Database(path: path).csvTableExists())
    }

    // MARK: Memory

    @Test func theReadersBufferDoesNotGrowWithTheFile() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        for rows in [1_000, 100_000] {
            let url = try largeFile(scratch, rows: rows, name: "rows-\(rows).csv")
            let reader = CSVReader(
                input: try CSVInput(url: url, encoding: .automatic), delimiter: UInt8(ascii: ","),
                maximumRecordLength: 1 << 20, chunkSize: 64 * 1024)
            var records = 0
            while try reader.nextRecord() { records += 1 }
            #expect(records == rows + 1)
            #expect(reader.capacity == 64 * 1024, "\(rows) rows (\(reader.input.bytesRead) bytes) fit the same buffer")
            #expect(reader.input.bytesRead > (rows > 1_000 ? 64 * 1024 * 50 : 0))
        }
    }

    @Test func theBufferGrowsOnlyForARecordLongerThanIt() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let long = String(repeating: "x\"\"y,\n", count: 50_000)  // 300 KB in one quoted field
        let url = try scratch.file("a,b\n1,\"\(long)\"\n2,short\n")
        let reader = CSVReader(
            input: try CSVInput(url: url, encoding: .automatic), delimiter: UInt8(ascii: ","),
            maximumRecordLength: 1 << 20,
            chunkSize: 64 * 1024)
        #expect(try reader.nextRecord() && reader.nextRecord())
        #expect(reader.string(ofField: 1) == long.replacingOccurrences(of: "\"\"", with: "\""))
        #expect(try reader.nextRecord() && reader.string(ofField: 1) == "short")
        #expect(reader.line == 50_003)
        #expect(reader.capacity >= 300_000 && reader.capacity <= 4 * 300_000, "bounded by the longest record")
    }

    // MARK: Table types

    @Test func typedImportCreatesTheTableFromTheDeclarationAndMatchesHeaders() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        let result = try db.importCSV(
            from: scratch.file("name,age,email\nAnn,30,ann@example.com\nBob,,\n"), into: Person.self,
            options: CSVImportOptions(emptyFieldsAreNull: true, badRows: .skip))
        #expect(result.createdTable)
        #expect(result.rowsImported == 1, "Bob's NULL age breaks NOT NULL")
        #expect(result.skippedRows.first?.column == 2)
        let people = try Person.all().fetchAll(db)
        #expect(people == [Person(id: 1, name: "Ann", age: 30, email: "ann@example.com", score: 0)])
        #expect(
            try db.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'person_on_name'") == 1)

        let error = #expect(throws: CSVError.self) {
            try db.importCSV(from: scratch.file("name,nickname\nCy,C\n"), into: Person.self)
        }
        #expect(error?.reason == .unknownColumn("nickname"))
    }

    @Test func typedImportWithoutHeaderFollowsTheTypesColumnOrder() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        // The table exists with another column order than the type's.
        try db.execute(
            sql: """
                CREATE TABLE person(
                  score REAL NOT NULL DEFAULT 0, email TEXT, age INTEGER NOT NULL DEFAULT 0, name TEXT NOT NULL,
                  id INTEGER PRIMARY KEY
                )
                """
        )
        var options = CSVImportOptions()
        options.hasHeaderRow = false
        try db.importCSV(from: scratch.file("7,Ann,41,a@x,1.5\n"), into: Person.self, options: options)
        #expect(try Person.all().fetchAll(db) == [Person(id: 7, name: "Ann", age: 41, email: "a@x", score: 1.5)])
    }
}
