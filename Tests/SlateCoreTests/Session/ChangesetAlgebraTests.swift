import Foundation
import SlateCore
import Testing

/// Invert, concatenate, and the builder's round trip.
@Suite struct ChangesetAlgebraTests {
    static func recorded(_ db: Database, _ sql: String) throws -> Changeset {
        try db.recordingChangeset(of: .matching { $0 != "note" }) { try db.execute(sql: sql) }.changeset
    }

    @Test func applyingTheInverseRestoresTheDatabase() throws {
        let db = try makeSessionDatabase()
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds'); INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)")
        let before = try sessionDump(db)
        let changeset = try Self.recorded(
            db,
            """
            INSERT INTO team VALUES (2, 'Blues');
            UPDATE player SET team = 2, score = 4.25 WHERE id = 1;
            DELETE FROM team WHERE id = 1;
            """)
        let inverse = try changeset.inverted()
        let kinds = try inverse.operations().map(\.kind).sorted { "\($0)" < "\($1)" }
        #expect(kinds == [.delete, .insert, .update])
        try db.apply(inverse) { _ in .abort }
        #expect(try sessionDump(db) == before)
        // Inverting twice gives the changeset back.
        #expect(try inverse.inverted() == changeset)
    }

    @Test func concatenatingEqualsRecordingBothInOneSession() throws {
        let db = try makeSessionDatabase()
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds')")
        let start = try sessionCopy(of: db)
        let monday = try Self.recorded(
            db, "INSERT INTO team VALUES (2, 'Blues'); UPDATE team SET name = 'A' WHERE id = 1")
        let tuesday = try Self.recorded(
            db, "UPDATE team SET name = 'Navy' WHERE id = 2; UPDATE team SET name = 'B' WHERE id = 1")
        let both = try monday.concatenated(with: tuesday)
        let operations = try both.operations().sorted { $0.primaryKey[0].sortKey < $1.primaryKey[0].sortKey }
        // One update of row 1 from its first old value to its last new one; one insert of row 2.
        #expect(operations.count == 2)
        #expect(operations[0].kind == .update)
        #expect(operations[0].oldValues == [.integer(1), .text("Reds")])
        #expect(operations[0].newValues == [nil, .text("B")])
        #expect(operations[1].kind == .insert)
        #expect(operations[1].newValues == [.integer(2), .text("Navy")])
        try start.apply(both) { _ in .abort }
        #expect(try sessionDump(start) == sessionDump(db))
    }

    @Test func anInsertThenADeleteConcatenateToNothing() throws {
        let db = try makeSessionDatabase()
        let inserted = try Self.recorded(db, "INSERT INTO team VALUES (7, 'Brief')")
        let deleted = try Self.recorded(db, "DELETE FROM team WHERE id = 7")
        #expect(try inserted.concatenated(with: deleted).operations().isEmpty)
    }

    @Test func patchsetsConcatenateButNotWithChangesets() throws {
        let db = try makeSessionDatabase()
        let first = try db.recordingPatchset(of: .named(["team"])) {
            try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds')")
        }.patchset
        let second = try db.recordingPatchset(of: .named(["team"])) {
            try db.execute(sql: "UPDATE team SET name = 'Crimson' WHERE id = 1")
        }.patchset
        let both = try first.concatenated(with: second)
        #expect(both.data.first == UInt8(ascii: "P"))
        #expect(try both.operations().map(\.newValues) == [[.integer(1), .text("Crimson")]])
        let group = try ChangesetGroup()
        try group.add(first)
        let changeset = try Self.recorded(db, "INSERT INTO team VALUES (2, 'Blues')")
        #expect { try group.add(changeset) } throws: { ($0 as? DatabaseError)?.resultCode == .misuse }
        #expect { _ = try group.output(Changeset.self) } throws: { ($0 as? DatabaseError)?.resultCode == .misuse }
    }

    @Test func theBuilderWritesSQLitesOwnBytes() throws {
        let db = try makeSessionDatabase()
        try db.execute(
            sql: "INSERT INTO team VALUES (1, 'Reds'), (2, 'Blues'); INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)")
        let long = String(repeating: "é", count: 300)
        let changeset = try Self.recorded(
            db,
            """
            INSERT INTO team VALUES (3, '\(long)');
            UPDATE team SET name = '' WHERE id = 1;
            DELETE FROM team WHERE id = 2;
            INSERT INTO player VALUES (2, NULL, 'Bob', -0.0, zeroblob(200)), (3, 3, 'Cy', 1e300, x'');
            UPDATE player SET photo = x'00', score = 2 WHERE id = 1;
            INSERT INTO membership VALUES (-9223372036854775808, 9223372036854775807, NULL);
            """)
        var builder = ChangesetBuilder()
        for operation in try changeset.operations() { try builder.append(operation) }
        #expect(builder.changeset() == changeset)
        let patchset = try db.recordingPatchset(of: .named(["team"])) {
            try db.execute(sql: "UPDATE team SET name = 'x' WHERE id = 3")
        }.patchset
        #expect(try patchset.operations().count == 1)
    }

    @Test func theBuilderRefusesOperationsAChangesetCannotHold() throws {
        var builder = ChangesetBuilder()
        let valid = ChangesetOperation(
            tableName: "team", kind: .insert, primaryKeyPositions: [1, 0], oldValues: [nil, nil],
            newValues: [.integer(1), .text("Reds")])
        try builder.append(valid)
        let invalid: [ChangesetOperation] = [
            // A NULL key.
            ChangesetOperation(
                tableName: "team", kind: .insert, primaryKeyPositions: [1, 0], oldValues: [nil, nil],
                newValues: [.null, .text("x")]),
            // No key column.
            ChangesetOperation(
                tableName: "team", kind: .insert, primaryKeyPositions: [0, 0], oldValues: [nil, nil],
                newValues: [.integer(1), .text("x")]),
            // A delete without every old value.
            ChangesetOperation(
                tableName: "team", kind: .delete, primaryKeyPositions: [1, 0], oldValues: [.integer(1), nil],
                newValues: [nil, nil]),
            // An update of the key.
            ChangesetOperation(
                tableName: "team", kind: .update, primaryKeyPositions: [1, 0], oldValues: [.integer(1), .text("a")],
                newValues: [.integer(2), .text("b")]),
            // An update without the old value of what it changes.
            ChangesetOperation(
                tableName: "team", kind: .update, primaryKeyPositions: [1, 0], oldValues: [.integer(1), nil],
                newValues: [nil, .text("b")]),
            // An update that changes nothing.
            ChangesetOperation(
                tableName: "team", kind: .update, primaryKeyPositions: [1, 0], oldValues: [.integer(1), nil],
                newValues: [nil, nil]),
            // Values that do not match the columns.
            ChangesetOperation(
                tableName: "team", kind: .insert, primaryKeyPositions: [1, 0], oldValues: [nil],
                newValues: [.integer(1)]),
            // Key positions that skip one.
            ChangesetOperation(
                tableName: "team", kind: .insert, primaryKeyPositions: [2, 0], oldValues: [nil, nil],
                newValues: [.integer(1), .text("x")]),
        ]
        for operation in invalid {
            #expect(throws: DatabaseError.self, "\(operation)") { try builder.append(operation) }
        }
        // Nothing of the refused operations was written.
        #expect(try builder.changeset().operations() == [valid])
    }

    @Test func rawCopiesKeepTextThatIsNotUTF8AsText() throws {
        let db = try makeSessionDatabase()
        let changeset = try Self.recorded(db, "INSERT INTO team VALUES (1, CAST(x'C3' AS TEXT))")
        // The value read is a blob of the bytes (a String cannot hold them)…
        #expect(try changeset.operations().first?.newValues[1] == .blob(Data([0xC3])))
        // …but a copy made from SQLite's value keeps the storage class.
        let cursor = try ChangesetCursor(changeset)
        var builder = ChangesetBuilder()
        while try cursor.advance() {
            let header = try cursor.currentHeader()
            builder.beginOperation(
                table: header.tableName, primaryKeyPositions: header.primaryKeyPositions, kind: header.kind,
                isIndirect: header.isIndirect)
            for column in 0..<header.columnCount { builder.appendValue(raw: try cursor.newValue(at: column)) }
        }
        #expect(builder.changeset() == changeset)
    }
}
