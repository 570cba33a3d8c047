import Foundation
import Slate
import SlateTestSupport
import Testing

// The SwiftSQLiteORM README example with a plain Codable struct: no macro, no hand-written code.

struct OrmNested: Codable, Equatable {
    let desc: String
    let index: Int
}

struct OrmExample: CodableRecord, Equatable {
    let name: String
    let data: OrmNested

    static let primaryKeyColumns = ["name"]
    static let tableName = "orm_example_type_t"
    static let databaseFile: String? = "orm_example_database.sqlite"
}

/// Kept in the store's main file.
struct Setting: CodableRecord, Equatable {
    var id: Int64?
    var key: String
    var value: String
    mutating func didInsert(rowID: Int64) { id = rowID }
}

/// Version 2 of `Setting`: gains a column with a default, declared for the migration.
struct SettingV2: CodableRecord, Equatable {
    var id: Int64?
    var key: String
    var value: String
    var isSecret: Bool
    static let tableName = "Setting"
    static let columnDefaults = ["isSecret": "0"]
}

@Suite struct RecordStoreTests {
    @Test func readmeExampleWithCodableRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(directory: directory.url.appendingPathComponent("a/b"))

        let c = OrmExample(name: "c", data: OrmNested(desc: "c", index: 1))
        let u = OrmExample(name: "u", data: OrmNested(desc: "u", index: 2))
        try store.save([c, u])
        #expect(FileManager.default.fileExists(atPath: directory.path("a/b/orm_example_database.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: directory.path("a/b/records.sqlite")))

        let arr = try store.fetchAll(OrmExample.self, where: "name = \(c.name)")
        #expect(arr == [c])
        #expect(try store.fetchAll(OrmExample.self, where: "json_extract(data, '$.index') > \(1)") == [u])

        #expect(try store.delete([c]) == 1)
        #expect(try store.deleteAll(OrmExample.self, where: "name = \(u.name)") == 1)
        #expect(try store.fetchCount(OrmExample.self, where: "name = \(c.name)") == 0)

        try store.save([c, u])
        #expect(try store.deleteAll(OrmExample.self) == 2)
        try store.drop(OrmExample.self)
        try store.close()
    }

    @Test func typesGoToTheirOwnFilesAndTablesFollowTheirTypes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(path: directory.path("settings/main.sqlite"))
        let saved = try store.save([
            Setting(id: nil, key: "theme", value: "dark"), Setting(id: nil, key: "lang", value: "en"),
        ])
        #expect(saved.map(\.id) == [1, 2])
        try store.save([OrmExample(name: "x", data: OrmNested(desc: "x", index: 0))])
        #expect(FileManager.default.fileExists(atPath: directory.path("settings/main.sqlite")))
        #expect(FileManager.default.fileExists(atPath: directory.path("settings/orm_example_database.sqlite")))

        // A new version of the type: a read does not migrate, and names the missing column.
        let missing = try #require(throws: DatabaseError.self) {
            try store.fetchAll(SettingV2.self, where: "1", orderBy: "id")
        }
        #expect(missing.message.contains("isSecret"))
        // The first write adds it.
        try store.save([SettingV2(id: 3, key: "font", value: "serif", isSecret: true)])
        let v2 = try store.fetchAll(SettingV2.self, where: "1", orderBy: "id")
        #expect(
            v2 == [
                SettingV2(id: 1, key: "theme", value: "dark", isSecret: false),
                SettingV2(id: 2, key: "lang", value: "en", isSecret: false),
                SettingV2(id: 3, key: "font", value: "serif", isSecret: true),
            ])
        let plan = try store.migrate(SettingV2.self)
        #expect(plan.isEmpty)
    }

    @Test func storeIsSafeFromManyTasks() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(path: directory.path("concurrent.sqlite"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<10 {
                        try store.save([Setting(id: nil, key: "k\(task)-\(index)", value: "\(index)")])
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.fetchCount(Setting.self) == 40)
    }
}
