import Foundation
import Slate
import Testing

// `SlateGeneratorTestsDatabase` is generated at build time by SlateBuildPlugin from the `.sql`
// files in Fixtures (together one schema): each known hard case must compile, then work.

typealias HardCases = SlateGeneratorTestsDatabase

@Suite("Generated code: known hard cases")
struct HardCaseTests {
    @Test func integerPrimaryKeyIsARowIDAliasButIntPrimaryKeyIsNot() throws {
        let db = try hardCaseDatabase()
        // INTEGER PRIMARY KEY: `nil` by default, and the insert stores the rowid SQLite chose.
        let alias = try db.aliasKeys.insert(HardCases.AliasKey(label: "a"))
        #expect(alias.id == 1)
        let auto = try db.autoKeys.insert(HardCases.AutoKey())
        #expect(auto.id == 1)
        #expect(auto.label == "none")  // the SQL default, mirrored by the initializer
        // INT PRIMARY KEY is an ordinary column: the key is what the record holds.
        let int = try db.intKeys.insert(HardCases.IntKey(id: 7, label: "seven"))
        #expect(int.id == 7)
        #expect(try db.intKeys.find(7)?.label == "seven")
        let unkeyed = try db.intKeys.insert(HardCases.IntKey(label: "no key"))
        #expect(unkeyed.id == nil)  // SQLite stored NULL: no rowid was copied into it
        #expect(try db.intKeys.fetchCount { $0.id == nil } == 1)
        // BIGINT PRIMARY KEY NOT NULL: required.
        let big = try db.bigintKeys.insert(HardCases.BigintKey(id: 1 << 40, label: nil))
        #expect(try db.bigintKeys.find(1 << 40) == big)
        // INTEGER PRIMARY KEY DESC is not an alias either.
        let descending = try db.descKeys.insert(HardCases.DescKey(label: "d"))
        #expect(descending.id == nil)
        #expect(HardCases.DescKey.columnDescriptors[0].isNullable)
        #expect(!HardCases.AliasKey.columnDescriptors[0].isNullable)
        #expect(HardCases.AutoKey.columnDescriptors[0].isAutoIncrement)
    }

    @Test func uuidKeysGetDefaultsAndOptionalUUIDsWork() throws {
        let db = try hardCaseDatabase()
        let mentor = HardCases.TalentProfile(name: "Mentor")
        let student = HardCases.TalentProfile(name: "Student", mentorId: mentor.id, born: Date(timeIntervalSince1970: 0))
        #expect(mentor.id != student.id)
        #expect(mentor.active)  // DEFAULT 1 on a BOOLEAN
        #expect(abs(mentor.createdAt.timeIntervalSinceNow) < 60)  // DEFAULT CURRENT_TIMESTAMP
        try db.talentProfiles.insert(mentor)
        try db.talentProfiles.insert(student)
        let found = try #require(try db.talentProfiles.find(student.id))
        #expect(found.mentorId == mentor.id)
        #expect(found.born == Date(timeIntervalSince1970: 0))
        #expect(try found.fetchMentor(in: db.database)?.name == "Mentor")
        #expect(try mentor.fetchTalentProfiles(in: db.database).map(\.name) == ["Student"])
        #expect(try db.talentProfiles.fetchCount { $0.mentorId == nil } == 1)
    }

    @Test func singleColumnTablesAndViews() throws {
        let db = try hardCaseDatabase()
        try db.tags.insert(HardCases.Tag(name: "swift"))
        #expect(try db.tags.fetchAll() == [HardCases.Tag(name: "swift")])
        #expect(try db.tags.select(\.name) == ["swift"])
        try db.funs.insert(HardCases.Fun(intCol: 2, doubleCol: 0.5))
        let sum = try #require(try db.funSums.fetchAll().first)
        let lol: Double? = sum.lol
        #expect(lol == 2.5)
        #expect(try db.saleIds.fetchAll().isEmpty)
    }

    @Test func aggregateViewsKeepUsefulTypes() throws {
        let db = try hardCaseDatabase()
        try db.sales.insert(HardCases.Sale(amount: 10.5, quantity: 2, region: "north", soldOn: Date(timeIntervalSince1970: 86_400)))
        try db.sales.insert(HardCases.Sale(amount: 4.5, quantity: 1, region: "north", soldOn: Date(timeIntervalSince1970: 0)))
        let summary = try #require(try db.saleSummaries.fetchAll().first)
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
        let totals = try #require(try db.saleTotals.fetchAll().first)
        #expect(totals.totalUnits == 3)
    }

    @Test func tablesWithMoreThanTwoHundredColumnsRoundTrip() throws {
        let db = try hardCaseDatabase()
        #expect(HardCases.Wide.columnDescriptors.count == 211)
        var wide = HardCases.Wide()
        wide.c007 = "first"
        wide.c210 = "last"
        wide.c001 = 2
        wide.c002 = 0.25
        let inserted = try db.wides.insert(wide)
        let found = try #require(try db.wides.find(inserted.id))
        #expect(found == inserted)
        #expect(found.c210 == "last")
        #expect(found.c005 == "")  // TEXT NOT NULL DEFAULT ''
        #expect(found.c006 == 0)  // INTEGER NOT NULL DEFAULT 0
    }

    @Test func namesWithSpacesKeywordsQuotesAndClashesWork() throws {
        let db = try hardCaseDatabase()
        let keywords = HardCases.Default(class: "c", selfValue: 1, type: "t", protocol: "p", name: "N", name2: "n", primaryKeyValue: "k", letValue: 2)
        try db.defaults.insert(keywords)
        #expect(try db.defaults.fetchAll() == [keywords])
        #expect(try db.defaults.fetchCount { $0.class == "c" && $0.selfValue == 1 } == 1)
        let detail = try db.orderDetails.insert(HardCases.OrderDetail(unitPrice: 2.5, _2fa: 1))
        #expect(detail.orderID == 1)
        let quoted = try db.withQuotes.insert(HardCases.WithQuotes())
        #expect(quoted.aB == "it's")  // DEFAULT 'it''s'
        #expect(try db.withQuotes.fetchAll() == [quoted])
        // A multi-line SQL default is kept exactly, in a one-line Swift literal.
        #expect(HardCases.Note.columnDescriptors[1].defaultSQL == "'line one'\n    || ' and two'")
        let note = try db.notes.insert(HardCases.Note(body: "b", n: 3))
        #expect(try db.notes.find(note.id)?.body == "b")
        try db.selectRecords.insert(HardCases.SelectRecord(from: "a", in: 1, default: "d"))
        #expect(try db.selectRecords.fetchOne { $0.in == 1 }?.from == "a")
        try db.columnRecords.insert(HardCases.ColumnRecord(where: "w"))
        #expect(try db.columnRecords.fetchAll().first?.where == "w")
        let person = try db.people.insert(HardCases.Person(firstName: "Ada"))
        #expect(try db.people.find(person.id)?.firstName == "Ada")
        // Two tables whose names differ only by plural: both get their own record type.
        try db.talents.insert(HardCases.Talent(name: "one"))
        try db.talents2.insert(HardCases.Talents(name: "many"))
        #expect(HardCases.Talent.tableName == "Talent")
        #expect(HardCases.Talents.tableName == "Talents")
    }

    @Test func compositeKeysAndMultiColumnForeignKeys() throws {
        let db = try hardCaseDatabase()
        let mixtape = try db.mixtapes.insert(HardCases.Mixtape(name: "Road"))
        let song = try db.songs.insert(HardCases.Song(title: "Song"))
        let mixtapeID = try #require(mixtape.mixtapeId)
        let songID = try #require(song.songId)
        let entry = try db.mixtapeSongs.insert(HardCases.MixtapeSong(mixtapeId: mixtapeID, songId: songID))
        #expect(entry.position == 0)
        #expect(try db.mixtapeSongs.find((mixtapeID, songID)) == entry)
        #expect(HardCases.MixtapeSong.isWithoutRowID)
        let play = try db.plays.insert(HardCases.Play(mixtapeId: mixtapeID, songId: songID))
        #expect(try play.fetchMixtapeSong(in: db.database) == entry)
        #expect(try entry.fetchPlays(in: db.database).map(\.id) == [play.id])
        #expect(try db.plays.fetch(for: entry).map(\.id) == [play.id])
        #expect(HardCases.Play.foreignKeys.first?.columns == ["mixtape_id", "song_id"])
        #expect(HardCases.Play.foreignKeys.first?.onUpdate == .cascade)
        #expect(HardCases.Play.indexes.map(\.name) == ["play_time"])
        #expect(HardCases.Song.indexes.first?.isUnique == true)
        // ON DELETE CASCADE from the schema, and the trigger, still apply.
        #expect(try db.songs.delete(song))
        #expect(try db.mixtapeSongs.fetchCount() == 0)
    }

    @Test func generatedColumnsStayOutOfTheRecord() throws {
        let db = try hardCaseDatabase()
        #expect(HardCases.Computed.columnDescriptors.map(\.name) == ["a"])
        try db.computeds.insert(HardCases.Computed(a: 4))
        #expect(try db.database.fetchValue(Int.self, "SELECT b + c FROM computed") == 13)
    }

    @Test func strictTablesAndFullTextSearch() throws {
        let db = try hardCaseDatabase()
        let strict = try db.strictKeys.insert(HardCases.StrictKey())
        #expect(strict.amount == 1.5)
        #expect(strict.flag == 1)
        try db.profileSearches.insert(HardCases.ProfileSearch(name: "Ada", bio: "wrote the first program"))
        try db.profileSearches.insert(HardCases.ProfileSearch(name: "Grace", bio: "wrote a compiler"))
        #expect(try HardCases.ProfileSearch.match("compiler", in: db.database).map(\.name) == ["Grace"])
    }

    @Test func recordsWithUntypedColumnsAreCodable() throws {
        let record = HardCases.NoKey(a: "a", b: Data([1, 2]), c: .integer(3))
        let data = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(HardCases.NoKey.self, from: data) == record)
        for value: SQLValue in [.null, .real(1.5), .text("t"), .blob(Data([9]))] {
            let other = HardCases.NoKey(c: value)
            let decoded = try JSONDecoder().decode(HardCases.NoKey.self, from: try JSONEncoder().encode(other))
            let expected: SQLValue? = value == .null ? Optional<SQLValue>.none : .some(value)  // JSON null reads back as nil
            #expect(decoded.c == expected)
        }
    }
}
