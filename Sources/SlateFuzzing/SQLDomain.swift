import CSQLite
import Foundation
import Slate

/// Real queries over Chinook and Northwind, mutated (tokens dropped, repeated, swapped or replaced,
/// queries spliced and wrapped, bytes changed), run through `execute`, `prepare` and the fetches
/// with random arguments, alone or in a transaction or savepoint.
///
/// The oracle: nothing crashes; everything thrown is a `DatabaseError` with a failure code and a
/// message; a transaction or savepoint that ends leaves no transaction open; the connection
/// answers the next query.
final class SQLDomain {
    private struct Sample {
        var name: String
        var pristine: Database
        var work: Database
        var queries: [String]
    }

    private var samples: [Sample] = []
    private let allQueries: [String]
    private var budget = 0

    /// Opens in-memory copies of the sample databases in `dataDirectory`; `extraQueries` join the
    /// seeds. Nothing writes files: `ATTACH` is refused by an authorizer and `VACUUM INTO` is not
    /// run (see ``run(_:_:)``).
    init(dataDirectory: URL, extraQueries: [String]) throws {
        allQueries = SQLCorpus.scripts + extraQueries + SQLCorpus.chinook + SQLCorpus.northwind
        for (name, queries) in [("chinook", SQLCorpus.chinook), ("northwind", SQLCorpus.northwind)] {
            let url = dataDirectory.appendingPathComponent("\(name).sqlite")
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw DatabaseError(
                    resultCode: .cantOpen, message: "no \(name).sqlite in \(dataDirectory.path): pass --data DIR")
            }
            var configuration = Database.Configuration()
            configuration.isReadOnly = true
            let pristine = try Database(
                location: .uri("file:\(url.path)?mode=ro&immutable=1"), configuration: configuration)
            samples.append(
                Sample(
                    name: name, pristine: pristine, work: try makeWorkingCopy(of: pristine),
                    queries: queries + SQLCorpus.scripts + extraQueries))
        }
    }

    private func makeWorkingCopy(of pristine: Database) throws -> Database {
        let work = try Database(location: .inMemory)
        try pristine.backup(to: work)
        // Bounds: no value above 10 MB, no statement longer than a few million VM steps.
        sqlite3_limit(work.handle, SQLITE_LIMIT_LENGTH, 10_000_000)
        sqlite3_limit(work.handle, SQLITE_LIMIT_ATTACHED, 0)
        work.setProgressHandler(every: 1000) { [unowned self] in
            budget -= 1
            return budget < 0
        }
        work.addAuthorizer { request in
            switch request.action {
            case .attach, .detach: .deny
            default: .allow
            }
        }
        return work
    }

    func run(_ entropy: inout Entropy, _ context: inout CaseContext) throws {
        let sampleIndex = entropy.int(0..<samples.count)
        let db = samples[sampleIndex].work
        let seed = entropy.chance(0.9) ? entropy.pick(samples[sampleIndex].queries) : entropy.pick(allQueries)
        var sql = SQLMutator.mutate(seed, &entropy, corpus: allQueries)
        var arguments = Self.arguments(&entropy)
        if entropy.chance(0.5), let count = try? db.prepare(sql: sql).parameterCount, count <= 8 {
            // As many positional arguments as the first statement has parameters.
            arguments = StatementArguments((0..<count).map { _ in Self.argument(&entropy) })
        }
        let changesBefore = db.totalChangesCount
        budget = 3000
        // `VACUUM INTO 'name'` would write a file where the process runs: not this harness's business.
        if sql.uppercased().contains("VACUUM"), sql.uppercased().contains("INTO") {
            sql = "VACUUM"
            context.report.count("VACUUM INTO replaced by VACUUM")
        }
        context.report.count("statements run")

        let scope = entropy.int(0...5)
        let api = entropy.int(0...6)
        do {
            switch scope {
            case 0:
                try db.transaction { try Self.call(api, db, sql, arguments, &entropy, &context) }
            case 1:
                try db.savepoint { try Self.call(api, db, sql, arguments, &entropy, &context) }
            default:
                try Self.call(api, db, sql, arguments, &entropy, &context)
            }
            context.report.exact += 1
        } catch let error as DatabaseError {
            context.report.refused += 1
            Self.checkError(error, sql: sql, &context)
        } catch {
            context.finding("threw \(type(of: error)), not DatabaseError", "\(Show.text(sql)): \(error)")
        }
        if scope <= 1, db.isInTransaction {
            // The SQL may have run its own BEGIN inside Slate's transaction; Slate's scope must
            // still not leave one open.
            context.finding(
                "a transaction was left open",
                "scope \(scope == 0 ? "transaction" : "savepoint") around \(Show.text(sql))")
        }
        // Once the call has returned and its statements and cursors are gone, no statement may
        // still be running: one would hold a read transaction open (pinning the WAL, blocking a
        // backup into the connection).
        var statement = sqlite3_next_stmt(db.handle, nil)
        while let current = statement {
            // SQLite leaves an EXPLAIN statement "busy" after SQLITE_DONE; it holds no transaction.
            if sqlite3_stmt_busy(current) != 0, !SQLLexer.isExplain(current) {
                let text = sqlite3_sql(current).map { String(cString: $0) } ?? "?"
                context.finding(
                    "a statement was left running",
                    "api \(api), scope \(scope): \(Show.text(text)) after \(Show.text(sql))")
                sqlite3_reset(current)
            }
            statement = sqlite3_next_stmt(db.handle, current)
        }
        if !db.isInTransaction, sqlite3_txn_state(db.handle, nil) != SQLITE_TXN_NONE {
            context.finding(
                "a transaction was left open outside any BEGIN", "api \(api), scope \(scope): \(Show.text(sql))")
        }
        // Whatever the statement did, the connection still answers.
        if db.isInTransaction { try? db.execute(sql: "ROLLBACK") }
        budget = 1000
        do {
            let one = try db.fetchValue(Int.self, sql: "SELECT 1")
            if one != 1 { context.finding("the connection answered SELECT 1 with \(one)", Show.text(sql)) }
        } catch {
            context.finding("the connection no longer answers", "after \(Show.text(sql)): \(error)")
        }
        // Back to the sample's data: a fresh copy after pragmas (connection state), a restore
        // after changes.
        let upper = sql.uppercased()
        if upper.contains("PRAGMA") || upper.contains("WRITABLE") || context.index % 200 == 199 {
            samples[sampleIndex].work = try makeWorkingCopy(of: samples[sampleIndex].pristine)
            context.report.count("connections reopened")
        } else if db.totalChangesCount != changesBefore || upper.contains("CREATE") || upper.contains("DROP")
            || upper.contains("ALTER")
        {
            budget = .max
            try samples[sampleIndex].pristine.backup(to: db)
            context.report.count("databases restored")
        }
    }

    /// Errors say what failed: a failure code (never OK, ROW or DONE) and a message.
    private static func checkError(_ error: DatabaseError, sql: String, _ context: inout CaseContext) {
        let code = error.resultCode
        if code == .ok || code == .row || code == .done {
            context.finding(
                "an error with a success code",
                "\(error.extendedResultCode.rawValue) for \(Show.text(sql)): \(error.message)")
        }
        if error.message.isEmpty {
            context.finding(
                "an error without a message", "code \(error.extendedResultCode.rawValue) for \(Show.text(sql))")
        }
        context.report.count("errors by code: \(code)")
        if error.sql == nil {
            context.finding(
                "an error without its SQL",
                "\(error.extendedResultCode.rawValue) for \(Show.text(sql)): \(error.message)")
        }
    }

    private static func call(
        _ api: Int, _ db: Database, _ sql: String, _ arguments: StatementArguments, _ entropy: inout Entropy,
        _ context: inout CaseContext
    ) throws {
        switch api {
        case 0:
            try db.execute(sql: sql, arguments: arguments)
        case 1:
            let statement = try db.prepare(sql: sql)
            if !arguments.isEmpty { try statement.bind(arguments) }
            var rows = 0
            while rows < 200, try statement.step() {
                rows += 1
                var readEntropy = entropy
                try statement.withCurrentRow { row in try readColumns(row, &readEntropy) }
                entropy = readEntropy
            }
        case 2:
            _ = try db.fetchAll(CopiedRow.self, sql: sql, arguments: arguments)
        case 3:
            let cursor = try db.fetchCursor(CopiedRow.self, sql: sql, arguments: arguments)
            var rows = 0
            while rows < 100, let row = try cursor.next() {
                rows += 1
                var readEntropy = entropy
                try row.withRow { row in try readColumns(row, &readEntropy) }
                entropy = readEntropy
            }
        case 4:
            switch entropy.int(0...4) {
            case 0: _ = try db.fetchOne(SQLValue.self, sql: sql, arguments: arguments)
            case 1: _ = try db.fetchOne(String.self, sql: sql, arguments: arguments)
            case 2: _ = try db.fetchOne(Int.self, sql: sql, arguments: arguments)
            case 3: _ = try db.fetchOne(Date.self, sql: sql, arguments: arguments)
            default: _ = try db.fetchValue(Double.self, sql: sql, arguments: arguments)
            }
        case 5:
            var readEntropy = entropy
            _ = try db.fetchAll(SQL(sql: sql, arguments: arguments)) { row in
                try readColumns(row, &readEntropy)
            }
            entropy = readEntropy
        default:
            let statement = try db.cachedStatement(sql: sql)
            if !arguments.isEmpty { try statement.bind(arguments) }
            try statement.run()
        }
    }

    /// Reads every column as a random type; a read may throw a `DatabaseError`, nothing else.
    private static func readColumns(_ row: borrowing Row, _ entropy: inout Entropy) throws {
        for index in 0..<(row.count + 1) {
            do {
                switch entropy.int(0...11) {
                case 0: _ = try row.decode(Int.self, at: index)
                case 1: _ = try row.decode(Double.self, at: index)
                case 2: _ = try row.decode(String.self, at: index)
                case 3: _ = try row.decode(Data.self, at: index)
                case 4: _ = try row.decode(Date.self, at: index)
                case 5: _ = try row.decode(UUID.self, at: index)
                case 6: _ = try row.decode(Decimal.self, at: index)
                case 7: _ = try row.decode(Bool.self, at: index)
                case 8: _ = try row.decode(Int8?.self, at: index)
                case 9: _ = try row.decode(URL.self, at: index)
                case 10: _ = row.value(at: index)
                default:
                    _ = try row.decode(
                        SQLValue.self, named: row.columnNames.indices.contains(index) ? row.columnNames[index] : "nope")
                }
            } catch is DatabaseError {
                continue
            }
        }
    }

    /// Zero to three arguments, positional or named, of any type.
    static func arguments(_ entropy: inout Entropy) -> StatementArguments {
        func value() -> (any SQLBindable)? { argument(&entropy) }
        var arguments = StatementArguments()
        if entropy.chance(0.4) { return arguments }
        for _ in 0..<entropy.int(0...3) { arguments.positional.append(value()) }
        if entropy.chance(0.3) {
            for name in [":pattern", "$genre", "@limit", ":name", ":phone", ":x"] where entropy.chance(0.3) {
                arguments.named[name] = value()
            }
        }
        return arguments
    }

    /// One argument of any type, or `nil`.
    static func argument(_ entropy: inout Entropy) -> (any SQLBindable)? {
        switch entropy.int(0...8) {
        case 0: return nil
        case 1: return Generate.int64(&entropy)
        case 2: return Generate.double(&entropy).isNaN ? 0.5 : Generate.double(&entropy)
        case 3: return Generate.string(&entropy)
        case 4: return Data(Generate.bytes(&entropy))
        case 5:
            return EncodedDate(Date(timeIntervalSince1970: Double(entropy.int(0...2_000_000_000))), strategy: .iso8601)
        case 6: return Generate.uuid(&entropy)
        case 7: return entropy.bool()
        default: return Generate.dateText(&entropy)
        }
    }
}

/// Mutations of SQL text, token by token and byte by byte.
enum SQLMutator {
    static let dictionary: [String] = [
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "NULL", "IS", "IN", "LIKE", "GLOB", "BETWEEN", "CASE", "WHEN",
        "THEN", "ELSE",
        "END", "JOIN", "LEFT", "CROSS", "ON", "USING", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION",
        "ALL", "EXCEPT",
        "INTERSECT", "WITH", "RECURSIVE", "AS", "DISTINCT", "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE",
        "RETURNING",
        "CREATE", "TABLE", "INDEX", "VIEW", "TRIGGER", "DROP", "ALTER", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT",
        "RELEASE",
        "PRAGMA", "EXPLAIN", "VACUUM", "ANALYZE", "WINDOW", "OVER", "PARTITION", "FILTER", "COLLATE", "NOCASE",
        "ESCAPE", "CAST",
        "DEFAULT", "PRIMARY", "KEY", "UNIQUE", "CHECK", "REFERENCES", "WITHOUT", "ROWID", "STRICT", "GENERATED",
        "ALWAYS",
        "*", ",", "(", ")", ";", ".", "=", "==", "<>", "!=", "<", "<=", ">", ">=", "+", "-", "/", "%", "||", "&", "|",
        "<<", ">>", "~",
        "?", "?1", "?2", "?999", "?32766", "?32767", "?0", "?-1", ":x", "@y", "$z", "$a::b(c)", ":pattern",
        "0", "1", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "1e308", "1e999",
        "0x7FFFFFFFFFFFFFFF",
        "0xFFFFFFFFFFFFFFFFF", "1.5", ".5", "1_000", "'a'", "''", "'it''s'", "x'00'", "x'FF00'", "X''", "x'0'",
        "'\u{0}'", "'é'",
        "\"Name\"", "[Order Details]", "`Track`", "\"\"", "rowid", "_rowid_", "oid", "Track", "Album", "Artist",
        "Customers", "Orders",
        "count(*)", "sum(", "max(", "length(", "substr(", "json(", "json_extract(", "printf(", "char(", "randomblob(",
        "zeroblob(",
        "typeof(", "coalesce(", "iif(", "abs(", "date(", "strftime(", "julianday(", "unixepoch(", "instr(", "hex(",
        "quote(",
        "/*", "*/", "--", "\n", "\t", " ", "NATURAL", "FULL", "RIGHT", "OUTER", "INDEXED", "MATCH", "REGEXP", "ESCAPE",
    ]

    /// Splits SQL into tokens as the one lexer (`SQLLexer`) reads them: words, numbers, quoted
    /// strings and names, parameters, operators, space and comments.
    static func tokenize(_ sql: String) -> [String] {
        let lexer = SQLLexer(sql, includingTrivia: true)
        return lexer.map { lexer.text(of: $0) }
    }

    static func mutate(_ seed: String, _ entropy: inout Entropy, corpus: [String]) -> String {
        if entropy.chance(0.25) { return seed }  // the seed itself, unmutated
        var tokens = tokenize(seed)
        // One mutation most of the time, so that much of the SQL still runs.
        for _ in 0..<(entropy.chance(0.6) ? 1 : entropy.int(2...4)) {
            guard !tokens.isEmpty else {
                tokens = [entropy.pick(dictionary)]
                continue
            }
            let index = entropy.int(0..<tokens.count)
            switch entropy.int(0...11) {
            case 0: tokens.remove(at: index)
            case 1: tokens.insert(tokens[index], at: index)
            case 2:
                let other = entropy.int(0..<tokens.count)
                tokens.swapAt(index, other)
            case 3, 4: tokens[index] = entropy.pick(dictionary)
            case 5: tokens.insert(" " + entropy.pick(dictionary) + " ", at: index)
            case 6:
                // Splice: a piece of another query.
                let other = tokenize(entropy.pick(corpus))
                let start = entropy.int(0..<max(1, other.count))
                let length = entropy.int(0...min(12, max(0, other.count - start)))
                tokens.insert(contentsOf: other[start..<min(other.count, start + length)], at: index)
            case 7: tokens = Array(tokens.prefix(index))
            case 8:
                // A string or name token changed inside.
                var scalars = Array(tokens[index].unicodeScalars)
                let position = entropy.int(0...scalars.count)
                let scalar = entropy.pick(
                    ["'", "\"", "]", "\u{0}", "\\", "%", "_", "é", "\u{FFFD}", "😀", "\n", "*/"] as [String])
                scalars.insert(contentsOf: scalar.unicodeScalars, at: position)
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars)
                tokens[index] = String(view)
            case 9:
                // A number at an edge.
                tokens[index] = entropy.pick([
                    "0", "-0", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e308",
                    "-1e308", "4.9e-324", "NaN", "0x8000000000000000", "2147483648", "-1",
                ])
            case 10:
                tokens[index] =
                    tokens[index].uppercased() == tokens[index]
                    ? tokens[index].lowercased() : tokens[index].uppercased()
            default:
                tokens.insert(";", at: index)
            }
        }
        var sql = tokens.joined()
        switch entropy.int(0...14) {
        case 0: sql = "SELECT * FROM (\(sql))"
        case 1: sql = "EXPLAIN \(sql)"
        case 2: sql = "EXPLAIN QUERY PLAN \(sql)"
        case 3: sql = "WITH fuzz AS (\(sql)) SELECT * FROM fuzz"
        case 4: sql = sql + "; " + entropy.pick(corpus)
        case 5:
            let depth = entropy.int(10...300)
            sql =
                "SELECT " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
                + " FROM (\(sql))"
        case 6:
            let count = entropy.int(10...2000)
            sql = "SELECT * FROM Track WHERE TrackId IN (" + (0..<count).map(String.init).joined(separator: ",") + ")"
        case 7: sql = "  \n" + sql + " ;; -- end"
        default: break
        }
        return sql
    }
}
