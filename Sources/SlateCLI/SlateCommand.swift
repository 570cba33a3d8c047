import ArgumentParser
import Foundation
import SlateGenerator
import SlateSchema

/// The `slate` command-line tool.
@main
struct SlateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slate",
        abstract: "Slate's tools for SQLite databases.",
        subcommands: [Generate.self, Check.self, Schema.self, ImportCSV.self, ExportCSV.self])

    /// Runs the command. `slate check` promises exit status 0, 2 or 1: a command line it cannot
    /// parse is an error like any other (1), not ArgumentParser's usage status (64).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            if arguments.first == "check", exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(1)
            }
            exit(withError: error)
        }
    }
}

/// `slate generate`: Swift code for a database file or SQL schema files.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate Swift records and a database type from a SQLite database or .sql files.",
        discussion: """
            INPUT is one SQLite database file (opened read-only) or one or more .sql files, applied in \
            name order to an in-memory database. Dumps made with the sqlite3 shell's .schema command \
            load as they are. Schema statements and views that use double-quoted string literals \
            ("canine"), which the sqlite3 shell accepts, are accepted with a warning naming the file \
            and line; named queries must write strings in single quotes.

            The database type is named after the database file, or else after the first .sql file \
            given that holds schema statements: schema.sql gives SchemaDatabase, whatever the order \
            of the files. --name chooses another name.

            Examples:
              slate generate chinook.sqlite --output Chinook.swift
              slate generate schema/*.sql --name AppDatabase --style raw --output AppDatabase.swift
            """)

    @Argument(help: "A SQLite database file, or one or more .sql files.", completion: .file())
    var inputs: [String] = []

    @Option(
        name: .shortAndLong,
        help: "The Swift file to write, or - for standard output (the default). A device or FIFO is written in place.")
    var output: String?

    @Option(
        name: .long,
        help:
            "The database type name. Default: the database file's name, or the first .sql file's given that holds schema statements (not only named queries), followed by Database."
    )
    var name: String?

    @Option(name: .long, help: "A JSON configuration file (see GeneratorConfiguration).")
    var config: String?

    @Option(
        name: .long,
        help: "slate (Slate records), raw (SQLite C API only) or both. Default: slate, or the configuration's.")
    var style: String?

    @Option(name: .long, help: "internal, public or package. Default: internal, or the configuration's.")
    var accessLevel: String?

    @Flag(
        name: .long,
        help:
            "Also write `bundled()`, which opens the database file from the module's resources (Bundle.module). Used by the plugins; ignored for .sql inputs."
    )
    var moduleBundleAccessor = false

    @Option(name: .long, help: "The database file's directory inside the resource bundle, when not at its top.")
    var resourceSubdirectory: String?

    func validate() throws {
        if inputs.isEmpty {
            throw ValidationError("give a SQLite database file or one or more .sql files")
        }
        if let style, GeneratorConfiguration.Style(rawValue: style) == nil {
            throw ValidationError("unknown style \"\(style)\": use slate, raw or both")
        }
        if let accessLevel, GeneratorConfiguration.AccessLevel(rawValue: accessLevel) == nil {
            throw ValidationError("unknown access level \"\(accessLevel)\": use internal, public or package")
        }
    }

    func run() throws {
        var configuration = GeneratorConfiguration()
        if let config {
            configuration = try GeneratorConfiguration.load(from: URL(fileURLWithPath: config))
        }
        if let style = style.flatMap(GeneratorConfiguration.Style.init(rawValue:)) { configuration.style = style }
        if let level = accessLevel.flatMap(GeneratorConfiguration.AccessLevel.init(rawValue:)) {
            configuration.accessLevel = level
        }
        let urls = inputs.map { URL(fileURLWithPath: $0) }
        let source = try CodeGenerator.generate(
            inputs: urls, configuration: configuration, databaseTypeName: name,
            generatesModuleBundleAccessor: moduleBundleAccessor, resourceSubdirectory: resourceSubdirectory,
            warn: { FileHandle.standardError.write(Data("\($0)\n".utf8)) })
        if let output, output != "-" {
            try CodeGenerator.write(source, to: URL(fileURLWithPath: output))
        } else {
            FileHandle.standardOutput.write(Data(source.utf8))
        }
    }
}

/// `slate schema`: the schema model as JSON, for inspection and tooling.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the schema SQLite reports for a database file or .sql files, as JSON.")

    @Argument(help: "A SQLite database file, or one or more .sql files.", completion: .file())
    var inputs: [String] = []

    func validate() throws {
        if inputs.isEmpty {
            throw ValidationError("give a SQLite database file or one or more .sql files")
        }
    }

    func run() throws {
        let schema = try SchemaLoader.load(from: inputs.map { URL(fileURLWithPath: $0) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(schema)
        data.append(0x0A)
        FileHandle.standardOutput.write(data)
    }
}
