import CSQLite
import SlateConcurrency
import SlateCore

// Running an eager load: the parent statement, then one statement per level for all the parents'
// keys at once (more only when the keys exceed what one statement may bind), then each parent
// assembled with its values. The same steps run on SQLite (synchronously) and on an asynchronous
// engine (`PrefetchStatementRunner`); only the loops that run statements are written twice.

extension EagerLoad {
    /// Every record with its related records.
    public func fetchAll(_ db: Database) throws -> [Output] {
        try tuples(fetch(db, forOne: false)).map { $0.value }
    }

    /// The first record with its related records, or `nil`. Adds `LIMIT 1` to the parent query
    /// unless it has a limit.
    public func fetchOne(_ db: Database) throws -> Output? {
        try tuples(fetch(db, forOne: true)).first?.value
    }

    /// Every record with its related records, each handed to `make` by position: a type's
    /// memberwise initializer, such as `ArtistInfo.init` for `struct ArtistInfo { var artist:
    /// Artist; var albums: [Album] }`.
    ///
    /// ```swift
    /// let infos: [ArtistInfo] = try Artist.all().including(all: \.albums).fetchAll(db, as: ArtistInfo.init)
    /// ```
    public func fetchAll<Result>(_ db: Database, as make: (Root, repeat each Loaded) throws -> Result) throws
        -> [Result]
    {
        try made(fetch(db, forOne: false), make)
    }

    /// Validates the levels, then runs the statements, in a transaction when none is open.
    private func fetch(_ db: Database, forOne: Bool) throws -> LoadedRows<Root> {
        try validate()
        if hasPrefetchLevels && !db.isInTransaction {
            return try db.transaction(.deferred) { try load(db, restriction: nil, forOne: forOne) }
        }
        return try load(db, restriction: nil, forOne: forOne)
    }

    /// Whether a level runs a statement of its own (not only annotations).
    package var hasPrefetchLevels: Bool { levels.contains { !$0.isAnnotation } }

    /// Throws the error of the first level (at any depth) that cannot run.
    package func validate() throws {
        if let error = query.clauses.render().buildError { throw error }
        for level in levels { try level.validate() }
    }

    // MARK: Running

    /// The rows of the records (restricted to `restriction`'s keys, each with the key it
    /// matched) and their levels' values, on SQLite.
    func load(_ db: Database, restriction: PrefetchRestriction?, forOne: Bool) throws -> LoadedRows<Root> {
        let maximum = Int(sqlite3_limit(db.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        let keyWidth = restriction?.path.hops.first?.incoming.count
        var rows: [LoadedRow<Root>] = []
        for sql in try statements(restriction: restriction, forOne: forOne, maximumBoundValues: maximum) {
            try db.withStatement(sql) { statement in
                while try statement.step() {
                    rows.append(try read(Row(statement: statement), keyWidth: keyWidth))
                }
            }
        }
        var values: [LevelValues?] = []
        for (index, level) in levels.enumerated() {
            values.append(level.isAnnotation ? nil : try level.load(db, Self.distinctKeys(rows, level: index)))
        }
        return LoadedRows(rows: rows, values: values)
    }

    /// The same as ``load(_:restriction:forOne:)``, on an asynchronous engine.
    package func load(_ runner: any PrefetchStatementRunner, restriction: PrefetchRestriction?, forOne: Bool)
        async throws -> LoadedRows<Root>
    {
        let keyWidth = restriction?.path.hops.first?.incoming.count
        var rows: [LoadedRow<Root>] = []
        for sql in try statements(
            restriction: restriction, forOne: forOne, maximumBoundValues: runner.maximumBoundValues)
        {
            try await runner.forEachRow(sql) { row in rows.append(try read(row, keyWidth: keyWidth)) }
        }
        var values: [LevelValues?] = []
        for (index, level) in levels.enumerated() {
            values.append(
                level.isAnnotation ? nil : try await level.loadAsync(runner, Self.distinctKeys(rows, level: index)))
        }
        return LoadedRows(rows: rows, values: values)
    }

    /// Reads a row: the record, what each level needs, and (for a restricted statement) the
    /// parent key it matched, in the `keyWidth` columns after the record and annotations.
    private func read(_ row: borrowing Row, keyWidth: Int?) throws -> LoadedRow<Root> {
        let root = try Root(row: row)
        var parts: [LevelPart] = []
        parts.reserveCapacity(levels.count)
        var annotations = 0
        for level in levels {
            if let position = level.annotationPosition, let read = level.readAnnotation {
                parts.append(.value(try read(row, position)))
                annotations += 1
            } else {
                parts.append(.key(level.key(from: row)))
            }
        }
        var key: [SQLValue] = []
        if let keyWidth {
            let start = Root.schema.recordColumns.count + annotations
            key.reserveCapacity(keyWidth)
            for index in start..<(start + keyWidth) { key.append(row.value(at: index)) }
        }
        return LoadedRow(key: key, root: root, parts: parts)
    }

    /// The distinct keys the rows hold for the level at `index`, in the order first met.
    private static func distinctKeys(_ rows: [LoadedRow<Root>], level index: Int) -> [[SQLValue]] {
        var seen = Set<[SQLValue]>()
        var keys: [[SQLValue]] = []
        for row in rows {
            if case .key(let key?) = row.parts[index], seen.insert(key).inserted { keys.append(key) }
        }
        return keys
    }

    /// Each row's record and level values, as the result tuple; a row a required level has no
    /// value for is dropped.
    package func tuples(_ loaded: LoadedRows<Root>) throws -> [Keyed<Output>] {
        var results: [Keyed<Output>] = []
        results.reserveCapacity(loaded.rows.count)
        for row in loaded.rows {
            guard let parts = Self.parts(of: row, loaded.values) else { continue }
            var position = 0
            let output: Output = (row.root, repeat try Self.take((each Loaded).self, from: parts, at: &position))
            results.append(Keyed(key: row.key, value: output))
        }
        return results
    }

    /// Each row's record and level values, handed to `make`; a row a required level has no value
    /// for is dropped.
    package func made<Result>(_ loaded: LoadedRows<Root>, _ make: (Root, repeat each Loaded) throws -> Result) throws
        -> [Result]
    {
        var results: [Result] = []
        results.reserveCapacity(loaded.rows.count)
        for row in loaded.rows {
            guard let parts = Self.parts(of: row, loaded.values) else { continue }
            var position = 0
            results.append(try make(row.root, repeat try Self.take((each Loaded).self, from: parts, at: &position)))
        }
        return results
    }

    /// The values of a row's levels, or `nil` when a required level has none.
    private static func parts(of row: LoadedRow<Root>, _ values: [LevelValues?]) -> [Any]? {
        var parts: [Any] = []
        parts.reserveCapacity(row.parts.count)
        for (index, part) in row.parts.enumerated() {
            switch part {
            case .value(let value):
                parts.append(value)
            case .key(let key):
                guard let levelValues = values[index], let value = levelValues.value(key) else { return nil }
                parts.append(value)
            }
        }
        return parts
    }

    /// The value at `position`, as the level at that position made it, and moves to the next.
    private static func take<Value>(_ type: Value.Type, from parts: [Any], at position: inout Int) throws -> Value {
        guard position < parts.count, let value = parts[position] as? Value else {
            throw DatabaseError(
                resultCode: .internal, message: "an eager load's level \(position) did not load a \(Value.self)")
        }
        position += 1
        return value
    }
}

/// The rows of an eager load's statements and the values of their levels.
package struct LoadedRows<Root> {
    var rows: [LoadedRow<Root>]
    var values: [LevelValues?]
}

/// One row of an eager load's statement: the key of the parent it matched (restricted
/// statements), the record, and what each level read.
struct LoadedRow<Root> {
    var key: [SQLValue]
    var root: Root
    var parts: [LevelPart]
}
