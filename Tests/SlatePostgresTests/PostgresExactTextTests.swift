#if canImport(SlatePostgres)
    import Foundation
    import Slate
    import SlatePostgres
    import SlatePostgresTesting
    import Testing

    /// PostgreSQL text is read exactly, as SQLite's is: valid UTF-8 gives the same `String`, and text
    /// whose bytes are not UTF-8 (which a `SQL_ASCII` database stores and sends as they are) is never
    /// repaired — a `String` read throws `mismatch` with the SQL and the column, and the boxed value
    /// is a blob of the exact bytes. (PostgreSQL text cannot hold a zero byte, so there is no such
    /// case to test here, unlike SQLite's.)
    @Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipComment))
    struct PostgresExactTextTests {
        /// `abc` followed by the byte 0xFF: not UTF-8.
        static let invalidBytes = Data([0x61, 0x62, 0x63, 0xFF])

        /// A `SQL_ASCII` database with a table `note` of two rows: 1 holds valid text, 2 the bytes
        /// `abc` 0xFF in both `body` (text) and `title` (varchar).
        func asciiNotes() async throws -> PostgreSQLDatabase {
            let pg = try await PostgresTestServer.makeDatabase(
                named: "sqlascii", options: "TEMPLATE template0 ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'")
            let encoding: String = try await pg.fetchValue(String.self, "SHOW server_encoding")
            try #require(encoding == "SQL_ASCII")
            try await pg.execute("CREATE TABLE note (id bigint PRIMARY KEY, body text, title varchar(20))")
            try await pg.execute(SQL(sql: "INSERT INTO note VALUES (1, 'fine', 'ok'), (2, E'abc\\377', E'abc\\377')"))
            return pg
        }

        /// Checks that `error` is a `mismatch` naming column `column` and carrying `sql`.
        func expectMismatch(_ error: (any Error)?, column: String, sql: String) {
            let databaseError = error as? DatabaseError
            #expect(databaseError?.resultCode == .mismatch)
            let message: String = databaseError?.message ?? ""
            #expect(message.contains(column))
            #expect(databaseError?.sql == sql)
        }

        @Test func invalidUTF8NeverReadsAsAString() async throws {
            let pg = try await asciiNotes()
            let sql = "SELECT body FROM note WHERE id = 2"
            // The bytes arrived unchanged.
            let hex: String = try await pg.fetchValue(
                String.self, "SELECT encode(CAST(body AS bytea), 'hex') FROM note WHERE id = 2")
            #expect(hex == "616263ff")

            var failure: (any Error)?
            do { _ = try await pg.fetchAll(String.self, SQL(sql: sql)) } catch { failure = error }
            expectMismatch(failure, column: "body", sql: sql)
            let message: String = (failure as? DatabaseError)?.message ?? ""
            #expect(message.contains("not valid UTF-8"))

            failure = nil
            do { _ = try await pg.fetchAll(String?.self, SQL(sql: sql)) } catch { failure = error }
            expectMismatch(failure, column: "body", sql: sql)

            // varchar, and a column after another.
            let titleSQL = "SELECT id, title FROM note WHERE id = 2"
            failure = nil
            do { _ = try await pg.fetchAll(SQL(sql: titleSQL)) { row in try row.decode(String.self, at: 1) } } catch {
                failure = error
            }
            expectMismatch(failure, column: "title", sql: titleSQL)

            // By name.
            failure = nil
            do {
                _ = try await pg.fetchAll(SQL(sql: titleSQL)) { row in try row.decode(String?.self, named: "title") }
            } catch { failure = error }
            expectMismatch(failure, column: "title", sql: titleSQL)

            // The other columns of the row still read.
            let ids: [Int64] = try await pg.fetchAll(SQL(sql: titleSQL)) { row in try row.decode(Int64.self, at: 0) }
            #expect(ids == [2])
        }

        @Test func invalidUTF8IsABlobOfItsExactBytes() async throws {
            let pg = try await asciiNotes()
            let sql = "SELECT body, title FROM note WHERE id = 2"
            let values: [SQLValue] = try await pg.fetchAll(SQLValue.self, SQL(sql: sql))
            #expect(values == [.blob(Self.invalidBytes)])
            let bytes: [Data] = try await pg.fetchAll(Data.self, SQL(sql: sql))
            #expect(bytes == [Self.invalidBytes])

            // A copied row keeps the bytes, and refuses them as a String.
            let copies: [CopiedRow] = try await pg.fetchAll(SQL(sql: sql)) { row in row.copy() }
            let copy = try #require(copies.first)
            #expect(copy.values == [.blob(Self.invalidBytes), .blob(Self.invalidBytes)])
            var failure: (any Error)?
            do { _ = try copy.decode(String.self, at: 0) } catch { failure = error }
            expectMismatch(failure, column: "body", sql: sql)
            failure = nil
            do { _ = try copy.decode(String.self, named: "title") } catch { failure = error }
            expectMismatch(failure, column: "title", sql: sql)
        }

        @Test func invalidUTF8FailsARecord() async throws {
            let pg = try await asciiNotes()
            let sql = "SELECT id, body FROM note ORDER BY id"
            var failure: (any Error)?
            do { _ = try await pg.fetchAll(ExactNote.self, SQL(sql: sql)) } catch { failure = error }
            expectMismatch(failure, column: "body", sql: sql)

            failure = nil
            do { _ = try await pg.fetchAll(CodableNote.self, SQL(sql: sql)) } catch { failure = error }
            expectMismatch(failure, column: "body", sql: sql)

            // The valid row alone reads.
            let fine: [ExactNote] = try await pg.fetchAll(ExactNote.self, "SELECT id, body FROM note WHERE id = 1")
            #expect(fine == [ExactNote(id: 1, body: "fine")])
            let codable: [CodableNote] = try await pg.fetchAll(
                CodableNote.self, "SELECT id, body FROM note WHERE id = 1")
            #expect(codable == [CodableNote(id: 1, body: "fine")])
        }

        /// Text is checked 8 bytes at a time for ASCII, then byte by byte: a byte that is not UTF-8
        /// is found wherever it is (before, at and after the 8- and 16-byte boundaries; short strings
        /// are built one way, longer ones another), and ASCII of every length reads exactly.
        @Test func invalidByteIsFoundAtEveryPosition() async throws {
            let pg = try await asciiNotes()
            let lengths: [Int] = [1, 7, 8, 9, 15, 16, 17, 24, 40]
            for length in lengths {
                let ascii = String(repeating: "x", count: length)
                let read: String = try await pg.fetchValue(String.self, "SELECT CAST(\(ascii) AS text)")
                #expect(read == ascii)
                for position in 0..<length {
                    // `x…x` with the byte 0xFF at `position`.
                    let sql = "SELECT overlay(CAST('\(ascii)' AS text) placing E'\\377' from \(position + 1) for 1)"
                    var failure: (any Error)?
                    do { _ = try await pg.fetchValue(String.self, SQL(sql: sql)) } catch { failure = error }
                    let code = (failure as? DatabaseError)?.resultCode
                    #expect(code == .mismatch, "length \(length), position \(position)")
                    let bytes: Data = try await pg.fetchValue(Data.self, SQL(sql: sql))
                    var expected = Data(repeating: 0x78, count: length)
                    expected[position] = 0xFF
                    #expect(bytes == expected)
                }
            }
        }

        @Test func validTextReadsExactly() async throws {
            let pg = try await PostgresTestServer.makeDatabase(named: "utf8text")
            try await pg.execute("CREATE TABLE note (id bigint PRIMARY KEY, body text, title varchar(80))")
            let texts: [String] = [
                "", "é", "日本語のテキスト、十五バイトより長い", "👩‍👩‍👧 e\u{301}", "plain ascii text longer than fifteen bytes",
            ]
            for (index, text) in texts.enumerated() {
                try await pg.execute("INSERT INTO note VALUES (\(Int64(index)), \(text), \(text))")
            }
            let sql: SQL = "SELECT id, body, title FROM note ORDER BY id"
            let bodies: [String] = try await pg.fetchAll(sql) { row in try row.decode(String.self, at: 1) }
            #expect(bodies == texts)
            let titles: [String?] = try await pg.fetchAll(sql) { row in try row.decode(String?.self, named: "title") }
            #expect(titles == texts)
            let values: [SQLValue] = try await pg.fetchAll(sql) { row in row.value(at: 1) }
            #expect(values == texts.map { SQLValue.text($0) })
            let copies: [CopiedRow] = try await pg.fetchAll(sql) { row in row.copy() }
            let copiedTitles: [String] = try copies.map { copy in try copy.decode(String.self, at: 2) }
            #expect(copiedTitles == texts)
            let records: [ExactNote] = try await pg.fetchAll(ExactNote.self, "SELECT id, body FROM note ORDER BY id")
            #expect(records.map(\.body) == texts)
            let codable: [CodableNote] = try await pg.fetchAll(
                CodableNote.self, "SELECT id, body FROM note ORDER BY id")
            #expect(codable.map(\.body) == texts)
            // The UTF-8 bytes, not only equal strings (Unicode equivalence would hide a change).
            let utf8: [[UInt8]] = bodies.map { Array($0.utf8) }
            #expect(utf8 == texts.map { Array($0.utf8) })
            // NULL stays NULL.
            let null: String? = try await pg.fetchValue(String?.self, "SELECT CAST(NULL AS text)")
            #expect(null == nil)
            // jsonb (binary: a version byte, then the text) and json read as their text.
            let json: String = try await pg.fetchValue(String.self, "SELECT CAST('{\"a\": \"é\"}' AS jsonb)")
            #expect(json == "{\"a\": \"é\"}")
            let plainJSON: String = try await pg.fetchValue(String.self, "SELECT CAST('[1, \"日\"]' AS json)")
            #expect(plainJSON == "[1, \"日\"]")
        }
    }

    /// A record of the `note` table, read by position.
    struct ExactNote: RowDecodable, Equatable, Sendable {
        var id: Int64
        var body: String

        init(id: Int64, body: String) {
            self.id = id
            self.body = body
        }

        init(row: borrowing Row) throws {
            id = try row.decode(at: 0)
            body = try row.decode(at: 1)
        }
    }

    /// A record of the `note` table, read through `Codable`.
    struct CodableNote: CodableRecord, Equatable, Sendable {
        static let tableName = "note"
        var id: Int64
        var body: String
    }
#endif
