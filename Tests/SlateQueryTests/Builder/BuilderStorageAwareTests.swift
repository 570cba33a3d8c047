import Foundation
import Slate
import Testing

// Values a query binds are encoded by the rules of the column they are compared with: a column
// with its own date strategy or UUID storage, or else the connection. Relationship filters used to
// capture key values on a private ISO-8601 connection, and matched nothing elsewhere.

/// A calendar day keyed by a date stored as Unix seconds, whatever the connection's strategy.
struct Day: PrimaryKeyedTable, Equatable {
    var date: Date
    var label: String

    static let schema = TableSchema(
        name: "day",
        columns: [
            .init(name: "date", type: "INTEGER", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "label", type: "TEXT", isNotNull: true),
        ])

    struct Columns: TableColumns {
        let date: Column<Day, Date>
        let label: Column<Day, String>
        init(qualifier: String) {
            date = Column(qualifier, "date", storage: .date(.unixSeconds))
            label = Column(qualifier, "label")
        }
    }

    init(date: Date, label: String) {
        self.date = date
        self.label = label
    }

    init(row: borrowing Row) throws {
        date = try row.date(at: 0, strategy: .unixSeconds)
        label = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(EncodedDate(date, strategy: .unixSeconds))
        try encoder.encode(label)
    }

    var primaryKey: Date { date }

    static func encode<Encoder: ColumnEncoder>(primaryKey key: Date, to encoder: inout Encoder) throws(Encoder.Failure)
    {
        try encoder.encode(EncodedDate(key, strategy: .unixSeconds))
    }
}

/// An appointment on a day (a date foreign key with the same storage), owned by a device keyed by a
/// UUID stored as 16 bytes, and stamped with a date stored by the connection's strategy.
struct Appointment: PrimaryKeyedTable, Equatable {
    var id: Int64?
    var day: Date
    var device: UUID
    var at: Date

    static let schema = TableSchema(
        name: "appointment",
        columns: [
            .init(name: "id", type: "INTEGER", primaryKeyPosition: 1),
            .init(name: "day", type: "INTEGER", isNotNull: true),
            .init(name: "device", type: "BLOB", isNotNull: true),
            .init(name: "at", type: "DATETIME", isNotNull: true),
        ],
        foreignKeys: [
            .init(columns: ["day"], referencedTable: "day", referencedColumns: ["date"]),
            .init(columns: ["device"], referencedTable: "device", referencedColumns: ["id"]),
        ])

    struct Columns: TableColumns {
        let id: Column<Appointment, Int64?>
        let day: Column<Appointment, Date>
        let device: Column<Appointment, UUID>
        let at: Column<Appointment, Date>
        init(qualifier: String) {
            id = Column(qualifier, "id")
            day = Column(qualifier, "day", storage: .date(.unixSeconds))
            device = Column(qualifier, "device", storage: .uuid(.blob))
            at = Column(qualifier, "at")
        }
    }

    init(id: Int64? = nil, day: Date, device: UUID, at: Date) {
        self.id = id
        self.day = day
        self.device = device
        self.at = at
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        day = try row.date(at: 1, strategy: .unixSeconds)
        device = try row.decode(at: 2)
        at = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(id)
        try encoder.encode(EncodedDate(day, strategy: .unixSeconds))
        try encoder.encode(UUIDStorage.blob.sqlValue(for: device))
        try encoder.encode(at)
    }

    mutating func didInsert(rowID: Int64) { id = rowID }
    var primaryKey: Int64? { id }
}

struct Device: PrimaryKeyedTable, Equatable {
    var id: UUID
    var name: String

    static let schema = TableSchema(
        name: "device",
        columns: [
            .init(name: "id", type: "BLOB", isNotNull: true, primaryKeyPosition: 1),
            .init(name: "name", type: "TEXT", isNotNull: true),
        ])

    struct Columns: TableColumns {
        let id: Column<Device, UUID>
        let name: Column<Device, String>
        init(qualifier: String) {
            id = Column(qualifier, "id", storage: .uuid(.blob))
            name = Column(qualifier, "name")
        }
    }

    init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }

    init(row: borrowing Row) throws {
        id = try row.decode(at: 0)
        name = try row.decode(at: 1)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(UUIDStorage.blob.sqlValue(for: id))
        try encoder.encode(name)
    }

    var primaryKey: UUID { id }

    static func encode<Encoder: ColumnEncoder>(primaryKey key: UUID, to encoder: inout Encoder) throws(Encoder.Failure)
    {
        try encoder.encode(UUIDStorage.blob.sqlValue(for: key))
    }
}

@Suite struct BuilderStorageAwareTests {
    static let strategies: [DateStrategy] = [.iso8601, .unixSeconds, .unixMilliseconds, .julianDay]

    func database(_ strategy: DateStrategy) throws -> Database {
        var configuration = Database.Configuration()
        configuration.dateStrategy = strategy
        let db = try Database(location: .inMemory, configuration: configuration)
        try db.createTable(for: Day.self)
        try db.createTable(for: Device.self)
        try db.createTable(for: Appointment.self)
        return db
    }

    @Test(arguments: strategies)
    func dateAndUUIDForeignKeysMatchWhateverTheConnectionStrategy(_ strategy: DateStrategy) throws {
        let db = try database(strategy)
        let monday = try db.insert(Day(date: Date(timeIntervalSince1970: 1_700_000_000), label: "monday"))
        let tuesday = try db.insert(Day(date: Date(timeIntervalSince1970: 1_700_086_400), label: "tuesday"))
        let phone = try db.insert(Device(id: UUID(), name: "phone"))
        let watch = try db.insert(Device(id: UUID(), name: "watch"))
        let at = Date(timeIntervalSince1970: 1_700_003_600.25)
        let visit = try db.insert(Appointment(day: monday.date, device: phone.id, at: at))
        try db.insert(Appointment(day: tuesday.date, device: watch.id, at: at))

        // Children of a parent, and the parent of a child, through date and UUID keys. (Records are
        // compared by id: a Julian day keeps `at` to about 20 microseconds, not to the bit.)
        #expect(try Appointment.belonging(to: monday).fetchAll(db).map(\.id) == [visit.id])
        #expect(try Appointment.belonging(to: phone).fetchAll(db).map(\.id) == [visit.id])
        #expect(try Day.referenced(by: visit).fetchOne(db) == monday)
        #expect(try Device.referenced(by: visit).fetchOne(db) == phone)
        // Keys and typed comparisons bind as the columns store them.
        #expect(try Day.find(monday.date).fetchOne(db) == monday)
        #expect(try Device.find(watch.id).fetchOne(db) == watch)
        #expect(try Appointment.where { $0.day == monday.date }.fetchAll(db).map(\.id) == [visit.id])
        #expect(try Appointment.where { $0.device.in([phone.id]) }.fetchAll(db).map(\.id) == [visit.id])
        #expect(try Appointment.where { $0.day.between(monday.date, and: monday.date) }.fetchCount(db) == 1)
        // A column without its own storage follows the connection, for writes and comparisons alike.
        #expect(try Appointment.where { $0.at == at }.fetchCount(db) == 2)
        // Stored forms: seconds and 16 bytes whatever the connection; `at` by the connection.
        #expect(
            try db.fetchValue(String.self, "SELECT typeof(day) || ',' || typeof(device) FROM appointment LIMIT 1")
                == "integer,blob")
        #expect(try db.fetchValue(Int.self, "SELECT length(device) FROM appointment LIMIT 1") == 16)
        // Updates assign as the column stores.
        let changed = try Appointment.update { $0.day.set(to: tuesday.date) }.where { $0.id == visit.id }.execute(db)
        #expect(changed == 1)
        #expect(try Appointment.belonging(to: tuesday).fetchCount(db) == 2)
    }

    @Test func printedStatementsShowTheirValuesInsteadOfNothing() throws {
        let visit = Appointment(
            id: 7, day: Date(timeIntervalSince1970: 86_400), device: UUID(), at: Date(timeIntervalSince1970: 0))
        let insert = Appointment.insert(visit)
        #expect(insert.sql.text == #"INSERT INTO "appointment" ("id", "day", "device", "at") VALUES (?, ?, ?, ?)"#)
        #expect(insert.sql.arguments.positional.count == 4)
        let values = try insert.sql.arguments.positional.map { try $0?.sqlValue ?? .null }
        #expect(values[0] == .integer(7))
        #expect(values[1] == .integer(86_400))
        if case .blob(let bytes) = values[2] {
            #expect(bytes.count == 16)
        } else {
            Issue.record("the UUID is not a blob")
        }
        let update = UpdateRecord(visit)
        #expect(update.sql.text == #"UPDATE "appointment" SET "day" = ?2, "device" = ?3, "at" = ?4 WHERE "id" = ?1"#)
        #expect(update.sql.arguments.positional.count == 4)
    }

    @Test func aQueryBuiltOutsideASendableClosureRunsInsideOne() async throws {
        let queue = try DatabaseQueue()
        try await queue.write { db in
            try db.createTable(for: Day.self)
            try db.insert(Day(date: Date(timeIntervalSince1970: 0), label: "epoch"))
            try db.insert(Day(date: Date(timeIntervalSince1970: 86_400), label: "next"))
        }
        let query = Day.where { $0.date > Date(timeIntervalSince1970: 0) }.order { $0.label }
        let count = Day.all().select { $0.label.count() }
        let labels = try await Task { @Sendable in
            try await queue.read { db in try query.fetchAll(db).map(\.label) }
        }.value
        #expect(labels == ["next"])
        let total = try await queue.read { db in try count.fetchOne(db) }
        #expect(total == 2)
    }
}
