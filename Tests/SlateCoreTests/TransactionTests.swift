import Foundation
import Slate
import Testing

/// S8: transactions and savepoints.
@Suite struct TransactionTests {
    struct Failure: Error {}

    func accounts() throws -> Database {
        let db = try Database.memory()
        try db.execute(
            sql: "CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL CHECK (balance >= 0))")
        try db.execute(sql: "INSERT INTO account VALUES (1, 100), (2, 0)")
        return db
    }

    func balances(_ db: Database) throws -> [Int] {
        try db.fetchAll(Int.self, "SELECT balance FROM account ORDER BY id")
    }

    @Test(arguments: [Database.TransactionKind.deferred, .immediate, .exclusive])
    func commitsWhenBodyReturns(kind: Database.TransactionKind) throws {
        let db = try accounts()
        let value = try db.transaction(kind) {
            #expect(db.isInTransaction)
            try db.execute(sql: "UPDATE account SET balance = balance - 30 WHERE id = 1")
            try db.execute(sql: "UPDATE account SET balance = balance + 30 WHERE id = 2")
            return "done"
        }
        #expect(value == "done")
        #expect(!db.isInTransaction)
        #expect(try balances(db) == [70, 30])
    }

    @Test func rollsBackWhenBodyThrows() throws {
        let db = try accounts()
        #expect(throws: Failure.self) {
            try db.transaction {
                try db.execute(sql: "UPDATE account SET balance = 0 WHERE id = 1")
                throw Failure()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try balances(db) == [100, 0])
    }

    @Test func rollsBackWhenAStatementFails() throws {
        let db = try accounts()
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction {
                try db.execute(sql: "UPDATE account SET balance = balance + 50 WHERE id = 2")
                try db.execute(sql: "UPDATE account SET balance = balance - 150 WHERE id = 1")  // CHECK fails
            }
        }
        #expect(error.extendedResultCode == .constraintCheck)
        #expect(try balances(db) == [100, 0])
    }

    @Test func failedCommitRollsBack() throws {
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
                """)
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction { try db.execute(sql: "INSERT INTO child VALUES (1)") }
        }
        #expect(error.extendedResultCode == .constraintForeignKey)
        #expect(!db.isInTransaction)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM child") == 0)
    }

    @Test func nestedTransactionIsRefusedButSavepointsNest() throws {
        let db = try accounts()
        try db.transaction {
            #expect(throws: DatabaseError.self) { try db.transaction {} }
            try db.execute(sql: "UPDATE account SET balance = 90 WHERE id = 1")
            // An inner savepoint fails: only its change is undone. (Plain do/catch: a closure
            // literal inside `#expect(throws:)` nested in another closure miscompiles with Swift 6.3.)
            do {
                try db.savepoint("inner") {
                    try db.execute(sql: "UPDATE account SET balance = 1 WHERE id = 2")
                    throw Failure()
                }
                Issue.record("the savepoint should have rethrown")
            } catch is Failure {}
            try db.savepoint {
                try db.execute(sql: "UPDATE account SET balance = 10 WHERE id = 2")
                try db.savepoint {
                    try db.execute(sql: "UPDATE account SET balance = 80 WHERE id = 1")
                }
            }
        }
        #expect(try balances(db) == [80, 10])
    }

    @Test func savepointOutsideTransactionActsAsOne() throws {
        let db = try accounts()
        #expect(throws: Failure.self) {
            try db.savepoint {
                try db.execute(sql: "DELETE FROM account")
                throw Failure()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try balances(db) == [100, 0])
        try db.savepoint("odd \"name\"") { try db.execute(sql: "DELETE FROM account WHERE id = 2") }
        #expect(try balances(db) == [100])
    }
}
