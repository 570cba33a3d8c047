import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// What the builder renders means what the Swift code says: a table at two levels of a statement
/// is aliased, every element of a selected tuple is selected, and values SQL can yield as NULL
/// have optional Swift types. Each query also runs on Chinook against the same query written by
/// hand.
@Suite struct BuilderTruthTests {
    // MARK: A table at two levels

    @Test func aCorrelatedExistsOnTheSameTableAliasesTheInnerTable() throws {
        let db = try Database.chinook()
        let query = Employee.where { e in
            !exists(Employee.where { $0.reportsTo == e.employeeId }.select { $0.employeeId })
        }
        .select { $0.employeeId }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "Employee"."EmployeeId"
                FROM "Employee"
                WHERE NOT EXISTS (
                  SELECT "Employee_2"."EmployeeId"
                  FROM "Employee" AS "Employee_2"
                  WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId"
                )
                """)
        let expected = try db.fetchAll(
            Int64?.self,
            """
            SELECT EmployeeId
            FROM Employee e
            WHERE NOT EXISTS (SELECT 1 FROM Employee m WHERE m.ReportsTo = e.EmployeeId)
            """
        )
        let rows = try query.fetchAll(db)
        #expect(rows == expected)
        #expect(rows == [3, 4, 5, 7, 8])
        // The records form, too.
        let records = try Employee.where { e in exists(Employee.where { $0.reportsTo == e.employeeId }) }.fetchAll(db)
        #expect(records.map(\.employeeId) == [1, 2, 6])
    }

    @Test func aCorrelatedInOnTheSameTableAliasesTheInnerTable() throws {
        let db = try Database.chinook()
        let query = Employee.where { e in
            e.employeeId.in(Employee.where { $0.reportsTo == e.employeeId }.select { $0.reportsTo })
        }
        .select { $0.lastName }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "Employee"."LastName"
                FROM "Employee"
                WHERE "Employee"."EmployeeId" IN (
                  SELECT "Employee_2"."ReportsTo"
                  FROM "Employee" AS "Employee_2"
                  WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId"
                )
                """)
        let expected = try db.fetchAll(
            String.self,
            """
            SELECT LastName
            FROM Employee e
            WHERE e.EmployeeId IN (SELECT m.ReportsTo FROM Employee m WHERE m.ReportsTo = e.EmployeeId)
            """
        )
        #expect(try query.fetchAll(db) == expected)
        #expect(expected.count == 3)
    }

    @Test func scalarSubqueriesOnTheSameTableAreAliasedAndEveryTupleElementIsSelected() throws {
        let db = try Database.chinook()
        let query = Employee.order(by: \.employeeId).select { e in
            (
                e.employeeId,
                Employee.where { $0.reportsTo == e.employeeId }.select { _ in count() },
                Employee.where { $0.employeeId == e.reportsTo }.select { $0.lastName }
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  "Employee"."EmployeeId",
                  (
                    SELECT count(*)
                    FROM "Employee" AS "Employee_2"
                    WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId"
                  ),
                  (
                    SELECT "Employee_2"."LastName"
                    FROM "Employee" AS "Employee_2"
                    WHERE "Employee_2"."EmployeeId" = "Employee"."ReportsTo"
                  )
                FROM "Employee"
                ORDER BY "Employee"."EmployeeId"
                """)
        // The subqueries' values are optional: `count()` of no row still yields a row, but a
        // scalar subquery that finds no row is NULL (Adams has no manager).
        let rows: [(Int64?, Int?, String?)] = try query.fetchAll(db)
        let expected = try db.fetchAll(
            """
            SELECT EmployeeId, (SELECT count(*) FROM Employee m WHERE m.ReportsTo = e.EmployeeId),
              (SELECT b.LastName FROM Employee b WHERE b.EmployeeId = e.ReportsTo) FROM Employee e ORDER BY EmployeeId
            """
        ) { row in
            (try row.decode(Int64?.self, at: 0), try row.decode(Int?.self, at: 1), try row.decode(String?.self, at: 2))
        }
        #expect(rows.count == expected.count)
        for (row, raw) in zip(rows, expected) {
            #expect(row.0 == raw.0 && row.1 == raw.1 && row.2 == raw.2)
        }
        #expect(rows.first?.2 == nil)
        #expect(rows.first?.1 == 2)
    }

    @Test func twoScalarSubqueriesOfOtherTablesBothRender() throws {
        let db = try Database.chinook()
        let query = Artist.where { $0.artistId <= 3 }.order(by: \.artistId).select { artist in
            (
                Album.where { $0.artistId == artist.artistId }.select { _ in count() },
                Album.where { $0.artistId == artist.artistId }.select { $0.title.min() }
            )
        }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT
                  (SELECT count(*) FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId"),
                  (SELECT min("Album"."Title") FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId")
                FROM "Artist"
                WHERE "Artist"."ArtistId" <= ?
                ORDER BY "Artist"."ArtistId"
                -- arguments: 3
                """)
        let rows: [(Int?, String?)] = try query.fetchAll(db)
        #expect(rows.map(\.0) == [2, 2, 1])
        #expect(rows.map(\.1) == ["For Those About To Rock We Salute You", "Balls to the Wall", "Big Ones"])
    }

    @Test func joinsInsideACorrelatedSubqueryAliasTheOuterTable() throws {
        let db = try Database.chinook()
        let query = Employee.where { e in
            exists(
                Customer.join(Employee.self, on: { $0.supportRepId == $1.employeeId }).where { _, rep in
                    rep.reportsTo == e.employeeId
                })
        }.select { $0.employeeId }
        #expect(
            SQLLayout.lines(query.sql).contains(
                """
                  FROM "Customer"
                  JOIN "Employee" AS "Employee_2" ON "Customer"."SupportRepId" = "Employee_2"."EmployeeId"
                  WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId"
                )
                """))
        let expected = try db.fetchAll(
            Int64?.self,
            """
            SELECT EmployeeId FROM Employee e WHERE EXISTS
              (SELECT 1 FROM Customer c JOIN Employee r ON c.SupportRepId = r.EmployeeId WHERE r.ReportsTo = e.EmployeeId)
            """)
        #expect(try query.fetchAll(db) == expected)
        #expect(expected == [2])
    }

    @Test func threeLevelsTakeThreeNames() throws {
        let db = try Database.chinook()
        // Managers of managers: someone reports to e, and someone reports to that one.
        let query = Employee.where { e in
            exists(
                Employee.where { m in
                    m.reportsTo == e.employeeId && exists(Employee.where { $0.reportsTo == m.employeeId })
                })
        }.select { $0.employeeId }
        #expect(
            query.sql.text.contains(
                #"FROM "Employee" AS "Employee_3" WHERE "Employee_3"."ReportsTo" = "Employee_2"."EmployeeId""#))
        let expected = try db.fetchAll(
            Int64?.self,
            """
            SELECT EmployeeId FROM Employee a WHERE EXISTS (SELECT 1 FROM Employee b WHERE b.ReportsTo = a.EmployeeId
              AND EXISTS (SELECT 1 FROM Employee c WHERE c.ReportsTo = b.EmployeeId))
            """)
        #expect(try query.fetchAll(db) == expected)
        #expect(expected == [1])
    }

    @Test func writesAliasTheirTableInSubqueries() throws {
        let db = try Database.chinookCopy()
        let update = Employee.update { $0.title.set(to: "Lead") }
            .where { e in exists(Employee.where { $0.reportsTo == e.employeeId }) }
        #expect(
            update.sql.text.contains(
                #"FROM "Employee" AS "Employee_2" WHERE "Employee_2"."ReportsTo" = "Employee"."EmployeeId""#))
        #expect(try update.execute(db) == 3)
        let deleted = try Employee.delete()
            .where { e in !exists(Employee.where { $0.reportsTo == e.employeeId }) && e.employeeId > 6 }
            .execute(db)
        #expect(deleted == 2)
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM Employee WHERE Title = 'Lead'") == 3)
    }

    @Test func explicitAliasesAndUnrelatedTablesKeepTheirNames() throws {
        let outer = Artist.where { a in exists(Album.where { $0.artistId == a.artistId }) }
        #expect(outer.sql.text.contains(#"FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId""#))
        // A query built outside any closure is not renamed.
        #expect(Employee.all().sql.text.hasSuffix(#"FROM "Employee""#))
        let boss = TableAlias<Employee>("boss")
        let aliased = Employee.where { e in exists(boss.all().where { $0.employeeId == e.reportsTo }) }
        #expect(
            aliased.sql.text.contains(#"FROM "Employee" AS "boss" WHERE "boss"."EmployeeId" = "Employee"."ReportsTo""#))
    }

    // MARK: Optional where SQL can yield NULL

    @Test func leftJoinedColumnsAreOptionalInTuplesAndComparableWithNil() throws {
        let db = try Database.chinook()
        let query = Employee.leftJoin(Employee.self, as: "manager", on: { $0.reportsTo == $1.employeeId })
            .order { e, _ in e.employeeId }
            .select { e, manager in (e.lastName, manager.lastName, manager.employeeId) }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "Employee"."LastName", "manager"."LastName", "manager"."EmployeeId"
                FROM "Employee"
                LEFT JOIN "Employee" AS "manager" ON "Employee"."ReportsTo" = "manager"."EmployeeId"
                ORDER BY "Employee"."EmployeeId"
                """)
        let rows: [(String, String?, Int64?)] = try query.fetchAll(db)
        #expect(rows.count == 8)
        #expect(rows[0].0 == "Adams" && rows[0].1 == nil && rows[0].2 == nil)
        #expect(rows[1].1 == "Adams")
        let top = Employee.leftJoin(Employee.self, as: "manager", on: { $0.reportsTo == $1.employeeId })
            .where { _, manager in manager.lastName == nil }
        #expect(top.sql.text.hasSuffix(#"WHERE "manager"."LastName" IS NULL"#))
        #expect(try top.fetchCount(db) == 1)
    }

    @Test func aScalarSubqueryComparesWithALiteralAndIsOptional() throws {
        let db = try Database.chinook()
        let query = Invoice.where { invoice in
            InvoiceLine.where { $0.invoiceId == invoice.invoiceId }.select { _ in count() } > 10
        }
        #expect(
            SQLLayout.lines(query.select { $0.invoiceId }.sql) == """
                SELECT "Invoice"."InvoiceId"
                FROM "Invoice"
                WHERE (
                  SELECT count(*)
                  FROM "InvoiceLine"
                  WHERE "InvoiceLine"."InvoiceId" = "Invoice"."InvoiceId"
                ) > ?
                -- arguments: 10
                """)
        let expected = try db.fetchValue(
            Int.self,
            """
            SELECT count(*)
            FROM Invoice i
            WHERE (SELECT count(*) FROM InvoiceLine l WHERE l.InvoiceId = i.InvoiceId) > 10
            """
        )
        #expect(try query.fetchCount(db) == expected)
        // A subquery that finds no row is nil, not a decoding error.
        let longest = Album.where { $0.albumId <= 2 }.order(by: \.albumId).select { album in
            Track.where { $0.albumId == album.albumId && $0.milliseconds > 343_000 }.select { $0.name }
        }
        let names: [String?] = try longest.fetchAll(db)
        #expect(names == ["For Those About To Rock (We Salute You)", nil])
    }
}

/// A hand-written table with SQL defaults, in Chinook's style.
struct Reminder: PrimaryKeyedTable, Equatable {
    var id: Int64?
    var title: String
    var createdAt: Date?
    var priority: Int64?

    static let schema = TableSchema(
        name: "reminder",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "title", type: "TEXT", isNotNull: true),
            .init(name: "createdAt", type: "DATETIME", defaultSQL: "CURRENT_TIMESTAMP"),
            .init(name: "priority", type: "INTEGER", defaultSQL: "3"),
        ])

    struct Columns: TableColumns {
        let id: Column<Reminder, Int64?>
        let title: Column<Reminder, String>
        let createdAt: Column<Reminder, Date?>
        let priority: Column<Reminder, Int64?>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            title = Column(qualifier, "title")
            createdAt = Column(qualifier, "createdAt")
            priority = Column(qualifier, "priority")
        }
    }

    init(id: Int64? = nil, title: String, createdAt: Date? = nil, priority: Int64? = nil) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.priority = priority
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        title = try row.decode(at: 1)
        createdAt = try row.decode(at: 2)
        priority = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(title)
        try encoder.encode(createdAt)
        try encoder.encode(priority)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

@Suite struct BuilderInsertDefaultTruthTests {
    @Test func insertsApplySQLDefaultsAndReadThemBack() throws {
        let db = try Database.memory()
        try db.createTable(for: Reminder.self)
        #expect(
            SQLLayout.lines(Reminder.insert(Reminder(title: "a")).sql) == """
                INSERT INTO "reminder" ("id", "title")
                VALUES (?, ?)
                -- arguments: NULL, 'a'
                """)
        let inserted = try Reminder.insert(Reminder(title: "a")).execute(db)
        #expect(inserted.count == 1)
        #expect(inserted[0].id == 1 && inserted[0].priority == 3 && inserted[0].createdAt != nil)
        #expect(
            try db.fetchValue(
                Int.self, "SELECT count(*) FROM reminder WHERE createdAt = datetime(createdAt) AND priority = 3") == 1)
        // What the builder reads back equals what a raw read finds.
        #expect(try Reminder.find(1).fetchOne(db) == inserted[0])
        // `OR IGNORE` that skips a row returns the record unchanged.
        let skipped = try Reminder.insert(Reminder(id: 1, title: "dup"), or: .ignore).execute(db)
        #expect(skipped == [Reminder(id: 1, title: "dup")])
        // An upsert applies the defaults on insert.
        let upserted = try Reminder.upsert(Reminder(id: 7, title: "u")).execute(db)
        #expect(upserted[0].priority == 3)
    }
}
