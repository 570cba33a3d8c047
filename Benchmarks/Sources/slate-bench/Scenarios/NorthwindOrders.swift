import CSQLite
import Foundation
import GRDB
import Slate

/// Fetch every row of the Northwind `Orders` table into records, as in Lighter's performance suite.
///
/// The bundled Northwind database has 830 orders. The fixture copies it into the scenario's
/// directory and enlarges `Orders` to the target size by re-inserting copies of the original 830
/// rows, in OrderID order, with new AUTOINCREMENT OrderIDs: the same file every run.
enum NorthwindOrders {
    static let scenario = Scenario(
        name: "northwind-orders",
        summary: "fetch all 16,000 rows of Northwind Orders (14 columns, TEXT/INTEGER/REAL, NULLs) into records"
    ) { context in
        let fixture = try Fixture(context)
        return PreparedScenario(
            rows: fixture.rowCount,
            expected: fixture.expected,
            contenders: [
                Contender("raw", fixture.raw),
                Contender("slate-record", fixture.slateRecord),
                Contender("slate-generated", fixture.slateGenerated),
                Contender("slate-generated-public", fixture.slateGeneratedPublic),
                Contender("slate-codable", fixture.slateCodable),
                Contender("codable-floor", fixture.codableFloor),
                Contender("codable-floor-per-row", fixture.codableFloorPerRow),
                Contender("grdb-record", fixture.grdbRecord),
                Contender("grdb-codable", fixture.grdbCodable),
            ])
    }

    final class Fixture {
        let rowCount: Int
        private(set) var expected = Checksum()
        let rawConnection: RawConnection
        let rawSelect: RawStatement
        let slate: Slate.Database
        let grdb: GRDB.DatabaseQueue

        init(_ context: BenchmarkContext) throws {
            rowCount = context.size(full: 16_000, quick: 2_000)
            let path = context.path("northwind.sqlite")
            guard let bundled = Bundle.module.url(forResource: "northwind", withExtension: "sqlite") else {
                throw HarnessError("northwind.sqlite is missing from the slate-bench resources")
            }
            try FileManager.default.copyItem(at: bundled, to: URL(fileURLWithPath: path))
            // The bundled copy may be read-only (it is in the repository's shared data).
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            try Self.enlarge(path: path, to: rowCount)

            rawConnection = try RawConnection(path: path)
            rawSelect = try RawStatement(rawConnection, Order.selectAll)
            slate = try Slate.Database(path: path)
            grdb = try GRDB.DatabaseQueue(path: path)

            // The expected checksum is one untimed read through the C API; every contender,
            // raw included, must match it on every iteration.
            let reference = try readRaw()
            let count = try rawConnection.integers("SELECT count(*) FROM Orders")[0]
            guard reference.count == rowCount, count == rowCount else {
                throw HarnessError(
                    "northwind-orders: expected \(rowCount) orders, read \(reference.count), count(*) \(count)")
            }
            expected = reference.checksum
        }

        /// Copies the original orders (in OrderID order) until `Orders` holds `target` rows.
        static func enlarge(path: String, to target: Int) throws {
            let connection = try RawConnection(path: path)
            let original = try connection.integers("SELECT count(*), max(OrderID) FROM Orders")
            let (originalCount, originalMax) = (Int(original[0]), original[1])
            guard target >= originalCount else {
                throw HarnessError("northwind-orders: cannot shrink Orders below \(originalCount) rows")
            }
            let columns = """
                CustomerID, EmployeeID, OrderDate, RequiredDate, ShippedDate, ShipVia, Freight, \
                ShipName, ShipAddress, ShipCity, ShipRegion, ShipPostalCode, ShipCountry
                """
            try connection.transaction {
                var count = originalCount
                while count < target {
                    let batch = min(originalCount, target - count)
                    try connection.execute(
                        """
                        INSERT INTO Orders(\(columns)) SELECT \(columns) FROM Orders \
                        WHERE OrderID <= \(originalMax) ORDER BY OrderID LIMIT \(batch)
                        """)
                    count += batch
                }
            }
        }

        private func readRaw() throws -> [Order] {
            try rawSelect.readAll { row in
                Order(
                    orderID: Int(sqlite3_column_int64(row.handle, 0)),
                    customerID: row.optionalString(at: 1),
                    employeeID: row.optionalInt(at: 2),
                    orderDate: row.optionalString(at: 3),
                    requiredDate: row.optionalString(at: 4),
                    shippedDate: row.optionalString(at: 5),
                    shipVia: row.optionalInt(at: 6),
                    freight: row.optionalDouble(at: 7),
                    shipName: row.optionalString(at: 8),
                    shipAddress: row.optionalString(at: 9),
                    shipCity: row.optionalString(at: 10),
                    shipRegion: row.optionalString(at: 11),
                    shipPostalCode: row.optionalString(at: 12),
                    shipCountry: row.optionalString(at: 13))
            }
        }

        // MARK: Contenders

        func raw(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try readRaw() }.checksum
        }

        func slateRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure { try slate.fetchAll(Order.self, sql: Order.selectAll) }.checksum
        }

        /// The record `slate generate` wrote from the bundled northwind.sqlite at build time
        /// (`SlateBuildPlugin`; `slate.json` maps `DATETIME` to `String`, like every other
        /// contender, and the ids to `Int`), through the typed layer:
        /// `SELECT "Orders"."OrderID", … FROM "Orders" ORDER BY "Orders"."OrderID"`.
        func slateGenerated(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try GeneratedOrder.all().order(by: \.orderID).fetchAll(slate)
            }.map(Order.init).checksum
        }

        /// Slate's `Decodable` support over the same SQL: `RowDecoder` reads each property from the
        /// column its `CodingKeys` name (looked up once per statement), the counterpart of
        /// `grdb-codable`. (`CodableRecord`'s `fetchAll` would first migrate `Orders` to the shape
        /// it infers from the type; this reads the table as it is.)
        func slateCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                let decoder = Slate.RowDecoder()
                return try slate.fetchAll(Slate.SQL(sql: Order.selectAll)) { row in
                    try decoder.decode(CodableOrder.self, from: row)
                }
            }.checksum
        }

        func grdbRecord(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.inDatabase { db in try Order.fetchAll(db, sql: Order.selectAll) }
            }.checksum
        }

        func grdbCodable(_ stopwatch: Stopwatch) throws -> Checksum {
            try stopwatch.measure {
                try grdb.inDatabase { db in try CodableOrder.fetchAll(db, sql: Order.selectAll) }
            }.checksum
        }
    }
}
