import Foundation

/// Code generation: `slate generate SCHEMA.sql --output FILE.swift` on a synthetic schema, timed as
/// a whole process run (start, reading the schema into an in-memory SQLite database, generating,
/// writing the file).
///
/// The generator library (`SlateGenerator`) is not a product of the Slate package, so the harness
/// cannot call it in-process; it runs the generator's tool instead: the `SlateGenerateTool`
/// executable that SwiftPM builds for SlateBuildPlugin, in the harness's own configuration (`-O` in
/// release), next to `slate-bench` as `SlateGenerateTool-tool` (`SLATE_CLI=/path/to/slate`
/// overrides it). There is no C API equivalent, so these scenarios have
/// no `raw` baseline: their ratios are `-` in the table and `null` in the JSON.
///
/// Verified every iteration: the output file is deleted first (the tool skips writing an unchanged
/// file), and the new one must be byte-for-byte the reference output of an untimed first run, which
/// itself must hold one column entry (`, type: "`) per column and one `static let schema = TableSchema(`
/// per table.
enum Codegen {
    static let manyTables = Scenario(
        name: "codegen-1000x20",
        summary: "slate generate on a .sql schema of 1,000 tables x 20 columns (whole process; no raw baseline)",
        countsInstructions: false
    ) { context in
        try Fixture(context, tables: context.size(full: 1_000, quick: 200), columnsPerTable: 20).prepared
    }

    static let wideTable = Scenario(
        name: "codegen-500-columns",
        summary: "slate generate on a .sql schema of one table of 500 columns (whole process; no raw baseline)",
        countsInstructions: false
    ) { context in
        try Fixture(context, tables: 1, columnsPerTable: 500).prepared
    }

    /// Column types cycled through, so the generator maps every affinity, defaults, NOT NULL, dates,
    /// booleans and parameterized types. `id INTEGER PRIMARY KEY` comes first, and from the second
    /// table on, `parent_id` references the previous table.
    static let columnTypes = [
        "INTEGER NOT NULL DEFAULT 0", "TEXT", "REAL", "TEXT NOT NULL DEFAULT ''", "BLOB", "DATETIME",
        "BOOLEAN NOT NULL DEFAULT 0", "NUMERIC", "VARCHAR(40)", "INTEGER", "DOUBLE NOT NULL DEFAULT 1.5",
    ]

    /// `CREATE TABLE` statements for `tables` tables of `columnsPerTable` columns each.
    static func schema(tables: Int, columnsPerTable: Int) -> String {
        var sql = "-- Synthetic schema for the codegen benchmark: \(tables) tables x \(columnsPerTable) columns.\n"
        for table in 1...tables {
            var columns = ["id INTEGER PRIMARY KEY"]
            if table > 1 { columns.append("parent_id INTEGER REFERENCES \(tableName(table - 1))(id)") }
            var index = 0
            while columns.count < columnsPerTable {
                columns.append("field_\(index)_value \(columnTypes[(table + index) % columnTypes.count])")
                index += 1
            }
            sql += "CREATE TABLE \(tableName(table)) (\n    " + columns.joined(separator: ",\n    ") + "\n);\n"
        }
        return sql
    }

    static func tableName(_ number: Int) -> String { "entity_\(number)_records" }

    final class Fixture {
        let tool: URL
        let schemaPath: String
        let outputPath: String
        let errorPath: String
        let tables: Int
        let columns: Int
        private(set) var expected = Checksum()

        init(_ context: BenchmarkContext, tables: Int, columnsPerTable: Int) throws {
            tool = try Codegen.locateTool()
            self.tables = tables
            columns = tables * columnsPerTable
            schemaPath = context.path("schema.sql")
            outputPath = context.path("Generated.swift")
            errorPath = context.path("stderr.txt")
            try Codegen.schema(tables: tables, columnsPerTable: columnsPerTable)
                .write(toFile: schemaPath, atomically: true, encoding: .utf8)

            // The reference output: one untimed run, checked for its shape.
            let reference = try generate(Stopwatch())
            let tableNames = try Codegen.count("static let schema = TableSchema(", inFile: outputPath)
            guard reference.rows == columns, tableNames == tables else {
                throw HarnessError(
                    "codegen: the generated code has \(reference.rows) column entries and \(tableNames) tables, "
                        + "expected \(columns) and \(tables)")
            }
            expected = reference
        }

        var prepared: PreparedScenario {
            PreparedScenario(
                rows: columns, expected: expected,
                contenders: [Contender("slate-generate", generate)],
                baseline: nil)
        }

        /// One run of `slate generate`: the timed region is the whole child process.
        func generate(_ stopwatch: Stopwatch) throws -> Checksum {
            for path in [outputPath, errorPath] { try? FileManager.default.removeItem(atPath: path) }
            guard FileManager.default.createFile(atPath: errorPath, contents: nil) else {
                throw HarnessError("cannot create \(errorPath)")
            }
            let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
            defer { try? errors.close() }
            let process = Process()
            process.executableURL = tool
            process.arguments = ["generate", schemaPath, "--output", outputPath]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try stopwatch.measure {
                try process.run()
                process.waitUntilExit()
            }
            guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
                throw HarnessError("\(tool.path) generate failed (status \(process.terminationStatus)): \(message)")
            }
            return try Codegen.checksum(ofFile: outputPath)
        }
    }

    /// The generator: `$SLATE_CLI`, else `SlateGenerateTool-tool` (the build plugin's tool, which takes
    /// the same `generate INPUT --output FILE` arguments), `SlateCLI-tool`, `SlateCLI` or `slate` next
    /// to this executable.
    static func locateTool() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["SLATE_CLI"], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw HarnessError("SLATE_CLI=\(path) is not an executable file")
            }
            return URL(fileURLWithPath: path)
        }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        for name in ["SlateGenerateTool-tool", "SlateCLI-tool", "SlateCLI", "slate"] {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HarnessError(
            """
            codegen: no SlateGenerateTool-tool, SlateCLI-tool, SlateCLI or slate executable next to \
            \(directory.path). SwiftPM builds SlateGenerateTool there for SlateBuildPlugin when it builds \
            slate-bench; or set SLATE_CLI to the slate tool.
            """)
    }

    /// The checksum of a generated file: one row per column entry of a `TableSchema` (`, type: "`), and the
    /// FNV-1a hash of every byte, so two runs agree only if their outputs are identical.
    static func checksum(ofFile path: String) throws -> Checksum {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var checksum = Checksum()
        for _ in 0..<occurrences(of: Array(", type: \"".utf8), in: bytes) { checksum.nextRow() }
        checksum.combine(bytes.count)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        checksum.mix(hash)
        return checksum
    }

    static func count(_ text: String, inFile path: String) throws -> Int {
        occurrences(of: Array(text.utf8), in: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
        guard let first = pattern.first, bytes.count >= pattern.count else { return 0 }
        var count = 0
        var index = 0
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first && bytes[index..<index + pattern.count].elementsEqual(pattern) {
                count += 1
                index += pattern.count
            } else {
                index += 1
            }
        }
        return count
    }
}
