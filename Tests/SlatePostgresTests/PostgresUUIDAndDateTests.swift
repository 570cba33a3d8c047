#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import SlateTestSupport
    import Testing

    /// Issue 36 on PostgreSQL: UUIDs match by value whatever the case they were written in, as on
    /// SQLite, and dates keep microseconds, rounded as `PostgreSQLDatabase.storedDate(for:)` says.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct PostgresUUIDAndDateTests {
        let id = UUID(uuidString: UUIDSpellings.lower)!

        @Test(arguments: [UUIDSpellings.lower, UUIDSpellings.upper, UUIDSpellings.mixed])
        func findsAUUIDWrittenInAnyCaseAsSQLiteDoes(_ stored: String) async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "uuids")
            try await pg.createTable(for: UUIDBook.self)
            try await pg.createTable(for: UUIDReview.self)
            #expect(
                try await pg.fetchAll(
                    String.self,
                    """
                    SELECT data_type
                    FROM information_schema.columns
                    WHERE table_name = \("book")
                    ORDER BY ordinal_position
                    """
                ) == ["uuid", "text"])
            try await pg.execute("INSERT INTO book(id, title) VALUES (CAST(\(stored) AS uuid), \("x"))")
            try await pg.insert(UUIDReview(bookID: id, stars: 4))
            #expect(try await UUIDBook.find(id).fetchOne(pg)?.title == "x")
            #expect(try await UUIDBook.where { $0.id == id }.fetchCount(pg) == 1)
            #expect(try await UUIDBook.where { $0.id.in([id, UUID()]) }.fetchCount(pg) == 1)
            #expect(try await UUIDBook.join(UUIDReview.self, on: { $0.id == $1.bookID }).fetchAll(pg).count == 1)
            #expect(try await UUIDBook.all().fetchOne(pg)?.id == id)

            // The same on SQLite: the engines agree.
            let db = try Database.memory()
            try db.createTable(for: UUIDBook.self)
            try db.createTable(for: UUIDReview.self)
            try db.execute("INSERT INTO book(id, title) VALUES (\(stored), \("x"))")
            try db.insert(UUIDReview(bookID: id, stars: 4))
            #expect(try UUIDBook.find(id).fetchOne(db)?.title == "x")
            #expect(try UUIDBook.where { $0.id == id }.fetchCount(db) == 1)
            #expect(try UUIDBook.where { $0.id.in([id, UUID()]) }.fetchCount(db) == 1)
            #expect(try UUIDBook.join(UUIDReview.self, on: { $0.id == $1.bookID }).fetchAll(db).count == 1)
        }

        /// A duplicate key shows the values, truncated, as on SQLite (ConstraintErrorArgumentTests).
        @Test func aDuplicateKeyShowsTheValuesTruncated() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "duplicates")
            try await pg.createTable(for: UUIDBook.self)
            try await pg.insert(UUIDBook(id: id, title: "first"))
            let longTitle = String(repeating: "a", count: 100)
            let error = await #expect(throws: PostgreSQLError.self) {
                try await pg.insert(UUIDBook(id: id, title: longTitle))
            }
            #expect(error?.resultCode == .constraintUnique)
            #expect(error?.description.contains("Key (id)=(\(UUIDSpellings.lower)) already exists.") == true)
            #expect(
                error?.description.hasSuffix(
                    "with arguments ['\(UUIDSpellings.lower)', '\(String(repeating: "a", count: 80))…' (100 bytes)]"
                )
                    == true, "\(String(describing: error))")
        }

        @Test func aDateReadsBackRoundedToTheMicrosecond() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "dates")
            try await pg.createTable(for: Appliance.self)
            let date = Date(timeIntervalSince1970: 1_735_787_045.888_567_7)
            let inserted = try await pg.insert(
                Appliance(
                    name: "clock", isActive: true, madeAt: date, serial: id, payload: nil, price: 1, rank: nil))
            let read = try #require(try await Appliance.find(inserted.id).fetchOne(pg))
            let stored = try PostgreSQLDatabase.storedDate(for: date)
            #expect(read.madeAt == stored)
            #expect(read.madeAt != date)
            #expect(abs(stored.timeIntervalSince(date)) <= 0.000_000_5)
            #expect(try await Appliance.where { $0.madeAt == stored }.fetchCount(pg) == 1)
        }

        @Test func aDatePostgreSQLCannotHoldThrowsInsteadOfTrapping() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "far_dates")
            try await pg.createTable(for: Appliance.self)
            let far = Date(timeIntervalSince1970: 1e16)  // past Int64 microseconds
            let error = await #expect(throws: DatabaseError.self) {
                try await pg.insert(
                    Appliance(name: "far", isActive: true, madeAt: far, serial: id, payload: nil, price: 1, rank: nil))
            }
            #expect(error?.resultCode == .mismatch)
            #expect(try await Appliance.all().fetchCount(pg) == 0)
            #expect(throws: DatabaseError.self) { try PostgreSQLDatabase.storedDate(for: far) }
        }
    }
#endif
