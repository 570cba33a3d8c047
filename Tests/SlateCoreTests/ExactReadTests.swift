import Foundation
import Slate
import SlateTestSupport
import Testing

// Every conversion rule of `SQLExtractable`, on both kinds of row: a live row read during the fetch
// (the C API fast path, then the exact rules) and a copied row (the exact rules alone). A lossless
// conversion succeeds; a lossy one throws `mismatch` naming the column, the value and the SQL.

/// Which row a test reads from.
enum RowKind: String, CaseIterable, CustomTestStringConvertible {
    case live, copied
    var testDescription: String { rawValue }
}

/// What reading `expression` (the SQL of one value) gives.
enum ReadOutcome<Value: Equatable>: Equatable {
    case value(Value)
    case mismatch
}

enum ExactRead {
    /// Reads `SELECT <expression> AS v` as `Value`, from a live or a copied row; `mismatch` when the
    /// read throws a `mismatch` error that names the column and the SQL.
    static func read<Value: SQLExtractable & Equatable>(
        _ type: Value.Type, _ expression: String, _ kind: RowKind, in db: Database
    ) throws -> ReadOutcome<Value> {
        let sql = "SELECT \(expression) AS v"
        do {
            switch kind {
            case .live:
                let values = try db.fetchAll(SQL(sql: sql)) { row in try row.decode(Value.self, at: 0) }
                return .value(try #require(values.first))
            case .copied:
                let rows = try db.fetchAll(CopiedRow.self, sql: sql)
                return .value(try #require(rows.first).decode(Value.self, at: 0))
            }
        } catch let error as DatabaseError {
            #expect(error.resultCode == .mismatch, "\(expression) as \(Value.self): \(error)")
            #expect(error.message.contains("column 0 (v)"), "\(error.message)")
            #expect(error.sql == sql)
            return .mismatch
        }
    }

    /// Reads a boxed value as `Value` from a copied row built by hand (values SQLite never hands
    /// out, such as NaN).
    static func read<Value: SQLExtractable & Equatable>(_ type: Value.Type, boxed value: SQLValue) -> ReadOutcome<Value>
    {
        let row = CopiedRow(columnNames: ["v"], values: [value])
        do {
            return .value(try row.decode(Value.self, at: 0))
        } catch let error as DatabaseError {
            #expect(error.resultCode == .mismatch)
            #expect(error.message.contains("column 0 (v)"))
            return .mismatch
        } catch {
            Issue.record("unexpected error \(error)")
            return .mismatch
        }
    }

    /// Checks every `(expression, outcome)` pair on `kind`.
    static func check<Value: SQLExtractable & Equatable>(
        _ type: Value.Type, _ cases: [(String, ReadOutcome<Value>)], _ kind: RowKind,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let db = try Database.memory()
        for (expression, expected) in cases {
            let outcome = try read(type, expression, kind, in: db)
            #expect(
                outcome == expected, "\(expression) as \(Value.self) from a \(kind.rawValue) row",
                sourceLocation: sourceLocation)
        }
    }
}

@Suite struct ExactReadTests {
    @Test(arguments: RowKind.allCases)
    func integersReadOnlyWholeNumbersInRange(_ kind: RowKind) throws {
        try ExactRead.check(
            Int.self,
            [
                ("42", .value(42)),
                ("-42", .value(-42)),
                ("9223372036854775807", .value(.max)),
                ("-9223372036854775808", .value(.min)),
                // REAL: lossless only when whole and in range.
                ("3.0", .value(3)),
                ("-0.0", .value(0)),
                ("1e18", .value(1_000_000_000_000_000_000)),
                ("3.7", .mismatch),
                ("-3.7", .mismatch),
                ("0.5", .mismatch),
                ("1e300", .mismatch),
                ("-1e300", .mismatch),
                ("9223372036854775808.0", .mismatch),  // 2^63, one past Int.max
                ("1e999", .mismatch),  // +infinity
                ("-1e999", .mismatch),  // -infinity
                // TEXT: only when all of it spells such a number.
                ("'42'", .value(42)),
                ("' -7 '", .value(-7)),
                ("'+5'", .value(5)),
                ("'3.0'", .value(3)),
                ("'1e3'", .value(1000)),
                ("'-9223372036854775808'", .value(.min)),
                ("'9223372036854775808'", .mismatch),
                ("'-9223372036854775809'", .mismatch),  // rounds to the Double -2^63, which is Int.min
                ("'99999999999999999999'", .mismatch),
                ("'0.0'", .value(0)),
                ("'12abc'", .mismatch),
                ("'3.7'", .mismatch),
                ("''", .mismatch),
                ("' '", .mismatch),
                ("'0x1A'", .mismatch),
                ("'inf'", .mismatch),
                ("'nan'", .mismatch),
                ("'1e'", .mismatch),
                ("'.'", .mismatch),
                ("'- 1'", .mismatch),
                // BLOB and NULL are no numbers.
                ("x'3432'", .mismatch),
                ("NULL", .mismatch),
            ], kind)
    }

    @Test(arguments: RowKind.allCases)
    func narrowAndUnsignedIntegersThrowOnOverflow(_ kind: RowKind) throws {
        try ExactRead.check(
            Int8.self,
            [
                ("127", .value(127)), ("-128", .value(-128)), ("128", .mismatch), ("-129", .mismatch),
                ("127.0", .value(127)), ("128.0", .mismatch), ("'-128'", .value(-128)), ("'200'", .mismatch),
            ], kind)
        try ExactRead.check(Int16.self, [("32767", .value(.max)), ("32768", .mismatch), ("-32769", .mismatch)], kind)
        try ExactRead.check(
            Int32.self, [("2147483647", .value(.max)), ("2147483648", .mismatch), ("-2147483649.0", .mismatch)], kind)
        try ExactRead.check(
            Int64.self, [("9223372036854775807", .value(.max)), ("9.3e18", .mismatch), ("2.5", .mismatch)], kind)
        try ExactRead.check(
            UInt8.self, [("255", .value(255)), ("256", .mismatch), ("-1", .mismatch), ("'-1'", .mismatch)], kind)
        try ExactRead.check(UInt16.self, [("65535", .value(.max)), ("65536", .mismatch)], kind)
        try ExactRead.check(
            UInt32.self, [("4294967295", .value(.max)), ("4294967296", .mismatch), ("-1.0", .mismatch)], kind)
        try ExactRead.check(
            UInt.self, [("9223372036854775807", .value(9_223_372_036_854_775_807)), ("-1", .mismatch)], kind)
        try ExactRead.check(
            UInt64.self,
            [
                ("0", .value(0)),
                ("-1", .mismatch),
                // Beyond Int64 only as text: SQLite stores the literal 18446744073709551615 as a REAL.
                ("'18446744073709551615'", .value(.max)),
                ("'18446744073709551616'", .mismatch),
                ("'18446744073709551617'", .mismatch),  // rounds to the Double 2^64
                ("18446744073709551615", .mismatch),  // REAL 2^64: out of range
                ("9223372036854775808.0", .value(9_223_372_036_854_775_808)),  // REAL 2^63, whole and in range
            ], kind)
    }

    @Test(arguments: RowKind.allCases)
    func boolReadsIntegersUnderTheIntegerRules(_ kind: RowKind) throws {
        try ExactRead.check(
            Bool.self,
            [
                ("0", .value(false)), ("1", .value(true)), ("2", .value(true)), ("-1", .value(true)),
                ("1.0", .value(true)), ("0.0", .value(false)), ("0.5", .mismatch), ("1e999", .mismatch),
                ("'1'", .value(true)), ("'0'", .value(false)), ("'true'", .mismatch), ("'yes'", .mismatch),
                ("x'01'", .mismatch), ("NULL", .mismatch),
            ], kind)
    }

    @Test(arguments: RowKind.allCases)
    func doublesReadIntegersOnlyWhenExact(_ kind: RowKind) throws {
        try ExactRead.check(
            Double.self,
            [
                ("3.7", .value(3.7)),
                ("-0.0", .value(-0.0)),
                ("1e300", .value(1e300)),
                ("1e999", .value(.infinity)),  // a REAL infinity is itself
                ("-1e999", .value(-.infinity)),
                ("42", .value(42)),
                ("9007199254740992", .value(9_007_199_254_740_992)),  // 2^53
                ("9007199254740993", .mismatch),  // 2^53 + 1: a Double would round it
                ("-9007199254740993", .mismatch),
                ("9223372036854775807", .mismatch),  // Int64.max rounds
                ("-9223372036854775808", .value(-9_223_372_036_854_775_808)),  // -2^63 is exact
                ("'2.5'", .value(2.5)),
                ("' 1e3 '", .value(1000)),
                ("'.5'", .value(0.5)),
                ("'9007199254740993'", .mismatch),
                ("'1e400'", .mismatch),  // beyond Double's range
                ("'12abc'", .mismatch),
                ("'inf'", .mismatch),
                ("''", .mismatch),
                ("x'00'", .mismatch),
                ("NULL", .mismatch),
            ], kind)
    }

    @Test(arguments: RowKind.allCases)
    func floatsReadOnlyValuesAFloatHoldsExactly(_ kind: RowKind) throws {
        try ExactRead.check(
            Float.self,
            [
                ("3.5", .value(3.5)),
                ("0.1", .mismatch),  // a Float would round it (Lenient<Float> does)
                ("16777216", .value(16_777_216)),  // 2^24
                ("16777217", .mismatch),  // 2^24 + 1: a Float would round it
                ("'0.5'", .value(0.5)),
                ("'0.1'", .mismatch),
                ("1e300", .mismatch),  // a finite value beyond Float's range
                ("-1e300", .mismatch),
                ("1e999", .value(.infinity)),
                ("'12abc'", .mismatch),
                ("NULL", .mismatch),
            ], kind)
    }

    @Test(arguments: RowKind.allCases)
    func stringsReadTextAndNumbersButNotBlobs(_ kind: RowKind) throws {
        try ExactRead.check(
            String.self,
            [
                ("'abc'", .value("abc")),
                ("''", .value("")),
                ("'12abc'", .value("12abc")),
                ("42", .value("42")),
                ("-9223372036854775808", .value("-9223372036854775808")),
                ("3.5", .value("3.5")),
                ("x'41'", .mismatch),
                ("NULL", .mismatch),
                // Non-ASCII, short (stored inline by String) and long.
                ("'Münster'", .value("Münster")),
                ("'Toms Spezialitäten, Luisenstraße 48 — 東京'", .value("Toms Spezialitäten, Luisenstraße 48 — 東京")),
                // A zero byte inside the text is kept, whole: the text is not cut at it.
                ("'a' || char(0) || 'b'", .value("a\u{0}b")),
                ("char(0)", .value("\u{0}")),
                ("'Münster' || char(0) || 'ö' || char(0)", .value("Münster\u{0}ö\u{0}")),
                // Bytes that are not UTF-8, cast to TEXT, are refused rather than repaired.
                ("CAST(x'61ff62' AS TEXT)", .mismatch),
                ("CAST(x'c328' AS TEXT)", .mismatch),
                ("CAST(x'00ff' AS TEXT)", .mismatch),
                ("CAST(x'eda080' AS TEXT)", .mismatch),
            ], kind)
        // A REAL's text reads back as the same number.
        let db = try Database.memory()
        let text = try ExactRead.read(String.self, "0.1 + 0.2", kind, in: db)
        guard case .value(let string) = text else {
            Issue.record("0.1 + 0.2 as String: \(text)")
            return
        }
        #expect(Double(string) == 0.1 + 0.2)
    }

    @Test(arguments: RowKind.allCases)
    func bytesAndDecimals(_ kind: RowKind) throws {
        try ExactRead.check(
            Data.self,
            [
                ("x'0102'", .value(Data([1, 2]))), ("x''", .value(Data())), ("'ab'", .value(Data("ab".utf8))),
                ("42", .mismatch), ("4.5", .mismatch), ("NULL", .mismatch),
            ], kind)
        try ExactRead.check(
            Decimal.self,
            [
                ("'1.25'", .value(Decimal(string: "1.25")!)),
                ("' 7 '", .value(7)),
                ("'12abc'", .mismatch),
                ("'abc'", .mismatch),
                ("2.5", .value(2.5)),
                ("1e999", .mismatch),
            ], kind)
    }

    @Test(arguments: RowKind.allCases)
    func optionalsReadNullAsNilAndStillThrowOnLoss(_ kind: RowKind) throws {
        try ExactRead.check(
            Int?.self, [("NULL", .value(nil)), ("7", .value(7)), ("3.7", .mismatch), ("'12abc'", .mismatch)], kind)
        try ExactRead.check(
            Double?.self, [("NULL", .value(nil)), ("2.5", .value(2.5)), ("9007199254740993", .mismatch)], kind)
        try ExactRead.check(Bool?.self, [("NULL", .value(nil)), ("1", .value(true)), ("0.5", .mismatch)], kind)
        try ExactRead.check(UInt8?.self, [("NULL", .value(nil)), ("255", .value(255)), ("256", .mismatch)], kind)
        try ExactRead.check(String?.self, [("NULL", .value(nil)), ("'x'", .value("x")), ("x'00'", .mismatch)], kind)
    }

    @Test func valuesSQLiteNeverHandsOutFollowTheSameRules() {
        // SQLite stores NaN as NULL; a row built by hand can hold one.
        #expect(ExactRead.read(Int.self, boxed: .real(.nan)) == .mismatch)
        #expect(ExactRead.read(Int64.self, boxed: .real(.infinity)) == .mismatch)
        #expect(ExactRead.read(Bool.self, boxed: .real(.nan)) == .mismatch)
        let nan = ExactRead.read(Double.self, boxed: .real(.nan))
        guard case .value(let real) = nan else {
            Issue.record("NaN as Double: \(nan)")
            return
        }
        #expect(real.isNaN)
        #expect(ExactRead.read(Float.self, boxed: .real(-.infinity)) == .value(-.infinity))
        // The boxed initializers follow the same rules.
        #expect(throws: DatabaseError.self) { try Int(sqlValue: .real(3.7)) }
        #expect(throws: DatabaseError.self) { try Int(sqlValue: .text("12abc")) }
        #expect(throws: DatabaseError.self) { try Double(sqlValue: .integer(9_007_199_254_740_993)) }
        #expect(throws: DatabaseError.self) { try Int32(sqlValue: .real(1e300)) }
        #expect(throws: DatabaseError.self) { try Bool(sqlValue: .real(0.5)) }
    }

    @Test(arguments: RowKind.allCases)
    func errorsNameTheColumnTheReasonAndATruncatedValue(_ kind: RowKind) throws {
        let db = try Database.memory()
        try db.execute(
            sql: "CREATE TABLE t(quantity, note); INSERT INTO t VALUES (3.7, '\(String(repeating: "9", count: 500))x')")
        func failure(_ body: () throws -> Void) -> DatabaseError? {
            do {
                try body()
                return nil
            } catch {
                return error as? DatabaseError
            }
        }
        let fractional = failure {
            switch kind {
            case .live:
                _ = try db.fetchAll("SELECT note, quantity FROM t") { row in try row.decode(Int.self, named: "quantity")
                }
            case .copied:
                _ = try db.fetchAll(CopiedRow.self, "SELECT note, quantity FROM t").map {
                    try $0.decode(Int.self, named: "quantity")
                }
            }
        }
        let error = try #require(fractional)
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("column 1 (quantity)"))
        #expect(error.message.contains("3.7"))
        #expect(error.message.contains("fractional part"))
        #expect(error.sql == "SELECT note, quantity FROM t")

        let long = failure {
            switch kind {
            case .live: _ = try db.fetchAll("SELECT note FROM t") { row in try row.decode(Int.self, at: 0) }
            case .copied:
                _ = try db.fetchAll(CopiedRow.self, "SELECT note FROM t").map { try $0.decode(Int.self, at: 0) }
            }
        }
        let longError = try #require(long)
        #expect(longError.resultCode == .mismatch)
        #expect(longError.message.contains("not a number"))
        #expect(longError.message.contains("bytes)"))  // the value is cut, with its size
        #expect(!longError.message.contains(String(repeating: "9", count: 300)))
    }

    @Test func fetchValueAndCursorsTakeTheSamePath() throws {
        let db = try Database.memory()
        #expect(throws: DatabaseError.self) { try db.fetchValue(Int.self, "SELECT 3.7") }
        #expect(throws: DatabaseError.self) { try db.fetchAll(Int.self, "SELECT '12abc'") }
        #expect(throws: DatabaseError.self) { try db.fetchOne(Int.self, "SELECT 1e300") }
        let cursor = try db.fetchCursor(Int.self, "SELECT 1 UNION ALL SELECT 2.5")
        #expect(try cursor.next() == 1)
        #expect(throws: DatabaseError.self) { try cursor.next() }
        #expect(try db.fetchValue(Int.self, "SELECT 2.0 + 1") == 3)
    }

    @Test func readsByNameFollowEachRowsOrder() throws {
        // Reads by name learn the order of the first row; other orders and unknown names still work.
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a, b, c); INSERT INTO t VALUES (1, 2, 3), (4, 5, 6), (7, 8, 9)")
        var round = 0
        let sums = try db.fetchAll("SELECT a, b, c FROM t ORDER BY a") { row -> Int in
            defer { round += 1 }
            switch round {
            case 0:
                return try row.decode(Int.self, named: "a") * 100 + row.decode(Int.self, named: "b") * 10
                    + row.decode(Int.self, named: "c")
            case 1:
                return try row.decode(Int.self, named: "c") + row.decode(Int.self, named: "B") * 10 + row.decode(
                    Int.self, named: "a") * 100
            default:
                #expect(row.index(ofColumn: "missing") == nil)
                return try row.decode(Int.self, named: "b") * 10 + row.decode(Int.self, named: "a") * 100
                    + row.decode(Int.self, named: "c")
            }
        }
        #expect(sums == [123, 456, 789])
    }

    @Test func aMissingNameThrowsOnEveryRowAndTheOtherNamesStillRead() throws {
        // The first row records a missing name; later rows must throw for it again (not read some
        // column), and the reads around it keep finding their columns, also after `hasColumn`.
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE t(a, b, c); INSERT INTO t VALUES (1, 2, 3), (4, 5, 6), (7, 8, 9)")
        var messages: [String] = []
        let sums: [Int] = try db.fetchAll("SELECT a, b, c FROM t ORDER BY a") { row -> Int in
            let a: Int = try row["a"]
            do {
                let missing: Int = try row["nope"]
                Issue.record("read \(missing) from a column that does not exist")
            } catch let error as DatabaseError {
                messages.append(error.message)
            }
            let hasB: Bool = row.hasColumn("b")
            let hasNope: Bool = row.hasColumn("nope")
            let b: Int = try row.decode(Int.self, named: "b")
            let c: Int = try row["C"]
            let hundreds: Int = hasB && !hasNope ? a * 100 : -1
            return hundreds + b * 10 + c
        }
        let expectedSums: [Int] = [123, 456, 789]
        #expect(sums == expectedSums)
        #expect(messages.count == 3)
        let namesColumns: Bool = messages.allSatisfy { $0.contains("nope") && $0.contains("a, b, c") }
        #expect(namesColumns)
    }
}

@Suite struct LenientReadTests {
    /// `Lenient<Int64>` reads what `CAST(x AS INTEGER)` gives, on both rows.
    @Test(arguments: RowKind.allCases)
    func lenientIntegersAreSQLitesConversion(_ kind: RowKind) throws {
        let db = try Database.memory()
        let expressions = [
            "42", "3.7", "-3.7", "1e300", "-1e300", "9.3e18", "'12abc'", "' 12abc'", "'abc'", "''", "'-0'", "'+5'",
            "'1e3'", "'  -17  '", "'99999999999999999999'", "'-99999999999999999999'", "x'3132'", "'3.9'",
        ]
        for expression in expressions {
            let cast = try db.fetchValue(Int64.self, sql: "SELECT CAST(\(expression) AS INTEGER)")
            let lenient = try ExactRead.read(Lenient<Int64>.self, expression, kind, in: db)
            #expect(lenient == .value(Lenient(cast)), "\(expression)")
        }
        #expect(try ExactRead.read(Lenient<Int>.self, "'12abc'", kind, in: db) == .value(Lenient(12)))
        #expect(try ExactRead.read(Lenient<Int>.self, "3.7", kind, in: db) == .value(Lenient(3)))
        #expect(try ExactRead.read(Lenient<Bool>.self, "0.5", kind, in: db) == .value(Lenient(false)))
        // A CAST result that does not fit a narrower Swift type still throws.
        #expect(try ExactRead.read(Lenient<Int8>.self, "300.5", kind, in: db) == .mismatch)
        #expect(try ExactRead.read(Lenient<UInt>.self, "'-1'", kind, in: db) == .mismatch)
        // NULL is no number: it throws, or reads as nil into an optional.
        #expect(try ExactRead.read(Lenient<Int>.self, "NULL", kind, in: db) == .mismatch)
        #expect(try ExactRead.read(Lenient<Int>?.self, "NULL", kind, in: db) == .value(nil))
    }

    @Test(arguments: RowKind.allCases)
    func lenientRealsAreSQLitesConversion(_ kind: RowKind) throws {
        let db = try Database.memory()
        let expressions = [
            "2.5", "42", "9007199254740993", "'1.5e'", "'1.5e3x'", "'.5'", "'-.5e2x'", "'abc'", "''", "' 7 '",
            "x'312e35'",
        ]
        for expression in expressions {
            let cast = try db.fetchValue(Double.self, sql: "SELECT CAST(\(expression) AS REAL)")
            let lenient = try ExactRead.read(Lenient<Double>.self, expression, kind, in: db)
            #expect(lenient == .value(Lenient(cast)), "\(expression)")
        }
        #expect(try ExactRead.read(Lenient<Float>.self, "1e300", kind, in: db) == .mismatch)
        #expect(try ExactRead.read(Lenient<Double>?.self, "NULL", kind, in: db) == .value(nil))
    }

    @Test func lenientValuesBindAndEncodeAsTheirValue() throws {
        let db = try Database.memory()
        #expect(try db.fetchValue(String.self, "SELECT typeof(\(Lenient(7)))") == "integer")
        #expect(try Lenient(2.5).sqlValue == .real(2.5))
        let json = try JSONEncoder().encode([Lenient(3)])
        #expect(String(decoding: json, as: UTF8.self) == "[3]")
        #expect(try JSONDecoder().decode([Lenient<Int>].self, from: json) == [Lenient(3)])
    }
}

/// Records read through `init(row:)` (what `@Table` and `slate generate` emit) take the same reads.
@Suite struct ExactRecordReadTests {
    func tracks(_ values: String) throws -> Database {
        let db = try Database.memory()
        try db.execute(
            sql: """
                CREATE TABLE Track(TrackId INTEGER PRIMARY KEY, Name TEXT NOT NULL, AlbumId INTEGER, MediaTypeId INTEGER NOT NULL,
                  GenreId INTEGER, Composer TEXT, Milliseconds INTEGER NOT NULL, Bytes INTEGER, UnitPrice NUMERIC NOT NULL);
                INSERT INTO Track VALUES \(values)
                """)
        return db
    }

    @Test func losslessValuesReadInEveryPath() throws {
        // INTEGER affinity stores '42' and 3.0 as integers; a REAL column value 2.0 reads as Int.
        let db = try tracks("(1, 'a', '42', 1, NULL, NULL, 3.0, NULL, 2)")
        let track = try #require(try Track.find(1).fetchOne(db))
        #expect(track.albumId == 42 && track.milliseconds == 3 && track.bytes == nil && track.unitPrice == 2)
        #expect(try Track.all().fetchAll(db) == [track])
        #expect(try db.fetchAll(Track.self, "SELECT * FROM Track") == [track])
    }

    @Test(arguments: [
        "(1, 'a', NULL, 1, NULL, NULL, 3.7, NULL, 0.99)",  // fractional milliseconds
        "(1, 'a', NULL, 1, NULL, NULL, '12abc', NULL, 0.99)",  // text that is not a number
        "(1, 'a', NULL, 1, NULL, NULL, 1e300, NULL, 0.99)",  // beyond Int64
        "(1, 'a', NULL, 1, NULL, NULL, 1, 2.5, 0.99)",  // a lossy value in a nullable column is no NULL
        "(1, 'a', NULL, 1, NULL, NULL, 1, NULL, 9007199254740993)",  // an integer a Double would round
        "(1, 'a', NULL, 1, NULL, NULL, 1, NULL, 'cheap')",
    ])
    func lossyValuesThrowInEveryPath(_ values: String) throws {
        let db = try tracks(values)
        for (path, read) in [
            ("find", { _ = try Track.find(1).fetchOne(db) }),
            ("query", { _ = try Track.all().fetchAll(db) }),
            ("raw SQL", { _ = try db.fetchAll(Track.self, "SELECT * FROM Track") }),
            ("cursor", { _ = try db.fetchCursor(Track.self, "SELECT * FROM Track").collect() }),
            (
                "copied",
                { _ = try db.fetchAll(CopiedRow.self, "SELECT * FROM Track").map { try $0.decode(Track.self) } }
            ),
        ] as [(String, () throws -> Void)] {
            do {
                try read()
                Issue.record("\(path): \(values) read without an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .mismatch, "\(path): \(error)")
            }
        }
    }
}
