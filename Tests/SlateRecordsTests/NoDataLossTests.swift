import Foundation
import Slate
import SlateTestSupport
import Testing

/// Issue 13, hazard 1: two versions of a record type sharing one file. No read changes the schema,
/// and nothing drops a column unless the user names it.
@Suite struct NoDataLossTests {
    struct PersonV1: CodableRecord, Equatable {
        static var tableName: String { "person" }
        var id: Int64?
        var name: String
        var note: String
        mutating func didInsert(rowID: Int64) { id = rowID }
    }

    struct PersonV2: CodableRecord, Equatable {
        static var tableName: String { "person" }
        var id: Int64?
        var name: String
        mutating func didInsert(rowID: Int64) { id = rowID }
    }

    struct PersonV3: CodableRecord, Equatable {
        static var tableName: String { "person" }
        var id: Int64?
        var name: String
        var note: String
        var email: String
    }

    func schema(_ db: Database) throws -> [String] {
        try db.fetchAll(String.self, "SELECT sql FROM sqlite_schema ORDER BY name")
    }

    @Test func readsOfAnOlderTypeNeverChangeTheSchemaOrLoseAColumn() throws {
        let db = try Database(location: .inMemory)
        try db.save(PersonV1(id: nil, name: "a", note: "keep me"))
        let before = try schema(db)

        #expect(try PersonV2.all().fetchCount(db) == 1)
        #expect(try PersonV2.all().fetchAll(db) == [PersonV2(id: 1, name: "a")])
        #expect(try PersonV2.where { $0.name == "a" }.fetchOne(db) == PersonV2(id: 1, name: "a"))
        #expect(try PersonV2.find(1).fetchOne(db) == PersonV2(id: 1, name: "a"))
        #expect(try schema(db) == before)
        #expect(try db.fetchValue(String.self, "SELECT note FROM person") == "keep me")
    }

    @Test func writesOfAnOlderTypeKeepTheColumnsItDoesNotKnow() throws {
        let db = try Database(location: .inMemory)
        try db.save(PersonV1(id: nil, name: "a", note: "keep me"))
        // The older type cannot fill the NOT NULL column it does not know: a clear error, no loss.
        #expect(throws: DatabaseError.self) { try db.save(PersonV2(id: nil, name: "b")) }
        // Updating an existing row through the older type keeps the other column's value.
        try db.save(PersonV2(id: 1, name: "renamed"))
        #expect(try PersonV1.all().fetchAll(db) == [PersonV1(id: 1, name: "renamed", note: "keep me")])
        #expect(try db.fetchAll(String.self, "SELECT name FROM pragma_table_info('person')") == ["id", "name", "note"])
    }

    @Test func aReadNeedingAMissingColumnThrowsNamingIt() throws {
        let db = try Database(location: .inMemory)
        try db.save(PersonV1(id: nil, name: "a", note: "n"))
        let before = try schema(db)
        let error = #expect(throws: DatabaseError.self) { try PersonV3.all().fetchAll(db) }
        #expect(error?.message.contains("email") == true)
        #expect(try schema(db) == before)
    }

    @Test func aReadBeforeAnyWriteCreatesNothing() throws {
        let db = try Database(location: .inMemory)
        let error = #expect(throws: DatabaseError.self) { try PersonV1.all().fetchAll(db) }
        #expect(error?.message.contains("no such table: person") == true)
        #expect(throws: DatabaseError.self) { try PersonV1.all().fetchCount(db) }
        #expect(try schema(db).isEmpty)
    }

    @Test func recordStoreReadsNeverCreateOrMigrate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(directory: directory.url)
        #expect(try store.fetchAll(PersonV1.self).isEmpty)
        #expect(try store.withDatabase { try schema($0) }.isEmpty)
        try store.save([PersonV1(id: nil, name: "a", note: "keep me")])
        #expect(try store.fetchCount(PersonV2.self) == 1)
        #expect(try store.withDatabase { try $0.fetchValue(String.self, "SELECT note FROM person") } == "keep me")
    }
}
