import CSQLite
import GRDB
import Slate

/// Fetch every row of `mixed_item`: eight columns of every storage class a typical table has —
/// INTEGER, TEXT and REAL, four of them nullable with about 30% `NULL`s — into an array of structs.
/// Where `fetch-200k-ints` measures the integer path alone, this one measures text, reals and
/// `NULL` checks, which make more C calls per value.
enum FetchMixed {
    static let scenario = Scenario(
        name: "fetch-mixed-200k",
        summary: "fetch 200,000 rows of 8 columns (INTEGER/TEXT/REAL, 4 nullable with ~30% NULL) into [MixedItem]"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.rowCount,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-record", fixture.slateRecord),
                Contender("slate-codable", fixture.slateCodable),
                Contender("codable-floor", fixture.codableFloor),
                Contender("codable-floor-per-row", fixture.codableFloorPerRow),
                Contender("grdb-record", fixture.grdbRecord),
                Contender("grdb-codable", fixture.grdbCodable),
            ])
    }

    final class Fixture {
        let rowCount: Int
        let expected: Checksum
        let rawConnection: RawConnection
        let rawSelect: RawStatement
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            rowCount = context.size(full: 200_000, quick: 20_000)
            let path = context.path("fetch-mixed.sqlite")
            let items = (0..<rowCount).map { MixedItem.generated(row: $0) }
            expected = items.checksum

            let writer = try RawConnection(path: path)
            try writer.execute(MixedItem.createTable)
            try writer.transaction { try writer.insert(items) }

            rawConnection = try RawConnection(path: path)
            rawSelect = try RawStatement(rawConnection, MixedItem.selectAll)
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)
        }

        // MARK: Contenders

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try rawSelect.readAll { row in
                    let handle = row.handle
                    return MixedItem(
                        id: Int(sqlite3_column_int64(handle, 0)),
                        name: row.optionalString(at: 1) ?? "",
                        price: sqlite3_column_double(handle, 2),
                        quantity: row.optionalInt(at: 3),
                        note: row.optionalString(at: 4),
                        discount: row.optionalDouble(at: 5),
                        category: row.optionalString(at: 6) ?? "",
                        rating: row.optionalInt(at: 7))
                }
            }.checksum
        }

        /// A hand-written positional `RowDecodable`, what the `@Table` macro and the generator write.
        func slateRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try slate.fetchAll(MixedItem.self, sql: MixedItem.selectAll) }.checksum
        }

        /// Slate's `Decodable` support over the same SQL: `RowDecoder`, columns by coding key.
        func slateCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                let decoder = Slate.RowDecoder()
                return try slate.fetchAll(Slate.SQL(sql: MixedItem.selectAll)) { row in
                    try decoder.decode(CodableMixedItem.self, from: row)
                }
            }.checksum
        }

        func grdbRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.inDatabase { db in try MixedItem.fetchAll(db, sql: MixedItem.selectAll) }
            }.checksum
        }

        func grdbCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.inDatabase { db in try CodableMixedItem.fetchAll(db, sql: MixedItem.selectAll) }
            }.checksum
        }
    }
}

// MARK: - mixed_item

struct MixedItem: Equatable {
    var id: Int
    var name: String
    var price: Double
    var quantity: Int?
    var note: String?
    var discount: Double?
    var category: String
    var rating: Int?

    static let createTable = """
        CREATE TABLE mixed_item(id INTEGER NOT NULL, name TEXT NOT NULL, price REAL NOT NULL, quantity INTEGER, \
        note TEXT, discount REAL, category TEXT NOT NULL, rating INTEGER)
        """
    static let selectAll = "SELECT id, name, price, quantity, note, discount, category, rating FROM mixed_item"
    static let insert =
        "INSERT INTO mixed_item(id, name, price, quantity, note, discount, category, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"

    static let categories = ["tools", "garden", "kitchen", "books", "toys", "outdoor and camping", "office"]

    /// Deterministic values for row `row`: short and long text, reals with fractions, and `NULL`
    /// in each nullable column for about 30% of the rows (a different 30% per column).
    static func generated(row: Int) -> MixedItem {
        func bits(_ column: UInt64) -> UInt64 {
            var bits = UInt64(truncatingIfNeeded: row) &* 0x9e37_79b9_7f4a_7c15 &+ column &* 0xbf58_476d_1ce4_e5b9
            bits ^= bits >> 31
            bits = bits &* 0x94d0_49bb_1331_11eb
            return bits ^ (bits >> 29)
        }
        func isNull(_ column: UInt64) -> Bool { bits(column + 100) % 10 < 3 }
        return MixedItem(
            id: row + 1,
            name: "product \(bits(1) % 1_000_000)",
            price: Double(bits(2) % 1_000_000) / 100,
            quantity: isNull(3) ? nil : Int(bits(3) % 10_000) - 500,
            note: isNull(4) ? nil : "note \(row): restock \(bits(4) % 97) units before the end of the month",
            discount: isNull(5) ? nil : Double(bits(5) % 5_000) / 10_000,
            category: categories[Int(bits(6) % UInt64(categories.count))],
            rating: isNull(7) ? nil : Int(bits(7) % 5) + 1)
    }
}

extension MixedItem: Checksummable {
    func combine(into checksum: inout Checksum) {
        checksum.combine(id)
        checksum.combine(name)
        checksum.combine(price)
        checksum.combine(quantity)
        checksum.combine(note)
        checksum.combine(discount)
        checksum.combine(category)
        checksum.combine(rating)
    }
}

extension MixedItem: Slate.RowDecodable {
    // Through the memberwise initializer Swift synthesizes, as *Defining tables* recommends for a
    // record of many reference-counted fields: assigning `self.x = try …` one by one makes Swift 6.3
    // copy the whole struct once more per row.
    init(row: borrowing Slate.Row) throws {
        self.init(
            id: try row.decode(at: 0), name: try row.decode(at: 1), price: try row.decode(at: 2),
            quantity: try row.decode(at: 3), note: try row.decode(at: 4), discount: try row.decode(at: 5),
            category: try row.decode(at: 6), rating: try row.decode(at: 7))
    }
}

extension MixedItem: GRDB.FetchableRecord {
    init(row: GRDB.Row) throws {
        id = row[0]
        name = row[1]
        price = row[2]
        quantity = row[3]
        note = row[4]
        discount = row[5]
        category = row[6]
        rating = row[7]
    }
}

/// `MixedItem` as a plain `Codable` struct, decoded by column name by each library.
struct CodableMixedItem: Codable, GRDB.FetchableRecord, Checksummable {
    var id: Int
    var name: String
    var price: Double
    var quantity: Int?
    var note: String?
    var discount: Double?
    var category: String
    var rating: Int?

    func combine(into checksum: inout Checksum) {
        MixedItem(
            id: id, name: name, price: price, quantity: quantity, note: note, discount: discount,
            category: category, rating: rating
        ).combine(into: &checksum)
    }
}

extension RawConnection {
    /// Inserts `items` into `mixed_item` with one prepared statement.
    func insert(_ items: some Sequence<MixedItem>) throws {
        let statement = try RawStatement(self, MixedItem.insert)
        let handle = statement.handle
        func bindText(_ text: String?, _ index: Int32) {
            guard let text else {
                _ = sqlite3_bind_null(handle, index)
                return
            }
            _ = sqlite3_bind_text(handle, index, text, -1, slate_sqlite_transient())
        }
        for item in items {
            sqlite3_bind_int64(handle, 1, Int64(item.id))
            bindText(item.name, 2)
            sqlite3_bind_double(handle, 3, item.price)
            if let quantity = item.quantity {
                sqlite3_bind_int64(handle, 4, Int64(quantity))
            } else {
                sqlite3_bind_null(handle, 4)
            }
            bindText(item.note, 5)
            if let discount = item.discount {
                sqlite3_bind_double(handle, 6, discount)
            } else {
                sqlite3_bind_null(handle, 6)
            }
            bindText(item.category, 7)
            if let rating = item.rating {
                sqlite3_bind_int64(handle, 8, Int64(rating))
            } else {
                sqlite3_bind_null(handle, 8)
            }
            guard sqlite3_step(handle) == SQLITE_DONE else { throw failure("insert mixed_item") }
            sqlite3_reset(handle)
        }
    }
}
