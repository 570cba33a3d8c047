import Foundation
import Slate
import Testing

@Suite struct ExecuteTests {
    @Test func executesManyStatementsInOneCall() throws {
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE car(id INTEGER PRIMARY KEY, name TEXT, price INTEGER);
                -- a comment between statements
                INSERT INTO car VALUES (1, 'Audi', 52642);
                INSERT INTO car VALUES (2, 'Mercedes', 57127);
                UPDATE car SET name = 'Honda' WHERE id = 1;
                """)
        #expect(try db.fetchAll(String.self, "SELECT name FROM car ORDER BY id") == ["Honda", "Mercedes"])
    }

    @Test func scriptArgumentsAreConsumedStatementByStatement() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a, b)")
        try db.execute(
            sql: "INSERT INTO t VALUES (?, ?); INSERT INTO t VALUES (?, :named)",
            arguments: StatementArguments([1, 2, 3], named: ["named": "x"]))
        #expect(
            try db.fetchAll(CopiedRow.self, "SELECT a, b FROM t ORDER BY rowid").map(\.values) == [[1, 2], [3, "x"]])
    }

    @Test func scriptWithTooManyArgumentsThrowsRange() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a)")
        let error = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [1, 2])
        }
        #expect(error.resultCode == .range)
    }

    @Test func failingStatementStopsScriptAndReportsItsSQL() throws {
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO nope VALUES (1); CREATE TABLE u(b)")
        }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("no such table: nope"))
        #expect(error.sql == "INSERT INTO nope VALUES (1)")
        #expect(try db.fetchAll(String.self, "SELECT name FROM sqlite_schema") == ["t"])
    }

    @Test func badSQLThrowsSyntaxErrorAndConnectionStaysUsable() throws {
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "SELEC 1") }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("syntax error"))
        #expect(error.sql == "SELEC 1")
        #expect(try db.fetchValue(Int.self, "SELECT 1") == 1)
    }

    @Test func interpolatedExecuteBindsValues() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(name TEXT)")
        let hostile = "x'); DROP TABLE t; --"
        try db.execute("INSERT INTO t VALUES (\(hostile))")
        #expect(try db.fetchValue(String.self, "SELECT name FROM t") == hostile)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_schema") == 1)
    }

    @Test func constraintViolationCarriesExtendedCodeSQLAndArguments() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL)")
        try db.execute("INSERT INTO t(email) VALUES (\("a@example.com"))")
        let error = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t(email) VALUES (\("a@example.com"))")
        }
        #expect(error.resultCode == .constraint)
        #expect(error.extendedResultCode == .constraintUnique)
        #expect(error.message.contains("UNIQUE constraint failed: t.email"))
        #expect(error.sql == "INSERT INTO t(email) VALUES (?)")
        #expect(error.arguments == [.text("a@example.com")])
        #expect(error.description.contains("'a@example.com'"))

        let notNull = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "INSERT INTO t(email) VALUES (NULL)")
        }
        #expect(notNull.extendedResultCode == .constraintNotNull)
        switch notNull.extendedResultCode {
        case .constraint: break
        default: Issue.record("~= should match an extended code against its primary code")
        }
    }

    @Test func argumentsCanBeLeftOutOfErrors() throws {
        let db = try Database.memory { $0.includesArgumentsInErrors = false }
        try db.execute(sql: "CREATE TABLE t(x UNIQUE)")
        try db.execute("INSERT INTO t VALUES (\("secret"))")
        let error = try #require(throws: DatabaseError.self) { try db.execute("INSERT INTO t VALUES (\("secret"))") }
        #expect(error.arguments == nil)
        #expect(!error.description.contains("secret"))
    }

    @Test func foreignKeyViolationIsReported() throws {
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(parent_id INTEGER REFERENCES parent(id));
                """)
        let error = try #require(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO child VALUES (7)") }
        #expect(error.extendedResultCode == .constraintForeignKey)
    }
}
