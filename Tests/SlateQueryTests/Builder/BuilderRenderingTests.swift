import Foundation
import Slate
import SlateTestSupport
import Testing

/// The columns of `Person` as the builder selects them.
let personColumns = #""person"."id", "person"."name", "person"."age", "person"."email", "person"."score""#
let petColumns = #""pet"."id", "pet"."ownerId", "pet"."name", "pet"."species""#
let toyColumns = #""toy"."id", "toy"."petId", "toy"."name""#

/// Checks a statement's exact SQL text (one clause per line, or one line) and arguments.
func expectSQL(
    _ statement: some QueryStatement, _ text: String, _ arguments: [SQLValue] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let sql = statement.sql
    #expect(sql.text == oneLine(text), sourceLocation: sourceLocation)
    #expect(try argumentValues(sql) == arguments, sourceLocation: sourceLocation)
    #expect(statement.description == sql.text, sourceLocation: sourceLocation)
}

/// Checks an SQL value's exact text (one clause per line, or one line) and arguments.
func expectSQL(
    _ sql: SQL, _ text: String, _ arguments: [SQLValue] = [], sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(sql.text == oneLine(text), sourceLocation: sourceLocation)
    #expect(try argumentValues(sql) == arguments, sourceLocation: sourceLocation)
}

/// Checks an expression's exact SQL fragment and arguments.
func expectFragment(
    _ expression: some QueryExpression, _ text: String, _ arguments: [SQLValue] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let sql = expression.queryFragment
    #expect(sql.text == text, sourceLocation: sourceLocation)
    #expect(try argumentValues(sql) == arguments, sourceLocation: sourceLocation)
}

/// Person's columns, for building expressions outside a query.
let person = Person.Columns(qualifier: "person")
let pet = Pet.Columns(qualifier: "pet")

@Suite struct BuilderRenderingTests {
    // MARK: Comparisons

    @Test func comparesColumnsWithValues() throws {
        try expectFragment(person.age == 5, #""person"."age" = ?"#, [5])
        try expectFragment(person.age != 5, #""person"."age" <> ?"#, [5])
        try expectFragment(person.age < 5, #""person"."age" < ?"#, [5])
        try expectFragment(person.age <= 5, #""person"."age" <= ?"#, [5])
        try expectFragment(person.age > 5, #""person"."age" > ?"#, [5])
        try expectFragment(person.age >= 5, #""person"."age" >= ?"#, [5])
        try expectFragment(person.name == "O'Brien", #""person"."name" = ?"#, ["O'Brien"])
        try expectFragment(person.score <= 3.5, #""person"."score" <= ?"#, [3.5])
        try expectFragment(person.email == "a@b.c", #""person"."email" = ?"#, ["a@b.c"])
    }

    @Test func comparingWithNilRendersIsNull() throws {
        try expectFragment(person.email == nil, #""person"."email" IS NULL"#)
        try expectFragment(person.email != nil, #""person"."email" IS NOT NULL"#)
        let missing: String? = nil
        try expectFragment(person.email == missing, #""person"."email" IS NULL"#)
        let present: String? = "x"
        try expectFragment(person.email == present, #""person"."email" = ?"#, ["x"])
        try expectFragment(person.email.isNull, #""person"."email" IS NULL"#)
        try expectFragment(person.email.isNotNull, #""person"."email" IS NOT NULL"#)
    }

    @Test func comparesExpressions() throws {
        try expectFragment(person.age == person.age, #""person"."age" = "person"."age""#)
        // A nullable foreign key compared with the key it references, in both orders.
        try expectFragment(pet.ownerId == person.id, #""pet"."ownerId" = "person"."id""#)
        let album = Album.Columns(qualifier: "Album")
        let artist = Artist.Columns(qualifier: "Artist")
        try expectFragment(album.artistId == artist.artistId, #""Album"."ArtistId" = "Artist"."ArtistId""#)
        try expectFragment(artist.artistId == album.artistId, #""Artist"."ArtistId" = "Album"."ArtistId""#)
        try expectFragment(album.artistId != artist.artistId, #""Album"."ArtistId" <> "Artist"."ArtistId""#)
        try expectFragment(album.artistId < artist.artistId, #""Album"."ArtistId" < "Artist"."ArtistId""#)
        try expectFragment(artist.artistId >= album.artistId, #""Artist"."ArtistId" >= "Album"."ArtistId""#)
    }

    // MARK: Logic and precedence

    @Test func combinesPredicatesWithMinimalParentheses() throws {
        try expectFragment(
            person.age > 5 && person.name == "x" || person.score < 1,
            #""person"."age" > ? AND "person"."name" = ? OR "person"."score" < ?"#, [5, "x", 1.0])
        try expectFragment(
            person.age > 5 && (person.name == "x" || person.score < 1),
            #""person"."age" > ? AND ("person"."name" = ? OR "person"."score" < ?)"#, [5, "x", 1.0])
        try expectFragment(
            (person.age > 5 || person.age < 2) && person.email != nil,
            #"("person"."age" > ? OR "person"."age" < ?) AND "person"."email" IS NOT NULL"#, [5, 2])
        try expectFragment(
            !(person.age > 5 && person.age < 9), #"NOT ("person"."age" > ? AND "person"."age" < ?)"#, [5, 9])
        try expectFragment(!(person.age == 5), #"NOT "person"."age" = ?"#, [5])
        try expectFragment(
            person.age > 5 && person.name == "x" && person.score <= 3.5 && person.email != nil && person.age < 90
                || person.name.hasPrefix("A"),
            #""person"."age" > ? AND "person"."name" = ? AND "person"."score" <= ? AND "person"."email" IS NOT NULL"#
                + #" AND "person"."age" < ? OR "person"."name" GLOB ?"#,
            [5, "x", 3.5, 90, "A*"])
    }

    @Test func rendersArithmetic() throws {
        try expectFragment(person.age + 1, #""person"."age" + ?"#, [1])
        try expectFragment((person.age + 1) * 2 > 10, #"("person"."age" + ?) * ? > ?"#, [1, 2, 10])
        try expectFragment(person.age * 2 + 1, #""person"."age" * ? + ?"#, [2, 1])
        try expectFragment(person.age - (person.age - 1), #""person"."age" - ("person"."age" - ?)"#, [1])
        try expectFragment(person.age - person.age - person.age, #""person"."age" - "person"."age" - "person"."age""#)
        try expectFragment(person.score / 2, #""person"."score" / ?"#, [2.0])
        try expectFragment(-person.age < 0, #"-"person"."age" < ?"#, [0])
        try expectFragment(-(person.age + 1), #"-("person"."age" + ?)"#, [1])
        try expectFragment(-(-person.age), #"-(-"person"."age")"#)
        try expectFragment(person.age + 1 == person.age * 2, #""person"."age" + ? = "person"."age" * ?"#, [1, 2])
    }

    // MARK: IN, BETWEEN

    @Test func rendersInAndBetween() throws {
        try expectFragment(person.age.in([1, 2, 3]), #""person"."age" IN (?, ?, ?)"#, [1, 2, 3])
        try expectFragment(person.age.in([Int64]()), #""person"."age" IN ()"#)
        try expectFragment(person.age.notIn([4]), #""person"."age" NOT IN (?)"#, [4])
        try expectFragment(person.email.in(["a", nil]), #""person"."email" IN (?, ?)"#, ["a", .null])
        try expectFragment(person.age.between(18, and: 65), #""person"."age" BETWEEN ? AND ?"#, [18, 65])
        try expectFragment(person.age.notBetween(1, and: 2), #""person"."age" NOT BETWEEN ? AND ?"#, [1, 2])
        try expectFragment(
            (person.age + 1).between(1, and: 2) && person.age.in([1]),
            #""person"."age" + ? BETWEEN ? AND ? AND "person"."age" IN (?)"#, [1, 1, 2, 1])
    }

    // MARK: Strings

    @Test func rendersPatternMatching() throws {
        try expectFragment(person.name.like("A%"), #""person"."name" LIKE ?"#, ["A%"])
        try expectFragment(
            person.name.like("100\\%", escape: "\\"), #""person"."name" LIKE ? ESCAPE ?"#, ["100\\%", "\\"])
        try expectFragment(person.email.notLike("%@x.org"), #""person"."email" NOT LIKE ?"#, ["%@x.org"])
        try expectFragment(person.name.glob("[A-C]*"), #""person"."name" GLOB ?"#, ["[A-C]*"])
    }

    @Test func escapesGlobPatternsOfPrefixSuffixContains() throws {
        try expectFragment(person.name.hasPrefix("A"), #""person"."name" GLOB ?"#, ["A*"])
        try expectFragment(person.name.hasPrefix("a*b?c[d]e%f_g"), #""person"."name" GLOB ?"#, ["a[*]b[?]c[[]d]e%f_g*"])
        try expectFragment(person.name.hasSuffix("*."), #""person"."name" GLOB ?"#, ["*[*]."])
        try expectFragment(person.email.contains("%_?"), #""person"."email" GLOB ?"#, ["*%_[?]*"])
    }

    // MARK: Functions

    @Test func rendersFunctions() throws {
        try expectFragment(person.email.coalesce("none"), #"coalesce("person"."email", ?)"#, ["none"])
        try expectFragment(person.email ?? "none", #"coalesce("person"."email", ?)"#, ["none"])
        try expectFragment(person.email ?? person.name, #"coalesce("person"."email", "person"."name")"#)
        try expectFragment(person.name.coalesce(person.name), #"coalesce("person"."name", "person"."name")"#)
        try expectFragment(person.name.collate(.nocase) == "bob", #""person"."name" COLLATE "NOCASE" = ?"#, ["bob"])
        try expectFragment(person.name.collate(.rtrim), #""person"."name" COLLATE "RTRIM""#)
        try expectFragment(person.name.collate(.binary), #""person"."name" COLLATE "BINARY""#)
        try expectFragment(person.name.collate(Collation("localized")), #""person"."name" COLLATE "localized""#)
        try expectFragment((person.age + 1).collate("BINARY"), #"("person"."age" + ?) COLLATE "BINARY""#, [1])
        try expectFragment(person.name.lower() == "bob", #"lower("person"."name") = ?"#, ["bob"])
        try expectFragment(person.name.upper(), #"upper("person"."name")"#)
        try expectFragment(person.name.trim(), #"trim("person"."name")"#)
        try expectFragment(person.name.length() > 3, #"length("person"."name") > ?"#, [3])
        try expectFragment(person.email.length() > 3, #"length("person"."email") > ?"#, [3])
        try expectFragment(person.age.abs(), #"abs("person"."age")"#)
        try expectFragment(person.score.rounded(toPlaces: 1), #"round("person"."score", ?)"#, [1])
    }

    @Test func embedsRawSQLFragments() throws {
        let raw = SQLExpression<Bool>(sql: "json_extract(data, '$.x') = \(5)")
        try expectFragment(raw, "json_extract(data, '$.x') = ?", [5])
        try expectFragment(raw && person.age > 1, #"(json_extract(data, '$.x') = ?) AND "person"."age" > ?"#, [5, 1])
        let withColumn = SQLExpression<Bool>(sql: "instr(\(person.name), \("b")) > 0")
        try expectFragment(withColumn, #"instr("person"."name", ?) > 0"#, ["b"])
        try expectFragment(
            SQLExpression<Int64>(sql: "\(person.age) % 2", precedence: .multiplicative) + 1,
            #""person"."age" % 2 + ?"#, [1])
    }

    // MARK: SELECT

    @Test func selectsEveryColumnQualified() throws {
        try expectSQL(
            Person.all(),
            """
            SELECT \(personColumns)
            FROM "person"
            """)
        try expectSQL(Person.all(), Person.all().sql.text)  // deterministic
        try expectSQL(
            Artist.all(),
            #"""
            SELECT "Artist"."ArtistId", "Artist"."Name"
            FROM "Artist"
            """#)
    }

    @Test func rendersWhere() throws {
        try expectSQL(
            Person.where { $0.age > 5 },
            """
            SELECT \(personColumns)
            FROM "person"
            WHERE "person"."age" > ?
            """, [5])
        // Several calls combine with AND, parenthesizing an OR.
        try expectSQL(
            Person.where { $0.age > 5 || $0.age < 2 }.where { $0.name == "x" },
            """
            SELECT \(personColumns)
            FROM "person"
            WHERE ("person"."age" > ? OR "person"."age" < ?) AND "person"."name" = ?
            """,
            [5, 2, "x"])
    }

    @Test func rendersOrdering() throws {
        try expectSQL(
            Person.order(by: \.name),
            """
            SELECT \(personColumns)
            FROM "person"
            ORDER BY "person"."name"
            """)
        try expectSQL(
            Person.order(by: \.name, \.age),
            """
            SELECT \(personColumns)
            FROM "person"
            ORDER BY "person"."name", "person"."age"
            """)
        try expectSQL(
            Person.order { ($0.email.descending(nulls: .last), $0.name.ascending(nulls: .first), $0.age) },
            "SELECT \(personColumns) FROM \"person\" ORDER BY \"person\".\"email\" DESC NULLS LAST, "
                + "\"person\".\"name\" ASC NULLS FIRST, \"person\".\"age\"")
        try expectSQL(
            Person.order { $0.age.descending() }.order(by: \.id),
            """
            SELECT \(personColumns)
            FROM "person"
            ORDER BY "person"."age" DESC, "person"."id"
            """)
        try expectSQL(
            Person.where { $0.age > 1 }.order { $0.name.collate(.nocase) },
            """
            SELECT \(personColumns)
            FROM "person"
            WHERE "person"."age" > ?
            ORDER BY "person"."name" COLLATE "NOCASE"
            """,
            [1])
    }

    @Test func rendersLimitOffsetAndDistinct() throws {
        try expectSQL(
            Person.limit(10),
            """
            SELECT \(personColumns)
            FROM "person"
            LIMIT ?
            """, [10])
        try expectSQL(
            Person.all().limit(10, offset: 20),
            """
            SELECT \(personColumns)
            FROM "person"
            LIMIT ? OFFSET ?
            """, [10, 20])
        try expectSQL(
            Person.where { $0.age > 1 }.order(by: \.name).limit(3),
            """
            SELECT \(personColumns)
            FROM "person"
            WHERE "person"."age" > ?
            ORDER BY "person"."name"
            LIMIT ?
            """,
            [1, 3])
        try expectSQL(
            Person.all().distinct(),
            """
            SELECT DISTINCT \(personColumns)
            FROM "person"
            """)
        try expectSQL(
            Person.select { $0.name }.distinct(),
            #"""
            SELECT DISTINCT "person"."name"
            FROM "person"
            """#)
    }

    @Test func rendersGroupingAndAggregates() throws {
        try expectSQL(
            Person.group(by: \.age).select { ($0.age, count()) },
            #"""
            SELECT "person"."age", count(*)
            FROM "person"
            GROUP BY "person"."age"
            """#)
        try expectSQL(
            Person.all().group { ($0.age, $0.name.lower()) }.having { $0.score.avg() > 2.5 }.select {
                ($0.age, $0.score.sum())
            },
            #"SELECT "person"."age", sum("person"."score") FROM "person" GROUP BY "person"."age", lower("person"."name")"#
                + #" HAVING avg("person"."score") > ?"#,
            [2.5])
        try expectSQL(
            Person.select {
                (
                    $0.id.count(), $0.email.count(distinct: true), $0.age.sum(), $0.age.total(), $0.score.avg(),
                    $0.name.min(), $0.name.max(), $0.name.groupConcat(separator: "; "), $0.email.groupConcat()
                )
            },
            #"SELECT count("person"."id"), count(DISTINCT "person"."email"), sum("person"."age"), total("person"."age"), "#
                + #"avg("person"."score"), min("person"."name"), max("person"."name"), group_concat("person"."name", ?), "#
                + #"group_concat("person"."email") FROM "person""#,
            ["; "])
    }

    @Test func aggregateResultTypesAvoidDoubleOptionals() {
        let minimum: AggregateExpression<String?> = person.name.min()
        let optionalMinimum: AggregateExpression<String?> = person.email.min()
        let optionalMaximum: AggregateExpression<String?> = person.email.max()
        let sum: AggregateExpression<Int64?> = person.age.sum()
        let optionalSum: AggregateExpression<Int64?> = pet.ownerId.sum()
        let total: AggregateExpression<Double> = person.age.total()
        let average: AggregateExpression<Double?> = person.age.avg()
        let counted: AggregateExpression<Int> = person.email.count()
        #expect(minimum.description == #"min("person"."name")"#)
        #expect(optionalMinimum.description == #"min("person"."email")"#)
        #expect(optionalMaximum.description == #"max("person"."email")"#)
        #expect(sum.description == #"sum("person"."age")"#)
        #expect(optionalSum.description == #"sum("pet"."ownerId")"#)
        #expect(total.description == #"total("person"."age")"#)
        #expect(average.description == #"avg("person"."age")"#)
        #expect(counted.description == #"count("person"."email")"#)
    }

    @Test func selectsColumnsAndExpressions() throws {
        let pairs: Selection<Person.Columns, (Int64?, String)> = Person.where { $0.age > 2 }.select { ($0.id, $0.name) }
        try expectSQL(
            pairs,
            #"""
            SELECT "person"."id", "person"."name"
            FROM "person"
            WHERE "person"."age" > ?
            """#, [2])
        let names: Selection<Person.Columns, String> = Person.select { $0.name }
        try expectSQL(
            names,
            #"""
            SELECT "person"."name"
            FROM "person"
            """#)
        let keyPath: Selection<Person.Columns, String> = Person.select(\.name)
        try expectSQL(
            keyPath,
            #"""
            SELECT "person"."name"
            FROM "person"
            """#)
        try expectSQL(
            Person.select { ($0.age + 1, $0.name.upper(), $0.email ?? "-") },
            #"""
            SELECT "person"."age" + ?, upper("person"."name"), coalesce("person"."email", ?)
            FROM "person"
            """#,
            [1, "-"])
        // Clauses may follow the selection.
        try expectSQL(
            Person.select { $0.name }.where { $0.age > 1 }.order(by: \.name).limit(2),
            #"""
            SELECT "person"."name"
            FROM "person"
            WHERE "person"."age" > ?
            ORDER BY "person"."name"
            LIMIT ?
            """#, [1, 2])
    }

    @Test func rendersCountQueries() throws {
        try expectSQL(
            Person.all().countSQL,
            #"""
            SELECT count(*)
            FROM "person"
            """#)
        try expectSQL(
            Person.where { $0.age > 1 }.order(by: \.name).countSQL,
            #"""
            SELECT count(*)
            FROM "person"
            WHERE "person"."age" > ?
            """#, [1])
        try expectSQL(
            Person.all().limit(5).countSQL,
            """
            SELECT count(*)
            FROM (SELECT \(personColumns) FROM "person" LIMIT ?)
            """,
            [5])
        try expectSQL(
            Person.select { $0.name }.distinct().countSQL,
            #"""
            SELECT count(*)
            FROM (SELECT DISTINCT "person"."name" FROM "person")
            """#)
        try expectSQL(
            Person.group(by: \.age).select { $0.age }.countSQL,
            #"""
            SELECT count(*)
            FROM (SELECT "person"."age" FROM "person" GROUP BY "person"."age")
            """#)
    }

    // MARK: Subqueries

    @Test func rendersSubqueries() throws {
        try expectSQL(
            Person.where { $0.id.in(Pet.select { $0.ownerId }) },
            """
            SELECT \(personColumns)
            FROM "person"
            WHERE "person"."id" IN (SELECT "pet"."ownerId" FROM "pet")
            """
        )
        try expectSQL(
            Person.where { $0.id.notIn(Pet.where { $0.name == "Rex" }.select { $0.ownerId }) },
            "SELECT \(personColumns) FROM \"person\" WHERE \"person\".\"id\" NOT IN "
                + "(SELECT \"pet\".\"ownerId\" FROM \"pet\" WHERE \"pet\".\"name\" = ?)",
            ["Rex"])
        // A non-optional column in an optional subquery column, and the reverse.
        let album = Album.Columns(qualifier: "Album")
        try expectFragment(
            album.artistId.in(Artist.select { $0.artistId }),
            #""Album"."ArtistId" IN (SELECT "Artist"."ArtistId" FROM "Artist")"#)
        try expectFragment(
            person.id.in(Toy.select { $0.petId }), #""person"."id" IN (SELECT "toy"."petId" FROM "toy")"#)
        // Correlated EXISTS.
        try expectSQL(
            Person.where { person in exists(Pet.where { $0.ownerId == person.id }) },
            "SELECT \(personColumns) FROM \"person\" WHERE EXISTS "
                + "(SELECT \(petColumns) FROM \"pet\" WHERE \"pet\".\"ownerId\" = \"person\".\"id\")")
        try expectSQL(
            Person.where { person in !exists(Pet.where { $0.ownerId == person.id }) },
            "SELECT \(personColumns) FROM \"person\" WHERE NOT EXISTS "
                + "(SELECT \(petColumns) FROM \"pet\" WHERE \"pet\".\"ownerId\" = \"person\".\"id\")")
        // Scalar subquery: the table at two levels is aliased in the inner one.
        try expectSQL(
            Person.where { $0.score > Person.select { $0.score.avg() } },
            "SELECT \(personColumns) FROM \"person\" WHERE \"person\".\"score\" > "
                + "(SELECT avg(\"person_2\".\"score\") FROM \"person\" AS \"person_2\")")
        try expectSQL(
            Person.select { ($0.name, Pet.select { _ in count() }) },
            #"""
            SELECT "person"."name", (SELECT count(*) FROM "pet")
            FROM "person"
            """#)
    }

    // MARK: Joins

    @Test func rendersJoins() throws {
        try expectSQL(
            Person.join(Pet.self, on: { person, pet in person.id == pet.ownerId }),
            """
            SELECT \(personColumns), \(petColumns)
            FROM "person"
            JOIN "pet" ON "person"."id" = "pet"."ownerId"
            """
        )
        try expectSQL(
            Person.leftJoin(Pet.self, on: { $0.id == $1.ownerId }).where { person, pet in
                pet.name == "Rex" || person.age > 3
            },
            "SELECT \(personColumns), \(petColumns) FROM \"person\" LEFT JOIN \"pet\" ON \"person\".\"id\" = \"pet\".\"ownerId\""
                + " WHERE \"pet\".\"name\" = ? OR \"person\".\"age\" > ?",
            ["Rex", 3])
        try expectSQL(
            Person.crossJoin(Pet.self).where { $0.id == $1.ownerId },
            """
            SELECT \(personColumns), \(petColumns)
            FROM "person"
            CROSS JOIN "pet"
            WHERE "person"."id" = "pet"."ownerId"
            """
        )
        try expectSQL(
            Person.where { $0.age > 1 }
                .join(Pet.self, on: { $0.id == $1.ownerId })
                .join(Toy.self, on: { _, pet, toy in pet.id == toy.petId })
                .order { person, pet, toy in (person.name, toy.name.descending()) }
                .limit(5),
            "SELECT \(personColumns), \(petColumns), \(toyColumns) FROM \"person\""
                + " JOIN \"pet\" ON \"person\".\"id\" = \"pet\".\"ownerId\" JOIN \"toy\" ON \"pet\".\"id\" = \"toy\".\"petId\""
                + " WHERE \"person\".\"age\" > ? ORDER BY \"person\".\"name\", \"toy\".\"name\" DESC LIMIT ?",
            [1, 5])
        try expectSQL(
            Person.join(Pet.self, on: { $0.id == $1.ownerId }).order(by: \.1.name, \.0.name),
            "SELECT \(personColumns), \(petColumns) FROM \"person\" JOIN \"pet\" ON \"person\".\"id\" = \"pet\".\"ownerId\""
                + " ORDER BY \"pet\".\"name\", \"person\".\"name\"")
        try expectSQL(
            Person.join(Pet.self, on: { $0.id == $1.ownerId }).select { person, pet in (person.name, pet.name) },
            #"""
            SELECT "person"."name", "pet"."name"
            FROM "person"
            JOIN "pet" ON "person"."id" = "pet"."ownerId"
            """#)
    }

    @Test func rendersFourTablesAndLeftJoinsAfterJoins() throws {
        let query = Person.all()
            .join(Pet.self, on: { $0.id == $1.ownerId })
            .leftJoin(Toy.self, on: { _, pet, toy in pet.id == toy.petId })
            .leftJoin(Person.self, as: "other", on: { person, _, _, other in other.id != person.id })
        let rows: Select4<Person, Pet, Toy?, Person?> = query
        try expectSQL(
            rows,
            "SELECT \(personColumns), \(petColumns), \(toyColumns), "
                + #""other"."id", "other"."name", "other"."age", "other"."email", "other"."score" FROM "person""#
                + #" JOIN "pet" ON "person"."id" = "pet"."ownerId" LEFT JOIN "toy" ON "pet"."id" = "toy"."petId""#
                + #" LEFT JOIN "person" AS "other" ON "other"."id" <> "person"."id""#)
    }

    @Test func rendersAliases() throws {
        let manager = TableAlias<Employee>("manager")
        let query = Employee.aliased("e").leftJoin(
            manager, on: { employee, manager in employee.reportsTo == manager.employeeId }
        )
        .select { employee, manager in (employee.lastName, manager.lastName) }
        try expectSQL(
            query,
            #"SELECT "e"."LastName", "manager"."LastName" FROM "Employee" AS "e" LEFT JOIN "Employee" AS "manager""#
                + #" ON "e"."ReportsTo" = "manager"."EmployeeId""#)
        try expectSQL(
            TableAlias(Artist.self, "a").all().where { $0.name == "x" },
            #"""
            SELECT "a"."ArtistId", "a"."Name"
            FROM "Artist" AS "a"
            WHERE "a"."Name" = ?
            """#, ["x"])
        try expectSQL(
            Artist.all().join(Artist.self, as: "b", on: { $0.artistId < $1.artistId }).select { ($0.name, $1.name) },
            #"""
            SELECT "Artist"."Name", "b"."Name"
            FROM "Artist"
            JOIN "Artist" AS "b" ON "Artist"."ArtistId" < "b"."ArtistId"
            """#
        )
        #expect(manager.columns.lastName.description == #""manager"."LastName""#)
    }

    @Test func printsQueries() {
        let query = Person.where { $0.name == "Arthur" }.order(by: \.age)
        #expect(
            "\(query)"
                == "SELECT \(personColumns) FROM \"person\" WHERE \"person\".\"name\" = ? ORDER BY \"person\".\"age\"")
        #expect(person.name.description == #""person"."name""#)
        #expect((person.age > 1).description == #""person"."age" > ?"#)
    }
}
