import Foundation
import Slate
import SlateTestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func inMemoryDatabasesArePrivatePerConnection() throws {
        let first = try Database(location: .inMemory)
        let second = try Database(location: .inMemory)
        try first.execute(sql: "CREATE TABLE t(x)")
        #expect(try first.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") == 1)
        #expect(try second.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") == 0)
        #expect(first.path == nil)
    }

    @Test func temporaryDatabaseWorksAndHasNoPath() throws {
        let db = try Database(location: .temporary)
        try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (42)")
        #expect(try db.fetchValue(Int.self, "SELECT x FROM t") == 42)
        #expect(db.path == nil)
    }

    @Test func onDiskDatabasePersistsAcrossConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("persist.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('kept')")
            #expect(db.path == path || db.path?.hasSuffix("persist.sqlite") == true)
            try db.close()
        }
        let reopened = try Database(path: path)
        #expect(try reopened.fetchValue(String.self, "SELECT x FROM t") == "kept")
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ro.sqlite")
        try Database(path: path).execute(sql: "CREATE TABLE t(x)")
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        let db = try Database(path: path, configuration: configuration)
        #expect(db.isReadOnly)
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(error.resultCode == .readOnly)
        #expect(error.sql == "INSERT INTO t VALUES (1)")
    }

    @Test func createFlagOffRefusesMissingFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        configuration.createsFile = false
        let error = try #require(throws: DatabaseError.self) {
            try Database(path: directory.path("absent.sqlite"), configuration: configuration)
        }
        #expect(error.resultCode == .cantOpen)
        #expect(!FileManager.default.fileExists(atPath: directory.path("absent.sqlite")))
    }

    /// Issue 36: a missing file opened read-only said only "unable to open database file (path: …)".
    @Test func aMissingFileOpenedReadOnlyIsSaidNotToExist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        let path = directory.path("absent.sqlite")
        let error = try #require(throws: DatabaseError.self) { try Database(path: path, configuration: configuration) }
        #expect(error.resultCode == .cantOpen)
        #expect(
            error.message
                == "unable to open database file: the file \(path) does not exist (a read-only connection, or one"
                + " without Configuration.createsFile, never creates it)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func missingDirectoryIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("no/such/dir/db.sqlite")
        let error = try #require(throws: DatabaseError.self) { try Database(path: path) }
        #expect(error.resultCode == .cantOpen)
        #expect(error.message.contains("does not exist"))
        #expect(error.message.contains(directory.path("no/such/dir")))
    }

    @Test func missingDirectoriesAreCreatedWhenAsked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Database.Configuration()
        configuration.createsMissingDirectories = true
        let db = try Database(path: directory.path("a/b/db.sqlite"), configuration: configuration)
        try db.execute(sql: "CREATE TABLE t(x)")
        #expect(FileManager.default.fileExists(atPath: directory.path("a/b/db.sqlite")))
    }

    @Test func fileThatIsNotADatabaseIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("text.sqlite")
        try Data(String(repeating: "this is not an SQLite database\n", count: 200).utf8).write(
            to: URL(fileURLWithPath: path))
        let error = try #require(throws: DatabaseError.self) { try Database(path: path) }
        #expect(error.resultCode == .notADatabase)
    }

    @Test func readOnlyFileOpenedForWritingIsAClearError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("locked.sqlite")
        try Database(path: path).execute(sql: "CREATE TABLE t(x)")
        // Root ignores permission bits, so make the file immutable there instead.
        let isRoot = getuid() == 0
        if isRoot {
            try runTool("/usr/bin/chattr", ["+i", path])
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        }
        defer {
            if isRoot { try? runTool("/usr/bin/chattr", ["-i", path]) }
        }
        let error = try #require(throws: DatabaseError.self) { try Database(path: path) }
        #expect(error.resultCode == .readOnly)
        #expect(error.message.contains("read-only"))
        // Opening it read-only works.
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        #expect(
            try Database(path: path, configuration: configuration).fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test func uriLocationHonoursParameters() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("uri.sqlite")
        try Database(path: path).execute(sql: "CREATE TABLE t(x)")
        let db = try Database(location: .uri("file:\(path)?mode=ro"))
        #expect(db.isReadOnly)
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(error.resultCode == .readOnly)
    }

    @Test(arguments: [Database.ThreadingMode.multiThread, .serialized, .default])
    func everyThreadingModeOpens(mode: Database.ThreadingMode) throws {
        let db = try Database.memory { $0.threadingMode = mode }
        #expect(try db.fetchValue(Int.self, "SELECT 1 + 1") == 2)
    }

    @Test func foreignKeysAreOnByDefaultAndCanBeTurnedOff() throws {
        #expect(try Database.memory().fetchValue(Bool.self, "PRAGMA foreign_keys") == true)
        #expect(
            try Database.memory { $0.foreignKeysEnabled = false }.fetchValue(Bool.self, "PRAGMA foreign_keys") == false)
    }

    @Test func prepareDatabaseRunsOnOpen() throws {
        let db = try Database.memory { $0.prepareDatabase = { db in try db.execute(sql: "CREATE TABLE prepared(x)") } }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema WHERE name = 'prepared'") == 1)
    }

    @Test func closeReportsUnfinalizedStatementsAndStaysUsable() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(x)")
        var statement: Statement? = try db.prepare(sql: "SELECT x FROM t")
        let error = try #require(throws: DatabaseError.self) { try db.close() }
        #expect(error.resultCode == .busy)
        #expect(error.message.contains("SELECT x FROM t"))
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        statement = nil
        _ = statement
        try db.close()
        try db.close()  // closing twice does nothing
    }

    @Test func usingAClosedConnectionThrowsInsteadOfCrashing() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(x)")
        try db.close()
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "SELECT 1") }
        #expect(error.resultCode == .misuse)
        #expect(error.message.contains("closed"))
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT 1") }
        #expect(throws: DatabaseError.self) { try db.prepare(sql: "SELECT 1") }
        #expect(throws: DatabaseError.self) { try db.transaction {} }
        #expect(!db.isInTransaction)
        #expect(db.lastInsertedRowID == 0)
        #expect(db.path == nil)
    }

    @Test func changeCountersAndLastInsertedRowID() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, x)")
        try db.execute(sql: "INSERT INTO t(x) VALUES (1), (2), (3)")
        #expect(db.lastInsertedRowID == 3)
        #expect(db.changesCount == 3)
        try db.execute(sql: "UPDATE t SET x = x + 1 WHERE id > 1")
        #expect(db.changesCount == 2)
        #expect(db.totalChangesCount == 5)
        #expect(!Database.sqliteVersion.isEmpty)
    }
}

/// Runs a command-line tool and fails when it does.
func runTool(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw DatabaseError(
            resultCode: .error, message: "\(executable) \(arguments) exited with \(process.terminationStatus)")
    }
}
