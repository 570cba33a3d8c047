import Foundation
import SlateCore
import Testing

@Suite struct SessionRecordingTests {
    @Test func aChangesetHoldsEachOperationWithItsOldAndNewValues() throws {
        let db = try makeSessionDatabase()
        try db.execute(
            sql: """
                INSERT INTO team VALUES (1, 'Reds');
                INSERT INTO player VALUES (1, 1, 'Ann', 10.5, NULL), (2, 1, 'Bob', 3, x'00FF');
                """)
        let (_, changeset) = try db.recordingChangeset(of: .named(["player"])) {
            try db.execute(
                sql: """
                    INSERT INTO player VALUES (3, 1, 'Cy', 0, x'');
                    UPDATE player SET score = 12 WHERE id = 1;
                    DELETE FROM player WHERE id = 2;
                    """)
        }
        let operations = try changeset.operations().sorted { $0.primaryKey[0].sortKey < $1.primaryKey[0].sortKey }
        #expect(operations.count == 3)
        let update = operations[0]
        #expect(update.kind == .update)
        #expect(update.tableName == "player")
        #expect(update.primaryKeyPositions == [1, 0, 0, 0, 0])
        // The key and the changed column carry old values; only the changed column a new one.
        #expect(update.oldValues == [.integer(1), nil, nil, .real(10.5), nil])
        #expect(update.newValues == [nil, nil, nil, .real(12), nil])
        let delete = operations[1]
        #expect(delete.kind == .delete)
        #expect(delete.oldValues == [.integer(2), .integer(1), .text("Bob"), .real(3), .blob(Data([0, 255]))])
        #expect(delete.newValues == [nil, nil, nil, nil, nil])
        let insert = operations[2]
        #expect(insert.kind == .insert)
        #expect(insert.oldValues == [nil, nil, nil, nil, nil])
        #expect(insert.newValues == [.integer(3), .integer(1), .text("Cy"), .real(0), .blob(Data())])
        #expect(!insert.isIndirect)
    }

    @Test func onlyTheChosenTablesAreRecorded() throws {
        let db = try makeSessionDatabase()
        let (_, named) = try db.recordingChangeset(of: .named(["team"])) {
            try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds'); INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)")
        }
        #expect(try named.operations().map(\.tableName) == ["team"])
        let (_, matching) = try db.recordingChangeset(of: .matching { $0 == "player" }) {
            try db.execute(
                sql: "INSERT INTO team VALUES (2, 'Blues'); INSERT INTO player VALUES (2, 2, 'Bob', 1, NULL)")
        }
        #expect(try matching.operations().map(\.tableName) == ["player"])
        let (_, all) = try db.recordingChangeset(of: .all) {
            try db.execute(
                sql: "INSERT INTO team VALUES (3, 'Greens'); INSERT INTO player VALUES (3, 3, 'Cy', 1, NULL)")
        }
        #expect(Set(try all.operations().map(\.tableName)) == ["team", "player"])
    }

    @Test func aTableWithoutPrimaryKeyIsRefusedRatherThanLeftOut() throws {
        let db = try makeSessionDatabase()
        #expect {
            _ = try DatabaseSession(db, tables: .named(["note"]))
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .misuse && "\(error)".contains("'note'")
        }
        let session = try DatabaseSession(db, tables: .all)
        try db.execute(sql: "INSERT INTO note VALUES ('lost?'); INSERT INTO team VALUES (1, 'Reds')")
        #expect {
            _ = try session.changeset()
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .misuse && "\(error)".contains("no PRIMARY KEY")
        }
        // Excluding the table records the rest.
        let filtered = try DatabaseSession(db, tables: .matching { $0 != "note" })
        try db.execute(sql: "INSERT INTO note VALUES ('skipped'); INSERT INTO team VALUES (2, 'Blues')")
        #expect(try filtered.changeset().operations().map(\.tableName) == ["team"])
    }

    @Test func rolledBackAndRevertedChangesAreNotInTheChangeset() throws {
        let db = try makeSessionDatabase()
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds')")
        let session = try DatabaseSession(db)
        #expect(throws: CancellationError.self) {
            try db.transaction {
                try db.execute(sql: "INSERT INTO team VALUES (2, 'Blues')")
                throw CancellationError()
            }
        }
        try db.execute(sql: "UPDATE team SET name = 'Temp' WHERE id = 1; UPDATE team SET name = 'Reds' WHERE id = 1")
        #expect(try session.changeset().isEmpty)
        // The session saw changes, though they came to nothing.
        #expect(!session.isEmpty)
    }

    @Test func aDisabledSessionIgnoresChangesAndAnIndirectOneMarksThem() throws {
        let db = try makeSessionDatabase()
        let session = try DatabaseSession(db, tables: .named(["team"]))
        #expect(session.isEnabled)
        session.isEnabled = false
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Ignored')")
        session.isEnabled = true
        session.isIndirect = true
        #expect(session.isIndirect)
        try db.execute(sql: "INSERT INTO team VALUES (2, 'Indirect')")
        session.isIndirect = false
        try db.execute(sql: "INSERT INTO team VALUES (3, 'Direct')")
        let operations = try session.changeset().operations().sorted {
            $0.primaryKey[0].sortKey < $1.primaryKey[0].sortKey
        }
        #expect(operations.map { $0.primaryKey } == [[.integer(2)], [.integer(3)]])
        #expect(operations.map(\.isIndirect) == [true, false])
    }

    @Test func aPatchsetCarriesNoOldValueButTheKey() throws {
        let db = try makeSessionDatabase()
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues')")
        let session = try DatabaseSession(db, tables: .named(["team"]))
        try db.execute(sql: "UPDATE team SET name = 'Crimson' WHERE id = 1; DELETE FROM team WHERE id = 2")
        let changeset = try session.changeset()
        let patchset = try session.patchset()
        #expect(patchset.data.count < changeset.data.count)
        #expect(patchset.data.first == UInt8(ascii: "P"))
        #expect(changeset.data.first == UInt8(ascii: "T"))
        let operations = try patchset.operations().sorted { $0.primaryKey[0].sortKey < $1.primaryKey[0].sortKey }
        #expect(operations[0].kind == .update)
        #expect(operations[0].oldValues == [.integer(1), nil])
        #expect(operations[0].newValues == [nil, .text("Crimson")])
        #expect(operations[1].kind == .delete)
        #expect(operations[1].oldValues == [.integer(2), nil])
    }

    @Test func aCompositeKeyRecordsEachColumnsPositionInTheKey() throws {
        let db = try makeSessionDatabase()
        let (_, changeset) = try db.recordingChangeset(of: .named(["membership"])) {
            try db.execute(sql: "INSERT INTO membership VALUES (2024, 7, 'captain')")
        }
        // PRIMARY KEY (player, season): player is the key's first column, season its second.
        let operation = try #require(try changeset.operations().first)
        #expect(operation.primaryKeyPositions == [2, 1, 0])
        #expect(operation.primaryKey == [.integer(2024), .integer(7)])
    }

    @Test func closingTheConnectionDeletesItsSessions() throws {
        var db: Database? = try makeSessionDatabase()
        let session = try DatabaseSession(try #require(db))
        try db?.execute(sql: "INSERT INTO team VALUES (1, 'Reds')")
        try db?.close()
        #expect(session.isEmpty)
        #expect {
            _ = try session.changeset()
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .misuse
        }
        session.close()
        db = nil
    }

    @Test func differencesWithAnAttachedCopyBecomeAChangeset() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("slate-session-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("old.sqlite").path
        let db = try makeSessionDatabase()
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues')")
        try db.backup(toFile: old)
        try db.execute(sql: "UPDATE team SET name = 'Crimson' WHERE id = 1; INSERT INTO team VALUES (3, 'Greens')")
        try db.execute("ATTACH DATABASE \(old) AS old")
        let session = try DatabaseSession(db, tables: .named(["team"]))
        try session.recordDifferences(of: "team", from: "old")
        let changeset = try session.changeset()
        try db.execute(sql: "DETACH DATABASE old")
        // Applied to the old copy, the changeset brings it up to date.
        let copy = try Database(location: .file(old))
        try copy.apply(changeset) { _ in .abort }
        #expect(
            try sessionDump(copy).filter { $0.hasPrefix("team") } == sessionDump(db).filter { $0.hasPrefix("team") })
    }
}

extension SQLValue {
    /// A key to sort operations by their first key column in tests.
    var sortKey: Int64 {
        if case .integer(let value) = self { return value }
        return .max
    }
}
