import Foundation
import SlateMacros
import Testing

// SQL `DEFAULT`s apply to typed inserts: a column with a default whose value is nil is left out
// of the INSERT, and the record comes back with what SQLite chose.

@Table("note")
struct MacroNote {
    @PrimaryKey var id: Int64?
    var body: String
    @Column(default: "CURRENT_TIMESTAMP") var createdAt: Date?
    @Column(default: "'draft'") var status: String?
}

/// `NOT NULL` columns whose defaults are expressions: `nil` means "use the default".
@Table("entry")
struct MacroEntry {
    @PrimaryKey var id: Int64?
    var body: String
    @Column(default: "CURRENT_TIMESTAMP", notNull: true) var addedAt: Date?
    @Column(default: "(40 + 2)", notNull: true) var score: Int?
}

/// An FTS5 table declared with the macro, indexing `note` (external content).
@Table("note_search", fullTextSearch: "content='note', content_rowid='id'")
struct MacroNoteSearch {
    var body: String
    var status: String?
}

/// A column group declared with the macro, stored in a macro table.
@ColumnGroup
struct MacroAddress: Equatable {
    var street: String
    @Column("town") var city: String?
}

@Table("store")
struct MacroStore: Equatable {
    var id: Int64?
    var name: String
    @Grouped var address: MacroAddress
    var rating: Int = 3
}

struct HandNote: PrimaryKeyedTable, Equatable {
    var id: Int64?
    var body: String
    var createdAt: Date?
    var status: String?

    static let schema = TableSchema(
        name: "note",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "body", type: "TEXT", isNotNull: true),
            .init(name: "createdAt", type: "DATETIME", defaultSQL: "CURRENT_TIMESTAMP"),
            .init(name: "status", type: "TEXT", defaultSQL: "'draft'"),
        ])

    struct Columns: TableColumns {
        let id: Column<HandNote, Int64?>
        let body: Column<HandNote, String>
        let createdAt: Column<HandNote, Date?>
        let status: Column<HandNote, String?>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            body = Column(qualifier, "body")
            createdAt = Column(qualifier, "createdAt")
            status = Column(qualifier, "status")
        }
    }

    init(id: Int64? = nil, body: String, createdAt: Date? = nil, status: String? = nil) {
        self.id = id
        self.body = body
        self.createdAt = createdAt
        self.status = status
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        body = try row.decode(at: 1)
        createdAt = try row.decode(at: 2)
        status = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(body)
        try encoder.encode(createdAt)
        try encoder.encode(status)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

@Suite struct InsertDefaultsTests {
    @Test func theStatementLeavesOutDefaultedColumnsThatAreNil() throws {
        let insert = HandNote.insert(HandNote(body: "a"))
        #expect(insert.sql.text == #"INSERT INTO "note" ("id", "body") VALUES (?, ?)"#)
        let given = HandNote.insert(HandNote(body: "b", createdAt: Date(timeIntervalSince1970: 0), status: "sent"))
        #expect(given.sql.text == #"INSERT INTO "note" ("id", "body", "createdAt", "status") VALUES (?, ?, ?, ?)"#)
        // The macro's schema carries the same defaults, so its statement is the same.
        #expect(
            MacroNote.insert(MacroNote(id: nil, body: "a", createdAt: nil, status: nil)).sql.text == insert.sql.text)
    }

    @Test func handWrittenRecordsReadBackTheDefaults() throws {
        let db = try Database()
        try db.createTable(for: HandNote.self)
        let inserted = try db.insert(HandNote(body: "a"))
        #expect(inserted.id == 1)
        #expect(inserted.status == "draft")
        let createdAt = inserted.createdAt ?? .distantPast
        #expect(abs(createdAt.timeIntervalSinceNow) < 3600)
        // SQLite wrote the default in its own form, and the record holds what is stored.
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM note WHERE createdAt = datetime(createdAt)") == 1)
        #expect(try HandNote.find(1).fetchOne(db) == inserted)
        // Given values are written as they are.
        let given = try db.insert(HandNote(body: "b", createdAt: Date(timeIntervalSince1970: 0), status: "sent"))
        #expect(given.status == "sent" && given.createdAt == Date(timeIntervalSince1970: 0))
        // Several records, each with its own columns left out, in one savepoint.
        let many = try db.insert(contentsOf: [HandNote(body: "c", status: "x"), HandNote(body: "d")])
        #expect(many.map(\.id) == [3, 4])
        #expect(many.map(\.status) == ["x", "draft"])
        #expect(many.allSatisfy { $0.createdAt != nil })
        // RETURNING on an insert sees the defaults too.
        let status = try HandNote.insert(HandNote(body: "e")).returning { $0.status }.fetchOne(db)
        #expect(status == "draft")
    }

    @Test func macroRecordsReadBackTheDefaults() throws {
        let db = try Database()
        try db.createTable(for: MacroNote.self)
        let inserted = try db.insert(MacroNote(id: nil, body: "a", createdAt: nil, status: nil))
        #expect(inserted.id == 1 && inserted.status == "draft" && inserted.createdAt != nil)
        #expect(try db.fetchValue(String.self, "SELECT status FROM note") == "draft")
    }

    @Test func macroNotNullColumnsWithDefaultsAreLeftOutAndReadBack() throws {
        let db = try Database()
        try db.createTable(for: MacroEntry.self)
        #expect(MacroEntry.schema.columns.filter(\.isNotNull).map(\.name) == ["body", "addedAt", "score"])
        let insert = MacroEntry.insert(MacroEntry(id: nil, body: "a", addedAt: nil, score: nil))
        #expect(insert.sql.text == #"INSERT INTO "entry" ("id", "body") VALUES (?, ?)"#)
        let inserted = try insert.execute(db)[0]
        #expect(inserted.id == 1 && inserted.score == 42 && inserted.addedAt != nil)
        // The typed columns are not optional.
        let scores: [Int] = try MacroEntry.where { $0.score == 42 }.select { $0.score }.fetchAll(db)
        #expect(scores == [42])
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM entry WHERE addedAt IS NOT NULL AND score = 42") == 1)
    }

    @Test func macroFullTextTablesAreCreatedAndSearched() throws {
        #expect(
            try MacroNoteSearch.schema.createTableSQL()
                == #"CREATE VIRTUAL TABLE "note_search" USING fts5(body, status, content='note', content_rowid='id')"#)
        let db = try Database()
        try db.createTable(for: MacroNote.self)
        try db.createTable(for: MacroNoteSearch.self)
        try db.insert(contentsOf: [
            MacroNote(id: nil, body: "buy bread", createdAt: nil, status: nil),
            MacroNote(id: nil, body: "bake bread and cake", createdAt: nil, status: "done"),
        ])
        try db.execute("INSERT INTO note_search(note_search) VALUES ('rebuild')")
        let found = try MacroNote.join(MacroNoteSearch.self, on: { $0.id == $1.rowid })
            .where { _, search in search.match(.all("bread", .phrase("draft"))) }
            .select { note, search in (note.id, search.body.highlight(open: "<", close: ">")) }
            .fetchAll(db)
        #expect(found.count == 1)
        #expect(found.first?.0 == 1 && found.first?.1 == "buy <bread>")
        let ranked = try MacroNoteSearch.matching("bread").fetchAll(db)
        #expect(ranked.count == 2)
    }

    @Test func macroColumnGroupsAreColumnsOfTheirTable() throws {
        #expect(MacroStore.schema.columns.map(\.name) == ["id", "name", "street", "town", "rating"])
        #expect(MacroAddress.groupColumns.map(\.isNotNull) == [true, false])
        let db = try Database()
        try db.createTable(for: MacroStore.self)
        let stores = try db.insert(contentsOf: [
            MacroStore(id: nil, name: "a", address: MacroAddress(street: "1 Main", city: "Oslo"), rating: 5),
            MacroStore(id: nil, name: "b", address: MacroAddress(street: "2 Side", city: nil)),
        ])
        #expect(try MacroStore.all().fetchAll(db) == stores)
        let query = MacroStore.where { $0.address.city == "Oslo" }.select { ($0.name, $0.address.street, $0.rating) }
        #expect(
            query.sql.text
                == #"SELECT "store"."name", "store"."street", "store"."rating" FROM "store" WHERE "store"."town" = ?"#)
        let rows = try query.fetchAll(db)
        #expect(rows.count == 1 && rows[0].0 == "a" && rows[0].1 == "1 Main" && rows[0].2 == 5)
    }
}
