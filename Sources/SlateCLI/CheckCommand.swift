import ArgumentParser
import Foundation
import Slate
import SlateSchema

/// `slate check`: does a database file still match the schema it should have?
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Report how a database's schema differs from the schema it should have.",
        discussion: """
            Compares the tables, columns, keys, indexes, views and triggers of DATABASE with those of \
            the sources: .sql schema files (applied in name order; named queries are ignored) or a \
            reference database file. Whitespace, comments, identifier quoting and letter case are never \
            reported.

            Exit status: 0 when they agree, 2 when they differ, 1 on error.

            Examples:
              slate check app.sqlite --against Schema/*.sql
              slate check app.sqlite --against reference.sqlite --json
            """)

    @Argument(help: "The database file to check (opened read-only).", completion: .file())
    var database: String?

    @Option(
        name: .long, parsing: .upToNextOption, help: "The expected schema: .sql files, or one database file.",
        completion: .file())
    var against: [String] = []

    @Flag(name: .long, help: "Print the result as JSON.")
    var json = false

    func run() throws {
        do {
            guard let database else {
                throw CheckError("give the database file to check: slate check DATABASE --against SOURCE…")
            }
            guard !against.isEmpty else {
                throw CheckError("give the expected schema: --against SOURCE… (.sql files or a database file)")
            }
            let databaseURL = URL(fileURLWithPath: database)
            guard FileManager.default.fileExists(atPath: databaseURL.path) else {
                throw SchemaError.missingFile(path: databaseURL.path)
            }
            guard SchemaLoader.isDatabaseFile(databaseURL) else {
                throw CheckError("\(database) is not a SQLite database file; the sources go after --against")
            }
            let actual = try SchemaLoader.loadDatabase(at: databaseURL)
            let expected = try SchemaLoader.load(from: against.map { URL(fileURLWithPath: $0) })
            let differences = expected.differences(from: actual)
            for warning in actual.uuidCollationWarnings {
                FileHandle.standardError.write(Data("warning: \(database): \(warning)\n".utf8))
            }
            if json {
                try writeJSON(differences)
            } else {
                writeText(differences, expected: expected)
            }
            if !differences.isEmpty { throw ExitCode(2) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    func writeText(_ differences: [SchemaDifference], expected: DatabaseSchema) {
        let database = self.database ?? ""
        let sources = against.joined(separator: ", ")
        guard !differences.isEmpty else {
            let counts = [
                "\(expected.tables.count + expected.virtualTables.count) table(s)", "\(expected.views.count) view(s)",
                "\(expected.triggers.count) trigger(s)",
            ]
            print("\(database) matches \(sources): \(counts.joined(separator: ", ")).")
            return
        }
        print("\(database) differs from \(sources):")
        for difference in differences { print("  " + difference.description) }
        print("\(differences.count) difference\(differences.count == 1 ? "" : "s").")
    }

    /// One difference, with its sentence.
    struct Entry: Encodable {
        var kind: String
        var table: String
        var name: String?
        var expected: String?
        var actual: String?
        var description: String
    }

    struct Report: Encodable {
        var database: String
        var against: [String]
        var matches: Bool
        var differences: [Entry]
    }

    func writeJSON(_ differences: [SchemaDifference]) throws {
        let report = Report(
            database: database ?? "", against: against, matches: differences.isEmpty,
            differences: differences.map { difference in
                Entry(
                    kind: difference.kind.rawValue, table: difference.table, name: difference.name,
                    expected: difference.expected,
                    actual: difference.actual, description: difference.description)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(report)
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}

struct CheckError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
