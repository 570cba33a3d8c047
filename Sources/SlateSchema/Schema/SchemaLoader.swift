import CSQLite
import Foundation
import SlateCore
import SlateQuery

/// Loads a schema from the inputs `slate generate` accepts: one SQLite database file, or one or
/// more `.sql` files.
///
/// - A database file (recognized by its `SQLite format 3` header, or by a `.sqlite`, `.sqlite3`,
///   `.db` or `.db3` extension) is opened read-only, as an immutable snapshot, so generating never
///   changes it and needs no write access to its directory.
/// - `.sql` files are applied in name order (by file name, then by path) to a private in-memory
///   database. Dumps made with the `sqlite3` shell's `.schema` command load as they are: their
///   `CREATE TABLE sqlite_sequence(…)` and `sqlite_stat1` statements, which SQLite refuses to run,
///   are skipped.
///
/// ```swift
/// let schema = try SchemaLoader.load(from: [URL(fileURLWithPath: "northwind.sqlite")])
/// let same = try SchemaLoader.load(from: [URL(fileURLWithPath: "northwind.schema.sql")])
/// ```
public enum SchemaLoader {
    /// What a list of inputs is.
    public enum InputKind: Sendable, Hashable {
        /// One SQLite database file.
        case databaseFile(URL)
        /// SQL scripts, in the order they are applied.
        case sqlScripts([URL])
    }

    /// The file extensions taken as SQLite database files, lowercased.
    public static let databaseExtensions: Set<String> = ["sqlite", "sqlite3", "db", "db3"]

    /// Loads the schema of `inputs`. Named queries (statements labelled `-- name: …`) are not
    /// part of the schema: they are skipped here, and described by
    /// ``loadSchemaAndQueries(from:)``.
    ///
    /// - Throws: ``SchemaError`` for no input, several database files, a database file mixed with
    ///   SQL scripts that hold schema statements, an unreadable file, or a failing SQL statement;
    ///   ``DatabaseError`` when a schema query fails.
    public static func load(from inputs: [URL]) throws -> DatabaseSchema {
        try load(inputs, analyzingQueries: false).schema
    }

    /// Loads the schema of `inputs` and describes the named queries of their `.sql` files: one
    /// database file with `.sql` files of named queries, or `.sql` files holding the schema and
    /// named queries.
    ///
    /// ```swift
    /// let loaded = try SchemaLoader.loadSchemaAndQueries(from: [chinookFile, queriesFile])
    /// for query in loaded.queries {
    ///     print(query.name, query.parameters.map(\.name), query.columns.map { ($0.name, $0.isNullable) })
    /// }
    /// ```
    ///
    /// Each named query is prepared by SQLite against the schema (the database file, or the
    /// in-memory database the scripts built).
    ///
    /// - Throws: ``SchemaError`` as ``load(from:)`` does, and
    ///   ``SchemaError/invalidQuery(file:line:name:message:)`` for a query SQLite refuses or whose
    ///   parameter types cannot be told.
    public static func loadSchemaAndQueries(from inputs: [URL]) throws -> SchemaAndQueries {
        try load(inputs, analyzingQueries: true)
    }

    /// Tells whether `inputs` are one database file (with `.sql` files of named queries) or SQL
    /// scripts (sorted in application order).
    static func partition(_ inputs: [URL]) throws -> (database: URL?, scripts: [URL]) {
        guard !inputs.isEmpty else { throw SchemaError.noInput }
        var databases: [URL] = []
        var scripts: [URL] = []
        for url in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw SchemaError.missingFile(path: url.path)
            }
            if isDirectory.boolValue { throw SchemaError.unreadableFile(path: url.path, reason: "it is a directory") }
            if isDatabaseFile(url) { databases.append(url) } else { scripts.append(url) }
        }
        if databases.count > 1 {
            throw SchemaError.invalidInputs(
                "give one database file at a time; got \(databases.map(\.path).joined(separator: ", "))")
        }
        return (databases.first, sortedScripts(scripts))
    }

    static func load(_ inputs: [URL], analyzingQueries: Bool) throws -> SchemaAndQueries {
        let (database, scripts) = try partition(inputs)
        var entries: [(file: String, entry: ScriptEntry)] = []
        for url in scripts {
            for entry in try ScriptEntry.entries(in: try readScript(url), file: url.path) {
                entries.append((url.path, entry))
            }
        }
        var warnings: [SchemaWarning] = []
        let db: Database
        if let database {
            if let schemaStatement = entries.first(where: { $0.entry.name == nil }) {
                throw SchemaError.invalidInputs(
                    "a database file (\(database.path)) cannot be combined with SQL schema statements "
                        + "(\(schemaStatement.file), line \(schemaStatement.entry.statement.line)); "
                        + "next to a database file, .sql files may only hold named queries (-- name: …)")
            }
            db = try openReadOnly(database)
        } else {
            db = try Database(location: .inMemory)
            for (file, entry) in entries where entry.name == nil {
                try apply(entry.statement, file: file, to: db, warnings: &warnings)
            }
        }
        var viewWarnings: [SchemaWarning] = []
        let schema = try SchemaReader.read(from: db, warnings: &viewWarnings)
        // A view's warning names the file and line of its CREATE VIEW, when a script made it.
        for var warning in viewWarnings {
            if let view = schema.views.first(where: { warning.message.hasPrefix("the view \($0.name) ") }),
                let (file, entry) = entries.first(where: { createdView($0.entry.statement.text) == view.name })
            {
                warning.file = file
                warning.line = entry.statement.line
            }
            warnings.append(warning)
        }
        guard analyzingQueries else { return SchemaAndQueries(schema: schema, warnings: warnings) }
        let queries = try QueryAnalyzer(db: db, schema: schema).analyze(entries)
        return SchemaAndQueries(schema: schema, queries: queries, warnings: warnings)
    }

    /// The text of an SQL script.
    static func readScript(_ url: URL) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SchemaError.unreadableFile(path: url.path, reason: error.localizedDescription)
        }
        if data.contains(0) {
            throw SchemaError.unreadableFile(path: url.path, reason: "it holds NUL bytes: it is not an SQL text file")
        }
        guard let script = String(data: data, encoding: .utf8) else {
            throw SchemaError.unreadableFile(path: url.path, reason: "it is not UTF-8 text")
        }
        return script
    }

    /// Tells whether `inputs` are one database file or SQL scripts (sorted in application order).
    ///
    /// - Throws: ``SchemaError`` for an empty list, a missing file, several database files, or a
    ///   database file mixed with scripts.
    public static func classify(_ inputs: [URL]) throws -> InputKind {
        guard !inputs.isEmpty else { throw SchemaError.noInput }
        var databases: [URL] = []
        var scripts: [URL] = []
        for url in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw SchemaError.missingFile(path: url.path)
            }
            if isDirectory.boolValue { throw SchemaError.unreadableFile(path: url.path, reason: "it is a directory") }
            if isDatabaseFile(url) { databases.append(url) } else { scripts.append(url) }
        }
        if databases.count > 1 {
            throw SchemaError.invalidInputs(
                "give one database file at a time; got \(databases.map(\.path).joined(separator: ", "))")
        }
        if let database = databases.first {
            guard scripts.isEmpty else {
                throw SchemaError.invalidInputs(
                    "a database file (\(database.path)) cannot be combined with SQL files (\(scripts.map(\.path).joined(separator: ", ")))"
                )
            }
            return .databaseFile(database)
        }
        return .sqlScripts(sortedScripts(scripts))
    }

    /// Scripts in application order: by file name, then by full path.
    public static func sortedScripts(_ urls: [URL]) -> [URL] {
        urls.sorted { lhs, rhs in
            let left = lhs.lastPathComponent
            let right = rhs.lastPathComponent
            if left != right { return left.unicodeScalars.lexicographicallyPrecedes(right.unicodeScalars) }
            return lhs.path.unicodeScalars.lexicographicallyPrecedes(rhs.path.unicodeScalars)
        }
    }

    /// Whether `url` is an SQLite database file: its first 16 bytes are SQLite's header, or it has
    /// a database extension.
    public static func isDatabaseFile(_ url: URL) -> Bool {
        if let handle = try? FileHandle(forReadingFrom: url) {
            defer { try? handle.close() }
            if let header = try? handle.read(upToCount: 16), header == Data("SQLite format 3\0".utf8) {
                return true
            }
        }
        return databaseExtensions.contains(url.pathExtension.lowercased())
    }

    /// Opens the database file at `url` read-only and reads its schema.
    ///
    /// - Throws: ``SchemaError/unreadableFile(path:reason:)`` when the file cannot be opened as a
    ///   database.
    public static func loadDatabase(at url: URL) throws -> DatabaseSchema {
        let db = try openReadOnly(url)
        return try SchemaReader.read(from: db)
    }

    /// Opens `url` read-only as an immutable snapshot: no lock, no journal, no `-shm` file.
    public static func openReadOnly(_ url: URL) throws -> Database {
        var configuration = Database.Configuration()
        configuration.isReadOnly = true
        configuration.foreignKeysEnabled = false
        configuration.statementCacheCapacity = 16
        let path = url.standardizedFileURL.path
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        do {
            return try Database(location: .uri("file:\(encoded)?mode=ro&immutable=1"), configuration: configuration)
        } catch let error as DatabaseError {
            throw SchemaError.unreadableFile(path: url.path, reason: error.message)
        }
    }

    /// Applies `urls` in the given order to a new in-memory database and reads its schema.
    ///
    /// - Throws: ``SchemaError/statementFailed(file:line:statement:message:)`` for the first
    ///   statement SQLite refuses.
    public static func loadScripts(_ urls: [URL]) throws -> DatabaseSchema {
        let db = try Database(location: .inMemory)
        for url in urls {
            try apply(try readScript(url), file: url.path, to: db)
        }
        return try SchemaReader.read(from: db)
    }

    /// Runs the schema statements of `script` on `db`, one at a time. `file` names the script in
    /// errors. Named queries (statements labelled `-- name: …`) are not run.
    ///
    /// Statements creating SQLite's reserved `sqlite_*` tables, which `.schema` dumps contain and
    /// SQLite refuses, are skipped.
    ///
    /// - Throws: ``SchemaError/statementFailed(file:line:statement:message:)``, or
    ///   ``SchemaError/invalidQuery(file:line:name:message:)`` for a malformed label.
    ///
    /// A statement that SQLite refuses only because it uses double-quoted string literals, which
    /// the `sqlite3` shell accepts (`INSERT INTO tags VALUES ("canine")`), runs as the shell runs
    /// it; ``loadSchemaAndQueries(from:)`` reports it in ``SchemaAndQueries/warnings``.
    public static func apply(_ script: String, file: String, to db: Database) throws {
        var warnings: [SchemaWarning] = []
        for entry in try ScriptEntry.entries(in: script, file: file) where entry.name == nil {
            try apply(entry.statement, file: file, to: db, warnings: &warnings)
        }
    }

    static func apply(
        _ statement: SQLLexer.Statement, file: String, to db: Database, warnings: inout [SchemaWarning]
    ) throws {
        // Double-quoted strings change what a name means, so they matter when SQLite prepares the
        // statement: a statement that prepares without them runs without them.
        var handle: OpaquePointer?
        let prepared = sqlite3_prepare_v2(db.handle, statement.text, -1, &handle, nil)
        let strictMessage = String(cString: sqlite3_errmsg(db.handle))
        sqlite3_finalize(handle)
        do {
            if prepared == SQLITE_OK || createsReservedTable(statement.text) {
                try db.execute(sql: statement.text)
            } else {
                try DoubleQuotedStrings.accepting(on: db) { try db.execute(sql: statement.text) }
                warnings.append(
                    SchemaWarning(
                        file: file, line: statement.line,
                        message: DoubleQuotedStrings.statementWarning(strictMessage, statement: statement.text)))
            }
        } catch let error as DatabaseError {
            if createsReservedTable(statement.text) { return }
            throw SchemaError.statementFailed(
                file: file, line: statement.line, statement: statement.text,
                message: prepared == SQLITE_OK ? error.message : strictMessage)
        }
    }

    /// The view `CREATE [TEMP] VIEW [IF NOT EXISTS] [schema.]name …` creates, or `nil`.
    static func createdView(_ sql: String) -> String? {
        var tokens = SQLLexer.lexemes(of: sql)[...]
        guard tokens.first?.isKeyword("CREATE") == true else { return nil }
        tokens = tokens.dropFirst()
        if let first = tokens.first, first.isKeyword("TEMP") || first.isKeyword("TEMPORARY") {
            tokens = tokens.dropFirst()
        }
        guard tokens.first?.isKeyword("VIEW") == true else { return nil }
        tokens = tokens.dropFirst()
        if tokens.count >= 3, tokens[tokens.startIndex].isKeyword("IF") { tokens = tokens.dropFirst(3) }
        if tokens.count >= 3, tokens[tokens.startIndex + 1].isSymbol(".") { tokens = tokens.dropFirst(2) }
        return tokens.first.flatMap { $0.isName ? $0.text : nil }
    }

    /// The input a generated database type is named after: the database file; else the first
    /// `.sql` file, in the order given, that holds schema statements (a file of named queries
    /// only does not name the database); else the first input.
    ///
    /// ```swift
    /// SchemaLoader.namingInput([schema, queries])   // schema.sql: "SchemaDatabase"
    /// SchemaLoader.namingInput([queries, schema])   // schema.sql too
    /// ```
    public static func namingInput(_ inputs: [URL]) -> URL? {
        if let database = inputs.first(where: isDatabaseFile) { return database }
        let holdsSchema = inputs.first { url in
            guard let script = try? readScript(url), let entries = try? ScriptEntry.entries(in: script, file: url.path)
            else { return false }  // unreadable: loading it reports why
            return entries.contains { $0.name == nil }
        }
        return holdsSchema ?? inputs.first
    }

    /// Whether `sql` is `CREATE TABLE [IF NOT EXISTS] sqlite_…`.
    static func createsReservedTable(_ sql: String) -> Bool {
        var tokens = SQLLexer.lexemes(of: sql)[...]
        guard tokens.first?.isKeyword("CREATE") == true else { return false }
        tokens = tokens.dropFirst()
        if let first = tokens.first, first.isKeyword("TEMP") || first.isKeyword("TEMPORARY") {
            tokens = tokens.dropFirst()
        }
        guard tokens.first?.isKeyword("TABLE") == true else { return false }
        tokens = tokens.dropFirst()
        if tokens.count >= 3, tokens[tokens.startIndex].isKeyword("IF") { tokens = tokens.dropFirst(3) }
        if tokens.count >= 3, tokens[tokens.startIndex + 1].isSymbol(".") { tokens = tokens.dropFirst(2) }
        guard let name = tokens.first, name.isName else { return false }
        return name.text.lowercased().hasPrefix("sqlite_")
    }
}

/// Why a schema could not be loaded.
public enum SchemaError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// No input file was given.
    case noInput
    /// An input file does not exist.
    case missingFile(path: String)
    /// An input file exists but cannot be read as a database or as UTF-8 SQL.
    case unreadableFile(path: String, reason: String)
    /// The inputs cannot be used together.
    case invalidInputs(String)
    /// SQLite refused a statement of an SQL file.
    case statementFailed(file: String, line: Int, statement: String, message: String)
    /// A view cannot be queried, for example because it selects from a table that does not exist.
    case unusableView(name: String, message: String)
    /// A named query of an SQL file cannot be used: SQLite refused it, or the types of its
    /// parameters or results cannot be told. The message says which and what to do.
    case invalidQuery(file: String, line: Int, name: String, message: String)

    /// A one-paragraph explanation, naming the file, line, statement and SQLite's message.
    public var description: String {
        switch self {
        case .noInput:
            return "no input: give a SQLite database file or one or more .sql files"
        case .missingFile(let path):
            return "no such file: \(path)"
        case .unreadableFile(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .invalidInputs(let reason):
            return "invalid inputs: \(reason)"
        case .unusableView(let name, let message):
            return "the view \(name) cannot be read: \(message)"
        case .invalidQuery(let file, let line, let name, let message):
            return "\(file):\(line): query \(name): \(message)"
        case .statementFailed(let file, let line, let statement, let message):
            let excerpt = statement.count > 400 ? String(statement.prefix(400)) + " …" : statement
            return
                "\(file):\(line): SQLite refused a statement: \(message)\n    \(excerpt.replacingOccurrences(of: "\n", with: "\n    "))"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
