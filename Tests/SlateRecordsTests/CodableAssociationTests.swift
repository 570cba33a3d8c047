import Foundation
import Slate
import Testing

// Codable records have no foreign keys in their inferred schema: their associations name the key.

private struct Writer: CodableRecord, Equatable {
    var id: Int64?
    var name: String
    mutating func didInsert(rowID: Int64) { id = rowID }
}

private struct Novel: CodableRecord, Equatable {
    var id: Int64?
    var writerId: Int64
    var title: String
    var year: Int
    mutating func didInsert(rowID: Int64) { id = rowID }
}

/// A key of another type than the one it references: TEXT, referencing an INTEGER.
private struct Essay: CodableRecord, Equatable {
    var id: Int64?
    var writerId: String
    mutating func didInsert(rowID: Int64) { id = rowID }
}

private let essayWriter = TableSchema.ForeignKey(columns: ["writerId"], referencedTable: "Writer")

private let novelWriter = TableSchema.ForeignKey(columns: ["writerId"], referencedTable: "Writer")

extension RecordColumns where Record == Writer {
    fileprivate var novels: HasMany<Writer, Novel> { .hasMany(qualifier, using: novelWriter) }
}

extension RecordColumns where Record == Writer {
    fileprivate var essays: HasMany<Writer, Essay> { .hasMany(qualifier, using: essayWriter) }
}

extension RecordColumns where Record == Novel {
    fileprivate var writer: BelongsTo<Novel, Writer> { .belongsTo(qualifier, using: novelWriter) }
}

@Suite struct CodableAssociationTests {
    private func library() throws -> Database {
        let db = try Database()
        let ann = try db.insert(Writer(name: "Ann"))
        let bob = try db.insert(Writer(name: "Bob"))
        _ = try db.insert(Writer(name: "Cy"))
        _ = try db.insert(
            contentsOf: [
                Novel(writerId: ann.id ?? 0, title: "A1", year: 1990),
                Novel(writerId: bob.id ?? 0, title: "B1", year: 2001),
                Novel(writerId: ann.id ?? 0, title: "A2", year: 1985),
                Novel(writerId: ann.id ?? 0, title: "A3", year: 2010),
            ])
        return db
    }

    @Test func eagerLoadsCodableRecordsLikeTheLoop() throws {
        let db = try library()
        let eager = try Writer.all().order(by: \.name).including(all: \.novels) { $0.order(by: \.year).limit(2) }
            .fetchAll(db)
        let loop = try Writer.all().order(by: \.name).fetchAll(db).map { writer in
            (writer, try Novel.where { $0.writerId == writer.id ?? 0 }.order(by: \.year).limit(2).fetchAll(db))
        }
        #expect(eager.map(\.0) == loop.map(\.0))
        #expect(eager.map(\.1) == loop.map(\.1))
        #expect(eager.map { $0.1.map(\.title) } == [["A2", "A1"], ["B1"], []])
        let novels = try Novel.all().order(by: \.title).including(required: \.writer).fetchAll(db)
        #expect(novels.map { $0.1.name } == ["Ann", "Ann", "Ann", "Bob"])
    }

    @Test func filtersCodableRecordsThroughTheAssociation() throws {
        let db = try library()
        let prolific = try Writer.where { $0.novels.count() >= 2 }.fetchAll(db)
        #expect(prolific.map(\.name) == ["Ann"])
        let recent = try Writer.where { $0.novels.exists { $0.year > 2000 } }.order(by: \.name).fetchAll(db)
        #expect(recent.map(\.name) == ["Ann", "Bob"])
    }

    @Test func aKeyNamingAnotherTableIsAMisuse() throws {
        let db = try library()
        let wrong = TableSchema.ForeignKey(columns: ["writerId"], referencedTable: "Publisher")
        let error = #expect(throws: DatabaseError.self) {
            _ = try Writer.where { _ in HasMany<Writer, Novel>.hasMany("Writer", using: wrong).exists() }.fetchAll(db)
        }
        #expect(error?.resultCode == .misuse)
        #expect(error?.message.contains("references Publisher, not Writer") == true)
    }

    @Test func aKeyReadBackAsAnotherTypeThrowsRatherThanDroppingRecords() throws {
        let db = try library()
        _ = try db.insert(Essay(writerId: "1"))
        // SQLite matches the TEXT '1' with the bound integer 1; the record must not vanish.
        let error = #expect(throws: DatabaseError.self) { _ = try Writer.all().including(all: \.essays).fetchAll(db) }
        #expect(error?.resultCode == .mismatch)
        #expect(error?.message.contains("read back as text") == true)
    }
}
