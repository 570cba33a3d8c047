import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// Why a CSV import or export failed, and where.
///
/// Every error of ``Database/importCSV(from:into:options:progress:)-(_,String,_,_)`` and
/// ``Database/exportCSV(sql:arguments:to:options:)`` is a `CSVError`. When SQLite refused
/// something, ``reason`` is ``Reason/database(_:)`` and carries SQLite's ``DatabaseError`` (result
/// code, message and SQL) unchanged, also available as ``databaseError``:
///
/// ```swift
/// do {
///     try db.importCSV(from: url, into: "user")
/// } catch let error as CSVError where error.databaseError?.extendedResultCode == .constraintUnique {
///     print("duplicate on line \(error.line ?? 0): \(error.row ?? "")")
/// }
/// ```
///
/// An import that throws has rolled back everything it did (except committed batches, with
/// ``CSVImportOptions/rowsPerTransaction``), including a table it created.
public struct CSVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// A quoted field is still open at the end of the file.
        case unterminatedQuote
        /// A closing quote is followed by something other than a delimiter or a line ending, as in
        /// `"abc"def`.
        case textAfterClosingQuote
        /// A row has a different number of fields than the header row (or, without one, the first
        /// row).
        case wrongFieldCount(expected: Int, found: Int)
        /// The bytes of a field are not valid text in the file's encoding; the message says which
        /// byte.
        case invalidEncoding(String)
        /// A record is longer than ``CSVImportOptions/maximumRecordLength`` bytes.
        case recordTooLong(limit: Int)
        /// The file is empty, so the columns of the table to create are unknown.
        case emptyFile
        /// A header names no column of the existing table.
        case unknownColumn(String)
        /// Two header fields name the same table column.
        case duplicateColumn(String)
        /// The file has more fields than the existing table has columns (matching by position).
        case tooManyColumns(fields: Int, tableColumns: Int)
        /// The table does not exist and ``CSVImportOptions/createsMissingTable`` is `false`.
        case tableNotFound
        /// A value would have been changed by the type the import inferred for its column from the
        /// first rows, such as `007` in a column inferred as `INTEGER` (it would read back as 7).
        case typeConflict(value: String, inferredType: String)
        /// The options cannot work, such as a delimiter that is not a single ASCII character.
        case invalidOptions(String)
        /// The file could not be opened, read or written.
        case fileError(String)
        /// The progress handler returned ``CSVImportDecision/cancel``, or the task was cancelled.
        case cancelled
        /// SQLite refused a statement: a constraint, a type mismatch in a `STRICT` table, a busy
        /// database, a syntax error in an export query…
        case database(DatabaseError)
    }

    /// What went wrong.
    public var reason: Reason
    /// The path of the CSV file.
    public var file: String?
    /// The line on which the offending row starts (1-based), when a row is to blame.
    public var line: Int?
    /// The offending field (1-based), when one is to blame.
    public var column: Int?
    /// The name of the offending field's column, when known.
    public var columnName: String?
    /// The offending row as read, truncated to a few hundred characters.
    public var row: String?
    /// The rows committed before the failure, with ``CSVImportOptions/rowsPerTransaction``; 0
    /// otherwise, since everything was rolled back.
    public var committedRows: Int
    /// Why rolling back after the failure failed, if it did: then the import's transaction may
    /// still be open, holding uncommitted rows. `nil` when the rollback succeeded.
    public var rollbackError: DatabaseError?

    /// Creates an error.
    public init(
        _ reason: Reason, file: String? = nil, line: Int? = nil, column: Int? = nil, columnName: String? = nil,
        row: String? = nil, committedRows: Int = 0
    ) {
        self.reason = reason
        self.file = file
        self.line = line
        self.column = column
        self.columnName = columnName
        self.row = row
        self.committedRows = committedRows
    }

    /// SQLite's error, when SQLite refused something.
    public var databaseError: DatabaseError? {
        if case .database(let error) = reason { return error }
        return nil
    }

    /// What went wrong, without the location.
    public var message: String {
        switch reason {
        case .unterminatedQuote:
            return "a quoted field is not closed before the end of the file"
        case .textAfterClosingQuote:
            return "a closing quote is followed by text instead of a delimiter or a line ending"
                + " (a quote inside a quoted field is written as two quotes)"
        case .wrongFieldCount(let expected, let found):
            return "the row has \(found) field\(found == 1 ? "" : "s"), expected \(expected)"
        case .invalidEncoding(let detail):
            return detail
        case .recordTooLong(let limit):
            return "a record is longer than \(limit) bytes (maximumRecordLength); is a quote left open?"
        case .emptyFile:
            return "the file is empty: there are no columns to create the table from"
        case .unknownColumn(let name):
            return "the header \(CSVText.quoted(name)) names no column of the table"
        case .duplicateColumn(let name):
            return "two header fields name the column \(CSVText.quoted(name))"
        case .tooManyColumns(let fields, let columns):
            return "the file has \(fields) fields per row but the table has \(columns) columns"
        case .tableNotFound:
            return "the table does not exist (createsMissingTable is false)"
        case .typeConflict(let value, let type):
            return
                "the value \(CSVText.quoted(value)) would not be stored as written in this column, inferred as \(type)"
                + " from the first rows; import with a larger inferenceSampleSize (nil reads the whole file)"
                + " or create the table first"
        case .invalidOptions(let detail):
            return detail
        case .fileError(let detail):
            return detail
        case .cancelled:
            return "the import was cancelled; everything it did was rolled back"
        case .database(let error):
            return error.description
        }
    }

    /// `file:line: column N ("name"): message; row: …`.
    public var description: String {
        var text = file ?? "CSV"
        if let line { text += ":\(line)" }
        text += ": "
        if let column {
            text += "column \(column)"
            if let columnName { text += " (\(CSVText.quoted(columnName)))" }
            text += ": "
        }
        text += message
        if let row { text += "; row: " + row }
        if committedRows > 0 { text += " (\(committedRows) rows were committed before the failure)" }
        return text
    }
}

/// Text helpers for CSV messages.
enum CSVText {
    /// The longest value or row shown in a message, in characters.
    static let excerptLength = 200

    /// `text` in double quotes, truncated.
    static func quoted(_ text: String) -> String {
        "\"" + truncated(text, to: 80) + "\""
    }

    /// `text`, cut to `limit` characters with an ellipsis.
    static func truncated(_ text: String, to limit: Int = excerptLength) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "…"
    }
}

extension CSVError {
    /// The error of a record the reader could not read.
    init(_ problem: CSVReader.Problem, in reader: CSVReader, file path: String) {
        switch problem {
        case .textAfterClosingQuote(let field):
            self = CSVError(.textAfterClosingQuote, file: path, line: reader.line, column: field, row: reader.excerpt())
        case .invalidEncoding(let field, let offset, let byte):
            let detail: String
            switch reader.input.encoding {
            case .utf16LittleEndian, .utf16BigEndian:
                detail = "invalid UTF-16: an unpaired surrogate or an odd final byte"
            default:
                detail =
                    "invalid UTF-8: byte 0x" + String(byte, radix: 16, uppercase: true)
                    + " at byte \(offset + 1) of the field (is the file Latin-1? import it with encoding .latin1)"
            }
            self = CSVError(
                .invalidEncoding(detail), file: path, line: reader.line, column: field, row: reader.excerpt())
        }
    }
}
