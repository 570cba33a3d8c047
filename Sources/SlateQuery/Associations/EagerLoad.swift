import SlateConcurrency
import SlateCore

/// Records of `Root` with their related records, loaded in one statement per level whatever the
/// number of records: the parent query, then for each association the related records of all the
/// parents at once.
///
/// Start one from a query with `including(all:)`, `including(required:)`,
/// `including(optional:)` or `annotated(with:)`; each adds one element to the result tuple:
///
/// ```swift
/// // [(Artist, [Album])]: 2 statements
/// let artists = try Artist.where { $0.name.hasPrefix("A") }.order(by: \.name)
///     .including(all: \.albums)
///     .fetchAll(db)
///
/// // [(Artist, [(Album, [Track])])], the 3 longest tracks of each album: 3 statements
/// let nested = try Artist.all().including(all: \.albums) { albums in
///     albums.order(by: \.title).including(all: \.tracks) { $0.order { $0.milliseconds.descending() }.limit(3) }
/// }.fetchAll(db)
///
/// // [(Album, Artist)], only albums that have an artist; then your own type, by position
/// let albums = try Album.all().including(required: \.artist).fetchAll(db, as: AlbumInfo.init)
/// ```
///
/// The parent query keeps its own `where`, `order` and `limit`. A child query's `where` and
/// `order` apply to the related records, and its `limit` and `offset` apply **per parent**
/// (`row_number() OVER (PARTITION BY …)`). A parent without related records gets `[]` (or `nil`
/// for `including(optional:)`); `including(required:)` keeps only the parents that have one
/// (`WHERE key IN (SELECT …)` in the parent query, so the parent's `limit` counts those).
///
/// Each level's statement is the child query restricted to the keys of the records the level
/// above loaded, bound as a list (in chunks below the engine's limit on bound values, so a level
/// of more than tens of thousands of parents takes more than one statement). Outside a transaction,
/// the statements run in one, so every level reads the same snapshot.
///
/// An association whose foreign key is missing or ambiguous throws ``DatabaseError``
/// (``ResultCode/misuse``) before any statement runs. See <doc:Associations>.
public struct EagerLoad<Root: Table, each Loaded>: Sendable {
    /// One result: the record, then one value per level, in the order they were added.
    public typealias Output = (Root, repeat each Loaded)

    /// The parent query.
    var query: Select<Root>
    /// The levels, in the order of the result tuple.
    var levels: [PrefetchLevel<Root>]

    init(query: Select<Root>, levels: [PrefetchLevel<Root>]) {
        self.query = query
        self.levels = levels
    }
}

extension EagerLoad {
    /// The parent query's statement: the first of the eager load's statements.
    public var sql: SQL { query.clauses.render() }

    // MARK: Parent query

    /// Adds a `WHERE` condition to the parent query.
    public func `where`(_ predicate: (Root.Columns) -> some QueryExpression<some BooleanQueryValue>) -> Self {
        var copy = self
        copy.query = query.where(predicate)
        return copy
    }

    /// Adds `ORDER BY` terms to the parent query (per parent, for a child query).
    public func order<each Term: OrderingTerm>(_ terms: (Root.Columns) -> (repeat each Term)) -> Self {
        var copy = self
        copy.query = query.order(terms)
        return copy
    }

    /// Adds `ORDER BY` the columns at `keyPaths`, ascending.
    public func order<each Term: OrderingTerm>(by keyPaths: repeat KeyPath<Root.Columns, each Term>) -> Self {
        var copy = self
        copy.query = query.order(by: repeat each keyPaths)
        return copy
    }

    /// Sets the parent query's `LIMIT` (and `OFFSET`); for a child query, the number of related
    /// records kept per parent.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var copy = self
        copy.query = query.limit(limit, offset: offset)
        return copy
    }

    /// Skips the first `offset` records (per parent, for a child query).
    public func offset(_ offset: Int) -> Self {
        var copy = self
        copy.query = query.offset(offset)
        return copy
    }

    // MARK: Levels

    /// Adds the records of a to-many association, all of them: one more statement.
    ///
    /// ```swift
    /// Artist.all().including(all: \.albums)      // [(Artist, [Album])]
    /// ```
    public func including<Target: Table>(all association: KeyPath<Root.Columns, HasMany<Root, Target>>)
        -> EagerLoad<Root, repeat each Loaded, [Target]>
    {
        adding(.prefetch(query.scope[keyPath: association], EagerLoad<Target>.start().eagerLoadPlan, kind: .all))
    }

    /// Adds the records of a to-many association as `child` filters, orders and limits them (per
    /// parent), with its own levels: one more statement per level.
    ///
    /// ```swift
    /// Artist.all().including(all: \.albums) { $0.order(by: \.title).limit(2).including(all: \.tracks) }
    /// ```
    public func including<Target: Table, Child: EagerLoadable<Target>>(
        all association: KeyPath<Root.Columns, HasMany<Root, Target>>, _ child: (EagerLoad<Target>) -> Child
    ) -> EagerLoad<Root, repeat each Loaded, [Child.Output]> {
        adding(.prefetch(query.scope[keyPath: association], child(EagerLoad<Target>.start()).eagerLoadPlan, kind: .all))
    }

    /// Adds the record of a to-one association, keeping only the parents that have one: one more
    /// statement, and `key IN (SELECT …)` in the parent query.
    ///
    /// ```swift
    /// Album.all().including(required: \.artist)     // [(Album, Artist)]
    /// ```
    public func including<Target: Table>(required association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>)
        -> EagerLoad<Root, repeat each Loaded, Target>
    {
        addingRequired(query.scope[keyPath: association], EagerLoad<Target>.start().eagerLoadPlan)
    }

    /// Adds the record of a to-one association as `child` filters it, keeping only the parents
    /// that have one matching it.
    public func including<Target: Table, Child: EagerLoadable<Target>>(
        required association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>,
        _ child: (EagerLoad<Target>) -> Child
    ) -> EagerLoad<Root, repeat each Loaded, Child.Output> {
        addingRequired(query.scope[keyPath: association], child(EagerLoad<Target>.start()).eagerLoadPlan)
    }

    /// Adds the record of a to-one association, or `nil` for a parent without one: one more
    /// statement.
    ///
    /// ```swift
    /// Employee.all().including(optional: \.manager)     // [(Employee, Employee?)]
    /// ```
    public func including<Target: Table>(optional association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>)
        -> EagerLoad<Root, repeat each Loaded, Target?>
    {
        adding(.prefetch(query.scope[keyPath: association], EagerLoad<Target>.start().eagerLoadPlan, kind: .optional))
    }

    /// Adds the record of a to-one association as `child` filters it, or `nil`.
    public func including<Target: Table, Child: EagerLoadable<Target>>(
        optional association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>,
        _ child: (EagerLoad<Target>) -> Child
    ) -> EagerLoad<Root, repeat each Loaded, Child.Output?> {
        adding(
            .prefetch(
                query.scope[keyPath: association], child(EagerLoad<Target>.start()).eagerLoadPlan, kind: .optional))
    }

    /// Adds the value of an expression of the parent query's row, such as the number of related
    /// records, selected by the parent statement itself: no more statements.
    ///
    /// ```swift
    /// Artist.all().annotated { $0.albums.count() }.fetchAll(db)     // [(Artist, Int)]
    /// ```
    public func annotated<Value: SQLExtractable & Sendable>(
        with expression: (Root.Columns) -> some QueryExpression<Value>
    )
        -> EagerLoad<Root, repeat each Loaded, Value>
    {
        var copy = EagerLoad<Root, repeat each Loaded, Value>(query: query, levels: levels)
        let fragment = expression(query.scope).queryFragment
        var clauses = copy.query.clauses
        let position = Root.schema.recordColumns.count + levels.filter { $0.isAnnotation }.count
        clauses.selection.append(", ")
        clauses.selection.append(fragment)
        copy.query.clauses = clauses
        copy.levels.append(.annotation(at: position, Value.self))
        return copy
    }

    private func adding<Value>(_ level: PrefetchLevel<Root>) -> EagerLoad<Root, repeat each Loaded, Value> {
        EagerLoad<Root, repeat each Loaded, Value>(query: query, levels: levels + [level])
    }

    /// Adds a required to-one level: the level, and `key IN (SELECT …)` in the parent query.
    private func addingRequired<Target: Table, Value>(
        _ association: Association<Root, Target, ToOne>, _ child: EagerLoadPlan<Target, Value>
    ) -> EagerLoad<Root, repeat each Loaded, Value> {
        var copy: EagerLoad<Root, repeat each Loaded, Value> = adding(.prefetch(association, child, kind: .required))
        copy.query.clauses.predicates.append(PrefetchLevel<Root>.requiredPredicate(association, child.query))
        return copy
    }
}

extension EagerLoad where Root: Table {
    /// The records of `Root`, with no levels yet: what a level's closure receives.
    static func start() -> EagerLoad<Root> {
        EagerLoad<Root>(query: Select<Root>(), levels: [])
    }
}

/// A query that loads records of ``Root`` with related records: an ``EagerLoad``, as a level's
/// closure returns it. (Only `EagerLoad` conforms; its plan is internal to Slate.)
public protocol EagerLoadable<Root>: Sendable {
    /// The table whose records the query loads.
    associatedtype Root: Table
    /// One result: a record, or a tuple of a record and its levels' values.
    associatedtype Output

    /// How the query runs as a level of another eager load.
    var eagerLoadPlan: EagerLoadPlan<Root, Output> { get }
}

/// How an ``EagerLoad`` runs as a level of another: its query, and its statements restricted to
/// the parents' keys. Opaque: only Slate makes and reads it.
public struct EagerLoadPlan<Root: Table, Output>: Sendable {
    /// The query of the level's records.
    let query: Select<Root>
    /// Throws when the level, or one below it, cannot run.
    let validate: @Sendable () throws -> Void
    /// The records of the parents with the restriction's keys, each with the key it matched.
    let load: @Sendable (Database, PrefetchRestriction) throws -> [Keyed<Output>]
    /// The same, on an asynchronous engine.
    let loadAsync: @Sendable (any PrefetchStatementRunner, PrefetchRestriction) async throws -> [Keyed<Output>]
}

extension EagerLoad: EagerLoadable {
    /// How the eager load runs as a level of another.
    public var eagerLoadPlan: EagerLoadPlan<Root, Output> {
        EagerLoadPlan(
            query: query,
            validate: { try self.validate() },
            load: { db, restriction in try self.tuples(self.load(db, restriction: restriction, forOne: false)) },
            loadAsync: { runner, restriction in
                try self.tuples(try await self.load(runner, restriction: restriction, forOne: false))
            })
    }
}

// MARK: - Starting from a query

extension Select {
    /// The records with the records of a to-many association: see ``EagerLoad``.
    public func including<Target: Table>(all association: KeyPath<Root.Columns, HasMany<Root, Target>>)
        -> EagerLoad<Root, [Target]>
    {
        EagerLoad<Root>(query: self, levels: []).including(all: association)
    }

    /// The records with the records of a to-many association, as `child` filters, orders and
    /// limits them per parent: see ``EagerLoad``.
    public func including<Target: Table, Child: EagerLoadable<Target>>(
        all association: KeyPath<Root.Columns, HasMany<Root, Target>>, _ child: (EagerLoad<Target>) -> Child
    ) -> EagerLoad<Root, [Child.Output]> {
        EagerLoad<Root>(query: self, levels: []).including(all: association, child)
    }

    /// The records that have a record of a to-one association, with it: see ``EagerLoad``.
    public func including<Target: Table>(required association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>)
        -> EagerLoad<Root, Target>
    {
        EagerLoad<Root>(query: self, levels: []).including(required: association)
    }

    /// The records that have a record of a to-one association matching `child`, with it.
    public func including<Target: Table, Child: EagerLoadable<Target>>(
        required association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>,
        _ child: (EagerLoad<Target>) -> Child
    ) -> EagerLoad<Root, Child.Output> {
        EagerLoad<Root>(query: self, levels: []).including(required: association, child)
    }

    /// The records with the record of a to-one association, or `nil`: see ``EagerLoad``.
    public func including<Target: Table>(optional association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>)
        -> EagerLoad<Root, Target?>
    {
        EagerLoad<Root>(query: self, levels: []).including(optional: association)
    }

    /// The records with the record of a to-one association as `child` filters it, or `nil`.
    public func including<Target: Table, Child: EagerLoadable<Target>>(
        optional association: KeyPath<Root.Columns, Association<Root, Target, ToOne>>,
        _ child: (EagerLoad<Target>) -> Child
    ) -> EagerLoad<Root, Child.Output?> {
        EagerLoad<Root>(query: self, levels: []).including(optional: association, child)
    }

    /// The records with the value of an expression, such as the number of related records.
    public func annotated<Value: SQLExtractable & Sendable>(
        with expression: (Root.Columns) -> some QueryExpression<Value>
    )
        -> EagerLoad<Root, Value>
    {
        EagerLoad<Root>(query: self, levels: []).annotated(with: expression)
    }
}

extension Table {
    /// Every record, with the records of a to-many association: `Artist.including(all: \.albums)`.
    public static func including<Target: Table>(all association: KeyPath<Columns, HasMany<Self, Target>>)
        -> EagerLoad<Self, [Target]>
    {
        Select().including(all: association)
    }
}
