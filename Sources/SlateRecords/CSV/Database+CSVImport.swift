import CSQLite
import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

extension Database {
    /// Imports the rows of a CSV file into a table, creating the table when it does not exist.
    ///
    /// The file is read in chunks and parsed in place, so memory stays constant whatever its size.
    /// Every row goes through one prepared `INSERT`, inside one transaction: when a row cannot be
    /// imported, everything is rolled back, including a table the import created, and the error
    /// names the line, the column and the row. Inside a transaction of yours, the import runs in a
    /// savepoint instead.
    ///
    /// ```swift
    /// let result = try db.importCSV(from: URL(fileURLWithPath: "cities.csv"), into: "city")
    /// print("\(result.rowsImported) rows")
    /// ```
    ///
    /// - **A missing table** is created with one column per field, named from the header row
    ///   (made unique, always quoted) or `column_1`, `column_2`… without one, and typed
    ///   `INTEGER`, `REAL` or `TEXT` from the first ``CSVImportOptions/inferenceSampleSize`` rows.
    ///   Values with leading zeros, such as ZIP codes, stay text. See <doc:CSV#Type-inference>.
    /// - **An existing table** receives each field in the column its header names
    ///   (case-insensitively), or by position; the other columns get their defaults. Values are
    ///   bound so that SQLite stores them as the column's affinity says: numbers as numbers in
    ///   `INTEGER`, `REAL` and `NUMERIC` columns, text untouched in `TEXT` columns.
    ///
    /// - Parameters:
    ///   - url: The CSV file.
    ///   - table: The table's name, unquoted.
    ///   - options: The delimiter, header, encoding, `NULL`, matching and error options.
    ///   - progress: Called once per chunk read (a few hundred kilobytes) and once at the end.
    ///     Return ``CSVImportDecision/cancel`` to stop; the import is then rolled back. Cancelling
    ///     the current task has the same effect.
    /// - Returns: The table, its columns, the number of rows imported, and the rows skipped with
    ///   ``CSVBadRowPolicy/skip``.
    /// - Throws: ``CSVError``, whose ``CSVError/reason`` says what went wrong and which carries
    ///   SQLite's ``DatabaseError`` when SQLite refused a row or a statement.
    @discardableResult
    public func importCSV(
        from url: URL,
        into table: String,
        options: CSVImportOptions = CSVImportOptions(),
        progress: ((CSVImportProgress) -> CSVImportDecision)? = nil
    ) throws -> CSVImportResult {
        try CSVImporter(
            database: self, url: url, target: CSVImportTarget(table: table), options: options, progress: progress
        )
        .run()
    }

    /// ``importCSV(from:into:options:progress:)-(_,String,_,_)`` with a chosen buffer size, for tests of records
    /// that cross chunk boundaries.
    @discardableResult
    func importCSV(
        from url: URL, into table: String, options: CSVImportOptions, chunkSize: Int,
        progress: ((CSVImportProgress) -> CSVImportDecision)? = nil
    ) throws -> CSVImportResult {
        try CSVImporter(
            database: self, url: url, target: CSVImportTarget(table: table), options: options, progress: progress,
            chunkSize: chunkSize
        ).run()
    }
}

/// Where an import puts its rows.
struct CSVImportTarget {
    /// The table's name, unquoted.
    var table: String
    /// The only columns the file may fill (a `Table` type's), or `nil` for every column.
    var allowedColumns: [String]?
    /// Creates the missing table; `nil` creates it from the file, with inferred types.
    var create: ((Database) throws -> Void)?

    init(table: String, allowedColumns: [String]? = nil, create: ((Database) throws -> Void)? = nil) {
        self.table = table
        self.allowedColumns = allowedColumns
        self.create = create
    }
}

/// How one field is bound.
enum CSVBinding {
    /// As text, untouched (`TEXT` affinity).
    case text
    /// Integers and reals (by ``CSVNumberParser``'s strict rules) as numbers, anything else as
    /// text for SQLite's affinity to convert or keep (`INTEGER`, `REAL`, `NUMERIC` affinity).
    case number
    /// As ``number``, in a column whose type was inferred: text that SQLite might convert is
    /// checked after the insert, and a value that was changed fails the row.
    case inferredNumber
    /// Unquoted `X'…'` literals as blobs, unquoted numbers as numbers, anything else (quoted
    /// fields included) as text (`BLOB` affinity, untyped columns).
    case any
}

/// One field of the file and the column it fills.
struct CSVColumnPlan {
    /// The field's 0-based position in a record.
    var field: Int
    var column: String
    var declaredType: String
    var binding: CSVBinding
}

/// SQLite's column affinity for a declared type (section 3.1 of "Datatypes In SQLite").
enum CSVAffinity {
    case integer, text, blob, real, numeric

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}

/// The blob literals the exporter writes: `X'0A1B'` (either case).
enum CSVBlobLiteral {
    /// Decodes a literal into `bytes`: `true` when it holds bytes, `false` for the empty blob
    /// `X''`, `nil` when the text is not a blob literal.
    static func decode(_ text: UnsafePointer<UInt8>, _ count: Int, into bytes: inout [UInt8]) -> Bool? {
        guard count >= 3, count % 2 == 1, text[0] | 0x20 == UInt8(ascii: "x"), text[1] == UInt8(ascii: "'"),
            text[count - 1] == UInt8(ascii: "'")
        else { return nil }
        bytes.removeAll(keepingCapacity: true)
        var index = 2
        while index < count - 1 {
            guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return !bytes.isEmpty
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
