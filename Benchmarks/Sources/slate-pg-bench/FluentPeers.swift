// Fluent on PostgreSQL (fluent-postgres-driver), beside the hand-written postgres-nio code: the
// same fetch and insert, in Fluent's documented form (`Model.query(on:).all()`, `create(on:)` per
// model in `transaction`), through the driver's own connection pool on the same server.
// `SLATE_BENCH_WITHOUT_PEERS=1` leaves it out (see Package.swift).
import Foundation
import Logging

#if !SLATE_BENCH_WITHOUT_PEERS
    import FluentKit
    import FluentPostgresDriver
    import NIOPosix

    /// Fluent's databases, on the server whose socket directory is `socketDirectory`.
    final class FluentPostgres: @unchecked Sendable {
        let databases: Databases
        let database: any FluentKit.Database

        init(socketDirectory: String, logger: Logger) throws {
            databases = Databases(threadPool: .singleton, on: MultiThreadedEventLoopGroup.singleton)
            databases.use(
                .postgres(
                    configuration: SQLPostgresConfiguration(
                        unixDomainSocketPath: socketDirectory + "/.s.PGSQL.5432", username: "postgres",
                        database: "postgres")),
                as: .psql)
            guard let database = databases.database(.psql, logger: logger, on: databases.eventLoopGroup.any()) else {
                throw CommandFailure(description: "Fluent has no PostgreSQL database")
            }
            self.database = database
        }

        /// The Fluent contenders of fetch-all-N and insert-N.
        func contenders(scenario: String, insertCount: Int) -> [Contender] {
            let database = database
            if scenario.hasPrefix("fetch-all") {
                return [
                    Contender("fluent-model") {
                        let items = try await FluentItem.query(on: database).all()
                        checksum.add(items.count)
                    }
                ]
            }
            return [
                Contender("fluent-model") {
                    try await database.transaction { database in
                        for index in 0..<insertCount {
                            let item = FluentItem(name: "new \(index)", score: 1.5, count: index)
                            try await item.create(on: database)
                            checksum.add(item.id ?? 0)
                        }
                    }
                }
            ]
        }
    }

    /// `item(id, name, score, count)` as a Fluent model.
    final class FluentItem: Model, @unchecked Sendable {
        static let schema = "item"

        @ID(custom: "id", generatedBy: .database) var id: Int?
        @Field(key: "name") var name: String
        @Field(key: "score") var score: Double
        @Field(key: "count") var count: Int

        init() {}

        init(name: String, score: Double, count: Int) {
            self.name = name
            self.score = score
            self.count = count
        }
    }
#else
    /// Fluent, left out of this build (`SLATE_BENCH_WITHOUT_PEERS=1`).
    final class FluentPostgres: Sendable {
        init(socketDirectory: String, logger: Logger) throws {}
        func contenders(scenario: String, insertCount: Int) -> [Contender] { [] }
    }
#endif
