import CSQLite
import GRDB
import Slate

/// A filtered, ordered query written with each library's query builder: the rows of
/// `item(i0 … i9)` (200,000 rows) with `i0 > 0 AND i1 < -644245094` (about 10%: half of the rows
/// have a positive `i0`, a fifth an `i1` below the bound), ordered by `i2`, into `[Item]`.
///
/// `raw` runs the very SQL text Slate's builder renders (checked when the fixture is built), with
/// the same two bound values. There is no index: every contender scans the table and sorts the
/// matching rows, so the differences are the builders' own costs (building and rendering the query,
/// finding or preparing the statement) and row decoding.
enum BuilderFilterOrder {
    static let scenario = Scenario(
        name: "builder-filter-order",
        summary: "query builder: WHERE i0 > ? AND i1 < ? ORDER BY i2 over 200,000 rows, ~10% returned"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.matchCount,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-builder", fixture.slateBuilder),
                Contender("grdb-builder", fixture.grdbBuilder),
            ]
                + (try ServerPeers.filterOrder(
                    path: fixture.path, i0Above: BuilderFilterOrder.i0Above, i1Below: BuilderFilterOrder.i1Below)))
    }

    /// The lower bound of `i0` (exclusive) and the upper bound of `i1` (exclusive). Values are
    /// uniform in [-2^30, 2^30), so `i1 < -0.6 × 2^30` holds for a fifth of the rows.
    static let i0Above = 0
    static let i1Below = -644_245_094

    /// What Slate's builder renders for the query below; `raw` runs the same text.
    static let sql = """
        SELECT "item"."i0", "item"."i1", "item"."i2", "item"."i3", "item"."i4", "item"."i5", "item"."i6", \
        "item"."i7", "item"."i8", "item"."i9" FROM "item" WHERE "item"."i0" > ? AND "item"."i1" < ? ORDER BY "item"."i2"
        """

    /// The query, built with Slate's typed builder on the hand-written `Item: Table`.
    static func slateQuery() -> Slate.Select<Item> {
        Item.where { $0.i0 > i0Above && $0.i1 < i1Below }.order(by: \.i2)
    }

    final class Fixture {
        let matchCount: Int
        let expected: Checksum
        let path: String
        let rawConnection: RawConnection
        let rawSelect: RawStatement
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            let rowCount = context.size(full: 200_000, quick: 20_000)
            path = context.path("builder.sqlite")
            let items = (0..<rowCount).map { Item.generated(row: $0) }

            // The expected result, computed in Swift: it checks the SQL's meaning too. Ties on i2
            // would leave the order to SQLite's sorter, so the data must have none among matches.
            let matches = items.filter { $0.i0 > BuilderFilterOrder.i0Above && $0.i1 < BuilderFilterOrder.i1Below }
                .sorted { $0.i2 < $1.i2 }
            guard Set(matches.map(\.i2)).count == matches.count else {
                throw HarnessError(
                    "builder-filter-order: ties on i2 among the matching rows; the order would be undefined")
            }
            matchCount = matches.count
            expected = matches.checksum

            let rendered = BuilderFilterOrder.slateQuery().sql
            guard rendered.text == BuilderFilterOrder.sql, rendered.arguments.positional.count == 2 else {
                throw HarnessError(
                    "builder-filter-order: Slate's builder renders\n\(rendered.text)\nnot\n\(BuilderFilterOrder.sql)")
            }

            try RawConnection(path: path).createItemTable(items)

            rawConnection = try RawConnection(path: path)
            rawSelect = try RawStatement(rawConnection, BuilderFilterOrder.sql)
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)
        }

        // MARK: Contenders

        /// The statement is prepared once (in the fixture); each iteration binds the two bounds and
        /// steps through the rows.
        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            let statement = rawSelect.handle
            let items = try stopwatch.measure {
                sqlite3_bind_int64(statement, 1, Int64(BuilderFilterOrder.i0Above))
                sqlite3_bind_int64(statement, 2, Int64(BuilderFilterOrder.i1Below))
                return try rawSelect.readAll { $0.item(startingAt: 0) }
            }
            return items.checksum
        }

        /// `Item.where { $0.i0 > 0 && $0.i1 < bound }.order(by: \.i2).fetchAll(db)`: the query is
        /// built and rendered on every iteration, and its statement taken from the cache.
        func slateBuilder(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try BuilderFilterOrder.slateQuery().fetchAll(slate) }.checksum
        }

        /// `Item.filter(Column("i0") > 0 && Column("i1") < bound).order(Column("i2")).fetchAll(db)`:
        /// GRDB's query interface, `SELECT * FROM "item" WHERE …`, decoded by the positional
        /// `FetchableRecord.init(row:)`.
        func grdbBuilder(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.inDatabase { db in
                    try Item
                        .filter(
                            GRDB.Column("i0") > BuilderFilterOrder.i0Above
                                && GRDB.Column("i1") < BuilderFilterOrder.i1Below
                        )
                        .order(GRDB.Column("i2"))
                        .fetchAll(db)
                }
            }.checksum
        }
    }
}
