import Foundation
import SlateCore

// `eraseDatabaseOnSchemaChange`: noticing that applied migrations changed, and erasing.

extension Migrator {
    /// Whether an applied migration changed since it was applied.
    func needsErase(_ db: Database) throws -> Bool {
        let records = try db.fetchAll("SELECT identifier, checksum FROM \(identifier: tableName) ORDER BY rowid") {
            row -> (identifier: String, checksum: String?) in (try row[0], try row[1])
        }
        guard !records.isEmpty else { return false }
        var registered: [String: Migration] = [:]
        for migration in migrations where registered[migration.identifier] == nil {
            registered[migration.identifier] = migration
        }
        var appliedClosures = false
        for record in records {
            // An applied migration that is no longer registered, or whose SQL changed.
            guard let migration = registered[record.identifier], migration.checksum == record.checksum else {
                return true
            }
            if migration.checksum == nil { appliedClosures = true }
        }
        guard appliedClosures else { return false }
        let applied = Set(records.map(\.identifier))
        return try Self.schemaFingerprint(of: db) != referenceFingerprint(applying: applied, configuredLike: db)
    }

    /// The schema the applied migrations build in an empty in-memory database.
    private func referenceFingerprint(applying applied: Set<String>, configuredLike db: Database) throws -> [String] {
        var configuration = db.configuration
        configuration.isReadOnly = false
        configuration.createsFile = true
        let reference = try Database(location: .inMemory, configuration: configuration)
        try createTable(in: reference)
        for migration in migrations where applied.contains(migration.identifier) {
            try apply(migration, to: reference, notifying: false)
        }
        return try Self.schemaFingerprint(of: reference)
    }

    /// The schema of the main database, without SQLite's internal objects.
    static func schemaFingerprint(of db: Database) throws -> [String] {
        try db.fetchAll(
            """
            SELECT type, name, tbl_name, sql FROM sqlite_master
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY type, name
            """
        ) { row -> String in
            let parts: [String?] = [try row[0], try row[1], try row[2], try row[3]]
            return parts.map { $0 ?? "NULL" }.joined(separator: "\u{1F}")
        }
    }

    /// Drops every view and table, with their indexes and triggers, in one transaction.
    func erase(_ db: Database) throws {
        let foreignKeysWereOn = try db.fetchValue(Bool.self, sql: "PRAGMA foreign_keys")
        if foreignKeysWereOn { try db.execute(sql: "PRAGMA foreign_keys = OFF") }
        try db.restoring({ if foreignKeysWereOn { try db.execute(sql: "PRAGMA foreign_keys = ON") } }) {
            try eraseInTransaction(db)
        }
    }

    /// The transaction of ``erase(_:)``.
    private func eraseInTransaction(_ db: Database) throws {
        try db.transaction(.immediate) {
            let objects = try db.fetchAll(
                """
                SELECT type, name, coalesce(sql, '') FROM sqlite_master
                WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                """
            ) { row -> (type: String, name: String, sql: String) in (try row[0], try row[1], try row[2]) }
            let isVirtual = { (sql: String) in SchemaIntrospection.virtualModule(sql) != nil }
            // Views first, then virtual tables (which drop their shadow tables), then the rest.
            for object in objects where object.type == "view" {
                try db.execute(sql: "DROP VIEW IF EXISTS \(object.name.quotedIdentifier)")
            }
            for object in objects where object.type == "table" && isVirtual(object.sql) {
                try db.execute(sql: "DROP TABLE IF EXISTS \(object.name.quotedIdentifier)")
            }
            for object in objects where object.type == "table" && !isVirtual(object.sql) {
                try db.execute(sql: "DROP TABLE IF EXISTS \(object.name.quotedIdentifier)")
            }
        }
    }
}
