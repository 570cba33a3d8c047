import GRDB
import Slate

/// How durable each commit of the reports' pools is, the same for both libraries.
///
/// GRDB's `DatabasePool` sets `PRAGMA synchronous = NORMAL`: in WAL mode a commit does not wait for
/// the disk, and the last commits may roll back after a power loss. Slate keeps SQLite's default,
/// `FULL`: a commit is on disk when it returns (docs/RELIABILITY.md). Compared at their defaults, the
/// writers measure the disk's flush, not the libraries, so the reports set both pools to the same
/// level and say which.
enum Durability: String {
    case normal = "NORMAL"
    case full = "FULL"

    /// `PRAGMA synchronous` reads this back.
    var pragmaValue: Int {
        switch self {
        case .normal: 1
        case .full: 2
        }
    }

    /// A Slate configuration whose connections run `PRAGMA synchronous = <level>` when they open.
    static func slate(_ level: Durability) -> Slate.Database.Configuration {
        var configuration = Slate.Database.Configuration()
        configuration.prepareDatabase = { db in try db.execute(sql: "PRAGMA synchronous = \(level.rawValue)") }
        return configuration
    }

    /// A GRDB pool with `readers` readers whose writer runs at `level`. GRDB sets NORMAL on its
    /// writer after the configuration's `prepareDatabase` runs, so another level is set once the
    /// pool is open (only the writer's setting matters: readers do not commit). NORMAL is left to
    /// GRDB, and the check reads the level outside a transaction. Setting NORMAL again and checking
    /// inside `write` made half of the `--quick` reports fail later, GRDB's writer refused with
    /// `SQLITE_BUSY` on `BEGIN IMMEDIATE` beside 8 readers (GRDB's writer does not wait for locks by
    /// default); as written here, 8 runs of 8 passed. Which of the two caused it was not analysed.
    static func grdbPool(path: String, _ level: Durability, readers: Int = 5) throws -> GRDB.DatabasePool {
        var configuration = GRDB.Configuration()
        configuration.maximumReaderCount = readers
        let pool = try GRDB.DatabasePool(path: path, configuration: configuration)
        if level != .normal {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(level.rawValue)") }
        }
        try check(pool, level)
        return pool
    }

    /// Throws unless both pools' writers run at `level` (GRDB sets NORMAL itself when it opens a
    /// pool; this checks that the configuration's setting is the one in force).
    static func check(_ slate: Slate.DatabasePool, _ grdb: GRDB.DatabasePool, _ level: Durability) throws {
        try check(slate, level)
        try check(grdb, level)
    }

    static func check(_ slate: Slate.DatabasePool, _ level: Durability) throws {
        let found = try slate.write { db in try db.fetchValue(Int.self, "PRAGMA synchronous") }
        guard found == level.pragmaValue else {
            throw HarnessError("slate's writer runs at synchronous = \(found), not \(level.pragmaValue)")
        }
    }

    static func check(_ grdb: GRDB.DatabasePool, _ level: Durability) throws {
        let found = try grdb.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        guard found == level.pragmaValue else {
            throw HarnessError(
                "GRDB's writer runs at synchronous = \(String(describing: found)), not \(level.pragmaValue)")
        }
    }
}
