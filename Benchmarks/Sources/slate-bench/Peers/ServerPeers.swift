// What server-side Swift users pick instead of Slate: Vapor's SQLiteNIO with raw SQL, and Fluent
// models through fluent-sqlite-driver, as contenders of the SQLite scenarios (fetch into records,
// insert in one transaction, primary-key lookups, filter + order). Each runs in its documented,
// idiomatic form: `connection.query(sql, binds)` and `row.column(name)?.integer` for SQLiteNIO;
// `Model.query(on:)`, `find(_:on:)`, `filter`/`sort` and a batch `create(on:)` in a transaction for
// Fluent. Both are async APIs over SwiftNIO: a contender's timed region runs one task and waits
// for it (`blocking`), so the region includes the hops to SQLiteNIO's thread pool and back.
//
// SQLiteNIO (and so Fluent's SQLite driver) compiles its own copy of SQLite (3.53.0, with
// `SQLITE_DEFAULT_MEMSTATUS=0` and other options of its own), not the system library that `raw`,
// Slate and GRDB call: the counts below include a different build of SQLite.
//
// Built only when the manifest includes the peers (the default; `SLATE_BENCH_WITHOUT_PEERS=1`
// leaves them out, as `run-quick.sh` does for CI): see Package.swift.
#if !SLATE_BENCH_WITHOUT_PEERS
    import Dispatch
    import FluentKit
    import FluentSQLiteDriver
    import Foundation
    import Logging
    import NIOCore
    import NIOPosix
    import SQLiteNIO

    /// The shared setup of the Vapor-stack contenders.
    enum ServerPeers {
        static let logger = Logger(label: "slate-bench.peers")

        /// Runs `body` as a task and waits for it: the synchronous harness times async APIs this way.
        static func blocking<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) throws -> Result {
            let box = ResultBox<Result>()
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    box.result = .success(try await body())
                } catch {
                    box.result = .failure(error)
                }
                done.signal()
            }
            done.wait()
            guard let result = box.result else { throw HarnessError("a peer's task ended without a result") }
            return try result.get()
        }

        /// Where `blocking` hands the task's result to the waiting thread (after the semaphore).
        final class ResultBox<Result>: @unchecked Sendable {
            var result: Swift.Result<Result, any Error>?
        }

        /// An SQLiteNIO connection to `path`, on SQLiteNIO's default thread pool and event loop.
        static func sqliteNIOConnection(_ path: String) throws -> SQLiteConnection {
            try blocking { try await SQLiteConnection.open(storage: .file(path: path)) }
        }

        /// Fluent's databases for the SQLite file at `path`, and its database for one event loop.
        final class FluentStore: @unchecked Sendable {
            let databases: Databases
            let database: any FluentKit.Database

            init(path: String) throws {
                databases = Databases(threadPool: .singleton, on: MultiThreadedEventLoopGroup.singleton)
                databases.use(.sqlite(.file(path)), as: .sqlite)
                guard let database = databases.database(logger: ServerPeers.logger, on: databases.eventLoopGroup.any())
                else {
                    throw HarnessError("Fluent has no SQLite database")
                }
                self.database = database
            }

            /// Runs SQL on Fluent's connection (SQLKit, which Fluent's SQLite driver is built on).
            func execute(_ sql: String) throws {
                guard let sqlDatabase = database as? any SQLDatabase else {
                    throw HarnessError("Fluent's SQLite database is not an SQLDatabase")
                }
                try ServerPeers.blocking { try await sqlDatabase.raw(SQLQueryString(sql)).run() }
            }

            func shutdown() {
                databases.shutdown()
            }
        }

        /// An integer column of an SQLiteNIO row, read by name as its documentation shows.
        static func integer(_ row: SQLiteRow, _ name: String) throws -> Int {
            guard let value = row.column(name)?.integer else { throw HarnessError("sqlitenio: no integer \(name)") }
            return value
        }

        static func item(_ row: SQLiteRow) throws -> Item {
            Item(
                i0: try integer(row, "i0"), i1: try integer(row, "i1"), i2: try integer(row, "i2"),
                i3: try integer(row, "i3"), i4: try integer(row, "i4"), i5: try integer(row, "i5"),
                i6: try integer(row, "i6"), i7: try integer(row, "i7"), i8: try integer(row, "i8"),
                i9: try integer(row, "i9"))
        }

        static func binds(_ item: Item) -> [SQLiteData] {
            [
                .integer(item.i0), .integer(item.i1), .integer(item.i2), .integer(item.i3), .integer(item.i4),
                .integer(item.i5), .integer(item.i6), .integer(item.i7), .integer(item.i8), .integer(item.i9),
            ]
        }

        // MARK: Scenarios

        /// `fetch-200k-ints`: every row of `item` into `[Item]`.
        static func fetchIntegers(path: String) throws -> [Contender] {
            let connection = try sqliteNIOConnection(path)
            let fluent = try FluentStore(path: path)
            return [
                Contender("sqlitenio-raw") { stopwatch in
                    try stopwatch.measure {
                        try blocking {
                            try await connection.query(Item.selectAll).map(item)
                        }
                    }.checksum
                },
                Contender("fluent-model") { stopwatch in
                    let database = fluent.database
                    return try stopwatch.measure {
                        try blocking {
                            try await FluentItem.query(on: database).all().map(\.item)
                        }
                    }.checksum
                },
            ]
        }

        /// `insert-50k`: every item in one transaction into a fresh file. `prepareFile` deletes the
        /// previous file and creates the table (`PRAGMA synchronous = OFF` is per connection, so
        /// each contender sets it on its own); `verify` reads the file back.
        static func insert(
            items: [Item], path: String, prepareFile: @escaping () throws -> Void,
            verify: @escaping () throws -> Checksum
        ) -> [Contender] {
            [
                Contender("sqlitenio-raw") { stopwatch in
                    try prepareFile()
                    let connection = try sqliteNIOConnection(path)
                    try blocking { _ = try await connection.query("PRAGMA synchronous = OFF") }
                    try stopwatch.measure {
                        try blocking {
                            _ = try await connection.query("BEGIN")
                            for item in items { _ = try await connection.query(Item.insert, binds(item)) }
                            _ = try await connection.query("COMMIT")
                        }
                    }
                    try blocking { try await connection.close() }
                    return try verify()
                },
                Contender("fluent-model") { stopwatch in
                    try prepareFile()
                    let fluent = try FluentStore(path: path)
                    defer { fluent.shutdown() }
                    try fluent.execute("PRAGMA synchronous = OFF")
                    let database = fluent.database
                    // Models are classes that `create` updates: made anew for each iteration, untimed.
                    let models = items.map(FluentItem.init)
                    try stopwatch.measure {
                        try blocking {
                            try await database.transaction { database in
                                // Fluent's batch create: one multi-row INSERT per chunk. Chunks of
                                // 1,000 rows stay within SQLite's limit on bound parameters.
                                for start in stride(from: 0, to: models.count, by: 1_000) {
                                    try await models[start..<min(start + 1_000, models.count)].create(on: database)
                                }
                            }
                        }
                    }
                    fluent.shutdown()
                    return try verify()
                },
            ]
        }

        /// `pk-lookups-100k`: every id once, in `ids` order, in one read transaction.
        static func primaryKeyLookups(path: String, ids: [Int]) throws -> [Contender] {
            let connection = try sqliteNIOConnection(path)
            let fluent = try FluentStore(path: path)
            return [
                Contender("sqlitenio-raw") { stopwatch in
                    try stopwatch.measure {
                        try blocking {
                            var found: [KeyedItem] = []
                            _ = try await connection.query("BEGIN")
                            for id in ids {
                                guard let row = try await connection.query(KeyedItem.selectByID, [.integer(id)]).first
                                else {
                                    throw HarnessError("sqlitenio: no row for id \(id)")
                                }
                                found.append(KeyedItem(id: try integer(row, "id"), item: try item(row)))
                            }
                            _ = try await connection.query("COMMIT")
                            return found
                        }
                    }.checksum
                },
                Contender("fluent-find") { stopwatch in
                    let database = fluent.database
                    return try stopwatch.measure {
                        try blocking {
                            try await database.transaction { database in
                                var found: [KeyedItem] = []
                                for id in ids {
                                    guard let model = try await FluentKeyedItem.find(id, on: database) else {
                                        throw HarnessError("fluent: no row for id \(id)")
                                    }
                                    found.append(model.keyedItem)
                                }
                                return found
                            }
                        }
                    }.checksum
                },
            ]
        }

        /// `builder-filter-order`: `i0 > a AND i1 < b ORDER BY i2`.
        static func filterOrder(path: String, i0Above: Int, i1Below: Int) throws -> [Contender] {
            let connection = try sqliteNIOConnection(path)
            let fluent = try FluentStore(path: path)
            return [
                Contender("sqlitenio-raw") { stopwatch in
                    try stopwatch.measure {
                        try blocking {
                            try await connection.query(
                                Item.selectAll + " WHERE i0 > ? AND i1 < ? ORDER BY i2",
                                [.integer(i0Above), .integer(i1Below)]
                            ).map(item)
                        }
                    }.checksum
                },
                Contender("fluent-builder") { stopwatch in
                    let database = fluent.database
                    return try stopwatch.measure {
                        try blocking {
                            try await FluentItem.query(on: database)
                                .filter(\.$i0 > i0Above)
                                .filter(\.$i1 < i1Below)
                                .sort(\.$i2)
                                .all()
                                .map(\.item)
                        }
                    }.checksum
                },
            ]
        }
    }

    /// `item(i0 … i9)` as a Fluent model. The table has no key column of its own, so the model's
    /// identifier is SQLite's `rowid` (Fluent requires one).
    final class FluentItem: Model, @unchecked Sendable {
        static let schema = "item"

        @ID(custom: "rowid", generatedBy: .database) var id: Int?
        @Field(key: "i0") var i0: Int
        @Field(key: "i1") var i1: Int
        @Field(key: "i2") var i2: Int
        @Field(key: "i3") var i3: Int
        @Field(key: "i4") var i4: Int
        @Field(key: "i5") var i5: Int
        @Field(key: "i6") var i6: Int
        @Field(key: "i7") var i7: Int
        @Field(key: "i8") var i8: Int
        @Field(key: "i9") var i9: Int

        init() {}

        init(_ item: Item) {
            i0 = item.i0
            i1 = item.i1
            i2 = item.i2
            i3 = item.i3
            i4 = item.i4
            i5 = item.i5
            i6 = item.i6
            i7 = item.i7
            i8 = item.i8
            i9 = item.i9
        }

        var item: Item {
            Item(i0: i0, i1: i1, i2: i2, i3: i3, i4: i4, i5: i5, i6: i6, i7: i7, i8: i8, i9: i9)
        }
    }

    /// `keyed_item(id INTEGER PRIMARY KEY, i0 … i9)` as a Fluent model.
    final class FluentKeyedItem: Model, @unchecked Sendable {
        static let schema = "keyed_item"

        @ID(custom: "id", generatedBy: .database) var id: Int?
        @Field(key: "i0") var i0: Int
        @Field(key: "i1") var i1: Int
        @Field(key: "i2") var i2: Int
        @Field(key: "i3") var i3: Int
        @Field(key: "i4") var i4: Int
        @Field(key: "i5") var i5: Int
        @Field(key: "i6") var i6: Int
        @Field(key: "i7") var i7: Int
        @Field(key: "i8") var i8: Int
        @Field(key: "i9") var i9: Int

        init() {}

        var keyedItem: KeyedItem {
            KeyedItem(
                id: id ?? -1, item: Item(i0: i0, i1: i1, i2: i2, i3: i3, i4: i4, i5: i5, i6: i6, i7: i7, i8: i8, i9: i9)
            )
        }
    }
#else
    /// The Vapor-stack contenders, left out of this build (`SLATE_BENCH_WITHOUT_PEERS=1`).
    enum ServerPeers {
        static func fetchIntegers(path: String) throws -> [Contender] { [] }
        static func insert(
            items: [Item], path: String, prepareFile: @escaping () throws -> Void,
            verify: @escaping () throws -> Checksum
        ) -> [Contender] { [] }
        static func primaryKeyLookups(path: String, ids: [Int]) throws -> [Contender] { [] }
        static func filterOrder(path: String, i0Above: Int, i1Below: Int) throws -> [Contender] { [] }
    }
#endif
