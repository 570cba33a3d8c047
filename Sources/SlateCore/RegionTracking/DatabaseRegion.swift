// What a read depends on, and what a transaction changed, in one vocabulary: tables, the columns
// of each table, and (when they are known) its rows. Live queries compare the two at commit.

/// What a read depends on: the tables it read, the columns of each, and for reads filtered on a
/// rowid primary key, the rows.
///
/// Slate records a region while a read runs (``Database/trackingRegion(_:)``): SQLite's authorizer
/// reports every table and column a statement reads when the statement is prepared, and the query
/// builder adds the rows of a read filtered on an `INTEGER PRIMARY KEY` (`Player.find(3)`,
/// `Player.where { $0.id == 3 }`). A live query refetches only after a commit that changed its
/// region.
///
/// ```swift
/// let (_, region) = try db.trackingRegion { try Player.find(3).fetchOne(db) }
/// print(region)   // main.player(id, name, rowid, score)[rows 3]
/// ```
public struct DatabaseRegion: Sendable, Hashable, CustomStringConvertible {
    /// The tables, by lowercased schema and table name.
    package private(set) var tables: [TableKey: TableRegion]
    /// Whether the region is every table of every schema: a read Slate could not analyze.
    public private(set) var isFullDatabase: Bool

    /// The empty region: a read that depends on no table, such as `SELECT 1`.
    public static let empty = DatabaseRegion(tables: [:], isFullDatabase: false)
    /// Every table of every schema: what a read Slate could not analyze depends on.
    public static let fullDatabase = DatabaseRegion(tables: [:], isFullDatabase: true)

    package init(tables: [TableKey: TableRegion], isFullDatabase: Bool = false) {
        self.tables = isFullDatabase ? [:] : tables
        self.isFullDatabase = isFullDatabase
    }

    /// Whether the region depends on nothing.
    public var isEmpty: Bool { !isFullDatabase && tables.isEmpty }

    /// The tables of the region, as `schema.table` with lowercased names, sorted. Empty for
    /// ``fullDatabase``.
    public var tableNames: [String] { tables.keys.sorted().map(\.description) }

    /// The columns of `table` the region depends on, lowercased and sorted, `["*"]` when it depends
    /// on all of them, or `nil` when the region does not include the table. An empty name stands
    /// for the table's rows themselves (what `count(*)` reads).
    public func columns(ofTable table: String, inSchema schema: String = "main") -> [String]? {
        if isFullDatabase { return ["*"] }
        guard let region = tables[TableKey(database: schema, table: table)] else { return nil }
        switch region.columns {
        case .all: return ["*"]
        case .some(let names): return names.sorted()
        }
    }

    /// The rowids of `table` the region is limited to, or `nil` when it depends on every row (or
    /// does not include the table).
    public func rowIDs(ofTable table: String, inSchema schema: String = "main") -> Set<Int64>? {
        guard !isFullDatabase, case .some(let rows)? = tables[TableKey(database: schema, table: table)]?.rows else {
            return nil
        }
        return rows
    }

    /// The region that depends on what either region depends on.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        var copy = self
        copy.formUnion(other)
        return copy
    }

    /// Adds what `other` depends on.
    public mutating func formUnion(_ other: DatabaseRegion) {
        if isFullDatabase { return }
        if other.isFullDatabase {
            self = .fullDatabase
            return
        }
        for (key, region) in other.tables { insert(region, for: key) }
    }

    package mutating func insert(_ region: TableRegion, for key: TableKey) {
        guard !isFullDatabase else { return }
        if let existing = tables[key] {
            tables[key] = existing.union(region)
        } else {
            tables[key] = region
        }
    }

    /// Limits the rows of `key` to `rows`, when the table is in the region.
    package mutating func restrictRows(of key: TableKey, to rows: Set<Int64>) {
        guard !isFullDatabase, var region = tables[key] else { return }
        region.rows = .some(rows)
        tables[key] = region
    }

    /// A description such as `main.player(id, name)[rows 3]`, or `full database`.
    public var description: String {
        if isFullDatabase { return "full database" }
        if tables.isEmpty { return "empty" }
        return tables.keys.sorted().map { key in
            let region = tables[key] ?? TableRegion(columns: .all, rows: .all)
            var text = key.description
            switch region.columns {
            case .all: text += "(*)"
            case .some(let names):
                text += "(" + names.sorted().map { $0.isEmpty ? "<rows>" : $0 }.joined(separator: ", ") + ")"
            }
            if case .some(let rows) = region.rows {
                text += "[rows " + rows.sorted().map(String.init).joined(separator: ", ") + "]"
            }
            return text
        }.joined(separator: ", ")
    }
}

/// A table, named by schema and table name, both ASCII-lowercased: SQLite compares identifiers
/// without regard to ASCII case.
package struct TableKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    package let database: String
    package let table: String

    package init(database: String, table: String) {
        self.database = database.asciiLowercased
        self.table = table.asciiLowercased
    }

    package static func < (lhs: TableKey, rhs: TableKey) -> Bool {
        (lhs.database, lhs.table) < (rhs.database, rhs.table)
    }

    package var description: String { database + "." + table }

    /// Whether the table is one of SQLite's own (`sqlite_master`, `sqlite_sequence`, …), whose
    /// changes the update hook does not report.
    package var isInternal: Bool { table.hasPrefix("sqlite_") }
}

/// The part of one table in a region or a change.
package struct TableRegion: Hashable, Sendable {
    package var columns: ColumnSet
    package var rows: RowSet

    package init(columns: ColumnSet, rows: RowSet = .all) {
        self.columns = columns
        self.rows = rows
    }

    package func union(_ other: TableRegion) -> TableRegion {
        TableRegion(columns: columns.union(other.columns), rows: rows.union(other.rows))
    }
}

/// Columns of a table: all of them, or some, by lowercased name. The empty name stands for the
/// rows themselves: `count(*)` reads it, and only inserts and deletes change it. `rowid` stands
/// for the rowid and every primary key column.
package enum ColumnSet: Hashable, Sendable {
    case all
    case some(Set<String>)

    package static let empty = ColumnSet.some([])

    package func union(_ other: ColumnSet) -> ColumnSet {
        switch (self, other) {
        case (.all, _), (_, .all): .all
        case (.some(let lhs), .some(let rhs)): .some(lhs.union(rhs))
        }
    }

    package func intersects(_ other: ColumnSet) -> Bool {
        switch (self, other) {
        case (.all, .all): true
        case (.all, .some(let names)), (.some(let names), .all): !names.isEmpty
        case (.some(let lhs), .some(let rhs)): !lhs.isDisjoint(with: rhs)
        }
    }

    package func contains(_ name: String) -> Bool {
        switch self {
        case .all: true
        case .some(let names): names.contains(name)
        }
    }

    package mutating func insert(_ name: String) {
        guard case .some(var names) = self else { return }
        self = .all  // drop the enum's reference, so that `names` is not copied
        names.insert(name)
        self = .some(names)
    }

    package mutating func formUnion(_ other: ColumnSet) {
        guard case .some(var names) = self else { return }
        guard case .some(let others) = other else {
            self = .all
            return
        }
        if others.isSubset(of: names) { return }
        self = .all
        names.formUnion(others)
        self = .some(names)
    }
}

/// Rows of a table: all of them, or some, by rowid.
package enum RowSet: Hashable, Sendable {
    case all
    case some(Set<Int64>)

    package func union(_ other: RowSet) -> RowSet {
        switch (self, other) {
        case (.all, _), (_, .all): .all
        case (.some(let lhs), .some(let rhs)): .some(lhs.union(rhs))
        }
    }

    /// Adds a rowid to a set of rows (`all` stays `all`), in place.
    package mutating func insert(_ rowID: Int64) {
        guard case .some(var rows) = self else { return }
        self = .all  // drop the enum's reference, so that `rows` is not copied
        rows.insert(rowID)
        self = .some(rows)
    }

    package func intersects(_ other: RowSet) -> Bool {
        switch (self, other) {
        case (.all, _), (_, .all): true
        case (.some(let lhs), .some(let rhs)): !lhs.isDisjoint(with: rhs)
        }
    }
}

/// The rows a query built by the query layer reads from its one table: the rowids its `WHERE`
/// clause pins (`id = ?`, `id IN (…)`), for a table whose primary key is its rowid.
///
/// The query layer attaches it to the ``SQL`` it renders; a live query's recorder applies it only
/// when the statement reads that one table and nothing else, in a single `SELECT`.
@usableFromInline
package final class RowIDHint: Sendable {
    /// The table, as the query names it.
    package let table: String
    /// The rowid alias column the query filters on: the hint holds only when the live table's
    /// `INTEGER PRIMARY KEY` has this name.
    package let column: String
    package let rowIDs: Set<Int64>

    package init(table: String, column: String, rowIDs: Set<Int64>) {
        self.table = table
        self.column = column
        self.rowIDs = rowIDs
    }

    /// The rows both hints allow, for two conditions joined by `AND`: `nil` when they are about
    /// different columns (the first one holds then).
    package func intersection(_ other: RowIDHint) -> RowIDHint {
        guard table.asciiLowercased == other.table.asciiLowercased,
            column.asciiLowercased == other.column.asciiLowercased
        else {
            return self
        }
        return RowIDHint(table: table, column: column, rowIDs: rowIDs.intersection(other.rowIDs))
    }
}

extension String {
    /// The string with ASCII letters lowercased, as SQLite folds identifiers.
    package var asciiLowercased: String {
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return self }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
