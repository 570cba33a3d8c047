import Foundation
import Slate
import SlateTestSupport
import Testing

/// The exact SQL of each construct that differs between SQLite and PostgreSQL, in both dialects:
/// SQLite's text is what the builder always rendered; PostgreSQL's is written from it by
/// `SQL.rendered(for:)`. Needs no server.
@Suite struct DialectRenderingTests {
    func postgreSQL(_ statement: some QueryStatement) throws -> String {
        try statement.sql.rendered(for: .postgreSQL).text
    }

    func postgreSQLError(_ statement: some QueryStatement) -> DatabaseError? {
        do {
            _ = try statement.sql.rendered(for: .postgreSQL)
            return nil
        } catch {
            return error as? DatabaseError
        }
    }

    @Test func numbersPlaceholdersAndKeepsArgumentsInOrder() throws {
        let query = Person.where { $0.age > 18 && $0.name == "Arthur" }.order { $0.name }.limit(5)
        let sqlite = query.sql
        #expect(
            sqlite.text
                == #"SELECT "person"."id", "person"."name", "person"."age", "person"."email", "person"."score" FROM "person" WHERE "person"."age" > ? AND "person"."name" = ? ORDER BY "person"."name" LIMIT ?"#
        )
        let rendered = try query.sql.rendered(for: .postgreSQL)
        let expected: String =
            #"SELECT "person"."id", "person"."name", "person"."age", "person"."email", "person"."score" FROM "person" WHERE "person"."age" > $1 AND "person"."name" = $2 ORDER BY "person"."name" LIMIT $3"#
        #expect(rendered.text == expected)
        let values = try rendered.arguments.map { try $0?.sqlValue }
        let expectedValues: [SQLValue?] = [.integer(18), .text("Arthur"), .integer(5)]
        #expect(values == expectedValues)
    }

    @Test func leavesQuestionMarksInLiteralsQuotedIdentifiersAndComments() throws {
        let sql: SQL = "SELECT '?', \"a?\" -- ?\n, /* ? */ x FROM t WHERE y = \(1) AND z = $$?$$"
        let rendered = try sql.rendered(for: .postgreSQL)
        #expect(rendered.text == "SELECT '?', \"a?\" -- ?\n, /* ? */ x FROM t WHERE y = $1 AND z = $$?$$")
        #expect(rendered.arguments.count == 1)
        // Hand-written PostgreSQL parameters pass through with their values.
        let handWritten = SQL(sql: "SELECT $1 + $2", arguments: [1, 2])
        #expect(try handWritten.rendered(for: .postgreSQL).text == "SELECT $1 + $2")
        // SQLite's numbered and named parameters have no place there.
        #expect(throws: DatabaseError.self) { try SQL(sql: "SELECT ?1", arguments: [1]).rendered(for: .postgreSQL) }
        #expect(throws: DatabaseError.self) { try SQL(sql: "SELECT ? + $1", arguments: [1]).rendered(for: .postgreSQL) }
        #expect(throws: DatabaseError.self) { try SQL(sql: "SELECT ?, ?", arguments: [1]).rendered(for: .postgreSQL) }
    }

    @Test func rendersOffsetWithoutLimit() throws {
        let query = Person.all().order { $0.id }.limit(10, offset: 20)
        #expect(query.sql.text.hasSuffix(#"ORDER BY "person"."id" LIMIT ? OFFSET ?"#))
        #expect(try postgreSQL(query).hasSuffix(#"ORDER BY "person"."id" LIMIT $1 OFFSET $2"#))
        let offsetOnly = Person.all().order { $0.id }.offset(20)
        #expect(offsetOnly.sql.text.hasSuffix(#"ORDER BY "person"."id" LIMIT -1 OFFSET ?"#))
        #expect(try postgreSQL(offsetOnly).hasSuffix(#"ORDER BY "person"."id" OFFSET $1"#))
        #expect(try offsetOnly.sql.rendered(for: .postgreSQL).arguments.map { try $0?.sqlValue } == [.integer(20)])
    }

    @Test func aliasesTheSubqueryOfACount() throws {
        let query = Person.all().distinct().select { $0.name }
        #expect(query.countSQL.text.hasSuffix(#"FROM "person")"#))
        #expect(
            try query.countSQL.rendered(for: .postgreSQL).text
                == #"SELECT count(*) FROM (SELECT DISTINCT "person"."name" FROM "person") AS "counted""#)
        // A grouped query selects only grouped columns and aggregates on PostgreSQL: `1`, to count.
        let grouped = Person.group(by: \.age).having { _ in count() > 1 }
        #expect(grouped.countSQL.text.hasPrefix(#"SELECT count(*) FROM (SELECT "person"."id", "person"."name", "#))
        #expect(
            try grouped.countSQL.rendered(for: .postgreSQL).text
                == #"SELECT count(*) FROM (SELECT 1 FROM "person" GROUP BY "person"."age" HAVING count(*) > $1) AS "counted""#
        )
    }

    @Test func rendersLikeAsCaseInsensitiveILike() throws {
        let like = Person.where { $0.name.like("a%") }.select { $0.id }
        #expect(like.sql.text.hasSuffix(#"WHERE "person"."name" LIKE ?"#))
        #expect(try postgreSQL(like).hasSuffix(#"WHERE "person"."name" ILIKE $1 ESCAPE ''"#))
        let escaped = Person.where { $0.name.notLike("100\\%", escape: "\\") }.select { $0.id }
        #expect(escaped.sql.text.hasSuffix(#"WHERE "person"."name" NOT LIKE ? ESCAPE ?"#))
        #expect(try postgreSQL(escaped).hasSuffix(#"WHERE "person"."name" NOT ILIKE $1 ESCAPE $2"#))
    }

    @Test func rendersLiteralMatchesAsGlobOrLike() throws {
        let prefix = Person.where { $0.name.hasPrefix("50%_") }.select { $0.id }
        #expect(prefix.sql.text.hasSuffix(#"WHERE "person"."name" GLOB ?"#))
        #expect(try prefix.sql.arguments.positional.map { try $0?.sqlValue } == [.text("50%_*")])
        let rendered = try prefix.sql.rendered(for: .postgreSQL)
        #expect(rendered.text.hasSuffix(#"WHERE "person"."name" LIKE $1 ESCAPE '\'"#))
        #expect(try rendered.arguments.map { try $0?.sqlValue } == [.text("50\\%\\_%")])
        let contains = Person.where { $0.name.contains("a\\b") }.select { $0.id }
        #expect(try contains.sql.rendered(for: .postgreSQL).arguments.map { try $0?.sqlValue } == [.text("%a\\\\b%")])
    }

    @Test func refusesGlobOnPostgreSQL() throws {
        let glob = Person.where { $0.name.glob("A*") }.select { $0.id }
        #expect(glob.sql.text.hasSuffix(#"WHERE "person"."name" GLOB ?"#))
        let error = try #require(postgreSQLError(glob))
        #expect(error.resultCode == .misuse)
        #expect(error.message.contains("PostgreSQL has no equivalent of `GLOB ?`"))
        #expect(error.sql == glob.sql.text)
    }

    @Test func rendersIsAsIsNotDistinctFrom() throws {
        let same = Person.where { $0.email.is("a@b.c") }.select { $0.id }
        #expect(same.sql.text.hasSuffix(#"WHERE "person"."email" IS ?"#))
        #expect(try postgreSQL(same).hasSuffix(#"WHERE "person"."email" IS NOT DISTINCT FROM $1"#))
        let different = Person.where { $0.email.isNot($0.email.lower()) }.select { $0.id }
        #expect(different.sql.text.hasSuffix(#"WHERE "person"."email" IS NOT lower("person"."email")"#))
        #expect(
            try postgreSQL(different).hasSuffix(#"WHERE "person"."email" IS DISTINCT FROM lower("person"."email")"#))
        let isNull = Person.where { $0.email == nil }.select { $0.id }
        #expect(try postgreSQL(isNull) == isNull.sql.text)
    }

    @Test func rendersEmptyInListsAsAnyAndAll() throws {
        let none = Person.where { $0.id.in([Int64?]()) }.select { $0.id }
        #expect(none.sql.text.hasSuffix(#"WHERE "person"."id" IN ()"#))
        #expect(try postgreSQL(none).hasSuffix(#"WHERE "person"."id" = ANY('{}')"#))
        let all = Person.where { $0.id.notIn([Int64?]()) }.select { $0.id }
        #expect(try postgreSQL(all).hasSuffix(#"WHERE "person"."id" <> ALL('{}')"#))
        let some = Person.where { $0.id.in([1, 2]) }.select { $0.id }
        #expect(try postgreSQL(some).hasSuffix(#"WHERE "person"."id" IN ($1, $2)"#))
    }

    @Test func rendersAggregatesWithPostgreSQLTypes() throws {
        let query = Person.select {
            ($0.score.total(), $0.age.avg(), $0.name.groupConcat(separator: "|"), $0.score.rounded(toPlaces: 1))
        }
        #expect(
            query.sql.text
                == #"SELECT total("person"."score"), avg("person"."age"), group_concat("person"."name", ?), round("person"."score", ?) FROM "person""#
        )
        #expect(
            try postgreSQL(query)
                == #"SELECT CAST(coalesce(sum("person"."score"), 0) AS double precision), CAST(avg("person"."age") AS double precision), string_agg(CAST("person"."name" AS text), $1), CAST(round(CAST("person"."score" AS numeric), 1) AS double precision) FROM "person""#
        )
    }

    @Test func rendersCollations() throws {
        let binary = Person.where { $0.name.collate(.binary) == "a" }.select { $0.id }
        #expect(binary.sql.text.hasSuffix(#"WHERE "person"."name" COLLATE "BINARY" = ?"#))
        #expect(try postgreSQL(binary).hasSuffix(#"WHERE "person"."name" COLLATE "C" = $1"#))
        let nocase = Person.where { $0.name.collate(.nocase) == "a" }.select { $0.id }
        #expect(postgreSQLError(nocase)?.message.contains("COLLATE \"NOCASE\"") == true)
    }

    @Test func rendersInsertsWithReturningAndConflicts() throws {
        let person = Person(id: 1, name: "Arthur", age: 42, email: nil, score: 1.5)
        let returning = Person.insert(person).returning(\.id)
        #expect(
            returning.sql.text
                == #"INSERT INTO "person" ("id", "name", "age", "email", "score") VALUES (?, ?, ?, ?, ?) RETURNING "person"."id""#
        )
        #expect(
            try postgreSQL(returning)
                == #"INSERT INTO "person" ("id", "name", "age", "email", "score") VALUES ($1, $2, $3, $4, $5) RETURNING "person"."id""#
        )

        let upsert = Person.upsert(person)
        #expect(
            upsert.sql.text
                == #"INSERT INTO "person" ("id", "name", "age", "email", "score") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name", "age" = "excluded"."age", "email" = "excluded"."email", "score" = "excluded"."score""#
        )
        #expect(
            try postgreSQL(upsert)
                == #"INSERT INTO "person" ("id", "name", "age", "email", "score") VALUES ($1, $2, $3, $4, $5) ON CONFLICT ("id") DO UPDATE SET "name" = "excluded"."name", "age" = "excluded"."age", "email" = "excluded"."email", "score" = "excluded"."score""#
        )

        let ignore = Person.insert(person, or: .ignore)
        #expect(ignore.sql.text.hasPrefix(#"INSERT OR IGNORE INTO "person" ("#))
        #expect(try postgreSQL(ignore).hasPrefix(#"INSERT INTO "person" ("#))
        #expect(try postgreSQL(ignore).hasSuffix(#"VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING"#))

        let replace = Person.insert(person, or: .replace)
        #expect(replace.sql.text.hasPrefix(#"INSERT OR REPLACE INTO "person" ("#))
        let error = try #require(postgreSQLError(replace))
        #expect(error.message.contains("PostgreSQL has no equivalent of `INSERT OR REPLACE INTO`"))
        #expect(error.message.contains("upsert"))
        #expect(postgreSQLError(Person.update(or: .rollback) { $0.name.set(to: "x") }) != nil)
    }

    @Test func rendersUpdatesAndDeletes() throws {
        let update = Person.update { $0.score.set(to: $0.score + 1) }.where { $0.id == 3 }
        #expect(update.sql.text == #"UPDATE "person" SET "score" = "person"."score" + ? WHERE "person"."id" = ?"#)
        #expect(
            try postgreSQL(update) == #"UPDATE "person" SET "score" = "person"."score" + $1 WHERE "person"."id" = $2"#)
        let delete = Person.delete().where { $0.age < 18 }.returning(\.id)
        #expect(try postgreSQL(delete) == #"DELETE FROM "person" WHERE "person"."age" < $1 RETURNING "person"."id""#)
    }

    @Test func createsTablesWithPostgreSQLTypes() throws {
        #expect(try Appliance.createStatements(dialect: .sqlite) == (try Appliance.schema.createStatements()))
        #expect(
            try Appliance.createStatements(dialect: .postgreSQL) == [
                #"CREATE TABLE "appliance" ("id" BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, "name" VARCHAR(40) NOT NULL UNIQUE, "isActive" BOOLEAN NOT NULL, "madeAt" TIMESTAMPTZ NOT NULL, "serial" UUID NOT NULL, "payload" BYTEA, "price" DOUBLE PRECISION NOT NULL DEFAULT 0.0, "rank" INTEGER)"#,
                #"CREATE INDEX "appliance_on_madeAt" ON "appliance" ("madeAt")"#,
            ])
        // SQLite's NOCASE collation has no PostgreSQL equivalent: an error, not another collation.
        #expect(throws: DatabaseError.self) { try Person.createStatements(dialect: .postgreSQL) }
    }
}

/// A table with one column of each type PostgreSQL stores differently from SQLite.
struct Appliance: PrimaryKeyedTable, Hashable, Sendable {
    var id: Int64?
    var name: String
    var isActive: Bool
    var madeAt: Date
    var serial: UUID
    var payload: Data?
    var price: Double
    var rank: Int32?

    static let schema = TableSchema(
        name: "appliance",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "VARCHAR(40)", isNotNull: true, isUnique: true),
            .init(name: "isActive", type: "BOOLEAN", isNotNull: true),
            .init(name: "madeAt", type: "DATETIME", isNotNull: true),
            .init(name: "serial", type: "BLOB", isNotNull: true),
            .init(name: "payload", type: "BLOB"),
            .init(name: "price", type: "REAL", isNotNull: true, defaultSQL: "0.0"),
            .init(name: "rank", type: "INTEGER"),
        ],
        indexes: [.init(name: "appliance_on_madeAt", columns: ["madeAt"])])

    struct Columns: TableColumns {
        let id: Column<Appliance, Int64?>
        let name: Column<Appliance, String>
        let isActive: Column<Appliance, Bool>
        let madeAt: Column<Appliance, Date>
        let serial: Column<Appliance, UUID>
        let payload: Column<Appliance, Data?>
        let price: Column<Appliance, Double>
        let rank: Column<Appliance, Int32?>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
            isActive = Column(qualifier, "isActive")
            madeAt = Column(qualifier, "madeAt")
            serial = Column(qualifier, "serial")
            payload = Column(qualifier, "payload")
            price = Column(qualifier, "price")
            rank = Column(qualifier, "rank")
        }
    }

    init(
        id: Int64? = nil, name: String, isActive: Bool, madeAt: Date, serial: UUID, payload: Data?, price: Double,
        rank: Int32?
    ) {
        self.id = id
        self.name = name
        self.isActive = isActive
        self.madeAt = madeAt
        self.serial = serial
        self.payload = payload
        self.price = price
        self.rank = rank
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        isActive = try row.decode(at: 2)
        madeAt = try row.decode(at: 3)
        serial = try row.decode(at: 4)
        payload = try row.decode(at: 5)
        price = try row.decode(at: 6)
        rank = try row.decode(at: 7)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(isActive)
        try encoder.encode(madeAt)
        try encoder.encode(serial)
        try encoder.encode(payload)
        try encoder.encode(price)
        try encoder.encode(rank)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }
}
