import Foundation
import SlateCore

/// Two tables with a foreign key, a composite key, and every storage class.
func makeSessionDatabase(foreignKeys: Bool = true) throws -> Database {
    var configuration = Database.Configuration()
    configuration.foreignKeysEnabled = foreignKeys
    let db = try Database(location: .inMemory, configuration: configuration)
    try db.execute(
        sql: """
            CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
            CREATE TABLE player(
                id INTEGER PRIMARY KEY,
                team INTEGER REFERENCES team(id),
                name TEXT NOT NULL,
                score REAL CHECK (score >= 0),
                photo BLOB);
            CREATE TABLE membership(season INTEGER, player INTEGER, role TEXT, PRIMARY KEY (player, season));
            CREATE TABLE note(body TEXT);
            """)
    return db
}

/// Every row of every table but SQLite's, as text, in a stable order: two databases with the same
/// dump hold the same data.
func sessionDump(_ db: Database) throws -> [String] {
    let tables = try db.fetchAll(
        String.self,
        sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    var lines: [String] = []
    for table in tables {
        let rows = try db.fetchAll(SQL(sql: "SELECT * FROM \"\(table)\"")) { row in
            table + ": " + row.values.map(\.debugDescription).joined(separator: ", ")
        }
        lines += rows.sorted()
    }
    return lines
}

/// A database with the same schema as `db`, and its data.
func sessionCopy(of db: Database) throws -> Database {
    let copy = try Database(location: .inMemory)
    try db.backup(to: copy)
    return copy
}
