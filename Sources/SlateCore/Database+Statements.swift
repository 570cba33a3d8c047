import CSQLite

extension Database {
    /// Prepares one statement, without caching it.
    ///
    /// - Throws: ``DatabaseError`` for invalid SQL, an empty string, or more than one statement.
    public func prepare(sql: String) throws -> Statement {
        try Statement(database: self, sql: sql, persistent: false)
    }

    /// Prepares one statement and binds the interpolated arguments.
    public func prepare(_ sql: SQL) throws -> Statement {
        let (text, positional) = try sql.sqliteStatement()
        let statement = try prepare(sql: text)
        try statement.bind(StatementArguments(positional: positional, normalizedNamed: sql.namedArguments))
        return statement
    }

    /// Returns the connection's cached statement for `sql`, preparing it the first time.
    ///
    /// The statement is reset and ready to bind. If the cached statement is in use by a cursor that
    /// has not finished, a fresh statement is prepared instead, so nested queries with the same text
    /// are safe.
    public func cachedStatement(sql: String) throws -> Statement {
        try checkOpen()
        if let statement = statementCache[sql], !statement.isCheckedOut {
            statement.resetQuietly()
            return statement
        }
        return try prepareForCache(sql: sql)
    }

    func prepareForCache(sql: String) throws -> Statement {
        let statement = try Statement(database: self, sql: sql, persistent: true)
        if let existing = statementCache[sql], existing.isCheckedOut {
            return statement  // keep the busy one cached; this one is single-use
        }
        if statementCache.count >= configuration.statementCacheCapacity {
            if let victim = statementCache.first(where: { !$0.value.isCheckedOut })?.key {
                statementCache.removeValue(forKey: victim)
            }
        }
        if configuration.statementCacheCapacity > 0 { statementCache[sql] = statement }
        return statement
    }

    /// One of Slate's own fixed statements — the transaction engine's (`BEGIN`, `COMMIT` …), the
    /// schema reader's look-ups in `sqlite_schema` — prepared the first time and kept for the
    /// connection's lifetime, apart from the statement cache, so that its capacity and clearing
    /// never affect them. Only for a bounded set of texts, run to completion and reset by the
    /// caller: a kept statement is never handed out twice at once.
    package func fixedStatement(sql: String) throws -> Statement {
        try checkOpen()
        if let kept = controlStatements[sql] { return kept }
        let statement = try Statement(database: self, sql: sql, persistent: true)
        controlStatements[sql] = statement
        return statement
    }

    /// Finalizes every cached statement. Useful after schema changes in long-lived connections.
    public func clearStatementCache() {
        statementCache = statementCache.filter { $0.value.isCheckedOut }
    }

    /// The number of statements in the cache (for diagnostics and tests).
    public var cachedStatementCount: Int { statementCache.count }

    /// A cached statement with `arguments` bound.
    @inlinable
    package func boundStatement(_ sql: SQL) throws -> Statement {
        let (text, positional) = try sql.sqliteStatement()
        let statement = try cachedStatement(sql: text)
        if !positional.isEmpty || !sql.namedArguments.isEmpty || statement.parameterCount > 0 {
            try statement.bind(StatementArguments(positional: positional, normalizedNamed: sql.namedArguments))
        }
        if let hint = sql.rowIDHint { noteRowIDHint(hint, for: statement) }
        return statement
    }

    // MARK: Execute

    /// Runs one or more SQL statements separated by semicolons.
    ///
    /// Positional arguments are consumed statement by statement, in order; named arguments are
    /// available to every statement. A statement that fails stops the script and throws; earlier
    /// statements are not undone unless you run the script in a ``transaction(_:_:)``.
    ///
    /// Arguments that do not match the script (too many positional values, a name no statement
    /// uses) are reported before any statement runs. When a statement can only be prepared after
    /// earlier ones ran (it uses a table the script creates), the script runs inside a savepoint
    /// instead, which an argument mismatch rolls back: either way, nothing is applied.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try checkOpen()
        if arguments.isEmpty {
            try runScript(sql, arguments: arguments, runs: true)
        } else if try runScript(sql, arguments: arguments, runs: false) {
            try runScript(sql, arguments: arguments, runs: true)
        } else {
            try savepoint { _ = try runScript(sql, arguments: arguments, runs: true) }
        }
    }

    /// Prepares and binds each statement of `sql` in turn, running them when `runs`, and checks
    /// that `arguments` were used exactly. Without `runs` (a dry run), returns `false` as soon as a
    /// statement cannot be prepared, since it may need earlier statements to have run.
    @discardableResult
    private func runScript(_ sql: String, arguments: StatementArguments, runs: Bool) throws -> Bool {
        var consumed = 0
        var usedNames: Set<String> = []
        let prepared = try sql.withCString { start -> Bool in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var handle: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let tracker = regionTracker
                tracker?.beginCapture()
                let code = sqlite3_prepare_v3(self.handle, current, -1, 0, &handle, &tail)
                let footprint = tracker?.endCapture()
                guard code == SQLITE_OK else {
                    if !runs { return false }
                    // Report the failing statement: from here to the end of the statement SQLite stopped in.
                    let error = DatabaseError.lastError(of: self.handle, code: code)
                    let remaining = String(cString: current)
                    let failing =
                        remaining.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(
                            String.init) ?? remaining
                    throw DatabaseError(
                        resultCode: error.extendedResultCode, message: error.message, sql: failing.trimmingSpace
                    )
                    .explainingUnavailableFeature()
                }
                let text =
                    tail.map {
                        String(decoding: UnsafeRawBufferPointer(start: current, count: $0 - current), as: UTF8.self)
                    } ?? String(cString: current)
                cursor = tail
                guard let handle else { continue }  // whitespace or comment
                let statement = Statement(adopting: handle, database: self, sql: text.trimmingSpace)
                if let tracker, let footprint {
                    tracker.register(handle, builder: footprint)
                    statement.tracker = tracker
                }
                if let error = SQLiteFeature.unavailablePragmaError(in: statement.sql) { throw error }
                let result = try statement.bind(arguments, requiringAllNamesUsed: false, positionalOffset: consumed)
                consumed += result.positionalConsumed
                usedNames.formUnion(result.usedNames)
                if runs { try statement.run() }
            }
            return true
        }
        guard prepared else { return false }
        if consumed != arguments.positional.count {
            throw DatabaseError(
                resultCode: .range,
                message: "wrong number of arguments: the SQL uses \(consumed), got \(arguments.positional.count)",
                sql: sql)
        }
        if let unused = Set(arguments.named.keys).subtracting(usedNames).sorted().first {
            throw DatabaseError(resultCode: .range, message: "the SQL has no parameter named \(unused)", sql: sql)
        }
        return true
    }

    /// Runs one SQL statement whose interpolated values are bound as parameters:
    /// `try db.execute("DELETE FROM player WHERE id = \(id)")`.
    ///
    /// The statement is prepared once and cached by its text.
    public func execute(_ sql: SQL) throws {
        let statement = try boundStatement(sql)
        defer { statement.resetQuietly() }
        try statement.run()
    }
}

extension String {
    var trimmingSpace: String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace || first == ";" { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace || last == ";" { slice = slice.dropLast() }
        return String(slice)
    }
}
