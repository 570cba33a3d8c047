#if canImport(SlatePostgres)
    import Foundation
    import Logging
    import PostgresNIO
    import Slate
    @testable import SlatePostgres
    import SlatePostgresTesting
    import Testing

    extension PostgresFaultTests {
        /// Statements on connections the server closed (docs/RELIABILITY.md, "a statement hung forever
        /// on a connection the server had closed"). Every wait is bounded: a hang fails the test. Nested
        /// in the serialized suite, so that its restart of the server never runs at the same time.
        @Suite struct ClosedConnections {
            /// The cause, shown on postgres-nio alone: a query written to a connection whose close has
            /// completed never completes (vapor/postgres-nio#487, reverted by #501). If this test fails,
            /// postgres-nio fixed it, and `queryFailingOnClose` may go.
            @Test func postgresNIONeverCompletesAQueryOnAClosedConnection() async throws {
                try await PostgresFaultTests.guarded {
                    let server = try await FaultPostgresServer.shared.value
                    let client = server.client(database: "postgres", connections: 1)
                    try await client.withConnection { connection in
                        try await Self.terminate(connection, on: server)
                        let completed = await Self.completes(within: 2) {
                            _ = try await connection.query("SELECT 1", logger: FaultPostgresServer.logger)
                        }
                        #expect(!completed, "postgres-nio now completes a query on a closed connection")
                        // Slate's send fails at once, saying that nothing was sent.
                        let error = await #expect(throws: PostgreSQLError.self) {
                            try await PostgresFaultTests.within(10) {
                                _ = try await connection.queryFailingOnClose(
                                    "SELECT 1", logger: FaultPostgresServer.logger, outcomeUnknown: true,
                                    executor: EventLoopTaskExecutor(connection.eventLoop))
                            }
                        }
                        #expect(error?.driverCode == "serverClosedConnection")
                        #expect(
                            error?.message.contains("before the statement was sent") == true,
                            "\(String(describing: error))")
                    }
                }
            }

            /// In a transaction, whose statements run on their connection's event loop, a statement on a
            /// connection whose close has completed fails at once, saying that nothing was sent (without
            /// the check on the loop, postgres-nio 1.33.2 would drop it and the transaction would wait
            /// forever); the transaction is rolled back and the pool serves the next statement.
            @Test func aStatementAfterTheCloseInATransactionFailsUnsent() async throws {
                try await PostgresFaultTests.guarded {
                    let (server, _, pg) = try await PostgresFaultTests.database("fault_unsent", connections: 1)
                    try await pg.execute("CREATE TABLE t(x INTEGER)")
                    let error = await #expect(throws: PostgreSQLError.self) {
                        try await PostgresFaultTests.within(30) {
                            try await pg.transaction { tx in
                                try await tx.execute("INSERT INTO t VALUES (1)")
                                try await Self.terminate(tx.connection, on: server)
                                try await tx.execute("INSERT INTO t VALUES (2)")
                            }
                        }
                    }
                    #expect(error?.driverCode == "serverClosedConnection", "\(String(describing: error))")
                    #expect(error?.resultCode == .ioError)
                    #expect(error?.sql == "INSERT INTO t VALUES (2)")
                    #expect(
                        error?.message.contains("before the statement was sent") == true, "\(String(describing: error))"
                    )
                    let count = try await PostgresFaultTests.within(30) {
                        try await pg.fetchValue(Int.self, "SELECT count(*)::integer FROM t")
                    }
                    #expect(count == 0)
                }
            }

            /// A statement cut off by its connection's close (here the client's, while the server
            /// sleeps; a statement without rows, whose result postgres-nio gives only once it completed) fails
            /// with a connection error that says what is known: outside a transaction,
            /// whether it took effect is unknown; inside one, the server rolls it back.
            @Test(arguments: [true, false])
            func aStatementCutOffSaysWhatIsKnown(outcomeUnknown: Bool) async throws {
                try await PostgresFaultTests.guarded {
                    let server = try await FaultPostgresServer.shared.value
                    let client = server.client(database: "postgres", connections: 1)
                    try await client.withConnection { connection in
                        let closing = Task {
                            try await Task.sleep(for: .milliseconds(300))
                            try await connection.close().get()
                        }
                        let error = await #expect(throws: PostgreSQLError.self) {
                            try await PostgresFaultTests.within(10) {
                                _ = try await connection.queryFailingOnClose(
                                    "DO $$BEGIN PERFORM pg_sleep(5); END$$", logger: FaultPostgresServer.logger,
                                    outcomeUnknown: outcomeUnknown,
                                    executor: EventLoopTaskExecutor(connection.eventLoop))
                            }
                        }
                        try await closing.value
                        #expect(error?.sqlState == nil, "\(String(describing: error))")
                        #expect(error?.resultCode == .ioError)
                        #expect(error?.driverCode == "clientClosedConnection", "\(String(describing: error))")
                        let known =
                            outcomeUnknown ? "whether it took effect is unknown" : "rolls the open transaction back"
                        #expect(error?.message.contains(known) == true, "\(String(describing: error))")
                    }
                }
            }

            /// A transaction's task runs on its connection's event loop from statement to statement
            /// (it prefers the loop as its executor), instead of hopping to the global pool and back
            /// for each.
            @Test func aTransactionStaysOnItsConnectionsLoop() async throws {
                try await PostgresFaultTests.guarded {
                    let server = try await FaultPostgresServer.shared.value
                    let pg = PostgreSQLDatabase(
                        client: server.client(database: "postgres", connections: 1), logger: FaultPostgresServer.logger)
                    let onLoop = try await pg.transaction { tx in
                        var onLoop: [Bool] = []
                        for _ in 0..<3 {
                            _ = try await tx.fetchValue(Int.self, "SELECT 1")
                            onLoop.append(tx.connection.eventLoop.inEventLoop)
                        }
                        return onLoop
                    }
                    #expect(onLoop == [true, true, true])
                }
            }

            /// Work that a transaction's closure moves off its connection's loop (as the PostgreSQL
            /// article advises for long computations) runs off it, and the statements after it are
            /// still sent (checked on the loop for their send) and committed.
            @Test func workMovedOffTheLoopInATransactionStillCommits() async throws {
                try await PostgresFaultTests.guarded {
                    let (_, _, pg) = try await PostgresFaultTests.database("off_loop", connections: 1)
                    try await pg.execute("CREATE TABLE t(x INTEGER)")
                    let offLoop = try await pg.transaction { tx in
                        try await tx.execute("INSERT INTO t VALUES (1)")
                        let offLoop = await withTaskExecutorPreference(globalConcurrentExecutor) {
                            !tx.connection.eventLoop.inEventLoop
                        }
                        try await withTaskExecutorPreference(globalConcurrentExecutor) {
                            try await tx.execute("INSERT INTO t VALUES (2)")
                        }
                        try await tx.execute("INSERT INTO t VALUES (3)")
                        return offLoop
                    }
                    #expect(offLoop)
                    #expect(try await pg.fetchAll(Int.self, "SELECT x FROM t ORDER BY x") == [1, 2, 3])
                }
            }

            /// The hang of 2026-11-29: a transaction whose backend was terminated gave its connection
            /// back to the pool while the connection was closing; the pool handed it to the next
            /// statement, which waited forever. On a pool of one connection, the statement right after
            /// each failed transaction must run, on a new connection. Without the fix, this timed out
            /// (the statement never completed) in 2 runs of 3 with 25 rounds, 3 of 3 with 100.
            @Test func theStatementAfterATerminatedTransactionRuns() async throws {
                try await PostgresFaultTests.guarded {
                    let (server, _, pg) = try await PostgresFaultTests.database("fault_closed", connections: 1)
                    var pids: Set<Int> = []
                    for round in 1...100 {
                        try await PostgresFaultTests.within(30) {
                            let error = await #expect(throws: PostgreSQLError.self) {
                                try await pg.transaction { tx in
                                    try await tx.execute("SELECT 1")
                                    try server.terminateBackend(
                                        try await tx.fetchValue(Int.self, "SELECT pg_backend_pid()"))
                                    try await tx.execute("SELECT 2")
                                }
                            }
                            #expect(
                                error?.sqlState == "57P01" || error?.driverCode != nil,
                                "round \(round): \(String(describing: error))")
                        }
                        let pid = try await PostgresFaultTests.within(30) {
                            try await pg.fetchValue(Int.self, "SELECT pg_backend_pid()")
                        }
                        #expect(pids.insert(pid).inserted, "round \(round): a backend served twice")
                    }
                }
            }

            /// A connection that closed while it sat idle in the pool (its backend terminated) is not
            /// used again: the next statement runs on a new connection. (This passed before the fix
            /// too: the pool forgets a connection once its close completes. Within the close, Slate
            /// takes another connection, since nothing was sent on the closed one; no test reaches
            /// that window on purpose.)
            @Test func aConnectionClosedWhileIdleIsNotUsedAgain() async throws {
                try await PostgresFaultTests.guarded {
                    let (server, _, pg) = try await PostgresFaultTests.database("fault_idle", connections: 1)
                    for round in 1...10 {
                        let pid = try await PostgresFaultTests.within(30) {
                            try await pg.fetchValue(Int.self, "SELECT pg_backend_pid()")
                        }
                        try server.terminateBackend(pid)
                        // Until the client has read the server's goodbye, the connection looks open: a
                        // statement sent then fails with a clear error. Once it is closed, none fails.
                        try await Self.waitForClose(of: pid, on: server)
                        let next = try await PostgresFaultTests.within(30) {
                            try await pg.fetchValue(Int.self, "SELECT pg_backend_pid()")
                        }
                        #expect(next != pid, "round \(round)")
                    }
                }
            }

            /// Terminates the backend of `connection` and waits until the connection is closed.
            static func terminate(_ connection: PostgresConnection, on server: FaultPostgresServer) async throws {
                var pid = 0
                for try await row in try await connection.query(
                    "SELECT pg_backend_pid()", logger: FaultPostgresServer.logger)
                {
                    pid = try row.decode(Int.self)
                }
                try server.terminateBackend(pid)
                try await PostgresFaultTests.within(10) { try await connection.closeFuture.get() }
            }

            /// Waits (at most 10 s) until the server no longer lists backend `pid`, then 200 ms for the
            /// client to read the connection's end.
            static func waitForClose(of pid: Int, on server: FaultPostgresServer) async throws {
                let deadline = Date().addingTimeInterval(10)
                while try server.psql("SELECT count(*) FROM pg_stat_activity WHERE pid = \(pid)")
                    .trimmingCharacters(in: .whitespacesAndNewlines) != "0"
                {
                    guard Date() < deadline else {
                        throw PostgresTestServer.ServerError(message: "backend \(pid) lives on")
                    }
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Task.sleep(for: .milliseconds(200))
            }

            /// Whether `body` returns (or throws) within `limit`; a body that never does is left behind.
            static func completes(within seconds: Double, _ body: @escaping @Sendable () async throws -> Void) async
                -> Bool
            {
                do {
                    try await PostgresFaultTests.within(seconds) {
                        do { try await body() } catch {}
                        return true
                    }
                    return true
                } catch {
                    return false
                }
            }
        }
    }
#endif
