import CSQLite

// Facts about a prepared statement read from its SQL, for what SQLite does not report on every
// library Slate links: whether it is an `EXPLAIN` (SQLCipher's SQLite 3.15.2 predates
// `sqlite3_stmt_isexplain`), and which savepoint a statement the tracker knows nothing else about
// begins, releases or rolls back to.

extension SQLLexer {
    /// Whether `statement` is an `EXPLAIN` or `EXPLAIN QUERY PLAN`: `sqlite3_stmt_isexplain` when
    /// the library has it (3.28.0), else read from the statement's SQL.
    package static func isExplain(_ statement: OpaquePointer) -> Bool {
        let answer = slate_stmt_isexplain(statement)
        if answer >= 0 { return answer != 0 }
        guard let sql = sqlite3_sql(statement) else { return false }
        return explainMode(of: SQLLexer(cString: sql)) != 0
    }

    /// 1 when the statement starts with `EXPLAIN`, 2 with `EXPLAIN QUERY PLAN`, else 0: the
    /// answer of `sqlite3_stmt_isexplain`.
    package static func explainMode(of lexer: SQLLexer) -> Int {
        var lexer = lexer
        guard let first = lexer.next(), lexer.isKeyword(first, "EXPLAIN") else { return 0 }
        guard let second = lexer.next(), lexer.isKeyword(second, "QUERY"),
            let third = lexer.next(), lexer.isKeyword(third, "PLAN")
        else { return 1 }
        return 2
    }

    /// The savepoint a statement begins, releases or rolls back to, read from its SQL:
    /// `SAVEPOINT name`, `RELEASE [SAVEPOINT] name`, `ROLLBACK [TRANSACTION [name]] TO [SAVEPOINT]
    /// name`. The name is lowercased (ASCII), as the authorizer's reports are.
    package static func savepointOperation(in sql: UnsafePointer<CChar>) -> SavepointOperation? {
        var lexer = SQLLexer(cString: sql)
        // The first five tokens are enough for the longest form.
        var tokens: [Token] = []
        while tokens.count < 6, let token = lexer.next() { tokens.append(token) }
        func isKeyword(_ index: Int, _ keyword: StaticString) -> Bool {
            index < tokens.count && lexer.isKeyword(tokens[index], keyword)
        }
        /// A savepoint name: a word, a quoted name or a string, as SQLite's grammar takes them.
        func name(at index: Int) -> String? {
            guard index < tokens.count else { return nil }
            let token = tokens[index]
            guard token.kind == .word || token.kind == .quotedIdentifier || token.kind == .string else { return nil }
            return lexer.value(of: token).asciiLowercased
        }
        if isKeyword(0, "SAVEPOINT") { return name(at: 1).map { .begin($0) } }
        if isKeyword(0, "RELEASE") { return name(at: isKeyword(1, "SAVEPOINT") ? 2 : 1).map { .release($0) } }
        guard isKeyword(0, "ROLLBACK") else { return nil }
        var index = 1
        if isKeyword(index, "TRANSACTION") {
            index += 1
            if !isKeyword(index, "TO"), name(at: index) != nil { index += 1 }  // ROLLBACK TRANSACTION name TO …
        }
        guard isKeyword(index, "TO") else { return nil }
        index += 1
        if isKeyword(index, "SAVEPOINT") { index += 1 }
        return name(at: index).map { .rollback($0) }
    }
}
