import SlateConcurrency
import SlateCore

// Filtering and counting through an association, inside the origin's query closures. Each renders
// the correlated subquery a careful person writes:
//
//     Artist.where { $0.albums.exists { $0.title.hasPrefix("Live") } }
//     -- WHERE EXISTS (SELECT 1 FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId" AND "Album"."Title" LIKE ? ESCAPE '\')
//     Artist.select { ($0.name, $0.albums.count()) }
//     -- SELECT "Artist"."Name", (SELECT count(*) FROM "Album" WHERE "Album"."ArtistId" = "Artist"."ArtistId") FROM "Artist"
//
// The subquery's tables take aliases of their own when the statement already names them (an
// employee's reports: `FROM "Employee" AS "Employee_2"`).

extension Association {
    /// Whether the origin record has at least one related record: `EXISTS (SELECT 1 FROM …)`.
    ///
    /// ```swift
    /// let artistsWithAlbums = try Artist.where { $0.albums.exists() }.fetchAll(db)
    /// ```
    public func exists() -> SQLExpression<Bool> {
        correlated(selecting: "1", { $0 }) { SQLExpression(sql: sqlConcat("EXISTS (", $0, ")"), precedence: .atomic) }
    }

    /// Whether the origin record has at least one related record matching `condition`.
    ///
    /// ```swift
    /// Artist.where { $0.albums.exists { $0.title.hasPrefix("Live") } }
    /// ```
    public func exists(where condition: (Target.Columns) -> some QueryExpression<some BooleanQueryValue>)
        -> SQLExpression<Bool>
    {
        correlated(selecting: "1", { $0.where(condition) }) {
            SQLExpression(sql: sqlConcat("EXISTS (", $0, ")"), precedence: .atomic)
        }
    }

    /// The number of related records: `(SELECT count(*) FROM …)`. Usable in `where`, `having`,
    /// `order` and `select`.
    ///
    /// ```swift
    /// Artist.where { $0.albums.count() >= 5 }.order { $0.albums.count().descending() }
    /// ```
    public func count() -> SQLExpression<Int> {
        correlated(selecting: "count(*)", { $0 }) { SQLExpression(sql: sqlConcat("(", $0, ")"), precedence: .atomic) }
    }

    /// The number of related records matching `condition`.
    public func count(where condition: (Target.Columns) -> some QueryExpression<some BooleanQueryValue>)
        -> SQLExpression<Int>
    {
        correlated(selecting: "count(*)", { $0.where(condition) }) {
            SQLExpression(sql: sqlConcat("(", $0, ")"), precedence: .atomic)
        }
    }

    /// `SELECT <selection> FROM <target> [JOIN <linking tables>] WHERE <link to the origin> [AND
    /// what filter adds]`, wrapped by `wrap`; an unresolvable association makes the statement throw.
    private func correlated<Value>(
        selecting selection: String, _ filter: (Select<Target>) -> Select<Target>, _ wrap: (SQL) -> SQLExpression<Value>
    ) -> SQLExpression<Value> {
        let path: AssociationPath
        do {
            path = try resolve()
        } catch {
            let databaseError = error as? DatabaseError ?? DatabaseError(resultCode: .misuse, message: "\(error)")
            return SQLExpression(sql: SQL(sql: "0", failing: databaseError), precedence: .atomic)
        }
        // Built while the enclosing statement's closure runs: the target takes an alias of its
        // own when that statement already names its table.
        var target = Select<Target>()
        if target.qualifier.lowercased() == qualifier.lowercased() {
            target = Select<Target>(alias: Target.tableName + "_2")  // built outside the origin's closures
        }
        target = filter(target)
        var clauses = target.clauses
        clauses.selection = SQL(sql: selection)
        let keys = path.joinLinkingTables(into: &clauses, targetQualifier: target.qualifier, avoiding: [qualifier])
        let origin = path.originColumns.map { AssociationSQL.column(qualifier, $0) }
        clauses.predicates.insert(AssociationSQL.equal(keys, origin), at: 0)
        return wrap(clauses.render())
    }
}

/// The SQL fragments associations are built from.
enum AssociationSQL {
    /// `"qualifier"."name"`.
    static func column(_ qualifier: String, _ name: String) -> SQL {
        SQL(sql: qualifier.quotedIdentifier + "." + name.quotedIdentifier)
    }

    /// `"table"`, or `"table" AS "qualifier"`.
    static func table(_ name: String, qualifier: String) -> SQL {
        if name == qualifier { return SQL(sql: name.quotedIdentifier) }
        return SQL(sql: name.quotedIdentifier + " AS " + qualifier.quotedIdentifier)
    }

    /// `a1 = b1 AND a2 = b2 …`.
    static func equal(_ lhs: [SQL], _ rhs: [SQL]) -> SQLExpression<Bool> {
        let parts = zip(lhs, rhs).map { sqlConcat($0, " = ", $1) }
        return SQLExpression(sql: SQL.joined(parts, separator: " AND "), precedence: parts.count == 1 ? .equality : .and)
    }

    /// `a` or `(a, b)`: one column, or a row value.
    static func row(_ parts: [SQL]) -> SQL {
        if parts.count == 1 { return parts[0] }
        return sqlConcat("(", SQL.joined(parts, separator: ", "), ")")
    }
}

extension AssociationPath {
    /// Joins the linking tables (every hop but the last) to `clauses`, whose first table is the
    /// target under `targetQualifier`, and returns the first hop's `incoming` columns, qualified:
    /// the columns that equal the origin's key.
    ///
    /// Each linking table is named by its table name unless the statement (or `avoiding`) already
    /// uses that name, then `name_2`, `name_3`, ….
    func joinLinkingTables(into clauses: inout SelectClauses, targetQualifier: String, avoiding: Set<String>)
        -> [SQL]
    {
        guard let target = hops.last else { return [] }
        var taken = Set(avoiding.map { $0.lowercased() })
        for qualifier in clauses.qualifiers { taken.insert(qualifier.lowercased()) }
        for qualifier in QueryNesting.isActive ? QueryNesting.outerQualifiers : [] { taken.insert(qualifier.lowercased()) }
        var previousQualifier = targetQualifier
        var previousColumns = target.incoming
        for hop in hops.dropLast().reversed() {
            var qualifier = hop.table
            var number = 2
            while taken.contains(qualifier.lowercased()) {
                qualifier = "\(hop.table)_\(number)"
                number += 1
            }
            taken.insert(qualifier.lowercased())
            let on = AssociationSQL.equal(
                hop.outgoing.map { AssociationSQL.column(qualifier, $0) },
                previousColumns.map { AssociationSQL.column(previousQualifier, $0) })
            clauses.from.append(" JOIN ")
            clauses.from.append(AssociationSQL.table(hop.table, qualifier: qualifier))
            clauses.from.append(" ON ")
            clauses.from.append(on.queryFragment)
            clauses.qualifiers.append(qualifier)
            previousQualifier = qualifier
            previousColumns = hop.incoming
        }
        return previousColumns.map { AssociationSQL.column(previousQualifier, $0) }
    }
}
