import Foundation
import SlateCore
import Testing

/// Every conflict kind meets every answer: what the handler sees, and what the database holds
/// afterwards.
@Suite struct ChangesetApplyTests {
    /// A changeset recorded on `source` by `change`, and a copy of `source` as it was before, to
    /// which `prepare` makes local changes.
    static func scenario(
        setUp: String, change: String, prepare: String
    ) throws -> (target: Database, changeset: Changeset) {
        let source = try makeSessionDatabase()
        try source.execute(sql: setUp)
        let target = try sessionCopy(of: source)
        try target.execute(sql: "PRAGMA foreign_keys = ON")
        let (_, changeset) = try source.recordingChangeset {
            try source.execute(sql: change)
            // Every scenario also inserts team 50, to see whether the rest of the changeset applied.
            try source.execute(sql: "INSERT INTO team VALUES (50, 'Witness')")
        }
        try target.execute(sql: prepare)
        return (target, changeset)
    }

    static func apply(
        _ changeset: Changeset, to db: Database, answer: ChangesetConflictResolution
    ) throws -> [ChangesetConflict] {
        var seen: [ChangesetConflict] = []
        try db.apply(changeset) { conflict in
            seen.append(conflict)
            return answer
        }
        return seen
    }

    static func witnessApplied(_ db: Database) throws -> Bool {
        try db.fetchValue(Int.self, sql: "SELECT count(*) FROM team WHERE id = 50") == 1
    }

    static func isError(_ error: any Error, _ code: ResultCode) -> Bool {
        (error as? DatabaseError)?.resultCode == code
    }

    // MARK: data

    static let data = (
        setUp: "INSERT INTO team VALUES (1, 'Reds')",
        change: "UPDATE team SET name = 'Remote' WHERE id = 1",
        prepare: "UPDATE team SET name = 'Local' WHERE id = 1"
    )

    @Test func aDataConflictShowsTheCurrentRowAndOmitKeepsIt() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.data.setUp, change: Self.data.change, prepare: Self.data.prepare)
        let seen = try Self.apply(changeset, to: db, answer: .omit)
        #expect(seen.map(\.kind) == [.data])
        #expect(seen.first?.conflictingRow == [.integer(1), .text("Local")])
        #expect(seen.first?.operation?.newValues == [nil, .text("Remote")])
        #expect(try db.fetchValue(String.self, sql: "SELECT name FROM team WHERE id = 1") == "Local")
        #expect(try Self.witnessApplied(db))
    }

    @Test func aDataConflictAnsweredReplaceTakesTheChange() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.data.setUp, change: Self.data.change, prepare: Self.data.prepare)
        _ = try Self.apply(changeset, to: db, answer: .replace)
        #expect(try db.fetchValue(String.self, sql: "SELECT name FROM team WHERE id = 1") == "Remote")
        #expect(try Self.witnessApplied(db))
    }

    @Test func aDataConflictAnsweredAbortUndoesEverything() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.data.setUp, change: Self.data.change, prepare: Self.data.prepare)
        let before = try sessionDump(db)
        #expect { try Self.apply(changeset, to: db, answer: .abort) } throws: { Self.isError($0, .abort) }
        #expect(try sessionDump(db) == before)
    }

    // MARK: not found

    static let notFound = (
        setUp: "INSERT INTO team VALUES (1, 'Reds')",
        change: "UPDATE team SET name = 'Remote' WHERE id = 1",
        prepare: "DELETE FROM team WHERE id = 1"
    )

    @Test func aNotFoundConflictAnsweredOmitSkipsTheChange() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.notFound.setUp, change: Self.notFound.change, prepare: Self.notFound.prepare)
        let seen = try Self.apply(changeset, to: db, answer: .omit)
        #expect(seen.map(\.kind) == [.notFound])
        #expect(seen.first?.conflictingRow == nil)
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM team WHERE id = 1") == 0)
        #expect(try Self.witnessApplied(db))
    }

    @Test func aNotFoundConflictAnsweredAbortUndoesEverything() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.notFound.setUp, change: Self.notFound.change, prepare: Self.notFound.prepare)
        let before = try sessionDump(db)
        #expect { try Self.apply(changeset, to: db, answer: .abort) } throws: { Self.isError($0, .abort) }
        #expect(try sessionDump(db) == before)
    }

    @Test func replaceIsRefusedForKindsThatDoNotTakeIt() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.notFound.setUp, change: Self.notFound.change, prepare: Self.notFound.prepare)
        let before = try sessionDump(db)
        #expect { try Self.apply(changeset, to: db, answer: .replace) } throws: { error in
            Self.isError(error, .misuse) && "\(error)".contains("not found")
        }
        #expect(try sessionDump(db) == before)
    }

    // MARK: conflict

    static let conflict = (
        setUp: "INSERT INTO team VALUES (1, 'Reds')",
        change: "INSERT INTO team VALUES (3, 'Theirs')",
        prepare: "INSERT INTO team VALUES (3, 'Mine')"
    )

    @Test func anInsertConflictShowsTheExistingRowAndOmitKeepsIt() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.conflict.setUp, change: Self.conflict.change, prepare: Self.conflict.prepare)
        let seen = try Self.apply(changeset, to: db, answer: .omit)
        #expect(seen.map(\.kind) == [.conflict])
        #expect(seen.first?.conflictingRow == [.integer(3), .text("Mine")])
        #expect(try db.fetchValue(String.self, sql: "SELECT name FROM team WHERE id = 3") == "Mine")
        #expect(try Self.witnessApplied(db))
    }

    @Test func anInsertConflictAnsweredReplaceOverwritesTheRow() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.conflict.setUp, change: Self.conflict.change, prepare: Self.conflict.prepare)
        _ = try Self.apply(changeset, to: db, answer: .replace)
        #expect(try db.fetchValue(String.self, sql: "SELECT name FROM team WHERE id = 3") == "Theirs")
    }

    @Test func anInsertConflictAnsweredAbortUndoesEverything() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.conflict.setUp, change: Self.conflict.change, prepare: Self.conflict.prepare)
        let before = try sessionDump(db)
        #expect { try Self.apply(changeset, to: db, answer: .abort) } throws: { Self.isError($0, .abort) }
        #expect(try sessionDump(db) == before)
    }

    // MARK: constraint

    static let constraint = (
        setUp: "INSERT INTO team VALUES (1, 'Reds')",
        change: "INSERT INTO team VALUES (4, 'Dup')",
        prepare: "INSERT INTO team VALUES (9, 'Dup')"
    )

    @Test func aConstraintConflictAnsweredOmitSkipsTheRow() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.constraint.setUp, change: Self.constraint.change, prepare: Self.constraint.prepare)
        let seen = try Self.apply(changeset, to: db, answer: .omit)
        #expect(seen.map(\.kind) == [.constraint])
        #expect(seen.first?.operation?.newValues == [.integer(4), .text("Dup")])
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM team WHERE id = 4") == 0)
        #expect(try Self.witnessApplied(db))
    }

    @Test func aConstraintConflictAnsweredAbortUndoesEverything() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.constraint.setUp, change: Self.constraint.change, prepare: Self.constraint.prepare)
        let before = try sessionDump(db)
        #expect { try Self.apply(changeset, to: db, answer: .abort) } throws: { Self.isError($0, .abort) }
        #expect(try sessionDump(db) == before)
        #expect { try Self.apply(changeset, to: db, answer: .replace) } throws: { Self.isError($0, .misuse) }
        #expect(try sessionDump(db) == before)
    }

    // MARK: foreign key

    static let foreignKey = (
        setUp: "INSERT INTO team VALUES (1, 'Reds')",
        change: "INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)",
        prepare: "DELETE FROM team WHERE id = 1"
    )

    @Test func aForeignKeyConflictCountsTheViolationsAndOmitCommitsThem() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.foreignKey.setUp, change: Self.foreignKey.change, prepare: Self.foreignKey.prepare)
        let seen = try Self.apply(changeset, to: db, answer: .omit)
        #expect(seen.map(\.kind) == [.foreignKey])
        #expect(seen.first?.foreignKeyViolationCount == 1)
        #expect(seen.first?.operation == nil)
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM player") == 1)
        #expect(try db.fetchAll(Int.self, sql: "SELECT count(*) FROM pragma_foreign_key_check") == [1])
    }

    @Test func aForeignKeyConflictAnsweredAbortUndoesEverything() throws {
        let (db, changeset) = try Self.scenario(
            setUp: Self.foreignKey.setUp, change: Self.foreignKey.change, prepare: Self.foreignKey.prepare)
        let before = try sessionDump(db)
        #expect { try Self.apply(changeset, to: db, answer: .abort) } throws: { Self.isError($0, .abort) }
        #expect(try sessionDump(db) == before)
    }

    // MARK: Everything else about applying

    @Test func anErrorThrownByTheHandlerIsRethrownAndNothingIsApplied() throws {
        struct Refusal: Error {}
        let (db, changeset) = try Self.scenario(
            setUp: Self.data.setUp, change: Self.data.change, prepare: Self.data.prepare)
        let before = try sessionDump(db)
        #expect(throws: Refusal.self) {
            try db.apply(changeset) { _ in throw Refusal() }
        }
        #expect(try sessionDump(db) == before)
    }

    @Test func aChangesetWithoutConflictMakesTheCopyIdentical() throws {
        let source = try makeSessionDatabase()
        try source.execute(sql: "INSERT INTO team VALUES (1, 'Reds'); INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)")
        let target = try sessionCopy(of: source)
        let (_, changeset) = try source.recordingChangeset {
            try source.execute(
                sql: """
                    INSERT INTO team VALUES (2, 'Blues');
                    INSERT INTO player VALUES (2, 2, 'Bob', 2.5, x'01');
                    UPDATE player SET name = 'Anne', photo = x'CAFE' WHERE id = 1;
                    INSERT INTO membership VALUES (2024, 1, 'captain'), (2025, 2, 'rookie');
                    DELETE FROM membership WHERE season = 2025;
                    """)
        }
        var conflicts = 0
        try target.apply(changeset) { _ in
            conflicts += 1
            return .abort
        }
        #expect(conflicts == 0)
        #expect(try sessionDump(target) == sessionDump(source))
    }

    @Test func theFilterSkipsTables() throws {
        let (db, changeset) = try Self.scenario(setUp: "", change: "INSERT INTO team VALUES (1, 'Reds')", prepare: "")
        var asked: [String] = []
        try db.apply(
            changeset,
            filter: { table in
                asked.append(table)
                return false
            }
        ) { _ in .abort }
        #expect(asked == ["team"])
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM team") == 0)
    }

    @Test func aTableThatIsMissingOrDifferentIsAnErrorNotASilentSkip() throws {
        let (_, changeset) = try Self.scenario(
            setUp: "", change: "INSERT INTO team VALUES (1, 'Reds'); INSERT INTO membership VALUES (1, 2, 'x')",
            prepare: "")
        let missing = try Database(location: .inMemory)
        try missing.execute(sql: "CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
        #expect { try missing.apply(changeset) { _ in .abort } } throws: { error in
            Self.isError(error, .schema) && "\(error)".contains("'membership'")
        }
        // Nothing applied: not even the table that exists.
        #expect(try missing.fetchValue(Int.self, sql: "SELECT count(*) FROM team") == 0)

        let wider = try Database(location: .inMemory)
        try wider.execute(
            sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, city TEXT);
                CREATE TABLE membership(season INTEGER, player INTEGER, role TEXT, PRIMARY KEY (player, season));
                """)
        #expect { try wider.apply(changeset) { _ in .abort } } throws: { error in
            Self.isError(error, .schema) && "\(error)".contains("has 3")
        }
        let otherKey = try Database(location: .inMemory)
        try otherKey.execute(
            sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE membership(season INTEGER, player INTEGER, role TEXT, PRIMARY KEY (season, player));
                """)
        #expect { try otherKey.apply(changeset) { _ in .abort } } throws: { error in
            Self.isError(error, .schema) && "\(error)".contains("primary key")
        }
        // Without the check, SQLite skips the table it cannot apply and says nothing (team 1 and
        // the witness, team 50, are applied).
        try otherKey.apply(changeset, options: ChangesetApplyOptions(checksTables: false)) { _ in .abort }
        #expect(try otherKey.fetchValue(Int.self, sql: "SELECT count(*) FROM team") == 2)
        #expect(try otherKey.fetchValue(Int.self, sql: "SELECT count(*) FROM membership") == 0)
    }

    @Test func theInvertOptionAppliesTheInverse() throws {
        let source = try makeSessionDatabase()
        try source.execute(sql: "INSERT INTO team VALUES (1, 'Reds')")
        let before = try sessionDump(source)
        let (_, changeset) = try source.recordingChangeset {
            try source.execute(
                sql: "INSERT INTO team VALUES (2, 'Blues'); UPDATE team SET name = 'Crimson' WHERE id = 1")
        }
        try source.apply(changeset, options: ChangesetApplyOptions(inverts: true)) { _ in .abort }
        #expect(try sessionDump(source) == before)
    }

    @Test func withoutTheSavepointAnAbortLeavesWhatWasAppliedToTheCallersTransaction() throws {
        // Tables come in the order of their first change: team's inserts, then player's conflict.
        let (db, changeset) = try Self.scenario(
            setUp: "INSERT INTO team VALUES (1, 'Reds'); INSERT INTO player VALUES (1, 1, 'Ann', 1, NULL)",
            change: "INSERT INTO team VALUES (2, 'Blues'); UPDATE player SET name = 'Remote' WHERE id = 1",
            prepare: "UPDATE player SET name = 'Local' WHERE id = 1")
        try db.execute(sql: "BEGIN")
        #expect {
            try db.apply(changeset, options: ChangesetApplyOptions(usesSavepoint: false)) { _ in .abort }
        } throws: {
            Self.isError($0, .abort)
        }
        // The inserts before the conflict are still there, until the caller rolls back.
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM team WHERE id IN (2, 50)") == 2)
        try db.execute(sql: "ROLLBACK")
        #expect(try db.fetchValue(Int.self, sql: "SELECT count(*) FROM team WHERE id IN (2, 50)") == 0)
    }

    @Test func applyingReachesTheConnectionsChangeAndCommitObservers() throws {
        let (db, changeset) = try Self.scenario(
            setUp: "INSERT INTO team VALUES (1, 'Reds')", change: "UPDATE team SET name = 'Crimson' WHERE id = 1",
            prepare: "")
        var changes: [String] = []
        var commits = 0
        let observation = db.observeChanges { changes.append("\($0)") }
        let commitObservation = db.observeCommits {
            commits += 1
            return .proceed
        }
        defer {
            observation.cancel()
            commitObservation.cancel()
        }
        try db.apply(changeset) { _ in .abort }
        #expect(changes.sorted() == ["insert main.team #50", "update main.team #1"])
        #expect(commits == 1)
    }
}
