import SlateConcurrency
import SlateCore

// Associations: the related records of a table, declared once from the foreign keys its schema
// (or the other table's) holds, then used to eager-load records with their related records in one
// statement per level (`EagerLoad`), and to filter and count through the relation inside query
// closures (`AssociationFilters.swift`).
//
// An association is a member of the origin table's `Columns`, beside its columns, so that query
// closures reach it as `$0.albums` and eager loads name it with a key path, `\.albums`:
//
//     struct Columns: TableColumns {
//         let artistId: Column<Artist, Int64?>
//         let albums: HasMany<Artist, Album>
//         init(qualifier: String) {
//             artistId = Column(qualifier, "ArtistId")
//             albums = .hasMany(qualifier)
//         }
//     }

/// Whether an association reaches at most one record or any number: ``ToOne`` or ``ToMany``.
public protocol AssociationArity: Sendable {}

/// The arity of an association that reaches any number of records: ``HasMany``.
public enum ToMany: AssociationArity {}

/// The arity of an association that reaches at most one record: ``BelongsTo`` and ``HasOne``.
public enum ToOne: AssociationArity {}

/// The records of `Target` related to a record of `Origin` through foreign keys.
///
/// Declare associations in the origin table's ``TableColumns``, beside its columns (`slate
/// generate` and `@Table` write them from the foreign keys):
///
/// ```swift
/// let albums: HasMany<Artist, Album>            // albums = .hasMany(qualifier)
/// let artist: BelongsTo<Album, Artist>          // artist = .belongsTo(qualifier)
/// let tracks: HasMany<Playlist, Track>          // tracks = .hasMany(qualifier, through: PlaylistTrack.self)
/// let manager: BelongsTo<Employee, Employee>    // manager = .belongsTo(qualifier, foreignKey: ["ReportsTo"])
/// let reports: HasMany<Employee, Employee>      // reports = .hasMany(qualifier, foreignKey: ["ReportsTo"])
/// ```
///
/// Then load related records in one statement per level, and filter or count through them:
///
/// ```swift
/// let artists: [(Artist, [Album])] = try Artist.all().including(all: \.albums).fetchAll(db)
/// let prolific = try Artist.where { $0.albums.count() >= 5 }.fetchAll(db)
/// ```
///
/// The foreign key is found when a statement that uses the association is built; a missing or
/// ambiguous one makes that statement throw ``DatabaseError`` (``ResultCode/misuse``) before
/// anything runs. See <doc:Associations>.
public struct Association<Origin: Table, Target: Table, Arity: AssociationArity>: Sendable {
    /// The name or alias of the origin table in the statement the association is used in.
    public let qualifier: String
    /// How the two tables are linked.
    let link: AssociationLink

    init(qualifier: String, link: AssociationLink) {
        self.qualifier = qualifier
        self.link = link
    }

    /// The foreign key path between the two tables, or why there is none.
    func resolve() throws -> AssociationPath {
        try link.resolve(origin: Origin.self, target: Target.self)
    }
}

/// An association from a record to the records whose foreign key references it: an artist's
/// albums; or, declared `through` a third table, to the records that table links it with: a
/// playlist's tracks through `PlaylistTrack`.
public typealias HasMany<Origin: Table, Target: Table> = Association<Origin, Target, ToMany>

/// An association from a record to the record its foreign key references: an album's artist.
public typealias BelongsTo<Origin: Table, Target: Table> = Association<Origin, Target, ToOne>

/// An association from a record to the one record whose foreign key references it.
public typealias HasOne<Origin: Table, Target: Table> = Association<Origin, Target, ToOne>

extension Association where Arity == ToOne {
    /// The record of `Target` that the origin's foreign key references: an album's artist.
    ///
    /// - Parameters:
    ///   - qualifier: The origin's qualifier, as its `Columns` received it.
    ///   - foreignKey: The referencing columns of the origin, when it has several foreign keys to
    ///     `Target` (`["ReportsTo"]` for an employee's manager).
    public static func belongsTo(_ qualifier: String, foreignKey: [String]? = nil) -> Self {
        Self(qualifier: qualifier, link: .belongsTo(.declared(foreignKey)))
    }

    /// The record of `Target` referenced by `foreignKey`, a key the origin's schema does not
    /// declare (a ``CodableRecord``'s, whose inferred schema has no foreign keys).
    public static func belongsTo(_ qualifier: String, using foreignKey: TableSchema.ForeignKey) -> Self {
        Self(qualifier: qualifier, link: .belongsTo(.explicit(foreignKey)))
    }

    /// The one record of `Target` whose foreign key references the origin (the first, when there
    /// are several).
    ///
    /// - Parameters:
    ///   - qualifier: The origin's qualifier, as its `Columns` received it.
    ///   - foreignKey: The referencing columns of `Target`, when it has several foreign keys to the
    ///     origin.
    public static func hasOne(_ qualifier: String, foreignKey: [String]? = nil) -> Self {
        Self(qualifier: qualifier, link: .referencedBy(.declared(foreignKey)))
    }

    /// The one record of `Target` whose `foreignKey`, a key `Target`'s schema does not declare,
    /// references the origin.
    public static func hasOne(_ qualifier: String, using foreignKey: TableSchema.ForeignKey) -> Self {
        Self(qualifier: qualifier, link: .referencedBy(.explicit(foreignKey)))
    }
}

extension Association where Arity == ToMany {
    /// The records of `Target` whose foreign key references the origin: an artist's albums.
    ///
    /// - Parameters:
    ///   - qualifier: The origin's qualifier, as its `Columns` received it.
    ///   - foreignKey: The referencing columns of `Target`, when it has several foreign keys to the
    ///     origin (`["ReportsTo"]` for an employee's reports).
    public static func hasMany(_ qualifier: String, foreignKey: [String]? = nil) -> Self {
        Self(qualifier: qualifier, link: .referencedBy(.declared(foreignKey)))
    }

    /// The records of `Target` whose `foreignKey`, a key `Target`'s schema does not declare,
    /// references the origin.
    public static func hasMany(_ qualifier: String, using foreignKey: TableSchema.ForeignKey) -> Self {
        Self(qualifier: qualifier, link: .referencedBy(.explicit(foreignKey)))
    }

    /// The records of `Target` that rows of `Pivot` link with the origin: a playlist's tracks
    /// through `PlaylistTrack`, whose foreign keys reference `Playlist` and `Track`.
    ///
    /// - Parameters:
    ///   - qualifier: The origin's qualifier, as its `Columns` received it.
    ///   - pivot: The linking table.
    ///   - originKey: The columns of `Pivot` referencing the origin, when it has several foreign
    ///     keys to it.
    ///   - targetKey: The columns of `Pivot` referencing `Target`, when it has several foreign keys
    ///     to it.
    public static func hasMany<Pivot: Table>(
        _ qualifier: String, through pivot: Pivot.Type, originKey: [String]? = nil, targetKey: [String]? = nil
    ) -> Self {
        Self(
            qualifier: qualifier,
            link: .through(pivot: Pivot.self, toOrigin: .declared(originKey), toTarget: .declared(targetKey)))
    }
}

// MARK: - Resolution

/// How an association's tables are linked, as declared: resolved into an ``AssociationPath`` when
/// a statement uses it.
enum AssociationLink: Sendable {
    /// A foreign key of the origin references the target.
    case belongsTo(ForeignKeyChoice)
    /// A foreign key of the target references the origin.
    case referencedBy(ForeignKeyChoice)
    /// The pivot's foreign keys reference the origin and the target.
    case through(pivot: any Table.Type, toOrigin: ForeignKeyChoice, toTarget: ForeignKeyChoice)

    func resolve<Origin: Table, Target: Table>(origin: Origin.Type, target: Target.Type) throws -> AssociationPath {
        switch self {
        case .belongsTo(let choice):
            let key = try choice.resolve(from: Origin.self, to: Target.self)
            return AssociationPath(
                originColumns: key.childColumns,
                hops: [.init(table: Target.tableName, incoming: key.parentColumns, outgoing: [])])
        case .referencedBy(let choice):
            let key = try choice.resolve(from: Target.self, to: Origin.self)
            return AssociationPath(
                originColumns: key.parentColumns,
                hops: [.init(table: Target.tableName, incoming: key.childColumns, outgoing: [])])
        case .through(let pivot, let toOrigin, let toTarget):
            return try Self.resolveThrough(pivot, toOrigin: toOrigin, toTarget: toTarget, Origin.self, Target.self)
        }
    }

    private static func resolveThrough<Pivot: Table, Origin: Table, Target: Table>(
        _ pivot: Pivot.Type, toOrigin: ForeignKeyChoice, toTarget: ForeignKeyChoice, _ origin: Origin.Type,
        _ target: Target.Type
    ) throws -> AssociationPath {
        let originKey = try toOrigin.resolve(from: Pivot.self, to: Origin.self)
        let targetKey = try toTarget.resolve(from: Pivot.self, to: Target.self)
        return AssociationPath(
            originColumns: originKey.parentColumns,
            hops: [
                .init(table: Pivot.tableName, incoming: originKey.childColumns, outgoing: targetKey.childColumns),
                .init(table: Target.tableName, incoming: targetKey.parentColumns, outgoing: []),
            ])
    }
}

/// Which foreign key links two tables: the one the child's schema declares (named by its columns
/// when it declares several), or one given explicitly.
enum ForeignKeyChoice: Sendable {
    case declared([String]?)
    case explicit(TableSchema.ForeignKey)

    /// The key's columns on both sides, by name, in matching order.
    func resolve<Child: Table, Parent: Table>(from child: Child.Type, to parent: Parent.Type) throws -> (
        childColumns: [String], parentColumns: [String]
    ) {
        let key: ResolvedForeignKey
        switch self {
        case .declared(let columns):
            key = try ResolvedForeignKey.resolve(from: Child.self, to: Parent.self, through: columns)
        case .explicit(let foreignKey):
            key = try ResolvedForeignKey.resolve(Child.self, Parent.self, foreignKey: foreignKey)
        }
        let childColumns = Child.schema.recordColumns
        let parentColumns = Parent.schema.recordColumns
        return (key.childIndexes.map { childColumns[$0].name }, key.parentIndexes.map { parentColumns[$0].name })
    }
}

/// The columns that link an association's origin with its target, through any linking tables.
///
/// The origin's `originColumns` equal the first hop's `incoming` columns; each hop's `outgoing`
/// columns equal the next hop's `incoming` ones; the last hop is the target.
struct AssociationPath: Sendable {
    struct Hop: Sendable {
        /// The table's name.
        var table: String
        /// The columns matching the previous table's (the origin's key columns, for the first hop).
        var incoming: [String]
        /// The columns the next hop's `incoming` columns match; empty for the target.
        var outgoing: [String]
    }

    /// The origin's columns that the first hop's `incoming` columns equal.
    var originColumns: [String]
    var hops: [Hop]

    /// The positions of the origin's key columns among its record columns.
    func originIndexes<Origin: Table>(in origin: Origin.Type) throws -> [Int] {
        let columns = Origin.schema.recordColumns
        return try originColumns.map { name in
            guard let index = columns.firstIndex(where: { $0.name.equalsIdentifier(name) }) else {
                throw DatabaseError(
                    resultCode: .misuse, message: "\(Origin.tableName) has no column \(name) (named by an association)")
            }
            return index
        }
    }
}

extension ResolvedForeignKey {
    /// The column positions of `foreignKey`, a key of `Child` given explicitly rather than read
    /// from its schema.
    static func resolve<Child: Table, Parent: Table>(
        _ child: Child.Type, _ parent: Parent.Type, foreignKey: TableSchema.ForeignKey
    ) throws -> ResolvedForeignKey {
        guard foreignKey.referencedTable.equalsIdentifier(Parent.tableName) else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the foreign key (\(foreignKey.columns.joined(separator: ", "))) given for \(Child.tableName) "
                    + "references \(foreignKey.referencedTable), not \(Parent.tableName)")
        }
        let referenced = foreignKey.referencedColumns.isEmpty ? Parent.schema.primaryKey : foreignKey.referencedColumns
        guard !foreignKey.columns.isEmpty, referenced.count == foreignKey.columns.count else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the foreign key (\(foreignKey.columns.joined(separator: ", "))) given for \(Child.tableName) "
                    + "has \(foreignKey.columns.count) column(s) but references \(referenced.count) column(s) of "
                    + "\(Parent.tableName)")
        }
        func index<T: Table>(of column: String, in table: T.Type) throws -> Int {
            guard let index = T.schema.recordColumns.firstIndex(where: { $0.name.equalsIdentifier(column) }) else {
                throw DatabaseError(
                    resultCode: .misuse, message: "\(T.tableName) has no column \(column) (named by a foreign key)")
            }
            return index
        }
        return ResolvedForeignKey(
            childIndexes: try foreignKey.columns.map { try index(of: $0, in: Child.self) },
            parentIndexes: try referenced.map { try index(of: $0, in: Parent.self) })
    }
}
