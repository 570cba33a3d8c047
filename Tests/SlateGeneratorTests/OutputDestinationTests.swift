import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 36: `slate generate --output /dev/null`, run as root, replaced `/dev/null` with a regular
/// file: the output was written to a temporary file and renamed over the destination. A device, a
/// FIFO or `/dev/stdout` is now written in place, and `-` is standard output; so is CSV export.
@Suite(
    "output that is not a regular file",
    .enabled(if: SlateExecutable.isAvailable, "the slate executable is not next to the test bundle"))
struct OutputDestinationTests {
    /// Whether `path` is a character device.
    static func isCharacterDevice(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
    }

    /// Whether `path` is a FIFO.
    static func isFIFO(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// Reads a FIFO to its end on a thread of its own, while `body` writes to it.
    static func readingFIFO(_ path: String, while body: () throws -> Void) throws -> Data {
        let box = ReadBox()
        let reader = Thread {
            box.data = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile()
            box.done.signal()
        }
        reader.start()
        try body()
        box.done.wait()
        return box.data ?? Data()
    }

    final class ReadBox: @unchecked Sendable {
        var data: Data?
        let done = DispatchSemaphore(value: 0)
    }

    @Test func generatingIntoAFIFOWritesThroughItAndKeepsIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write(
            "schema.sql", "CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL);")
        let fifo = directory.file("out.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var status: Int32 = -1
        let read = try Self.readingFIFO(fifo) {
            status = try SlateExecutable.run(["generate", schema.path, "--output", fifo]).status
        }
        #expect(status == 0)
        #expect(String(decoding: read, as: UTF8.self).contains("struct Book: PrimaryKeyedTable"))
        #expect(Self.isFIFO(fifo))
        // No temporary file was left beside it.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "out.fifo", "schema.sql",
            ])
    }

    @Test func generatingIntoDevNullLeavesItACharacterDevice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write("schema.sql", "CREATE TABLE book(id INTEGER PRIMARY KEY);")
        #expect(Self.isCharacterDevice("/dev/null"))
        let result = try SlateExecutable.run(["generate", schema.path, "--output", "/dev/null"])
        #expect(result.status == 0, "\(result.error)")
        #expect(Self.isCharacterDevice("/dev/null"))
        let export = try SlateExecutable.run([
            "export", "--from", TestFiles.resource("chinook.sqlite").path, "--table", "Genre", "--output", "/dev/null",
        ])
        #expect(export.status == 0, "\(export.error)")
        #expect(Self.isCharacterDevice("/dev/null"))
    }

    @Test func aDashIsStandardOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write("schema.sql", "CREATE TABLE book(id INTEGER PRIMARY KEY);")
        let generated = try SlateExecutable.run(["generate", schema.path, "--output", "-"])
        #expect(generated.status == 0)
        #expect(generated.output.contains("struct Book"))
        #expect(!FileManager.default.fileExists(atPath: "-"))
        let exported = try SlateExecutable.run([
            "export", "--from", TestFiles.resource("chinook.sqlite").path, "--query",
            "SELECT GenreId, Name FROM Genre ORDER BY GenreId LIMIT 2", "--output", "-", "--lf",
        ])
        #expect(exported.status == 0, "\(exported.error)")
        #expect(exported.output == "GenreId,Name\n1,Rock\n2,Jazz\n")
        #expect(exported.error == "exported 2 rows (27 bytes) to -\n")
    }

    @Test func exportingIntoAFIFOWritesThroughIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.file("genres.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        var status: Int32 = -1
        let read = try Self.readingFIFO(fifo) {
            status = try SlateExecutable.run([
                "export", "--from", TestFiles.resource("chinook.sqlite").path, "--query",
                "SELECT Name FROM Genre WHERE GenreId = 1", "--output", fifo, "--lf", "--no-header",
            ]).status
        }
        #expect(status == 0)
        #expect(String(decoding: read, as: UTF8.self) == "Rock\n")
        #expect(Self.isFIFO(fifo))
    }

    @Test func aRegularFileIsStillReplacedAtomicallyWithItsPermissions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let schema = try directory.write("schema.sql", "CREATE TABLE book(id INTEGER PRIMARY KEY);")
        let output = try directory.write("Out.swift", "old")
        #expect(chmod(output.path, 0o640) == 0)
        #expect(try SlateExecutable.run(["generate", schema.path, "--output", output.path]).status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("struct Book"))
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [
                "Out.swift", "schema.sql",
            ])
    }
}
