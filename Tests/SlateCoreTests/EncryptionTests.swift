// Encrypted databases: these tests exist only with the SQLCipher trait
// (`swift test --traits SQLCipher --filter Encryption`, see .ci/run).
#if SQLCipher
    import CSQLite
    import Foundation
    import Slate
    import SlateTestSupport
    import Testing

    /// Values collected by callbacks that run on the connection's thread.
    private final class Collected<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Value] = []
        func append(_ value: Value) { lock.withLock { storage.append(value) } }
        var values: [Value] { lock.withLock { storage } }
    }

    @Suite struct EncryptionTests {
        static let passphrase = "correct horse battery staple 7f3a"
        static let otherPassphrase = "tr0ub4dor&3 second secret 91c2"

        private static func configuration(_ key: Database.EncryptionKey?) -> Database.Configuration {
            var configuration = Database.Configuration()
            configuration.key = key
            return configuration
        }

        private static func open(_ path: String, key: Database.EncryptionKey?) throws -> Database {
            try Database(path: path, configuration: configuration(key))
        }

        /// The first 16 bytes of the file, which a plaintext SQLite database starts with its magic.
        private static func header(_ path: String) throws -> Data {
            let handle = try #require(FileHandle(forReadingAtPath: path))
            defer { try? handle.close() }
            return handle.readData(ofLength: 16)
        }

        private static let plaintextMagic = Data("SQLite format 3\0".utf8)

        /// Creates an encrypted database at `path` with a table of three rows.
        private static func makeEncrypted(_ path: String, key: Database.EncryptionKey = .passphrase(passphrase)) throws
        {
            let db = try open(path, key: key)
            try db.execute(sql: "CREATE TABLE secret(id INTEGER PRIMARY KEY, note TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO secret(note) VALUES ('alpha'), ('beta'), ('gamma')")
            try db.close()
        }

        private static func notes(_ db: Database) throws -> [String] {
            try db.fetchAll(String.self, sql: "SELECT note FROM secret ORDER BY id")
        }

        // MARK: Keys

        @Test func linksSQLCipher() throws {
            let db = try Database.memory()
            let version = try #require(try db.cipherVersion, "PRAGMA cipher_version answers only on SQLCipher")
            #expect(version.first?.isNumber == true)
            #expect(slate_sqlite_has_codec() == 1, "CSQLite includes SQLCipher's header")
        }

        @Test func createsAnEncryptedFileAndReopensItWithTheKey() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)

            let header = try Self.header(path)
            #expect(header.count == 16)
            #expect(header != Self.plaintextMagic, "an encrypted file does not start with SQLite's magic")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data("gamma".utf8)) == nil, "row values are not stored in the clear")

            let db = try Self.open(path, key: .passphrase(Self.passphrase))
            #expect(try Self.notes(db) == ["alpha", "beta", "gamma"])
            try db.close()
        }

        @Test func wrongKeyFailsAtOpenWithNotADatabase() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)

            let error = try #require(capturedDatabaseError { try Self.open(path, key: .passphrase("wrong")) })
            #expect(error.resultCode == .notADatabase)
            #expect(error.extendedResultCode.rawValue == SQLITE_NOTADB)
            #expect(error.message.contains("file is encrypted or is not a database"))
            #expect(error.message.contains("the key is wrong"))
        }

        @Test func noKeyOnAnEncryptedFileFailsAtOpen() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)

            let error = try #require(capturedDatabaseError { try Self.open(path, key: nil) })
            #expect(error.resultCode == .notADatabase)
            #expect(error.message.contains("file is encrypted or is not a database"))
        }

        @Test func keyOnAPlaintextFileFailsAtOpen() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("plain.sqlite")
            let plain = try Self.open(path, key: nil)
            try plain.execute(sql: "CREATE TABLE t(x)")
            try plain.close()
            #expect(try Self.header(path) == Self.plaintextMagic)

            let error = try #require(capturedDatabaseError { try Self.open(path, key: .passphrase(Self.passphrase)) })
            #expect(error.resultCode == .notADatabase)
            #expect(error.message.contains("file is encrypted or is not a database"))
            // The plaintext file is untouched and still opens without a key.
            #expect(try Self.header(path) == Self.plaintextMagic)
            #expect(try Self.open(path, key: nil).fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 0)
        }

        @Test func rawKeysOpenWithoutDerivationAndAreValidated() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("raw.sqlite")
            let key = Data((0..<32).map { UInt8($0 * 7 + 3) })
            try Self.makeEncrypted(path, key: .raw(key))
            #expect(try Self.header(path) != Self.plaintextMagic)

            #expect(try Self.notes(Self.open(path, key: .raw(key))) == ["alpha", "beta", "gamma"])
            var otherKey = key
            otherKey[0] ^= 0xFF
            #expect(capturedDatabaseError { try Self.open(path, key: .raw(otherKey)) }?.resultCode == .notADatabase)

            let short = capturedDatabaseError {
                try Self.open(directory.path("short.sqlite"), key: .raw(Data(count: 16)))
            }
            #expect(short?.resultCode == .misuse)
            #expect(short?.message.contains("32 bytes") == true)
            let empty = capturedDatabaseError { try Self.open(directory.path("empty.sqlite"), key: .passphrase("")) }
            #expect(empty?.resultCode == .misuse)
        }

        @Test func changeKeyReencryptsTheFile() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)

            let db = try Self.open(path, key: .passphrase(Self.passphrase))
            try db.changeKey(to: .passphrase(Self.otherPassphrase))
            try db.execute(sql: "INSERT INTO secret(note) VALUES ('delta')")
            try db.close()

            #expect(
                capturedDatabaseError { try Self.open(path, key: .passphrase(Self.passphrase)) }?.resultCode
                    == .notADatabase)
            let reopened = try Self.open(path, key: .passphrase(Self.otherPassphrase))
            #expect(try Self.notes(reopened) == ["alpha", "beta", "gamma", "delta"])
            try reopened.close()
            #expect(try Self.header(path) != Self.plaintextMagic)
        }

        @Test func changeKeyWorksInWALMode() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("wal.sqlite")
            try Self.makeEncrypted(path)
            let db = try Self.open(path, key: .passphrase(Self.passphrase))
            #expect(try db.setJournalMode(.wal) == .wal)
            try db.execute(sql: "INSERT INTO secret(note) VALUES ('delta')")
            try db.changeKey(to: .passphrase(Self.otherPassphrase))
            try db.execute(sql: "INSERT INTO secret(note) VALUES ('epsilon')")
            try db.close()

            #expect(
                capturedDatabaseError { try Self.open(path, key: .passphrase(Self.passphrase)) }?.resultCode
                    == .notADatabase)
            let reopened = try Self.open(path, key: .passphrase(Self.otherPassphrase))
            #expect(try Self.notes(reopened) == ["alpha", "beta", "gamma", "delta", "epsilon"])
            #expect(try reopened.journalMode == .wal)
        }

        @Test func changeKeyRefusesPlaintextConnectionsAndTransactions() throws {
            let plain = try Database.memory()
            let error = capturedDatabaseError { try plain.changeKey(to: .passphrase(Self.passphrase)) }
            #expect(error?.resultCode == .misuse)
            #expect(error?.message.contains("exportEncryptedCopy") == true)

            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)
            let db = try Self.open(path, key: .passphrase(Self.passphrase))
            try db.execute(sql: "BEGIN")
            #expect(
                capturedDatabaseError { try db.changeKey(to: .passphrase(Self.otherPassphrase)) }?.resultCode == .misuse
            )
            try db.execute(sql: "ROLLBACK")
        }

        // MARK: Export

        @Test func exportsPlaintextToEncryptedAndBack() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let plainPath = directory.path("plain.sqlite")
            let encryptedPath = directory.path("encrypted.sqlite")
            let roundTripPath = directory.path("round-trip.sqlite")

            let plain = try Self.open(plainPath, key: nil)
            try plain.execute(sql: "CREATE TABLE secret(id INTEGER PRIMARY KEY AUTOINCREMENT, note TEXT NOT NULL)")
            try plain.execute(sql: "CREATE INDEX secret_note ON secret(note)")
            try plain.execute(sql: "INSERT INTO secret(note) VALUES ('alpha'), ('beta'), ('gamma')")
            try plain.execute(sql: "PRAGMA user_version = 7")
            try plain.exportEncryptedCopy(to: encryptedPath, key: .passphrase(Self.passphrase))
            try plain.close()

            #expect(try Self.header(encryptedPath) != Self.plaintextMagic)
            #expect(capturedDatabaseError { try Self.open(encryptedPath, key: nil) }?.resultCode == .notADatabase)
            let encrypted = try Self.open(encryptedPath, key: .passphrase(Self.passphrase))
            #expect(try Self.notes(encrypted) == ["alpha", "beta", "gamma"])
            #expect(try encrypted.fetchValue(Int.self, sql: "PRAGMA user_version") == 7)
            #expect(
                try encrypted.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'secret_note'")
                    == 1)

            // An encrypted database re-exported under another key and other settings.
            let rekeyedPath = directory.path("rekeyed.sqlite")
            let settings = Database.CipherSettings(pageSize: 4096, kdfIterations: 20_000)
            try encrypted.exportEncryptedCopy(
                to: rekeyedPath, key: .passphrase(Self.otherPassphrase), cipherSettings: settings)
            var rekeyedConfiguration = Self.configuration(.passphrase(Self.otherPassphrase))
            rekeyedConfiguration.cipherSettings = settings
            #expect(
                try Self.notes(Database(path: rekeyedPath, configuration: rekeyedConfiguration)) == [
                    "alpha", "beta", "gamma",
                ])
            #expect(
                capturedDatabaseError { try Self.open(rekeyedPath, key: .passphrase(Self.passphrase)) }?.resultCode
                    == .notADatabase)
            #expect(
                capturedDatabaseError { try Self.open(rekeyedPath, key: .passphrase(Self.otherPassphrase)) }?.resultCode
                    == .notADatabase)

            try encrypted.exportPlaintextCopy(to: roundTripPath)
            try encrypted.close()
            #expect(try Self.header(roundTripPath) == Self.plaintextMagic)
            let roundTrip = try Self.open(roundTripPath, key: nil)
            #expect(try Self.notes(roundTrip) == ["alpha", "beta", "gamma"])
            #expect(try roundTrip.fetchValue(Int.self, sql: "PRAGMA user_version") == 7)
            // AUTOINCREMENT's sequence came along: the next key follows the old ones.
            try roundTrip.execute(sql: "INSERT INTO secret(note) VALUES ('delta')")
            #expect(roundTrip.lastInsertedRowID == 4)
        }

        @Test func exportRefusesAnExistingFileAndLeavesNothingBehindOnFailure() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)
            let db = try Self.open(path, key: .passphrase(Self.passphrase))

            let occupied = directory.path("occupied.sqlite")
            try Data("not empty".utf8).write(to: URL(fileURLWithPath: occupied))
            let error = capturedDatabaseError { try db.exportPlaintextCopy(to: occupied) }
            #expect(error?.resultCode == .cantOpen)
            #expect(try Data(contentsOf: URL(fileURLWithPath: occupied)) == Data("not empty".utf8))

            let badKey = directory.path("bad-key.sqlite")
            #expect(
                capturedDatabaseError { try db.exportEncryptedCopy(to: badKey, key: .raw(Data(count: 3))) }?.resultCode
                    == .misuse)
            #expect(!FileManager.default.fileExists(atPath: badKey))
            // The connection is still usable and nothing stayed attached.
            #expect(sqlite3_db_filename(db.handle, "slate_export") == nil)
            #expect(try Self.notes(db) == ["alpha", "beta", "gamma"])
        }

        // MARK: The key stays secret

        @Test func keyNeverAppearsInTracesErrorsOrDescriptions() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            let rawKey = Data((0..<32).map { UInt8(255 - $0) })
            let rawHex = rawKey.map { String(format: "%02x", $0) }.joined()
            let thirdPassphrase = "third passphrase 5be0"
            let secrets = [Self.passphrase, Self.otherPassphrase, thirdPassphrase, rawHex, rawHex.uppercased()]
            func leaks(_ text: String) -> [String] { secrets.filter { text.contains($0) } }

            var configuration = Self.configuration(.passphrase(Self.passphrase))
            configuration.label = "vault"
            let db = try Database(path: path, configuration: configuration)
            try db.execute(sql: "CREATE TABLE secret(note TEXT)")
            try db.execute(sql: "INSERT INTO secret VALUES ('x')")

            let traced = Collected<String>()
            let logged = Collected<String>()
            db.trace(.all) { event in
                traced.append(event.description)
                if let statement = event.tracedStatement {
                    traced.append(statement.sql)
                    traced.append(statement.expandedSQL ?? "")
                }
            }
            db.logStatements { logged.append($0) }

            try db.changeKey(to: .passphrase(Self.otherPassphrase))
            try db.exportEncryptedCopy(to: directory.path("copy.sqlite"), key: .passphrase(thirdPassphrase))
            try db.exportEncryptedCopy(to: directory.path("raw-copy.sqlite"), key: .raw(rawKey))
            try db.exportPlaintextCopy(to: directory.path("plain.sqlite"))
            let statement = try db.prepare(sql: "SELECT note FROM secret WHERE note = ?")
            try statement.bind("x")
            _ = try statement.step()
            let expanded = try #require(statement.expandedSQL)

            var texts = traced.values + logged.values + [expanded]
            #expect(traced.values.contains { $0.contains("ATTACH DATABASE") }, "the exports were traced")
            #expect(traced.values.contains { $0.contains("DETACH DATABASE") }, "tracing resumed after sqlcipher_export")
            #expect(logged.values.contains { $0.contains("ATTACH DATABASE") }, "the attachments were logged")

            // Errors: wrong keys at open, a failing export, a key change on a plaintext connection.
            for key in [Database.EncryptionKey.passphrase(Self.passphrase), .raw(rawKey)] {
                let error = try #require(capturedDatabaseError { try Self.open(path, key: key) })
                texts += [error.description, error.message, String(reflecting: error)]
            }
            let exportError = try #require(
                capturedDatabaseError {
                    try db.exportEncryptedCopy(to: directory.path("copy.sqlite"), key: .passphrase(thirdPassphrase))
                })
            texts.append(exportError.description)
            let plainError = try #require(capturedDatabaseError { try Database.memory().changeKey(to: .raw(rawKey)) })
            texts.append(plainError.description)

            // Descriptions, debug descriptions and mirrors of keys, configurations and connections.
            for key in [Database.EncryptionKey.passphrase(thirdPassphrase), .raw(rawKey)] {
                var dumped = ""
                dump(key, to: &dumped)
                texts += ["\(key)", String(reflecting: key), dumped]
                #expect("\(key)".contains("redacted"))
            }
            var dumpedConfiguration = ""
            dump(configuration, to: &dumpedConfiguration)
            texts += [
                String(describing: configuration), String(reflecting: configuration), dumpedConfiguration,
                db.description,
            ]
            #expect(dumpedConfiguration.contains("key"), "the dump lists the key property, without its value")

            for text in texts {
                #expect(leaks(text).isEmpty, "a key leaked into: \(text)")
            }
        }

        // MARK: SQL newer than SQLCipher's SQLite

        @Test func featuresNewerThanTheLibraryFailWithAClearError() throws {
            let db = try Self.open(":memory:", key: .passphrase(Self.passphrase))
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT UNIQUE, score INTEGER)")
            try db.execute(sql: "INSERT INTO player(name, score) VALUES ('Ann', 3), ('Bob', 5)")
            let version = Database.sqliteVersion
            let cases: [(SQLiteFeature, String)] = [
                (.returning, "INSERT INTO player(name, score) VALUES ('Cid', 1) RETURNING id"),
                (
                    .upsert,
                    """
                    INSERT INTO player(name, score)
                    VALUES ('Ann', 9)
                    ON CONFLICT(name) DO UPDATE SET score = excluded.score
                    """
                ),
                (.strictTables, "CREATE TABLE typed(id INTEGER PRIMARY KEY, label TEXT) STRICT"),
                (.windowFunctions, "SELECT name, row_number() OVER (ORDER BY score) FROM player"),
                (
                    .generatedColumns,
                    "CREATE TABLE shape(width REAL, height REAL, area REAL GENERATED ALWAYS AS (width * height))"
                ),
                (.dropColumn, "ALTER TABLE player DROP COLUMN score"),
                (.renameColumn, "ALTER TABLE player RENAME COLUMN score TO points"),
                (.sqliteSchema, "SELECT count(*) FROM sqlite_schema"),
                (.tableXInfo, "SELECT name FROM pragma_table_xinfo('player')"),
                (.tableList, "PRAGMA table_list"),
            ]
            var unavailable = 0
            for (feature, sql) in cases {
                let error = capturedDatabaseError { try db.execute(sql: sql) }
                if feature.isAvailable {
                    #expect(error == nil, "\(feature) is available on SQLite \(version): \(sql)")
                    continue
                }
                unavailable += 1
                let found = try #require(error, "\(feature) must fail on SQLite \(version)")
                #expect(found.resultCode == .error, "SQLite's code is kept: \(found)")
                #expect(found.message.contains(feature.name), "\(found.message)")
                #expect(found.message.contains(feature.minimumVersion), "\(found.message)")
                #expect(found.message.contains("this library is SQLite \(version)"), "\(found.message)")
                #expect(found.message.contains("SQLite said:") || sql.hasPrefix("PRAGMA"), "\(found.message)")
                #expect(found.sql != nil)
            }
            // Debian's SQLCipher 3.4.1 is built on SQLite 3.15.2: every one of these is newer.
            if Database.sqliteVersionNumber < 3_016_000 { #expect(unavailable == cases.count) }
            // The connection keeps working, and nothing was changed.
            #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM player") == 2)
            #expect(
                try db.fetchAll(String.self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                    == ["player"])
        }

        // MARK: Everything else keeps working

        @Test func poolReadersWALAndFunctionsWorkOnAnEncryptedFile() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("pool.sqlite")
            var configuration = Self.configuration(.passphrase(Self.passphrase))
            configuration.prepareDatabase = { db in
                try db.createFunction("double", argumentCount: 1, deterministic: true) { arguments in
                    try arguments.decode(Int.self, at: 0) * 2
                }
            }
            let pool = try DatabasePool(path: path, configuration: configuration, maximumReaderCount: 3)
            try await pool.write { db in
                try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, value INTEGER NOT NULL)")
                for value in 1...100 { try db.execute("INSERT INTO item(value) VALUES (\(value))") }
            }
            #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the pool runs in WAL mode")
            #expect(try await pool.read { try $0.journalMode } == .wal)

            // Several readers at once, each opened with the key, each with the function.
            let sums = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await pool.read { try $0.fetchValue(Int.self, sql: "SELECT sum(double(value)) FROM item") }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sums == Array(repeating: 10_100, count: 6))
            #expect(pool.readerCount >= 1)

            // The WAL holds encrypted pages too: the rows are not in the clear anywhere.
            let wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
            #expect(!wal.isEmpty)
            #expect(capturedDatabaseError { try Self.open(path, key: nil) }?.resultCode == .notADatabase)
            #expect(try Self.header(path) != Self.plaintextMagic)
        }

        @Test func hooksAndFunctionsWorkOnAnEncryptedConnection() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let db = try Self.open(directory.path("hooks.sqlite"), key: .passphrase(Self.passphrase))
            try db.execute(sql: "CREATE TABLE event(id INTEGER PRIMARY KEY, name TEXT)")
            let changes = Collected<DatabaseChange>()
            let commits = Collected<Int>()
            db.observeChanges { changes.append($0) }
            db.observeCommits {
                commits.append(1)
                return .proceed
            }
            try db.createFunction("shout", argumentCount: 1) { arguments in
                try arguments.decode(String.self, at: 0).uppercased()
            }

            try db.execute(sql: "INSERT INTO event(name) VALUES (shout('launch'))")
            try db.execute(sql: "UPDATE event SET name = shout('landed') WHERE id = 1")
            #expect(changes.values.map(\.kind) == [.insert, .update])
            #expect(changes.values.allSatisfy { $0.tableName == "event" && $0.rowID == 1 })
            #expect(commits.values.count == 2)
            #expect(try db.fetchValue(String.self, sql: "SELECT name FROM event") == "LANDED")
        }

        @Test func backupWritesAnEncryptedCopyWithTheCurrentKey() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("secret.sqlite")
            try Self.makeEncrypted(path)
            let db = try Self.open(path, key: .passphrase(Self.passphrase))
            try db.changeKey(to: .passphrase(Self.otherPassphrase))

            // backup(toFile:) keys the copy with the connection's current key.
            let copyPath = directory.path("copy.sqlite")
            try db.backup(toFile: copyPath)
            #expect(try Self.header(copyPath) != Self.plaintextMagic)
            #expect(
                try Self.notes(Self.open(copyPath, key: .passphrase(Self.otherPassphrase))) == [
                    "alpha", "beta", "gamma",
                ])
            #expect(capturedDatabaseError { try Self.open(copyPath, key: nil) }?.resultCode == .notADatabase)

            // backup(to:) into a connection the caller keyed.
            let keyedPath = directory.path("keyed.sqlite")
            let keyed = try Self.open(keyedPath, key: .passphrase(Self.otherPassphrase))
            try db.backup(to: keyed)
            #expect(try Self.notes(keyed) == ["alpha", "beta", "gamma"])
            try keyed.close()
            #expect(try Self.header(keyedPath) != Self.plaintextMagic)

            // An unkeyed destination would get a plaintext copy: refused, nothing is written.
            let plain = try Self.open(directory.path("plain.sqlite"), key: nil)
            let error = capturedDatabaseError { try db.backup(to: plain) }
            #expect(error?.resultCode == .misuse)
            #expect(error?.message.contains("exportPlaintextCopy") == true)
            #expect(try plain.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master") == 0)
        }

        @Test func migratorRunsOnAnEncryptedDatabase() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("migrated.sqlite")
            var migrator = Migrator()
            migrator.registerMigration("v1") { db in
                try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            }
            migrator.registerMigration("v2") { db in
                try db.execute(sql: "ALTER TABLE note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
            }
            let db = try Self.open(path, key: .passphrase(Self.passphrase))
            try migrator.migrate(db)
            #expect(try migrator.appliedMigrations(in: db) == ["v1", "v2"])
            try db.close()
            let reopened = try Self.open(path, key: .passphrase(Self.passphrase))
            #expect(try migrator.appliedMigrations(in: reopened) == ["v1", "v2"])
        }

        // MARK: Cipher settings

        @Test func cipherSettingsMustMatchTheFile() throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let path = directory.path("tuned.sqlite")
            var configuration = Self.configuration(.passphrase(Self.passphrase))
            configuration.cipherSettings = .init(pageSize: 4096, kdfIterations: 12_000)
            let db = try Database(path: path, configuration: configuration)
            try db.execute(sql: "CREATE TABLE t(x)")
            #expect(try db.fetchValue(Int.self, sql: "PRAGMA cipher_page_size") == 4096)
            #expect(try db.fetchValue(Int.self, sql: "PRAGMA kdf_iter") == 12_000)
            try db.close()

            // The right key with the library's default settings cannot read it.
            #expect(
                capturedDatabaseError { try Self.open(path, key: .passphrase(Self.passphrase)) }?.resultCode
                    == .notADatabase)
            #expect(
                try Database(path: path, configuration: configuration).fetchValue(
                    Int.self, sql: "SELECT count(*) FROM t") == 0)

            // Version 1's settings (no HMAC, 4,000 iterations) round-trip through `compatibility`.
            let legacyPath = directory.path("legacy.sqlite")
            var legacy = Self.configuration(.passphrase(Self.passphrase))
            legacy.cipherSettings = .init(compatibility: 1)
            try Database(path: legacyPath, configuration: legacy).execute(sql: "CREATE TABLE t(x)")
            #expect(
                try Database(path: legacyPath, configuration: legacy).fetchValue(Int.self, sql: "PRAGMA kdf_iter")
                    == 4000)
            #expect(
                capturedDatabaseError { try Self.open(legacyPath, key: .passphrase(Self.passphrase)) }?.resultCode
                    == .notADatabase)
        }

        @Test func unsupportedCipherSettingsAreRefused() throws {
            var withoutKey = Database.Configuration()
            withoutKey.cipherSettings = .init(pageSize: 4096)
            #expect(
                capturedDatabaseError { try Database(location: .inMemory, configuration: withoutKey) }?.resultCode
                    == .misuse)

            let cipherVersion = try #require(try Database.memory().cipherVersion)
            if cipherVersion.hasPrefix("3.") {
                var future = Self.configuration(.passphrase(Self.passphrase))
                future.cipherSettings = .init(compatibility: 4)
                let error = capturedDatabaseError { try Database(location: .inMemory, configuration: future) }
                #expect(error?.resultCode == .error)
                #expect(error?.message.contains("SQLCipher \(cipherVersion)") == true)
            }
        }
    }
#endif
