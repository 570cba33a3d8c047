import CSQLite

extension Database {
    /// How a database keeps its rollback journal (`PRAGMA journal_mode`).
    public enum JournalMode: String, Sendable, Hashable, CaseIterable {
        /// The rollback journal is deleted at the end of each transaction. SQLite's default.
        case delete
        /// The rollback journal is truncated to zero length instead of deleted.
        case truncate
        /// The rollback journal is kept, its header zeroed.
        case persist
        /// The rollback journal lives in memory. The mode of in-memory databases.
        case memory
        /// Write-ahead logging: readers and one writer work concurrently. Persistent: the
        /// database stays in WAL mode for every later connection.
        case wal
        /// No rollback journal: `ROLLBACK` is not supported and a crash can corrupt the database.
        case off
    }

    /// How ``checkpoint(_:database:)`` copies the write-ahead log into the database file.
    public enum CheckpointMode: Sendable, Hashable, CaseIterable {
        /// Copies as many frames as possible without waiting for readers or writers
        /// (`SQLITE_CHECKPOINT_PASSIVE`).
        case passive
        /// Waits, through the busy handler, until no writer is active and every reader uses the
        /// latest snapshot, then copies every frame (`SQLITE_CHECKPOINT_FULL`).
        case full
        /// Like ``full``, then also waits until readers are done with the log so the next writer
        /// restarts it from the beginning (`SQLITE_CHECKPOINT_RESTART`).
        case restart
        /// Like ``restart``, then truncates the log file to zero bytes
        /// (`SQLITE_CHECKPOINT_TRUNCATE`).
        case truncate

        var rawValue: Int32 {
            switch self {
            case .passive: SQLITE_CHECKPOINT_PASSIVE
            case .full: SQLITE_CHECKPOINT_FULL
            case .restart: SQLITE_CHECKPOINT_RESTART
            case .truncate: SQLITE_CHECKPOINT_TRUNCATE
            }
        }
    }

    /// The journal mode of the main database.
    ///
    /// - Throws: ``DatabaseError`` when the pragma fails.
    public var journalMode: JournalMode {
        get throws { try journalMode(database: nil) }
    }

    /// The journal mode of a schema: `main`, `temp`, or an attached database's name.
    ///
    /// - Parameter database: The schema name, or `nil` for `main`.
    /// - Throws: ``DatabaseError`` when the pragma fails or the schema does not exist.
    public func journalMode(database: String?) throws -> JournalMode {
        try runJournalModePragma(database: database, assignment: "")
    }

    /// Changes the journal mode and returns the mode now in effect.
    ///
    /// SQLite keeps the current mode when it cannot switch: an in-memory database stays in
    /// ``JournalMode/memory`` even when asked for ``JournalMode/wal``. Compare the result with
    /// what you asked for when it matters.
    ///
    /// - Parameters:
    ///   - mode: The mode to switch to.
    ///   - database: The schema name (`main`, `temp`, an attached name), or `nil` for every
    ///     attached database.
    /// - Throws: ``DatabaseError`` when SQLite refuses the change, for example when entering or
    ///   leaving WAL mode inside a transaction.
    @discardableResult
    public func setJournalMode(_ mode: JournalMode, database: String? = nil) throws -> JournalMode {
        // Pragma values cannot be bound; the value is one of the enum's fixed keywords.
        try runJournalModePragma(database: database, assignment: " = \(mode.rawValue.uppercased())")
    }

    private func runJournalModePragma(database: String?, assignment: String) throws -> JournalMode {
        try requireOpen(for: "PRAGMA journal_mode")
        let schema = database.map { $0.quotedIdentifier + "." } ?? ""
        let sql = "PRAGMA \(schema)journal_mode\(assignment)"
        let statement = try prepare(sql: sql)
        guard try statement.step() else {
            throw DatabaseError(resultCode: .error, message: "PRAGMA journal_mode returned no row", sql: sql)
        }
        let text = try Row(statement: statement).decode(String.self, at: 0)
        guard let mode = JournalMode(rawValue: text.lowercased()) else {
            throw DatabaseError(resultCode: .mismatch, message: "unknown journal mode \(text)", sql: sql)
        }
        return mode
    }

    /// Copies the write-ahead log into the database file (`sqlite3_wal_checkpoint_v2`).
    ///
    /// ```swift
    /// let result = try db.checkpoint(.truncate)
    /// print("\(result.checkpointedFrameCount) of \(result.walFrameCount) frames copied")
    /// ```
    ///
    /// The modes other than ``CheckpointMode/passive`` wait through the connection's busy handler
    /// or ``busyTimeout``.
    ///
    /// - Parameters:
    ///   - mode: How hard to try. Default ``CheckpointMode/passive``.
    ///   - database: The schema to checkpoint, or `nil` for every attached database in WAL mode.
    /// - Returns: The number of frames in the log and the number copied into the database, after
    ///   the checkpoint. Both are `-1` when the database is not in WAL mode; both are `0` after
    ///   a successful ``CheckpointMode/truncate`` or ``CheckpointMode/restart``.
    /// - Throws: ``DatabaseError`` with ``ResultCode/busy`` when another connection kept the
    ///   checkpoint from completing, or ``ResultCode/error`` for an unknown schema.
    @discardableResult
    public func checkpoint(
        _ mode: CheckpointMode = .passive,
        database: String? = nil
    ) throws -> (walFrameCount: Int, checkpointedFrameCount: Int) {
        try requireOpen(for: "checkpoint")
        var walFrameCount: Int32 = -1
        var checkpointedFrameCount: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(handle, database, mode.rawValue, &walFrameCount, &checkpointedFrameCount)
        guard code == SQLITE_OK else {
            var error = DatabaseError.lastError(of: handle, code: code)
            error.message = "\(mode) checkpoint failed: \(error.message)"
            throw error
        }
        tracing.instrumented?.didCheckpoint(
            isAutomatic: false, schema: database, walFrames: Int(walFrameCount),
            checkpointed: Int(checkpointedFrameCount))
        return (Int(walFrameCount), Int(checkpointedFrameCount))
    }

    /// Throws ``ResultCode/misuse`` when the connection is closed.
    func requireOpen(for operation: String) throws {
        guard isClosed else { return }
        throw DatabaseError(
            resultCode: .misuse,
            message: "\(operation): the connection is closed" + (closedReason.map { ": \($0)" } ?? ""))
    }
}
