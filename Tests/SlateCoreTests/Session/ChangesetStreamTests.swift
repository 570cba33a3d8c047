import Foundation
import SlateCore
import Testing

/// The streaming forms give what the in-memory ones give, in pieces of any size.
@Suite struct ChangesetStreamTests {
    /// A database with many rows changed, so that streams take many pieces.
    static func changedDatabase() throws -> (before: Database, after: Database, session: DatabaseSession) {
        let db = try makeSessionDatabase()
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds')")
        let before = try sessionCopy(of: db)
        let session = try DatabaseSession(db, tables: .matching { $0 != "note" })
        try db.transaction {
            for id in 1...400 {
                try db.execute(
                    "INSERT INTO player VALUES (\(id), 1, \("player \(id)"), \(Double(id) / 3), \(Data(repeating: UInt8(id % 256), count: id % 40)))"
                )
            }
            try db.execute(sql: "UPDATE player SET score = score * 2 WHERE id % 3 = 0")
        }
        return (before, db, session)
    }

    /// An input that hands out `data` in pieces of `size` bytes at most.
    static func input(_ data: Data, pieces size: Int) -> ChangesetInput {
        var offset = 0
        return ChangesetInput { buffer in
            let count = min(size, buffer.count, data.count - offset)
            guard count > 0 else { return 0 }
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }
    }

    @Test func aStreamedChangesetIsTheSameBytes() throws {
        let (_, _, session) = try Self.changedDatabase()
        var pieces: [Data] = []
        try session.writeChangeset(to: ChangesetOutput { pieces.append(Data($0)) })
        #expect(pieces.count > 1)
        #expect(pieces.reduce(Data(), +) == (try session.changeset()).data)
        var patchPieces = Data()
        try session.writePatchset(to: ChangesetOutput { patchPieces.append(contentsOf: $0) })
        #expect(patchPieces == (try session.patchset()).data)
    }

    @Test(arguments: [1, 7, 4096])
    func aStreamingCursorReadsTheSameOperations(pieceSize: Int) throws {
        let (_, _, session) = try Self.changedDatabase()
        let changeset = try session.changeset()
        let cursor = try ChangesetCursor(reading: Self.input(changeset.data, pieces: pieceSize))
        var streamed: [ChangesetOperation] = []
        while let operation = try cursor.next() { streamed.append(operation) }
        #expect(streamed == (try changeset.operations()))
        #expect(streamed.count == 400)
    }

    @Test(arguments: [3, 1000])
    func aStreamedApplyMakesTheSameDatabase(pieceSize: Int) throws {
        let (before, after, session) = try Self.changedDatabase()
        let changeset = try session.changeset()
        try before.applyChangeset(from: Self.input(changeset.data, pieces: pieceSize)) { _ in .abort }
        #expect(try sessionDump(before) == sessionDump(after))
    }

    @Test func streamedInvertAndGroupGiveTheInMemoryResults() throws {
        let (_, after, session) = try Self.changedDatabase()
        let changeset = try session.changeset()
        var inverse = Data()
        try ChangesetStream.invert(
            from: Self.input(changeset.data, pieces: 100), to: ChangesetOutput { inverse.append(contentsOf: $0) })
        #expect(inverse == (try changeset.inverted()).data)

        let more = try after.recordingChangeset(of: .named(["team"])) {
            try after.execute(sql: "INSERT INTO team VALUES (2, 'Blues')")
        }.changeset
        let group = try ChangesetGroup()
        try group.add(from: Self.input(changeset.data, pieces: 50), patchset: false)
        try group.add(from: Self.input(more.data, pieces: 50), patchset: false)
        var combined = Data()
        try group.write(to: ChangesetOutput { combined.append(contentsOf: $0) })
        #expect(combined == (try changeset.concatenated(with: more)).data)
    }

    @Test func anInputThatFailsStopsTheApplyAndUndoesIt() throws {
        struct Unplugged: Error {}
        let (before, _, session) = try Self.changedDatabase()
        let changeset = try session.changeset()
        let snapshot = try sessionDump(before)
        var served = 0
        let failing = ChangesetInput { buffer in
            guard served < changeset.data.count / 2 else { throw Unplugged() }
            let count = min(buffer.count, 64)
            changeset.data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: served..<(served + count))
            served += count
            return count
        }
        #expect(throws: Unplugged.self) { try before.applyChangeset(from: failing) { _ in .abort } }
        #expect(try sessionDump(before) == snapshot)
    }

    @Test func aStreamedTableThatDoesNotMatchIsAnErrorAndNothingIsApplied() throws {
        let (_, _, session) = try Self.changedDatabase()
        let changeset = try session.changeset()
        let other = try Database(location: .inMemory)
        try other.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
        #expect {
            try other.applyChangeset(from: Self.input(changeset.data, pieces: 10)) { _ in .abort }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .schema
        }
        #expect(try other.fetchValue(Int.self, sql: "SELECT count(*) FROM player") == 0)
    }
}
