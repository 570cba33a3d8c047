#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestingCore
    import Testing

    /// A single record's plain insert on PostgreSQL (`pg.insert(record)`, `tx.insert(record)`,
    /// `Table.insert(record).execute(pg)`) takes a path of its own, with the statement text rendered
    /// once per record type: it must store and return exactly what the general path (several records,
    /// `insert(contentsOf:)`) does, and report the same errors, cancellation included.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct PostgresSingleInsertTests {
        func gadgets() async throws -> PostgreSQLDatabase {
            let pg = try await PostgresTestServer.makeDatabase(named: "gadgets")
            try await pg.createTable(for: PgGadget.self)
            return pg
        }

        @Test func returnsTheRowAsStoredWithDefaultsAndChosenKeys() async throws {
            let pg = try await gadgets()
            // The identity column and the defaulted price left out: PostgreSQL chooses both.
            let first: PgGadget = try await pg.insert(PgGadget(id: nil, name: "a", price: nil, note: nil))
            let expectedFirst = PgGadget(id: 1, name: "a", price: 2.5, note: nil)
            #expect(first == expectedFirst)
            // Both given: stored as given (a nil without a default is NULL).
            let second: PgGadget = try await pg.insert(PgGadget(id: 50, name: "b", price: 7, note: "n"))
            let expectedSecond = PgGadget(id: 50, name: "b", price: 7, note: "n")
            #expect(second == expectedSecond)
            // Only one of the two left out, in each order, through the statement and a transaction.
            let third: [PgGadget] = try await PgGadget.insert(PgGadget(id: nil, name: "c", price: 4, note: nil))
                .execute(pg)
            let expectedThird: [PgGadget] = [PgGadget(id: 2, name: "c", price: 4, note: nil)]
            #expect(third == expectedThird)
            let fourth: PgGadget = try await pg.transaction { tx in
                try await tx.insert(PgGadget(id: 60, name: "d", price: nil, note: "m"))
            }
            let expectedFourth = PgGadget(id: 60, name: "d", price: 2.5, note: "m")
            #expect(fourth == expectedFourth)
            // The general path (two records) gives the same rows for the same shapes.
            let both: [PgGadget] = try await pg.insert(contentsOf: [
                PgGadget(id: nil, name: "e", price: nil, note: nil), PgGadget(id: 70, name: "f", price: nil, note: "m"),
            ])
            let expectedBoth: [PgGadget] = [
                PgGadget(id: 3, name: "e", price: 2.5, note: nil), PgGadget(id: 70, name: "f", price: 2.5, note: "m"),
            ]
            #expect(both == expectedBoth)
            let stored: [PgGadget] = try await PgGadget.all().order { $0.id }.fetchAll(pg)
            let expectedStored: [PgGadget] = [
                expectedFirst, third[0], expectedBoth[0], expectedSecond, expectedFourth, expectedBoth[1],
            ]
            #expect(stored == expectedStored)
        }

        @Test func reportsConstraintErrorsWithSQLStateAndTheStatement() async throws {
            let pg = try await gadgets()
            try await pg.insert(PgGadget(id: nil, name: "a", price: nil, note: nil))
            var caught: PostgreSQLError?
            do {
                try await pg.transaction { tx in
                    try await tx.insert(PgGadget(id: nil, name: "a", price: 3, note: nil))
                }
            } catch let error as PostgreSQLError {
                caught = error
            }
            let error = try #require(caught)
            #expect(error.sqlState == "23505")
            #expect(error.detail == "Key (name)=(a) already exists.")
            let sql: String = error.sql ?? ""
            #expect(
                SQLLayout.lines(sql) == """
                    INSERT INTO "gadget" ("name", "price", "note")
                    VALUES ($1, $2, $3)
                    RETURNING "gadget"."id", "gadget"."name", "gadget"."price", "gadget"."note"
                    """)
            let arguments: [SQLValue] = error.arguments ?? []
            let expectedArguments: [SQLValue] = [SQLValue.text("a"), SQLValue.real(3), SQLValue.null]
            #expect(arguments == expectedArguments)
            let count: Int = try await PgGadget.all().fetchCount(pg)
            #expect(count == 1)
        }

        @Test func reportsValuesThatDoNotBindAndMiscountedColumns() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "counters")
            try await pg.createTable(for: PgCounter.self)
            // A UInt64 above Int64.max has no exact PostgreSQL integer: nothing runs.
            var caught: DatabaseError?
            do {
                try await pg.insert(PgCounter(id: nil, value: UInt64.max, handsOutExtra: false))
            } catch let error as DatabaseError {
                caught = error
            }
            let tooBig = try #require(caught)
            #expect(tooBig.resultCode == .mismatch)
            let tooBigSQL: String = tooBig.sql ?? ""
            #expect(tooBigSQL.hasPrefix(#"INSERT INTO "counter" ("value") VALUES ($1) RETURNING"#))
            // encode(to:) handing out more values than the table has columns is a misuse.
            caught = nil
            do {
                try await pg.insert(PgCounter(id: nil, value: 1, handsOutExtra: true))
            } catch let error as DatabaseError {
                caught = error
            }
            let extra = try #require(caught)
            #expect(extra.resultCode == .misuse)
            #expect(extra.message.contains("3 value(s) for 2 column(s)"))
            let count: Int = try await pg.fetchValue(Int.self, "SELECT count(*) FROM counter")
            #expect(count == 0)
            let stored: PgCounter = try await pg.insert(PgCounter(id: nil, value: 5, handsOutExtra: false))
            #expect(stored.id == 1)
            #expect(stored.value == 5)
        }

        @Test func stopsWhenCancelledBeforeTheStatementRuns() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "tickets")
            try await pg.createTable(for: CancellingTicket.self)
            let task = Task { try await pg.insert(CancellingTicket(name: CancellingTicket.cancelling)) }
            await #expect(throws: CancellationError.self) { try await task.value }
            let count: Int = try await pg.fetchValue(Int.self, "SELECT count(*) FROM ticket")
            #expect(count == 0)
        }

        @Test func insertsRecordsWithManyDefaultsThroughTheGeneralPath() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "defaults")
            try await pg.createTable(for: PgDefaults.self)
            let first: PgDefaults = try await pg.insert(PgDefaults(id: nil, a: nil, b: 9, c: nil, d: nil, e: nil))
            let expectedFirst = PgDefaults(id: 1, a: 1, b: 9, c: 3, d: 4, e: 5)
            #expect(first == expectedFirst)
            let second: PgDefaults = try await pg.insert(PgDefaults(id: 7, a: 0, b: nil, c: nil, d: 0, e: nil))
            let expectedSecond = PgDefaults(id: 7, a: 0, b: 2, c: 3, d: 0, e: 5)
            #expect(second == expectedSecond)
        }
    }

    /// A table with an identity column, a defaulted column and a nullable one without a default.
    struct PgGadget: Table, Equatable, Sendable {
        var id: Int64?
        var name: String
        var price: Double?
        var note: String?

        static let schema = TableSchema(
            name: "gadget",
            columns: [
                .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                .init(name: "name", type: "TEXT", isNotNull: true, isUnique: true),
                .init(name: "price", type: "REAL", defaultSQL: "2.5"),
                .init(name: "note", type: "TEXT"),
            ])

        struct Columns: TableColumns {
            let id: Column<PgGadget, Int64?>
            let name: Column<PgGadget, String>
            let price: Column<PgGadget, Double?>
            let note: Column<PgGadget, String?>
            init(qualifier: String) {
                id = Column(qualifier, "id")
                name = Column(qualifier, "name")
                price = Column(qualifier, "price")
                note = Column(qualifier, "note")
            }
        }

        init(id: Int64?, name: String, price: Double?, note: String?) {
            self.id = id
            self.name = name
            self.price = price
            self.note = note
        }

        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            name = try row.decode(at: 1)
            price = try row.decode(at: 2)
            note = try row.decode(at: 3)
        }

        func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
            try encoder.encode(id)
            try encoder.encode(name)
            try encoder.encode(price)
            try encoder.encode(note)
        }
    }

    /// A record whose value may not fit PostgreSQL's integers, and whose `encode(to:)` can hand out
    /// one value too many.
    struct PgCounter: Table, Sendable {
        var id: Int64?
        var value: UInt64
        var handsOutExtra: Bool

        static let schema = TableSchema(
            name: "counter",
            columns: [
                .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                .init(name: "value", type: "INTEGER", isNotNull: true),
            ])

        struct Columns: TableColumns {
            let id: Column<PgCounter, Int64?>
            let value: Column<PgCounter, UInt64>
            init(qualifier: String) {
                id = Column(qualifier, "id")
                value = Column(qualifier, "value")
            }
        }

        init(id: Int64?, value: UInt64, handsOutExtra: Bool) {
            self.id = id
            self.value = value
            self.handsOutExtra = handsOutExtra
        }

        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            value = try row.decode(at: 1)
            handsOutExtra = false
        }

        func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
            try encoder.encode(id)
            try encoder.encode(value)
            if handsOutExtra { try encoder.encode(Int64(0)) }
        }
    }

    /// A table with more defaulted columns than the single-record path renders up front.
    struct PgDefaults: Table, Equatable, Sendable {
        var id: Int64?
        var a: Int64?
        var b: Int64?
        var c: Int64?
        var d: Int64?
        var e: Int64?

        static let schema = TableSchema(
            name: "defaults",
            columns: [
                .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
                .init(name: "a", type: "INTEGER", defaultSQL: "1"),
                .init(name: "b", type: "INTEGER", defaultSQL: "2"),
                .init(name: "c", type: "INTEGER", defaultSQL: "3"),
                .init(name: "d", type: "INTEGER", defaultSQL: "4"),
                .init(name: "e", type: "INTEGER", defaultSQL: "5"),
            ])

        struct Columns: TableColumns {
            let id: Column<PgDefaults, Int64?>
            let a: Column<PgDefaults, Int64?>
            let b: Column<PgDefaults, Int64?>
            let c: Column<PgDefaults, Int64?>
            let d: Column<PgDefaults, Int64?>
            let e: Column<PgDefaults, Int64?>
            init(qualifier: String) {
                id = Column(qualifier, "id")
                a = Column(qualifier, "a")
                b = Column(qualifier, "b")
                c = Column(qualifier, "c")
                d = Column(qualifier, "d")
                e = Column(qualifier, "e")
            }
        }

        init(id: Int64?, a: Int64?, b: Int64?, c: Int64?, d: Int64?, e: Int64?) {
            self.id = id
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            a = try row.decode(at: 1)
            b = try row.decode(at: 2)
            c = try row.decode(at: 3)
            d = try row.decode(at: 4)
            e = try row.decode(at: 5)
        }

        func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
            try encoder.encode(id)
            try encoder.encode(a)
            try encoder.encode(b)
            try encoder.encode(c)
            try encoder.encode(d)
            try encoder.encode(e)
        }
    }
#endif
