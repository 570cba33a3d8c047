#if canImport(SlatePostgres)
    import SlateCore
    import SlatePostgres
    import Testing

    /// `PostgreSQLError.resultCode`: the SQLite code of each SQLSTATE, without a server.
    @Suite struct PostgreSQLErrorResultCodeTests {
        @Test(arguments: [
            ("23505", ResultCode.constraintUnique), ("23503", .constraintForeignKey), ("23502", .constraintNotNull),
            ("23514", .constraintCheck), ("23P01", .constraint), ("22003", .range), ("22P02", .mismatch),
            ("40001", .busy), ("40P01", .busy), ("55P03", .busy), ("57014", .interrupt), ("42501", .permission),
            ("25006", .readOnly), ("08006", .ioError), ("42P01", .error),
        ])
        func sqlStateMapsToItsClosestCode(sqlState: String, expected: ResultCode) {
            #expect(PostgreSQLError(sqlState: sqlState, message: "m").resultCode == expected)
        }

        /// The server ended the connection (or refused it), and said why: the same code as a
        /// connection the driver saw close, so one check tells that the connection is gone.
        @Test(arguments: ["57P01", "57P02", "57P03", "57P05"])
        func serverEndingTheConnectionIsAnIOError(sqlState: String) {
            let error = PostgreSQLError(
                sqlState: sqlState, message: "terminating connection due to administrator command")
            #expect(error.resultCode == .ioError)
            #expect(error.resultCode == PostgreSQLError(sqlState: nil, message: "closed").resultCode)
        }

        /// Class 57's other codes are not connection losses: a cancelled statement is an
        /// interrupt, a dropped database or an operator's intervention a plain error (a retry on a
        /// new connection would not help).
        @Test func otherOperatorInterventionsAreNotConnectionLosses() {
            #expect(PostgreSQLError(sqlState: "57014", message: "m").resultCode == .interrupt)
            #expect(PostgreSQLError(sqlState: "57P04", message: "m").resultCode == .error)
            #expect(PostgreSQLError(sqlState: "57000", message: "m").resultCode == .error)
        }
    }
#endif
