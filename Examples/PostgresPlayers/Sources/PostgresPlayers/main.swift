import Foundation
import Logging
import PostgresNIO
import Slate
import SlatePostgres

// One table and the same typed queries, run on SQLite (in memory) and on the PostgreSQL server
// that DATABASE_URL or the PG* variables name. On PostgreSQL everything runs in one transaction
// that is rolled back at the end (PostgreSQL's DDL is transactional): the server's database is
// left as it was.

/// A player. `@Table` writes this conformance for you (product `SlateMacros`); it is written by
/// hand here so that the example does not build swift-syntax.
struct Player: PrimaryKeyedTable, Sendable, CustomStringConvertible {
    var id: Int64?
    var name: String
    var team: String
    var score: Int64

    static let schema = TableSchema(
        name: "player",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
            .init(name: "team", type: "TEXT", isNotNull: true),
            .init(name: "score", type: "INTEGER", isNotNull: true),
        ])

    struct Columns: TableColumns {
        let id: Column<Player, Int64?>
        let name: Column<Player, String>
        let team: Column<Player, String>
        let score: Column<Player, Int64>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            name = Column(qualifier, "name")
            team = Column(qualifier, "team")
            score = Column(qualifier, "score")
        }
    }

    init(id: Int64? = nil, name: String, team: String, score: Int64) {
        self.id = id
        self.name = name
        self.team = team
        self.score = score
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
        team = try row.decode(at: 2)
        score = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(name)
        try encoder.encode(team)
        try encoder.encode(score)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }

    var primaryKey: Int64? { id }

    var description: String { "#\(id.map(String.init) ?? "?") \(name) (\(team), \(score))" }
}

let roster = [
    Player(name: "Arthur", team: "red", score: 7),
    Player(name: "Barbara", team: "blue", score: 12),
    Player(name: "Craig", team: "red", score: 3),
    Player(name: "Dana", team: "blue", score: 9),
    Player(name: "Emil", team: "green", score: 5),
]

// MARK: The queries, written once

/// Players scoring more than `minimum`, by name.
func strongPlayers(above minimum: Int64) -> Select<Player> {
    Player.where { $0.score > minimum }.order { $0.name }
}

/// Each team, its number of players and its best score.
func teams() -> Selection<Player.Columns, (String, Int, Int64?)> {
    Player.all().group { $0.team }.order { $0.team }.select { ($0.team, $0.id.count(), $0.score.max()) }
}

/// The update both engines run: a bonus for one team.
func bonus(for team: String) -> Update<Player> {
    Player.update { $0.score.set(to: $0.score + 10) }.where { $0.team == team }
}

func printResults(_ engine: String, strong: [Player], teams: [(String, Int, Int64?)], updated: Int, after: [Player]) {
    print("\(engine):")
    print("  score > 5, by name: " + strong.map(\.description).joined(separator: ", "))
    print(
        "  teams: "
            + teams.map { "\($0.0): \($0.1) player\($0.1 == 1 ? "" : "s"), best \($0.2.map(String.init) ?? "-")" }
            .joined(separator: "; "))
    print("  bonus for blue: \(updated) rows; now " + after.map(\.description).joined(separator: ", "))
}

// MARK: SQLite

func runOnSQLite() throws {
    let db = try Database()  // in memory
    try db.createTable(for: Player.self)
    try db.insert(contentsOf: roster)
    let strong = try strongPlayers(above: 5).fetchAll(db)
    let summary = try teams().fetchAll(db)
    let updated = try bonus(for: "blue").execute(db)
    let after = try Player.where { $0.team == "blue" }.order { $0.name }.fetchAll(db)
    printResults("SQLite", strong: strong, teams: summary, updated: updated, after: after)
}

// MARK: PostgreSQL

/// Thrown to roll the example's transaction back.
struct RollBack: Error {}

struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// The server from DATABASE_URL (`postgres://user:password@host:port/database`), else from PGHOST
/// (a host name, or the directory of a Unix socket), PGPORT, PGUSER, PGPASSWORD and PGDATABASE.
/// The example connects without TLS.
func serverConfiguration() throws -> PostgresClient.Configuration {
    let environment = ProcessInfo.processInfo.environment
    if let url = environment["DATABASE_URL"] {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw UsageError(description: "DATABASE_URL is not a postgres://user:password@host:port/database URL")
        }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value
        guard sslMode == nil || sslMode == "disable" else {
            throw UsageError(
                description: "this example connects without TLS; sslmode=\(sslMode ?? "") is not supported")
        }
        let database = String(components.path.dropFirst())
        return .init(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password,
            database: database.isEmpty ? nil : database, tls: .disable)
    }
    guard let host = environment["PGHOST"] else {
        throw UsageError(
            description:
                "set DATABASE_URL=postgres://user:password@host:port/database, or PGHOST (and PGPORT, PGUSER, PGPASSWORD, PGDATABASE)"
        )
    }
    let port = environment["PGPORT"].flatMap { Int($0) } ?? 5432
    let user = environment["PGUSER"] ?? environment["USER"] ?? "postgres"
    let database = environment["PGDATABASE"] ?? user
    if host.hasPrefix("/") {
        return .init(
            unixSocketPath: host + "/.s.PGSQL.\(port)", username: user, password: environment["PGPASSWORD"],
            database: database)
    }
    return .init(
        host: host, port: port, username: user, password: environment["PGPASSWORD"], database: database, tls: .disable)
}

func runOnPostgreSQL(_ configuration: PostgresClient.Configuration) async throws {
    let client = PostgresClient(configuration: configuration)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }  // the pool runs while the example does
        group.addTask {
            // postgres-nio's pool retries a server that does not answer: give up after a while.
            try await Task.sleep(for: .seconds(30))
            throw UsageError(
                description:
                    "no answer from the PostgreSQL server in 30 seconds: is it running, and do DATABASE_URL or PG* name it?"
            )
        }
        group.addTask { try await playOnPostgreSQL(PostgreSQLDatabase(client: client)) }
        // The first task to finish is the example (the pool runs until cancelled, the timer throws).
        try await group.next()
        group.cancelAll()
    }
}

func playOnPostgreSQL(_ pg: PostgreSQLDatabase) async throws {
    do {
        try await pg.transaction { tx in
            try await tx.createTable(for: Player.self)
            try await tx.insert(contentsOf: roster)  // ids chosen by PostgreSQL
            let strong = try await strongPlayers(above: 5).fetchAll(tx)
            let summary = try await teams().fetchAll(tx)
            let updated = try await bonus(for: "blue").execute(tx)
            let after = try await Player.where { $0.team == "blue" }.order { $0.name }.fetchAll(tx)
            printResults("PostgreSQL", strong: strong, teams: summary, updated: updated, after: after)
            throw RollBack()
        }
    } catch is RollBack {
        print("  (rolled back: the server's database is unchanged)")
    }
}

do {
    try runOnSQLite()
    try await runOnPostgreSQL(try serverConfiguration())
} catch {
    print("error: \(error)")
    exit(1)
}
