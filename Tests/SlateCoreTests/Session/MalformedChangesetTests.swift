import Foundation
import SlateCore
import Testing

/// Bytes that are not a changeset are an error, never a crash, and never a partial apply.
@Suite struct MalformedChangesetTests {
    static func sample() throws -> (db: Database, changeset: Changeset) {
        let db = try makeSessionDatabase(foreignKeys: false)
        try db.execute(sql: "INSERT INTO team VALUES (1, 'Reds'); INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)")
        let target = try sessionCopy(of: db)
        let changeset = try db.recordingChangeset(of: .matching { $0 != "note" }) {
            try db.execute(
                sql: """
                    INSERT INTO team VALUES (2, 'Blues');
                    UPDATE player SET name = 'Anne', photo = x'0102' WHERE id = 1;
                    INSERT INTO membership VALUES (2024, 1, 'captain');
                    DELETE FROM team WHERE id = 1;
                    """)
        }.changeset
        return (target, changeset)
    }

    /// Runs every reading operation on `data`: each either succeeds or throws a `DatabaseError`.
    /// Returns the errors' primary codes.
    static func exercise(_ data: Data, on db: Database) -> [ResultCode] {
        var codes: [ResultCode] = []
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch let error as DatabaseError { codes.append(error.resultCode) } catch {
                Issue.record("not a DatabaseError: \(error)")
            }
        }
        let changes = Changeset(data: data)
        attempt { _ = try changes.operations() }
        attempt { _ = try changes.inverted() }
        attempt { _ = try changes.concatenated(with: changes) }
        attempt { _ = try Patchset(data: data).operations() }
        attempt {
            let before = try sessionDump(db)
            do {
                try db.apply(changes) { _ in .omit }
            } catch {
                // A failed apply leaves nothing behind.
                #expect(try sessionDump(db) == before)
                throw error
            }
        }
        attempt { try db.apply(changes, options: ChangesetApplyOptions(checksTables: false)) { _ in .omit } }
        attempt { try db.applyChangeset(from: .data(data)) { _ in .omit } }
        return codes
    }

    @Test func everyTruncationIsAnErrorOrACompleteShorterChangeset() throws {
        let (db, changeset) = try Self.sample()
        var errors = 0
        for length in 0..<changeset.data.count {
            let prefix = changeset.data.prefix(length)
            let codes = Self.exercise(prefix, on: try sessionCopy(of: db))
            errors += codes.count
            for code in codes {
                #expect([.corrupt, .schema, .misuse].contains(code), "length \(length): \(code)")
            }
        }
        #expect(errors > changeset.data.count)
    }

    @Test func randomDamageIsAnErrorNeverACrash() throws {
        let (db, changeset) = try Self.sample()
        var generator = LexerFuzzGenerator(seed: 35)  // SplitMix64, in SQLLexerTests.swift
        var errors = 0
        for _ in 0..<400 {
            var bytes = [UInt8](changeset.data)
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: position)
                default: bytes.remove(at: position)
                }
            }
            errors += Self.exercise(Data(bytes), on: try sessionCopy(of: db)).count
        }
        #expect(errors > 0)
    }

    /// An insert whose key field is undefined (type 0): SQLite 3.40.1's `sqlite3changegroup_add`
    /// reads memory it never wrote on these ten bytes (valgrind), and crashed in `memcpy` on a
    /// longer damaged changeset of this kind. Slate refuses it before SQLite reads it.
    @Test func anUndefinedKeyFieldIsRefusedBeforeSQLiteReadsIt() throws {
        // 'T', 2 columns, key flags [1, 0], "t", then an insert of (undefined, NULL).
        let bytes = Data([0x54, 0x02, 0x01, 0x00, 0x74, 0x00, 0x12, 0x00, 0x00, 0x05])
        for attempt in [
            { _ = try Changeset(data: bytes).concatenated(with: Changeset(data: bytes)) },
            { _ = try Changeset(data: bytes).inverted() },
            { _ = try Changeset(data: bytes).operations() },
        ] as [() throws -> Void] {
            #expect { try attempt() } throws: { ($0 as? DatabaseError)?.resultCode == .corrupt }
        }
    }

    @Test func theScannerFindsTheTablesSQLiteReads() throws {
        let (_, changeset) = try Self.sample()
        let tables = Set(try changeset.operations().map(\.tableName))
        #expect(tables == ["team", "player", "membership"])
        for garbage in [Data([0x54]), Data([0x54, 0x02, 0x01]), Data([0x12, 0x00]), Data([0x54, 0x00, 0x00])] {
            #expect { _ = try Changeset(data: garbage).operations() } throws: {
                ($0 as? DatabaseError)?.resultCode == .corrupt
            }
        }
    }
}
