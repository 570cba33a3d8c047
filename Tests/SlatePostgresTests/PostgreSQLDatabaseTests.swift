#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import Testing

    /// SlatePostgres on a real server: the typed API, values of every mapped type, transactions,
    /// savepoints, errors and cancellation.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct PostgreSQLDatabaseTests {
        func appliances() async throws -> PostgreSQLDatabase {
            let pg = try await PostgresTestServer.makeDatabase(named: "appliances")
            try await pg.createTable(for: Appliance.self)
            return pg
        }

        func appliance(_ name: String, price: Double = 1.5, rank: Int32? = 3) -> Appliance {
            Appliance(
                name: name, isActive: name.count % 2 == 0, madeAt: Date(timeIntervalSince1970: 1_700_000_000),
                serial: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(), payload: Data([0, 1, 255]),
                price: price, rank: rank)
        }

        @Test func insertsAndFetchesEveryMappedType() async throws {
            let pg = try await appliances()
            let inserted = try await pg.insert(appliance("lamp"))
            let id = try #require(inserted.id)
            #expect(id == 1)
            let fetched = try await Appliance.find(id).fetchOne(pg)
            #expect(fetched == inserted)
            // The columns hold PostgreSQL's types, not text.
            let types = try await pg.fetchAll(
                String.self,
                """
                SELECT data_type
                FROM information_schema.columns
                WHERE table_name = \("appliance")
                ORDER BY ordinal_position
                """
            )
            #expect(
                types == [
                    "bigint", "character varying", "boolean", "timestamp with time zone", "uuid", "bytea",
                    "double precision", "integer",
                ])
            let second = try await pg.insert(appliance("desk", price: 9, rank: nil))
            #expect(second.id == 2)
            #expect(try await Appliance.where { $0.isActive == false }.select { $0.name }.fetchAll(pg) == [])
            #expect(
                try await Appliance.where { $0.isActive }.order(by: \.id).select { $0.name }.fetchAll(pg) == [
                    "lamp", "desk",
                ])
            #expect(try await Appliance.where { $0.rank == nil }.fetchCount(pg) == 1)
            let made = Date(timeIntervalSince1970: 1_700_000_000)
            #expect(try await Appliance.where { $0.madeAt == made }.fetchCount(pg) == 2)
            #expect(try await Appliance.where { $0.madeAt > made }.fetchCount(pg) == 0)
            #expect(try await Appliance.where { $0.serial == inserted.serial }.fetchCount(pg) == 2)
            #expect(try await Appliance.where { $0.payload == Data([0, 1, 255]) }.fetchCount(pg) == 2)
        }

        @Test func runsTheBuilderStatements() async throws {
            let pg = try await appliances()
            for (index, name) in ["a", "bb", "ccc", "dddd"].enumerated() {
                try await pg.insert(appliance(name, price: Double(index)))
            }
            let expensive = try await Appliance.where { $0.price > 1 }.order { $0.name.descending() }.fetchAll(pg)
            #expect(expensive.map(\.name) == ["dddd", "ccc"])
            #expect(try await Appliance.all().order(by: \.name).fetchOne(pg)?.name == "a")
            #expect(try await Appliance.where { $0.name.like("C%") }.fetchCount(pg) == 1)
            #expect(try await Appliance.all().limit(2, offset: 1).fetchCount(pg) == 2)
            #expect(try await Appliance.where { $0.name == "zz" }.exists(pg) == false)

            let changed = try await Appliance.update { $0.price.set(to: $0.price + 10) }.where { $0.price >= 2 }
                .execute(pg)
            #expect(changed == 2)
            let renamed = try await Appliance.update { $0.name.set(to: $0.name.upper()) }.where { $0.name == "a" }
                .returning(\.name).fetchAll(pg)
            #expect(renamed == ["A"])
            let deleted = try await Appliance.delete().where { $0.price > 10 }.execute(pg)
            #expect(deleted == 2)
            #expect(try await Appliance.all().fetchCount(pg) == 2)

            var record = try #require(try await Appliance.where { $0.name == "bb" }.fetchOne(pg))
            record.price = 99
            #expect(try await pg.update(record))
            #expect(try await Appliance.find(record.id).fetchOne(pg)?.price == 99)
            #expect(try await pg.delete(record))
            #expect(try await pg.delete(record) == false)
            #expect(try await pg.update(record) == false)
        }

        @Test func upsertsAndSkipsConflicts() async throws {
            let pg = try await appliances()
            let first = try await pg.insert(appliance("lamp", price: 1))
            var changed = first
            changed.price = 7
            let upserted = try await Appliance.upsert(changed).execute(pg)
            #expect(upserted == [changed])
            #expect(try await Appliance.all().fetchCount(pg) == 1)
            let addingPrices: Insert<Appliance> = Appliance.insert(appliance("lamp", price: 3)).onConflict(\.name) {
                (existing: Appliance.Columns, excluded: Appliance.Columns) -> [Assignment<Appliance>] in
                return [existing.price.set(to: existing.price + excluded.price)]
            }
            let updatedPrice: [Appliance] = try await addingPrices.execute(pg)
            #expect(updatedPrice.map(\.price) == [10])
            #expect(updatedPrice.map(\.id) == [first.id])
            let skipped = try await Appliance.insert(appliance("lamp", price: 100), or: .ignore).execute(pg)
            #expect(skipped.map(\.price) == [100])
            #expect(skipped.first?.id == nil)
            #expect(try await Appliance.all().select { $0.price }.fetchAll(pg) == [10])
        }

        @Test func insertsRecordsOfEveryShapeWithOneRenderingEach() async throws {
            let pg = try await appliances()
            var chosen = appliance("chosen")
            chosen.id = 100
            // One insert whose records take two shapes (the identity column left out, then kept), run
            // twice so the second call reuses the rendered text.
            let first = try await pg.insert(contentsOf: [appliance("a"), chosen, appliance("bb")])
            #expect(first.map(\.id) == [1, 100, 2])
            #expect(first.map(\.name) == ["a", "chosen", "bb"])
            chosen.id = 200
            chosen.name = "chosen again"
            let second = try await pg.insert(contentsOf: [chosen, appliance("c")])
            #expect(second.map(\.id) == [200, 3])
            let names = try await Appliance.insert(appliance("d", rank: nil)).returning { ($0.name, $0.rank) }.fetchAll(
                pg)
            #expect(names.map(\.0) == ["d"])
            #expect(names.map(\.1) == [nil])
            let stored = try await Appliance.all().order { $0.name }.fetchAll(pg)
            #expect(stored.map(\.name) == ["a", "bb", "c", "chosen", "chosen again", "d"])
            #expect(stored.map(\.isActive) == [false, true, false, true, true, false])  // "chosen again" keeps isActive
            let expectedRanks: Set<Int32?> = [3, nil]
            #expect(Set(stored.map(\.rank)) == expectedRanks)
        }

        @Test func mapsErrorsWithSQLState() async throws {
            let pg = try await appliances()
            try await pg.insert(appliance("lamp"))
            do {
                try await pg.insert(appliance("lamp"))
                Issue.record("a duplicate name was inserted")
            } catch let error as PostgreSQLError {
                #expect(error.sqlState == "23505")
                #expect(error.resultCode == .constraintUnique)
                #expect(error.detail == "Key (name)=(lamp) already exists.")
                #expect(error.constraintName == "appliance_name_key")
                let sql: String = error.sql ?? ""
                #expect(sql.hasPrefix(#"INSERT INTO "appliance" ("name", "#))
                #expect(error.arguments?.first == .text("lamp"))
            }
            await #expect(throws: DatabaseError.self) {
                try await Appliance.where { $0.name.glob("l*") }.fetchAll(pg)
            }
            await #expect(throws: PostgreSQLError.self) {
                try await pg.execute("SELECT * FROM \"nowhere\"")
            }
        }

        @Test func convertsExactlyOrThrows() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "values")
            #expect(try await pg.fetchValue(Int.self, "SELECT CAST(\(42) AS bigint)") == 42)
            #expect(try await pg.fetchValue(Int.self, "SELECT CAST(12 AS numeric)") == 12)
            #expect(try await pg.fetchValue(String.self, "SELECT CAST(-12.50 AS numeric(6,2))") == "-12.50")
            #expect(try await pg.fetchValue(String.self, "SELECT CAST(0.0005 AS numeric)") == "0.0005")
            #expect(
                try await pg.fetchValue(String.self, "SELECT 123456789012345678901234567890::numeric")
                    == "123456789012345678901234567890")
            #expect(try await pg.fetchValue(Bool.self, "SELECT true"))
            #expect(try await pg.fetchValue(Data.self, "SELECT '\\x00ff'::bytea") == Data([0, 255]))
            #expect(try await pg.fetchValue(String.self, "SELECT '{\"a\": 1}'::jsonb") == #"{"a": 1}"#)
            #expect(try await pg.fetchOne(Int.self, "SELECT 1 WHERE false") == nil)
            // A lossy conversion throws, as on SQLite.
            await #expect(throws: DatabaseError.self) { try await pg.fetchValue(Int.self, "SELECT 1.5::float8") }
            await #expect(throws: DatabaseError.self) { try await pg.fetchValue(Int8.self, "SELECT 300") }
            await #expect(throws: DatabaseError.self) { try await pg.fetchValue(Int.self, "SELECT NULL::bigint") }
            // A type Slate does not convert is an error naming it, not bytes.
            await #expect(throws: DatabaseError.self) { try await pg.fetchValue(String.self, "SELECT point(1, 2)") }
        }

        @Test func bindsEachCommonTypeAndItsOptional() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "optionals")
            try await pg.createTable(for: Reading.self)
            let full = Reading(
                id: nil, count: -7, label: "ünï", ratio: 0.1, flag: false,
                at: Date(timeIntervalSince1970: 1_700_000_000.25),
                tag: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), small: 12)
            let empty = Reading(id: nil, count: nil, label: nil, ratio: nil, flag: nil, at: nil, tag: nil, small: nil)
            let stored = try await pg.insert(contentsOf: [full, empty])
            let storedIDs: [Int64?] = stored.map(\.id)
            #expect(storedIDs == [1, 2])
            let fetched = try await Reading.all().order { $0.id }.fetchAll(pg)
            var expected = [full, empty]
            expected[0].id = 1
            expected[1].id = 2
            #expect(fetched == expected)
            #expect(stored == expected)
        }

        @Test func readsEachCellTypeExactly() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "typed")
            // Integers of every width, into every integer type that holds them.
            #expect(try await pg.fetchValue(Int16.self, "SELECT CAST(-300 AS smallint)") == -300)
            #expect(try await pg.fetchValue(Int32.self, "SELECT CAST(70000 AS integer)") == 70000)
            #expect(try await pg.fetchValue(Int64.self, "SELECT CAST(-9223372036854775808 AS bigint)") == .min)
            #expect(try await pg.fetchValue(UInt8.self, "SELECT CAST(255 AS bigint)") == 255)
            #expect(try await pg.fetchValue(Int.self, "SELECT CAST(42 AS smallint)") == 42)
            #expect(try await pg.fetchValue(Int64?.self, "SELECT CAST(NULL AS bigint)") == .some(nil))
            #expect(try await pg.fetchValue(Int32?.self, "SELECT CAST(7 AS integer)") == 7)
            // Booleans, floating point, text.
            #expect(try await pg.fetchValue(Bool.self, "SELECT false") == false)
            #expect(try await pg.fetchValue(Bool?.self, "SELECT true") == true)
            #expect(try await pg.fetchValue(Int.self, "SELECT true") == 1)
            #expect(try await pg.fetchValue(Bool.self, "SELECT CAST(5 AS bigint)") == true)
            #expect(try await pg.fetchValue(Double.self, "SELECT CAST(0.1 AS float8)") == 0.1)
            #expect(try await pg.fetchValue(Double.self, "SELECT CAST(0.5 AS real)") == 0.5)
            #expect(try await pg.fetchValue(Float.self, "SELECT CAST(0.25 AS real)") == 0.25)
            #expect(try await pg.fetchValue(Double?.self, "SELECT CAST(NULL AS float8)") == .some(nil))
            #expect(try await pg.fetchValue(Double.self, "SELECT CAST(3 AS integer)") == 3)
            #expect(try await pg.fetchValue(Int.self, "SELECT CAST(2 AS float8)") == 2)
            #expect(try await pg.fetchValue(String.self, "SELECT CAST('héllo' AS text)") == "héllo")
            #expect(try await pg.fetchValue(String.self, "SELECT CAST('ab' AS char(4))") == "ab  ")
            #expect(try await pg.fetchValue(String.self, "SELECT CAST('v' AS varchar(3))") == "v")
            #expect(try await pg.fetchValue(String?.self, "SELECT CAST(NULL AS text)") == .some(nil))
            #expect(try await pg.fetchValue(String.self, "SELECT CAST(12 AS bigint)") == "12")
            #expect(try await pg.fetchValue(Int.self, "SELECT CAST(' 42 ' AS text)") == 42)
            #expect(try await pg.fetchValue(Double.self, "SELECT CAST('2.5' AS text)") == 2.5)
            // A lossy read throws mismatch with the SQL, as on SQLite.
            for sql: SQL in [
                "SELECT CAST(3000000000 AS bigint)", "SELECT CAST(1.5 AS float8)", "SELECT CAST('abc' AS text)",
                "SELECT CAST(NULL AS integer)",
            ] {
                do {
                    _ = try await pg.fetchValue(Int32.self, sql)
                    Issue.record("read \(sql.text) into an Int32")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .mismatch)
                    #expect(error.sql == (try sql.rendered(for: .postgreSQL)).text)
                }
            }
            await #expect(throws: DatabaseError.self) {
                try await pg.fetchValue(Int8.self, "SELECT CAST(300 AS smallint)")
            }
            await #expect(throws: DatabaseError.self) {
                try await pg.fetchValue(Double.self, "SELECT CAST(9007199254740993 AS bigint)")
            }
            await #expect(throws: DatabaseError.self) {
                try await pg.fetchValue(Float.self, "SELECT CAST(0.1 AS float8)")
            }
            await #expect(throws: DatabaseError.self) {
                try await pg.fetchValue(Bool.self, "SELECT CAST(0.5 AS float8)")
            }
            await #expect(throws: DatabaseError.self) {
                try await pg.fetchValue(String.self, "SELECT CAST(NULL AS text)")
            }
            // A record whose columns take every path, by position, with NULLs.
            let rows = try await pg.fetchAll(
                """
                SELECT CAST(1 AS smallint), CAST(NULL AS bigint), CAST(2.5 AS real), CAST(NULL AS text),
                  CAST('x' AS text), true
                """
            ) { row in
                (
                    try row.decode(Int8.self, at: 0), try row.decode(Int?.self, at: 1),
                    try row.decode(Double.self, at: 2),
                    try row.decode(String?.self, at: 3), try row.decode(String.self, at: 4),
                    try row.decode(Bool.self, at: 5)
                )
            }
            let row = try #require(rows.first)
            #expect(row.0 == 1)
            #expect(row.1 == nil)
            #expect(row.2 == 2.5)
            #expect(row.3 == nil)
            #expect(row.4 == "x")
            #expect(row.5)
            // Out of range: an error, not NULL.
            await #expect(throws: DatabaseError.self) {
                try await pg.fetchAll("SELECT 1") { try $0.decode(Int?.self, at: 1) }
            }
        }

        @Test func commitsAndRollsBackTransactionsAndSavepoints() async throws {
            let pg = try await appliances()
            try await pg.transaction { tx in
                try await tx.insert(appliance("a"))
                try await tx.savepoint { sp in
                    try await sp.insert(appliance("b"))
                }
                do {
                    try await tx.savepoint { sp in
                        try await sp.insert(appliance("c"))
                        try await sp.insert(appliance("c"))  // unique violation: only this savepoint is undone
                    }
                    Issue.record("the duplicate was inserted")
                } catch let error as PostgreSQLError {
                    #expect(error.sqlState == "23505")
                }
            }
            #expect(try await Appliance.all().order { $0.name }.select { $0.name }.fetchAll(pg) == ["a", "b"])
            struct Failure: Error {}
            await #expect(throws: Failure.self) {
                try await pg.transaction { tx in
                    try await tx.insert(appliance("d"))
                    throw Failure()
                }
            }
            #expect(try await Appliance.where { $0.name == "d" }.fetchCount(pg) == 0)
        }

        @Test func insertsSeveralRecordsAllOrNone() async throws {
            let pg = try await appliances()
            // The happy path: the records come back in order with the keys PostgreSQL chose.
            let stored: [Appliance] = try await pg.insert(contentsOf: [appliance("a"), appliance("bb")])
            let storedIDs: [Int64?] = stored.map(\.id)
            #expect(storedIDs == [1, 2])
            #expect(stored.map(\.name) == ["a", "bb"])
            // The third record violates the unique name: the two before it are rolled back.
            let batch = [appliance("c"), appliance("dd"), appliance("a"), appliance("e")]
            do {
                try await pg.insert(contentsOf: batch)
                Issue.record("a duplicate name was inserted")
            } catch let error as PostgreSQLError {
                #expect(error.sqlState == "23505")
                let sql: String = error.sql ?? ""
                #expect(sql.hasPrefix(#"INSERT INTO "appliance" ("name", "#))
                let firstArgument: SQLValue? = error.arguments?.first
                #expect(firstArgument == .text("a"))
            }
            do {
                try await Appliance.insert(batch).execute(pg)
                Issue.record("a duplicate name was inserted")
            } catch let error as PostgreSQLError {
                #expect(error.sqlState == "23505")
            }
            let names = try await Appliance.all().order { $0.name }.select { $0.name }.fetchAll(pg)
            #expect(names == ["a", "bb"])
            // An insert with a conflict clause is atomic too: "f" inserted, "bb" skipped, then a name
            // too long for VARCHAR(40) fails.
            let tooLong = String(repeating: "x", count: 41)
            do {
                try await Appliance.insert([appliance("f"), appliance("bb"), appliance(tooLong)]).onConflictDoNothing(
                    \.name
                ).execute(pg)
                Issue.record("a name longer than VARCHAR(40) was inserted")
            } catch let error as PostgreSQLError {
                #expect(error.sqlState == "22001")
            }
            let afterConflicts = try await Appliance.all().order { $0.name }.select { $0.name }.fetchAll(pg)
            #expect(afterConflicts == ["a", "bb"])
        }

        @Test func insertsSeveralRecordsInASavepointOfTheTransaction() async throws {
            let pg = try await appliances()
            let more: [Appliance] = try await pg.transaction { (tx: PostgreSQLTransaction) -> [Appliance] in
                try await insertBatchesInside(tx)
            }
            let moreNames: [String] = more.map(\.name)
            #expect(moreNames == ["d", "ee"])
            let allKeyed: Bool = more.allSatisfy { $0.id != nil }
            #expect(allKeyed)
            let names = try await Appliance.all().order { $0.name }.select { $0.name }.fetchAll(pg)
            #expect(names == ["a", "d", "ee"])
        }

        /// The body of the transaction above, as a function: a failing batch, then one that succeeds.
        private func insertBatchesInside(_ tx: PostgreSQLTransaction) async throws -> [Appliance] {
            try await tx.insert(appliance("a"))
            do {
                try await tx.insert(contentsOf: [appliance("b"), appliance("cc"), appliance("a")])
                Issue.record("a duplicate name was inserted")
            } catch let error as PostgreSQLError {
                let sql: String = error.sql ?? ""
                #expect(error.sqlState == "23505")
                #expect(sql.hasPrefix(#"INSERT INTO "appliance" ("name", "#))
            }
            // The transaction goes on: only the batch was undone.
            let inside: [String] = try await Appliance.all().select { $0.name }.fetchAll(tx)
            let expectedInside: [String] = ["a"]
            #expect(inside == expectedInside)
            let batch: [Appliance] = [appliance("d"), appliance("ee")]
            let stored: [Appliance] = try await tx.insert(contentsOf: batch)
            return stored
        }

        @Test func rollsBackACancelledBatch() async throws {
            let pg = try await appliances()
            // The third record cancels the task while it is encoded: the two before it are inserted
            // by then, and rolled back.
            let batch = ["a", "b", CancellingTicket.cancelling, "d"].map { CancellingTicket(name: $0) }
            try await pg.createTable(for: CancellingTicket.self)
            let onPool = Task { try await pg.insert(contentsOf: batch) }
            await #expect(throws: CancellationError.self) { try await onPool.value }
            #expect(try await pg.fetchValue(Int.self, #"SELECT count(*) FROM "ticket""#) == 0)
            let inTransaction = Task {
                try await pg.transaction { tx in
                    try await tx.insert(CancellingTicket(name: "kept until the cancellation"))
                    try await tx.insert(contentsOf: batch)
                }
            }
            await #expect(throws: CancellationError.self) { try await inTransaction.value }
            #expect(try await pg.fetchValue(Int.self, #"SELECT count(*) FROM "ticket""#) == 0)
            // The pool's connections are usable afterwards.
            let stored = try await pg.insert(contentsOf: [CancellingTicket(name: "x"), CancellingTicket(name: "y")])
            #expect(stored.map(\.name) == ["x", "y"])
            #expect(try await pg.fetchValue(Int.self, #"SELECT count(*) FROM "ticket""#) == 2)
        }

        @Test func stopsWhenCancelled() async throws {
            let pg = try await appliances()
            try await pg.insert(appliance("a"))
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await Appliance.all().fetchAll(pg)
            }
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    /// A record of optional columns of the types the PostgreSQL encoder binds directly (and one,
    /// `Int16?`, that it binds through the general path).
    struct Reading: Table, Equatable, Sendable {
        var id: Int64?
        var count: Int?
        var label: String?
        var ratio: Double?
        var flag: Bool?
        var at: Date?
        var tag: UUID?
        var small: Int16?

        static let schema = TableSchema(
            name: "reading",
            columns: [
                .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                .init(name: "count", type: "INTEGER"),
                .init(name: "label", type: "TEXT"),
                .init(name: "ratio", type: "REAL"),
                .init(name: "flag", type: "BOOLEAN"),
                .init(name: "at", type: "DATETIME"),
                .init(name: "tag", type: "BLOB"),
                .init(name: "small", type: "INTEGER"),
            ])

        struct Columns: TableColumns {
            let id: Column<Reading, Int64?>
            let count: Column<Reading, Int?>
            let label: Column<Reading, String?>
            let ratio: Column<Reading, Double?>
            let flag: Column<Reading, Bool?>
            let at: Column<Reading, Date?>
            let tag: Column<Reading, UUID?>
            let small: Column<Reading, Int16?>
            init(qualifier: String) {
                id = Column(qualifier, "id")
                count = Column(qualifier, "count")
                label = Column(qualifier, "label")
                ratio = Column(qualifier, "ratio")
                flag = Column(qualifier, "flag")
                at = Column(qualifier, "at")
                tag = Column(qualifier, "tag")
                small = Column(qualifier, "small")
            }
        }

        init(id: Int64?, count: Int?, label: String?, ratio: Double?, flag: Bool?, at: Date?, tag: UUID?, small: Int16?)
        {
            self.id = id
            self.count = count
            self.label = label
            self.ratio = ratio
            self.flag = flag
            self.at = at
            self.tag = tag
            self.small = small
        }

        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            count = try row.decode(at: 1)
            label = try row.decode(at: 2)
            ratio = try row.decode(at: 3)
            flag = try row.decode(at: 4)
            at = try row.decode(at: 5)
            tag = try row.decode(at: 6)
            small = try row.decode(at: 7)
        }

        func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
            try encoder.encode(id)
            try encoder.encode(count)
            try encoder.encode(label)
            try encoder.encode(ratio)
            try encoder.encode(flag)
            try encoder.encode(at)
            try encoder.encode(tag)
            try encoder.encode(small)
        }

        mutating func didInsert(rowID: Int64) { id = rowID }
    }

    /// A record that cancels the task encoding it when its name is ``cancelling``.
    struct CancellingTicket: Table, Sendable {
        static let cancelling = "cancel while encoding"
        var id: Int64?
        var name: String

        static let schema = TableSchema(
            name: "ticket",
            columns: [
                .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                .init(name: "name", type: "TEXT", isNotNull: true),
            ])

        struct Columns: TableColumns {
            let id: Column<CancellingTicket, Int64?>
            let name: Column<CancellingTicket, String>
            init(qualifier: String) {
                id = Column(qualifier, "id")
                name = Column(qualifier, "name")
            }
        }

        init(id: Int64? = nil, name: String) {
            self.id = id
            self.name = name
        }

        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            name = try row.decode(at: 1)
        }

        func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
            if name == Self.cancelling { withUnsafeCurrentTask { $0?.cancel() } }
            try encoder.encode(id)
            try encoder.encode(name)
        }
    }
#endif
