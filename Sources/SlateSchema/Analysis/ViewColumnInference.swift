import SlateCore
import SlateQuery

// View columns through the analyser. SQLite reports a declared type only for a view column taken
// straight from a table column; for the others (expressions, aggregates, literals) the view's query
// goes through the same analysis as a named query, with one difference of input: values read
// from tables are taken as possibly `NULL` (see `TypeInference.trustsNotNullColumns`).

extension TypeInference {
    /// `views` with ``DatabaseSchema/ViewColumn/inferredType`` and
    /// ``DatabaseSchema/ViewColumn/isNeverNull`` set for each column SQLite reports no declared
    /// type for, when the analysis tells its type. Views may read views: each is analysed once,
    /// the views it reads first.
    static func inferringColumnTypes(of views: [DatabaseSchema.View], in schema: DatabaseSchema)
        -> [DatabaseSchema.View]
    {
        var schema = schema
        schema.views = views
        let inference = TypeInference(schema: schema, trustsNotNullColumns: false)
        return views.map { view in
            guard view.columns.contains(where: { $0.declaredType == nil }) else { return view }
            var view = view
            let facts = inference.columnFacts(ofView: view)
            for index in view.columns.indices where view.columns[index].declaredType == nil {
                guard index < facts.count, let fact = facts[index], let type = fact.type else { continue }
                view.columns[index].inferredType = type
                view.columns[index].isNeverNull = fact.isNeverNull
            }
            return view
        }
    }

    /// One fact per column of `view`: from its whole query, or, when that is not understood (a
    /// `*` over a source of unknown columns), for the items before the first `*` of its first
    /// `SELECT`.
    func columnFacts(ofView view: DatabaseSchema.View) -> [Fact?] {
        if let columns = analyzedColumns(ofView: view), columns.count == view.columns.count {
            return columns.map(\.fact)
        }
        guard var query = Self.viewQuery(view.sql) else { return [] }
        var ctes: [String: [NamedColumn]?] = [:]
        if query.first?.isKeyword("WITH") == true {
            guard let body = parseWith(query, into: &ctes) else { return [] }
            query = body
        }
        let compound = query.topLevelIndices { ["UNION", "INTERSECT", "EXCEPT"].contains($0.keyword ?? "") }
        let savedSources = seenSources
        defer { seenSources = savedSources }
        guard
            let (items, scope) = selectItems(
                query[query.startIndex..<(compound.first ?? query.endIndex)], ctes: ctes, outer: nil)
        else { return [] }
        var facts: [Fact?] = []
        for item in items {
            if item.contains(where: { $0.isSymbol("*") }) && item.count <= 3 { break }
            facts.append(itemColumns([item], scope: scope)?.first?.fact)
        }
        return facts
    }
}
