import Foundation
import Slate
import SlateGenerator
import SlateSchema

/// Random schemas — names with quotes, spaces, keywords and Unicode; composite keys, `WITHOUT
/// ROWID`, `STRICT`, generated columns, foreign keys, indexes, views — through `slate generate`
/// (the `SlateGenerator` library), from `.sql` scripts and from database files, in every style.
///
/// The oracle: for a schema SQLite accepts, the generator writes Swift source (it never throws
/// and never crashes); a sample of the sources is type-checked against the built modules by
/// `.ci/fuzz.sh` (`--compile-sample`), which must succeed without warnings.
final class SchemaDomain {
    private let directory: URL
    /// Where sources to type-check go, and how many: the first `compileSample` cases that
    /// generated code (spread over the run by taking every case's file while there is room).
    private let output: URL?
    private let compileSample: Int
    private var written = 0

    init(output: URL?, compileSample: Int) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("slate-fuzz-schemas-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let output { try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true) }
        self.output = output
        self.compileSample = compileSample
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static let names: [String] = [
        "id", "ID", "Id", "name", "Name", "name_", "user_id", "userId", "UserID", "first name", "Order ID", "2fa",
        "1st", "_", "__x",
        "class", "self", "Self", "Type", "protocol", "init", "default", "let", "var", "func", "where", "select", "from",
        "order", "group",
        "table", "index", "key", "primaryKey", "rowid", "oid", "String", "Data", "Date", "Table", "Row", "Database",
        "Columns", "schema",
        "café", "naïve", "日本", "😀", "a\"b", "it's", "back\\slash", "a/b", "a-b", "a.b", "with space", " lead", "trail ",
        "tab\tin",
        "count", "all", "description", "hashValue", "encode", "values", "x", "y", "z", "created_at", "updatedAt",
        "is_active",
        "uuid", "token", "price", "amount", "data", "json", "status", "Status", "STATUS", "type", "kind", "Kind",
        "enum", "case",
        "Any", "AnyObject", "Optional", "nil", "true", "false", "inout", "some", "async", "await", "throws", "Error",
        "Sendable",
    ]

    static let types: [String] = [
        "INTEGER", "INT", "TEXT", "REAL", "BLOB", "NUMERIC", "BOOLEAN", "BOOL", "DATE", "DATETIME", "TIMESTAMP", "UUID",
        "JSON",
        "VARCHAR(10)", "DECIMAL(10,2)", "", "UNSIGNED BIG INT", "DOUBLE PRECISION", "my type", "CHARACTER(20)", "FLOAT",
        "BIGINT",
        "TINYINT", "CLOB", "NVARCHAR(100)", "ANY",
    ]

    static let strictTypes = ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"]

    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// A random schema script; every statement on its own line, so that ones SQLite refuses can
    /// be left out.
    static func script(_ entropy: inout Entropy) -> [String] {
        var statements: [String] = []
        var tables: [(name: String, columns: [String])] = []
        for _ in 0..<entropy.int(1...4) {
            let tableName =
                entropy.chance(0.6)
                ? entropy.pick(names) : entropy.pick(names) + entropy.pick(["s", "_2", " Table", ""])
            let strict = entropy.chance(0.2)
            var columns: [String] = []
            var definitions: [String] = []
            for _ in 0..<entropy.int(1...8) {
                let name = entropy.pick(names)
                if columns.contains(where: { $0.lowercased() == name.lowercased() }) { continue }
                columns.append(name)
                var definition = quoted(name) + " " + (strict ? entropy.pick(strictTypes) : entropy.pick(types))
                if entropy.chance(0.25) { definition += " NOT NULL" }
                if entropy.chance(0.15) {
                    definition +=
                        " DEFAULT "
                        + entropy.pick([
                            "0", "1.5", "'x'", "''", "NULL", "(1 + 2)", "CURRENT_TIMESTAMP", "x'00'", "'it''s'", "-1",
                        ])
                }
                if entropy.chance(0.08) { definition += " UNIQUE" }
                if entropy.chance(0.08) { definition += " COLLATE NOCASE" }
                if entropy.chance(0.05) { definition += " CHECK (" + quoted(name) + " IS NOT NULL)" }
                if entropy.chance(0.08), let other = columns.first, other != name {
                    definition =
                        quoted(name) + " " + entropy.pick(["INTEGER", "TEXT", "REAL", ""]) + " GENERATED ALWAYS AS ("
                        + quoted(other) + ") " + entropy.pick(["VIRTUAL", "STORED", ""])
                }
                if entropy.chance(0.08), let target = tables.randomElement(using: &entropy) {
                    definition +=
                        " REFERENCES " + quoted(target.name)
                        + (entropy.bool() ? "(" + quoted(entropy.pick(target.columns)) + ")" : "")
                }
                definitions.append(definition)
            }
            var withoutRowID = false
            switch entropy.int(0...6) {
            case 0:
                // A rowid alias, possibly not named id.
                let name = entropy.pick(["id", "key", "rowid_alias", "ID", entropy.pick(names)])
                if !columns.contains(where: { $0.lowercased() == name.lowercased() }) {
                    columns.insert(name, at: 0)
                    definitions.insert(
                        quoted(name) + " INTEGER PRIMARY KEY" + (entropy.chance(0.3) ? " AUTOINCREMENT" : ""), at: 0)
                }
            case 1, 2:
                let key = Array(columns.prefix(entropy.int(1...min(3, columns.count))))
                definitions.append("PRIMARY KEY (" + key.map(quoted).joined(separator: ", ") + ")")
                withoutRowID = entropy.chance(0.5)
            case 3:
                if let column = columns.first {
                    definitions[0] += " PRIMARY KEY" + (entropy.bool() ? " DESC" : "")
                    _ = column
                    withoutRowID = entropy.chance(0.3)
                }
            default: break
            }
            if entropy.chance(0.1), columns.count >= 2, let target = tables.randomElement(using: &entropy),
                target.columns.count >= 2
            {
                definitions.append(
                    "FOREIGN KEY (" + columns.prefix(2).map(quoted).joined(separator: ", ") + ") REFERENCES "
                        + quoted(target.name)
                        + " (" + target.columns.prefix(2).map(quoted).joined(separator: ", ") + ") ON DELETE CASCADE")
            }
            if entropy.chance(0.1) {
                definitions.append("UNIQUE (" + columns.prefix(2).map(quoted).joined(separator: ", ") + ")")
            }
            var options: [String] = []
            if withoutRowID { options.append("WITHOUT ROWID") }
            if strict { options.append("STRICT") }
            statements.append(
                "CREATE TABLE " + quoted(tableName) + " (" + definitions.joined(separator: ", ") + ")"
                    + (options.isEmpty ? "" : " " + options.joined(separator: ", ")))
            tables.append((tableName, columns))
            if entropy.chance(0.2), let column = columns.randomElement(using: &entropy) {
                statements.append(
                    "CREATE " + (entropy.chance(0.3) ? "UNIQUE " : "") + "INDEX "
                        + quoted("idx " + tableName + " " + column)
                        + " ON " + quoted(tableName) + " ("
                        + (entropy.chance(0.2) ? "lower(" + quoted(column) + ")" : quoted(column)) + ")"
                        + (entropy.chance(0.2) ? " WHERE " + quoted(column) + " IS NOT NULL" : ""))
            }
        }
        if entropy.chance(0.3), let table = tables.randomElement(using: &entropy) {
            let selected = table.columns.shuffled(using: &entropy).prefix(entropy.int(1...table.columns.count))
            statements.append(
                "CREATE VIEW " + quoted(entropy.pick(names) + " view") + " AS SELECT "
                    + selected.map { quoted($0) + (entropy.chance(0.3) ? " AS " + quoted(entropy.pick(names)) : "") }
                    .joined(separator: ", ")
                    + (entropy.chance(0.3) ? ", count(*) AS n" : "") + " FROM " + quoted(table.name)
                    + (entropy.chance(0.3) ? " GROUP BY 1" : ""))
        }
        if entropy.chance(0.1) {
            statements.append(
                "CREATE VIRTUAL TABLE " + quoted(entropy.pick(names) + " search") + " USING fts4("
                    + entropy.pick(["body", "title, body", "\"a b\""]) + ")")
        }
        return statements
    }

    func run(_ entropy: inout Entropy, _ context: inout CaseContext) throws {
        let statements = Self.script(&entropy)
        // The schema SQLite accepts: the statements that run.
        let db = try Database(location: .inMemory)
        var accepted: [String] = []
        for statement in statements {
            do {
                try db.execute(sql: statement)
                accepted.append(statement)
            } catch is DatabaseError {
                context.report.count("statements SQLite refused")
            }
        }
        let tableCount = try db.fetchValue(
            Int.self, sql: "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        // SQLite accepts a view over a table that does not exist (views are resolved when read);
        // the generator cannot type such a view's columns and may refuse it.
        var brokenViews = 0
        for view in try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_schema WHERE type = 'view'") {
            do {
                _ = try db.fetchAll(SQLValue.self, sql: "SELECT * FROM \(Self.quoted(view)) LIMIT 0")
            } catch is DatabaseError {
                brokenViews += 1
            }
        }
        context.report.count("schemas")

        var configuration = GeneratorConfiguration()
        configuration.style = entropy.pick(GeneratorConfiguration.Style.allCases)
        configuration.accessLevel = entropy.pick(GeneratorConfiguration.AccessLevel.allCases)
        configuration.dateStorage = entropy.pick(GeneratorConfiguration.DateStorage.allCases)
        configuration.uuidStorage = entropy.pick(GeneratorConfiguration.UUIDStorage.allCases)
        configuration.nestRecords = entropy.chance(0.3)
        configuration.singularizeRecordNames = entropy.chance(0.7)
        configuration.includeViews = entropy.chance(0.8)
        configuration.recordOperations = entropy.chance(0.8)
        configuration.documentation = entropy.chance(0.5)

        let stem = "fuzz_schema_\(context.index)"
        let input: URL
        if entropy.chance(0.3) {
            input = directory.appendingPathComponent(stem + ".sqlite")
            try? FileManager.default.removeItem(at: input)
            try db.backup(toFile: input.path)
            context.report.count("generated from database files")
        } else {
            input = directory.appendingPathComponent(stem + ".sql")
            try (accepted.joined(separator: ";\n") + (accepted.isEmpty ? "" : ";\n")).write(
                to: input, atomically: true, encoding: .utf8)
            context.report.count("generated from scripts")
        }
        let source: String
        do {
            source = try CodeGenerator.generate(inputs: [input], configuration: configuration)
        } catch {
            if tableCount == 0 {
                context.report.refused += 1
                context.report.count("schemas without tables refused")
            } else if brokenViews > 0 {
                context.report.refused += 1
                context.report.count("schemas with a view over a missing table refused")
            } else {
                context.finding(
                    "slate generate refused a schema SQLite accepts",
                    "\(error)\n--- schema (\(configuration.style) style):\n\(accepted.joined(separator: ";\n"))")
            }
            return
        }
        if tableCount == 0 {
            context.finding("slate generate wrote code for a schema without tables", accepted.joined(separator: ";\n"))
            return
        }
        context.report.exact += 1
        context.report.count("sources generated")
        context.report.count("source bytes", source.utf8.count)
        if let output, written < compileSample {
            written += 1
            let header =
                "// slate-fuzz --domain schemas --seed \(context.runSeed) --case \(context.index) (\(configuration.style) style, \(input.pathExtension) input)\n"
                + accepted.map { "// " + $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n") + "\n"
            try (header + source).write(
                to: output.appendingPathComponent("\(stem).swift"), atomically: true, encoding: .utf8)
            context.report.count("sources written for type-checking")
        }
        try? FileManager.default.removeItem(at: input)
    }
}

extension Array {
    /// A random element drawn from `entropy`.
    func randomElement(using entropy: inout Entropy) -> Element? {
        isEmpty ? nil : self[entropy.int(0..<count)]
    }

    /// The elements in an order drawn from `entropy`.
    func shuffled(using entropy: inout Entropy) -> [Element] {
        var copy = self
        for index in copy.indices.reversed() where index > 0 { copy.swapAt(index, entropy.int(0...index)) }
        return copy
    }
}
