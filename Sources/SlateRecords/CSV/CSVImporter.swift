import CSQLite
import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

/// One import: the state between the file, the reader and the `INSERT`.
///
/// More than 15 stored properties, on purpose: an import is one pass over a file whose state
/// (counts for the result, the prepared statements and the batch waiting for them, raw storage for
/// the pending rows) lives as long as the pass and is touched per row; the table and the binding
/// are in `CSVTableInspector` and `CSVRowBinder`.
final class CSVImporter {
    private let db: Database
    private let url: URL
    private let target: CSVImportTarget
    private let options: CSVImportOptions
    private let progress: ((CSVImportProgress) -> CSVImportDecision)?
    private let chunkSize: Int

    private var ownsTransaction = false
    /// What the import began through the transaction engine: a transaction, or a savepoint inside
    /// the caller's transaction; `nil` once committed or rolled back.
    private var transaction: Database.OpenedScope?
    private var rowsImported = 0
    private var committedRows = 0
    private var skippedRowCount = 0
    private var skippedRows: [CSVSkippedRow] = []
    private var createdTable = false
    /// The target table's columns, generated ones included.
    private var columns: [CSVTableColumn] = []
    /// Reads the target table's columns, keys and checks from SQLite.
    private let inspector: CSVTableInspector
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

    private static let savepointName = "slate_csv_import"

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
        self.inspector = CSVTableInspector(db: database, table: target.table)
    }

    private var path: String { url.path }

    // MARK: Running

    func run() throws -> CSVImportResult {
        let delimiter = try options.validatedDelimiter(table: target.table, file: path)
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
    //
    // Through the core's one transaction engine: a transaction of the import's own (`BEGIN
    // IMMEDIATE`), or a savepoint when the caller's transaction is open.

    private func begin() throws {
        ownsTransaction = !db.isInTransaction
        transaction = try database {
            try db.begin(ownsTransaction ? .transaction(.immediate) : .savepoint(Self.savepointName))
        }
    }

    private func commit() throws {
        guard let transaction else { return }
        // When the commit fails, `transaction` stays for `rollback()`.
        try database { try db.commitAndNotify(transaction) }
        self.transaction = nil
        committedRows = rowsImported
    }

    /// Commits the rows so far and starts a new transaction, with ``CSVImportOptions/rowsPerTransaction``.
    private func commitBatch() throws {
        try commit()
        try begin()
    }

    /// Rolls back what the import wrote; throws when SQLite refuses.
    private func rollback() throws {
        insert?.resetQuietly()
        batchInsert?.resetQuietly()
        for statement in typeChecks.values { statement.resetQuietly() }
        guard let transaction else { return }
        self.transaction = nil
        if let failure = db.rollBack(transaction).first { throw failure }
    }

    /// `body`'s value; a ``DatabaseError`` becomes a ``CSVError``.
    private func database<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw CSVError(.database(error), file: path)
        }
    }

    // MARK: The table

    /// Finds or creates the table, matches the file's fields with its columns, and prepares the
    /// `INSERT` (when the number of fields is known: from the header, or the first row).
    private func prepareTable(header: [String]?, delimiter: UInt8) throws {
        var columns = try inspector.columns()
        if columns.isEmpty {
            guard options.createsMissingTable else { throw CSVError(.tableNotFound, file: path) }
            if let create = target.create {
                try create(db)
            } else {
                try createInferredTable(header: header, delimiter: delimiter)
            }
            createdTable = true
            columns = try inspector.columns()
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
            var byKey: [String: CSVTableColumn] = [:]
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
        binder = CSVRowBinder(plans: plans, emptyFieldsAreNull: options.emptyFieldsAreNull)
        rowWidth = fieldCount

        // The batch: as many rows as SQLite's parameter limit allows, up to 50 (beyond, the gain
        // is small).
        let parameterLimit = inspector.parameterLimit
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

    private func plan(field: Int, column: CSVTableColumn) -> CSVColumnPlan {
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
    /// Binds the rows' fields to the `INSERT`s' parameters (made with the plans).
    private var binder: CSVRowBinder?

    deinit {
        pendingFields?.deallocate()
        pendingLines?.deallocate()
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
        guard let binder else { return false }
        let columns = Int32(plans.count)
        for row in 0..<batchRows {
            // A row that fails to bind, or needs its types checked, goes through the one-row path.
            guard
                case .bound(needsTypeCheck: false) = binder.bind(
                    fields + row * rowWidth, to: statement, firstParameter: Int32(row) * columns + 1,
                    buffer: reader.buffer)
            else {
                sqlite3_reset(statement)
                return false
            }
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            let error = DatabaseError.lastError(of: db.handle, code: code, sql: batchInsertSQL)
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
        guard let statement = insert?.handle, let binder else { return }
        let checkingTypes: Bool
        switch binder.bind(fields, to: statement, firstParameter: 1, buffer: reader.buffer) {
        case .bound(let needsTypeCheck):
            checkingTypes = needsTypeCheck
        case .failed(let index):
            let error = DatabaseError.lastError(of: db.handle, code: sqlite3_errcode(db.handle), sql: insertSQL)
            sqlite3_reset(statement)
            try reject(.database(error), fields: fields, line: line, column: plans[index].field + 1, reader: reader)
            return
        }
        let code = sqlite3_step(statement)
        if code != SQLITE_DONE {
            let error = DatabaseError.lastError(of: db.handle, code: code, sql: insertSQL)
            sqlite3_reset(statement)
            guard Self.rowLevelFailures.contains(error.resultCode) else {
                throw CSVError(
                    .database(error), file: path, line: line, row: reader.excerpt(of: fields, count: rowWidth))
            }
            try reject(
                .database(error), fields: fields, line: line,
                column: try constraintField(of: error, fields: fields, reader: reader).map { $0 + 1 }, reader: reader)
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

    /// The field (0-based) of the column whose constraint the row broke, as the table inspector
    /// tells it from SQLite's schema, or `nil`.
    private func constraintField(
        of error: DatabaseError, fields: UnsafePointer<CSVReader.Field>, reader: CSVReader
    ) throws -> Int? {
        try database {
            try inspector.constraintColumn(
                of: error, plans: plans, columns: columns,
                isNull: { plan in
                    let field = fields[plan.field]
                    return field.count == 0 && options.emptyFieldsAreNull && field.flags & CSVReader.quotedFlag == 0
                },
                text: { reader.string(of: fields[$0.field]) })?.field
        }
    }

    // MARK: Bad rows

    private func error(for problem: CSVReader.Problem, in reader: CSVReader) -> CSVError {
        CSVError(problem, in: reader, file: path)
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
