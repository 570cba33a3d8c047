import Foundation
import Slate
import Testing

// `SlateGeneratorTestsDatabase` (with the record types nested in it) is generated at build time by SlateBuildPlugin from the `.sql`
// files in Fixtures (together one schema): each known hard case must compile, then work.

typealias HardCases = SlateGeneratorTestsDatabase

@Suite("Generated code: known hard cases")
struct HardCaseTests {
    @Test func integerPrimaryKeyIsARowIDAliasButIntPrimaryKeyIsNot() throws {
        let db = try hardCaseDatabase()
        // INTEGER PRIMARY KEY: `nil` by default, and the insert stores the rowid SQLite chose.
        let alias = try db.insert(HardCases.AliasKey(label: "a"))
        #expect(alias.id == 1)
        let auto = try db.insert(HardCases.AutoKey())
        #expect(auto.id == 1)
        #expect(auto.label == "none")  // the SQL default, mirrored by the initializer
        // INT PRIMARY KEY is an ordinary column: the key is what the record holds.
        let int = try db.insert(HardCases.IntKey(id: 7, label: "seven"))
        #expect(int.id == 7)
        #expect(try HardCases.IntKey.find(7).fetchOne(db)?.label == "seven")
        let unkeyed = try db.insert(HardCases.IntKey(label: "no key"))
        #expect(unkeyed.id == nil)  // SQLite stored NULL: no rowid was copied into it
        #expect(try HardCases.IntKey.where { $0.id == nil }.fetchCount(db) == 1)
        // BIGINT PRIMARY KEY NOT NULL: required.
        let big = try db.insert(HardCases.BigintKey(id: 1 << 40, label: nil))
        #expect(try HardCases.BigintKey.find(1 << 40).fetchOne(db) == big)
        // INTEGER PRIMARY KEY DESC is not an alias either.
        let descending = try db.insert(HardCases.DescKey(label: "d"))
        #expect(descending.id == nil)
        #expect(HardCases.DescKey.schema.columns[0].isNullable)
        #expect(!HardCases.AliasKey.schema.columns[0].isNullable)
        #expect(HardCases.AliasKey.schema.columns[0].isRowIDAlias)
        #expect(HardCases.AutoKey.schema.columns[0].isAutoIncrement)
    }

    @Test func uuidKeysGetDefaultsAndOptionalUUIDsWork() throws {
        let db = try hardCaseDatabase()
        let mentor = HardCases.TalentProfile(name: "Mentor")
        let student = HardCases.TalentProfile(
            name: "Student", mentorId: mentor.id, born: Date(timeIntervalSince1970: 0))
        #expect(mentor.id != student.id)
        #expect(mentor.active)  // DEFAULT 1 on a BOOLEAN
        // NOT NULL DEFAULT CURRENT_TIMESTAMP: nil lets SQLite apply the default, read back on insert.
        #expect(mentor.createdAt == nil)
        let inserted = try db.insert(mentor)
        let createdAt = try #require(inserted.createdAt)
        #expect(abs(createdAt.timeIntervalSinceNow) < 60)
        #expect(try HardCases.TalentProfile.where { $0.createdAt == createdAt }.fetchCount(db) == 1)
        try db.insert(student)
        let found = try #require(try HardCases.TalentProfile.find(student.id).fetchOne(db))
        #expect(found.mentorId == mentor.id)
        #expect(found.born == Date(timeIntervalSince1970: 0))
        #expect(try HardCases.TalentProfile.referenced(by: found).fetchOne(db)?.name == "Mentor")
        #expect(try HardCases.TalentProfile.belonging(to: mentor).fetchAll(db).map(\.name) == ["Student"])
        #expect(try HardCases.TalentProfile.where { $0.mentorId == nil }.fetchCount(db) == 1)
    }

    @Test func singleColumnTablesAndViews() throws {
        let db = try hardCaseDatabase()
        try db.insert(HardCases.Tag(name: "swift"))
        #expect(try HardCases.Tag.all().fetchAll(db) == [HardCases.Tag(name: "swift")])
        #expect(try HardCases.Tag.select { $0.name }.fetchAll(db) == ["swift"])
        try db.insert(HardCases.Fun(intCol: 2, doubleCol: 0.5))
        let sum = try #require(try HardCases.FunSum.all().fetchAll(db).first)
        let lol: Double? = sum.lol
        #expect(lol == 2.5)
        #expect(try HardCases.SaleId.all().fetchAll(db).isEmpty)
    }

    @Test func aggregateViewsKeepUsefulTypes() throws {
        let db = try hardCaseDatabase()
        try db.insert(
            HardCases.Sale(amount: 10.5, quantity: 2, region: "north", soldOn: Date(timeIntervalSince1970: 86_400)))
        try db.insert(HardCases.Sale(amount: 4.5, quantity: 1, region: "north", soldOn: Date(timeIntervalSince1970: 0)))
        let summary = try #require(try HardCases.SaleSummary.all().fetchAll(db).first)
        let sales: Int64 = summary.sales
        let units: Int64? = summary.units
        let revenue: Double? = summary.revenue
        let total: Double = summary.totalRevenue
        let average: Double? = summary.average
        let largest: Int64? = summary.largest
        let rounded: Int64? = summary.rounded
        let label: String? = summary.label
        let answer: Int64 = summary.answer
        let letter: String = summary.letter
        let firstSale: Date? = summary.firstSale
        #expect(sales == 2)
        #expect(units == 3)
        #expect(revenue == 15)
        #expect(total == 15)
        #expect(average == 7.5)
        #expect(largest == 2)
        #expect(rounded == 15)
        #expect(label == "north region")
        #expect(answer == 42)
        #expect(letter == "x")
        #expect(firstSale == Date(timeIntervalSince1970: 0))
        #expect(summary.noValue == nil)
        let totals = try #require(try HardCases.SaleTotal.all().fetchAll(db).first)
        #expect(totals.totalUnits == 3)
    }

    @Test func tablesWithMoreThanTwoHundredColumnsRoundTrip() throws {
        let db = try hardCaseDatabase()
        #expect(HardCases.Wide.schema.columns.count == 211)
        var wide = HardCases.Wide()
        wide.c007 = "first"
        wide.c210 = "last"
        wide.c001 = 2
        wide.c002 = 0.25
        let inserted = try db.insert(wide)
        let found = try #require(try HardCases.Wide.find(inserted.id).fetchOne(db))
        #expect(found == inserted)
        #expect(found.c210 == "last")
        #expect(found.c005 == "")  // TEXT NOT NULL DEFAULT ''
        #expect(found.c006 == 0)  // INTEGER NOT NULL DEFAULT 0
    }

    @Test func namesWithSpacesKeywordsQuotesAndClashesWork() throws {
        let db = try hardCaseDatabase()
        let keywords = HardCases.Default(
            class: "c", selfValue: 1, type: "t", protocol: "p", name: "N", name2: "n", primaryKeyValue: "k", letValue: 2
        )
        try db.insert(keywords)
        #expect(try HardCases.Default.all().fetchAll(db) == [keywords])
        #expect(try HardCases.Default.where { $0.class == "c" && $0.selfValue == 1 }.fetchCount(db) == 1)
        let detail = try db.insert(HardCases.OrderDetail(unitPrice: 2.5, _2fa: 1))
        #expect(detail.orderID == 1)
        let quoted = try db.insert(HardCases.WithQuotes())
        #expect(quoted.aB == "it's")  // DEFAULT 'it''s'
        #expect(try HardCases.WithQuotes.all().fetchAll(db) == [quoted])
        // A multi-line SQL default is kept exactly, in a one-line Swift literal.
        #expect(HardCases.Note.schema.columns[1].defaultSQL == "'line one'\n    || ' and two'")
        let note = try db.insert(HardCases.Note(body: "b", n: 3))
        #expect(try HardCases.Note.find(note.id).fetchOne(db)?.body == "b")
        try db.insert(HardCases.SelectRecord(from: "a", in: 1, default: "d"))
        #expect(try HardCases.SelectRecord.where { $0.in == 1 }.fetchOne(db)?.from == "a")
        try db.insert(HardCases.ColumnRecord(where: "w"))
        #expect(try HardCases.ColumnRecord.all().fetchAll(db).first?.where == "w")
        let person = try db.insert(HardCases.Person(firstName: "Ada"))
        #expect(try HardCases.Person.find(person.id).fetchOne(db)?.firstName == "Ada")
        // Two tables whose names differ only by plural: both get their own record type.
        try db.insert(HardCases.Talent(name: "one"))
        try db.insert(HardCases.Talents(name: "many"))
        #expect(HardCases.Talent.tableName == "Talent")
        #expect(HardCases.Talents.tableName == "Talents")
    }

    @Test func compositeKeysAndMultiColumnForeignKeys() throws {
        let db = try hardCaseDatabase()
        let mixtape = try db.insert(HardCases.Mixtape(name: "Road"))
        let song = try db.insert(HardCases.Song(title: "Song"))
        let mixtapeID = try #require(mixtape.mixtapeId)
        let songID = try #require(song.songId)
        let entry = try db.insert(HardCases.MixtapeSong(mixtapeId: mixtapeID, songId: songID))
        #expect(entry.position == 0)
        #expect(try HardCases.MixtapeSong.find((mixtapeID, songID)).fetchOne(db) == entry)
        #expect(HardCases.MixtapeSong.schema.isWithoutRowID)
        let play = try db.insert(HardCases.Play(mixtapeId: mixtapeID, songId: songID))
        #expect(try HardCases.MixtapeSong.referenced(by: play).fetchOne(db) == entry)
        #expect(try HardCases.Play.belonging(to: entry).fetchAll(db).map(\.id) == [play.id])
        #expect(HardCases.Play.schema.foreignKeys.first?.columns == ["mixtape_id", "song_id"])
        #expect(HardCases.Play.schema.foreignKeys.first?.onUpdate == .cascade)
        #expect(HardCases.Play.schema.indexes.map(\.name) == ["play_time"])
        #expect(HardCases.Song.schema.indexes.first?.isUnique == true)
        // ON DELETE CASCADE from the schema, and the trigger, still apply.
        #expect(try db.delete(song))
        #expect(try HardCases.MixtapeSong.all().fetchCount(db) == 0)
    }

    @Test func generatedColumnsStayOutOfTheRecord() throws {
        let db = try hardCaseDatabase()
        #expect(HardCases.Computed.schema.recordColumns.map(\.name) == ["a"])
        #expect(HardCases.Computed.schema.columns.map(\.name) == ["a", "b", "c"])
        try db.insert(HardCases.Computed(a: 4))
        #expect(try db.fetchValue(Int.self, "SELECT b + c FROM computed") == 13)
    }

    @Test func strictTablesAndFullTextSearch() throws {
        let db = try hardCaseDatabase()
        let strict = try db.insert(HardCases.StrictKey())
        #expect(strict.amount == 1.5)
        #expect(strict.flag == 1)
        try db.insert(HardCases.ProfileSearch(name: "Ada", bio: "wrote the first program"))
        try db.insert(HardCases.ProfileSearch(name: "Grace", bio: "wrote a compiler"))
        let found = try HardCases.ProfileSearch.where(sql: "profile_search MATCH \("compiler")").fetchAll(db)
        #expect(found.map(\.name) == ["Grace"])
        // The generated columns are full-text columns: a typed, bound MATCH, rank and highlights.
        let typed = try HardCases.ProfileSearch.matching(.phrase("compiler"))
            .select { ($0.rowid, $0.bio.highlight(open: "[", close: "]")) }.fetchAll(db)
        #expect(typed.count == 1 && typed.first?.1 == "wrote a [compiler]")
        #expect(try HardCases.ProfileSearch.where { $0.name.match("ada") }.fetchAll(db).map(\.name) == ["Ada"])
    }

    @Test func recordsWithUntypedColumnsAreCodable() throws {
        let record = HardCases.NoKey(a: "a", b: Data([1, 2]), c: .integer(3))
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(HardCases.NoKey.self, from: data) == record)
        for value: SQLValue in [.null, .real(1.5), .text("t"), .blob(Data([9]))] {
            let other = HardCases.NoKey(c: value)
            let decoded = try JSONDecoder().decode(HardCases.NoKey.self, from: try JSONEncoder().encode(other))
            // JSON null reads back as nil
            let expected: SQLValue? = value == .null ? Optional<SQLValue>.none : .some(value)
            #expect(decoded.c == expected)
        }
    }
}

@Suite("Generated code: a column called id beside another key")
struct IdentifiableClashTests {
    /// A table whose key is not called `id` but which has a column `id` keeps that column as a
    /// stored property and does not adopt `Identifiable`, whose `var id` would be declared twice.
    @Test func theColumnStaysAndIdentifiableIsNotAdopted() throws {
        let db = try hardCaseDatabase()
        let saved = try db.insert(HardCases.IdBesideKey(id: "not the key"))
        #expect(saved.key == 1)
        #expect(saved.id == "not the key")
        #expect(try HardCases.IdBesideKey.find(1).fetchOne(db)?.id == "not the key")
        let textKeyed = try db.insert(HardCases.IdBesideTextKey(code: "A", id: 42))
        #expect(try HardCases.IdBesideTextKey.find("A").fetchOne(db) == textKeyed)
        let types: [Any.Type] = [HardCases.IdBesideKey.self, HardCases.IdBesideTextKey.self]
        let identifiable = types.filter { $0 is any Identifiable.Type }
        #expect(identifiable.isEmpty)
        // Keys called `id` still adopt it.
        let aliasIsIdentifiable = (HardCases.AliasKey.self as Any.Type) is any Identifiable.Type
        #expect(aliasIsIdentifiable)
    }
}

@Suite("Generated code: named queries next to their schema")
struct NamedQueryFixtureTests {
    @Test func queriesOfAFixtureRunOnItsTables() throws {
        let db = try hardCaseDatabase()
        try db.execute(sql: "INSERT INTO nq_author (id, name, born) VALUES (1, 'Ada', '1815-12-10'), (2, 'Alan', NULL)")
        let first = try #require(try HardCases.addBook(authorId: 1, title: "Notes", pages: nil).fetchOne(db))
        let second = try #require(
            try HardCases.addBook(authorId: 1, title: "Analytical Engine", pages: 42).fetchOne(db))
        #expect([first, second] == [1, 2])
        let books = try HardCases.booksByAuthor(authorId: 1).fetchAll(db)
        #expect(books.map(\.title) == ["Analytical Engine", "Notes"])
        #expect(books.map(\.pages) == [42, nil])
        #expect(books.allSatisfy { $0.author == "Ada" })
        #expect(try HardCases.retitleBook(title: "Sketch", id: 1).execute(db) == 1)
        #expect(try HardCases.booksByAuthor(authorId: 1).fetchAll(db).map(\.title) == ["Analytical Engine", "Sketch"])
        // The override says `highest` is never NULL; while no book has a price, the data disagrees:
        // reading it fails with the column and the SQL, never a wrong value.
        #expect(throws: DatabaseError.self) { _ = try HardCases.bookStatistics().fetchAll(db) }
        try db.execute(sql: "UPDATE nq_book SET price = 9.5 WHERE id = 2")
        let statistics = try #require(try HardCases.bookStatistics().fetchOne(db))
        #expect(statistics.books == 2)
        #expect(statistics.pages == 42)
        #expect(statistics.highest == 9.5)
        #expect(try HardCases.birthDate(id: 2).fetchAll(db) == [nil])
        #expect(try HardCases.birthDate(id: 1).fetchOne(db)??.timeIntervalSince1970 == -4_861_728_000)
        let born = try HardCases.authorsBornAfter(date: Date(timeIntervalSince1970: -5_000_000_000)).fetchAll(db)
        #expect(born.map(\.name) == ["Ada"])
        #expect(try HardCases.authorNameByToken(token: UUID()).fetchAll(db).isEmpty)
    }

    @Test func theDatabaseTypeVerifiesItsTables() throws {
        let db = try hardCaseDatabase()
        #expect(try HardCases.verifySchema(db) == [])
        try db.execute(sql: "ALTER TABLE nq_book DROP COLUMN price")
        let differences = try HardCases.verifySchema(db)
        #expect(differences.map(\.description) == ["column nq_book.price is missing (expected REAL)"])
    }
}
