import Foundation
import Slate
import SlateTestingFaults
import Testing

/// One regression test per finding of the fault sweeps (docs/RELIABILITY.md), each with the fault
/// that found it.
@Suite struct FaultFindingTests {
    /// A source of a few pages, opened through `faults`.
    func source(in directory: TemporaryDirectory, faults: FaultInjector) throws -> Database {
        let path = directory.path("source.sqlite")
        let setup = try Database(path: path)
        try setup.execute(sql: "CREATE TABLE t(value BLOB)")
        for _ in 0..<20 { try setup.execute(sql: "INSERT INTO t VALUES (randomblob(1000))") }
        try setup.close()
        return try Database(location: faults.location(ofFile: path))
    }

    /// Found by the VACUUM INTO sweep (I/O errors, full disk, power loss at the copy's writes):
    /// the half-written copy stayed at the destination, up to 100 KB of it, and could be taken
    /// for a backup.
    @Test(arguments: [false, true])
    func vacuumIntoRemovesAFailedCopy(throughURI: Bool) throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try source(in: directory, faults: faults)
        let copy = directory.path("copy ?.sqlite")
        let name =
            throughURI ? faults.uri(ofFile: copy).replacingOccurrences(of: "?vfs=", with: "?cache=private&vfs=") : copy
        faults.resetCounts()
        faults.schedule(FaultInjector.Fault(.write, occurrence: 3, kind: .ioError, isPersistent: true))
        let error = #expect(throws: DatabaseError.self) { try db.vacuum(into: name) }
        #expect(error?.resultCode == .ioError)
        #expect(!FileManager.default.fileExists(atPath: copy))
        // The connection goes on, and the next try makes the copy.
        faults.schedule(nil)
        try db.vacuum(into: name)
        #expect(try Database(path: copy).fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 20)
    }

    /// An empty file VACUUM INTO was asked to fill is emptied again, not deleted.
    @Test func vacuumIntoEmptiesAnEmptyFileItFailedToFill() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try source(in: directory, faults: faults)
        let copy = directory.path("copy.sqlite")
        #expect(FileManager.default.createFile(atPath: copy, contents: Data()))
        faults.resetCounts()
        faults.schedule(FaultInjector.Fault(.write, occurrence: 3, kind: .diskFull, isPersistent: true))
        #expect(throws: DatabaseError.self) { try db.vacuum(into: copy) }
        #expect(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int == 0)
    }

    /// Found by the VACUUM INTO sweep (an I/O error at the output's `xFileSize`): SQLite reports it
    /// as "output file already exists" with SQLITE_ERROR, about a file that does not exist.
    @Test func vacuumIntoReportsAFailedSizeReadAsAnIOError() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try source(in: directory, faults: faults)
        let copy = directory.path("copy.sqlite")
        var codes: [ResultCode] = []
        for occurrence in 1...12 {
            faults.resetCounts()
            faults.schedule(FaultInjector.Fault(.fileSize, occurrence: occurrence, kind: .ioError))
            do {
                try db.vacuum(into: copy)
                try FileManager.default.removeItem(atPath: copy)
            } catch let error as DatabaseError {
                #expect(
                    !error.message.contains("output file already exists") || error.resultCode == .ioError, "\(error)")
                codes.append(error.extendedResultCode)
            }
            faults.schedule(nil)
        }
        // SQLITE_IOERR_FSTAT, where SQLite said SQLITE_ERROR.
        #expect(codes.contains(ResultCode(rawValue: 10 | (7 << 8))))
        #expect(!codes.contains(.error))
    }

    /// Found by the "backup to a new file" sweep (an I/O error reading the source): the empty
    /// destination the backup had created stayed behind.
    @Test func backupToFileRemovesAFileItCreatedAndCouldNotFill() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try source(in: directory, faults: faults)
        let copy = directory.path("backup.sqlite")
        faults.resetCounts()
        faults.schedule(FaultInjector.Fault(.read, occurrence: 2, kind: .ioError, isPersistent: true))
        let error = #expect(throws: DatabaseError.self) { try db.backup(toFile: copy, pagesPerStep: 2) }
        #expect(error?.resultCode == .ioError)
        #expect(!FileManager.default.fileExists(atPath: copy))
    }

    /// A backup into an existing file that fails leaves that file as it was.
    @Test func backupToFileKeepsAnExistingFile() throws {
        let directory = try TemporaryDirectory()
        let faults = try FaultInjector()
        let db = try source(in: directory, faults: faults)
        let copy = directory.path("backup.sqlite")
        let existing = try Database(path: copy)
        try existing.execute(sql: "CREATE TABLE kept(x); INSERT INTO kept VALUES (1)")
        try existing.close()
        faults.resetCounts()
        faults.schedule(FaultInjector.Fault(.read, occurrence: 2, kind: .ioError, isPersistent: true))
        #expect(throws: DatabaseError.self) { try db.backup(toFile: copy, pagesPerStep: 2) }
        #expect(try Database(path: copy).fetchValue(Int.self, sql: "SELECT count(*) FROM kept") == 1)
    }
}
