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
        // A statement level of its own: when the enclosing statement names the target's table
        // too, the subquery's takes an alias as it is written (`"Employee" AS "Employee_2"`).
        let target = filter(Select<Target>())
        var clauses = target.clauses
        clauses.selection = SQL(text: selection)
        let keys = path.joinLinkingTables(into: &clauses, targetQualifier: target.qualifier)
        let origin = path.originColumns.map { AssociationSQL.column(qualifier, $0) }
        clauses.predicates.insert(AssociationSQL.equal(keys, origin), at: 0)
        return wrap(clauses.render())
    }
}

/// The SQL fragments associations are built from.
enum AssociationSQL {
    /// `"qualifier"."name"`, the qualifier written as its statement level names the table.
    static func column(_ qualifier: String, _ name: String) -> SQL {
        SQL(.column(qualifier: qualifier, name: name))
    }

    /// `"table"`, or `"table" AS "alias"` when its level writes the qualifier otherwise.
    static func table(_ name: String, qualifier: String) -> SQL {
        SQL(.table(name: name, qualifier: qualifier, source: nil))
    }

    /// `a1 = b1 AND a2 = b2 …`.
    static func equal(_ lhs: [SQL], _ rhs: [SQL]) -> SQLExpression<Bool> {
        let parts = zip(lhs, rhs).map { sqlConcat($0, " = ", $1) }
        return SQLExpression(
            sql: SQL.joined(parts, separator: " AND "), precedence: parts.count == 1 ? .equality : .and)
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
    /// Each linking table is a table of the statement's level (``SQLScope``), so it takes an alias
    /// as the statement is written when an enclosing level names its table too.
    func joinLinkingTables(into clauses: inout SelectClauses, targetQualifier: String) -> [SQL] {
        guard let target = hops.last else { return [] }
        var taken = Set(clauses.qualifiers.map { SQLScope.name(of: $0).lowercased() })
        var previousQualifier = targetQualifier
        var previousColumns = target.incoming
        for hop in hops.dropLast().reversed() {
            // Within its own level, a table named twice takes an explicit alias.
            var name = hop.table
            var number = 2
            while taken.contains(name.lowercased()) {
                name = "\(hop.table)_\(number)"
                number += 1
            }
            taken.insert(name.lowercased())
            let qualifier = name == hop.table ? SQLScope.qualifier(hop.table, scope: clauses.level) : name
            let on = AssociationSQL.equal(
                hop.outgoing.map { AssociationSQL.column(qualifier, $0) },
                previousColumns.map { AssociationSQL.column(previousQualifier, $0) })
            clauses.from.append(text: " JOIN ")
            clauses.from.append(AssociationSQL.table(hop.table, qualifier: qualifier))
            clauses.from.append(text: " ON ")
            clauses.from.append(on.queryFragment)
            clauses.qualifiers.append(qualifier)
            previousQualifier = qualifier
            previousColumns = hop.incoming
        }
        return previousColumns.map { AssociationSQL.column(previousQualifier, $0) }
    }
}
