import Foundation
import Slate
import SlatePostgres

/// The app's database: a pool on a SQLite file, or a PostgreSQL server. The queries are written
/// once (``TodoQueries``); this type runs a query on whichever engine the app started with.
public enum TodoDatabase: Sendable {
    case sqlite(DatabasePool)
    case postgreSQL(PostgreSQLDatabase)

    /// `sqlite` or `postgresql`.
    public var engine: String {
        switch self {
        case .sqlite: "sqlite"
        case .postgreSQL: "postgresql"
        }
    }

    func fetchAll<Statement: SelectStatement>(_ statement: Statement) async throws -> [Statement.Output]
    where Statement.Output: Sendable {
        switch self {
        case .sqlite(let pool): try await pool.read { db in try statement.fetchAll(db) }
        case .postgreSQL(let pg): try await statement.fetchAll(pg)
        }
    }

    func fetchOne<Statement: SelectStatement>(_ statement: Statement) async throws -> Statement.Output?
    where Statement.Output: Sendable {
        switch self {
        case .sqlite(let pool): try await pool.read { db in try statement.fetchOne(db) }
        case .postgreSQL(let pg): try await statement.fetchOne(pg)
        }
    }

    func fetchCount<Statement: SelectStatement>(_ statement: Statement) async throws -> Int {
        switch self {
        case .sqlite(let pool): try await pool.read { db in try statement.fetchCount(db) }
        case .postgreSQL(let pg): try await statement.fetchCount(pg)
        }
    }

    /// Inserts `record` and returns it as stored, with its new id.
    func insert<Record: Table & Sendable>(_ record: Record) async throws -> Record {
        let stored: [Record]
        switch self {
        case .sqlite(let pool): stored = try await pool.write { db in try Record.insert(record).execute(db) }
        case .postgreSQL(let pg): stored = try await Record.insert(record).execute(pg)
        }
        guard let first = stored.first else { throw APIError.internal("the insert returned no row") }
        return first
    }

    /// Runs an update; returns the number of rows it changed.
    func execute<Root: Table>(_ update: Update<Root>) async throws -> Int {
        switch self {
        case .sqlite(let pool): try await pool.write { db in try update.execute(db) }
        case .postgreSQL(let pg): try await update.execute(pg)
        }
    }

    /// Runs a delete; returns the number of rows it deleted.
    func execute<Root: Table>(_ delete: Delete<Root>) async throws -> Int {
        switch self {
        case .sqlite(let pool): try await pool.write { db in try delete.execute(db) }
        case .postgreSQL(let pg): try await delete.execute(pg)
        }
    }
}

/// `GET /lists/{id}/items?done=true&q=milk`.
struct ItemFilter: Sendable {
    var done: Bool?
    var titleContains: String?
}
