import Foundation
import Slate
import SlateTestSupport
import Testing

/// S7: date storage that SQLite's date functions understand, per connection and per column.
@Suite struct DateTests {
    /// 2023-11-14 22:13:20.123 UTC
    let date = Date(timeIntervalSince1970: 1_700_000_000.123)

    @Test func iso8601IsTheDefaultAndWorksWithDateFunctions() throws {
        let db = try Database.memory()
        #expect(try db.fetchValue(String.self, "SELECT \(date)") == "2023-11-14 22:13:20.123")
        #expect(try db.fetchValue(String.self, "SELECT date(\(date))") == "2023-11-14")
        #expect(try db.fetchValue(String.self, "SELECT strftime('%H:%M', \(date))") == "22:13")
        let back = try db.fetchValue(Date.self, "SELECT \(date)")
        #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.0005)
    }

    @Test func dateRangeQueriesWork() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE car(name TEXT, released TEXT)")
        for (name, year) in [("70s", 1975), ("80s", 1983), ("90s", 1992), ("00s", 2001)] {
            let released = try #require(
                Calendar(identifier: .gregorian).date(
                    from: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: year, month: 6, day: 1)))
            try db.execute("INSERT INTO car VALUES (\(name), \(released))")
        }
        let from = Date(timeIntervalSince1970: 315_532_800)  // 1980-01-01
        let to = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01
        #expect(
            try db.fetchValue(Int.self, "SELECT count(*) FROM car WHERE released >= \(from) AND released <= \(to)") == 2
        )
    }

    @Test func connectionStrategies() throws {
        let unix = try Database.memory { $0.dateStrategy = .unixSeconds }
        #expect(try unix.fetchValue(String.self, "SELECT typeof(\(date))") == "real")
        #expect(try unix.fetchValue(Int.self, "SELECT \(Date(timeIntervalSince1970: 86_400))") == 86_400)
        #expect(
            try unix.fetchValue(String.self, "SELECT datetime(\(Date(timeIntervalSince1970: 86_400)), 'unixepoch')")
                == "1970-01-02 00:00:00")
        #expect(try unix.fetchValue(Date.self, "SELECT 86400") == Date(timeIntervalSince1970: 86_400))

        let julian = try Database.memory { $0.dateStrategy = .julianDay }
        #expect(try julian.fetchValue(Double.self, "SELECT \(Date(timeIntervalSince1970: 0))") == 2_440_587.5)
        #expect(try julian.fetchValue(String.self, "SELECT date(\(date))") == "2023-11-14")
        let fromJulian = try julian.fetchValue(Date.self, "SELECT julianday('2023-11-14 22:13:20.123')")
        #expect(abs(fromJulian.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.001)

        let millis = try Database.memory { $0.dateStrategy = .unixMilliseconds }
        #expect(try millis.fetchValue(Int.self, "SELECT \(date)") == 1_700_000_000_123)
        #expect(try millis.fetchValue(Date.self, "SELECT 1700000000123").timeIntervalSince1970 == 1_700_000_000.123)
    }

    @Test func textInAnyISOFormIsReadWhateverTheStrategy() throws {
        let db = try Database.memory { $0.dateStrategy = .julianDay }
        let cases: [(String, Double)] = [
            ("2023-11-14", 1_699_920_000),
            ("2023-11-14 22:13", 1_700_000_000 - 20),
            ("2023-11-14T22:13:20Z", 1_700_000_000),
            ("2023-11-14T23:13:20+01:00", 1_700_000_000),
            ("2023-11-14 22:13:20.5", 1_700_000_000.5),
        ]
        for (text, seconds) in cases {
            #expect(try db.fetchValue(Date.self, "SELECT \(text)").timeIntervalSince1970 == seconds, "\(text)")
        }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Date.self, "SELECT 'yesterday'") }
        #expect(throws: DatabaseError.self) { try db.fetchValue(Date.self, "SELECT '2023-13-01'") }
    }

    @Test func perColumnStrategyOverridesTheConnection() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE event(at_text TEXT, at_unix INTEGER)")
        let statement = try db.prepare(sql: "INSERT INTO event VALUES (?, ?)")
        try statement.bind(date, at: 1)
        try statement.bind(Date(timeIntervalSince1970: 1000), at: 2, strategy: .unixSeconds)
        try statement.run()
        let row = try #require(try db.fetchOne(CopiedRow.self, "SELECT at_text, at_unix, typeof(at_unix) FROM event"))
        #expect(try row.decode(String.self, at: 2) == "integer")
        #expect(try row.date(at: 1, strategy: .unixSeconds) == Date(timeIntervalSince1970: 1000))
        let optional: Date? = try row.date(at: 1, strategy: .unixSeconds)
        #expect(optional == Date(timeIntervalSince1970: 1000))
    }

    @Test func datesBeforeTheEpochAndFarFuture() throws {
        let db = try Database.memory()
        for seconds in [-1.5, -86_400 * 365 * 100.0, 253_402_300_799.0] {
            let value = Date(timeIntervalSince1970: seconds)
            #expect(try db.fetchValue(Date.self, "SELECT \(value)") == value)
        }
        #expect(
            try db.fetchValue(String.self, "SELECT \(Date(timeIntervalSince1970: -1.5))") == "1969-12-31 23:59:58.500")
    }
}

/// S5: Codable values as JSON.
@Suite struct JSONTests {
    struct Employee: Codable, Equatable, JSONStorable {
        var id: Int
        var firstName: String
        var tags: Set<String>
    }

    struct Point: Codable, Equatable { var x: Double, y: Double }

    @Test func codableObjectsRoundTripAndAreQueryable() throws {
        let db = try Database.memory()
        try db.execute(sql: "CREATE TABLE employee(id INTEGER PRIMARY KEY, data TEXT NOT NULL)")
        let phil = Employee(id: 1, firstName: "Phil", tags: ["founder"])
        try db.execute("INSERT INTO employee(data) VALUES (\(phil))")
        #expect(try db.fetchValue(Employee.self, "SELECT data FROM employee") == phil)
        #expect(try db.fetchValue(String.self, "SELECT json_extract(data, '$.firstName') FROM employee") == "Phil")
        #expect(
            try db.fetchValue(String.self, "SELECT data FROM employee")
                == #"{"firstName":"Phil","id":1,"tags":["founder"]}"#)
    }

    @Test func arraysSetsAndDictionaries() throws {
        let db = try Database.memory()
        let points = [Point(x: 1, y: 2), Point(x: 3, y: 4)]
        #expect(try db.fetchValue(JSONEncoded<[Point]>.self, "SELECT \(JSONEncoded(points))").value == points)
        #expect(try db.fetchValue(Int.self, "SELECT json_array_length(\(JSONEncoded(points)))") == 2)
        let set: Set<Int> = [3, 1, 2]
        #expect(try db.fetchValue(JSONEncoded<Set<Int>>.self, "SELECT \(JSONEncoded(set))").value == set)
        let dictionary = ["b": 2, "a": 1]
        #expect(try db.fetchValue(String.self, "SELECT \(JSONEncoded(dictionary))") == #"{"a":1,"b":2}"#)
        #expect(
            try db.fetchValue(JSONEncoded<[String: Int]>.self, "SELECT \(JSONEncoded(dictionary))").value == dictionary)
    }

    @Test func invalidJSONIsAMismatch() throws {
        let db = try Database.memory()
        let error = try #require(throws: DatabaseError.self) { try db.fetchValue(Employee.self, "SELECT '{not json'") }
        #expect(error.resultCode == .mismatch)
        #expect(error.message.contains("invalid JSON"))
    }
}

/// Issue 13, hazard 3: every date that can be bound round-trips, or is refused with a clear error.
@Suite struct DateRoundTripTests {
    static let extremes: [Date] = [
        Date(timeIntervalSince1970: -9_223_372_036_854_775.808),  // trapped in the ISO-8601 formatter
        Date(timeIntervalSince1970: 9_223_372_036_854_775.807),
        Date(timeIntervalSince1970: -62_167_219_200),  // 0000-01-01
        Date(timeIntervalSince1970: -62_167_219_200.001),  // just before
        Date(timeIntervalSince1970: 253_402_300_799.999),  // 9999-12-31 23:59:59.999
        Date(timeIntervalSince1970: 253_402_300_800),  // 10000-01-01
        Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300),
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001),
        Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
        Date.distantPast, Date.distantFuture,
    ]

    @Test(arguments: [
        DateStrategy.iso8601, .iso8601Milliseconds, .iso8601Date, .unixSeconds, .unixMilliseconds, .julianDay,
    ])
    func everyDateRoundTripsOrIsRefused(strategy: DateStrategy) throws {
        var configuration = Database.Configuration()
        configuration.dateStrategy = strategy
        let db = try Database(location: .inMemory, configuration: configuration)
        for date in Self.extremes + [Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity)] {
            let read: Date
            do {
                read = try db.fetchValue(Date.self, "SELECT \(date)")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .mismatch, "\(date.timeIntervalSince1970) under \(strategy): \(error)")
                #expect(
                    !date.timeIntervalSince1970.isFinite
                        || [.iso8601, .iso8601Milliseconds, .iso8601Date].contains(strategy),
                    "only ISO-8601 refuses finite dates")
                continue
            }
            let precision: Double
            switch strategy {
            case .iso8601, .iso8601Milliseconds, .unixMilliseconds: precision = 0.0005
            case .iso8601Date: precision = 0
            case .unixSeconds: precision = 0
            case .julianDay: precision = abs(date.timeIntervalSince1970) * 1e-15 + 1e-3
            }
            #expect(
                abs(read.timeIntervalSince1970 - date.timeIntervalSince1970) <= precision,
                "\(date.timeIntervalSince1970) under \(strategy) read back as \(read.timeIntervalSince1970)")
        }
    }

    @Test func iso8601RefusesYearsOutsideFourDigitsWithAClearError() throws {
        let db = try Database(location: .inMemory)
        for seconds in [-62_167_219_200.001, 253_402_300_800, -9_223_372_036_854_775.808] {
            let error = #expect(throws: DatabaseError.self) {
                try db.fetchValue(String.self, "SELECT \(Date(timeIntervalSince1970: seconds))")
            }
            #expect(error?.message.contains("0000 to 9999") == true)
        }
        #expect(
            try db.fetchValue(String.self, "SELECT \(Date(timeIntervalSince1970: -62_167_219_200))")
                == "0000-01-01 00:00:00")
        #expect(
            try db.fetchValue(String.self, "SELECT \(Date(timeIntervalSince1970: 253_402_300_799.999))")
                == "9999-12-31 23:59:59.999")
    }

    @Test func impossibleCalendarDatesAreNotRead() throws {
        let db = try Database(location: .inMemory)
        for text in [
            "2024-02-31", "2023-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-01 24:00",
            "2024-01-01 10:60", "2024-01-01 10:00:60", "2024-01-01 10:00+25:00", "2024-01-01 10:00+01:60",
        ] {
            #expect(throws: DatabaseError.self, "\(text)") { try db.fetchValue(Date.self, "SELECT \(text)") }
        }
        #expect(try db.fetchValue(Date.self, "SELECT '2024-02-29'") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(
            try db.fetchValue(Date.self, "SELECT '2000-02-29 12:00:00'") == Date(timeIntervalSince1970: 951_825_600))
    }
}
