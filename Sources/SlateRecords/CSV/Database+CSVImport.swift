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

/// One import: the state between the file, the reader and the `INSERT`.
final class CSVImporter {
    private let db: Database
    private let url: URL
    private let target: CSVImportTarget
    private let options: CSVImportOptions
    private let progress: ((CSVImportProgress) -> CSVImportDecision)?
    private let chunkSize: Int

    private var ownsTransaction = false
    private var rowsImported = 0
    private var committedRows = 0
    private var skippedRowCount = 0
    private var skippedRows: [CSVSkippedRow] = []
    private var createdTable = false
    /// The target table's columns, generated ones included.
    private var columns: [TableColumn] = []
    private var plans: [CSVColumnPlan] = []
    /// The one-row `INSERT`.
    private var insert: Statement?
    private var insertSQL = ""
    /// The multi-row `INSERT` of `batchRows` rows, when more than one.
    private var batchInsert: Statement?
    private var batchInsertSQL = ""
    private var batchRows = 1
    /// `SELECT typeof(column) … WHERE rowid = ?`, per plan index, prepared on first need.
    private var typeChecks: [Int: Statement] = [:]
    private var lastReportedRefill = -1

    private static let savepointName = "slate_csv_import".quotedIdentifier

    init(
        database: Database, url: URL, target: CSVImportTarget, options: CSVImportOptions,
        progress: ((CSVImportProgress) -> CSVImportDecision)?, chunkSize: Int = CSVReader.defaultChunkSize
    ) {
        self.db = database
        self.url = url
        self.target = target
        self.options = options
        self.progress = progress
        self.chunkSize = chunkSize
    }

    private var path: String { url.path }

    // MARK: Running

    func run() throws -> CSVImportResult {
        let delimiter = try validatedDelimiter()
        do {
            try db.checkOpen()
        } catch let error as DatabaseError {
            throw CSVError(.database(error), file: path)
        }
        let reader = try makeReader(delimiter: delimiter)
        var header: [String]?
        // An empty file has no header: it imports no row into an existing table.
        if options.hasHeaderRow, try reader.nextRecord() {
            if let problem = reader.problem { throw error(for: problem, in: reader) }
            header = (0..<reader.fieldCount).map(reader.string(ofField:))
        }

        try begin()
        do {
            try prepareTable(header: header, delimiter: delimiter)
            try importRows(from: reader, header: header)
            try reportProgress(reader, force: true)
            try commit()
        } catch {
            let failure = wrapped(error)
            do {
                try rollback()
            } catch let rollbackError {
                throw Self.noting(rollbackError, on: failure)
            }
            throw failure
        }
        return CSVImportResult(
            table: target.table, createdTable: createdTable,
            columns: plans.map { CSVImportResult.Column(name: $0.column, declaredType: $0.declaredType) },
            rowsImported: rowsImported, skippedRowCount: skippedRowCount, skippedRows: skippedRows,
            bytesRead: reader.input.bytesRead)
    }

    private func validatedDelimiter() throws -> UInt8 {
        guard let delimiter = options.delimiter.csvDelimiterByte else {
            throw CSVError(
                .invalidOptions(
                    "the delimiter must be one ASCII character other than a quote, CR or LF, not \(CSVText.quoted(String(options.delimiter)))"
                ),
                file: path)
        }
        if let rows = options.rowsPerTransaction, rows < 1 {
            throw CSVError(.invalidOptions("rowsPerTransaction must be at least 1, not \(rows)"), file: path)
        }
        if let rows = options.inferenceSampleSize, rows < 0 {
            throw CSVError(.invalidOptions("inferenceSampleSize must not be negative, not \(rows)"), file: path)
        }
        if options.maximumRecordLength < 1 {
            throw CSVError(
                .invalidOptions("maximumRecordLength must be at least 1, not \(options.maximumRecordLength)"),
                file: path)
        }
        if target.table.isEmpty {
            throw CSVError(.invalidOptions("the table name is empty"), file: path)
        }
        return delimiter
    }

    private func makeReader(delimiter: UInt8) throws -> CSVReader {
        CSVReader(
            input: try CSVInput(url: url, encoding: options.encoding), delimiter: delimiter,
            maximumRecordLength: options.maximumRecordLength, chunkSize: chunkSize)
    }

    /// A `DatabaseError` becomes a ``CSVError``; every CSV error learns how many rows were
    /// committed.
    private func wrapped(_ error: any Error) -> any Error {
        var csvError: CSVError
        if let error = error as? CSVError {
            csvError = error
        } else if let error = error as? DatabaseError {
            csvError = CSVError(.database(error), file: path)
        } else {
            return error
        }
        csvError.committedRows = committedRows
        return csvError
    }

    /// `failure`, noting that rolling back after it failed too.
    private static func noting(_ rollbackError: any Error, on failure: any Error) -> any Error {
        guard var csvError = failure as? CSVError else {
            return Database.error(failure, notingCleanupFailures: [rollbackError])
        }
        csvError.rollbackError =
            rollbackError as? DatabaseError
            ?? DatabaseError(resultCode: .error, message: "\(rollbackError)".truncatedForMessages)
        return csvError
    }

    // MARK: Transactions

    private func begin() throws {
        ownsTransaction = !db.isInTransaction
        try execute(ownsTransaction ? "BEGIN IMMEDIATE TRANSACTION" : "SAVEPOINT \(Self.savepointName)")
    }

    private func commit() throws {
        try execute(ownsTransaction ? "COMMIT TRANSACTION" : "RELEASE SAVEPOINT \(Self.savepointName)")
        committedRows = rowsImported
    }

    /// Commits the rows so far and starts a new transaction, with ``CSVImportOptions/rowsPerTransaction``.
    private func commitBatch() throws {
        try execute("COMMIT TRANSACTION")
        committedRows = rowsImported
        try execute("BEGIN IMMEDIATE TRANSACTION")
    }

    /// Rolls back what the import wrote; throws when SQLite refuses.
    private func rollback() throws {
        insert?.resetQuietly()
        batchInsert?.resetQuietly()
        for statement in typeChecks.values { statement.resetQuietly() }
        if ownsTransaction {
            try db.rollbackIfNeeded()
        } else if db.isInTransaction {
            try db.execute(sql: "ROLLBACK TO SAVEPOINT \(Self.savepointName)")
            try db.execute(sql: "RELEASE SAVEPOINT \(Self.savepointName)")
        }
    }

    private func execute(_ sql: String) throws {
        do {
            try db.execute(sql: sql)
        } catch let error as DatabaseError {
            throw CSVError(.database(error), file: path)
        }
    }

    // MARK: The table

    /// A column of the target table, as the one PRAGMA reader (`SchemaIntrospection`) reports it.
    private struct TableColumn {
        var name: String
        var declaredType: String
        /// A generated column, or a hidden column of a virtual table: not insertable.
        var isHidden: Bool
    }

    /// The target table's columns, found as the `INSERT` will find the unqualified name.
    private func tableColumns() throws -> [TableColumn] {
        try SchemaIntrospection.columns(ofTable: target.table, schema: nil, in: .database(db)).map {
            TableColumn(name: $0.name, declaredType: $0.declaredType, isHidden: $0.hidden != 0)
        }
    }

    /// Finds or creates the table, matches the file's fields with its columns, and prepares the
    /// `INSERT` (when the number of fields is known: from the header, or the first row).
    private func prepareTable(header: [String]?, delimiter: UInt8) throws {
        var columns = try tableColumns()
        if columns.isEmpty {
            guard options.createsMissingTable else { throw CSVError(.tableNotFound, file: path) }
            if let create = target.create {
                try create(db)
            } else {
                try createInferredTable(header: header, delimiter: delimiter)
            }
            createdTable = true
            columns = try tableColumns()
        }
        self.columns = columns
        if let header { try makePlans(fieldCount: header.count, header: header) }
    }

    /// Creates the table from a first pass over the sample: names from the header, types from the
    /// values.
    private func createInferredTable(header: [String]?, delimiter: UInt8) throws {
        let sampler = try makeReader(delimiter: delimiter)
        if header != nil { _ = try sampler.nextRecord() }
        var fieldCount = header?.count
        var statistics: [CSVColumnStatistics] = []
        var sampled = 0
        let limit = options.inferenceSampleSize ?? .max
        while sampled < limit, try sampler.nextRecord() {
            if fieldCount == nil {
                if sampler.isBlankLine { continue }
                fieldCount = sampler.fieldCount
            }
            guard let count = fieldCount else { continue }
            if sampler.isBlankLine && count > 1 { continue }
            if statistics.isEmpty { statistics = Array(repeating: CSVColumnStatistics(), count: count) }
            sampled += 1
            // Rows the import will refuse or skip do not vote.
            guard sampler.fieldCount == count, sampler.problem == nil else { continue }
            for index in 0..<count {
                let field = sampler.fields[index]
                if field.count > 0 { statistics[index].observe(sampler.buffer + field.start, field.count) }
            }
        }
        guard let count = fieldCount else { throw CSVError(.emptyFile, file: path) }
        let names = header.map(CSVColumnNaming.safeNames(from:)) ?? CSVColumnNaming.positionalNames(count: count)
        let types =
            statistics.isEmpty ? Array(repeating: CSVInferredType.text, count: count) : statistics.map(\.inferredType)
        let definitions = zip(names, types).map { "\($0.quotedIdentifier) \($1.rawValue)" }
        try db.execute(sql: "CREATE TABLE \(target.table.quotedIdentifier) (\(definitions.joined(separator: ", ")))")
    }

    /// Matches `fieldCount` fields with the table's columns and prepares the `INSERT`.
    private func makePlans(fieldCount: Int, header: [String]?) throws {
        var insertable = columns.filter { !$0.isHidden }
        if let allowed = target.allowedColumns {
            // A table type's columns, in the type's order (for matching by position).
            insertable = allowed.compactMap { name in
                let key = CSVColumnNaming.asciiLowercased(name)
                return insertable.first { CSVColumnNaming.asciiLowercased($0.name) == key }
            }
        }
        // A table the import inferred from this file matches it field by field.
        let byName = options.columnMatching == .byName && header != nil && !(createdTable && target.create == nil)
        var plans: [CSVColumnPlan] = []
        if byName, let header {
            var byKey: [String: TableColumn] = [:]
            for column in insertable where byKey[CSVColumnNaming.asciiLowercased(column.name)] == nil {
                byKey[CSVColumnNaming.asciiLowercased(column.name)] = column
            }
            let generated = Set(columns.filter(\.isHidden).map { CSVColumnNaming.asciiLowercased($0.name) })
            var used: Set<String> = []
            for (index, name) in header.enumerated() {
                let key = CSVColumnNaming.asciiLowercased(name.trimmingCharacters(in: .whitespaces))
                guard let column = byKey[key] else {
                    // The database computes generated columns: their values in the file are left out.
                    if generated.contains(key) { continue }
                    throw CSVError(
                        .unknownColumn(name), file: path, line: 1, column: index + 1, columnName: name,
                        row: CSVText.truncated(header.joined(separator: ", ")) + " — the table's columns: "
                            + insertable.map(\.name).joined(separator: ", "))
                }
                guard used.insert(key).inserted else {
                    throw CSVError(
                        .duplicateColumn(column.name), file: path, line: 1, column: index + 1, columnName: name)
                }
                plans.append(plan(field: index, column: column))
            }
        } else {
            guard fieldCount <= insertable.count else {
                throw CSVError(.tooManyColumns(fields: fieldCount, tableColumns: insertable.count), file: path)
            }
            plans = (0..<fieldCount).map { plan(field: $0, column: insertable[$0]) }
        }
        self.plans = plans
        let names = plans.map(\.column.quotedIdentifier).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: plans.count).joined(separator: ", ")
        insertSQL =
            plans.isEmpty
            ? "INSERT INTO \(target.table.quotedIdentifier) DEFAULT VALUES"
            : "INSERT INTO \(target.table.quotedIdentifier) (\(names)) VALUES (\(placeholders))"
        insert = try db.prepare(sql: insertSQL)
        bindingPlans.baseAddress?.deallocate()
        bindingPlans = .allocate(capacity: plans.count)
        _ = bindingPlans.initialize(from: plans.map { BindingPlan(field: $0.field, binding: $0.binding) })
        rowWidth = fieldCount

        // The batch: as many rows as SQLite's parameter limit allows, up to 50 (beyond, the gain
        // is small).
        let parameterLimit = Int(sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        let rows = plans.isEmpty ? 1 : max(1, min(Self.maximumBatchRows, parameterLimit / plans.count))
        batchRows = rows
        pendingFields?.deallocate()
        pendingLines?.deallocate()
        pendingFields = .allocate(capacity: rows * max(1, fieldCount))
        pendingLines = .allocate(capacity: rows)
        if rows > 1 {
            let row = "(" + placeholders + ")"
            batchInsertSQL =
                "INSERT INTO \(target.table.quotedIdentifier) (\(names)) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", ")
            batchInsert = try db.prepare(sql: batchInsertSQL)
        }
    }

    /// The most rows one multi-row `INSERT` takes.
    static let maximumBatchRows = 50

    private func plan(field: Int, column: TableColumn) -> CSVColumnPlan {
        let binding: CSVBinding
        switch CSVAffinity(declaredType: column.declaredType) {
        case .text: binding = .text
        case .integer, .real, .numeric: binding = createdTable && target.create == nil ? .inferredNumber : .number
        case .blob: binding = .any
        }
        return CSVColumnPlan(field: field, column: column.name, declaredType: column.declaredType, binding: binding)
    }

    // MARK: Rows
    //
    // Valid records wait in `pending` (their fields still point into the reader's buffer) until
    // there are `batchRows` of them, which one multi-row `INSERT … VALUES (…), (…), …` inserts:
    // SQLite's per-statement work (starting, opening the table cursor, halting) is then paid once
    // per batch instead of once per row, which more than halves its cost. A partial batch (before
    // the reader refills its buffer, at the end, before a bad row is reported) goes through the
    // one-row `INSERT`. When a batch fails on a constraint, nothing of it was inserted (SQLite
    // undoes the statement), and its rows are inserted again one by one, so the error or the
    // skipped row is the exact one.

    private func importRows(from reader: CSVReader, header: [String]?) throws {
        var expectedFieldCount = header?.count
        reader.willRefill = { [unowned self, unowned reader] in try self.flush(reader) }
        defer { reader.willRefill = nil }
        while try reader.nextRecord() {
            if reader.refillCount != lastReportedRefill { try reportProgress(reader, force: false) }
            let fieldCount = reader.fieldCount
            if reader.isBlankLine && (expectedFieldCount ?? 2) > 1 { continue }
            let expected: Int
            if let known = expectedFieldCount {
                expected = known
            } else {
                expected = fieldCount
                expectedFieldCount = fieldCount
                try makePlans(fieldCount: fieldCount, header: nil)
            }
            if fieldCount != expected {
                try flush(reader)
                try reject(reader, .wrongFieldCount(expected: expected, found: fieldCount), column: nil)
                continue
            }
            if let problem = reader.problem {
                try flush(reader)
                try reject(error(for: problem, in: reader))
                continue
            }
            try enqueue(reader)
        }
        try flush(reader)
    }

    /// The fields of the rows waiting for a batch, `rowWidth` per row, then their lines: raw
    /// storage for `batchRows` rows, allocated with the plans, so that queuing a row costs no
    /// reference counting or exclusivity check.
    private var pendingFields: UnsafeMutablePointer<CSVReader.Field>?
    private var pendingLines: UnsafeMutablePointer<Int>?
    private var pendingCount = 0
    /// The fields of every row: the header's count, or the first row's.
    private var rowWidth = 0
    /// Scratch for decoding blob literals.
    private var blob: [UInt8] = []

    deinit {
        pendingFields?.deallocate()
        pendingLines?.deallocate()
        bindingPlans.baseAddress?.deallocate()
    }

    /// Queues the current record, inserting the batch when it is full.
    private func enqueue(_ reader: CSVReader) throws {
        guard let pendingFields, let pendingLines else { return }
        let count = pendingCount
        (pendingFields + count * rowWidth).update(from: reader.fields, count: rowWidth)
        pendingLines[count] = reader.line
        pendingCount = count + 1
        // A batch never straddles a commit of rowsPerTransaction: commits fall on its multiples.
        if count + 1 == batchRows { return try flush(reader) }
        if let perTransaction = options.rowsPerTransaction, count + 1 >= perTransaction - (rowsImported - committedRows)
        {
            try flush(reader)
        }
    }

    /// Inserts the waiting rows: a full batch at once, a partial one row by row.
    private func flush(_ reader: CSVReader) throws {
        guard pendingCount > 0, let fields = pendingFields, let lines = pendingLines else { return }
        let count = pendingCount
        pendingCount = 0
        if count == batchRows, let batch = batchInsert?.handle,
            try insertBatch(batch, fields, firstLine: lines[0], reader: reader)
        {
            return
        }
        for index in 0..<count {
            try insertOne(fields + index * rowWidth, line: lines[index], reader: reader)
        }
    }

    /// Inserts a full batch with the multi-row `INSERT`. Returns `false`, with nothing inserted,
    /// when a row of it must be found and reported, or checked (text that SQLite might convert in
    /// a column of inferred type): the caller then inserts the rows one by one.
    private func insertBatch(
        _ statement: OpaquePointer, _ fields: UnsafePointer<CSVReader.Field>, firstLine: Int, reader: CSVReader
    ) throws -> Bool {
        let columns = Int32(plans.count)
        for row in 0..<batchRows {
            // A row that fails to bind, or needs its types checked, goes through the one-row path.
            guard
                case .bound(needsTypeCheck: false) = bind(
                    fields + row * rowWidth, to: statement, firstParameter: Int32(row) * columns + 1, reader: reader)
            else {
                sqlite3_reset(statement)
                return false
            }
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            let error = sqliteError(code: code, sql: batchInsertSQL)
            sqlite3_reset(statement)
            if Self.rowLevelFailures.contains(error.resultCode) { return false }
            throw CSVError(
                .database(error), file: path, line: firstLine, row: reader.excerpt(of: fields, count: rowWidth))
        }
        sqlite3_reset(statement)
        rowsImported += batchRows
        try commitIfDue()
        return true
    }

    /// Inserts one row with the one-row `INSERT`, rejecting it when SQLite refuses it.
    private func insertOne(_ fields: UnsafePointer<CSVReader.Field>, line: Int, reader: CSVReader) throws {
        guard let statement = insert?.handle else { return }
        let checkingTypes: Bool
        switch bind(fields, to: statement, firstParameter: 1, reader: reader) {
        case .bound(let needsTypeCheck):
            checkingTypes = needsTypeCheck
        case .failed(let index):
            let error = sqliteError(code: sqlite3_errcode(db.handle), sql: insertSQL)
            sqlite3_reset(statement)
            try reject(.database(error), fields: fields, line: line, column: plans[index].field + 1, reader: reader)
            return
        }
        let code = sqlite3_step(statement)
        if code != SQLITE_DONE {
            let error = sqliteError(code: code, sql: insertSQL)
            sqlite3_reset(statement)
            guard Self.rowLevelFailures.contains(error.resultCode) else {
                throw CSVError(
                    .database(error), file: path, line: line, row: reader.excerpt(of: fields, count: rowWidth))
            }
            try reject(
                .database(error), fields: fields, line: line, column: column(namedIn: error.message).map { $0 + 1 },
                reader: reader)
            return
        }
        sqlite3_reset(statement)
        if checkingTypes, try !typesAreIntact(fields, line: line, reader: reader) { return }
        rowsImported += 1
        try commitIfDue()
    }

    /// The failures that are one row's fault: constraints, type mismatches, values too big.
    private static let rowLevelFailures: Set<ResultCode> = [.constraint, .mismatch, .tooBig]

    /// Commits and starts a new transaction when ``CSVImportOptions/rowsPerTransaction`` rows
    /// were inserted since the last commit.
    private func commitIfDue() throws {
        if let batch = options.rowsPerTransaction, ownsTransaction, rowsImported - committedRows >= batch {
            try commitBatch()
        }
    }

    /// What binding a row did.
    private enum BindResult {
        /// Every field is bound. `needsTypeCheck`: a column of inferred numeric type got text that
        /// SQLite might convert; the row must be checked after its insert.
        case bound(needsTypeCheck: Bool)
        /// SQLite refused the field of this plan.
        case failed(Int)
    }

    /// Binds one row's fields to the parameters from `firstParameter` on.
    @inline(__always)
    private func bind(
        _ fields: UnsafePointer<CSVReader.Field>, to statement: OpaquePointer, firstParameter: Int32, reader: CSVReader
    ) -> BindResult {
        let base = reader.buffer
        let emptyIsNull = options.emptyFieldsAreNull
        var needsTypeCheck = false
        var parameter = firstParameter
        for (index, plan) in bindingPlans.enumerated() {
            let field = fields[plan.field]
            let bytes = base + field.start
            let count = field.count
            let code: Int32
            if count == 0 && emptyIsNull && field.flags & CSVReader.quotedFlag == 0 {
                code = sqlite3_bind_null(statement, parameter)
            } else {
                switch plan.binding {
                case .text:
                    code = bindText(statement, parameter, bytes, count)
                case .number, .inferredNumber:
                    switch CSVNumberParser.classify(bytes, count) {
                    case .integer(let value): code = sqlite3_bind_int64(statement, parameter, value)
                    case .real(let value): code = sqlite3_bind_double(statement, parameter, value)
                    case .text:
                        if plan.binding == .inferredNumber && CSVNumberParser.mightBeConvertedBySQLite(bytes, count) {
                            needsTypeCheck = true
                        }
                        code = bindText(statement, parameter, bytes, count)
                    }
                case .any:
                    code = bindUntyped(
                        statement, parameter, bytes, count, quoted: field.flags & CSVReader.quotedFlag != 0)
                }
            }
            if code != SQLITE_OK { return .failed(index) }
            parameter += 1
        }
        return .bound(needsTypeCheck: needsTypeCheck)
    }

    /// What the binding loop needs of a plan: plain values, no reference counting.
    private struct BindingPlan {
        var field: Int
        var binding: CSVBinding
    }

    /// `plans`, for the binding loop.
    private var bindingPlans = UnsafeMutableBufferPointer<BindingPlan>(start: nil, count: 0)

    /// A field of a column without affinity: the field's syntax decides. Quoted fields are text.
    private func bindUntyped(
        _ statement: OpaquePointer, _ parameter: Int32, _ bytes: UnsafeMutablePointer<UInt8>, _ count: Int, quoted: Bool
    ) -> Int32 {
        if quoted { return bindText(statement, parameter, bytes, count) }
        if let decoded = CSVBlobLiteral.decode(bytes, count, into: &blob) {
            guard decoded else { return sqlite3_bind_zeroblob(statement, parameter, 0) }
            return blob.withUnsafeBytes {
                sqlite3_bind_blob64(statement, parameter, $0.baseAddress, UInt64($0.count), slate_sqlite_transient())
            }
        }
        switch CSVNumberParser.classify(bytes, count) {
        case .integer(let value): return sqlite3_bind_int64(statement, parameter, value)
        case .real(let value): return sqlite3_bind_double(statement, parameter, value)
        case .text: return bindText(statement, parameter, bytes, count)
        }
    }

    @inline(__always)
    private func bindText(
        _ statement: OpaquePointer, _ parameter: Int32, _ bytes: UnsafeMutablePointer<UInt8>, _ count: Int
    ) -> Int32 {
        // SQLITE_STATIC: the bytes stay in the reader's buffer until the row is inserted (the
        // reader calls `flush` before it moves them).
        bytes.withMemoryRebound(to: CChar.self, capacity: count) {
            sqlite3_bind_text64(statement, parameter, $0, UInt64(count), slate_sqlite_static(), UInt8(SQLITE_UTF8))
        }
    }

    private func isConvertibleText(_ field: CSVReader.Field, in reader: CSVReader) -> Bool {
        guard field.count > 0 else { return false }
        let bytes = reader.buffer + field.start
        guard case .text = CSVNumberParser.classify(bytes, field.count) else { return false }
        return CSVNumberParser.mightBeConvertedBySQLite(bytes, field.count)
    }

    /// After inserting a row into a table whose types were inferred: whether SQLite kept every
    /// text value that it might have converted as text. When it did not (`007` in an `INTEGER`
    /// column became 7), the row is deleted and rejected.
    private func typesAreIntact(_ fields: UnsafePointer<CSVReader.Field>, line: Int, reader: CSVReader) throws -> Bool {
        let rowID = sqlite3_last_insert_rowid(db.handle)
        for (index, plan) in plans.enumerated()
        where plan.binding == .inferredNumber && isConvertibleText(fields[plan.field], in: reader) {
            let check = try typeCheck(for: index)
            try check.bindInt64(rowID, at: 1)
            let kept = try check.step() && sqlite3_column_int64(check.handle, 0) == 1
            check.resetQuietly()
            if !kept {
                let delete = try db.prepare(sql: "DELETE FROM \(target.table.quotedIdentifier) WHERE rowid = ?")
                try delete.bindInt64(rowID, at: 1)
                try delete.run()
                try reject(
                    .typeConflict(value: reader.string(of: fields[plan.field]), inferredType: plan.declaredType),
                    fields: fields,
                    line: line, column: plan.field + 1, reader: reader)
                return false
            }
        }
        return true
    }

    private func typeCheck(for index: Int) throws -> Statement {
        if let statement = typeChecks[index] { return statement }
        let statement = try db.prepare(
            sql:
                "SELECT typeof(\(plans[index].column.quotedIdentifier)) = 'text' FROM \(target.table.quotedIdentifier) WHERE rowid = ?"
        )
        typeChecks[index] = statement
        return statement
    }

    private func sqliteError(code: Int32, sql: String) -> DatabaseError {
        let extended = sqlite3_extended_errcode(db.handle)
        let sameFailure = extended & 0xFF == code & 0xFF
        return DatabaseError(
            resultCode: ResultCode(rawValue: sameFailure ? extended : code),
            message: sameFailure ? String(cString: sqlite3_errmsg(db.handle)) : String(cString: sqlite3_errstr(code)),
            sql: sql)
    }

    /// The field whose column a constraint message names: `NOT NULL constraint failed: t.name`,
    /// `UNIQUE constraint failed: t.a, t.b` (the first), `CHECK constraint failed: n >= 0` (the
    /// expression's first word).
    private func column(namedIn message: String) -> Int? {
        guard let colon = message.range(of: "failed: ") else { return nil }
        let first = message[colon.upperBound...].split(separator: ",").first.map(String.init) ?? ""
        let qualified = first.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        let name = qualified.split(separator: ".").last.map(String.init) ?? ""
        let key = CSVColumnNaming.asciiLowercased(name)
        return plans.first { CSVColumnNaming.asciiLowercased($0.column) == key }?.field
    }

    // MARK: Bad rows

    private func error(for problem: CSVReader.Problem, in reader: CSVReader) -> CSVError {
        switch problem {
        case .textAfterClosingQuote(let field):
            return CSVError(.textAfterClosingQuote, file: path, line: reader.line, column: field, row: reader.excerpt())
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
            return CSVError(
                .invalidEncoding(detail), file: path, line: reader.line, column: field, row: reader.excerpt())
        }
    }

    /// Rejects the current record.
    private func reject(_ reader: CSVReader, _ reason: CSVError.Reason, column: Int?) throws {
        try reject(CSVError(reason, file: path, line: reader.line, column: column, row: reader.excerpt()))
    }

    /// Rejects a row read earlier, waiting in a batch.
    private func reject(
        _ reason: CSVError.Reason, fields: UnsafePointer<CSVReader.Field>, line: Int, column: Int?, reader: CSVReader
    ) throws {
        try reject(
            CSVError(reason, file: path, line: line, column: column, row: reader.excerpt(of: fields, count: rowWidth)))
    }

    /// Throws `error`, or records the row as skipped with ``CSVBadRowPolicy/skip``.
    private func reject(_ error: CSVError) throws {
        var error = error
        if error.columnName == nil, let column = error.column {
            error.columnName = plans.first { $0.field == column - 1 }?.column
        }
        guard options.badRows == .skip else { throw error }
        skippedRowCount += 1
        if skippedRows.count < options.maximumReportedSkippedRows {
            skippedRows.append(
                CSVSkippedRow(line: error.line ?? 0, column: error.column, reason: error.message, row: error.row ?? ""))
        }
    }

    // MARK: Progress

    private func reportProgress(_ reader: CSVReader, force: Bool) throws {
        lastReportedRefill = reader.refillCount
        if Task.isCancelled {
            throw CSVError(.cancelled, file: path, line: reader.line)
        }
        guard let progress else { return }
        let report = CSVImportProgress(
            bytesRead: reader.input.bytesRead, totalBytes: reader.input.fileSize, rowsImported: rowsImported,
            rowsSkipped: skippedRowCount)
        if progress(report) == .cancel && !force {
            throw CSVError(.cancelled, file: path, line: reader.line)
        }
    }
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
