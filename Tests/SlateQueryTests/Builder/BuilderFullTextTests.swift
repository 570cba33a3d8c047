import Foundation
import Slate
import SlateTestSupport
import SlateTestingCore
import Testing

/// FTS5: declaring the table, `MATCH` with a bound query, `rank`, `bm25`, `highlight`, `snippet`,
/// and joins to the content table.
@Suite struct BuilderFullTextTests {
    static let posts = [
        Post(title: "Swift macros", body: "Macros generate code at compile time, checked by the compiler."),
        Post(
            title: "SQLite full-text search", body: "FTS5 indexes text; a MATCH query finds the rows, ranked by bm25."),
        Post(title: "Cooking", body: "A recipe for bread, with no code at all."),
        Post(title: "Swift and SQLite", body: "Typed queries in Swift over SQLite: the compiler checks the code."),
    ]

    static func database() throws -> Database {
        let db = try Database()
        try db.createTable(for: Post.self)
        try db.createTable(for: PostSearch.self)
        try db.insert(contentsOf: posts)
        try db.execute("INSERT INTO post_search(post_search) VALUES ('rebuild')")
        return db
    }

    @Test func createTableRendersTheVirtualTable() throws {
        #expect(
            try PostSearch.schema.createTableSQL()
                == #"CREATE VIRTUAL TABLE "post_search" USING fts5(title, body, content='post', content_rowid='id')"#)
        let db = try Self.database()
        #expect(
            try db.fetchValue(String.self, "SELECT sql FROM sqlite_master WHERE name = 'post_search'")
                == #"CREATE VIRTUAL TABLE "post_search" USING fts5(title, body, content='post', content_rowid='id')"#)
    }

    @Test func matchBindsTheQuery() throws {
        #expect(
            SQLLayout.lines(PostSearch.where { $0.match("swift") }.sql) == """
                SELECT "post_search"."title", "post_search"."body"
                FROM "post_search"
                WHERE "post_search"."post_search" MATCH ?
                -- arguments: 'swift'
                """)
        #expect(
            SQLLayout.lines(PostSearch.matching(.all(.phrase("swift"), .prefix("comp"))).sql) == """
                SELECT "post_search"."title", "post_search"."body"
                FROM "post_search"
                WHERE "post_search"."post_search" MATCH ?
                ORDER BY "post_search"."rank"
                -- arguments: '("swift") AND ("comp" *)'
                """)
        #expect(
            SQLLayout.lines(PostSearch.where { $0.title.match(.phrase("sqlite")) }.select { $0.rowid }.sql) == """
                SELECT "post_search"."rowid"
                FROM "post_search"
                WHERE "post_search"."title" MATCH ?
                -- arguments: '"sqlite"'
                """)
        let db = try Self.database()
        let swift = try PostSearch.where { $0.match("swift") }.order { $0.rowid }.select { $0.rowid }.fetchAll(db)
        #expect(swift == [1, 4])
        let titled = try PostSearch.where { $0.title.match("sqlite") }.order { $0.rowid }.select { $0.rowid }.fetchAll(
            db)
        #expect(titled == [2, 4])
        let both = try PostSearch.matching(.all("swift", .prefix("compil"))).select { $0.rowid }.fetchAll(db)
        let expectedBoth: Set<Int64> = [1, 4]
        #expect(Set(both) == expectedBoth)
        let notCode = try PostSearch.matching(FullTextQuery("code").excluding("swift")).select { $0.rowid }.fetchAll(db)
        #expect(notCode == [3])
        let either = try PostSearch.matching(.any("bread", "macros")).select { $0.rowid }.fetchAll(db)
        let expectedEither: Set<Int64> = [1, 3]
        #expect(Set(either) == expectedEither)
    }

    @Test func phrasesAreSafeForAnyText() throws {
        let db = try Self.database()
        // Operators and quotes in user text are searched as words, not obeyed or rejected.
        for text in [#"swift" OR "cooking"#, "OR NOT", "NEAR(", "title: x", "a*b", "\"\"\""] {
            let rows = try PostSearch.matching(.phrase(text)).fetchAll(db)
            #expect(rows.isEmpty, "\(text)")
        }
        #expect(try PostSearch.matching(.phrase("compile time")).select { $0.rowid }.fetchAll(db) == [1])
        // An operator's word is a word: "and" is in one title.
        #expect(try PostSearch.matching(.phrase("AND")).select { $0.rowid }.fetchAll(db) == [4])
        // Raw FTS5 syntax is checked by SQLite: an error, never a wrong answer.
        #expect(throws: DatabaseError.self) { try PostSearch.matching("AND OR").fetchAll(db) }
    }

    @Test func rankingHighlightsAndSnippets() throws {
        let select = PostSearch.where { $0.match("sqlite") }.order { $0.bm25() }
            .select {
                (
                    $0.rowid, $0.title.highlight(open: "[", close: "]"), $0.bm25(),
                    $0.snippet(open: "<", close: ">", ellipsis: "…", tokens: 4)
                )
            }
        #expect(
            SQLLayout.lines(select.sql) == """
                SELECT
                  "post_search"."rowid",
                  highlight("post_search"."post_search", 0, ?, ?),
                  bm25("post_search"."post_search"),
                  snippet("post_search"."post_search", -1, ?, ?, ?, ?)
                FROM "post_search"
                WHERE "post_search"."post_search" MATCH ?
                ORDER BY bm25("post_search"."post_search")
                -- arguments: '[', ']', '<', '>', '…', 4, 'sqlite'
                """)
        let db = try Self.database()
        let rows = try select.fetchAll(db)
        let rowids: [Int64] = rows.map(\.0).sorted()
        #expect(rowids == [2, 4])
        #expect(rows.allSatisfy { $0.2 < 0 })
        #expect(rows.map(\.2) == rows.map(\.2).sorted())
        let titles = Dictionary(uniqueKeysWithValues: rows.map { ($0.0, $0.1) })
        #expect(titles[2] == "[SQLite] full-text search")
        #expect(titles[4] == "Swift and [SQLite]")
        #expect(rows.allSatisfy { ($0.3 ?? "").contains("<SQLite>") })
        // Weighted bm25 and a column's snippet.
        let weighted = try PostSearch.where { $0.match("code") }.order { $0.bm25(weights: 10, 1) }
            .select { ($0.rowid, $0.body.snippet(open: "*", close: "*", tokens: 3)) }.fetchAll(db)
        let weightedIDs: Set<Int64> = Set(weighted.map(\.0))
        #expect(weightedIDs == [1, 3, 4])
        let everySnippetMarksTheWord = weighted.allSatisfy { row in (row.1 ?? "").contains("*code*") }
        #expect(everySnippetMarksTheWord)
        // The rank column orders as bm25 does.
        let ranked = try PostSearch.matching("sqlite").select { $0.rowid }.fetchAll(db)
        #expect(ranked == rows.map(\.0))
    }

    @Test func joinsTheContentTable() throws {
        let query = Post.join(PostSearch.self, on: { $0.id == $1.rowid })
            .where { _, search in search.match("compiler") }
            .order { _, search in search.rank }
            .select { post, search in (post.id, post.title, search.body.highlight(open: "_", close: "_")) }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "post"."id", "post"."title", highlight("post_search"."post_search", 1, ?, ?)
                FROM "post"
                JOIN "post_search" ON "post"."id" = "post_search"."rowid"
                WHERE "post_search"."post_search" MATCH ?
                ORDER BY "post_search"."rank"
                -- arguments: '_', '_', 'compiler'
                """)
        let db = try Self.database()
        let rows = try query.fetchAll(db)
        let matchedIDs: Set<Int64?> = Set(rows.map(\.0))
        #expect(matchedIDs == [1, 4])
        let everyHighlightMarksTheWord = rows.allSatisfy { row in (row.2 ?? "").contains("_compiler_") }
        #expect(everyHighlightMarksTheWord)
        // The records of the content table, found through the index.
        let posts = try Post.where { post in post.id.in(PostSearch.where { $0.match("bread") }.select { $0.rowid }) }
            .fetchAll(db)
        #expect(posts.map(\.title) == ["Cooking"])
    }

    @Test func anAliasedFullTextTableQualifiesEveryReference() throws {
        let query = PostSearch.aliased("s").where { $0.match("swift") }.select { ($0.rowid, $0.bm25()) }
        #expect(
            SQLLayout.lines(query.sql) == """
                SELECT "s"."rowid", bm25("s"."post_search")
                FROM "post_search" AS "s"
                WHERE "s"."post_search" MATCH ?
                -- arguments: 'swift'
                """)
        let db = try Self.database()
        #expect(try query.fetchAll(db).map(\.0).sorted() == [1, 4])
    }

    @Test func aSnippetLengthOutsideFTS5sLimitFailsInsteadOfBeingClamped() throws {
        let db = try Self.database()
        for tokens in [0, 65] {
            let query = PostSearch.where { $0.match("code") }.select {
                $0.snippet(open: "*", close: "*", tokens: tokens)
            }
            let error = #expect(throws: DatabaseError.self) { try query.fetchAll(db) }
            #expect(error?.resultCode == .misuse)
        }
        let fine = try PostSearch.where { $0.match("code") }.select { $0.snippet(open: "*", close: "*", tokens: 64) }
            .fetchAll(db)
        #expect(!fine.isEmpty)
    }

}
