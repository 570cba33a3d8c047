import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// The text encoding of a CSV file read by ``Database/importCSV(from:into:options:progress:)-(_,String,_,_)``.
///
/// Whatever the encoding, the text reaches SQLite as UTF-8. Transcoding happens chunk by chunk, so
/// memory does not grow with the file.
public enum CSVEncoding: Sendable, Hashable {
    /// UTF-8, or UTF-16 when the file starts with a UTF-16 byte order mark (`FF FE` or `FE FF`).
    /// A UTF-8 byte order mark (`EF BB BF`) is skipped. A file that starts like UTF-16 without
    /// a byte order mark is refused with a message naming the explicit encodings. The default.
    case automatic
    /// UTF-8. A leading UTF-8 byte order mark is skipped.
    case utf8
    /// UTF-16, least significant byte first. A leading `FF FE` byte order mark is skipped.
    case utf16LittleEndian
    /// UTF-16, most significant byte first. A leading `FE FF` byte order mark is skipped.
    case utf16BigEndian
    /// ISO 8859-1: every byte is the Unicode scalar of the same value. Every byte sequence is
    /// valid, so choose it only when you know the file is Latin-1.
    case latin1
}

/// How the fields of a CSV file are matched with the columns of an existing table.
public enum CSVColumnMatching: Sendable, Hashable {
    /// By the header row: each header names a table column, compared case-insensitively as
    /// SQLite compares identifiers. Files without a header row are matched by position. The
    /// default.
    case byName
    /// The first field goes to the table's first column, the second to the second, and so on,
    /// whatever the header row says. Columns after the last field get their default values.
    case byPosition
}

/// What an import does with a row that cannot be imported.
public enum CSVBadRowPolicy: Sendable, Hashable {
    /// The import stops, everything it did is rolled back, and it throws a ``CSVError`` naming the
    /// row. The default.
    case fail
    /// The row is left out and reported in ``CSVImportResult/skippedRows``; the import goes on.
    case skip
}

/// The line ending that ``Database/exportCSV(sql:arguments:to:options:)`` writes after each row.
public enum CSVLineEnding: Sendable, Hashable {
    /// Carriage return and line feed, as RFC 4180 specifies. The default.
    case crlf
    /// A line feed alone.
    case lf
}

/// How ``Database/importCSV(from:into:options:progress:)-(_,String,_,_)`` reads a CSV file and stores its rows.
///
/// ```swift
/// var options = CSVImportOptions()
/// options.delimiter = ";"
/// options.emptyFieldsAreNull = true
/// try db.importCSV(from: url, into: "sales", options: options)
/// ```
public struct CSVImportOptions: Sendable, Hashable {
    /// The field separator: a single ASCII character other than `"`, carriage return and line
    /// feed, such as `","` (the default), `";"`, `"\t"` or `"|"`.
    public var delimiter: Character
    /// Whether the first record holds the column names. Default `true`.
    public var hasHeaderRow: Bool
    /// The file's text encoding. Default ``CSVEncoding/automatic``.
    public var encoding: CSVEncoding
    /// Whether an empty unquoted field is stored as `NULL`. A quoted empty field (`""`) is always
    /// an empty string. Default `false`: every empty field is an empty string.
    ///
    /// Set it to read back files written by ``Database/exportCSV(sql:arguments:to:options:)``,
    /// which writes `NULL` as an empty unquoted field and an empty string as `""`.
    public var emptyFieldsAreNull: Bool
    /// How fields are matched with the columns of an existing table. Default
    /// ``CSVColumnMatching/byName``.
    public var columnMatching: CSVColumnMatching
    /// Whether a missing table is created, with column types inferred from the file. Default
    /// `true`; when `false`, a missing table is an error.
    public var createsMissingTable: Bool
    /// How many data rows, from the start of the file, decide the column types of a table the
    /// import creates. `nil` reads the whole file first. Default 10,000.
    ///
    /// See <doc:CSV#Type-inference> for what a later row that contradicts the sample does.
    public var inferenceSampleSize: Int?
    /// What happens to a row that cannot be imported. Default ``CSVBadRowPolicy/fail``.
    public var badRows: CSVBadRowPolicy
    /// When set, the import commits after every this many rows and starts a new transaction, so
    /// a failure keeps the rows of the committed batches. Default `nil`: one transaction, all or
    /// nothing. Ignored when the import runs inside a transaction of yours.
    public var rowsPerTransaction: Int?
    /// The largest record, in bytes of UTF-8, the reader accepts; a longer one fails the import
    /// (an unterminated quote otherwise reads to the end of the file). Default 64 MiB.
    public var maximumRecordLength: Int
    /// How many skipped rows ``CSVImportResult/skippedRows`` lists; the count of skipped rows is
    /// always exact. Default 1,000.
    public var maximumReportedSkippedRows: Int

    /// Creates import options.
    public init(
        delimiter: Character = ",",
        hasHeaderRow: Bool = true,
        encoding: CSVEncoding = .automatic,
        emptyFieldsAreNull: Bool = false,
        columnMatching: CSVColumnMatching = .byName,
        createsMissingTable: Bool = true,
        inferenceSampleSize: Int? = 10_000,
        badRows: CSVBadRowPolicy = .fail,
        rowsPerTransaction: Int? = nil,
        maximumRecordLength: Int = 64 << 20,
        maximumReportedSkippedRows: Int = 1_000
    ) {
        self.delimiter = delimiter
        self.hasHeaderRow = hasHeaderRow
        self.encoding = encoding
        self.emptyFieldsAreNull = emptyFieldsAreNull
        self.columnMatching = columnMatching
        self.createsMissingTable = createsMissingTable
        self.inferenceSampleSize = inferenceSampleSize
        self.badRows = badRows
        self.rowsPerTransaction = rowsPerTransaction
        self.maximumRecordLength = maximumRecordLength
        self.maximumReportedSkippedRows = maximumReportedSkippedRows
    }
}

/// How ``Database/exportCSV(sql:arguments:to:options:)`` writes a CSV file.
public struct CSVExportOptions: Sendable, Hashable {
    /// The field separator: a single ASCII character other than `"`, carriage return and line
    /// feed. Default `","`.
    public var delimiter: Character
    /// Whether the first row holds the column names. Default `true`.
    public var includesHeaderRow: Bool
    /// The line ending written after each row. Default ``CSVLineEnding/crlf``.
    public var lineEnding: CSVLineEnding

    /// Creates export options.
    public init(delimiter: Character = ",", includesHeaderRow: Bool = true, lineEnding: CSVLineEnding = .crlf) {
        self.delimiter = delimiter
        self.includesHeaderRow = includesHeaderRow
        self.lineEnding = lineEnding
    }
}

/// How far an import got, handed to its progress handler.
public struct CSVImportProgress: Sendable, Hashable, CustomStringConvertible {
    /// The bytes of the file read so far.
    public var bytesRead: Int
    /// The size of the file in bytes, when known.
    public var totalBytes: Int?
    /// The rows inserted so far.
    public var rowsImported: Int
    /// The rows skipped so far (with ``CSVBadRowPolicy/skip``).
    public var rowsSkipped: Int

    /// Creates a progress report.
    public init(bytesRead: Int, totalBytes: Int?, rowsImported: Int, rowsSkipped: Int) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.rowsImported = rowsImported
        self.rowsSkipped = rowsSkipped
    }

    /// The fraction of the file read, from 0 to 1, or `nil` when the size is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        return totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : 1
    }

    public var description: String {
        var text = "\(rowsImported) rows imported"
        if rowsSkipped > 0 { text += ", \(rowsSkipped) skipped" }
        text += ", \(bytesRead)"
        if let totalBytes { text += " of \(totalBytes)" }
        return text + " bytes read"
    }
}

/// What a progress handler tells an import to do next.
public enum CSVImportDecision: Sendable, Hashable {
    /// Go on reading.
    case `continue`
    /// Stop: the import is rolled back and throws a ``CSVError`` with ``CSVError/Reason/cancelled``.
    case cancel
}

/// A row that an import with ``CSVBadRowPolicy/skip`` left out.
public struct CSVSkippedRow: Sendable, Hashable, CustomStringConvertible {
    /// The line of the file on which the row starts (1-based).
    public var line: Int
    /// The field that made the row fail (1-based), when one did.
    public var column: Int?
    /// Why the row was left out.
    public var reason: String
    /// The row as read, truncated.
    public var row: String

    /// Creates a report of a skipped row.
    public init(line: Int, column: Int?, reason: String, row: String) {
        self.line = line
        self.column = column
        self.reason = reason
        self.row = row
    }

    public var description: String {
        "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": \(reason) — row: \(row)"
    }
}

/// What an import did.
public struct CSVImportResult: Sendable, Hashable {
    /// A column the import filled.
    public struct Column: Sendable, Hashable {
        /// The column's name in the table.
        public var name: String
        /// Its declared type: the inferred `INTEGER`, `REAL` or `TEXT` for a table the import
        /// created, the table's own declaration otherwise.
        public var declaredType: String

        /// Creates a column description.
        public init(name: String, declaredType: String) {
            self.name = name
            self.declaredType = declaredType
        }
    }

    /// The table the rows went to.
    public var table: String
    /// Whether the import created the table.
    public var createdTable: Bool
    /// The columns filled from the file, in the order of the file's fields.
    public var columns: [Column]
    /// The rows inserted.
    public var rowsImported: Int
    /// The number of rows left out with ``CSVBadRowPolicy/skip``.
    public var skippedRowCount: Int
    /// The first ``CSVImportOptions/maximumReportedSkippedRows`` rows left out.
    public var skippedRows: [CSVSkippedRow]
    /// The bytes of the file read.
    public var bytesRead: Int

    /// Creates an import report.
    public init(
        table: String, createdTable: Bool, columns: [Column], rowsImported: Int, skippedRowCount: Int,
        skippedRows: [CSVSkippedRow], bytesRead: Int
    ) {
        self.table = table
        self.createdTable = createdTable
        self.columns = columns
        self.rowsImported = rowsImported
        self.skippedRowCount = skippedRowCount
        self.skippedRows = skippedRows
        self.bytesRead = bytesRead
    }
}

/// What an export wrote.
public struct CSVExportResult: Sendable, Hashable {
    /// The data rows written, not counting the header row.
    public var rowCount: Int
    /// The bytes written.
    public var byteCount: Int

    /// Creates an export report.
    public init(rowCount: Int, byteCount: Int) {
        self.rowCount = rowCount
        self.byteCount = byteCount
    }
}

extension Character {
    /// The character as a CSV delimiter byte, or `nil` when it cannot be one.
    var csvDelimiterByte: UInt8? {
        guard let ascii = asciiValue, ascii != UInt8(ascii: "\""), ascii != 0x0A, ascii != 0x0D else { return nil }
        return ascii
    }
}

extension CSVImportOptions {
    /// The delimiter's byte, once the options and the table name are checked.
    ///
    /// - Throws: ``CSVError/Reason/invalidOptions(_:)`` for the first option out of range.
    func validatedDelimiter(table: String, file path: String) throws -> UInt8 {
        guard let byte = delimiter.csvDelimiterByte else {
            throw CSVError(
                .invalidOptions(
                    "the delimiter must be one ASCII character other than a quote, CR or LF, not \(CSVText.quoted(String(delimiter)))"
                ),
                file: path)
        }
        if let rows = rowsPerTransaction, rows < 1 {
            throw CSVError(.invalidOptions("rowsPerTransaction must be at least 1, not \(rows)"), file: path)
        }
        if let rows = inferenceSampleSize, rows < 0 {
            throw CSVError(.invalidOptions("inferenceSampleSize must not be negative, not \(rows)"), file: path)
        }
        if maximumRecordLength < 1 {
            throw CSVError(
                .invalidOptions("maximumRecordLength must be at least 1, not \(maximumRecordLength)"),
                file: path)
        }
        if table.isEmpty {
            throw CSVError(.invalidOptions("the table name is empty"), file: path)
        }
        return byte
    }
}
