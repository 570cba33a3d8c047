import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

@Suite struct BuilderWriteTests {
    let db: Database

    init() throws {
        db = try Database.withTestTables()
    }

    // MARK: Schema

    @Test func createsTablesFromDeclarations() throws {
        let columns = try db.fetchAll("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('person')")
        { row in
            "\(try row[0] as String) \(try row[1] as String) \(try row[2] as Int) \(try row[3] as String? ?? "-") \(try row[4] as Int)"
        }
        #expect(
            columns == [
                "id INTEGER 0 - 1", "name TEXT 1 - 0", "age INTEGER 1 0 0", "email TEXT 0 - 0", "score REAL 1 0.0 0",
            ])
        let keys = try db.fetchAll("SELECT \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list('pet')")
        { row in
            [try row[0] as String, try row[1] as String, try row[2] as String, try row[3] as String]
        }
        #expect(keys == [["person", "ownerId", "id", "CASCADE"]])
        let bookKeys = try db.fetchAll(
            "SELECT \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list('book') ORDER BY seq"
        ) { row in
            [try row[0] as String, try row[1] as String, try row[2] as String, try row[3] as String]
        }
        #expect(
            bookKeys == [
                ["building", "building", "CASCADE", "SET NULL"], ["shelfNumber", "number", "CASCADE", "SET NULL"],
            ])
        let indexes = try db.fetchAll(
            String.self, "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        #expect(indexes == ["book_on_shelf", "book_on_title", "person_on_name"])
        #expect(
            try db.fetchValue(Bool.self, "SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_schema WHERE name = 'shelf'"))
        // Creating is idempotent (IF NOT EXISTS), and changes nothing of an existing table.
        let before = try db.fetchAll(String?.self, "SELECT sql FROM sqlite_schema ORDER BY name")
        try db.createTable(for: Person.self)
        #expect(try db.fetchAll(String?.self, "SELECT sql FROM sqlite_schema ORDER BY name") == before)
    }

    // MARK: Insert

    @Test func insertReturnsTheRecordWithItsRowID() throws {
        let arthur = try db.insert(Person(name: "Arthur", age: 42))
        let ford = try Person.insert(Person(name: "Ford")).execute(db)
        #expect(arthur.id == 1)
        #expect(ford.map(\.id) == [2])
        #expect(try Person.find(1).fetchOne(db) == arthur)
    }

    @Test func insertManyUsesOneStatementInOneSavepoint() throws {
        let numbers: [Int64] = Array(1...50)
        let people: [Person] = numbers.map { (number: Int64) -> Person in Person(name: "P\(number)", age: number) }
        let before = db.cachedStatementCount
        let inserted = try db.insert(contentsOf: people)
        #expect(db.cachedStatementCount == before + 1)
        let insertedIDs: [Int64] = inserted.compactMap(\.id)
        #expect(insertedIDs == numbers)
        #expect(try Person.all().fetchCount(db) == 50)
        #expect(!db.isInTransaction)
    }

    @Test func failingInsertManyLeavesNothingBehind() throws {
        try db.insert(Person(name: "Existing", email: "taken@example.com"))
        let batch = [
            Person(name: "A", email: "a@example.com"),
            Person(name: "B", email: "TAKEN@example.com"),  // UNIQUE COLLATE NOCASE
            Person(name: "C", email: "c@example.com"),
        ]
        let error = try #require(throws: DatabaseError.self) { try db.insert(contentsOf: batch) }
        #expect(error.resultCode == .constraint)
        #expect(error.extendedResultCode == .constraintUnique)
        #expect(try Person.all().fetchCount(db) == 1)
        #expect(!db.isInTransaction)

        // Inside a transaction, only the batch is undone.
        try db.transaction {
            try db.insert(Person(name: "Kept"))
            #expect(throws: DatabaseError.self) { try db.insert(contentsOf: batch) }
        }
        #expect(try Person.select { $0.name }.order(by: \.id).fetchAll(db) == ["Existing", "Kept"])
    }

    @Test func constraintViolationsThrow() throws {
        let orphan = Pet(ownerId: 999, name: "Ghost")
        let error = try #require(throws: DatabaseError.self) { try db.insert(orphan) }
        #expect(error.resultCode == .constraint)
        #expect(error.extendedResultCode == .constraintForeignKey)
        try db.insert(Person(id: 1, name: "A"))
        let duplicate = try #require(throws: DatabaseError.self) { try db.insert(Person(id: 1, name: "B")) }
        #expect(duplicate.extendedResultCode == .constraintPrimaryKey)
    }

    @Test func insertsOrIgnoresOrReplaces() throws {
        var original = try db.insert(Person(name: "Arthur", email: "arthur@example.com"))
        let ignored = try Person.insert(Person(name: "Impostor", email: "arthur@example.com"), or: .ignore).execute(db)[
            0]
        #expect(ignored.id == nil)
        #expect(try Person.all().fetchCount(db) == 1)

        original.name = "Arthur Dent"
        let replaced = try Person.insert(original, or: .replace).execute(db)[0]
        #expect(replaced.id == original.id)
        #expect(try Person.all().fetchAll(db) == [original])

        try Person.insert([Person(name: "X", email: "arthur@example.com"), Person(name: "Y")], or: .ignore).execute(db)
        #expect(try Person.select { $0.name }.order(by: \.id).fetchAll(db) == ["Arthur Dent", "Y"])
    }

    // MARK: INSERT … SELECT

    @Test func insertSelectRendersTheColumnsAndTheQuery() throws {
        let insert = Playlist.insert {
            $0.name
        } select: {
            Genre.where { $0.genreId <= 3 }.select { $0.name }
        }
        #expect(
            SQLLayout.lines(insert.sql) == """
                INSERT INTO "Playlist" ("Name")
                SELECT "Genre"."Name"
                FROM "Genre"
                WHERE "Genre"."GenreId" <= ?
                -- arguments: 3
                """)
        let two = Playlist.insert(or: .ignore) {
            ($0.playlistId, $0.name)
        } select: {
            Genre.order(by: \.genreId).select { ($0.genreId + 1000, $0.name) }
        }
        #expect(
            SQLLayout.lines(two.sql) == """
                INSERT OR IGNORE INTO "Playlist" ("PlaylistId", "Name")
                SELECT "Genre"."GenreId" + ?, "Genre"."Name"
                FROM "Genre"
                ORDER BY "Genre"."GenreId"
                -- arguments: 1000
                """)
    }

    @Test func insertSelectCopiesTheRows() throws {
        let db = try Database.chinookCopy()
        let before = try Playlist.all().fetchCount(db)
        let inserted = try Playlist.insert {
            $0.name
        } select: {
            Genre.where { $0.genreId <= 3 }.order(by: \.genreId).select { $0.name }
        }.execute(db)
        #expect(inserted == 3)
        let names = try Playlist.where { $0.playlistId > Int64(before) }.order(by: \.playlistId).select { $0.name }
            .fetchAll(db)
        #expect(names == ["Rock", "Jazz", "Metal"])
        // Keys chosen by the query; OR IGNORE skips the ones that exist.
        let copied = try Playlist.insert(or: .ignore) {
            ($0.playlistId, $0.name)
        } select: {
            Genre.where { $0.genreId <= 2 }.select { ($0.genreId, $0.name) }
        }.execute(db)
        #expect(copied == 0)
        let fresh = try Playlist.insert(or: .ignore) {
            ($0.playlistId, $0.name)
        } select: {
            Genre.where { $0.genreId <= 2 }.select { ($0.genreId + 1000, $0.name) }
        }.execute(db)
        #expect(fresh == 2)
        #expect(try Playlist.find(1001).fetchOne(db)?.name == "Rock")
    }

    // MARK: Upsert

    @Test func upsertsByPrimaryKey() throws {
        let inserted = try Person.upsert(Person(id: 7, name: "Arthur", age: 1)).execute(db)[0]
        #expect(inserted == Person(id: 7, name: "Arthur", age: 1))
        let updated = try Person.upsert(Person(id: 7, name: "Arthur Dent", age: 2)).execute(db)[0]
        #expect(updated == Person(id: 7, name: "Arthur Dent", age: 2))
        #expect(try Person.all().fetchAll(db) == [updated])
        let fresh = try Person.upsert(Person(name: "Ford")).execute(db)[0]
        #expect(fresh.id == 8)
        // A table whose columns all belong to the key: DO NOTHING.
        try db.insert(Shelf(building: "A", number: 1))
        #expect(try Shelf.upsert(Shelf(building: "A", number: 1)).execute(db) == [Shelf(building: "A", number: 1)])
    }

    @Test func upsertsWithTypedConflictTargetAndAssignments() throws {
        try db.insert(Person(name: "Arthur", age: 30, email: "a@example.com"))
        let upsert = Person.insert(Person(name: "Arthur Dent", age: 99, email: "a@example.com"))
            .onConflict(\.email) { existing, excluded in
                existing.name.set(to: excluded.name)
                existing.age.set(to: existing.age + 1)
            }
        let stored = try upsert.execute(db)
        #expect(stored == [Person(id: 1, name: "Arthur Dent", age: 31, email: "a@example.com")])
        #expect(try Person.all().fetchAll(db) == stored)

        let skipped = try Person.insert(Person(name: "Other", email: "a@example.com")).onConflictDoNothing(\.email)
            .execute(db)
        #expect(skipped == [Person(name: "Other", email: "a@example.com")])
        #expect(try Person.all().fetchCount(db) == 1)
    }

    // MARK: RETURNING

    @Test func returnsValuesFromWrites() throws {
        let id = try Person.insert(Person(name: "Arthur", age: 42)).returning(\.id).fetchOne(db)
        #expect(id == 1)
        let row = try Person.insert(Person(name: "Ford", age: 7)).returning { ($0.id, $0.name.upper(), $0.age + 1) }
            .fetchOne(db)
        #expect(row?.0 == 2 && row?.1 == "FORD" && row?.2 == 8)
        let records = try Person.insert([Person(name: "A"), Person(name: "B")]).returning().fetchAll(db)
        let recordIDs: [Int64?] = records.map(\.id)
        #expect(recordIDs == [3, 4])

        let renamed = try Person.update { $0.name.set(to: $0.name.lower()) }
            .where { $0.id <= 2 }
            .returning { ($0.id, $0.name) }
            .fetchAll(db)
        #expect(renamed.map(\.1).sorted() == ["arthur", "ford"])

        let deleted = try Person.delete().where { $0.age == 0 }.returning().fetchAll(db)
        #expect(deleted.map(\.name).sorted() == ["A", "B"])
        #expect(try Person.all().fetchCount(db) == 2)
    }

    // MARK: Update

    @Test func updatesWithTypedAssignments() throws {
        try db.insert(contentsOf: [Person(name: "A", age: 1), Person(name: "B", age: 2), Person(name: "C", age: 3)])
        let changed = try Person.update {
            $0.name.set(to: "Bob")
            $0.age.set(to: $0.age + 1)
        }
        .where { $0.id == 3 }
        .execute(db)
        #expect(changed == 1)
        #expect(try Person.find(3).fetchOne(db) == Person(id: 3, name: "Bob", age: 4))

        let older = try Person.update { $0.score.set(to: $0.score + 0.5) }.where { $0.age >= 2 }.execute(db)
        #expect(older == 2)
        let cleared = try Person.update { $0.email.set(to: nil) }.execute(db)
        #expect(cleared == 3)
        let raise = true
        let conditional = try Person.update {
            if raise { $0.age.set(to: $0.age * 10) } else { $0.age.set(to: 0) }
            for _ in 0..<2 { $0.score.set(to: 1) }
        }.where { $0.name == "A" }.execute(db)
        #expect(conditional == 1)
        #expect(try Person.find(1).fetchOne(db)?.age == 10)
        #expect(try Person.update { _ in }.execute(db) == 0)
    }

    @Test func updatesAndDeletesRecordsByKey() throws {
        var person = try db.insert(Person(name: "Arthur", age: 42))
        person.age = 43
        #expect(try db.update(person))
        #expect(try Person.find(person.id).fetchOne(db)?.age == 43)
        #expect(try !db.update(Person(id: 99, name: "Nobody")))

        #expect(try db.delete(person))
        #expect(try !db.delete(person))
        #expect(try Person.all().fetchCount(db) == 0)

        try db.insert(contentsOf: [Person(name: "A"), Person(name: "B")])
        #expect(try (Person.delete(key: 2).execute(db) > 0))
        #expect(try Person.delete(key: 3).execute(db) == 1)
        #expect(try Person.all().fetchCount(db) == 0)
    }

    @Test func deletesWithPredicate() throws {
        let ten: [Person] = (Int64(1)...Int64(10)).map { (number: Int64) -> Person in
            Person(name: "P\(number)", age: number)
        }
        try db.insert(contentsOf: ten)
        let deleted: Int = try Person.delete().where { $0.age > 7 || $0.name == "P1" }.execute(db)
        #expect(deleted == 4)
        #expect(try Person.all().fetchCount(db) == 6)
        #expect(try Person.delete().execute(db) == 6)
    }

    @Test func savesInsertingOrUpdating() throws {
        var person = try db.save(Person(name: "Arthur"))
        #expect(person.id == 1)
        person.name = "Arthur Dent"
        #expect(try db.save(person) == person)
        #expect(try Person.all().fetchAll(db) == [person])
        let ghost = try db.save(Person(id: 5, name: "Ghost"))
        #expect(ghost.id == 5)
        #expect(try Person.all().fetchCount(db) == 2)
    }

    @Test func handlesCompositeKeysWithoutRowID() throws {
        try db.insert(contentsOf: [Shelf(building: "A", number: 1, label: "Poetry"), Shelf(building: "A", number: 2)])
        #expect(try Shelf.find(("A", 1)).fetchOne(db)?.label == "Poetry")
        #expect(try db.update(Shelf(building: "A", number: 2, label: "Prose")))
        #expect(try Shelf.find(("A", 2)).fetchOne(db)?.label == "Prose")
        #expect(try (Shelf.delete(key: ("A", 1)).execute(db) > 0))
        let numbers = try Shelf.select { $0.number }.fetchAll(db)
        #expect(numbers == [2])
    }

    @Test func reportsMisdeclaredKeys() throws {
        let error = try #require(throws: DatabaseError.self) { try BadKey.find(1).fetchOne(db) }
        #expect(error.resultCode == .misuse)
        #expect(throws: DatabaseError.self) { try (BadKey.delete(key: 1).execute(db) > 0) }
        #expect(throws: DatabaseError.self) { try db.update(BadKey(id: 1)) }
    }

    // MARK: Relationships

    @Test func followsForeignKeysBothWays() throws {
        let arthur = try db.insert(Person(name: "Arthur"))
        let ford = try db.insert(Person(name: "Ford"))
        let rex = try db.insert(Pet(ownerId: arthur.id, name: "Rex", species: "dog"))
        try db.insert(Pet(ownerId: arthur.id, name: "Tom"))
        try db.insert(Pet(ownerId: nil, name: "Stray"))
        #expect(try Pet.belonging(to: arthur).fetchAll(db).map(\.name) == ["Rex", "Tom"])
        #expect(try Pet.belonging(to: ford).fetchAll(db).isEmpty)
        #expect(try Person.referenced(by: rex).fetchOne(db) == arthur)
        #expect(try Person.referenced(by: Pet(ownerId: nil, name: "Stray")).fetchOne(db) == nil)
        #expect(
            SQLLayout.lines(Pet.belonging(to: arthur).sql) == """
                SELECT "pet"."id", "pet"."ownerId", "pet"."name", "pet"."species"
                FROM "pet"
                WHERE "pet"."ownerId" = ?
                -- arguments: 1
                """)
        #expect(
            SQLLayout.lines(Person.referenced(by: rex).sql) == """
                SELECT "person"."id", "person"."name", "person"."age", "person"."email", "person"."score"
                FROM "person"
                WHERE "person"."id" = ?
                -- arguments: 1
                """)
        let toy = try db.insert(Toy(petId: try #require(rex.id), name: "Ball"))
        #expect(try Pet.referenced(by: toy).fetchOne(db) == rex)

        // The toy's key has no action: deleting its pet is refused while it exists.
        #expect(throws: DatabaseError.self) { try db.delete(rex) }
        try db.delete(toy)
        // ON DELETE CASCADE, rendered from the column reference.
        try db.delete(arthur)
        #expect(try Pet.select { $0.name }.fetchAll(db) == ["Stray"])
    }

    @Test func followsMultiColumnForeignKeys() throws {
        let shelf = try db.insert(Shelf(building: "B", number: 3))
        try db.insert(Shelf(building: "B", number: 4))
        try db.insert(Book(title: "Dune", building: "B", shelfNumber: 3))
        try db.insert(Book(title: "Emma", building: "B", shelfNumber: 4))
        #expect(
            SQLLayout.lines(Book.belonging(to: shelf).select { $0.title }.sql) == """
                SELECT "book"."title"
                FROM "book"
                WHERE "book"."building" = ? AND "book"."shelfNumber" = ?
                -- arguments: 'B', 3
                """)
        #expect(try Book.belonging(to: shelf).fetchAll(db).map(\.title) == ["Dune"])
        let emma = try #require(try Book.where { $0.title == "EMMA" }.fetchOne(db))  // COLLATE NOCASE
        #expect(try Shelf.referenced(by: emma).fetchOne(db)?.number == 4)
        // ON DELETE SET NULL.
        try db.delete(shelf)
        #expect(try Book.where { $0.building == nil }.select { $0.title }.fetchAll(db) == ["Dune"])
    }

    @Test func requiresNamingOneOfSeveralForeignKeys() throws {
        let arthur = try db.insert(Person(name: "Arthur"))
        let ford = try db.insert(Person(name: "Ford"))
        let hello = try db.insert(
            Message(senderId: try #require(arthur.id), recipientId: try #require(ford.id), body: "Hello"))
        let error = try #require(throws: DatabaseError.self) { try Message.belonging(to: arthur).fetchAll(db) }
        #expect(error.resultCode == .misuse)
        #expect(error.message.contains("2 foreign keys to person"))
        #expect(try Message.belonging(to: arthur, through: ["senderId"]).fetchAll(db) == [hello])
        #expect(try Message.belonging(to: arthur, through: ["recipientId"]).fetchAll(db).isEmpty)
        #expect(try Person.referenced(by: hello, through: ["recipientId"]).fetchOne(db) == ford)
        #expect(throws: DatabaseError.self) { try Message.belonging(to: arthur, through: ["body"]).fetchAll(db) }
    }

    // MARK: Joins on written data

    @Test func joinsThreeTablesWithLeftJoinNulls() throws {
        let arthur = try db.insert(Person(name: "Arthur"))
        try db.insert(Person(name: "Ford"))
        let rex = try db.insert(Pet(ownerId: arthur.id, name: "Rex"))
        try db.insert(Pet(ownerId: arthur.id, name: "Tom"))
        try db.insert(Toy(petId: try #require(rex.id), name: "Ball"))
        let rows: [(Person, Pet?, Toy?)] = try Person.all()
            .leftJoin(Pet.self, on: { $0.id == $1.ownerId })
            .leftJoin(Toy.self, on: { _, pet, toy in pet.id == toy.petId })
            .order { person, pet, _ in (person.id, pet.id) }
            .fetchAll(db)
        let described: [String] = rows.map { row in "\(row.0.name)/\(row.1?.name ?? "-")/\(row.2?.name ?? "-")" }
        #expect(described == ["Arthur/Rex/Ball", "Arthur/Tom/-", "Ford/-/-"])
    }

    @Test func leftJoinsChinookRowsWithNullForeignKeys() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("chinook.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("chinook.sqlite"), toPath: path)
        let chinook = try Database(path: path)
        try chinook.execute(
            sql:
                """
                UPDATE Track SET GenreId = NULL WHERE TrackId <= 3;
                UPDATE Customer SET SupportRepId = NULL WHERE CustomerId IN (1, 2)
                """
        )
        let tracks = try Track.leftJoin(Genre.self, on: { $0.genreId == $1.genreId }).where { track, _ in
            track.trackId <= 5
        }.fetchAll(chinook)
        #expect(tracks.map { $0.1?.name } == [nil, nil, nil, "Rock", "Rock"])
        let customers = try Customer.leftJoin(Employee.self, on: { $0.supportRepId == $1.employeeId })
            .where { _, rep in rep.employeeId == nil }
            .fetchAll(chinook)
        #expect(customers.map(\.0.customerId) == [1, 2])
        #expect(customers.allSatisfy { $0.1 == nil })
        var track = try #require(tracks.first?.0)
        track.genreId = 2
        #expect(try chinook.update(track))
        #expect(try Track.find(1).fetchOne(chinook)?.genreId == 2)
    }

    // MARK: Text matching with special characters

    @Test func matchesSpecialCharactersLikeSwift() throws {
        let names = [
            "100%", "100 percent", "a_b", "axb", "a*b", "a?b", "[x]", "x]", "ab", "Ab", "what?", "%_*?[", "*", "?",
        ]
        try db.insert(contentsOf: names.map { Person(name: $0) })
        for needle in ["100%", "a_b", "a*", "a?", "[", "[x", "x]", "?", "*", "%", "_", "%_*?[", "A", "a", ""] {
            let prefix = try Person.where { $0.name.hasPrefix(needle) }.order(by: \.id).select { $0.name }.fetchAll(db)
            let suffix = try Person.where { $0.name.hasSuffix(needle) }.order(by: \.id).select { $0.name }.fetchAll(db)
            let contains = try Person.where { $0.name.contains(needle) }.order(by: \.id).select { $0.name }.fetchAll(db)
            let expectedPrefix: [String] = names.filter { $0.hasPrefix(needle) }
            let expectedSuffix: [String] = names.filter { $0.hasSuffix(needle) }
            let expectedContains: [String] = names.filter { needle.isEmpty || $0.contains(needle) }
            #expect(prefix == expectedPrefix, "hasPrefix(\(needle))")
            #expect(suffix == expectedSuffix, "hasSuffix(\(needle))")
            #expect(contains == expectedContains, "contains(\(needle))")
        }
        let escaped = try Person.where { $0.name.like("100\\%", escape: "\\") }.select { $0.name }.fetchAll(db)
        #expect(escaped == ["100%"])
    }

    @Test func bindsDatesThroughTheConnectionStrategy() throws {
        let db = try Database.memory { $0.dateStrategy = .unixSeconds }
        try db.execute(sql: "CREATE TABLE event(id INTEGER PRIMARY KEY, at REAL NOT NULL)")
        try db.execute(
            "INSERT INTO event(at) VALUES (\(Date(timeIntervalSince1970: 100))), (\(Date(timeIntervalSince1970: 200)))")
        #expect(try Event.where { $0.at > Date(timeIntervalSince1970: 150) }.fetchAll(db).map(\.id) == [2])
    }
}

/// A keyed table that forgot to declare its key column.
struct BadKey: PrimaryKeyedTable {
    var id: Int64
    static let schema = TableSchema(
        name: "person",
        columns: [
            .init(name: "id", type: "INTEGER")
        ])
    struct Columns: TableColumns {
        let id: Column<BadKey, Int64>
        init(qualifier: String) { id = Column(qualifier, "id") }
    }
    init(id: Int64) { self.id = id }
    init(row: borrowing Row) throws { id = try row.decode(at: 0) }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) { try encoder.encode(id) }
    var primaryKey: Int64 { id }
}

struct Event: Table {
    var id: Int64
    var at: Date
    static let schema = TableSchema(
        name: "event",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "at", type: "REAL", isNotNull: true),
        ])
    struct Columns: TableColumns {
        let id: Column<Event, Int64>
        let at: Column<Event, Date>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            at = Column(qualifier, "at")
        }
    }
    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        at = try row.decode(at: 1)
    }
    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(at)
    }
}
