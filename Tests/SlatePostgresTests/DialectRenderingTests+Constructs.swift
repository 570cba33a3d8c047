import Foundation
import Slate
import SlateTestSupport
import Testing

/// One statement's SQL in both dialects, each written one clause per line: the lines are joined
/// with a space (leading spaces of a line dropped) before comparing.
func expectDialects(
    _ statement: some QueryStatement, sqlite: String, postgreSQL: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(statement.sql.text == oneLine(sqlite), sourceLocation: sourceLocation)
    #expect(try statement.sql.rendered(for: .postgreSQL).text == oneLine(postgreSQL), sourceLocation: sourceLocation)
}

/// The same for an SQL value.
func expectDialects(
    _ sql: SQL, sqlite: String, postgreSQL: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(sql.text == oneLine(sqlite), sourceLocation: sourceLocation)
    #expect(try sql.rendered(for: .postgreSQL).text == oneLine(postgreSQL), sourceLocation: sourceLocation)
}

/// The PostgreSQL arguments of a statement, as values.
func postgreSQLArguments(_ statement: some QueryStatement) throws -> [SQLValue] {
    try statement.sql.rendered(for: .postgreSQL).arguments.map { try $0?.sqlValue ?? .null }
}

/// The constructs whose SQL each dialect writes its own way, so that a query gives the same rows on
/// both engines: NULL ordering, operator precedence, repeated parameters, limits, rounding,
/// division, aliases at two levels, existence over groups. Needs no server.
@Suite struct DialectConstructRenderingTests {
    // MARK: NULL ordering

    @Test func nullsSortFirstAscendingAndLastDescendingInEveryDialect() throws {
        try expectDialects(
            Person.all().order { $0.email }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."email"
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."email" NULLS FIRST
                """)
        try expectDialects(
            Person.all().order { ($0.email.descending(), $0.email.ascending()) }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."email" DESC, "person"."email" ASC
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."email" DESC NULLS LAST, "person"."email" ASC NULLS FIRST
                """)
    }

    @Test func explicitNullPositionsAreWrittenInEveryDialect() throws {
        try expectDialects(
            Person.all().order { ($0.email.ascending(nulls: .last), $0.email.descending(nulls: .first)) }
                .select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."email" ASC NULLS LAST, "person"."email" DESC NULLS FIRST
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."email" ASC NULLS LAST, "person"."email" DESC NULLS FIRST
                """)
    }

    @Test func termsThatCannotBeNullKeepThePlainForm() throws {
        // A non-optional expression needs no NULLS clause, which would keep PostgreSQL from
        // reading an index in order.
        try expectDialects(
            Person.all().order { ($0.name, $0.age.descending()) }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name", "person"."age" DESC
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name", "person"."age" DESC
                """)
    }

    @Test func windowOrderingsSortNullsAsSQLiteDoes() throws {
        try expectDialects(
            Person.select { rank().over(.order(by: $0.email)) },
            sqlite: """
                SELECT rank() OVER (ORDER BY "person"."email")
                FROM "person"
                """,
            postgreSQL: """
                SELECT rank() OVER (ORDER BY "person"."email" NULLS FIRST)
                FROM "person"
                """)
    }

    // MARK: Precedence

    @Test func comparisonsOfComparisonsAreParenthesizedByEachDialect() throws {
        // SQLite binds `>` more tightly than `=`; PostgreSQL puts them at one non-associative level.
        try expectDialects(
            Person.where { ($0.age > 18) == ($0.name == "Ann") }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                WHERE "person"."age" > ? = ("person"."name" = ?)
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                WHERE ("person"."age" > $1) = ("person"."name" = $2)
                """)
        // PostgreSQL's IS binds less tightly than =, and its IN and LIKE more tightly.
        try expectDialects(
            Person.where { $0.email.isNull == ($0.age < 3) }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                WHERE ("person"."email" IS NULL) = "person"."age" < ?
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                WHERE ("person"."email" IS NULL) = ("person"."age" < $1)
                """)
        try expectDialects(
            Person.where { $0.age.in([1, 2]) == ($0.name.like("A%")) }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                WHERE ("person"."age" IN (?, ?)) = ("person"."name" LIKE ?)
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                WHERE "person"."age" IN ($1, $2) = "person"."name" ILIKE $3 ESCAPE ''
                """)
    }

    // MARK: Repeated parameters

    @Test func equalValuesShareOnePostgreSQLParameter() throws {
        let query = Person.group { $0.age / 10 }.select { ($0.age / 10, count()) }
        try expectDialects(
            query,
            sqlite: """
                SELECT "person"."age" / ?, count(*)
                FROM "person"
                GROUP BY "person"."age" / ?
                """,
            postgreSQL: """
                SELECT "person"."age" / NULLIF($1, 0), count(*)
                FROM "person"
                GROUP BY "person"."age" / NULLIF($1, 0)
                """)
        #expect(try postgreSQLArguments(query) == [.integer(10)])
        // Equal values of other types, and NULLs, keep their own parameters.
        let mixed = Person.where { $0.age == 1 && $0.score == 1.0 && $0.email == Optional("1") }.select { $0.id }
        #expect(try postgreSQLArguments(mixed) == [.integer(1), .real(1), .text("1")])
    }

    // MARK: Limits

    @Test func negativeLimitsAndOffsetsMeanNoneInEveryDialect() throws {
        try expectDialects(
            Person.all().order { $0.name }.limit(-1).select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name"
                LIMIT ?
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name"
                """)
        try expectDialects(
            Person.all().order { $0.name }.limit(5, offset: -2).select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name"
                LIMIT ? OFFSET ?
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name"
                LIMIT $1
                """)
        try expectDialects(
            Person.all().order { $0.name }.offset(2).select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name"
                LIMIT -1 OFFSET ?
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                ORDER BY "person"."name"
                OFFSET $1
                """)
    }

    // MARK: Functions and arithmetic

    @Test func negativePlacesRoundToAWholeNumberInEveryDialect() throws {
        try expectDialects(
            Person.select { $0.score.rounded(toPlaces: -1) },
            sqlite: """
                SELECT round("person"."score", ?)
                FROM "person"
                """,
            postgreSQL: """
                SELECT CAST(round(CAST("person"."score" AS numeric), 0) AS double precision)
                FROM "person"
                """)
    }

    @Test func divisionByZeroIsNullInEveryDialect() throws {
        try expectDialects(
            Person.select { ($0.score / $0.score, $0.age % ($0.age - 1), ($0.age + 1) / 2) },
            sqlite: """
                SELECT "person"."score" / "person"."score", "person"."age" % ("person"."age" - ?), ("person"."age" + ?) / ?
                FROM "person"
                """,
            postgreSQL: """
                SELECT "person"."score" / NULLIF("person"."score", 0), "person"."age" % NULLIF("person"."age" - $1, 0), ("person"."age" + $1) / NULLIF($2, 0)
                FROM "person"
                """)
    }

    @Test func groupConcatIsStringAggOfText() throws {
        try expectDialects(
            Person.select { $0.name.groupConcat(separator: ", ") },
            sqlite: """
                SELECT group_concat("person"."name", ?)
                FROM "person"
                """,
            postgreSQL: """
                SELECT string_agg(CAST("person"."name" AS text), $1)
                FROM "person"
                """)
    }

    // MARK: Aliases, existence

    @Test func aTableAtTwoLevelsTakesAnAliasInside() throws {
        let query = Employee.where { outer in
            exists(Employee.where { $0.reportsTo == outer.employeeId })
        }.select { $0.employeeId }
        let expected = """
            SELECT "Employee"."EmployeeId"
            FROM "Employee"
            WHERE EXISTS (SELECT "Employee_2"."EmployeeId", \(employeeColumns("Employee_2")) FROM "Employee" AS "Employee_2" WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId")
            """
        try expectDialects(query, sqlite: expected, postgreSQL: expected)
        // Three levels: each takes the next free name.
        let three = Employee.where { first in
            exists(
                Employee.where { second in
                    second.reportsTo == first.employeeId
                        && exists(Employee.where { $0.reportsTo == second.employeeId }.select { $0.employeeId })
                }.select { $0.employeeId })
        }.select { $0.employeeId }
        #expect(
            three.sql.text.contains(
                #"FROM "Employee" AS "Employee_3" WHERE "Employee_3"."ReportsTo" = "Employee_2"."EmployeeId""#))
        #expect(three.sql.text.contains(#"WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId""#))
    }

    @Test func existenceOverGroupsSelectsNothingOnPostgreSQL() throws {
        let grouped = Person.group(by: \.age).having { _ in count() > 1 }
        try expectDialects(
            grouped.existsSQL,
            sqlite: """
                SELECT EXISTS (SELECT "person"."id", "person"."name", "person"."age", "person"."email", "person"."score"
                FROM "person"
                GROUP BY "person"."age"
                HAVING count(*) > ?)
                """,
            postgreSQL: """
                SELECT EXISTS (SELECT 1
                FROM "person"
                GROUP BY "person"."age"
                HAVING count(*) > $1)
                """)
    }

    @Test func refusalsSayWhichEngineRefused() throws {
        let glob = Person.where { $0.name.glob("A*") }.select { $0.id }
        do {
            _ = try glob.sql.rendered(for: .postgreSQL)
            Issue.record("GLOB rendered for PostgreSQL")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .misuse)
            #expect(error.description.hasPrefix("Not supported on PostgreSQL, refused before running: "))
            #expect(!error.description.contains("SQLite error"))
        }
    }
}

/// The columns of `Employee` after its key, qualified by `qualifier`.
func employeeColumns(_ qualifier: String) -> String {
    Employee.schema.recordColumns.dropFirst().map { "\"\(qualifier)\".\"\($0.name)\"" }.joined(separator: ", ")
}

extension DialectConstructRenderingTests {
    @Test func emptyListsTakeTheLevelOfEqualityOnPostgreSQL() throws {
        // `x = ANY('{}')` is a comparison on PostgreSQL, not an `IN`.
        try expectDialects(
            Person.where { $0.email.isNull == $0.age.in([Int64]()) }.select { $0.id },
            sqlite: """
                SELECT "person"."id"
                FROM "person"
                WHERE ("person"."email" IS NULL) = ("person"."age" IN ())
                """,
            postgreSQL: """
                SELECT "person"."id"
                FROM "person"
                WHERE ("person"."email" IS NULL) = ("person"."age" = ANY('{}'))
                """)
    }

    @Test func aCompoundSortsByItsResultColumns() throws {
        // PostgreSQL sorts a compound by result column names, never a table's columns.
        try expectDialects(
            Artist.select { $0.name }.union(Genre.select { $0.name }).order { $0.name.descending() }.limit(3),
            sqlite: """
                SELECT "Artist"."Name"
                FROM "Artist"
                UNION SELECT "Genre"."Name"
                FROM "Genre"
                ORDER BY "Artist"."Name" DESC
                LIMIT ?
                """,
            postgreSQL: """
                SELECT "Artist"."Name"
                FROM "Artist"
                UNION SELECT "Genre"."Name"
                FROM "Genre"
                ORDER BY "Name" DESC NULLS LAST
                LIMIT $1
                """)
    }
}
