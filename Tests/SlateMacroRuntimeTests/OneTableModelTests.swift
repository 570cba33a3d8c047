import Foundation
import SlateMacros
import SlateTestingCore
import Testing

// The same two tables, declared three ways: with @Table, by hand, and generated at build time from
// Schema/gadgets.sql (`GeneratedGadgets`, by SlateBuildPlugin). One table model, one emitter and
// one DDL renderer: the three must agree to the byte.

@Table("owner")
struct MacroOwner {
    @PrimaryKey var id: Int64?
    var name: String
}

@Table("gadget")
struct MacroGadget {
    @PrimaryKey(autoIncrement: true) var id: Int64?
    @Column(collate: "NOCASE") var name: String
    @Column(default: "0") var price: Double
    @Indexed @ForeignKey(table: "owner", column: "id", onDelete: .cascade) var ownerId: Int64?
    @Unique var code: String?
    var note: String?
}

struct HandGadget {
    var id: Int64?
    var name: String
    var price: Double
    var ownerId: Int64?
    var code: String?
    var note: String?
}

// In an extension, as the macro writes it, so the memberwise initializer stays.
extension HandGadget: PrimaryKeyedTable {
    static let schema = TableSchema(
        name: "gadget",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1, isAutoIncrement: true),
            .init(name: "name", type: "TEXT", isNotNull: true, collation: "NOCASE"),
            .init(name: "price", type: "REAL", isNotNull: true, defaultSQL: "0"),
            .init(name: "ownerId", type: "INTEGER"),
            .init(name: "code", type: "TEXT", isUnique: true),
            .init(name: "note", type: "TEXT"),
        ],
        foreignKeys: [
            .init(columns: ["ownerId"], referencedTable: "owner", referencedColumns: ["id"], onDelete: .cascade)
        ],
        indexes: [.init(name: "gadget_ownerId", columns: ["ownerId"])])

    struct Columns: TableColumns {
        let id: Column<HandGadget, Int64?>
        let name: Column<HandGadget, String>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
        }
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        price = try row.decode(at: 2)
        ownerId = try row.decode(at: 3)
        code = try row.decode(at: 4)
        note = try row.decode(at: 5)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(price)
        try encoder.encode(ownerId)
        try encoder.encode(code)
        try encoder.encode(note)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

@Suite struct OneTableModelTests {
    typealias GeneratedGadget = GeneratedGadgets.Gadget

    @Test func ddlFromATableTypeTheMacroAndTheGeneratorIsByteIdentical() throws {
        let hand = try HandGadget.schema.createStatements()
        let macro = try MacroGadget.schema.createStatements()
        let generated = try GeneratedGadget.schema.createStatements()
        #expect(
            hand.map { SQLLayout.lines($0) } == [
                """
                CREATE TABLE "gadget" (
                  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                  "name" TEXT NOT NULL COLLATE "NOCASE",
                  "price" REAL NOT NULL DEFAULT 0,
                  "ownerId" INTEGER REFERENCES "owner" ("id") ON DELETE CASCADE,
                  "code" TEXT UNIQUE,
                  "note" TEXT
                )
                """,
                #"CREATE INDEX "gadget_ownerId" ON "gadget" ("ownerId")"#,
            ])
        #expect(macro == hand)
        #expect(generated == hand)
        #expect(MacroGadget.schema == HandGadget.schema)
        #expect(GeneratedGadget.schema == HandGadget.schema)
        #expect(try MacroOwner.schema.createStatements() == GeneratedGadgets.Owner.schema.createStatements())
    }

    @Test func aTableCreatedFromTheModelReadsBackAsTheSameModel() throws {
        let db = try Database()
        try db.createTable(for: MacroOwner.self)
        try db.createTable(for: MacroGadget.self)
        let read = try #require(try db.tableSchema(named: "gadget"))
        #expect(read.differences(from: HandGadget.schema) == [])
        #expect(HandGadget.schema.differences(from: read) == [])
        // Rendering what was read gives the same DDL: the reader and the renderer agree.
        var readBack = read
        readBack.indexes = readBack.indexes.map { index in
            var index = index
            index.sql = nil
            return index
        }
        #expect(try readBack.createStatements() == HandGadget.schema.createStatements())
        // And the migration planner finds nothing to do, for each producer.
        #expect(try db.migrationPlan(for: HandGadget.self).isEmpty)
        #expect(try db.migrationPlan(for: MacroGadget.self).isEmpty)
        #expect(try db.migrationPlan(for: GeneratedGadget.self).isEmpty)
    }

    @Test func everyProducerWritesAndReadsTheSameRows() throws {
        let db = try Database()
        try db.createTable(for: MacroOwner.self)
        try db.createTable(for: MacroGadget.self)
        let owner = try db.insert(MacroOwner(id: nil, name: "Ada"))
        let first = try db.insert(
            MacroGadget(id: nil, name: "lamp", price: 9.5, ownerId: owner.id, code: "L1", note: nil))
        let second = try db.insert(
            HandGadget(id: nil, name: "desk", price: 120, ownerId: owner.id, code: nil, note: "oak"))
        let third = try db.insert(GeneratedGadget(name: "chair", price: 45, ownerId: owner.id, code: "C1"))
        #expect([first.id, second.id, third.id] == [1, 2, 3])
        #expect(try MacroGadget.all().fetchAll(db).map(\.name) == ["lamp", "desk", "chair"])
        #expect(try GeneratedGadget.where { $0.name == "LAMP" }.fetchOne(db)?.id == 1)  // COLLATE NOCASE
        #expect(try HandGadget.find(2).fetchOne(db)?.note == "oak")
        // The same printed SQL for the same statement, whoever produced the type.
        #expect(MacroGadget.insert(first).sql.text == HandGadget.insert(second).sql.text)
        #expect(GeneratedGadget.insert(third).sql.text == HandGadget.insert(second).sql.text)
    }
}
