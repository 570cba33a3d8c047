// Encrypted databases, with the package trait `SQLCipher` only: without it none of this API
// exists, so code that asks for encryption cannot build against plain SQLite and silently write
// plaintext. See Documentation.docc/Encryption.md.
//
// The key never goes through SQL: it is handed to `sqlite3_key` / `sqlite3_rekey` /
// `sqlite3_key_v2` directly, so it cannot appear in traces, logged or expanded SQL, or error
// messages, and `EncryptionKey` redacts itself in descriptions and mirrors.
#if SQLCipher
    import CSQLite
    import Foundation

    extension Database {
        /// The key of an encrypted database: a passphrase, or raw key bytes.
        ///
        /// ```swift
        /// var configuration = Database.Configuration()
        /// configuration.key = .passphrase(passphraseFromTheKeychain)
        /// let db = try Database(path: path, configuration: configuration)
        /// ```
        ///
        /// Descriptions, debug descriptions and mirrors never show the key:
        /// `"\(key)"` is `EncryptionKey.passphrase(<redacted>)`.
        public enum EncryptionKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
            /// A passphrase. SQLCipher derives the key from it with PBKDF2 (see
            /// ``CipherSettings/kdfIterations``), with a random salt stored in the file. Must not be
            /// empty: SQLCipher takes an empty key to mean no encryption.
            case passphrase(String)
            /// A raw 256-bit key: 32 bytes, or 48 bytes for the key followed by the file's 16-byte
            /// salt. No key derivation runs, so opening is fast; the bytes must come from a good
            /// random source.
            case raw(Data)

            public var description: String {
                switch self {
                case .passphrase: "EncryptionKey.passphrase(<redacted>)"
                case .raw(let bytes): "EncryptionKey.raw(<redacted \(bytes.count) bytes>)"
                }
            }

            public var debugDescription: String { description }

            /// A mirror without children, so `dump` and reflection show no key material.
            public var customMirror: Mirror {
                Mirror(self, children: [(label: String?, value: Any)](), displayStyle: .enum)
            }

            /// Calls `body` with the bytes SQLCipher's key functions take: the passphrase's UTF-8, or
            /// `x'…'` with the raw key in hexadecimal. The temporary copy is zeroed afterwards.
            func withKeyMaterial<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
                var material: [UInt8]
                switch self {
                case .passphrase(let passphrase):
                    guard !passphrase.isEmpty else {
                        throw DatabaseError(
                            resultCode: .misuse,
                            message: "an empty passphrase means no encryption to SQLCipher: use a non-empty passphrase,"
                                + " or no key for a plaintext database")
                    }
                    material = Array(passphrase.utf8)
                case .raw(let bytes):
                    guard bytes.count == 32 || bytes.count == 48 else {
                        throw DatabaseError(
                            resultCode: .misuse,
                            message:
                                "a raw key is 32 bytes, or 48 bytes with its salt, but \(bytes.count) bytes were given")
                    }
                    let digits = Array("0123456789abcdef".utf8)
                    material = [UInt8(ascii: "x"), UInt8(ascii: "'")]
                    material.reserveCapacity(bytes.count * 2 + 3)
                    for byte in bytes {
                        material.append(digits[Int(byte >> 4)])
                        material.append(digits[Int(byte & 0x0F)])
                    }
                    material.append(UInt8(ascii: "'"))
                }
                defer {
                    for index in material.indices { material[index] = 0 }
                }
                return try material.withUnsafeBytes(body)
            }
        }

        /// SQLCipher settings that must match the ones a database file was made with.
        ///
        /// The defaults are those of the SQLCipher library in use and suit new databases. Set them
        /// to open files written with other settings, or by another major version of SQLCipher.
        /// Settings left `nil` keep the library's default.
        ///
        /// ```swift
        /// configuration.cipherSettings = .init(compatibility: 3)   // a file made by SQLCipher 3.x
        /// ```
        public struct CipherSettings: Sendable, Hashable {
            /// The SQLCipher major version whose default settings the file was made with (1 to 4).
            ///
            /// SQLCipher 4 and later take `PRAGMA cipher_compatibility`. Older libraries (Debian's
            /// 3.4.1) do not have the pragma: Slate applies the equivalent settings for 1 and 2, needs
            /// nothing for 3 (the 3.x defaults), and throws for 4 and later, which such a library
            /// cannot read.
            public var compatibility: Int?
            /// The page size of the encrypted file, in bytes (`PRAGMA cipher_page_size`; 1024 by
            /// default in SQLCipher 3, 4096 in SQLCipher 4).
            public var pageSize: Int?
            /// The number of PBKDF2 iterations that derive the key from a passphrase (`PRAGMA
            /// kdf_iter`; 64,000 by default in SQLCipher 3, 256,000 in SQLCipher 4). Ignored for raw
            /// keys.
            public var kdfIterations: Int?
            /// Whether each page carries an HMAC that detects tampering (`PRAGMA cipher_use_hmac`;
            /// on by default since SQLCipher 2).
            public var usesHMAC: Bool?

            /// Creates settings; every setting left `nil` keeps the library's default.
            public init(
                compatibility: Int? = nil, pageSize: Int? = nil, kdfIterations: Int? = nil, usesHMAC: Bool? = nil
            ) {
                self.compatibility = compatibility
                self.pageSize = pageSize
                self.kdfIterations = kdfIterations
                self.usesHMAC = usesHMAC
            }

            /// Whether every setting is the library's default.
            var isDefault: Bool { self == CipherSettings() }
        }

        /// The version of the SQLCipher library in use, such as `"3.4.1"` (`PRAGMA cipher_version`),
        /// or `nil` when the connection is closed or the library answers no version.
        ///
        /// - Throws: ``DatabaseError`` when SQLite fails to run the pragma.
        public var cipherVersion: String? {
            get throws {
                guard !isClosed else { return nil }
                return try fetchOne(String.self, sql: "PRAGMA cipher_version")
            }
        }

        /// Changes the key of this encrypted database: every page is re-encrypted with `newKey`
        /// (`sqlite3_rekey`).
        ///
        /// ```swift
        /// try db.changeKey(to: .passphrase(newPassphrase))
        /// ```
        ///
        /// Only this connection knows the new key. Change keys on a connection that is the only one
        /// open on the file (a ``Database`` or a ``DatabaseQueue``, not a ``DatabasePool``, whose
        /// readers keep the old key), then open later connections with the new key. A backup
        /// made with ``backup(toFile:pagesPerStep:progress:)`` afterwards uses the new key.
        ///
        /// To encrypt a plaintext database, or to decrypt one, write a copy with
        /// ``exportEncryptedCopy(to:key:cipherSettings:)`` or ``exportPlaintextCopy(to:)``: SQLCipher
        /// cannot rekey a file in place into or out of encryption.
        ///
        /// The change is checked: a second, read-only connection must open the file with `newKey`.
        /// SQLCipher 3 answers success even when the rekey failed, and leaves the connection
        /// encrypting with the new key a file that may still have the old one; when the check fails,
        /// this method closes the connection before it writes a page, and throws.
        ///
        /// - Throws: ``DatabaseError``: ``ResultCode/misuse`` when the connection was opened without
        ///   a key, is inside a transaction, or is closed, or when `newKey` is not valid; when the
        ///   change failed, an error that says whether the file keeps its old key (the connection is
        ///   then closed: reopen the database), with SQLite's I/O code when the check met one and
        ///   ``ResultCode/error`` otherwise (SQLCipher 3 does not report the cause).
        public func changeKey(to newKey: EncryptionKey) throws {
            try requireOpen(for: "changeKey(to:)")
            guard encryptionKey != nil else {
                throw DatabaseError(
                    resultCode: .misuse,
                    message:
                        "changeKey(to:) re-encrypts an encrypted database, but this connection was opened without a key;"
                        + " use exportEncryptedCopy(to:key:) to write an encrypted copy of a plaintext database")
            }
            guard !isInTransaction else {
                throw DatabaseError(resultCode: .misuse, message: "changeKey(to:) cannot run inside a transaction")
            }
            statementCache.removeAll()
            let code = try newKey.withKeyMaterial { material in
                sqlite3_rekey(handle, material.baseAddress, Int32(material.count))
            }
            // SQLCipher 3 answers SQLITE_OK even when the rekey failed (an I/O error, a full disk, a
            // busy database), and leaves the connection writing with the new key over a file that
            // may still have the old one: its next write would mix the keys. A second connection
            // proves the file opens with the new key; otherwise this one is closed before it writes.
            var failure: DatabaseError? =
                code == SQLITE_OK ? verifyKey(newKey) : DatabaseError.lastError(of: handle, code: code)
            guard var cause = failure else {
                encryptionKey = newKey
                return
            }
            closeForcibly()
            if code == SQLITE_OK, cause.resultCode == .busy || cause.resultCode == .locked {
                // This connection, failed in the middle of its commit, held the lock: check again.
                failure = verifyKey(newKey)
                cause = failure ?? cause
            }
            // The verifier answers SQLITE_NOTADB when the file has the old key, and SQLITE_READONLY
            // (read-only, it cannot roll back) when the rekey left a hot journal: it did not commit.
            let state: String
            if failure == nil {
                state = "the file has the new key all the same"
            } else if code != SQLITE_OK || cause.resultCode == .notADatabase || cause.resultCode == .readOnly {
                state = "the database keeps its old key"
            } else {
                state =
                    "whether the file now needs the new key or the old one could not be checked: open it with the old key, and with the new one if that fails"
            }
            closedReason =
                "changeKey(to:) failed, and SQLCipher may have left the connection encrypting with the new key; \(state)"
                + "; reopen the database"
            throw DatabaseError(
                resultCode: failure != nil && Self.causeCodes.contains(cause.resultCode)
                    ? cause.extendedResultCode : .error,
                message:
                    "changing the key failed (\(failure == nil ? "SQLCipher did not report success" : cause.message)); \(state);"
                    + " the connection was closed: reopen the database")
        }

        /// The codes of a failed check of the new key that say what went wrong with the file; any
        /// other failure is reported as SQLITE_ERROR, since SQLCipher does not say.
        private static let causeCodes: Set<ResultCode> = [.ioError, .full, .cantOpen, .noMemory]

        /// `nil` when a second, read-only connection, with this one's location and cipher settings,
        /// opens the file with `key` and reads its schema; the error otherwise. Read-only, so that it
        /// never rolls back a journal with a key that may be the wrong one.
        private func verifyKey(_ key: EncryptionKey) -> DatabaseError? {
            var settings = Database.Configuration()
            settings.isReadOnly = true
            settings.key = key
            settings.cipherSettings = configuration.cipherSettings
            settings.foreignKeysEnabled = false
            settings.busyTimeout = configuration.busyTimeout
            do {
                let verifier = try Database(location: location, configuration: settings)
                try verifier.close()
                return nil
            } catch let error as DatabaseError {
                return error
            } catch {
                return DatabaseError(resultCode: .error, message: "\(error)".truncatedForMessages)
            }
        }

        /// Writes an encrypted copy of this database into a new file (`sqlcipher_export`).
        ///
        /// This is how a plaintext database becomes encrypted, or an encrypted one changes its
        /// cipher settings:
        ///
        /// ```swift
        /// let plain = try Database(path: "notes.sqlite")
        /// try plain.exportEncryptedCopy(to: "notes-encrypted.sqlite", key: .passphrase(passphrase))
        /// ```
        ///
        /// The schema, the rows, `user_version` and the sequence of `AUTOINCREMENT` keys are copied.
        /// The copy is written in one transaction; the path is bound as a parameter and the key is
        /// given to SQLCipher directly, never through SQL.
        ///
        /// - Parameters:
        ///   - path: The new file. It must not exist, or be empty.
        ///   - key: The copy's key.
        ///   - cipherSettings: The copy's cipher settings. Default: the library's defaults.
        /// - Throws: ``DatabaseError``: ``ResultCode/cantOpen`` when the file exists and is not
        ///   empty, ``ResultCode/misuse`` for an invalid key or inside a transaction, whatever
        ///   SQLCipher reports otherwise. A copy that failed half way is deleted.
        public func exportEncryptedCopy(
            to path: String, key: EncryptionKey, cipherSettings: CipherSettings = CipherSettings()
        ) throws {
            try export(to: path, operation: "exportEncryptedCopy(to:key:)") { schema in
                // ATTACH without KEY would give the copy this connection's key; replace it with the
                // copy's own before anything is written.
                try execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [path])
                let code = try key.withKeyMaterial { material in
                    sqlite3_key_v2(handle, schema, material.baseAddress, Int32(material.count))
                }
                guard code == SQLITE_OK else {
                    var error = DatabaseError.lastError(of: handle, code: code)
                    error.message = "cannot key the copy: \(error.message)"
                    throw error
                }
                try applyCipherSettings(cipherSettings, schema: schema)
            }
        }

        /// Writes a plaintext copy of this encrypted database into a new file (`sqlcipher_export`).
        ///
        /// ```swift
        /// try encrypted.exportPlaintextCopy(to: "notes-plain.sqlite")
        /// ```
        ///
        /// The copy is an ordinary SQLite database that any SQLite library opens. See
        /// ``exportEncryptedCopy(to:key:cipherSettings:)`` for what is copied.
        ///
        /// - Parameter path: The new file. It must not exist, or be empty.
        /// - Throws: ``DatabaseError``: ``ResultCode/cantOpen`` when the file exists and is not
        ///   empty, ``ResultCode/misuse`` inside a transaction, whatever SQLCipher reports otherwise.
        ///   A copy that failed half way is deleted.
        public func exportPlaintextCopy(to path: String) throws {
            try export(to: path, operation: "exportPlaintextCopy(to:)") { schema in
                // An empty key attaches the file without encryption.
                try execute(sql: "ATTACH DATABASE ? AS \(schema) KEY ''", arguments: [path])
            }
        }

        /// Attaches `path` through `attach`, runs `sqlcipher_export` into it and detaches it.
        private func export(to path: String, operation: String, attach: (String) throws -> Void) throws {
            try requireOpen(for: operation)
            guard !isInTransaction else {
                throw DatabaseError(resultCode: .misuse, message: "\(operation) cannot run inside a transaction")
            }
            let existed = FileManager.default.fileExists(atPath: path)
            if existed {
                // An existing file must be empty: a size that cannot be read counts as not empty, so an
                // export never writes into a database it could not check.
                let attributes: [FileAttributeKey: Any]
                do {
                    attributes = try FileManager.default.attributesOfItem(atPath: path)
                } catch {
                    throw DatabaseError(
                        resultCode: .cantOpen,
                        message:
                            "\(operation): the file at \(path) exists and its size cannot be read (\(error.localizedDescription)); export into a new file"
                    )
                }
                if ((attributes[.size] as? NSNumber)?.intValue ?? 1) > 0 {
                    throw DatabaseError(
                        resultCode: .cantOpen,
                        message: "\(operation): the file at \(path) exists and is not empty; export into a new file")
                }
            }
            let schema = "slate_export"
            do {
                try attach(schema)
                do {
                    try withoutTraceCallback {
                        try execute(sql: "SELECT sqlcipher_export('\(schema)')")
                    }
                } catch var error as DatabaseError {
                    // sqlcipher_export reports SQLite's failures as SQLITE_ERROR with the message of
                    // SQLite's code ("disk I/O error"): the code is recovered from the message.
                    if error.extendedResultCode == .error, let code = Self.resultCode(named: error.message) {
                        error.extendedResultCode = code
                    }
                    throw error
                }
                // sqlcipher_export copies neither header field in SQLCipher 3.
                for field in ["user_version", "application_id"] {
                    let value = try fetchValue(Int.self, sql: "PRAGMA main.\(field)")
                    try execute(sql: "PRAGMA \(schema).\(field) = \(value)")
                }
                try execute(sql: "DETACH DATABASE \(schema)")
            } catch {
                var cleanupFailures: [any Error] = []
                if sqlite3_db_filename(handle, schema) != nil {
                    do { try execute(sql: "DETACH DATABASE \(schema)") } catch { cleanupFailures.append(error) }
                }
                if !existed, FileManager.default.fileExists(atPath: path) {
                    do { try FileManager.default.removeItem(atPath: path) } catch { cleanupFailures.append(error) }
                }
                throw Self.error(error, notingCleanupFailures: cleanupFailures)
            }
        }

        /// The primary code whose `sqlite3_errstr` text is `message`, among the failures an export
        /// can meet, or `nil`.
        private static func resultCode(named message: String) -> ResultCode? {
            let candidates: [Int32] = [
                SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOMEM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CORRUPT,
                SQLITE_NOTADB, SQLITE_READONLY,
            ]
            return candidates.first { String(cString: sqlite3_errstr($0)) == message }.map(ResultCode.init(rawValue:))
        }

        /// Runs `body` with SQLite's trace callback removed, then puts it back.
        ///
        /// SQLCipher 3's `sqlcipher_export` clears the connection's trace function but not its trace
        /// mask while it runs its own statements, so SQLite then calls a null function: with an
        /// observer registered through ``trace(_:_:)`` the process crashes. Without the callback the
        /// export's statement is not traced, and neither are the statements SQLCipher runs inside it.
        private func withoutTraceCallback<Result>(_ body: () throws -> Result) rethrows -> Result {
            guard !tracing.installedKinds.isEmpty else { return try body() }
            sqlite3_trace_v2(handle, 0, nil, nil)
            tracing.installedKinds = []
            defer { updateTraceCallback() }
            return try body()
        }

        /// An encrypted database backs up only into a keyed destination: SQLCipher would otherwise
        /// write its pages decrypted, a plaintext copy nobody asked for.
        func checkEncryptedBackup(to destination: Database) throws {
            guard encryptionKey != nil, destination.encryptionKey == nil else { return }
            throw DatabaseError(
                resultCode: .misuse,
                message:
                    "cannot back up an encrypted database into a connection opened without a key: open the destination"
                    + " with a key (or use backup(toFile:), which uses this connection's key); to decrypt on purpose,"
                    + " use exportPlaintextCopy(to:)")
        }

        // MARK: Opening

        /// Keys the connection, applies the cipher settings and proves the key right by reading
        /// the schema, so that a wrong key fails the initializer rather than a later query.
        func applyEncryption() throws {
            guard let key = configuration.key else {
                guard configuration.cipherSettings.isDefault else {
                    throw DatabaseError(
                        resultCode: .misuse,
                        message:
                            "Configuration.cipherSettings were given without Configuration.key; they apply to encrypted databases only"
                    )
                }
                return
            }
            let code = try key.withKeyMaterial { material in
                sqlite3_key(handle, material.baseAddress, Int32(material.count))
            }
            guard code == SQLITE_OK else {
                var error = DatabaseError.lastError(of: handle, code: code)
                error.message = "cannot set the key: \(error.message)"
                throw error
            }
            encryptionKey = key
            try applyCipherSettings(configuration.cipherSettings, schema: "main")
            do {
                let statement = try Statement(
                    database: self, sql: "SELECT count(*) FROM sqlite_master", persistent: false)
                _ = try statement.step()
            } catch var error as DatabaseError where error.resultCode == .notADatabase {
                error.message +=
                    " (the key is wrong, the cipher settings do not match the file's, or the file is not encrypted)"
                throw error
            }
        }

        /// Applies `settings` to the attached database `schema` (`main` for the connection's own).
        func applyCipherSettings(_ settings: CipherSettings, schema: String) throws {
            var pragmas: [(name: String, value: String)] = []
            if let compatibility = settings.compatibility {
                pragmas += try compatibilityPragmas(compatibility)
            }
            if let pageSize = settings.pageSize { pragmas.append(("cipher_page_size", String(pageSize))) }
            if let iterations = settings.kdfIterations { pragmas.append(("kdf_iter", String(iterations))) }
            if let usesHMAC = settings.usesHMAC { pragmas.append(("cipher_use_hmac", usesHMAC ? "ON" : "OFF")) }
            for pragma in pragmas {
                try execute(sql: "PRAGMA \(schema.quotedIdentifier).\(pragma.name) = \(pragma.value)")
            }
        }

        /// `PRAGMA cipher_compatibility` on SQLCipher 4 and later, or its equivalent on SQLCipher 3,
        /// which has no such pragma.
        private func compatibilityPragmas(_ version: Int) throws -> [(name: String, value: String)] {
            let library = try cipherVersion ?? "unknown"
            let major = Int(library.prefix { $0.isNumber }) ?? 0
            guard (1...4).contains(version) || (major >= 4 && version >= 1) else {
                throw DatabaseError(
                    resultCode: .misuse, message: "cipher compatibility \(version) is not a SQLCipher major version")
            }
            if major >= 4 { return [("cipher_compatibility", String(version))] }
            switch version {
            case 1: return [("cipher_page_size", "1024"), ("kdf_iter", "4000"), ("cipher_use_hmac", "OFF")]
            case 2: return [("cipher_page_size", "1024"), ("kdf_iter", "4000"), ("cipher_use_hmac", "ON")]
            case 3: return []
            default:
                throw DatabaseError(
                    resultCode: .error,
                    message:
                        "cipher compatibility \(version) needs SQLCipher \(version) or later, but this library is SQLCipher \(library)"
                )
            }
        }
    }
#endif
