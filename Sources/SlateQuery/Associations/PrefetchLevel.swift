import SlateConcurrency
import SlateCore

// The levels of an eager load, erased over their value types: each reads what it needs from a
// parent row (the parent's key, or an annotation's value), then loads the related records of all
// the parents at once and hands each parent its value. The closures are made where the value type
// is known, so the values they hand out always have the type the result tuple expects.

/// Runs an eager load's statements on an engine reached asynchronously: PostgreSQL's connections,
/// in SlatePostgres.
package protocol PrefetchStatementRunner: Sendable {
    /// Runs `sql` and calls `body` with each row.
    func forEachRow(_ sql: SQL, _ body: (borrowing Row) throws -> Void) async throws
    /// The most values one statement may bind.
    var maximumBoundValues: Int { get }
}

/// The keys of the parents whose related records a level's statement loads.
package struct PrefetchRestriction: Sendable {
    /// The columns linking the parents with the records loaded.
    var path: AssociationPath
    /// The parents' distinct keys, none containing `NULL`.
    var keys: [[SQLValue]]
}

/// A value with the key of the parent it belongs to.
package struct Keyed<Value> {
    var key: [SQLValue]
    package var value: Value
}

/// What a level read from one parent row.
enum LevelPart {
    /// The parent's key for the association; `nil` when a key column is `NULL` (no related record).
    case key([SQLValue]?)
    /// An annotation's value.
    case value(Any)
}

/// What a level loaded: the value for a parent, from its key.
struct LevelValues {
    /// The value for the parent with this key (`nil` for a parent whose key column is `NULL`);
    /// `nil` when the parent has no value and is dropped (a required to-one level).
    let value: ([SQLValue]?) -> Any?
}

/// One level of an eager load of `Parent` records.
struct PrefetchLevel<Parent: Table>: Sendable {
    /// How a to-many or to-one level hands out its records.
    enum Kind: Sendable {
        /// Every related record, `[]` for none.
        case all
        /// The related record; parents without one are dropped.
        case required
        /// The related record, or `nil`.
        case optional
    }

    /// The position of an annotation's value in the parent row; `nil` for a prefetch.
    let annotationPosition: Int?
    /// Reads an annotation's value at a position of the parent row.
    let readAnnotation: (@Sendable (borrowing Row, Int) throws -> Any)?
    /// The positions of the parent's key columns (a prefetch whose association resolved).
    let originIndexes: [Int]
    /// Throws when the level, or one below it, cannot run: before any statement runs.
    let validate: @Sendable () throws -> Void
    /// Loads the related records of the parents with `keys`, on SQLite.
    let load: @Sendable (Database, [[SQLValue]]) throws -> LevelValues
    /// Loads the related records of the parents with `keys`, on an asynchronous engine.
    let loadAsync: @Sendable (any PrefetchStatementRunner, [[SQLValue]]) async throws -> LevelValues

    var isAnnotation: Bool { annotationPosition != nil }

    /// The parent's key, read from its row, or `nil` when a key column is `NULL`.
    func key(from row: borrowing Row) -> [SQLValue]? {
        var key: [SQLValue] = []
        key.reserveCapacity(originIndexes.count)
        for index in originIndexes {
            let value = row.value(at: index)
            if value.isNull { return nil }
            key.append(value)
        }
        return key
    }

    /// A level that selects `Value` in the parent statement, at `position`.
    static func annotation<Value: SQLExtractable & Sendable>(at position: Int, _ type: Value.Type) -> PrefetchLevel {
        PrefetchLevel(
            annotationPosition: position,
            readAnnotation: { row, position in try Value.extract(from: row, at: position) },
            originIndexes: [], validate: {},
            load: { _, _ in LevelValues { _ in nil } },
            loadAsync: { _, _ in LevelValues { _ in nil } })
    }

    /// A level that loads the records `child` selects through `association`.
    static func prefetch<Target: Table, Arity, Value>(
        _ association: Association<Parent, Target, Arity>, _ child: EagerLoadPlan<Target, Value>, kind: Kind
    ) -> PrefetchLevel {
        let path: AssociationPath
        let originIndexes: [Int]
        do {
            path = try association.resolve()
            originIndexes = try path.originIndexes(in: Parent.self)
        } catch {
            let failure = error as? DatabaseError ?? DatabaseError(resultCode: .misuse, message: "\(error)")
            let fail: @Sendable () throws -> Void = { throw failure }
            return PrefetchLevel(
                annotationPosition: nil, readAnnotation: nil, originIndexes: [], validate: fail,
                load: { _, _ in throw failure }, loadAsync: { _, _ in throw failure })
        }
        return PrefetchLevel(
            annotationPosition: nil, readAnnotation: nil, originIndexes: originIndexes,
            validate: { try child.validate() },
            load: { db, keys in
                try group(try child.load(db, PrefetchRestriction(path: path, keys: keys)), keys, kind)
            },
            loadAsync: { runner, keys in
                try group(try await child.loadAsync(runner, PrefetchRestriction(path: path, keys: keys)), keys, kind)
            })
    }

    /// The records loaded for each parent key, handed out as `kind` says.
    ///
    /// A record's key is read back from its own row; the engine matched it with a parent's key
    /// after its type conversions (a `TEXT` column equals the bound integer `1` as `'1'`). A key
    /// that equals no parent's as a value, even as an integer-valued real, throws rather than
    /// dropping the record.
    private static func group<Value>(_ rows: [Keyed<Value>], _ keys: [[SQLValue]], _ kind: Kind) throws -> LevelValues {
        let parents = Set(keys)
        var groups: [[SQLValue]: [Value]] = [:]
        for row in rows {
            var key = row.key
            if !parents.contains(key) {
                key = key.map(Self.integral)
                guard parents.contains(key) || parents.contains(row.key.map(Self.real)) else {
                    throw DatabaseError(
                        resultCode: .mismatch,
                        message: "the key of a record related to \(Parent.tableName) was read back as "
                            + "\(row.key.map(\.storageClass).joined(separator: ", ")), which equals none of the "
                            + "parents' keys: declare the foreign key's columns with the type of those they reference")
                }
                if !parents.contains(key) { key = row.key.map(Self.real) }
            }
            groups[key, default: []].append(row.value)
        }
        switch kind {
        case .all:
            return LevelValues { key -> Any? in key.flatMap { groups[$0] } ?? [Value]() }
        case .optional:
            return LevelValues { key -> Any? in
                let found: Value? = key.flatMap { groups[$0]?.first }
                return found as Any
            }
        case .required:
            return LevelValues { key -> Any? in
                guard let found = key.flatMap({ groups[$0]?.first }) else { return nil }
                return found
            }
        }
    }

    /// An integer-valued real as an integer.
    private static func integral(_ value: SQLValue) -> SQLValue {
        if case .real(let real) = value, let integer = Int64(exactly: real) { return .integer(integer) }
        return value
    }

    /// An integer as a real, when it converts exactly.
    private static func real(_ value: SQLValue) -> SQLValue {
        if case .integer(let integer) = value, let real = Double(exactly: integer) { return .real(real) }
        return value
    }

    /// `origin-key IN (SELECT target-key FROM target … WHERE …)`: the parents that have a record
    /// `target` selects, for a required to-one level.
    static func requiredPredicate<Target: Table>(
        _ association: Association<Parent, Target, ToOne>, _ target: Select<Target>
    ) -> SQLExpression<Bool> {
        do {
            let path = try association.resolve()
            var clauses = target.clauses
            let keys = path.joinLinkingTables(into: &clauses, targetQualifier: target.qualifier)
            clauses.selection = SQL.joined(keys, separator: ", ")
            clauses.ordering = []
            clauses.limit = nil
            clauses.offset = nil
            let origin = path.originColumns.map { AssociationSQL.column(association.qualifier, $0) }
            return SQLExpression(
                sql: sqlConcat(AssociationSQL.row(origin), " IN (", clauses.render(), ")"), precedence: .membership)
        } catch {
            return ResolvedForeignKey.failure(error)
        }
    }
}
