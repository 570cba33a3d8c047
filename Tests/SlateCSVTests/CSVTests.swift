import Foundation
import Slate
import SlateTestSupport
import Testing

@testable import SlateRecords

// MARK: Support

/// A temporary directory for CSV files, removed by `remove()`.
struct CSVScratch {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    func remove() { directory.remove() }

    /// Writes `text` as UTF-8 to `data.csv`.
    func file(_ text: String) throws -> URL {
        try file("data.csv", bytes: Array(text.utf8))
    }

    /// Writes `text` as UTF-8.
    func file(_ name: String, _ text: String) throws -> URL {
        try file(name, bytes: Array(text.utf8))
    }

    func file(bytes: [UInt8]) throws -> URL {
        try file("data.csv", bytes: bytes)
    }

    func file(_ name: String, bytes: [UInt8]) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    func url(_ name: String) -> URL { directory.url.appendingPathComponent(name) }
}

/// Buffer sizes that make records straddle chunk boundaries at every offset of small files, and
/// the default.
let csvChunkSizes = [32, 33, 37, 64, CSVReader.defaultChunkSize]

extension Database {
    /// Every row of `table` in rowid order, as boxed values.
    func csvRows(_ table: String = "t") throws -> [[SQLValue]] {
        try fetchAll(SQL(sql: "SELECT * FROM \(table.quotedIdentifier) ORDER BY rowid")) { $0.values }
    }

    /// The declared types of `table`'s columns, by name.
    func csvColumns(_ table: String = "t") throws -> [String] {
        try fetchAll(SQL(sql: "SELECT name || ' ' || type FROM pragma_table_info('\(table)')")) {
            try $0.decode(String.self, at: 0)
        }
    }

    func csvTableExists(_ table: String = "t") throws -> Bool {
        try fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE name = ?", arguments: [table]) > 0
    }
}

/// Imports `text` into a fresh in-memory table `t` once per chunk size, checks that every chunk
/// size gives the same rows, and returns them.
func importedRows(
    _ text: String, options: CSVImportOptions = CSVImportOptions(), sourceLocation: SourceLocation = #_sourceLocation
) throws -> [[SQLValue]] {
    try importedRows(bytes: Array(text.utf8), options: options, sourceLocation: sourceLocation)
}

func importedRows(
    bytes: [UInt8], options: CSVImportOptions = CSVImportOptions(), sourceLocation: SourceLocation = #_sourceLocation
) throws -> [[SQLValue]] {
    let scratch = try CSVScratch()
    defer { scratch.remove() }
    let url = try scratch.file(bytes: bytes)
    var results: [[[SQLValue]]] = []
    for chunkSize in csvChunkSizes {
        let db = try Database.memory()
        try db.importCSV(from: url, into: "t", options: options, chunkSize: chunkSize)
        results.append(try db.csvRows())
    }
    for (size, rows) in zip(csvChunkSizes, results) {
        #expect(rows == results.last, "chunk size \(size) reads different rows", sourceLocation: sourceLocation)
    }
    return results.last ?? []
}

/// The error an import of `text` into a fresh table throws, after checking that nothing was left
/// behind.
func importError(
    _ text: String, options: CSVImportOptions = CSVImportOptions(), sourceLocation: SourceLocation = #_sourceLocation
) throws -> CSVError? {
    try importError(bytes: Array(text.utf8), options: options, sourceLocation: sourceLocation)
}

func importError(
    bytes: [UInt8], options: CSVImportOptions = CSVImportOptions(), sourceLocation: SourceLocation = #_sourceLocation
) throws -> CSVError? {
    let scratch = try CSVScratch()
    defer { scratch.remove() }
    let url = try scratch.file(bytes: bytes)
    var errors: [CSVError] = []
    for chunkSize in csvChunkSizes {
        let db = try Database.memory()
        do {
            try db.importCSV(from: url, into: "t", options: options, chunkSize: chunkSize)
            Issue.record("the import succeeded with chunk size \(chunkSize)", sourceLocation: sourceLocation)
        } catch let error as CSVError {
            errors.append(error)
        }
        #expect(
            try !db.csvTableExists(), "the table the import created was rolled back", sourceLocation: sourceLocation)
        #expect(!db.isInTransaction, sourceLocation: sourceLocation)
    }
    for error in errors {
        #expect(error.reason == errors.last?.reason && error.line == errors.last?.line, sourceLocation: sourceLocation)
    }
    return errors.last
}

// MARK: RFC 4180

@Suite("CSV reading") struct CSVReadingTests {
    @Test func plainFieldsWithHeaderAndCRLF() throws {
        let rows = try importedRows("name,city\r\nAnn,Paris\r\nBob,Oslo\r\n")
        #expect(rows == [["Ann", "Paris"], ["Bob", "Oslo"]])
    }

    @Test func quotedFieldsHoldDelimitersDoubledQuotesAndLineBreaks() throws {
        let rows = try importedRows(
            "a,b,c\r\n\"x, y\",\"he said \"\"hi\"\"\",\"line 1\r\nline 2\nline 3\"\r\n\"\"\"\",\"\",plain\r\n")
        #expect(rows == [["x, y", "he said \"hi\"", "line 1\r\nline 2\nline 3"], ["\"", "", "plain"]])
    }

    @Test func lineEndingsLFCRLFAndLoneCRAndAFinalLineWithoutNewline() throws {
        #expect(try importedRows("a,b\n1,2\n3,4") == [[1, 2], [3, 4]])
        #expect(try importedRows("a,b\r\n1,2\r\n3,4") == [[1, 2], [3, 4]])
        #expect(try importedRows("a,b\r1,2\r3,4\r") == [[1, 2], [3, 4]])
        #expect(try importedRows("a,b\n1,2\r\n3,4\r5,6") == [[1, 2], [3, 4], [5, 6]])
        #expect(try importedRows("a,b\n\"1\",\"2\"") == [[1, 2]], "a quoted final field without newline")
    }

    @Test func emptyFieldsAreEmptyTextOrNullWhenAsked() throws {
        let text = "a,b,c\n,\"\",x\n1,,\n"
        #expect(try importedRows(text) == [["", "", "x"], [1, "", ""]])
        var options = CSVImportOptions()
        options.emptyFieldsAreNull = true
        #expect(try importedRows(text, options: options) == [[nil, "", "x"], [1, nil, nil]])
    }

    @Test func aTrailingDelimiterIsAnEmptyLastField() throws {
        var options = CSVImportOptions()
        options.emptyFieldsAreNull = true
        #expect(try importedRows("a,b,c\n1,2,\n3,4,", options: options) == [[1, 2, nil], [3, 4, nil]])
    }

    @Test func withoutHeaderRowColumnsAreNumbered() throws {
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        var options = CSVImportOptions()
        options.hasHeaderRow = false
        let result = try db.importCSV(from: scratch.file("1,x\n2,y\n"), into: "t", options: options)
        #expect(try db.csvRows() == [[1, "x"], [2, "y"]])
        #expect(try db.csvColumns() == ["column_1 INTEGER", "column_2 TEXT"])
        #expect(result.rowsImported == 2 && result.createdTable)
    }

    @Test func otherDelimiters() throws {
        for delimiter: Character in [";", "\t", "|", " "] {
            var options = CSVImportOptions()
            options.delimiter = delimiter
            let d = String(delimiter)
            let rows = try importedRows("a\(d)b\n1,5\(d)\"x\(d)y\"\n", options: options)
            let expectedRows: [[SQLValue]] = [[.text("1,5"), .text("x\(d)y")]]
            #expect(rows == expectedRows, "delimiter \(delimiter.debugDescription)")
        }
    }

    @Test func delimitersThatCannotWorkAreRefused() throws {
        for delimiter: Character in ["\"", "\n", "\r\n", "é", "👍"] {
            var options = CSVImportOptions()
            options.delimiter = delimiter
            let error = try importError("a\n1\n", options: options)
            guard case .invalidOptions(let message)? = error?.reason else {
                Issue.record("\(delimiter.debugDescription): \(String(describing: error))")
                continue
            }
            #expect(message.contains("delimiter"))
        }
    }

    @Test func aQuoteInsideAnUnquotedFieldIsKept() throws {
        #expect(try importedRows("height,name\n5'10\",ab\"c\n") == [["5'10\"", "ab\"c"]])
    }

    @Test func blankLinesAreSkippedUnlessTheFileHasOneColumn() throws {
        #expect(try importedRows("a,b\n\n1,2\n\n\n3,4\n\n") == [[1, 2], [3, 4]])
        var options = CSVImportOptions()
        options.emptyFieldsAreNull = true
        #expect(try importedRows("a\nx\n\ny\n", options: options) == [["x"], [nil], ["y"]])
    }

    @Test func textAfterAClosingQuoteIsAnErrorNamingLineAndColumn() throws {
        let error = try importError("a,b\n1,2\n3,\"x\"y\n")
        #expect(error?.reason == .textAfterClosingQuote)
        #expect(error?.line == 3)
        #expect(error?.column == 2)
        #expect(error?.row?.contains("3") == true)
    }

    @Test func anUnterminatedQuoteIsAnErrorAndNothingIsImported() throws {
        let error = try importError("a,b\n1,2\n3,\"open\n4,5\n6,7\n")
        #expect(error?.reason == .unterminatedQuote)
        #expect(error?.line == 3, "the line where the quoted field starts")
        #expect(error?.description.contains("data.csv:3") == true)
        #expect(error?.row?.hasPrefix("3,\"open") == true)
    }

    @Test func raggedRowsAreErrorsNamingTheLineAndShowingTheRow() throws {
        let error = try importError("a,b,c\n1,2,3\n\"multi\nline\",5,6\n4,5\n7,8,9\n")
        #expect(error?.reason == .wrongFieldCount(expected: 3, found: 2))
        #expect(error?.line == 5, "line numbers count the line break inside the quoted field")
        #expect(error?.row == "4,5")
        #expect(error?.description.contains("the row has 2 fields, expected 3") == true)
        let longer = try importError("a,b\n1,2,3\n")
        #expect(longer?.reason == .wrongFieldCount(expected: 2, found: 3))
    }

    @Test func recordsLongerThanTheLimitAreRefused() throws {
        var options = CSVImportOptions()
        options.maximumRecordLength = 100
        let error = try importError("a,b\n1,\"" + String(repeating: "x", count: 500) + "\"\n", options: options)
        #expect(error?.reason == .recordTooLong(limit: 100))
        #expect(error?.line == 2)
    }

    @Test func emptyFilesAndHeaderOnlyFiles() throws {
        let missing = try importError("")
        #expect(missing?.reason == .emptyFile)
        var options = CSVImportOptions()
        options.hasHeaderRow = false
        let nothingToInfer = try importError("\n\n", options: options)
        #expect(nothingToInfer?.reason == .emptyFile)

        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        let result = try db.importCSV(from: scratch.file("a,b\r\n"), into: "t")
        #expect(result.rowsImported == 0 && result.createdTable)
        #expect(try db.csvColumns() == ["a TEXT", "b TEXT"])
        // An empty file imports nothing into an existing table.
        #expect(try db.importCSV(from: scratch.file("empty.csv", ""), into: "t").rowsImported == 0)
    }

    @Test func aMissingFileIsAFileError() throws {
        let db = try Database.memory()
        #expect {
            try db.importCSV(from: URL(fileURLWithPath: "/nonexistent/data.csv"), into: "t")
        } throws: { error in
            guard let error = error as? CSVError, case .fileError(let message) = error.reason else { return false }
            return message.contains("cannot open") && error.file == "/nonexistent/data.csv"
        }
    }
}

// MARK: Encodings

@Suite("CSV encodings") struct CSVEncodingTests {
    static let text = "name,word\nAnn,héllo\nBob,日本語\nCy,🎉 ok\n"
    static let rows: [[SQLValue]] = [["Ann", "héllo"], ["Bob", "日本語"], ["Cy", "🎉 ok"]]

    static func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
        var bytes: [UInt8] = byteOrderMark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test func utf8WithAndWithoutByteOrderMark() throws {
        #expect(try importedRows(Self.text) == Self.rows)
        let rows = try importedRows(bytes: [0xEF, 0xBB, 0xBF] + Array(Self.text.utf8))
        #expect(rows == Self.rows)
        let scratch = try CSVScratch()
        defer { scratch.remove() }
        let db = try Database.memory()
        try db.importCSV(from: scratch.file(bytes: [0xEF, 0xBB, 0xBF] + Array(Self.text.utf8)), into: "t")
        #expect(try db.csvColumns() == ["name TEXT", "word TEXT"], "the byte order mark is not part of the first name")
    }

    @Test func utf16LittleAndBigEndianWithByteOrderMark() throws {
        #expect(try importedRows(bytes: Self.utf16(Self.text, bigEndian: false, byteOrderMark: true)) == Self.rows)
        #expect(try importedRows(bytes: Self.utf16(Self.text, bigEndian: true, byteOrderMark: true)) == Self.rows)
    }

    @Test func utf16WithoutByteOrderMarkNeedsTheEncodingNamed() throws {
        let bytes = Self.utf16(Self.text, bigEndian: false, byteOrderMark: false)
        let error = try importError(bytes: bytes)
        guard case .invalidEncoding(let message)? = error?.reason else {
            Issue.record("expected an encoding error, got \(String(describing: error))")
            return
        }
        #expect(message.contains(".utf16LittleEndian"))
        var options = CSVImportOptions()
        options.encoding = .utf16LittleEndian
        #expect(try importedRows(bytes: bytes, options: options) == Self.rows)
        options.encoding = .utf16BigEndian
        #expect(
            try importedRows(bytes: Self.utf16(Self.text, bigEndian: true, byteOrderMark: false), options: options)
                == Self.rows)
    }

    @Test func latin1OnRequest() throws {
        let bytes: [UInt8] =
            Array("name,word\nAnn,".utf8) + [0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x0A] + Array("Bob,".utf8) + [
                0xFF, 0xA9, 0x0A,
            ]
        var options = CSVImportOptions()
        options.encoding = .latin1
        #expect(try importedRows(bytes: bytes, options: options) == [["Ann", "héllo"], ["Bob", "ÿ©"]])
        // Read as UTF-8, the same bytes are invalid, and the message suggests Latin-1.
        let error = try importError(bytes: bytes)
        #expect(error?.line == 2 && error?.column == 2)
        guard case .invalidEncoding(let message)? = error?.reason else {
            Issue.record("expected an encoding error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("0xE9") && message.contains(".latin1"))
    }

    @Test func invalidUTF8IsAnErrorWithLineAndColumnAndNothingIsImported() throws {
        for bad: [UInt8] in [
            [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
        ] {
            let bytes = Array("a,b\n1,ok\n2,x".utf8) + bad + Array("y\n3,z\n".utf8)
            let error = try importError(bytes: bytes)
            #expect(error?.line == 3, "\(bad)")
            #expect(error?.column == 2, "\(bad)")
            guard case .invalidEncoding(let message)? = error?.reason else {
                Issue.record("expected an encoding error for \(bad), got \(String(describing: error))")
                continue
            }
            #expect(message.contains("invalid UTF-8") && message.contains("at byte 2 of the field"))
        }
    }

    @Test func invalidUTF8InAQuotedFieldAcrossLines() throws {
        let bytes = Array("a,b\n1,\"line\nbad ".utf8) + [0xFE] + Array("\"\n".utf8)
        let error = try importError(bytes: bytes)
        #expect(error?.line == 2 && error?.column == 2)
    }

    @Test func unpairedUTF16SurrogatesAreErrors() throws {
        var bytes = Self.utf16("a,b\n1,", bigEndian: false, byteOrderMark: true)
        bytes += [0x00, 0xD8]  // a lone high surrogate
        bytes += Self.utf16("x\n", bigEndian: false, byteOrderMark: false)
        let error = try importError(bytes: bytes)
        #expect(error?.line == 2 && error?.column == 2)
        guard case .invalidEncoding(let message)? = error?.reason else {
            Issue.record("expected an encoding error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("UTF-16"))
    }

    @Test func utf32IsRefusedClearly() throws {
        let error = try importError(bytes: [0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0])
        guard case .invalidEncoding(let message)? = error?.reason else {
            Issue.record("expected an encoding error, got \(String(describing: error))")
            return
        }
        #expect(message.contains("UTF-32"))
    }

    @Test func validatorAgreesWithTheStandardLibrary() {
        // Every 1- to 3-byte sequence over interesting bytes: the validator and String agree.
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
            0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var sequences: [[UInt8]] = interesting.map { [$0] }
        for a in interesting { for b in interesting { sequences.append([a, b]) } }
        for a in interesting {
            for b in interesting { for c in [UInt8(0x80), 0xBF, 0x41] { sequences.append([a, b, c]) } }
        }
        sequences += [
            [0xF0, 0x9F, 0x8E, 0x89], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF],
        ]
        for bytes in sequences {
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let invalidAt = bytes.withUnsafeBufferPointer {
                CSVUTF8.firstInvalidByte(in: $0.baseAddress!, count: $0.count)
            }
            #expect((invalidAt == nil) == valid, "\(bytes)")
        }
    }
}
