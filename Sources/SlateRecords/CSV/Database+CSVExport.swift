import CSQLite
import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// Writes the rows of a query to a CSV file, in RFC 4180 form, with a header row of the
    /// result's column names.
    ///
    /// Each value is written so that ``importCSV(from:into:options:progress:)-(_,String,_,_)`` with
    /// ``CSVImportOptions/emptyFieldsAreNull`` reads it back identically into a table of the same
    /// schema:
    ///
    /// | value | written as |
    /// | --- | --- |
    /// | `NULL` | an empty unquoted field |
    /// | empty text | `""` |
    /// | integer | its decimal digits: `-42` |
    /// | real | the shortest text that reads back as the same `Double`: `0.1`, `100000.0`, `1e-07`; infinities as `1e999` and `-1e999` |
    /// | text | as it is, quoted when it holds the delimiter, a quote, a CR or an LF, or looks like a number or a blob literal (so that untyped columns read it back as text) |
    /// | blob | an unquoted hexadecimal literal: `X'0AFF'` (`X''` when empty) |
    ///
    /// A regular file is written to a temporary file next to `url`, then renamed: a failed export
    /// leaves no partial file and an existing file unchanged. Anything else — `/dev/stdout`, a
    /// FIFO, a device — is written in place, never replaced.
    ///
    /// ```swift
    /// try db.exportCSV(sql: "SELECT * FROM invoice WHERE total > ?", arguments: [10], to: url)
    /// ```
    ///
    /// - Returns: The number of rows and bytes written.
    /// - Throws: ``CSVError``: ``CSVError/Reason/database(_:)`` for invalid SQL or a failing
    ///   query, ``CSVError/Reason/fileError(_:)`` when the file cannot be written.
    @discardableResult
    public func exportCSV(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        to url: URL,
        options: CSVExportOptions = CSVExportOptions()
    ) throws -> CSVExportResult {
        let statement: Statement
        do {
            statement = try prepare(sql: sql)
            if !arguments.isEmpty { try statement.bind(arguments) }
        } catch let error as DatabaseError {
            throw CSVError(.database(error), file: url.path)
        }
        return try CSVExporter(statement: statement, url: url, options: options).run()
    }

    /// Writes the rows of a query whose interpolated values are bound, such as
    /// `"SELECT * FROM track WHERE albumId = \(id)"`, to a CSV file. See
    /// ``exportCSV(sql:arguments:to:options:)``.
    @discardableResult
    public func exportCSV(_ query: SQL, to url: URL, options: CSVExportOptions = CSVExportOptions()) throws
        -> CSVExportResult
    {
        try exportCSV(sql: query.text, arguments: query.arguments, to: url, options: options)
    }

    /// Writes every row of a table, in rowid order for rowid tables, to a CSV file. See
    /// ``exportCSV(sql:arguments:to:options:)``.
    @discardableResult
    public func exportCSV(table: String, to url: URL, options: CSVExportOptions = CSVExportOptions()) throws
        -> CSVExportResult
    {
        try exportCSV(sql: "SELECT * FROM \(table.quotedIdentifier)", to: url, options: options)
    }
}

/// Writes one statement's rows as CSV.
final class CSVExporter {
    private let statement: Statement
    private let url: URL
    private let options: CSVExportOptions
    private var output: [UInt8] = []
    private var file: OutputFile?
    private var byteCount = 0

    private static let flushThreshold = 256 * 1024

    init(statement: Statement, url: URL, options: CSVExportOptions) {
        self.statement = statement
        self.url = url
        self.options = options
    }

    func run() throws -> CSVExportResult {
        guard let delimiter = options.delimiter.csvDelimiterByte else {
            throw CSVError(
                .invalidOptions(
                    "the delimiter must be one ASCII character other than a quote, CR or LF, not \(CSVText.quoted(String(options.delimiter)))"
                ),
                file: url.path)
        }
        do {
            file = try OutputFile(url: url)
        } catch {
            throw CSVError(.fileError(error.description), file: url.path)
        }
        var finished = false
        defer { if !finished { file?.discard() } }
        output.reserveCapacity(Self.flushThreshold + 4096)
        let handle = statement.handle
        let columnCount = Int32(statement.columnCount)
        let lineEnding: [UInt8] = options.lineEnding == .crlf ? [0x0D, 0x0A] : [0x0A]
        if options.includesHeaderRow {
            for column in 0..<columnCount {
                if column > 0 { output.append(delimiter) }
                let name = Array(statement.columnName(at: Int(column)).utf8)
                name.withUnsafeBufferPointer { appendText($0, delimiter: delimiter, quotesNumbers: false) }
            }
            output.append(contentsOf: lineEnding)
        }
        var rowCount = 0
        do {
            while try statement.step() {
                for column in 0..<columnCount {
                    if column > 0 { output.append(delimiter) }
                    appendValue(handle, column, delimiter: delimiter)
                }
                output.append(contentsOf: lineEnding)
                rowCount += 1
                if output.count >= Self.flushThreshold { try flush() }
            }
        } catch let error as DatabaseError {
            throw CSVError(.database(error), file: url.path, line: rowCount + (options.includesHeaderRow ? 2 : 1))
        }
        try flush()
        do {
            try file?.commit()
        } catch {
            throw CSVError(.fileError(error.description), file: url.path)
        }
        finished = true
        return CSVExportResult(rowCount: rowCount, byteCount: byteCount)
    }

    private func appendValue(_ handle: OpaquePointer, _ column: Int32, delimiter: UInt8) {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_NULL:
            break
        case SQLITE_INTEGER:
            output.append(contentsOf: String(sqlite3_column_int64(handle, column)).utf8)
        case SQLITE_FLOAT:
            let value = sqlite3_column_double(handle, column)
            if value.isInfinite {
                output.append(contentsOf: (value < 0 ? "-1e999" : "1e999").utf8)
            } else {
                output.append(contentsOf: value.description.utf8)
            }
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            output.append(contentsOf: "X'".utf8)
            if count > 0, let bytes = sqlite3_column_blob(handle, column) {
                let digits = Array("0123456789ABCDEF".utf8)
                for byte in UnsafeRawBufferPointer(start: bytes, count: count) {
                    output.append(digits[Int(byte >> 4)])
                    output.append(digits[Int(byte & 0x0F)])
                }
            }
            output.append(UInt8(ascii: "'"))
        default:
            let text = sqlite3_column_text(handle, column)
            let count = Int(sqlite3_column_bytes(handle, column))
            appendText(
                UnsafeBufferPointer(start: text, count: text == nil ? 0 : count), delimiter: delimiter,
                quotesNumbers: true)
        }
    }

    /// Appends text, quoted when it must be: empty (to tell it from `NULL`), holding the
    /// delimiter, a quote, CR or LF, or, with `quotesNumbers`, reading as a number or a blob
    /// literal.
    private func appendText(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8, quotesNumbers: Bool) {
        let quote = UInt8(ascii: "\"")
        var needsQuotes = text.isEmpty || text.contains { $0 == delimiter || $0 == quote || $0 == 0x0A || $0 == 0x0D }
        if !needsQuotes, quotesNumbers, let base = text.baseAddress {
            var scratch: [UInt8] = []
            if case .text = CSVNumberParser.classify(base, text.count) {
                needsQuotes = CSVBlobLiteral.decode(base, text.count, into: &scratch) != nil
            } else {
                needsQuotes = true
            }
        }
        guard needsQuotes else {
            output.append(contentsOf: text)
            return
        }
        output.append(quote)
        for byte in text {
            output.append(byte)
            if byte == quote { output.append(quote) }
        }
        output.append(quote)
    }

    private func flush() throws {
        var failure: OutputFile.Failure?
        output.withUnsafeBytes { bytes in
            do throws(OutputFile.Failure) { try file?.write(bytes) } catch { failure = error }
        }
        if let failure { throw CSVError(.fileError(failure.description), file: url.path) }
        byteCount += output.count
        output.removeAll(keepingCapacity: true)
    }
}
