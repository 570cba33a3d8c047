@_exported import Slate

/// Makes a struct a table: conforms it to ``Slate/Table`` (``Slate/PrimaryKeyedTable`` when it has a
/// primary key) and ``Slate/SelfManagingTable``, generating straight-line code that decodes and
/// binds its stored properties by position, with no `Codable` and no reflection.
///
/// ```swift
/// @Table
/// struct Player {
///     var id: Int64?                       // INTEGER PRIMARY KEY: nil until inserted
///     var name: String                     // TEXT NOT NULL
///     @Column("score_total") var score: Int = 0 // INTEGER NOT NULL DEFAULT 0
///     var lastSeen: Date?                  // DATETIME, NULL allowed
/// }
///
/// try db.createTable(for: Player.self)
/// let player = try db.insert(Player(id: nil, name: "Arthur", lastSeen: nil))
/// let best = try Player.where { $0.score > 100 }.fetchAll(db)
/// ```
///
/// - The table name is the type name unless `name` is given.
/// - Each stored property is a column named after it, unless marked ``Ignored()`` or renamed with
///   ``Column(_:type:default:collate:storage:renamedFrom:)``.
/// - The primary key is the properties marked ``PrimaryKey(autoIncrement:)`` (several make a composite
///   key), else a property called `id`. An `Int64?` or `Int?` key is an `INTEGER PRIMARY KEY`: `nil`
///   asks SQLite for a rowid, which `insert` stores back into the record.
/// - A literal initial value (`= 0`, `= "none"`, `= true`) becomes the column's `DEFAULT`, which lets
///   a column added later be filled in for existing rows.
///
/// - Parameters:
///   - name: The table name. Default: the type name.
///   - databaseFile: The database file that ``Slate/RecordStore`` keeps this type's table in,
///     relative to the store's directory. Default: the store's main file.
///   - withoutRowID: Whether the table is declared `WITHOUT ROWID`.
///   - fullTextSearch: Makes the type an FTS5 full-text table: `CREATE VIRTUAL TABLE … USING
///     fts5(<columns>, <this text>)`, such as `"content='post', content_rowid='id'"` for an
///     external-content table, or `""`. Its properties are `String`s (optional or not), without a
///     key; its `Columns` are `FullTextColumns` (`match`, `rank`, `bm25`, `highlight`, `snippet`).
///     See <doc:TypedQueries>.
///   - associations: The table's associations, written as members of its `Columns`:
///     `[.hasMany("albums", Album.self)]`. A property marked `@ForeignKey(Artist.self)` adds a
///     ``Slate/BelongsTo`` named after it without its `Id` suffix (`artistId` → `artist`) unless an
///     association here already belongs to that type. See <doc:Associations>.
@attached(
    extension,
    conformances: Table, PrimaryKeyedTable, SelfManagingTable,
    names: named(schema), named(renamedColumns), named(databaseFile), named(Columns), named(init(row:)),
    named(encode(to:)), named(didInsert(rowID:)), named(primaryKey), named(encode(primaryKey:to:)),
    named(_SlateColumnValues)
)
public macro Table(
    _ name: String? = nil,
    databaseFile: String? = nil,
    withoutRowID: Bool = false,
    fullTextSearch: String? = nil,
    associations: [TableAssociation] = []
) = #externalMacro(module: "SlateMacrosPlugin", type: "TableMacro")

/// Customizes the column of a stored property in a `@Table` struct.
///
/// ```swift
/// @Column("full_name") var name: String
/// @Column(type: "NVARCHAR(40)", collate: "NOCASE") var email: String
/// @Column(default: "CURRENT_TIMESTAMP", storage: .date(.iso8601)) var createdAt: Date
/// @Column(storage: .json) var tags: [String]
/// @Column(renamedFrom: "title") var name: String   // the table migration keeps the data
/// @Column(default: "CURRENT_TIMESTAMP", notNull: true) var addedAt: Date?   // nil: the default applies
/// ```
///
/// - Parameters:
///   - name: The column name. Default: the property name.
///   - type: The declared SQL type. Default: derived from the Swift type (see <doc:CodeFirst>).
///   - default: The column's `DEFAULT` expression, as SQL text. Default: a literal initial value.
///   - collate: The column's collation, such as `"NOCASE"`.
///   - storage: How the value is stored when not by its own value protocols.
///   - renamedFrom: The column's previous name: self-managing tables rename it and keep its data.
///   - notNull: For an optional property with a `default`: the column is `NOT NULL`, and `nil` is
///     not stored but means "use the default". An insert leaves the column out and reads back the
///     value SQLite chose; the typed column, for queries, is not optional.
@attached(peer)
public macro Column(
    _ name: String? = nil,
    type: String? = nil,
    default: String? = nil,
    notNull: Bool = false,
    collate: String? = nil,
    storage: ColumnStorage? = nil,
    renamedFrom: String? = nil
) = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Marks a stored property as (part of) the primary key. Several properties make a composite key,
/// in declaration order.
///
/// - Parameter autoIncrement: Whether an `INTEGER PRIMARY KEY` is declared `AUTOINCREMENT`, so rowids
///   of deleted rows are never reused.
@attached(peer)
public macro PrimaryKey(autoIncrement: Bool = false) =
    #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Conforms a struct to `ColumnGroup`: a `@Table` struct stores it as several of its own columns,
/// with `@Grouped`, and its queries reach into it.
///
/// ```swift
/// @ColumnGroup struct Address {
///     var street: String
///     var city: String
/// }
/// @Table struct Shop {
///     var id: Int64?
///     @Grouped var address: Address      // columns "street" and "city" of "Shop"
/// }
/// Shop.where { $0.address.city == "Oslo" }
/// ```
///
/// The group's properties follow `@Table`'s column rules (`@Column` names, types, defaults,
/// storages); a group has no key, foreign key, index or group of its own.
@attached(
    extension, conformances: ColumnGroup,
    names: named(groupColumns), named(Columns), named(init(row:startingAt:)), named(encode(to:)),
    named(_SlateColumnValues)
)
public macro ColumnGroup() = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnGroupMacro")

/// Stores a `@ColumnGroup` property as the group's columns, in place, in a `@Table` struct.
@attached(peer)
public macro Grouped() = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Keeps a stored property out of the table. It needs a default value, which records decoded from
/// rows keep.
@attached(peer)
public macro Ignored() = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Keeps a stored property out of the table; the same as ``Ignored()``.
@attached(peer)
public macro Transient() = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Declares the column `UNIQUE`.
@attached(peer)
public macro Unique() = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Creates an index on the column, named `<table>_<column>`.
@attached(peer)
public macro Indexed() = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Declares that the column references another table's primary key (or `column`).
///
/// ```swift
/// @ForeignKey(Artist.self, onDelete: .cascade) var artistId: Int64
/// ```
@attached(peer)
public macro ForeignKey(
    _ table: any Table.Type,
    column: String? = nil,
    onDelete: ForeignKeyAction = .noAction,
    onUpdate: ForeignKeyAction = .noAction
) = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")

/// Declares that the column references the table named `table` (its primary key, or `column`).
@attached(peer)
public macro ForeignKey(
    table: String,
    column: String? = nil,
    onDelete: ForeignKeyAction = .noAction,
    onUpdate: ForeignKeyAction = .noAction
) = #externalMacro(module: "SlateMacrosPlugin", type: "ColumnAttributeMacro")
