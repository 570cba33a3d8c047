// SQLCipher's rekey and encrypted export under every fault: these sweeps exist only with the
// SQLCipher trait (`.ci/run`'s SQLCipher step).
#if SQLCipher
    import CSQLite
    import Foundation
    import Slate
    import SlateTestingFaults
    import Testing

    @Suite(.serialized) struct RekeySweepTests {
        /// Raw keys: no key derivation, so each run opens the file quickly.
        static let oldKey = Database.EncryptionKey.raw(Data((0..<32).map { UInt8($0) }))
        static let newKey = Database.EncryptionKey.raw(Data((0..<32).map { UInt8(255 - $0) }))

        static func configuration(_ key: Database.EncryptionKey) -> Database.Configuration {
            var configuration = Database.Configuration()
            configuration.key = key
            return configuration
        }

        /// Opens `path` with whichever key works, the old one first (as changeKey(to:)'s error
        /// advises: a journal left by a failed rekey rolls back with the old key), and notes which.
        static func openWithEitherKey(_ path: String, context: FaultRunContext) throws -> Database {
            do {
                let db = try Database(path: path, configuration: configuration(oldKey))
                context.tally("files opened with the old key")
                return db
            } catch let error as DatabaseError where error.resultCode == .notADatabase {
                let db = try Database(path: path, configuration: configuration(newKey))
                context.tally("files opened with the new key")
                return db
            }
        }

        /// `changeKey(to:)` on an encrypted ledger of 6 batches, then a batch written with the
        /// new key on the same connection.
        struct Rekey: FaultScenario {
            func prepare(at path: String) throws {
                let db = try Database(path: path, configuration: RekeySweepTests.configuration(RekeySweepTests.oldKey))
                try Ledger.create(db)
                for batch in 1...6 { try db.transaction { try Ledger.insert(batch: batch, into: db) } }
                try db.close()
            }

            func run(_ context: FaultRunContext) throws -> Bool {
                let db = try Database(
                    location: context.location, configuration: RekeySweepTests.configuration(RekeySweepTests.oldKey))
                defer { try? db.close() }
                context.attempt("rekey")
                do {
                    try db.changeKey(to: RekeySweepTests.newKey)
                } catch {
                    context.probe(after: error) { try Ledger.probe(db) }
                    throw error
                }
                context.reportDone("rekey")
                context.attempt("batch 7")
                try db.transaction { try Ledger.insert(batch: 7, into: db) }
                context.reportDone("batch 7")
                try Ledger.readBack(batch: 7, from: db, context: context)
                return true
            }

            func open(at path: String, context: FaultRunContext) throws -> Database {
                try RekeySweepTests.openWithEitherKey(path, context: context)
            }

            func verify(_ db: Database, outcome: Result<Bool, any Error>, context: FaultRunContext) throws {
                try Ledger.verify(db, context: context, seeded: 6)
                if context.done.contains("rekey"), context.tallies["files opened with the new key"] == nil {
                    throw FaultIssue(
                        .lostCommit, "changeKey(to:) reported success, and the file opens only with the old key")
                }
            }
        }

        /// `exportEncryptedCopy(to:key:)` of the encrypted ledger into a new file.
        struct EncryptedExport: FaultScenario {
            func prepare(at path: String) throws {
                try Rekey().prepare(at: path)
            }

            func run(_ context: FaultRunContext) throws -> Bool {
                let db = try Database(
                    location: context.location, configuration: RekeySweepTests.configuration(RekeySweepTests.oldKey))
                defer { try? db.close() }
                context.attempt("export")
                do {
                    try db.exportEncryptedCopy(to: context.sibling("copy.sqlite"), key: RekeySweepTests.newKey)
                } catch {
                    context.probe(after: error) { try Ledger.probe(db) }
                    throw error
                }
                context.reportDone("export")
                return true
            }

            func open(at path: String, context: FaultRunContext) throws -> Database {
                try Database(path: path, configuration: RekeySweepTests.configuration(RekeySweepTests.oldKey))
            }

            func verify(_ db: Database, outcome: Result<Bool, any Error>, context: FaultRunContext) throws {
                try Ledger.verify(db, context: context, seeded: 6)
                let path = context.sibling("copy.sqlite")
                guard case .success = outcome else {
                    if FileManager.default.fileExists(atPath: path) {
                        throw FaultIssue(.halfApplied, "the export failed and left a file at its destination")
                    }
                    return
                }
                let copy = try Database(
                    path: path, configuration: RekeySweepTests.configuration(RekeySweepTests.newKey))
                defer { try? copy.close() }
                guard try copy.fetchAll(String.self, sql: "PRAGMA integrity_check") == ["ok"],
                    try CopySweepTests.digest(copy, excluding: "probe") == CopySweepTests.digest(db, excluding: "probe")
                else {
                    throw FaultIssue(.lostCommit, "the export reported success and its copy differs from the source")
                }
                context.tally("copies verified")
            }
        }

        // MARK: Findings

        /// A ledger of 6 batches under the old key, and a connection to it through `faults`.
        static func encryptedLedger(_ directory: TemporaryDirectory, faults: FaultInjector) throws -> (String, Database)
        {
            let path = directory.path("ledger.sqlite")
            try Rekey().prepare(at: path)
            var configuration = configuration(oldKey)
            configuration.busyTimeout = 0.1
            return (path, try Database(location: faults.location(ofFile: path), configuration: configuration))
        }

        /// Found by the rekey sweep (an I/O error or a full disk at a write of the rekey): SQLCipher 3
        /// answered SQLITE_OK, changeKey(to:) reported success, the file still had the old key, and
        /// the connection's next write encrypted its pages with the new key: a file no key opens.
        @Test func aFailedRekeyIsReportedAndTheConnectionClosed() throws {
            let directory = try TemporaryDirectory()
            let faults = try FaultInjector()
            let (path, db) = try Self.encryptedLedger(directory, faults: faults)
            faults.resetCounts()
            faults.schedule(FaultInjector.Fault(.write, occurrence: 5, kind: .ioError))
            let error = #expect(throws: DatabaseError.self) { try db.changeKey(to: Self.newKey) }
            #expect(error?.message.contains("keeps its old key") == true, "\(String(describing: error))")
            faults.schedule(nil)
            // The connection refuses to write rather than mix keys, and says why.
            let closed = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO probe(note) VALUES ('mixed keys?')")
            }
            #expect(closed?.resultCode == .misuse)
            #expect(closed?.message.contains("reopen the database") == true)
            let reopened = try Database(path: path, configuration: Self.configuration(Self.oldKey))
            #expect(try reopened.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
            #expect(try reopened.fetchValue(Int.self, sql: "SELECT count(*) FROM item") == 6 * Ledger.rowsPerBatch)
        }

        /// The same without any fault: another connection holds the write lock, SQLCipher 3's rekey
        /// cannot begin and answers SQLITE_OK; changeKey(to:) reported success, and the new key it
        /// had taken did not open the file.
        @Test func aRekeyThatCouldNotBeginIsReported() throws {
            let directory = try TemporaryDirectory()
            let faults = try FaultInjector()
            let (path, db) = try Self.encryptedLedger(directory, faults: faults)
            let other = try Database(path: path, configuration: Self.configuration(Self.oldKey))
            try other.execute(sql: "BEGIN IMMEDIATE")
            #expect(throws: DatabaseError.self) { try db.changeKey(to: Self.newKey) }
            try other.execute(sql: "ROLLBACK")
            try other.close()
            #expect(throws: DatabaseError.self) {
                try Database(path: path, configuration: Self.configuration(Self.newKey))
            }
            let reopened = try Database(path: path, configuration: Self.configuration(Self.oldKey))
            #expect(try reopened.fetchValue(Int.self, sql: "SELECT count(*) FROM item") == 6 * Ledger.rowsPerBatch)
        }

        /// SQLCipher 3.4.1 itself, without Slate (docs/RELIABILITY.md, "SQLCipher 3's rekey"): with an
        /// I/O error in the middle of `sqlite3_rekey`, it answers SQLITE_OK, the file keeps the old
        /// key, and the connection's next write leaves a file that neither key opens intact. If this
        /// test fails, the SQLCipher in use reports a failed rekey: update the documentation.
        @Test func sqlcipherLosesDataAfterAFailedRekey() throws {
            let directory = try TemporaryDirectory()
            let faults = try FaultInjector()
            let path = directory.path("ledger.sqlite")
            try Rekey().prepare(at: path)
            func key(_ bytes: [UInt8]) -> [UInt8] {
                Array(("x'" + bytes.map { String(format: "%02x", $0) }.joined() + "'").utf8)
            }
            let oldKey = key((0..<32).map { UInt8($0) })
            let newKey = key((0..<32).map { UInt8(255 - $0) })
            var handle: OpaquePointer?
            #expect(
                sqlite3_open_v2(faults.uri(ofFile: path), &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, nil)
                    == SQLITE_OK)
            #expect(sqlite3_key(handle, oldKey, Int32(oldKey.count)) == SQLITE_OK)
            #expect(sqlite3_exec(handle, "SELECT count(*) FROM item", nil, nil, nil) == SQLITE_OK)
            faults.resetCounts()
            faults.schedule(FaultInjector.Fault(.write, occurrence: 5, kind: .ioError))
            let rekey = sqlite3_rekey(handle, newKey, Int32(newKey.count))
            faults.schedule(nil)
            #expect(faults.injectedFaultCount == 1)
            #expect(rekey == SQLITE_OK, "SQLCipher reported the failed rekey")
            let write = sqlite3_exec(handle, "INSERT INTO probe(note) VALUES ('after the rekey')", nil, nil, nil)
            #expect(write == SQLITE_OK)
            #expect(sqlite3_close(handle) == SQLITE_OK)
            for key in [Self.oldKey, Self.newKey] {
                let intact =
                    try? Database(path: path, configuration: Self.configuration(key))
                    .fetchAll(String.self, sql: "PRAGMA integrity_check") == ["ok"]
                #expect(intact != true, "the file opens intact with one of the keys")
            }
        }

        /// A rekey that succeeds is checked and keeps the connection.
        @Test func aRekeyThatSucceedsKeepsTheConnection() throws {
            let directory = try TemporaryDirectory()
            let faults = try FaultInjector()
            let (path, db) = try Self.encryptedLedger(directory, faults: faults)
            try db.changeKey(to: Self.newKey)
            try db.transaction { try Ledger.insert(batch: 7, into: db) }
            try db.close()
            let reopened = try Database(path: path, configuration: Self.configuration(Self.newKey))
            #expect(try reopened.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok")
            #expect(try reopened.fetchValue(Int.self, sql: "SELECT count(*) FROM item") == 7 * Ledger.rowsPerBatch)
        }

        /// Found by the encrypted-export sweep: sqlcipher_export reported an I/O error as
        /// SQLITE_ERROR with the text "disk I/O error"; the error now carries SQLITE_IOERR.
        @Test func anExportKeepsSQLitesCode() throws {
            let directory = try TemporaryDirectory()
            let faults = try FaultInjector()
            let (_, db) = try Self.encryptedLedger(directory, faults: faults)
            faults.resetCounts()
            faults.schedule(FaultInjector.Fault(.write, occurrence: 2, kind: .ioError, isPersistent: true))
            let error = #expect(throws: DatabaseError.self) {
                try db.exportEncryptedCopy(to: directory.path("copy.sqlite"), key: Self.newKey)
            }
            #expect(error?.resultCode == .ioError, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: directory.path("copy.sqlite")))
        }

        @Test func rekey() throws {
            // SQLCipher 3 reports no code when a rekey fails (it answers SQLITE_OK); changeKey(to:)
            // then throws SQLITE_ERROR, with what its check of the new key found.
            try SweepSettings.run(Rekey(), named: "SQLCipher rekey", coverage: .sample(16), acceptedCodes: [.error])
        }

        @Test func encryptedExport() throws {
            try SweepSettings.run(EncryptedExport(), named: "SQLCipher encrypted export", coverage: .sample(12))
        }
    }
#endif
