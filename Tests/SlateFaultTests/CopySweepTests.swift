import Foundation
import Slate
import SlateTestingFaults
import Testing

/// Backups and `VACUUM INTO` under every fault: the source never changes; a copy reported made is
/// complete; a copy that failed is not left looking like one.
@Suite(.serialized) struct CopySweepTests {
    /// The contents of every table of `db`, in one comparable text.
    static func digest(_ db: Database, excluding excluded: String = "") throws -> String {
        let tables = try db.fetchAll(
            String.self,
            sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        var text = ""
        for table in tables where table != excluded {
            text += "\(table):"
            let rows = try db.fetchAll(CopiedRow.self, "SELECT * FROM \(identifier: table) ORDER BY rowid")
            for row in rows { text += "\(row.values)|" }
        }
        return text
    }

    /// The source: the ledger with 12 batches (about 30 pages).
    static func prepareSource(at path: String) throws {
        let db = try Database(path: path)
        try Ledger.create(db)
        for batch in 1...12 { try db.transaction { try Ledger.insert(batch: batch, into: db) } }
        try db.close()
    }

    /// An online backup, 4 pages per step, into a database that holds other data, both through the
    /// fault-injecting VFS.
    struct Backup: FaultScenario {
        func prepare(at path: String) throws {
            try CopySweepTests.prepareSource(at: path)
            let old = try Database(path: (path as NSString).deletingLastPathComponent + "/copy.sqlite")
            try old.execute(sql: "CREATE TABLE old(value TEXT); INSERT INTO old VALUES ('the old contents')")
            try old.close()
        }

        func run(_ context: FaultRunContext) throws -> Bool {
            let source = try Database(location: context.location)
            defer { try? source.close() }
            let destination = try Database(location: context.location(ofSibling: "copy.sqlite"))
            defer { try? destination.close() }
            context.attempt("backup")
            do {
                try source.backup(to: destination, pagesPerStep: 4)
            } catch {
                context.probe(after: error) {
                    try Ledger.probe(source)
                    _ = try destination.fetchAll(String.self, sql: "SELECT name FROM sqlite_master")
                }
                throw error
            }
            context.reportDone("backup")
            return true
        }

        func verify(_ db: Database, outcome: Result<Bool, any Error>, context: FaultRunContext) throws {
            try Ledger.verify(db, context: context, seeded: 12)
            let copy = try Database(path: context.sibling("copy.sqlite"))
            defer { try? copy.close() }
            guard try copy.fetchAll(String.self, sql: "PRAGMA integrity_check") == ["ok"] else {
                throw FaultIssue(.integrity, "the backup's destination fails its integrity check")
            }
            // The probe writes into the source after the backup: its table is left out.
            let isComplete =
                try CopySweepTests.digest(copy, excluding: "probe") == CopySweepTests.digest(db, excluding: "probe")
            let isUnchanged =
                try copy.fetchAll(String.self, sql: "SELECT name FROM sqlite_master") == ["old"]
                && copy.fetchAll(String.self, sql: "SELECT value FROM old") == ["the old contents"]
            if case .success = outcome, !isComplete {
                throw FaultIssue(.lostCommit, "the backup reported success and its copy differs from the source")
            }
            guard isComplete || isUnchanged else {
                throw FaultIssue(
                    .halfApplied, "the backup failed and left its destination neither as it was nor a copy")
            }
            context.tally(isComplete ? "destinations found copied" : "destinations found unchanged")
        }
    }

    /// `backup(toFile:)` into a new file: the source reads through the fault-injecting VFS, the
    /// new file is written through the default one.
    struct BackupToNewFile: FaultScenario {
        func prepare(at path: String) throws {
            try CopySweepTests.prepareSource(at: path)
        }

        func run(_ context: FaultRunContext) throws -> Bool {
            let source = try Database(location: context.location)
            defer { try? source.close() }
            context.attempt("backup")
            do {
                try source.backup(toFile: context.sibling("new.sqlite"), pagesPerStep: 4)
            } catch {
                context.probe(after: error) { try Ledger.probe(source) }
                throw error
            }
            context.reportDone("backup")
            return true
        }

        func verify(_ db: Database, outcome: Result<Bool, any Error>, context: FaultRunContext) throws {
            try Ledger.verify(db, context: context, seeded: 12)
            let path = context.sibling("new.sqlite")
            guard case .success = outcome else {
                if FileManager.default.fileExists(atPath: path) {
                    throw FaultIssue(.halfApplied, "the backup failed and left a file at its destination")
                }
                context.tally("failed copies removed")
                return
            }
            let copy = try Database(path: path)
            defer { try? copy.close() }
            guard try copy.fetchAll(String.self, sql: "PRAGMA integrity_check") == ["ok"],
                try CopySweepTests.digest(copy, excluding: "probe") == CopySweepTests.digest(db, excluding: "probe")
            else {
                throw FaultIssue(.lostCommit, "the backup reported success and its copy differs from the source")
            }
            context.tally("copies verified")
        }
    }

    /// `VACUUM INTO` a new file, written through the source connection's VFS.
    struct VacuumInto: FaultScenario {
        func prepare(at path: String) throws {
            try CopySweepTests.prepareSource(at: path)
        }

        func run(_ context: FaultRunContext) throws -> Bool {
            let source = try Database(location: context.location)
            defer { try? source.close() }
            context.attempt("vacuum")
            do {
                // A plain path: SQLite writes the copy through the connection's VFS.
                try source.vacuum(into: context.sibling("copy.sqlite"))
            } catch {
                context.probe(after: error) { try Ledger.probe(source) }
                throw error
            }
            context.reportDone("vacuum")
            return true
        }

        func verify(_ db: Database, outcome: Result<Bool, any Error>, context: FaultRunContext) throws {
            try Ledger.verify(db, context: context, seeded: 12)
            let path = context.sibling("copy.sqlite")
            let exists = FileManager.default.fileExists(atPath: path)
            if case .failure = outcome {
                // A copy that failed half way must not be left behind, looking like a backup.
                if exists {
                    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
                    throw FaultIssue(.halfApplied, "VACUUM INTO failed and left a \(size)-byte file at its destination")
                }
                context.tally("failed copies removed")
                return
            }
            let copy = try Database(path: path)
            defer { try? copy.close() }
            guard try copy.fetchAll(String.self, sql: "PRAGMA integrity_check") == ["ok"] else {
                throw FaultIssue(.integrity, "the copy VACUUM INTO reported made fails its integrity check")
            }
            let source = try CopySweepTests.digest(db)
            guard try CopySweepTests.digest(copy) == source else {
                throw FaultIssue(.lostCommit, "the copy VACUUM INTO reported made differs from the source")
            }
            context.tally("copies verified")
        }
    }

    @Test func backup() throws {
        try SweepSettings.run(Backup(), named: "backup", coverage: .sample(16))
    }

    @Test func backupToNewFile() throws {
        try SweepSettings.run(BackupToNewFile(), named: "backup to a new file", coverage: .sample(16))
    }

    @Test func vacuumInto() throws {
        try SweepSettings.run(VacuumInto(), named: "VACUUM INTO", coverage: .sample(16))
    }
}
