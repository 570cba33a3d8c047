import Foundation
import SlateMacros
import SlateTestingCore
import Testing

enum Genre: String, SQLValueConvertible, Codable, Sendable {
    case rock, jazz
}

enum Priority: Int, SQLValueConvertible, Sendable {
    case low = 1
    case high = 2
}

struct Credits: Codable, Equatable, Sendable {
    var producer: String
    var engineers: [String]
}

@Table
struct Musician: Equatable {
    var id: Int64?
    @Unique var name: String
    var genre: Genre
    var priority: Priority?
}

@Table("records")
struct Record: Equatable {
    @PrimaryKey(autoIncrement: true) var id: Int64?
    @ForeignKey(Musician.self, onDelete: .cascade) @Indexed var musicianId: Int64
    @Column("record_title", collate: "NOCASE") var title: String
    @Column(storage: .json) var credits: Credits?
    @Column(storage: .json) var tracks: [String]
    @Column(storage: .date(.unixSeconds)) var releasedAt: Date
    @Column(storage: .uuid(.blob)) var catalogID: UUID
    var price: Decimal
    @Ignored var isSelected = false
}

@Table
struct Membership: Equatable {
    @PrimaryKey var bandId: Int64
    @PrimaryKey var musicianId: Int64
    var role: String = "member"
}

@Suite struct MacroRuntimeTests {
    func database() throws -> Database {
        let db = try Database()
        try db.createTable(for: Musician.self)
        try db.createTable(for: Record.self)
        try db.createTable(for: Membership.self)
        return db
    }

    @Test func schemaFollowsTheAnnotations() throws {
        let db = try database()
        let sql = try db.fetchValue(String.self, "SELECT sql FROM sqlite_schema WHERE name = 'records'")
        #expect(
            SQLLayout.lines(sql) == """
                CREATE TABLE "records" (
                  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                  "musicianId" INTEGER NOT NULL REFERENCES "Musician" ON DELETE CASCADE,
                  "record_title" TEXT NOT NULL COLLATE "NOCASE",
                  "credits" TEXT,
                  "tracks" TEXT NOT NULL,
                  "releasedAt" INTEGER NOT NULL,
                  "catalogID" BLOB NOT NULL,
                  "price" TEXT NOT NULL
                )
                """)
        #expect(
            try db.fetchOne(
                String.self, "SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'records_musicianId'")
                != nil)
        #expect(Musician.schema.columns.map(\.declaredType) == ["INTEGER", "TEXT", "TEXT", "INTEGER"])
        #expect(try db.migrationPlan(for: Record.self).isEmpty)
        #expect(try db.migrationPlan(for: Musician.self).isEmpty)
        #expect(try db.migrationPlan(for: Membership.self).isEmpty)
        // A table the typed layer created is recognized as matching too.
        try db.createTable(for: Everything.self)
        #expect(try db.migrationPlan(for: Everything.self).isEmpty)
    }

    @Test func valuesRoundTripThroughTheirStorages() throws {
        let db = try database()
        let musician = try db.insert(Musician(id: nil, name: "Miles", genre: .jazz, priority: .high))
        let musicianID = try #require(musician.id)
        let record = Record(
            id: nil, musicianId: musicianID, title: "Kind of Blue",
            credits: Credits(producer: "Teo", engineers: ["Fred"]), tracks: ["So What", "Blue in Green"],
            releasedAt: Date(timeIntervalSince1970: -328_000_000), catalogID: UUID(),
            price: Decimal(string: "19.99") ?? 0,
            isSelected: true)
        let inserted = try db.insert(record)
        #expect(inserted.id == 1)

        let row = try #require(
            try db.fetchOne(
                CopiedRow.self,
                """
                SELECT typeof(releasedAt), releasedAt, typeof(catalogID), length(catalogID),
                  json_extract(credits, '$.producer')
                FROM records
                """
            ))
        #expect(row.values == ["integer", -328_000_000, "blob", 16, "Teo"])

        var expected = inserted
        expected.isSelected = false  // ignored: decoded records keep the default
        #expect(try Record.where { $0.title == "KIND OF BLUE" }.fetchAll(db) == [expected])
        #expect(try Musician.find(musicianID).fetchOne(db) == musician)
        #expect(try Musician.where { $0.genre == .jazz && $0.priority == .high }.fetchCount(db) == 1)

        // The unique constraint and the cascading foreign key are in force.
        #expect(throws: DatabaseError.self) {
            try db.insert(Musician(id: nil, name: "Miles", genre: .rock, priority: nil))
        }
        try db.delete(musician)
        #expect(try Record.all().fetchCount(db) == 0)
    }

    @Test func compositeKeysFindUpdateAndDelete() throws {
        let db = try database()
        try db.insert(contentsOf: [
            Membership(bandId: 1, musicianId: 10), Membership(bandId: 1, musicianId: 11, role: "leader"),
        ])
        #expect(try Membership.find((1, 11)).fetchOne(db)?.role == "leader")
        try db.save(Membership(bandId: 1, musicianId: 10, role: "drums"))
        #expect(try Membership.find((1, 10)).fetchOne(db)?.role == "drums")
        #expect(try (Membership.delete(key: (1, 10)).execute(db) > 0))
        #expect(try Membership.all().fetchAll(db) == [Membership(bandId: 1, musicianId: 11, role: "leader")])
    }

    @Test func blobKeysBindThroughTheirStorage() throws {
        let db = try Database()
        try db.createTable(for: BlobSession.self)
        let token = UUID()
        try db.insert(BlobSession(token: token, user: "ada"))
        #expect(try BlobSession.find(token).fetchOne(db)?.user == "ada")
        #expect(try db.fetchValue(String.self, "SELECT typeof(token) FROM BlobSession") == "blob")
    }
}

@Table(withoutRowID: true)
struct BlobSession: Equatable {
    @PrimaryKey @Column(storage: .uuid(.blob)) var token: UUID
    var user: String
}
