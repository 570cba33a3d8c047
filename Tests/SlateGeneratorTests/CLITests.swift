import Foundation
import Testing

/// The `slate` executable, built next to this test bundle (the build plugin needs it too).
enum SlateExecutable {
    static let url: URL? = {
        let directory = Bundle.module.bundleURL.deletingLastPathComponent()
        for name in ["slate", "SlateCLI"] {
            let url = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    static var isAvailable: Bool { url != nil }

    /// Runs `slate` with `arguments`; returns the exit status, standard output and error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        guard let executable = url else { throw CancellationError() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and block the tool.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData, as: UTF8.self)
        )
    }
}

@Suite(
    "slate generate", .enabled(if: SlateExecutable.isAvailable, "the slate executable is not next to the test bundle"))
struct CLITests {
    @Test func generatesFromADatabaseFileAndExitsZero() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.file("N.swift")
        let result = try SlateExecutable.run([
            "generate", TestFiles.resource("northwind.sqlite").path, "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.error)")
        let source = try String(contentsOf: output, encoding: .utf8)
        #expect(source.contains("enum NorthwindDatabase"))
        #expect(source.contains("struct OrderDetail: PrimaryKeyedTable"))
        // Running again gives the same bytes.
        let again = directory.file("N2.swift")
        _ = try SlateExecutable.run(["generate", TestFiles.resource("northwind.sqlite").path, "--output", again.path])
        #expect(try Data(contentsOf: again) == Data(contentsOf: output))
    }

    @Test func namesStylesAndConfigurationFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let config = try directory.write(
            "slate.json", #"{"accessLevel": "public", "recordNames": {"Artist": "Performer"}}"#)
        let result = try SlateExecutable.run([
            "generate", TestFiles.resource("chinook.schema.sql").path, "--name", "Music", "--style", "both",
            "--config", config.path,
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("public enum Music {"))
        #expect(result.output.contains("public struct Performer: PrimaryKeyedTable"))
        #expect(result.output.contains("public func sqlite3_performer_find("))
        #expect(result.output.contains("import CSQLite"))
    }

    @Test func sqlFilesWorkAndReportBadSQLWithFileLineAndMessage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try directory.write("01.sql", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL);")
        let bad = try directory.write("02.sql", "\n\nCREATE TABLE broken (id INTEGER PRIMARY KEY,, name TEXT);")
        let ok = try SlateExecutable.run(["generate", good.path])
        #expect(ok.status == 0)
        #expect(ok.output.contains("struct Item: PrimaryKeyedTable"))
        let failed = try SlateExecutable.run([
            "generate", good.path, bad.path, "--output", directory.file("out.swift").path,
        ])
        #expect(failed.status != 0)
        #expect(failed.error.contains("02.sql:3"))
        #expect(failed.error.contains("CREATE TABLE broken"))
        #expect(failed.error.contains("syntax error"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.swift").path))
    }

    @Test func errorsExitNonZeroWithAClearMessage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = try SlateExecutable.run(["generate", directory.file("missing.sqlite").path])
        #expect(missing.status != 0)
        #expect(missing.error.contains("no such file"))

        let none = try SlateExecutable.run(["generate"])
        #expect(none.status != 0)
        #expect(none.error.contains("give a SQLite database file"))

        let style = try SlateExecutable.run(["generate", TestFiles.resource("chinook.sqlite").path, "--style", "fancy"])
        #expect(style.status != 0)
        #expect(style.error.contains("unknown style"))

        let config = try directory.write("bad.json", #"{"styel": "raw"}"#)
        let badConfig = try SlateExecutable.run([
            "generate", TestFiles.resource("chinook.sqlite").path, "--config", config.path,
        ])
        #expect(badConfig.status != 0)
        #expect(badConfig.error.contains("unknown option \"styel\""))

        let badType = try directory.write("type.json", #"{"declaredTypes": {"TEXT": "Strin"}}"#)
        let badTypeResult = try SlateExecutable.run([
            "generate", TestFiles.resource("chinook.sqlite").path, "--config", badType.path,
        ])
        #expect(badTypeResult.status != 0)
        #expect(badTypeResult.error.contains("unknown Swift type \"Strin\""))

        let name = try SlateExecutable.run([
            "generate", TestFiles.resource("chinook.sqlite").path, "--name", "not valid",
        ])
        #expect(name.status != 0)
        #expect(name.error.contains("not a valid Swift type name"))

        let notADatabase = try directory.write("fake.db", "hello")
        let fake = try SlateExecutable.run(["generate", notADatabase.path])
        #expect(fake.status != 0)
        #expect(fake.error.contains("fake.db"))
    }

    @Test func schemaCommandPrintsTheModelAsJSON() throws {
        let result = try SlateExecutable.run(["schema", TestFiles.resource("chinook.sqlite").path])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect((object?["tables"] as? [Any])?.count == 11)
    }
}

@Suite("Plugins")
struct PluginSourceTests {
    @Test func bothPluginsShareTheSameInputRules() throws {
        // Plugins cannot share code, so SlateInputs.swift is copied; the copies must not drift.
        let plugins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Plugins")
        let build = try String(
            contentsOf: plugins.appendingPathComponent("SlateBuildPlugin/SlateInputs.swift"), encoding: .utf8)
        let command = try String(
            contentsOf: plugins.appendingPathComponent("SlateGenerateCommand/SlateInputs.swift"), encoding: .utf8)
        #expect(build == command)
    }
}
