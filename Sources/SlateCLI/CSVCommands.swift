import ArgumentParser
import Foundation
import Slate

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `slate import`: a CSV file into a table.
struct ImportCSV: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a CSV file into a table of a SQLite database.",
        discussion: """
            A missing table is created with INTEGER, REAL or TEXT columns inferred from the file \
            (values with leading zeros stay TEXT). An existing table gets each field in the column its \
            header names, or by position with --by-position or --no-header. The import is one \
            transaction: a bad row rolls everything back and is reported with its line, column and \
            text, unless --skip-bad-rows is given. Progress goes to standard error: a bar on a terminal, \
            plain lines otherwise. Exit status: 0 on success, 1 on failure.

            Examples:
              slate import cities.csv --into app.sqlite
              slate import export.csv --into app.sqlite --table sale --delimiter ";" --null-empty
              slate import data.tsv --into app.sqlite --delimiter tab --no-header --skip-bad-rows
            """)

    @Argument(help: "The CSV file.", completion: .file())
    var file: String

    @Option(name: .long, help: "The SQLite database file (created when missing).", completion: .file())
    var into: String

    @Option(name: .long, help: "The table. Default: the file's name without its extension.")
    var table: String?

    @Option(name: .long, help: "The field delimiter: one ASCII character, or `tab`. Default: `,`.")
    var delimiter: String = ","

    @Flag(name: .long, help: "The file has no header row: fields fill the columns in order.")
    var noHeader = false

    @Flag(name: .long, help: "Match fields with the table's columns by position, not by the header's names.")
    var byPosition = false

    @Option(
        name: .long,
        help: "auto (UTF-8, or UTF-16 with a byte order mark), utf8, utf16le, utf16be or latin1. Default: auto.")
    var encoding: String = "auto"

    @Flag(name: .long, help: "Store empty unquoted fields as NULL (a quoted \"\" stays an empty string).")
    var nullEmpty = false

    @Flag(name: .long, help: "Leave out rows that cannot be imported and list them, instead of failing.")
    var skipBadRows = false

    @Option(name: .long, help: "How many rows decide the column types of a new table, or `all`. Default: 10000.")
    var inferRows: String?

    @Flag(name: .long, help: "Fail when the table does not exist, instead of creating it.")
    var noCreate = false

    @Flag(name: .long, help: "No progress output.")
    var quiet = false

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let progress = ProgressReporter(enabled: !quiet)
        defer { progress.endLine() }
        do {
            let options = try importOptions()
            let tableName = table ?? url.deletingPathExtension().lastPathComponent
            let db = try Database(path: into)
            let started = Date()
            let result = try db.importCSV(from: url, into: tableName, options: options) { report in
                progress.update(report)
                return .continue
            }
            progress.finish()
            progress.endLine()
            try db.close()
            let seconds = Date().timeIntervalSince(started)
            var summary =
                "imported \(result.rowsImported) rows into \"\(result.table)\" of \(into) in "
                + String(format: "%.2f", seconds) + " s"
            if result.createdTable {
                summary +=
                    "; created the table: "
                    + result.columns.map { "\($0.name) \($0.declaredType)" }.joined(separator: ", ")
            }
            print(summary)
            if result.skippedRowCount > 0 {
                printError("skipped \(result.skippedRowCount) rows:")
                for row in result.skippedRows {
                    printError("  \(url.path):\(row.line): \(row.reason) — row: \(row.row)")
                }
                if result.skippedRowCount > result.skippedRows.count {
                    printError("  … and \(result.skippedRowCount - result.skippedRows.count) more")
                }
            }
        } catch let error as CSVError {
            printError("slate import: error: \(error)")
            throw ExitCode.failure
        } catch let error as DatabaseError {
            printError("slate import: error: \(into): \(error)")
            throw ExitCode.failure
        } catch let error as CSVCommandError {
            printError("slate import: error: \(error.message)")
            throw ExitCode.failure
        }
    }

    private func importOptions() throws -> CSVImportOptions {
        var options = CSVImportOptions()
        options.delimiter = try parseDelimiter(delimiter)
        options.hasHeaderRow = !noHeader
        options.columnMatching = byPosition ? .byPosition : .byName
        options.emptyFieldsAreNull = nullEmpty
        options.badRows = skipBadRows ? .skip : .fail
        options.createsMissingTable = !noCreate
        switch encoding.lowercased() {
        case "auto": options.encoding = .automatic
        case "utf8", "utf-8": options.encoding = .utf8
        case "utf16le", "utf-16le": options.encoding = .utf16LittleEndian
        case "utf16be", "utf-16be": options.encoding = .utf16BigEndian
        case "latin1", "latin-1", "iso-8859-1": options.encoding = .latin1
        default: throw CSVCommandError("unknown encoding \"\(encoding)\": use auto, utf8, utf16le, utf16be or latin1")
        }
        if let inferRows {
            if inferRows.lowercased() == "all" {
                options.inferenceSampleSize = nil
            } else if let rows = Int(inferRows), rows >= 0 {
                options.inferenceSampleSize = rows
            } else {
                throw CSVCommandError("--infer-rows takes a number of rows or `all`, not \"\(inferRows)\"")
            }
        }
        return options
    }
}

/// `slate export`: a table or a query into a CSV file.
struct ExportCSV: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a table or a query of a SQLite database to a CSV file.",
        discussion: """
            Writes RFC 4180 CSV with a header row and CRLF line endings. NULL is an empty field and an \
            empty string is "", so `slate import --null-empty` reads the file back identically; blobs \
            are written as X'0A1B'. The database is opened read-only. Exit status: 0 on success, 1 on \
            failure.

            Examples:
              slate export --from app.sqlite --table city --output cities.csv
              slate export --from app.sqlite --query "SELECT name, total FROM invoice" --output invoices.csv
            """)

    @Option(name: .long, help: "The SQLite database file.", completion: .file())
    var from: String

    @Option(name: .long, help: "The table to export.")
    var table: String?

    @Option(name: .long, help: "The SELECT statement to export.")
    var query: String?

    @Option(
        name: [.short, .long],
        help: "The CSV file to write, or - for standard output. A device or FIFO is written in place.",
        completion: .file())
    var output: String

    @Option(name: .long, help: "The field delimiter: one ASCII character, or `tab`. Default: `,`.")
    var delimiter: String = ","

    @Flag(name: .long, help: "Leave out the header row.")
    var noHeader = false

    @Flag(name: .long, help: "End lines with LF instead of CRLF.")
    var lf = false

    func validate() throws {
        if (table == nil) == (query == nil) {
            throw ValidationError("give either --table or --query")
        }
    }

    func run() throws {
        do {
            var options = CSVExportOptions()
            options.delimiter = try parseDelimiter(delimiter)
            options.includesHeaderRow = !noHeader
            options.lineEnding = lf ? .lf : .crlf
            var configuration = Database.Configuration()
            configuration.isReadOnly = true
            let db = try Database(path: from, configuration: configuration)
            // `-` is standard output; the summary then goes to standard error.
            let url = URL(fileURLWithPath: output == "-" ? "/dev/stdout" : output)
            let result =
                if let table {
                    try db.exportCSV(table: table, to: url, options: options)
                } else {
                    try db.exportCSV(sql: query ?? "", to: url, options: options)
                }
            let summary = "exported \(result.rowCount) rows (\(result.byteCount) bytes) to \(output)"
            if output == "-" { printError(summary) } else { print(summary) }
        } catch let error as CSVError {
            printError("slate export: error: \(error)")
            throw ExitCode.failure
        } catch let error as DatabaseError {
            printError("slate export: error: \(from): \(error)")
            throw ExitCode.failure
        } catch let error as CSVCommandError {
            printError("slate export: error: \(error.message)")
            throw ExitCode.failure
        }
    }
}

struct CSVCommandError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// `,`, `;`, `|`…, or `tab` / `\t` for a tab.
private func parseDelimiter(_ text: String) throws -> Character {
    if text == "tab" || text == "\\t" { return "\t" }
    guard text.count == 1, let character = text.first, character.isASCII, character != "\"", character != "\n",
        character != "\r\n",
        character != "\r"
    else {
        throw CSVCommandError(
            "the delimiter must be one ASCII character other than a quote or a line break (or `tab`), not \"\(text)\"")
    }
    return character
}

private func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Import progress on standard error: a bar redrawn in place on a terminal, a line per tenth of
/// the file otherwise.
final class ProgressReporter {
    private let enabled: Bool
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var lastDraw = Date.distantPast
    private var lastTenth = -1
    private var drewBar = false
    private var last: CSVImportProgress?

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ progress: CSVImportProgress) {
        last = progress
        guard enabled else { return }
        if isTerminal {
            let now = Date()
            guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            draw(progress)
        } else if let fraction = progress.fractionCompleted {
            // 100% is printed by `finish()`, with the final counts.
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth, tenth < 10 else { return }
            lastTenth = tenth
            printError("progress: \(tenth * 10)% — \(progress)")
        }
    }

    /// Shows the final report: the rows of the last batch are only counted once it is inserted.
    func finish() {
        guard enabled, let last else { return }
        if isTerminal {
            draw(last)
        } else {
            printError("progress: 100% — \(last)")
        }
    }

    /// Ends the bar's line, if one was drawn, so that what follows starts on a new line.
    func endLine() {
        guard drewBar else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        drewBar = false
    }

    private func draw(_ progress: CSVImportProgress) {
        let width = 30
        let fraction = progress.fractionCompleted ?? 0
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let megabytes = String(format: "%.1f", Double(progress.bytesRead) / 1_048_576)
        let total = progress.totalBytes.map { " / " + String(format: "%.1f", Double($0) / 1_048_576) } ?? ""
        var line =
            "\r[\(bar)] \(String(format: "%3d", Int(fraction * 100)))%  \(progress.rowsImported) rows  \(megabytes)\(total) MB"
        if progress.rowsSkipped > 0 { line += "  \(progress.rowsSkipped) skipped" }
        FileHandle.standardError.write(Data(line.utf8))
        drewBar = true
    }
}
