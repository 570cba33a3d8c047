import Foundation
import Slate
import SlateTestSupport
import Testing

// Issue 36, traps for users upgrading: a renamed requirement was ignored in silence, and an
// inference error was replaced by `CREATE TABLE "Diary" ()` and a syntax error.

enum Weather: String, Codable {  // not CaseIterable: the columns of Diary cannot be inferred
    case sunny, rainy
}

struct Diary: CodableRecord {
    var id: Int64?
    var text: String
    var weather: Weather
}

/// Declares the key under the requirement's former name.
struct LegacyKeyed: CodableRecord {
    var isbn: String
    var title: String
    static let primaryKey = ["isbn"]
}

@Suite struct UpgradeTrapTests {
    static let caseIterable = "Make enums CaseIterable"

    /// Every entry point throws the inference error, before any SQL: no table is created.
    @Test func anInferenceErrorIsThrownFirstAtEveryEntryPoint() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let db = try Database(path: directory.path("diary.sqlite"))
        let entry = Diary(id: nil, text: "x", weather: .sunny)
        let attempts: [(String, () throws -> Void)] = [
            ("insert", { _ = try db.insert(entry) }),
            ("save", { _ = try db.save(entry) }),
            ("Insert.execute", { _ = try Diary.insert(entry).execute(db) }),
            ("fetchAll", { _ = try Diary.all().fetchAll(db) }),
            ("where", { _ = try Diary.where { $0.text == "x" }.fetchCount(db) }),
            ("find", { _ = try Diary.find(CodableRecordKey(values: [1])).fetchOne(db) }),
            ("update", { _ = try Diary.update { $0.text.set(to: "y") }.execute(db) }),
            ("delete", { _ = try Diary.delete().execute(db) }),
            ("createTable", { try db.createTable(for: Diary.self) }),
            ("prepareTable", { try db.prepareTable(for: Diary.self) }),
            ("migrateTable", { try db.migrateTable(for: Diary.self) }),
            ("migrationPlan", { _ = try db.migrationPlan(for: Diary.self) }),
            ("verifySchema", { _ = try db.verifySchema(of: [Diary.self]) }),
            ("createStatements", { _ = try Diary.createStatements(dialect: .sqlite) }),
        ]
        for (name, attempt) in attempts {
            let error = try #require(throws: DatabaseError.self, "\(name)") { try attempt() }
            #expect(error.resultCode == .misuse, "\(name): \(error)")
            #expect(error.message.contains(Self.caseIterable), "\(name): \(error)")
        }
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test func aRecordStoreThrowsTheInferenceErrorForReadsAndWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = RecordStore(directory: directory.url)
        let attempts: [(String, () throws -> Void)] = [
            ("save", { _ = try store.save([Diary(id: nil, text: "x", weather: .rainy)]) }),
            ("fetchAll", { _ = try store.fetchAll(Diary.self) }),
            ("fetchCount", { _ = try store.fetchCount(Diary.self) }),
            ("migrate", { _ = try store.migrate(Diary.self) }),
        ]
        for (name, attempt) in attempts {
            let error = try #require(throws: DatabaseError.self, "\(name)") { try attempt() }
            #expect(error.message.contains(Self.caseIterable), "\(name): \(error)")
            #expect(!error.message.contains("syntax error"), "\(name)")
        }
    }

    @Test func theFormerNameOfPrimaryKeyColumnsIsReported() throws {
        let db = try Database(location: .inMemory)
        let error = try #require(throws: DatabaseError.self) {
            try db.insert(LegacyKeyed(isbn: "978-0", title: "Dune"))
        }
        #expect(error.resultCode == .misuse)
        #expect(
            error.message
                == "LegacyKeyed declares `static var primaryKey` (isbn), the former name of `primaryKeyColumns`: rename"
                + " it `primaryKeyColumns`")
        #expect(try db.fetchValue(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
    }
}
