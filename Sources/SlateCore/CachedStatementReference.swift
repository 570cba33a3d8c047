/// A statement of the connection's cache that its holder finds again without hashing its SQL: the
/// query layer keeps one per record type and connection for a find by primary key (a ``Database``
/// attachment), so that a lookup neither renders nor hashes its statement's text.
///
/// The reference remembers the statement and the cache's generation when it found it. While the
/// generation is unchanged, the statement is still in the cache; any change to the cache (a
/// statement added, evicted or cleared, the connection closed) makes the next use look the text up
/// again, and drops the statement the reference held.
package final class CachedStatementReference {
    /// The statement's SQL.
    package let sql: String
    /// The cached statement, current while `generation` is the cache's. Internal, and used only by
    /// this module's code, so that no access to it is checked for exclusivity at run time.
    var statement: Statement?
    var generation = -1

    package init(sql: String) {
        self.sql = sql
    }
}

extension Database {
    /// The cached statement `reference` names, reset and ready to bind, as ``cachedStatement(sql:)``
    /// returns it: without hashing its text while the cache is unchanged.
    package func cachedStatement(_ reference: CachedStatementReference) throws -> Statement {
        if reference.generation == statementCacheGeneration, let statement = reference.statement,
            !statement.isCheckedOut, !isClosed
        {
            // Statements handed out here are reset after use; one stepped by other code (the public
            // `cachedStatement(sql:)` shares it) is reset now.
            if statement.needsReset { statement.resetQuietly() }
            return statement
        }
        return try lookUpCachedStatement(reference)
    }

    /// The slow path of ``cachedStatement(_:)``: the cache by text, remembered when it is the cached
    /// statement (not a single-use one prepared because the cached one is in use).
    private func lookUpCachedStatement(_ reference: CachedStatementReference) throws -> Statement {
        let statement = try cachedStatement(sql: reference.sql)
        if statementCache[reference.sql] === statement {
            reference.statement = statement
            reference.generation = statementCacheGeneration
        } else {
            reference.statement = nil
            reference.generation = -1
        }
        return statement
    }
}
