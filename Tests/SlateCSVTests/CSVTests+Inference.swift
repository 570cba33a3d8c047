import Foundation
import Slate
import Testing

@testable import SlateRecords

@Suite("CSV type inference") struct CSVInferenceTests {
    private func classify(_ text: String) -> CSVValue {
        var bytes = Array(text.utf8)
        bytes.append(0)  // keep a valid pointer for the empty string
        return bytes.withUnsafeBufferPointer { CSVNumberParser.classify($0.baseAddress!, text.utf8.count) }
    }

    private func kind(_ text: String) -> String {
        switch classify(text) {
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        }
    }

    @Test func integersAreCanonicalDecimalsThatFitInt64() {
        for text in ["0", "1", "42", "-7", "9223372036854775807", "-9223372036854775808"] {
            #expect(kind(text) == "integer", "\(text)")
        }
        guard case .integer(let minimum) = classify("-9223372036854775808"),
            case .integer(let maximum) = classify("9223372036854775807")
        else { return }
        #expect(minimum == .min && maximum == .max)
        for text in [
            "007", "00", "-0", "+1", " 1", "1 ", "1_000", "1,000", "0x10", "9223372036854775808",
            "-9223372036854775809",
            "99999999999999999999999", "", "-", "1-", "١٢",
        ] {
            #expect(kind(text) == "text", "\(text.debugDescription) keeps its exact text")
        }
    }

    @Test func realsHaveAFractionOrAnExponent() {
        let cases: [(String, Double)] = [
            ("1.5", 1.5), ("-0.25", -0.25), ("0.1", 0.1), ("1e5", 1e5), ("2.5E-3", 2.5e-3), ("1e+16", 1e16), ("0.0", 0),
            ("-0.0", -0.0), ("123456789012345.678", 123456789012345.678), ("1e999", .infinity), ("-1e999", -.infinity),
            ("4.9406564584124654e-324", .leastNonzeroMagnitude), ("1.7976931348623157e308", 1.7976931348623157e308),
        ]
        for (text, value) in cases {
            guard case .real(let parsed) = classify(text) else {
                Issue.record("\(text) is not a real")
                continue
            }
            #expect(parsed == value && parsed.sign == value.sign, "\(text)")
        }
        for text in [
            ".5", "5.", "01.5", "1.5.", "1e", "1e+", "nan", "inf", "Infinity", "1,5", "1.5 ", "0x1p3", "1.e5", "--1.5",
        ] {
            #expect(kind(text) == "text", "\(text.debugDescription)")
        }
    }

    @Test func realsAreCorrectlyRounded() {
        // The exact fast path and the fallback both agree with the standard library's parser.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...19, using: &generator)
            var mantissa = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { mantissa += String(Int.random(in: 0...9, using: &generator)) }
            let point = Int.random(in: 0..<mantissa.count, using: &generator)
            var text = mantissa
            if point > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -40...40, using: &generator))" }
            if !text.contains(".") && !text.contains("e") { text += ".5" }
            guard case .real(let parsed) = classify(text) else {
                Issue.record("\(text) is not a real")
                continue
            }
            #expect(parsed == Double(text), "\(text)")
        }
    }

    private func inferred(_ text: String, sampleSize: Int? = 10_000) throws -> (columns: [String], rows: [[SQLValue]]) {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        var options = CSVImportOptions()
        options.inferenceSampleSize = sampleSize
        options.emptyFieldsAreNull = true
        try db.importCSV(from: scratch.file(text), into: "t", options: options)
        return (try db.csvColumns(), try db.csvRows())
    }

    @Test func columnTypesFollowTheValues() throws {
        let (columns, rows) = try inferred(
            "id,price,zip,name,mixed,empty,big\n1,1.5,01234,Ann,1,,9223372036854775807\n2,2,90210,Bob,2.5,,1\n3,-3e2,00501,Cy,3,,-5\n"
        )
        #expect(
            columns == ["id INTEGER", "price REAL", "zip TEXT", "name TEXT", "mixed REAL", "empty TEXT", "big INTEGER"])
        let expectedRows: [[SQLValue]] = [
            [.integer(1), .real(1.5), .text("01234"), .text("Ann"), .real(1.0), .null, .integer(.max)],
            [.integer(2), .real(2.0), .text("90210"), .text("Bob"), .real(2.5), .null, .integer(1)],
            [.integer(3), .real(-300.0), .text("00501"), .text("Cy"), .real(3.0), .null, .integer(-5)],
        ]
        #expect(rows == expectedRows)
    }

    @Test func leadingZerosSignsAndSpacesKeepAColumnText() throws {
        for value in ["007", "00", "-0", "+1", " 1", "0x10", "1 000"] {
            let (columns, rows) = try inferred("a\n1\n\"\(value)\"\n3\n")
            #expect(columns == ["a TEXT"], "\(value.debugDescription)")
            let expected: [[SQLValue]] = [[.text("1")], [.text(value)], [.text("3")]]
            #expect(rows == expected, "\(value.debugDescription) is stored as written")
        }
    }

    @Test func integersBeyondInt64StayTextAndSoDoTheirColumns() throws {
        let (columns, rows) = try inferred("card,n\n12345678901234567890,1\n1,2\n")
        #expect(columns == ["card TEXT", "n INTEGER"])
        let expectedRows: [[SQLValue]] = [["12345678901234567890", 1], ["1", 2]]
        #expect(rows == expectedRows)
    }

    @Test func integersThatARealCannotHoldExactlyKeepAMixedColumnText() throws {
        // 2^53 + 1 is exact as an integer but not as a REAL: a REAL column would change it.
        let (columns, rows) = try inferred("a,b\n9007199254740993,9007199254740993\n0.5,7\n")
        #expect(columns == ["a TEXT", "b INTEGER"])
        let expectedRows: [[SQLValue]] = [["9007199254740993", 9_007_199_254_740_993], ["0.5", 7]]
        #expect(rows == expectedRows)
    }

    @Test func namesAreMadeSafeAndUnique() throws {
        let (columns, _) = try inferred("  id ,,Name,name,NAME,\"we\"\"ird\",\"tab\there\",x\n1,2,3,4,5,6,7,8\n")
        #expect(
            columns == [
                "id INTEGER", "column_2 INTEGER", "Name INTEGER", "name_2 INTEGER", "NAME_3 INTEGER", "we\"ird INTEGER",
                "tab_here INTEGER", "x INTEGER",
            ])
        let safeNames: [String] = CSVColumnNaming.safeNames(from: ["a", "a_2", "a", "A"])
        #expect(safeNames == ["a", "a_2", "a_3", "A_4"])
        let longName: [String] = CSVColumnNaming.safeNames(from: [String(repeating: "é", count: 300)])
        let longNameLength: Int = longName.first?.count ?? 0
        #expect(longNameLength == 128)
    }

    @Test func oddTableNamesAreQuotedNotSpliced() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        let name = "my \"table\"; DROP TABLE x; --"
        try db.importCSV(from: scratch.file("a\n1\n"), into: name)
        #expect(try db.csvRows(name) == [[1]])
        #expect(try db.csvTableExists(name))
    }

    @Test func aLaterNonNumericValueIsStoredAsText() throws {
        // "1.0e" looks numeric at first, but SQLite keeps it as text too: the check reads it back.
        let (columns, rows) = try inferred("a\n1\n2\nN/A\n4\n-\nabc\n1.0e\n", sampleSize: 2)
        #expect(columns == ["a INTEGER"])
        let expectedRows: [[SQLValue]] = [
            [.integer(1)], [.integer(2)], [.text("N/A")], [.integer(4)], [.text("-")], [.text("abc")], [.text("1.0e")],
        ]
        #expect(rows == expectedRows, "values SQLite keeps as text are stored unchanged")
    }

    @Test func aLaterValueThatWouldChangeFailsTheImport() throws {
        var options = CSVImportOptions()
        options.inferenceSampleSize = 2
        for value in ["007", "+5", " 8", "0012"] {
            let error = try importError("a\n1\n2\n3\n\(value)\n5\n", options: options)
            #expect(error?.reason == .typeConflict(value: value, inferredType: "INTEGER"), "\(value.debugDescription)")
            #expect(error?.line == 5 && error?.column == 1 && error?.columnName == "a")
            #expect(error?.description.contains("inferenceSampleSize") == true)
        }
        // A later real in an INTEGER column keeps its value: SQLite stores it as REAL.
        let (_, rows) = try inferred("a\n1\n2\n2.5\n", sampleSize: 2)
        let expectedRows: [[SQLValue]] = [[1], [2], [2.5]]
        #expect(rows == expectedRows)
        // The whole file as the sample: no contradiction is possible.
        let (columns, whole) = try inferred("a\n1\n2\n007\n", sampleSize: nil)
        #expect(columns == ["a TEXT"])
        let expectedWhole: [[SQLValue]] = [["1"], ["2"], ["007"]]
        #expect(whole == expectedWhole)
    }

    @Test func aTypeConflictInsideABatchIsFoundAndTheOtherRowsKeepTheirOrder() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        var text = "n,label\n"
        for row in 1...300 { text += row == 150 ? "0150,x\n" : row == 200 ? "N/A,y\n" : "\(row),r\(row)\n" }
        let url = try scratch.file(text)
        var options = CSVImportOptions()
        options.inferenceSampleSize = 100
        let db = try Database.memory()
        let error = #expect(throws: CSVError.self) { try db.importCSV(from: url, into: "t", options: options) }
        #expect(error?.reason == .typeConflict(value: "0150", inferredType: "INTEGER"))
        #expect(error?.line == 151)
        #expect(try !db.csvTableExists())

        options.badRows = .skip
        let result = try db.importCSV(from: url, into: "t", options: options)
        #expect(result.rowsImported == 299 && result.skippedRows.map(\.line) == [151])
        let rows = try db.csvRows()
        #expect(rows.count == 299)
        #expect(rows[148] == [149, "r149"] && rows[149] == [151, "r151"])
        #expect(rows[198] == ["N/A", "y"], "kept as text, in its place")
    }

    @Test func aLaterValueThatWouldChangeIsSkippedWhenAsked() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        var options = CSVImportOptions()
        options.inferenceSampleSize = 1
        options.badRows = .skip
        let result = try db.importCSV(from: scratch.file("a,b\n1,x\n007,y\n3,z\n"), into: "t", options: options)
        #expect(try db.csvRows() == [[1, "x"], [3, "z"]])
        #expect(result.rowsImported == 2 && result.skippedRowCount == 1)
        #expect(result.skippedRows.first?.line == 3 && result.skippedRows.first?.column == 1)
    }

    @Test func theSampleSizeBoundsTheFirstPass() throws {
        // With a sample of one row, the second row's text does not make the column TEXT.
        let (columns, _) = try inferred("a\n1\nx\n", sampleSize: 1)
        #expect(columns == ["a INTEGER"])
        let (all, _) = try inferred("a\n1\nx\n", sampleSize: 2)
        #expect(all == ["a TEXT"])
        let (none, rows) = try inferred("a\n1\n", sampleSize: 0)
        #expect(none == ["a TEXT"])
        #expect(rows == [["1"]])
    }
}
