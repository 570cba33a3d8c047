import Foundation
import SlateConcurrency
import SlateCore
import SlateQuery

// The typed import: a thin layer over the untyped engine. It only needs a table type's name, its
// column names (to restrict and match the file's fields) and a way to create the table; the
// values are bound by the engine from the table's real column affinities.

extension Database {
    /// Imports the rows of a CSV file into the table of a ``Table`` type, creating the table from
    /// the type's declaration when it does not exist. A ``SelfManagingTable`` creates or migrates
    /// its table first, as before any write.
    ///
    /// Fields are matched with the type's columns (``TableSchema/recordColumns``) by the header row,
    /// case-insensitively, or by position (in the order of the type's columns) without one or with
    /// ``CSVColumnMatching/byPosition``. A header that names no column of the type is an error;
    /// columns the file does not have get their defaults. Everything else, from transactions to
    /// errors, is as in ``importCSV(from:into:options:progress:)-(_,String,_,_)``.
    ///
    /// ```swift
    /// try db.importCSV(from: URL(fileURLWithPath: "artists.csv"), into: Artist.self)
    /// let artists = try Artist.all().fetchAll(db)
    /// ```
    @discardableResult
    public func importCSV<Record: Table>(
        from url: URL,
        into type: Record.Type,
        options: CSVImportOptions = CSVImportOptions(),
        progress: ((CSVImportProgress) -> CSVImportDecision)? = nil
    ) throws -> CSVImportResult {
        try Record.prepareForWriting(self)
        let target = CSVImportTarget(
            table: Record.tableName,
            allowedColumns: Record.schema.recordColumns.map(\.name),
            create: { db in try db.createTable(for: Record.self) })
        return try CSVImporter(database: self, url: url, target: target, options: options, progress: progress).run()
    }
}

extension Database {
    /// Writes every row of a ``Table`` type's table to a CSV file: its columns, in the order of
    /// ``TableSchema/recordColumns``, with their names in the header row. See
    /// ``exportCSV(sql:arguments:to:options:)``.
    @discardableResult
    public func exportCSV<Record: Table>(
        _ type: Record.Type, to url: URL, options: CSVExportOptions = CSVExportOptions()
    ) throws -> CSVExportResult {
        let columns = Record.schema.recordColumns.map(\.name.quotedIdentifier).joined(separator: ", ")
        return try exportCSV(
            sql: "SELECT \(columns) FROM \(Record.tableName.quotedIdentifier)", to: url, options: options)
    }
}
