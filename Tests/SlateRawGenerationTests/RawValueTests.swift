import Foundation
import Testing

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

// `RawValue` is generated from Schema/raw_values.sql, with the Swift types slate.json gives its
// columns: values at the edges of those types are refused or fail to read, never stored or read as
// another value, and never trap.

/// An in-memory database with the `raw_value` table.
func rawValuesConnection() throws -> Connection {
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Schema/raw_values.sql")
    return try Connection(fixtures: [schema])
}

extension Connection {
    /// Runs `sql`, which must succeed.
    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw RawError(code: code) }
    }

    /// The first column of the first row of `sql`, as text.
    func text(_ sql: String) throws -> String? {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw RawError(code: code) }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
        return String(cString: text)
    }

    var rowCount: String? { get throws { try text("SELECT count(*) FROM raw_value") } }

    /// The only row, written with `sql` (a column list and values), as the generated code reads it.
    func read(_ columns: String, _ values: String) throws -> RawValue? {
        try execute("DELETE FROM raw_value; INSERT INTO raw_value (\(columns)) VALUES (\(values))")
        guard let records = sqlite3_raw_values_fetch(handle) else { return nil }
        #expect(records.count == 1)
        return records.first
    }
}

@Suite("Raw values at the edges of their types")
struct RawValueTests {
    @Test func aUInt64AboveInt64MaxIsRefusedNotStoredAsANegativeNumber() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        var record = RawValue(big: UInt64(Int64.max) + 1)
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_MISMATCH)
        record.big = .max
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_MISMATCH)
        #expect(try connection.rowCount == "0")
        #expect(record.id == nil)

        record.big = UInt64(Int64.max)
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_OK)
        #expect(try connection.text("SELECT big FROM raw_value") == "9223372036854775807")
        #expect(sqlite3_raw_value_find(connection.handle, try #require(record.id))?.big == UInt64(Int64.max))
        // An update is refused the same way and leaves the row as it was.
        record.big = UInt64(Int64.max) + 1
        #expect(sqlite3_raw_value_update(connection.handle, record) == SQLITE_MISMATCH)
        #expect(try connection.text("SELECT big FROM raw_value") == "9223372036854775807")
        // A negative number stored by someone else is no UInt64.
        #expect(try connection.read("big", "-1") == nil)
    }

    @Test func integersTooLargeForANarrowTypeFailInsteadOfTruncating() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        #expect(try connection.read("small", "127")?.small == 127)
        #expect(try connection.read("small", "-128")?.small == -128)
        #expect(try connection.read("small", "300") == nil)  // not 44
        #expect(try connection.read("small", "-129") == nil)  // not 127
        #expect(try connection.read("level", "255")?.level == 255)
        #expect(try connection.read("level", "256") == nil)  // not 0
        #expect(try connection.read("level", "-1") == nil)  // not 255
        // The required column: NULL is a failure, not a value.
        try connection.execute("DELETE FROM raw_value; INSERT INTO raw_value (level) VALUES (7)")
        let columns = "id, big, small, count, score, ratio, amount, label, bytes, happened_at"
        #expect(sqlite3_raw_values_fetch(connection.handle, sql: "SELECT \(columns), level FROM raw_value")?.count == 1)
        #expect(sqlite3_raw_values_fetch(connection.handle, sql: "SELECT \(columns), NULL FROM raw_value") == nil)
    }

    @Test func valuesThatAreNotNumbersAreNotZero() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        #expect(try connection.read("count", "'abc'") == nil)
        #expect(try connection.read("count", "x'01'") == nil)
        #expect(try connection.read("score", "'abc'") == nil)
        #expect(try connection.read("score", "x'01'") == nil)
        // As Slate reads them (issue 19): numeric text, whole REALs; a fractional REAL is not truncated.
        #expect(try connection.read("count", "' 42 '")?.count == 42)
        #expect(try connection.read("count", "-2.0")?.count == -2)
        #expect(try connection.read("count", "-2.9") == nil)
        #expect(try connection.read("score", "'2.5'")?.score == 2.5)
        #expect(try connection.read("score", "7")?.score == 7)
        // Text is not read from a BLOB, which need not be UTF-8.
        #expect(try connection.read("label", "x'FF00'") == nil)
        #expect(try connection.read("label", "12")?.label == "12")
        #expect(try connection.read("bytes", "12") == nil)
        #expect(try connection.read("bytes", "'ab'")?.bytes == Data("ab".utf8))
    }

    @Test func anOptionalColumnThatCannotBeReadFailsTheRowRatherThanBecomingNil() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        #expect(try connection.read("small", "1000") == nil)
        #expect(try connection.read("happened_at", "'yesterday'") == nil)
        #expect(try connection.read("happened_at", "'2023-02-30'") == nil)
        #expect(try connection.read("amount", "'12abc'") == nil)
        #expect(try connection.read("ratio", "x'00'") == nil)
        // NULL is nil.
        let empty = try #require(try connection.read("label", "NULL"))
        #expect(empty.small == nil && empty.happenedAt == nil && empty.amount == nil && empty.label == nil)
    }

    @Test func aFloatTooLargeForFloatFailsInsteadOfBecomingInfinite() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        #expect(try connection.read("ratio", "1.5")?.ratio == 1.5)
        #expect(try connection.read("ratio", "1e300") == nil)
        #expect(try connection.read("ratio", "-1e300") == nil)
        #expect(try connection.read("ratio", "9e999")?.ratio == .infinity)  // infinite already
        // A value a Float would round fails the row, like Slate's own Float read.
        #expect(try connection.read("ratio", "0.1") == nil)
        #expect(try connection.read("ratio", "16777217") == nil)
        #expect(try connection.read("ratio", "16777216")?.ratio == 16_777_216)
    }

    @Test func decimalsAreReadByTheirDecimalDigits() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        let posix = Locale(identifier: "en_US_POSIX")
        // A REAL by its shortest form, not the binary fraction 0.1000000000000000055…
        #expect(try connection.read("amount", "CAST(0.1 AS REAL)")?.amount == Decimal(string: "0.1", locale: posix))
        #expect(
            try connection.read("amount", "CAST(1e-7 AS REAL)")?.amount == Decimal(string: "0.0000001", locale: posix))
        #expect(
            try connection.read("amount", "9223372036854775807")?.amount
                == Decimal(string: "9223372036854775807", locale: posix))
        #expect(try connection.read("amount", "' 12.50 '")?.amount == Decimal(string: "12.5", locale: posix))
        // Beyond Decimal's range, infinite, or not only a number: no value, no trap.
        #expect(try connection.read("amount", "1e300") == nil)
        #expect(try connection.read("amount", "9e999") == nil)
        #expect(try connection.read("amount", "'12abc'") == nil)
        #expect(try connection.read("amount", "'1-2'") == nil)
        #expect(try connection.read("amount", "'NaN'") == nil)
        #expect(try connection.read("amount", "'0x10'") == nil)

        try connection.execute("DELETE FROM raw_value")
        var record = RawValue(amount: Decimal(string: "12345678901234567890.125", locale: posix))
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_OK)
        #expect(sqlite3_raw_value_find(connection.handle, try #require(record.id))?.amount == record.amount)
        // NaN is refused: it would not read back.
        var notANumber = RawValue(amount: .nan)
        #expect(sqlite3_raw_value_insert(connection.handle, &notANumber) == SQLITE_MISMATCH)
        #expect(try connection.rowCount == "1")
    }

    @Test func textAndBytesBeyondSQLitesLengthLimitAreRefusedWithoutATrap() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        // The binders take 64-bit lengths, so the limit, not an Int32 conversion, decides. (A real
        // 2 GiB string is more memory than a test should take; SQLite's limit is set lower.)
        sqlite3_limit(connection.handle, SQLITE_LIMIT_LENGTH, 100)
        var record = RawValue(label: String(repeating: "x", count: 101))
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_TOOBIG)
        record = RawValue(bytes: Data(count: 101))
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_TOOBIG)
        #expect(try connection.rowCount == "0")
        record = RawValue(label: String(repeating: "é", count: 20), bytes: Data(count: 40))
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_OK)
        sqlite3_limit(connection.handle, SQLITE_LIMIT_LENGTH, 1_000_000)
        #expect(sqlite3_raw_value_find(connection.handle, try #require(record.id)) == record)
    }

    @Test func datesTheISOStorageCannotHoldAreRefusedNotStoredAsNull() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        for seconds in [Double.infinity, -.infinity, .nan, 253_402_300_800, -62_167_219_200.001, 1e300] {
            var record = RawValue(happenedAt: Date(timeIntervalSince1970: seconds))
            #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_MISMATCH, "\(seconds)")
        }
        #expect(try connection.rowCount == "0")
        var record = RawValue(happenedAt: Date(timeIntervalSince1970: -62_167_219_200))
        #expect(sqlite3_raw_value_insert(connection.handle, &record) == SQLITE_OK)
        #expect(try connection.text("SELECT happened_at FROM raw_value") == "0000-01-01 00:00:00")
        #expect(sqlite3_raw_value_find(connection.handle, try #require(record.id)) == record)
    }

    @Test func aForeignKeyBetweenADateAndTextBindsEachValueByItsOwnType() throws {
        let connection = try rawValuesConnection()
        defer { connection.close() }
        var label = RawLabel(name: "2023-01-01 12:34:56.789")
        #expect(sqlite3_raw_label_insert(connection.handle, &label) == SQLITE_OK)
        var mark = RawMark(labelAt: Date(timeIntervalSince1970: 1_672_576_496.789))
        #expect(sqlite3_raw_mark_insert(connection.handle, &mark) == SQLITE_OK)
        var other = RawMark(labelAt: Date(timeIntervalSince1970: 0))
        #expect(sqlite3_raw_mark_insert(connection.handle, &other) == SQLITE_OK)
        #expect(sqlite3_raw_marks_fetch(connection.handle, for: label)?.map(\.id) == [mark.id])
        #expect(mark.fetchLabelAt(in: connection.handle) == label)
        #expect(other.fetchLabelAt(in: connection.handle) == nil)
    }

    @Test func aQueryWithTheWrongNumberOfColumnsFailsRatherThanFillingInNil() throws {
        let connection = try Connection(path: RawFiles.chinook.path, readOnly: true)
        defer { connection.close() }
        let db = connection.handle
        #expect(sqlite3_genres_fetch(db, sql: #"SELECT "GenreId", "Name" FROM "Genre""#)?.count == 25)
        // `name` is optional: with too few columns it used to be nil in every record.
        #expect(sqlite3_genres_fetch(db, sql: #"SELECT "GenreId" FROM "Genre""#) == nil)
        #expect(sqlite3_genres_fetch(db, sql: #"SELECT "GenreId", "Name", 1 FROM "Genre""#) == nil)
        // A record with dates: the query is wrapped, and its order kept.
        let youngestFirst = try #require(
            sqlite3_employees_fetch(db, sql: #"SELECT * FROM "Employee" ORDER BY "BirthDate" DESC"#))
        #expect(youngestFirst.count == 8)
        #expect(
            youngestFirst.map(\.birthDate)
                == youngestFirst.map(\.birthDate).sorted { ($0 ?? .distantPast) > ($1 ?? .distantPast) })
        #expect(youngestFirst.first?.birthDate != youngestFirst.last?.birthDate)
        #expect(sqlite3_employees_fetch(db, sql: #"SELECT "EmployeeId" FROM "Employee""#) == nil)
    }
}
