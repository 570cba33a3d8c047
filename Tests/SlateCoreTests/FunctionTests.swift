import CSQLite
import Foundation
import Slate
import Testing

/// Counts live instances of one aggregate type, to check SQLite releases every group's state.
private final class InstanceCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
    func decrement() { lock.withLock { count -= 1 } }
}

/// Registers itself with a counter while alive.
private final class LifetimeToken {
    let counter: InstanceCounter
    init(_ counter: InstanceCounter) {
        self.counter = counter
        counter.increment()
    }
    deinit { counter.decrement() }
}

/// Something a registered closure captures, to observe when SQLite releases the closure.
private final class CapturedMarker {}

/// Concatenates the non-NULL text of a group with a separator.
private struct JoinedText: AggregateFunction {
    static let live = InstanceCounter()
    let token = LifetimeToken(JoinedText.live)
    var parts: [String] = []
    var separator = ","

    init() {}

    mutating func step(_ arguments: FunctionArguments) throws {
        if arguments.count > 1 { separator = try arguments.decode(String.self, at: 1) }
        if let part = try arguments.decode(String?.self, at: 0) { parts.append(part) }
    }

    func finalize() throws -> (any SQLBindable)? {
        parts.isEmpty ? nil : parts.joined(separator: separator)
    }
}

/// Sums integers; refuses negative ones in `step`.
private struct PositiveSum: AggregateFunction {
    static let live = InstanceCounter()
    let token = LifetimeToken(PositiveSum.live)
    var total: Int64 = 0

    init() {}

    mutating func step(_ arguments: FunctionArguments) throws {
        let value = try arguments.decode(Int64.self, at: 0)
        guard value >= 0 else {
            throw DatabaseError(resultCode: .constraint, message: "positive_sum refuses \(value)")
        }
        total += value
    }

    func finalize() throws -> (any SQLBindable)? { total }
}

/// Counts every argument of every row; variadic.
private struct ArgumentTally: AggregateFunction {
    var tally = 0
    init() {}
    mutating func step(_ arguments: FunctionArguments) throws { tally += arguments.count }
    func finalize() throws -> (any SQLBindable)? { tally }
}

/// The first non-NULL argument of a group, or NULL for an empty group.
private struct FirstValue: AggregateFunction {
    var first: SQLValue?
    init() {}
    mutating func step(_ arguments: FunctionArguments) throws {
        if first == nil, !arguments.isNull(at: 0) { first = arguments.value(at: 0) }
    }
    func finalize() throws -> (any SQLBindable)? { first }
}

/// Fails in `finalize`.
private struct FailingFinal: AggregateFunction {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "failing_final cannot conclude" }
    }
    init() {}
    mutating func step(_ arguments: FunctionArguments) throws {}
    func finalize() throws -> (any SQLBindable)? { throw Failure() }
}

private struct Kaboom: Error, CustomStringConvertible {
    let detail: String
    var description: String { "kaboom: \(detail)" }
}

@Suite struct FunctionTests {
    // MARK: Scalar functions

    @Test func fixedArityFunctionComputesThroughSQL() throws {
        let db = try Database.memory()
        try db.createFunction("double_it", argumentCount: 1, deterministic: true) { arguments in
            try arguments.decode(Int?.self, at: 0).map { $0 * 2 }
        }
        #expect(try db.fetchValue(Int.self, "SELECT double_it(\(21))") == 42)
        #expect(try db.fetchValue(Int?.self, "SELECT double_it(NULL)") == nil)
        try db.execute(sql: "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        #expect(try db.fetchAll(Int.self, "SELECT double_it(x) FROM t ORDER BY x") == [2, 4, 6])
    }

    @Test func functionNamesAreCaseInsensitive() throws {
        let db = try Database.memory()
        try db.createFunction("Shout", argumentCount: 1) { arguments in
            try arguments.decode(String.self, at: 0).uppercased()
        }
        #expect(try db.fetchValue(String.self, "SELECT SHOUT(\("hey")) || shout('you')") == "HEYYOU")
    }

    @Test func subscriptAndDecodeReadTypedArguments() throws {
        let db = try Database.memory()
        try db.createFunction("repeat_text", argumentCount: 2, deterministic: true) { arguments in
            let text: String = try arguments[0]
            let count = try arguments.decode(Int.self, at: 1)
            return String(repeating: text, count: max(0, count))
        }
        #expect(try db.fetchValue(String.self, "SELECT repeat_text(\("ab"), \(3))") == "ababab")
        // Lossless conversions apply, as for columns: text digits into Int, a number into String.
        #expect(try db.fetchValue(String.self, "SELECT repeat_text(7, '2')") == "77")
    }

    @Test func argumentsAreBoxedInEveryStorageClass() throws {
        let db = try Database.memory()
        try db.createFunction("describe_arguments") { arguments in
            "\(arguments.count):" + arguments.values.map(\.debugDescription).joined(separator: ",")
                + ":" + (0..<arguments.count).map { arguments.value(at: $0).storageClass }.joined(separator: ",")
        }
        let description = try db.fetchValue(
            String.self,
            "SELECT describe_arguments(\(1), \(2.5), \("it's"), \(Data([0x01, 0xAB])), NULL, \(Data()))")
        #expect(description == "6:1,2.5,'it''s',X'01AB',NULL,X'':integer,real,text,blob,null,blob")
    }

    @Test func rawHandlesReachTheCAPI() throws {
        let db = try Database.memory()
        try db.createFunction("numeric_type_of", argumentCount: 1) { arguments in
            guard let value = arguments.handle(at: 0), arguments.handle(at: 1) == nil else { return nil }
            return Int(sqlite3_value_numeric_type(value))
        }
        #expect(try db.fetchValue(Int.self, "SELECT numeric_type_of(\("12"))") == Int(SQLITE_INTEGER))
        #expect(try db.fetchValue(Int.self, "SELECT numeric_type_of(\("1.5"))") == Int(SQLITE_FLOAT))
        #expect(try db.fetchValue(Int.self, "SELECT numeric_type_of(\("abc"))") == Int(SQLITE_TEXT))
    }

    @Test func textArgumentsKeepUnicodeAndEmbeddedNUL() throws {
        let db = try Database.memory()
        try db.createFunction("echo", argumentCount: 1) { arguments in
            try arguments.decode(String.self, at: 0)
        }
        try db.createFunction("utf8_length", argumentCount: 1) { arguments in
            try arguments.decode(String.self, at: 0).utf8.count
        }
        let text = "naïve 🚀 a\u{0}b"
        #expect(try db.fetchValue(String.self, "SELECT echo(\(text))") == text)
        #expect(try db.fetchValue(Int.self, "SELECT utf8_length(\(text))") == text.utf8.count)
    }

    @Test func resultsCoverEveryStorageClass() throws {
        let db = try Database.memory()
        try db.createFunction("make", argumentCount: 1, deterministic: true) { arguments -> (any SQLBindable)? in
            switch try arguments.decode(String.self, at: 0) {
            case "integer": return Int64.max
            case "real": return 0.25
            case "text": return "héllo"
            case "empty text": return ""
            case "blob": return Data([0xDE, 0xAD, 0xBE, 0xEF])
            case "empty blob": return Data()
            case "bytes": return [UInt8]([1, 2, 3])
            case "bool": return true
            case "optional none": return Int?.none
            default: return nil
            }
        }
        func typeAndValue(_ kind: String) throws -> [SQLValue] {
            try #require(try db.fetchOne(CopiedRow.self, "SELECT typeof(make(\(kind))), make(\(kind))")).values
        }
        #expect(try typeAndValue("integer") == ["integer", .integer(Int64.max)])
        #expect(try typeAndValue("real") == ["real", .real(0.25)])
        #expect(try typeAndValue("text") == ["text", "héllo"])
        #expect(try typeAndValue("empty text") == ["text", ""])
        #expect(try typeAndValue("blob") == ["blob", .blob(Data([0xDE, 0xAD, 0xBE, 0xEF]))])
        #expect(try typeAndValue("empty blob") == ["blob", .blob(Data())])
        #expect(
            try db.fetchValue(Int.self, "SELECT length(make('empty blob')) = 0 AND make('empty blob') IS NOT NULL") == 1
        )
        #expect(try typeAndValue("bytes") == ["blob", .blob(Data([1, 2, 3]))])
        #expect(try typeAndValue("bool") == ["integer", 1])
        #expect(try typeAndValue("optional none") == ["null", nil])
        #expect(try typeAndValue("nothing") == ["null", nil])
    }

    @Test func datesUseTheConnectionsDateStrategy() throws {
        let db = try Database.memory { $0.dateStrategy = .unixSeconds }
        try db.createFunction("next_day", argumentCount: 1, deterministic: true) { arguments in
            try arguments.decode(Date?.self, at: 0).map { $0.addingTimeInterval(86_400) }
        }
        let date = Date(timeIntervalSince1970: 1_000_000)
        #expect(try db.fetchValue(Int.self, "SELECT next_day(\(date))") == 1_086_400)
        #expect(try db.fetchValue(Date.self, "SELECT next_day(\(date))") == Date(timeIntervalSince1970: 1_086_400))
        #expect(try db.fetchValue(Int?.self, "SELECT next_day(NULL)") == nil)
    }

    @Test func variadicFunctionAcceptsZeroAndThreeArguments() throws {
        let db = try Database.memory()
        try db.createFunction("sum_all", argumentCount: nil, deterministic: true) { arguments in
            var total: Int64 = 0
            for index in 0..<arguments.count where !arguments.isNull(at: index) {
                total += try arguments.decode(Int64.self, at: index)
            }
            return "\(arguments.count) argument(s), total \(total)"
        }
        #expect(try db.fetchValue(String.self, "SELECT sum_all()") == "0 argument(s), total 0")
        #expect(try db.fetchValue(String.self, "SELECT sum_all(\(1), \(2), \(39))") == "3 argument(s), total 42")
        #expect(try db.fetchValue(String.self, "SELECT sum_all(1, NULL, 2)") == "3 argument(s), total 3")
    }

    @Test func zeroArgumentFunctionRejectsArguments() throws {
        let db = try Database.memory()
        try db.createFunction("answer", argumentCount: 0, deterministic: true) { arguments in
            arguments.isEmpty ? 42 : -1
        }
        #expect(try db.fetchValue(Int.self, "SELECT answer()") == 42)
        let error = try #require(throws: DatabaseError.self) { try db.prepare(sql: "SELECT answer(1)") }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("wrong number of arguments to function answer()"))
    }

    @Test func wrongArgumentCountFailsAtPrepare() throws {
        let db = try Database.memory()
        try db.createFunction("pair", argumentCount: 2) { _ in 1 }
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT pair(\(1))")
        }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("wrong number of arguments to function pair()"))
        #expect(error.sql == "SELECT pair(?)")
        #expect(try db.fetchValue(Int.self, "SELECT pair(1, 2)") == 1)
    }

    // MARK: Errors

    @Test func thrownErrorFailsTheStatementWithItsDescription() throws {
        let db = try Database.memory()
        try db.createFunction("explode", argumentCount: 1) { arguments in
            let value = try arguments.decode(Int.self, at: 0)
            if value > 10 { throw Kaboom(detail: "\(value) is too big") }
            return value
        }
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT explode(\(11))")
        }
        #expect(error.resultCode == .error)
        #expect(error.message == "kaboom: 11 is too big")
        #expect(error.sql == "SELECT explode(?)")

        // The connection and the very same cached statement keep working.
        #expect(try db.fetchValue(Int.self, "SELECT explode(\(3))") == 3)
        try db.execute(sql: "CREATE TABLE t(x)")
        try db.execute("INSERT INTO t VALUES (\(5))")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
    }

    @Test func thrownDatabaseErrorReportsItsMessage() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(x)")
        try db.createFunction("validated", argumentCount: 1) { arguments in
            let text = try arguments.decode(String.self, at: 0)
            guard !text.isEmpty else {
                throw DatabaseError(resultCode: .constraint, message: "validated() wants non-empty text")
            }
            return text
        }
        let error = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t VALUES (validated(\("")))")
        }
        #expect(error.resultCode == .error)
        #expect(error.message == "validated() wants non-empty text")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM t") == 0)
        try db.execute("INSERT INTO t VALUES (validated(\("ok")))")
        #expect(try db.fetchAll(String.self, "SELECT x FROM t") == ["ok"])
    }

    @Test func conversionFailuresNameTheArgument() throws {
        let db = try Database.memory()
        try db.createFunction("as_int", argumentCount: 1) { arguments in
            try arguments.decode(Int.self, at: 0)
        }
        try db.createFunction("second", argumentCount: nil) { arguments in
            try arguments.decode(SQLValue.self, at: 1)
        }
        let mismatch = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT as_int(\("abc"))")
        }
        #expect(mismatch.resultCode == .error)
        #expect(mismatch.message.contains("argument 0 of as_int()"))
        #expect(mismatch.message.contains("'abc'"))

        let null = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT as_int(NULL)")
        }
        #expect(null.message.contains("NULL cannot be read as non-optional Int"))

        let missing = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT second(1)")
        }
        #expect(missing.message == "second() has no argument 1: it was called with 1 argument(s)")
        #expect(try db.fetchValue(Int.self, "SELECT second(1, 2)") == 2)
    }

    @Test func unrepresentableResultFailsTheStatement() throws {
        let db = try Database.memory()
        try db.createFunction("huge", argumentCount: 0) { _ in UInt64.max }
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT huge()")
        }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("cannot be stored as a 64-bit SQLite INTEGER"))
    }

    // MARK: Deterministic flag

    @Test func deterministicFunctionsAreAcceptedInIndexesChecksAndGeneratedColumns() throws {
        let db = try Database.memory()
        try db.createFunction("stable_half", argumentCount: 1, deterministic: true) { arguments in
            try arguments.decode(Int.self, at: 0) / 2
        }
        try db.createFunction("volatile_half", argumentCount: 1, deterministic: false) { arguments in
            try arguments.decode(Int.self, at: 0) / 2
        }
        try db.execute(sql: "CREATE TABLE t(x INTEGER CHECK (stable_half(x) < 50))")
        try db.execute(sql: "CREATE INDEX t_half ON t(stable_half(x))")
        try db.execute("INSERT INTO t VALUES (\(8)), (\(9)), (\(20))")

        let plan = try db.fetchAll(CopiedRow.self, "EXPLAIN QUERY PLAN SELECT x FROM t WHERE stable_half(x) = 4")
        #expect(try plan.contains { try $0.decode(String.self, named: "detail").contains("USING INDEX t_half") })
        #expect(try db.fetchAll(Int.self, "SELECT x FROM t WHERE stable_half(x) = \(4) ORDER BY x") == [8, 9])

        let checkViolation = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t VALUES (\(100))")
        }
        #expect(checkViolation.extendedResultCode == .constraintCheck)

        let index = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "CREATE INDEX t_volatile ON t(volatile_half(x))")
        }
        #expect(index.resultCode == .error)
        #expect(index.message.contains("non-deterministic functions prohibited in index expressions"))

        try db.execute(sql: "CREATE TABLE g(x INTEGER, half INTEGER AS (stable_half(x)))")
        try db.execute("INSERT INTO g(x) VALUES (\(11))")
        #expect(try db.fetchValue(Int.self, "SELECT half FROM g") == 5)
        let generated = try #require(throws: DatabaseError.self) {
            try db.execute(sql: "CREATE TABLE u(x INTEGER, half INTEGER AS (volatile_half(x)))")
        }
        #expect(generated.message.contains("non-deterministic functions prohibited in generated columns"))
    }

    // MARK: Registration lifecycle

    @Test func functionsOverloadByArgumentCount() throws {
        let db = try Database.memory()
        try db.createFunction("arity", argumentCount: 1) { _ in "one" }
        try db.createFunction("arity", argumentCount: 2) { _ in "two" }
        try db.createFunction("arity", argumentCount: nil) { arguments in "any \(arguments.count)" }
        #expect(try db.fetchValue(String.self, "SELECT arity(1)") == "one")
        #expect(try db.fetchValue(String.self, "SELECT arity(1, 2)") == "two")
        #expect(try db.fetchValue(String.self, "SELECT arity(1, 2, 3)") == "any 3")

        try db.removeFunction("arity", argumentCount: nil)
        #expect(try db.fetchValue(String.self, "SELECT arity(1, 2)") == "two")
        let wrongCount = try #require(throws: DatabaseError.self) { try db.prepare(sql: "SELECT arity(1, 2, 3)") }
        #expect(wrongCount.message.contains("wrong number of arguments to function arity()"))

        // SQLite keeps a removed registration as a tombstone that hides a variadic one for that count.
        try db.createFunction("arity", argumentCount: nil) { arguments in "any \(arguments.count)" }
        try db.removeFunction("arity", argumentCount: 2)
        #expect(throws: DatabaseError.self) { try db.prepare(sql: "SELECT arity(1, 2)") }
        #expect(try db.fetchValue(String.self, "SELECT arity(1, 2, 3)") == "any 3")
        #expect(try db.fetchValue(String.self, "SELECT arity(1)") == "one")
        try db.removeFunction("arity", argumentCount: nil)

        try db.removeFunction("arity", argumentCount: 1)
        let missing = try #require(throws: DatabaseError.self) { try db.prepare(sql: "SELECT arity(1)") }
        #expect(missing.message.contains("no such function: arity"))

        // Removing what is not there is harmless.
        try db.removeFunction("never_registered", argumentCount: 3)
    }

    @Test func replacingAFunctionTakesEffectInCachedStatements() throws {
        let db = try Database.memory()
        try db.createFunction("version_tag", argumentCount: 0) { _ in "v1" }
        #expect(try db.fetchValue(String.self, "SELECT version_tag()") == "v1")
        try db.createFunction("version_tag", argumentCount: 0) { _ in "v2" }
        #expect(try db.fetchValue(String.self, "SELECT version_tag()") == "v2")
    }

    @Test func sqliteReleasesTheClosureOnRemoveReplaceAndClose() throws {
        let db = try Database.memory()
        weak var removed: CapturedMarker?
        weak var replaced: CapturedMarker?
        weak var closed: CapturedMarker?
        do {
            let first = CapturedMarker()
            let second = CapturedMarker()
            let third = CapturedMarker()
            removed = first
            replaced = second
            closed = third
            try db.createFunction("first", argumentCount: 0) { _ in withExtendedLifetime(first) { 1 } }
            try db.createFunction("second", argumentCount: 0) { _ in withExtendedLifetime(second) { 2 } }
            try db.createFunction("third", argumentCount: 0) { _ in withExtendedLifetime(third) { 3 } }
        }
        #expect(try db.fetchValue(Int.self, "SELECT first() + second() + third()") == 6)
        #expect(removed != nil && replaced != nil && closed != nil)

        try db.removeFunction("first", argumentCount: 0)
        #expect(removed == nil)
        try db.createFunction("second", argumentCount: 0) { _ in 20 }
        #expect(replaced == nil)
        #expect(closed != nil)
        try db.close()
        #expect(closed == nil)
    }

    @Test func replacingAFunctionInUseIsBusyAndReleasesTheNewClosure() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)")
        try db.createFunction("plus_one", argumentCount: 1) { arguments in try arguments.decode(Int.self, at: 0) + 1 }
        let statement = try db.prepare(sql: "SELECT plus_one(x) FROM t")
        #expect(try statement.step())

        weak var rejected: CapturedMarker?
        do {
            let marker = CapturedMarker()
            rejected = marker
            let error = try #require(throws: DatabaseError.self) {
                try db.createFunction("plus_one", argumentCount: 1) { _ in withExtendedLifetime(marker) { 0 } }
            }
            #expect(error.resultCode == .busy)
            #expect(error.message.contains("plus_one"))
        }
        #expect(rejected == nil)
        #expect(try statement.withCurrentRow { try $0.decode(Int.self, at: 0) } == 2)
        try statement.reset()
    }

    @Test func invalidRegistrationsAreRejected() throws {
        let db = try Database.memory()
        let negative = try #require(throws: DatabaseError.self) {
            try db.createFunction("f", argumentCount: -1) { _ in nil }
        }
        #expect(negative.resultCode == .misuse)
        let tooMany = try #require(throws: DatabaseError.self) {
            try db.createFunction("f", argumentCount: 1000) { _ in nil }
        }
        #expect(tooMany.resultCode == .misuse)
        #expect(tooMany.message.contains("between 0 and 127"))
        let longName = try #require(throws: DatabaseError.self) {
            try db.createFunction(String(repeating: "x", count: 256), argumentCount: 0) { _ in nil }
        }
        #expect(longName.resultCode == .misuse)
        try db.close()
        let closed = try #require(throws: DatabaseError.self) {
            try db.createFunction("f", argumentCount: 0) { _ in nil }
        }
        #expect(closed.resultCode == .misuse)
    }

    // MARK: Aggregates

    @Test func aggregateKeepsOneStatePerGroup() throws {
        let db = try Database.memory()
        try db.createAggregate("joined", argumentCount: 1, deterministic: true, JoinedText.self)
        try db.createAggregate("joined", argumentCount: 2, deterministic: true, JoinedText.self)
        try db.execute(
            sql: """
                CREATE TABLE pet(owner TEXT, name TEXT);
                INSERT INTO pet VALUES ('ann', 'rex'), ('bob', 'tom'), ('ann', 'fluffy'), ('bob', NULL), ('cat', NULL);
                """)
        let rows = try db.fetchAll(CopiedRow.self, "SELECT owner, joined(name) FROM pet GROUP BY owner ORDER BY owner")
        let values: [[SQLValue]] = rows.map(\.values)
        let expectedValues: [[SQLValue]] = [
            [.text("ann"), .text("rex,fluffy")], [.text("bob"), .text("tom")], [.text("cat"), .null],
        ]
        #expect(values.elementsEqual(expectedValues))
        #expect(
            try db.fetchValue(String.self, "SELECT joined(name, \(" & ")) FROM pet WHERE owner = 'ann'")
                == "rex & fluffy")
        #expect(JoinedText.live.value == 0)
    }

    @Test func aggregateOverNoRowsFinalizesAFreshValue() throws {
        let db = try Database.memory()
        try db.createAggregate("tally", argumentCount: 1, ArgumentTally.self)
        try db.createAggregate("first_value_of", argumentCount: 1, FirstValue.self)
        try db.execute(sql: "CREATE TABLE t(x INTEGER)")
        #expect(try db.fetchValue(Int.self, "SELECT tally(x) FROM t") == 0)
        #expect(try db.fetchValue(SQLValue.self, "SELECT first_value_of(x) FROM t") == .null)
        #expect(try db.fetchAll(Int.self, "SELECT tally(x) FROM t GROUP BY x").isEmpty)
        try db.execute(sql: "INSERT INTO t VALUES (NULL), (7), (8)")
        #expect(try db.fetchValue(SQLValue.self, "SELECT first_value_of(x) FROM t") == .integer(7))
        #expect(try db.fetchValue(Int.self, "SELECT tally(x) FROM t") == 3)
    }

    @Test func aggregateStepErrorFailsTheStatementAndReleasesTheState() throws {
        let db = try Database.memory()
        try db.createAggregate("positive_sum", argumentCount: 1, deterministic: true, PositiveSum.self)
        try db.execute(sql: "CREATE TABLE t(g INTEGER, x INTEGER)")
        try db.execute("INSERT INTO t VALUES (1, \(5)), (1, \(-3)), (2, \(7)), (1, \(4))")

        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchAll(Int.self, "SELECT positive_sum(x) FROM t GROUP BY g")
        }
        #expect(error.resultCode == .error)
        #expect(error.message == "positive_sum refuses -3")
        #expect(PositiveSum.live.value == 0)

        // The connection is still usable, and so is the aggregate.
        try db.execute(sql: "DELETE FROM t WHERE x < 0")
        #expect(try db.fetchAll(Int.self, "SELECT positive_sum(x) FROM t GROUP BY g ORDER BY g") == [9, 7])
        #expect(PositiveSum.live.value == 0)
    }

    @Test func aggregateFinalizeErrorFailsTheStatement() throws {
        let db = try Database.memory()
        try db.createAggregate("failing_final", argumentCount: 1, FailingFinal.self)
        let error = try #require(throws: DatabaseError.self) {
            _ = try db.fetchValue(Int.self, "SELECT failing_final(1)")
        }
        #expect(error.resultCode == .error)
        #expect(error.message == "failing_final cannot conclude")
        #expect(try db.fetchValue(Int.self, "SELECT 1") == 1)
    }

    @Test func variadicAggregateAndWrongArityAggregate() throws {
        let db = try Database.memory()
        try db.createAggregate("tally", ArgumentTally.self)
        try db.createAggregate("first_value_of", argumentCount: 1, FirstValue.self)
        try db.execute(sql: "CREATE TABLE t(a, b, c); INSERT INTO t VALUES (1, 2, 3), (4, 5, 6)")
        #expect(try db.fetchValue(Int.self, "SELECT tally() FROM t") == 0)
        #expect(try db.fetchValue(Int.self, "SELECT tally(a, b, c) FROM t") == 6)
        let error = try #require(throws: DatabaseError.self) {
            try db.prepare(sql: "SELECT first_value_of(a, b) FROM t")
        }
        #expect(error.resultCode == .error)
        #expect(error.message.contains("wrong number of arguments to function first_value_of()"))

        try db.removeFunction("tally")
        let missing = try #require(throws: DatabaseError.self) { try db.prepare(sql: "SELECT tally(a) FROM t") }
        #expect(missing.message.contains("no such function: tally"))
    }
}
