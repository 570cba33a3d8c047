import CSQLite
import Foundation
import Testing

@testable import SlateCore

/// The one SQL lexer: each token kind as SQLite has it, unterminated constructs, statement ends,
/// random bytes (it always ends, covers the text exactly, never traps), and SQLite itself as the
/// oracle for literals, names, parameters and statement boundaries.
@Suite struct SQLLexerTests {
    /// (kind, text as written) of each token, trivia left out.
    private func lex(_ sql: String) -> [String] {
        var lexer = SQLLexer(sql)
        var result: [String] = []
        while let token = lexer.next() { result.append("\(token.kind) \(lexer.text(of: token))") }
        return result
    }

    @Test func wordsNamesAndLiterals() {
        #expect(
            lex("SELECT a_1, $x, \"q\"\"d\", `b``t`, [s p], 'it''s', x'0aFF', X'', 12, 1.5, .5, 1e-3, 0x1F")
                == [
                    "word SELECT", "word a_1", "symbol ,", "parameter $x", "symbol ,", "quotedIdentifier \"q\"\"d\"",
                    "symbol ,", "quotedIdentifier `b``t`", "symbol ,", "quotedIdentifier [s p]", "symbol ,",
                    "string 'it''s'", "symbol ,", "blob x'0aFF'", "symbol ,", "blob X''", "symbol ,", "integer 12",
                    "symbol ,", "real 1.5", "symbol ,", "real .5", "symbol ,", "real 1e-3", "symbol ,",
                    "integer 0x1F",
                ])
        // Letters after a number make one illegal token, as in SQLite.
        #expect(lex("1abc 0x 1e 2.5x") == ["illegal 1abc", "illegal 0x", "illegal 1e", "illegal 2.5x"])
        // Bytes from 0x80 up are name bytes; `$` inside a name too.
        #expect(lex("café a$b") == ["word café", "word a$b"])
        // SQLite 3.46's digit separators.
        #expect(lex("1_000 0xFF_FF") == ["integer 1_000", "integer 0xFF_FF"])
    }

    @Test func parameters() {
        #expect(
            lex("? ?12 :a @b $c #d :a::b $t(x) ?x")
                == [
                    "parameter ?", "parameter ?12", "parameter :a", "parameter @b", "parameter $c", "parameter #d",
                    "parameter :a::b", "parameter $t(x)", "parameter ?", "word x",
                ])
        // A prefix without a name is not a parameter.
        #expect(lex(": @ $ #") == ["illegal :", "illegal @", "illegal $", "illegal #"])
        #expect(lex("$t(x y)") == ["illegal $t(x", "word y", "symbol )"])
    }

    @Test func operators() {
        #expect(
            lex("a||b <= >= == != <> << >> -> ->> | < > = - + * / % & ~ . ; ( )").map { $0.split(separator: " ")[1] }
                == [
                    "a", "||", "b", "<=", ">=", "==", "!=", "<>", "<<", ">>", "->", "->>", "|", "<", ">", "=", "-", "+",
                    "*", "/", "%", "&", "~", ".", ";", "(", ")",
                ])
        #expect(lex("! \\ ^ { }") == ["illegal !", "illegal \\", "illegal ^", "illegal {", "illegal }"])
    }

    @Test func commentsAndSpace() {
        var lexer = SQLLexer("a -- one\n/* two */b/*/ three", includingTrivia: true)
        var kinds: [String] = []
        while let token = lexer.next() { kinds.append("\(token.kind)") }
        #expect(kinds == ["word", "space", "comment", "space", "comment", "word", "comment"])
        // `/*/` does not close a comment; the last one is left open, which SQLite accepts.
        let last = SQLLexer.tokens(of: "b/*/ three", includingTrivia: true).last
        #expect(last.map { SQLLexer("b/*/ three").isUnterminated($0) } == true)
        // A byte order mark is space.
        #expect(lex("\u{FEFF}SELECT 1") == ["word SELECT", "integer 1"])
    }

    @Test func unterminatedConstructsAreIllegalTokensToTheEnd() {
        for sql in ["SELECT 'abc", "SELECT \"abc", "SELECT `abc", "SELECT [abc", "SELECT 'a''", "SELECT x'ab"] {
            let lexer = SQLLexer(sql)
            let tokens = Array(lexer)
            #expect(tokens.last?.kind == .illegal, "\(sql)")
            #expect(tokens.last?.end == sql.utf8.count, "\(sql)")
            #expect(tokens.last.map(lexer.isUnterminated) == true, "\(sql)")
        }
        // A malformed blob ends at its quote.
        #expect(lex("x'abc' 1") == ["illegal x'abc'", "integer 1"])
        #expect(lex("x'zz' 1") == ["illegal x'zz'", "integer 1"])
    }

    @Test func valuesAndKeywords() {
        let lexemes = SQLLexer.lexemes(of: "select \"a\"\"b\" [c]d] 'it''s' x'0A' `e``f`")
        #expect(lexemes.map(\.text) == ["select", "a\"b", "c", "d", "]", "it's", "0A", "e`f"])
        #expect(lexemes[0].isKeyword("SELECT"))
        #expect(lexemes[0].keyword == "SELECT")
        #expect(!lexemes[1].isKeyword("A\"B"))
        // Only ASCII letters change case: no other letter can make a keyword.
        #expect(SQLLexer.lexemes(of: "ﬁlter").first?.isKeyword("FILTER") == false)
        var lexer = SQLLexer("Select")
        let first = lexer.next()
        #expect(first.map { lexer.isKeyword($0, "SELECT") } == true)
        #expect(first.map { lexer.isKeyword($0, "SELECTS") } == false)
    }

    @Test func statementsEndWhereSQLiteSaysTheyEnd() {
        let script = """
            CREATE TABLE t(a); -- first
            /* the trigger */ CREATE TEMP TRIGGER t_ai AFTER INSERT ON t BEGIN
              SELECT ';'; UPDATE t SET a = a + 1;
            END;
            ;;
            INSERT INTO t VALUES ('a;b') -- no semicolon
            """
        let statements = SQLLexer.statements(in: script)
        #expect(statements.map(\.line) == [1, 2, 6])
        #expect(statements[0].text == "CREATE TABLE t(a);")
        #expect(statements[1].text.hasPrefix("CREATE TEMP TRIGGER") && statements[1].text.hasSuffix("END;"))
        #expect(statements[2].text == "INSERT INTO t VALUES ('a;b') -- no semicolon")
        #expect(SQLLexer.statements(in: "  -- only a comment\n ;  /* and */ ").isEmpty)
        #expect(SQLLexer.isComplete("SELECT 1;"))
        #expect(!SQLLexer.isComplete("SELECT 1"))
        #expect(!SQLLexer.isComplete("SELECT ';"))
        #expect(!SQLLexer.isComplete("CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1;"))
        #expect(SQLLexer.isComplete("EXPLAIN CREATE TRIGGER x AFTER INSERT ON t BEGIN SELECT 1; END;"))
        #expect(!SQLLexer.isComplete("SELECT 1; /* open"))
        #expect(SQLLexer.isComplete("SELECT 1; -- closed at the end"))
    }

    // MARK: Random bytes

    /// Bytes weighted towards what SQL is made of, so that random runs open and close quotes,
    /// comments and parameters often.
    private static let alphabet: [UInt8] =
        Array("'\"`[]x X-/*;:@$#?().0123456789eE_+-abc \n\t!|<>=".utf8) + [
            0x00, 0x0B, 0x80, 0xC3, 0xA9, 0xEF, 0xBB, 0xBF, 0xFF,
        ]

    @Test func randomBytesAlwaysEndAndCoverTheText() {
        var generator = LexerFuzzGenerator(seed: 0x5EED)
        for round in 0..<20_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in
                generator.next() % 4 == 0
                    ? UInt8(truncatingIfNeeded: generator.next())
                    : Self.alphabet[Int(generator.next() % UInt64(Self.alphabet.count))]
            }
            var lexer = SQLLexer(bytes: bytes, includingTrivia: true)
            var end = 0
            var tokenCount = 0
            while let token = lexer.next() {
                #expect(token.start == end && token.end > token.start, "round \(round): \(bytes)")
                end = token.end
                tokenCount += 1
                _ = lexer.value(of: token)
                _ = lexer.isUnterminated(token)
                if tokenCount > bytes.count { break }
            }
            #expect(end == bytes.count, "round \(round): \(bytes)")
            _ = SQLLexer.statements(in: String(decoding: bytes, as: UTF8.self))
        }
    }

    // MARK: SQLite as the oracle

    /// Fragments of SQL expressions: literals with quotes to escape, names, parameters, comments.
    private static func randomExpression(_ generator: inout LexerFuzzGenerator) -> String {
        let pieces = [
            "'a''b'", "'--'", "'/*'", "';'", "\"x\"\"y\"", "`z`", "[w x]", "x'00ff'", "12", "1.5e3", ".25", "0x7f",
            "?", "?3", ":name", "@at", "$dollar", "$t::u", "-- c\n", "/* c */", "1 ||", "+", "(1)", "'é'",
        ]
        var parts: [String] = []
        for _ in 0..<(1 + Int(generator.next() % 4)) {
            parts.append(pieces[Int(generator.next() % UInt64(pieces.count))])
        }
        return parts.joined(separator: " ")
    }

    @Test func parametersAreTheOnesSQLiteBinds() throws {
        var generator = LexerFuzzGenerator(seed: 29)
        let db = try Database(location: .inMemory)
        try db.execute(sql: "CREATE TABLE \"x\"\"y\"(a); CREATE TABLE z(a); CREATE TABLE \"w x\"(a)")
        var prepared = 0
        for _ in 0..<2_000 {
            let sql = "SELECT " + Self.randomExpression(&generator) + ", " + Self.randomExpression(&generator)
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(db.handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { continue }
            prepared += 1
            var named: Set<String> = []
            for index in 0..<sqlite3_bind_parameter_count(statement) {
                if let name = sqlite3_bind_parameter_name(statement, index + 1) { named.insert(String(cString: name)) }
            }
            let lexer = SQLLexer(sql)
            let lexed = Set(lexer.filter { $0.kind == .parameter }.map(lexer.text(of:)).filter { $0 != "?" })
            #expect(lexed == named, "\(sql)")
        }
        #expect(prepared > 100)
    }

    /// The value of the first token of `sql`.
    private func firstValue(_ sql: String) -> String? {
        var lexer = SQLLexer(sql)
        return lexer.next().map { lexer.value(of: $0) }
    }

    @Test func literalsAndNamesHaveTheValuesSQLiteGivesThem() throws {
        let db = try Database(location: .inMemory)
        for literal in ["'a''b'", "'é'''", "''", "'--'"] {
            let value = try db.fetchOne(String.self, sql: "SELECT " + literal)
            #expect(firstValue(literal) == value)
        }
        for name in ["\"a\"\"b\"", "`c``d`", "[e\"f]", "\"\""] {
            let statement = try db.prepare(sql: "SELECT 1 AS " + name)
            #expect(firstValue(name) == statement.columnName(at: 0))
        }
        for (number, type) in [
            ("12", "integer"), ("1.5", "real"), (".5", "real"), ("1e3", "real"), ("0x1F", "integer"),
        ] {
            #expect(SQLLexer.tokens(of: number).first.map { "\($0.kind)" } == type)
            #expect(try db.fetchOne(String.self, sql: "SELECT typeof(\(number))") == type)
        }
    }

    @Test func completenessAgreesWithSQLite() {
        var generator = LexerFuzzGenerator(seed: 3)
        let pieces = [
            "CREATE", "TEMP", "TRIGGER", "t", "BEGIN", "END", "EXPLAIN", ";", " ", "\n", "'a;b'", "\"c;\"", "[;]",
            "-- x;\n", "/* ; */", "SELECT", "1", "(", ")", "'open", "/* open", "x'a;'", "`;`",
        ]
        for _ in 0..<20_000 {
            let sql = (0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                .joined(separator: generator.next() % 2 == 0 ? " " : "")
            #expect(SQLLexer.isComplete(sql) == (sqlite3_complete(sql) != 0), "\(sql)")
        }
    }

    @Test func statementEndsAreWhereSQLiteStopsPreparing() throws {
        var generator = LexerFuzzGenerator(seed: 7)
        let db = try Database(location: .inMemory)
        try db.execute(sql: "CREATE TABLE z(a); CREATE TABLE \"w x\"(a)")
        var compared = 0
        for _ in 0..<2_000 {
            let script = (0..<(1 + Int(generator.next() % 3))).map { _ in
                "SELECT " + Self.randomExpression(&generator).replacingOccurrences(of: "-- c\n", with: "/* c */")
            }
            .joined(separator: "; ")
            let bytes = Array(script.utf8)
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    let result = sqlite3_prepare_v2(
                        db.handle, characters.baseAddress, Int32(bytes.count), &statement, &tail)
                    let consumed = tail.map { $0 - characters.baseAddress! } ?? 0
                    return (result, consumed)
                }
            }
            sqlite3_finalize(statement)
            guard code.0 == SQLITE_OK else { continue }
            compared += 1
            let first = SQLLexer.statements(in: script).first
            // SQLite stops after the first statement's semicolon; the statement's text ends there.
            #expect(first?.range.upperBound == code.1, "\(script)")
        }
        #expect(compared > 100)
    }
}

/// SplitMix64: the same inputs on every run.
struct LexerFuzzGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
