import CSQLite
import Foundation

/// How far an online backup has come, reported after each step of
/// ``Database/backup(to:pagesPerStep:progress:)``.
public struct BackupProgress: Sendable, Hashable, CustomStringConvertible {
    /// The number of pages still to copy (`sqlite3_backup_remaining`).
    public var remainingPageCount: Int
    /// The number of pages in the source database (`sqlite3_backup_pagecount`). It can change
    /// between steps when another connection writes to the source.
    public var totalPageCount: Int

    /// Creates a progress report.
    public init(remainingPageCount: Int, totalPageCount: Int) {
        self.remainingPageCount = remainingPageCount
        self.totalPageCount = totalPageCount
    }

    /// The number of pages copied so far.
    public var completedPageCount: Int { max(0, totalPageCount - remainingPageCount) }

    /// The fraction of pages copied, from 0 to 1.
    public var fractionCompleted: Double {
        totalPageCount > 0 ? Double(completedPageCount) / Double(totalPageCount) : 1
    }

    /// Whether every page has been copied.
    public var isFinished: Bool { remainingPageCount == 0 }

    /// A short description such as `12/40 pages`.
    public var description: String { "\(completedPageCount)/\(totalPageCount) pages" }
}

/// What a backup's progress callback decides after each step.
public enum BackupDecision: Sendable, Hashable {
    /// Copies the next pages.
    case `continue`
    /// Stops the backup, leaving the destination unchanged, and makes it throw.
    case cancel
}

extension Database {
    /// Copies this database into `destination` with SQLite's online backup API, replacing the
    /// destination's contents.
    ///
    /// The copy is made `pagesPerStep` pages at a time, calling `progress` after each step. The
    /// source stays readable between steps; if another connection writes to it, SQLite restarts
    /// the copy. When the source or destination is busy or locked, the step is retried after a
    /// short sleep, for up to the longer of the two connections' ``busyTimeout``s.
    ///
    /// ```swift
    /// try db.backup(to: copy, pagesPerStep: 64) { progress in
    ///     print("\(Int(progress.fractionCompleted * 100))%")
    ///     return .continue
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - destination: Another open connection. Its main database is overwritten. It must not be
    ///     used while the backup runs.
    ///   - pagesPerStep: How many pages each step copies; values below 1 copy everything in one
    ///     step. Default 100.
    ///   - progress: Called after each step with the pages remaining and the total. Return
    ///     ``BackupDecision/cancel`` to stop; the answer to the final report, once every page
    ///     is copied, is ignored because the copy is already complete.
    /// - Throws: ``DatabaseError``: ``ResultCode/abort`` when `progress` cancelled the backup (the
    ///   destination is left unchanged), ``ResultCode/busy`` or ``ResultCode/locked`` when the
    ///   retries ran out, ``ResultCode/error`` when `destination` is this connection, or whatever
    ///   SQLite reports.
    public func backup(
        to destination: Database,
        pagesPerStep: Int32 = 100,
        progress: ((BackupProgress) -> BackupDecision)? = nil
    ) throws {
        try requireOpen(for: "backup")
        try destination.requireOpen(for: "backup")
        guard destination !== self else {
            throw DatabaseError(resultCode: .error, message: "cannot back up a connection into itself")
        }
        #if SQLCipher
            try checkEncryptedBackup(to: destination)  // Database+Encryption.swift
        #endif
        let retryBudget = max(try busyTimeout, try destination.busyTimeout)
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            var error = DatabaseError.lastError(of: destination.handle, code: sqlite3_errcode(destination.handle))
            error.message = "cannot start the backup: \(error.message)"
            throw error
        }
        var busySince: Date?
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep < 1 ? -1 : pagesPerStep)
            switch code {
            case SQLITE_OK, SQLITE_DONE:
                busySince = nil
                let report = BackupProgress(
                    remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                    totalPageCount: Int(sqlite3_backup_pagecount(backup)))
                let decision = progress?(report) ?? .continue
                if code == SQLITE_DONE {
                    let finishCode = sqlite3_backup_finish(backup)
                    guard finishCode == SQLITE_OK else {
                        throw DatabaseError.lastError(of: destination.handle, code: finishCode)
                    }
                    return
                }
                if decision == .cancel {
                    sqlite3_backup_finish(backup)
                    throw DatabaseError(
                        resultCode: .abort,
                        message: "the backup was cancelled after copying \(report.completedPageCount) of "
                            + "\(report.totalPageCount) pages; the destination is unchanged")
                }
            case SQLITE_BUSY, SQLITE_LOCKED:
                let start = busySince ?? Date()
                busySince = start
                guard Date().timeIntervalSince(start) < retryBudget else {
                    sqlite3_backup_finish(backup)
                    throw DatabaseError(
                        resultCode: ResultCode(rawValue: code),
                        message: "the backup gave up: the database stayed \(code == SQLITE_BUSY ? "busy" : "locked")"
                            + " for \(retryBudget) seconds")
                }
                Thread.sleep(forTimeInterval: 0.01)
            default:
                // backup_finish reports the step's error and records it on the destination.
                let finishCode = sqlite3_backup_finish(backup)
                var error = DatabaseError.lastError(
                    of: destination.handle, code: finishCode == SQLITE_OK ? code : finishCode)
                error.message = "the backup failed: \(error.message)"
                throw error
            }
        }
    }

    /// Copies this database into the file at `path`, creating it or replacing its contents.
    ///
    /// See ``backup(to:pagesPerStep:progress:)`` for the parameters and errors.
    ///
    /// - Throws: ``DatabaseError`` when the file cannot be opened or the backup fails.
    public func backup(
        toFile path: String,
        pagesPerStep: Int32 = 100,
        progress: ((BackupProgress) -> BackupDecision)? = nil
    ) throws {
        var configuration = Database.Configuration()
        configuration.foreignKeysEnabled = false
        #if SQLCipher
            // SQLCipher copies pages only between files encrypted alike: the copy gets this
            // connection's current key and cipher settings.
            configuration.key = encryptionKey
            configuration.cipherSettings = self.configuration.cipherSettings
        #endif
        let previousSize = Self.sizeOfFile(at: path)
        do {
            let destination = try Database(location: .file(path), configuration: configuration)
            do {
                try backup(to: destination, pagesPerStep: pagesPerStep, progress: progress)
            } catch {
                destination.closeForcibly()
                throw error
            }
            try destination.close()
        } catch {
            // A file this call created and could not fill is not left behind looking like a backup.
            throw Self.error(error, notingCleanupFailures: Self.removeFailedCopy(at: path, previousSize: previousSize))
        }
    }

    /// Writes a vacuumed copy of the main database into a new file (`VACUUM INTO`).
    ///
    /// The copy is compact and consistent, made in one transaction. The path is bound as a
    /// parameter, never spliced into the SQL. When the copy fails, a file it created is deleted
    /// (and an empty file it started from is emptied again), so that a half-written copy is never
    /// left behind looking like a backup.
    ///
    /// - Parameter path: Where to write the copy. The file must not exist, or be empty.
    /// - Throws: ``DatabaseError`` when the file exists and is not empty, cannot be created, or
    ///   the connection is in a transaction that forbids it; an I/O error (``ResultCode/ioError``,
    ///   ``ResultCode/full``) when writing the copy fails.
    public func vacuum(into path: String) throws {
        try requireOpen(for: "VACUUM INTO")
        let file = Self.filesystemPath(of: path)
        let previousSize = file.flatMap { Self.sizeOfFile(at: $0) }
        do {
            let statement = try prepare(sql: "VACUUM INTO ?")
            try statement.bind(path).run()
        } catch var error as DatabaseError {
            // SQLite reports a failure to read the size of the output file as "output file already
            // exists" (SQLITE_ERROR); when the file is absent or empty, that is what happened.
            if error.resultCode == .error, error.message.contains("output file already exists"), let file,
                Self.sizeOfFile(at: file) ?? 0 == 0
            {
                error.extendedResultCode = ResultCode(rawValue: SQLITE_IOERR | (7 << 8))  // SQLITE_IOERR_FSTAT
                error.message =
                    "VACUUM INTO could not read the size of its output file \(file) (SQLite reports this as \"output file already exists\")"
            }
            guard let file else { throw error }
            throw Self.error(error, notingCleanupFailures: Self.removeFailedCopy(at: file, previousSize: previousSize))
        }
    }

    /// Undoes what a failed copy did to the file at `path`, whose size was `previousSize` before
    /// (`nil`: it did not exist): deletes a file the copy created, empties again a file that was
    /// empty, and leaves any other file alone (SQLite rolled the copy back). Returns what failed.
    static func removeFailedCopy(at path: String, previousSize: Int?) -> [any Error] {
        do {
            if previousSize == nil {
                if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            } else if previousSize == 0, let size = sizeOfFile(at: path), size > 0 {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                try handle.truncate(atOffset: 0)
            }
            return []
        } catch {
            return [error]
        }
    }

    /// The size of the file at `path`, or `nil` when it cannot be read.
    static func sizeOfFile(at path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
    }

    /// The file a name given to SQLite designates: the name itself, or the path of a `file:` URI
    /// (percent-decoded, without its query); `nil` for an in-memory or nameless database.
    static func filesystemPath(of name: String) -> String? {
        guard name.hasPrefix("file:") else {
            return name.isEmpty || name == ":memory:" ? nil : name
        }
        var rest = name.dropFirst(5)
        if rest.hasPrefix("//") {
            // file://localhost/path or file:///path: the authority must be empty or localhost.
            rest = rest.dropFirst(2)
            let authority = rest.prefix { $0 != "/" }
            guard authority.isEmpty || authority == "localhost" else { return nil }
            rest = rest.dropFirst(authority.count)
        }
        let encoded = rest.prefix { $0 != "?" && $0 != "#" }
        guard let decoded = String(encoded).removingPercentEncoding, !decoded.isEmpty, decoded != ":memory:" else {
            return nil
        }
        return decoded
    }
}
