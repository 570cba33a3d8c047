// Where statements end, as SQLite decides it: at a semicolon outside strings, quoted names and
// comments, unless the semicolon is inside the body of a `CREATE TRIGGER … BEGIN … END`.

extension SQLLexer {
    /// One statement of a script.
    package struct Statement: Equatable, Sendable {
        /// The statement's text, from its first token to its semicolon (included when present).
        package var text: String
        /// The 1-based line the statement starts on.
        package var line: Int
        /// The statement's bytes in the script (UTF-8 offsets), trailing whitespace excluded.
        package var range: Range<Int>

        package init(text: String, line: Int, range: Range<Int>) {
            self.text = text
            self.line = line
            self.range = range
        }
    }

    /// The statements of `script`, in order, each with the line it starts on.
    ///
    /// A statement ends at a semicolon where SQLite agrees the text so far is complete (the rule
    /// of `sqlite3_complete`), so the semicolons inside a `CREATE TRIGGER … BEGIN … END` body do not
    /// split it. Whitespace and comments before a statement are not part of it; text after the last
    /// semicolon is a final statement unless it is only whitespace and comments.
    ///
    /// ```swift
    /// SQLLexer.statements(in: "CREATE TABLE t(a);\n-- x\nINSERT INTO t VALUES (';');").map(\.line)   // [1, 3]
    /// ```
    package static func statements(in script: String) -> [Statement] {
        var lexer = SQLLexer(script, includingTrivia: true)
        var statements: [Statement] = []
        var completion = Completion()
        var start: Int?
        var startLine = 1
        var line = 1
        func emit(upTo end: Int) {
            guard let begin = start else { return }
            var last = end
            while last > begin, isSpace(lexer.bytes[last - 1]) { last -= 1 }
            statements.append(
                Statement(
                    text: String(decoding: lexer.bytes[begin..<last], as: UTF8.self), line: startLine,
                    range: begin..<last))
            start = nil
        }
        while let token = lexer.next() {
            if start == nil, !token.isTrivia, !lexer.isSymbol(token, ";") {
                start = token.start
                startLine = line
            }
            for index in token.range where lexer.bytes[index] == 0x0A { line += 1 }
            if completion.advance(past: token, in: lexer) {
                emit(upTo: token.end)
                completion = Completion()
            }
        }
        emit(upTo: lexer.bytes.count)
        return statements
    }

    /// Whether `sql` ends with a complete statement: SQLite's `sqlite3_complete`, which says no
    /// for text without a semicolon, an unterminated string, quoted name or comment, and a
    /// `CREATE TRIGGER` whose body has not ended. (One difference: `sqlite3_complete` does not
    /// know Tcl's `$name(…)` parameters, and ends a statement at a `;` inside one, as SQLite's
    /// parser does not.)
    package static func isComplete(_ sql: String) -> Bool {
        var lexer = SQLLexer(sql, includingTrivia: true)
        var completion = Completion()
        while let token = lexer.next() {
            if token.kind == .illegal || token.kind == .comment, lexer.isUnterminated(token) { return false }
            _ = completion.advance(past: token, in: lexer)
        }
        return completion.isAtStatementEnd
    }

    /// The state machine of `sqlite3_complete` (SQLite's `complete.c`), fed with tokens: it finds
    /// the semicolon that ends a statement, skipping those inside a trigger body.
    struct Completion {
        /// 0 invalid, 1 start, 2 normal, 3 after EXPLAIN, 4 after CREATE, 5 in a trigger, 6 after a
        /// semicolon in a trigger, 7 after its END.
        private var state = 0

        /// Whether the tokens so far end with a complete statement.
        var isAtStatementEnd: Bool { state == 1 }

        /// The transitions, by state, for the token classes semicolon, whitespace, other, EXPLAIN,
        /// CREATE, TEMP, TRIGGER and END.
        private static let transitions: [[UInt8]] = [
            [1, 0, 2, 3, 4, 2, 2, 2],
            [1, 1, 2, 3, 4, 2, 2, 2],
            [1, 2, 2, 2, 2, 2, 2, 2],
            [1, 3, 3, 2, 4, 2, 2, 2],
            [1, 4, 2, 2, 2, 4, 5, 2],
            [6, 5, 5, 5, 5, 5, 5, 5],
            [6, 6, 5, 5, 5, 5, 5, 7],
            [1, 7, 5, 5, 5, 5, 5, 5],
        ]

        /// Moves past `token`; returns whether it is a semicolon that ends the statement.
        mutating func advance(past token: Token, in lexer: SQLLexer) -> Bool {
            let tokenClass: Int
            if token.isTrivia {
                tokenClass = 1
            } else if lexer.isSymbol(token, ";") {
                tokenClass = 0
            } else if token.kind != .word {
                tokenClass = 2
            } else if lexer.isKeyword(token, "CREATE") {
                tokenClass = 4
            } else if lexer.isKeyword(token, "TEMP") || lexer.isKeyword(token, "TEMPORARY") {
                tokenClass = 5
            } else if lexer.isKeyword(token, "TRIGGER") {
                tokenClass = 6
            } else if lexer.isKeyword(token, "EXPLAIN") {
                tokenClass = 3
            } else if lexer.isKeyword(token, "END") {
                tokenClass = 7
            } else {
                tokenClass = 2
            }
            state = Int(Self.transitions[state][tokenClass])
            return tokenClass == 0 && state == 1
        }
    }
}
