import SlateConcurrency
import SlateCore

// The statements of an eager load's level: the child query restricted to its parents' keys.
//
//     SELECT "Album"."AlbumId", "Album"."Title", "Album"."ArtistId", "Album"."ArtistId" AS "slate_key_1"
//     FROM "Album"
//     WHERE "Album"."ArtistId" IN (?, ?, ?, ?)
//     ORDER BY "Album"."Title"
//
// A through association joins the linking table and reads the key from it; a child query with a
// limit or offset keeps them per parent:
//
//     SELECT * FROM (
//       SELECT "Track"."TrackId", …, "PlaylistTrack"."PlaylistId" AS "slate_key_1",
//              row_number() OVER (PARTITION BY "PlaylistTrack"."PlaylistId" ORDER BY "Track"."Name") AS "slate_rank"
//       FROM "Track" JOIN "PlaylistTrack" ON "PlaylistTrack"."TrackId" = "Track"."TrackId"
//       WHERE "PlaylistTrack"."PlaylistId" IN (?, ?)
//     ) AS "slate_ranked"
//     WHERE "slate_ranked"."slate_rank" <= 3
//     ORDER BY "slate_ranked"."slate_rank"
//
// The keys are bound as a list padded to a power of two (the last key repeated), so that the
// statement cache holds a few shapes per level rather than one per number of parents; a list longer
// than one statement may bind is split, each part a statement.

extension EagerLoad {
    /// The parent statement, or the statements that load the records of `restriction`'s keys.
    func statements(restriction: PrefetchRestriction?, forOne: Bool, maximumBoundValues: Int) throws -> [SQL] {
        guard let restriction else { return [forOne ? query.clauses.renderForOne() : query.clauses.render()] }
        if restriction.keys.isEmpty { return [] }
        var clauses = query.clauses
        guard clauses.grouping.isEmpty, clauses.havingPredicates.isEmpty else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the query of an association's records cannot be grouped (\(Root.tableName))")
        }
        let keyColumns = restriction.path.joinLinkingTables(into: &clauses, targetQualifier: query.qualifier)
        let limit = clauses.limit.flatMap { $0 < 0 ? nil : $0 }  // SQLite's negative limit is none
        let offset = max(clauses.offset ?? 0, 0)
        let perParent = limit != nil || offset > 0
        clauses.limit = nil
        clauses.offset = nil
        for (index, column) in keyColumns.enumerated() {
            clauses.selection.append(text: ", ")
            clauses.selection.append(column)
            clauses.selection.append(text: " AS ")
            clauses.selection.append(.identifier("slate_key_\(index + 1)"))
        }
        if perParent {
            clauses.selection.append(text: ", row_number() OVER (PARTITION BY ")
            clauses.selection.append(SQL.joined(keyColumns, separator: ", "))
            if !clauses.ordering.isEmpty {
                clauses.selection.append(text: " ORDER BY ")
                clauses.selection.append(SQL.joined(clauses.ordering, separator: ", "))
            }
            clauses.selection.append(text: ") AS ")
            clauses.selection.append(.identifier("slate_rank"))
            clauses.ordering = []
        }
        let width = keyColumns.count
        let bound = clauses.render().arguments.positional.count
        let capacity = (maximumBoundValues - bound) / max(width, 1)
        guard capacity >= 1 else {
            throw DatabaseError(
                resultCode: .misuse,
                message: "the query of an association's records (\(Root.tableName)) binds \(bound) values, "
                    + "leaving none of the \(maximumBoundValues) a statement may bind for its parents' keys")
        }
        var chunk = 1
        while chunk <= capacity / 2 { chunk *= 2 }
        var statements: [SQL] = []
        var start = 0
        let keys = restriction.keys
        while start < keys.count {
            let end = min(start + chunk, keys.count)
            var restricted = clauses
            restricted.predicates.append(Self.keys(keyColumns, in: keys[start..<end]))
            statements.append(
                perParent ? Self.ranked(restricted.render(), limit: limit, offset: offset) : restricted.render())
            start = end
        }
        return statements
    }

    /// `key IN (?, ?, …)`, or `(key1, key2) IN (VALUES (?, ?), …)`, the list padded to a power of
    /// two with the last key: bound values, numbered as each dialect numbers its parameters.
    private static func keys(_ columns: [SQL], in keys: ArraySlice<[SQLValue]>) -> SQLExpression<Bool> {
        var padded = 1
        while padded < keys.count { padded *= 2 }
        var list = AssociationSQL.row(columns)
        list.append(text: columns.count == 1 ? " IN (" : " IN (VALUES ")
        guard let last = keys.last else { return SQLExpression(sql: SQL(text: "0"), precedence: .atomic) }
        for index in 0..<padded {
            let key = index < keys.count ? keys[keys.startIndex + index] : last
            if index > 0 { list.append(text: ", ") }
            if columns.count > 1 { list.append(text: "(") }
            for (position, value) in key.enumerated() {
                if position > 0 { list.append(text: ", ") }
                list.append(.binding(value))
            }
            if columns.count > 1 { list.append(text: ")") }
        }
        list.append(text: ")")
        return SQLExpression(sql: list, precedence: .membership)
    }

    /// The rows of `inner` (which selects `"slate_rank"`) ranked past `offset` and up to `limit`
    /// per parent, in rank order.
    private static func ranked(_ inner: SQL, limit: Int?, offset: Int) -> SQL {
        var sql = SQL(text: "SELECT * FROM (")
        sql.append(inner)
        sql.append(text: ") AS ")
        sql.append(.identifier("slate_ranked"))
        sql.append(text: " WHERE ")
        var conditions: [SQL] = []
        let rank = SQL(segments: [.identifier("slate_ranked"), .text("."), .identifier("slate_rank")])
        if offset > 0 { conditions.append(sqlConcat(rank, SQL(text: " > \(offset)"))) }
        if let limit {
            let (upper, overflow) = offset.addingReportingOverflow(limit)
            if !overflow { conditions.append(sqlConcat(rank, SQL(text: " <= \(upper)"))) }
        }
        if conditions.isEmpty { conditions.append(SQL(text: "1 = 1")) }
        sql.append(SQL.joined(conditions, separator: " AND "))
        sql.append(text: " ORDER BY ")
        sql.append(rank)
        return sql
    }
}
