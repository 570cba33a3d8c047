import CSQLite
import Foundation
import Slate

/// CSV import: a generated file of 1,000,000 rows x 6 columns (about 57 MB) loaded into a table,
/// by Slate and by the `sqlite3` shell's `.import`, in the same run.
///
/// The file (written once, untimed) mixes integers, reals, ZIP codes with leading zeros, text with
/// quoted commas, doubled quotes and line breaks inside quotes, empty fields and non-ASCII text,
/// with CRLF line endings and a header row. Contenders, each into a fresh database file:
///
/// - `sqlite3-shell`, the baseline: `sqlite3 DB ".import --csv --skip 1 FILE t"` into the table
///   created beforehand (untimed) with the types below; the shell binds every field as text and
///   SQLite's column affinities convert them. Timed: the whole child process.
/// - `slate-infer`: `db.importCSV(from:into: "t")` with no table: Slate reads the first 10,000
///   rows to infer the types, creates the table, then imports. Timed: opening the connection, both
///   passes, closing.
/// - `slate-existing`: the same into the table created beforehand (untimed).
///
/// Every iteration is verified by aggregates read back from the file: the row count, sums of
/// every numeric column, the storage class of every value (so a ZIP code stored as an integer
/// fails), text lengths, the quotes, commas and line breaks kept inside fields, and an
/// order-sensitive sum.
///
/// Peak memory: for the in-process contenders, the resident set's peak during the import minus
/// the resident set once the fixture was ready (see `Memory`); for the shell, its peak resident
/// set minus that of the same command importing a one-row file (its fixed footprint, measured
/// once).
enum CSVImport {
    static let scenario = Scenario(
        name: "csv-import-1m",
        summary:
            "import a 1,000,000-row x 6-column CSV (~57 MB, quoted fields, mixed types): Slate vs the sqlite3 shell's .import",
        countsInstructions: false
    ) { context in
        try Fixture(context).prepared
    }

    static let createTable = "CREATE TABLE t(id INTEGER, name TEXT, zip TEXT, price REAL, quantity INTEGER, note TEXT)"

    static let verificationSQL = """
        SELECT count(*), sum(id), sum(quantity), sum(CAST(round(price * 100) AS INTEGER)), sum(CAST(zip AS INTEGER)),
        sum(length(name)), sum(length(note)), sum(typeof(id) = 'integer'), sum(typeof(name) = 'text'),
        sum(typeof(zip) = 'text'), sum(typeof(price) = 'real'), sum(typeof(quantity) = 'integer'),
        sum(typeof(note) = 'text'), sum((rowid % 997) * quantity), sum(instr(note, char(10)) > 0),
        sum(instr(name, '"') > 0), sum(instr(name, ',') > 0) FROM t
        """

    /// The `sqlite3` shell: `SLATE_BENCH_SQLITE3`, or the first `sqlite3` on the `PATH`.
    static func locateShell() throws -> String {
        if let path = ProcessInfo.processInfo.environment["SLATE_BENCH_SQLITE3"] { return path }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for directory in directories {
            let path = "\(directory)/sqlite3"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw HarnessError(
            "csv-import: the sqlite3 shell is not on the PATH (apt-get install sqlite3, or set SLATE_BENCH_SQLITE3)")
    }

    /// One generated row.
    struct Row {
        var id: Int
        var name: String
        var zip: String
        var priceCents: Int
        var quantity: Int
        var note: String

        init(_ index: Int) {
            var bits = UInt64(index) &* 0x9E37_79B9_7F4A_7C15  // SplitMix64
            bits = (bits ^ (bits >> 30)) &* 0xBF58_476D_1CE4_E5B9
            bits = (bits ^ (bits >> 27)) &* 0x94D0_49BB_1331_11EB
            bits ^= bits >> 31
            id = index + 1
            switch bits % 20 {
            case 0, 1: name = "Widget, size \((bits >> 8) % 97)"
            case 2: name = "The \"best\" \((bits >> 8) % 89)"
            default: name = "Item \((bits >> 16) % 100_000) blue"
            }
            let zipDigits = String((bits >> 20) % 100_000)
            zip = String(repeating: "0", count: 5 - zipDigits.count) + zipDigits  // leading zeros: TEXT
            priceCents = Int((bits >> 32) % 100_000)
            quantity = Int((bits >> 40) % 201) - 100
            switch (bits >> 48) % 16 {
            case 0: note = "line one\nline two \((bits >> 52) % 1000)"
            case 1...5: note = ""
            case 6: note = "café \((bits >> 52) % 1000)"
            default: note = "note \((bits >> 50) % 10_000) lorem ipsum"
            }
        }

        /// The row as a CSV line, CRLF-terminated.
        var line: String {
            let cents = priceCents % 100
            let price = "\(priceCents / 100).\(cents < 10 ? "0" : "")\(cents)"
            return [String(id), Self.field(name), zip, price, String(quantity), Self.field(note)].joined(separator: ",")
                + "\r\n"
        }

        static func field(_ text: String) -> String {
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    /// Writes the file and returns the checksum every import must produce.
    static func generate(rows: Int, to path: String) throws -> Checksum {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let file = FileHandle(forWritingAtPath: path)
        else { throw HarnessError("cannot create \(path)") }
        defer { try? file.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        buffer.append(contentsOf: "id,name,zip,price,quantity,note\r\n".utf8)
        var sums = [Int64](repeating: 0, count: 16)
        for index in 0..<rows {
            let row = Row(index)
            buffer.append(contentsOf: row.line.utf8)
            if buffer.count >= 1 << 20 {
                try file.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
            let values: [Int] = [
                row.id, row.quantity, row.priceCents, Int(row.zip) ?? 0, row.name.unicodeScalars.count,
                row.note.unicodeScalars.count, 1, 1, 1, 1, 1, 1, ((index + 1) % 997) * row.quantity,
                row.note.contains("\n") ? 1 : 0, row.name.contains("\"") ? 1 : 0, row.name.contains(",") ? 1 : 0,
            ]
            for (slot, value) in values.enumerated() { sums[slot] += Int64(value) }
        }
        try file.write(contentsOf: buffer)
        return Checksum(rows: rows, values: sums)
    }

    final class Fixture {
        let shell: String
        let rows: Int
        let csvURL: URL
        let databasePath: String
        let expected: Checksum
        /// The shell's peak resident set when importing a one-row file: its fixed footprint.
        private(set) var shellFootprint = 0
        /// This process's resident set once the fixture is ready, before any import: the in-process
        /// contenders' peaks are measured from it, so memory an earlier import freed but the
        /// allocator kept still counts.
        private(set) var residentBaseline: Int?

        init(_ context: BenchmarkContext) throws {
            shell = try CSVImport.locateShell()
            rows = context.size(full: 1_000_000, quick: 50_000)
            csvURL = context.directory.appendingPathComponent("data.csv")
            databasePath = context.path("import.sqlite")
            expected = try CSVImport.generate(rows: rows, to: csvURL.path)

            let tiny = context.path("tiny.csv")
            _ = try CSVImport.generate(rows: 1, to: tiny)
            removeDatabase()
            try RawConnection(path: databasePath).execute(CSVImport.createTable)
            let (status, peak) = try Memory.run(shell, [databasePath, ".import --csv --skip 1 '\(tiny)' t"])
            guard status == 0 else {
                throw HarnessError("csv-import: the sqlite3 shell failed on a one-row file (\(status))")
            }
            shellFootprint = peak
            residentBaseline = Memory.reset()
        }

        var prepared: PreparedScenario {
            PreparedScenario(
                rows: rows, expected: expected,
                contenders: [
                    Contender("sqlite3-shell", shellImport),
                    Contender("slate-infer", slateInfer),
                    Contender("slate-existing", slateExisting),
                ],
                baseline: "sqlite3-shell")
        }

        func removeDatabase() {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: databasePath + suffix)
            }
        }

        /// Reads the aggregates back with the C API once the contender is done.
        func verify() throws -> Checksum {
            let values = try RawConnection(path: databasePath, readOnly: true).integers(CSVImport.verificationSQL)
            return Checksum(rows: Int(values[0]), values: Array(values.dropFirst()))
        }

        // MARK: Contenders

        func shellImport(_ stopwatch: Stopwatch) throws -> Checksum {
            removeDatabase()
            try RawConnection(path: databasePath).execute(CSVImport.createTable)
            let (status, peak) = try stopwatch.measure {
                try Memory.run(shell, [databasePath, ".import --csv --skip 1 '\(csvURL.path)' t"])
            }
            guard status == 0 else { throw HarnessError("csv-import: the sqlite3 shell exited with status \(status)") }
            stopwatch.recordPeakMemory(bytes: max(0, peak - shellFootprint))
            return try verify()
        }

        /// One in-process import, timed from opening the connection to closing it.
        private func slateIteration(_ stopwatch: Stopwatch, createTable: Bool) throws -> Checksum {
            removeDatabase()
            if createTable { try RawConnection(path: databasePath).execute(CSVImport.createTable) }
            _ = Memory.reset()
            let imported = try stopwatch.measure {
                let db = try Slate.Database(path: databasePath)
                let result = try db.importCSV(from: csvURL, into: "t")
                try db.close()
                return result.rowsImported
            }
            if let residentBaseline, let peak = Memory.highWaterMark() {
                stopwatch.recordPeakMemory(bytes: max(0, peak - residentBaseline))
            }
            guard imported == rows else {
                throw HarnessError("csv-import: imported \(imported) rows, expected \(rows)")
            }
            return try verify()
        }

        func slateInfer(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch, createTable: false)
        }

        func slateExisting(_ stopwatch: Stopwatch) throws -> Checksum {
            try slateIteration(stopwatch, createTable: true)
        }
    }
}
