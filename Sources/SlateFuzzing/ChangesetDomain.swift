import Foundation
import Slate

/// Malformed changesets and patchsets (issue 35): valid ones recorded by SQLite's session extension,
/// damaged (bytes flipped, inserted, removed, cut short, spliced), or made up from raw bytes behind a
/// valid table header, then read every way Slate reads them: operations, a streaming cursor in
/// random pieces, inverted, concatenated, grouped, applied (checked and unchecked, in memory and
/// streamed) with random answers to the conflicts.
///
/// The oracle: each call returns or throws a `DatabaseError`, never crashes (a crash kills the run
/// with the replay command); an apply that throws leaves the database as it was; operations read
/// from a changeset, written again with `ChangesetBuilder`, read back the same.
final class ChangesetDomain {
    private let base: Database
    private var corpus: [(data: Data, isPatchset: Bool)] = []

    init() throws {
        base = try Database(location: .inMemory)
        try base.execute(
            sql: """
                CREATE TABLE a(id INTEGER PRIMARY KEY, t TEXT, r REAL, b BLOB);
                CREATE TABLE b(k TEXT, n INTEGER, v, PRIMARY KEY (n, k)) WITHOUT ROWID;
                CREATE TABLE c(id INTEGER PRIMARY KEY, a INTEGER REFERENCES a(id), u TEXT UNIQUE);
                INSERT INTO a VALUES (1, 'one', 1.5, x'01'), (2, 'two', NULL, NULL), (3, '', -0.0, x'');
                INSERT INTO b VALUES ('x', 1, 1), ('y', 2, 'two'), ('z', 3, NULL);
                INSERT INTO c VALUES (1, 1, 'u1'), (2, 2, 'u2');
                """)
        let scripts = [
            "INSERT INTO a VALUES (10, 'ten', 10.25, x'0A0B')",
            "UPDATE a SET t = 'uno', b = zeroblob(300) WHERE id = 1",
            "DELETE FROM a WHERE id = 3",
            "INSERT INTO b VALUES ('w', 9, x'FF'); UPDATE b SET v = 'changed' WHERE n = 1",
            "DELETE FROM b WHERE n = 2; INSERT INTO c VALUES (3, 1, 'u3')",
            "UPDATE c SET u = 'swap' WHERE id = 1; UPDATE a SET r = 1e300 WHERE id = 2",
            "INSERT INTO a VALUES (11, CAST(x'C3' AS TEXT), 0, NULL); DELETE FROM c WHERE id = 2",
        ]
        for script in scripts {
            let db = try copy()
            let session = try DatabaseSession(db)
            try db.execute(sql: script)
            corpus.append((try session.changeset().data, false))
            corpus.append((try session.patchset().data, true))
        }
        // Everything at once, for long inputs with several tables.
        let db = try copy()
        let session = try DatabaseSession(db)
        for script in scripts { try db.execute(sql: script) }
        corpus.append((try session.changeset().data, false))
    }

    private func copy() throws -> Database {
        let db = try Database(location: .inMemory)
        try base.backup(to: db)
        return db
    }

    func run(_ entropy: inout Entropy, _ context: inout CaseContext) throws {
        let (data, isPatchset) = makeInput(&entropy)
        context.report.count("inputs")
        exercise(data, isPatchset: isPatchset, &entropy, &context)
    }

    /// A damaged corpus entry, or raw bytes behind a valid table header.
    private func makeInput(_ entropy: inout Entropy) -> (Data, Bool) {
        let (original, isPatchset) = entropy.pick(corpus)
        var bytes = [UInt8](original)
        if entropy.chance(0.3) {
            // A table header (the first one's bytes), then anything.
            let headerLength = min(bytes.count, entropy.int(1...24))
            bytes = Array(bytes.prefix(headerLength)) + entropy.bytes(entropy.size(upTo: 512))
            return (Data(bytes), isPatchset)
        }
        for _ in 0..<entropy.int(1...4) {
            guard !bytes.isEmpty else { break }
            let position = entropy.int(0..<bytes.count)
            switch entropy.int(0...6) {
            case 0: bytes[position] ^= UInt8(1 << entropy.int(0...7))
            case 1:
                bytes[position] = entropy.pick([0, 1, 2, 3, 4, 5, 6, 0x09, 0x12, 0x17, 0x50, 0x54, 0x7F, 0x80, 0xFF])
            case 2: bytes.insert(contentsOf: entropy.bytes(entropy.int(1...9)), at: position)
            case 3: bytes.removeSubrange(position..<min(bytes.count, position + entropy.int(1...16)))
            case 4: bytes.removeSubrange(position...)
            case 5:
                let other = [UInt8](entropy.pick(corpus).data)
                let start = entropy.int(0..<max(1, other.count))
                bytes.insert(contentsOf: other[start..<min(other.count, start + entropy.int(1...64))], at: position)
            default:
                let end = min(bytes.count, position + entropy.int(1...32))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            }
        }
        return (Data(bytes), isPatchset)
    }

    private func exercise(_ data: Data, isPatchset: Bool, _ entropy: inout Entropy, _ context: inout CaseContext) {
        func attempt(_ what: String, _ body: () throws -> Void) {
            do {
                try body()
                context.report.exact += 1
            } catch is DatabaseError {
                context.report.refused += 1
            } catch {
                context.finding("not a DatabaseError: \(what)", "\(error) for \(Show.bytes([UInt8](data)))")
            }
        }
        let changeset = Changeset(data: data)
        let patchset = Patchset(data: data)
        attempt("operations") {
            let operations = try isPatchset ? patchset.operations() : changeset.operations()
            guard !isPatchset else { return }
            var builder = ChangesetBuilder()
            for operation in operations { try builder.append(operation) }
            let again = try builder.changeset().operations()
            if again != operations {
                context.finding(
                    "builder round trip differs", "\(operations.prefix(2)) became \(again.prefix(2))")
            }
        }
        let pieceSize = entropy.int(1...64)
        attempt("streaming cursor") {
            let cursor = try ChangesetCursor(reading: Self.input(data, pieces: pieceSize))
            while try cursor.next() != nil {}
        }
        attempt("inverted") { _ = try changeset.inverted() }
        attempt("concatenated") {
            if isPatchset {
                _ = try patchset.concatenated(with: patchset)
            } else {
                _ = try changeset.concatenated(with: Changeset(data: entropy.pick(corpus).data))
            }
        }
        attempt("streamed group") {
            let group = try ChangesetGroup()
            try group.add(from: Self.input(data, pieces: pieceSize), patchset: isPatchset)
            try group.write(to: ChangesetOutput { _ in })
        }
        attempt("streamed invert") {
            try ChangesetStream.invert(from: Self.input(data, pieces: pieceSize), to: ChangesetOutput { _ in })
        }
        let answers: [ChangesetConflictResolution] = [.omit, .replace, .abort]
        let answer = entropy.pick(answers)
        for mode in 0..<3 {
            guard let db = try? copy(), let before = try? Self.dump(db) else {
                context.finding("the harness could not copy its database", "")
                return
            }
            var failed = false
            attempt("apply (mode \(mode))") {
                do {
                    let options = ChangesetApplyOptions(checksTables: mode != 1)
                    if mode == 2 {
                        try db.applyChangeset(from: Self.input(data, pieces: pieceSize), options: options) { _ in answer
                        }
                    } else if isPatchset {
                        try db.apply(patchset, options: options) { _ in answer }
                    } else {
                        try db.apply(changeset, options: options) { _ in answer }
                    }
                } catch {
                    failed = true
                    throw error
                }
            }
            if failed, let after = try? Self.dump(db), after != before {
                context.finding("a failed apply changed the database", "mode \(mode), answer \(answer)")
            }
        }
    }

    private static func input(_ data: Data, pieces size: Int) -> ChangesetInput {
        var offset = 0
        return ChangesetInput { buffer in
            let count = min(size, buffer.count, data.count - offset)
            guard count > 0 else { return 0 }
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            offset += count
            return count
        }
    }

    private static func dump(_ db: Database) throws -> [String] {
        var lines: [String] = []
        for table in ["a", "b", "c"] {
            lines += try db.fetchAll(SQL(sql: "SELECT * FROM \(table)")) { row in
                table + ": " + row.values.map(\.debugDescription).joined(separator: ", ")
            }.sorted()
        }
        return lines
    }
}
