import Foundation
import Slate

/// Random values of every supported Swift type, bound into six columns (no type, `BLOB`,
/// `INTEGER`, `REAL`, `TEXT`, `NUMERIC`: every affinity) and read back from the live row and from
/// its copy as every supported type.
///
/// The oracle: a read returns exactly the lossless conversion of what SQLite stored
/// (``ExactConversion``) or throws a `DatabaseError`; reading the column without affinity as the
/// type that was bound gives the value back (to the precision the type's storage documents); a
/// bind refuses only values that cannot be stored; a live and a copied row answer alike.
final class ValueDomain {
    static let strategies: [DateStrategy] = [.iso8601, .unixSeconds, .unixMilliseconds, .julianDay]
    private static let columns = ["a", "b", "i", "r", "t", "n"]
    private static let select: String = {
        let names = columns
        let parts =
            names + names.map { "typeof(\($0))" } + names.map { "CAST(\($0) AS BLOB)" }
            + names.map { StoredValue.sqliteInstantMilliseconds(of: $0) }
        return "SELECT " + parts.joined(separator: ", ") + " FROM v"
    }()

    private var connections: [DateStrategy: Database] = [:]
    private var probes: [DateStrategy: [Probe]] = [:]

    init() throws {
        for strategy in Self.strategies {
            var configuration = Database.Configuration()
            configuration.dateStrategy = strategy
            let db = try Database(location: .inMemory, configuration: configuration)
            try db.execute(sql: "CREATE TABLE v(a, b BLOB, i INTEGER, r REAL, t TEXT, n NUMERIC)")
            connections[strategy] = db
            probes[strategy] = Self.makeProbes(connection: strategy)
        }
    }

    func run(_ entropy: inout Entropy, _ context: inout CaseContext) throws {
        let strategy = entropy.pick(Self.strategies)
        guard let db = connections[strategy], let probes = probes[strategy] else { return }
        try db.execute(sql: "DELETE FROM v")
        let written = Self.makeWritten(&entropy, connection: strategy)
        context.report.count("values bound")
        let expressions = Array(repeating: written.expression, count: 6)
        do {
            if entropy.bool() {
                let statement = try db.cachedStatement(
                    sql: "INSERT INTO v VALUES (\(expressions.joined(separator: ", ")))".replacingOccurrences(
                        of: "?", with: "?1"))
                try written.argument.bind(to: statement, at: 1)
                try statement.run()
            } else {
                let arguments = StatementArguments(Array(repeating: written.argument, count: 6))
                try db.execute(
                    SQL(sql: "INSERT INTO v VALUES (\(expressions.joined(separator: ", ")))", arguments: arguments))
            }
        } catch let error as DatabaseError {
            if written.mayBeRefused {
                context.report.refused += 1
                context.report.count("binds refused as expected")
            } else {
                context.finding("refused a value it can store", "\(written.description): \(error)")
            }
            return
        } catch {
            context.finding("a bind threw \(type(of: error))", "\(written.description): \(error)")
            return
        }

        _ = try db.fetchAll(SQL(sql: Self.select)) { row in
            var stored: [StoredValue] = []
            for column in 0..<6 {
                stored.append(
                    try StoredValue.read(
                        row, value: column, type: 6 + column, bytes: 12 + column, date: 18 + column))
            }
            var liveAnswers: [[ReadAnswer]] = []
            for column in 0..<6 {
                if column < 2 {
                    // No affinity: what was bound is what is stored, and reads back as it was.
                    let answer = written.roundTrip.read(row, column, stored[column])
                    Self.judge(
                        answer, probe: written.roundTrip.name, stored: stored[column], column: column, roundTrip: true,
                        written, &context)
                }
                var answers: [ReadAnswer] = []
                for probe in probes {
                    let answer = probe.read(row, column, stored[column])
                    Self.judge(
                        answer, probe: probe.name, stored: stored[column], column: column, roundTrip: false, written,
                        &context)
                    answers.append(answer)
                }
                liveAnswers.append(answers)
            }
            let copy = row.copy()
            copy.withRow { copied in
                for column in 0..<6 {
                    var copiedStored = stored[column]
                    copiedStored.isLive = false
                    for (index, probe) in probes.enumerated() {
                        let answer = probe.read(copied, column, copiedStored)
                        Self.judge(
                            answer, probe: probe.name, stored: copiedStored, column: column, roundTrip: false, written,
                            &context)
                        let live = liveAnswers[column][index]
                        if case .known = live.verdict { continue }
                        if case .known = answer.verdict { continue }
                        if live.fingerprint != answer.fingerprint, case .exact = live.verdict,
                            case .exact = answer.verdict, stored[column].isText
                        {
                            // Both within the parse's tolerance: a live row parses numeric text with
                            // SQLite (`sqlite3_column_double`, not always correctly rounded), a copied
                            // row with Swift.
                            context.report.recordKnown(
                                .textParsedDifferentlyLiveAndCopied,
                                "\(probe.name): \(written.description), column \(Self.columns[column]) stores \(stored[column].value.fuzzDescription): live \(live.shown), copied \(answer.shown)"
                            )
                        } else if live.fingerprint != answer.fingerprint {
                            context.finding(
                                "live and copied rows disagree: \(probe.name)",
                                "\(written.description), column \(Self.columns[column]) stores \(stored[column].value.fuzzDescription): live \(live.shown), copied \(answer.shown)"
                            )
                        }
                    }
                }
            }
        }
    }

    private static func judge(
        _ answer: ReadAnswer, probe: String, stored: StoredValue, column: Int, roundTrip: Bool, _ written: WrittenValue,
        _ context: inout CaseContext
    ) {
        // Rendered only for a report: most answers are exact.
        func place() -> String {
            "\(written.description), column \(columns[column]) stores \(stored.value.fuzzDescription)\(stored.isValidUTF8 ? "" : " (not UTF-8)"), \(stored.isLive ? "live" : "copied") row"
        }
        switch answer.verdict {
        case .exact:
            context.report.exact += 1
        case .refused:
            if roundTrip {
                context.finding("stored, but not read back: \(probe)", place())
            } else {
                context.report.refused += 1
            }
        case .known(let issue):
            context.report.recordKnown(issue, "\(probe): \(place()): read \(answer.shown)")
        case .lie(let message):
            context.finding("lie: \(probe)", "\(place()): \(message)")
        case .foreignError(let message):
            context.finding("a read threw something else than DatabaseError: \(probe)", "\(place()): \(message)")
        }
    }

    // MARK: - Reads

    private static func integerProbe<Value: FixedWidthInteger & SQLExtractable>(_ type: Value.Type) -> Probe {
        Probe.make("\(Value.self)", read: { try $0.decode(Value.self, at: $1) }) { stored in
            ExactConversion.integer(stored, live: stored.isLive, as: Value.self)
        }
    }

    private static func optional<Value: Hashable>(_ model: @escaping (StoredValue) -> Expectation<Value>) -> (
        StoredValue
    ) -> Expectation<Value?> {
        { stored in
            if stored.isNull { return .exactly(.some(nil)) }
            let expectation = model(stored)
            let classify = expectation.classify
            let same = expectation.same
            return Expectation<Value?>(
                exact: expectation.exact.map { .some($0) },
                classify: classify.map { classify in { value in value.flatMap(classify) } },
                same: same.map { same in
                    { a, b in
                        guard let a, let b else { return a == nil && b == nil }
                        return same(a, b)
                    }
                })
        }
    }

    /// Every read, on a connection whose date strategy is `connection`.
    static func makeProbes(connection: DateStrategy) -> [Probe] {
        var probes: [Probe] = [
            integerProbe(Int.self), integerProbe(Int8.self), integerProbe(Int16.self), integerProbe(Int32.self),
            integerProbe(Int64.self),
            integerProbe(UInt.self), integerProbe(UInt8.self), integerProbe(UInt16.self), integerProbe(UInt32.self),
            integerProbe(UInt64.self),
            Probe.make("Bool", read: { try $0.decode(Bool.self, at: $1) }) {
                ExactConversion.bool($0, live: $0.isLive)
            },
            Probe.make("Double", read: { try $0.decode(Double.self, at: $1) }, same: ExactConversion.sameDouble) {
                ExactConversion.double($0, live: $0.isLive)
            },
            Probe.make("Float", read: { try $0.decode(Float.self, at: $1) }, same: ExactConversion.sameFloat) {
                ExactConversion.float($0, live: $0.isLive)
            },
            Probe.make(
                "String", read: { try $0.decode(String.self, at: $1) }, same: ExactConversion.sameString,
                model: ExactConversion.string),
            Probe.make("Data", read: { Array(try $0.decode(Data.self, at: $1)) }, model: ExactConversion.bytes),
            Probe.make("[UInt8]", read: { try $0.decode([UInt8].self, at: $1) }, model: ExactConversion.bytes),
            Probe.make("UUID", read: { try $0.decode(UUID.self, at: $1) }, model: ExactConversion.uuid),
            Probe.make("URL", read: { try $0.decode(URL.self, at: $1) }, model: ExactConversion.url),
            Probe.make(
                "Decimal", read: { try $0.decode(Decimal.self, at: $1) }, same: { $0 == $1 || $0.isNaN && $1.isNaN },
                model: ExactConversion.decimal),
            Probe.make(
                "SQLValue", read: { try $0.decode(SQLValue.self, at: $1) }, same: ExactConversion.sameSQLValue,
                model: ExactConversion.sqlValue),
            Probe.make("JSONEncoded<[Int]>", read: { try $0.decode(JSONEncoded<[Int]>.self, at: $1).value }) { stored in
                switch stored.value {
                case .text, .blob: .exactly(try? JSONDecoder().decode([Int].self, from: Data(stored.bytes)))
                default: .error
                }
            },
            Probe.make(
                "Int?", read: { try $0.decode(Int?.self, at: $1) },
                model: optional { ExactConversion.integer($0, live: $0.isLive, as: Int.self) }),
            Probe.make(
                "Double?", read: { try $0.decode(Double?.self, at: $1) },
                same: { a, b in
                    guard let a, let b else { return a == nil && b == nil }
                    return ExactConversion.sameDouble(a, b)
                }, model: optional { ExactConversion.double($0, live: $0.isLive) }),
            Probe.make(
                "String?", read: { try $0.decode(String?.self, at: $1) }, model: optional(ExactConversion.string)),
            Probe.make(
                "Date?", read: { row, index in try row.decode(Date?.self, at: index) },
                model: { stored in
                    optional { ExactConversion.date($0, strategy: connection) }(stored)
                }),
        ]
        // Dates: with the connection's strategy, and with each explicit one.
        probes.append(
            Probe.make("Date", read: { try $0.decode(Date.self, at: $1) }, same: ExactConversion.sameDate) { stored in
                ExactConversion.date(stored, strategy: connection)
            })
        for strategy in strategies {
            probes.append(
                Probe.make(
                    "Date(\(strategy))", read: { try $0.date(at: $1, strategy: strategy) as Date },
                    same: ExactConversion.sameDate
                ) {
                    ExactConversion.date($0, strategy: strategy)
                })
        }
        return probes
    }

    // MARK: - Writes

    /// A value bound into the six columns, with the read that must give it back.
    struct WrittenValue {
        var description: String
        /// The SQL expression inserted, `?` standing for the argument.
        var expression = "?"
        var argument: any SQLBindable
        var roundTrip: Probe
        /// Whether the bind may refuse the value (it cannot be stored as the type's storage says).
        var mayBeRefused: Bool
    }

    private static func written<Value: SQLBindable & SQLExtractable & Hashable>(
        _ name: String, _ value: Value, refusable: Bool = false, same: @escaping (Value, Value) -> Bool = { $0 == $1 },
        read: @escaping (borrowing Row, Int) throws -> Value = { try $0.decode(Value.self, at: $1) }
    ) -> WrittenValue {
        WrittenValue(
            description: "\(name) \(Show.value(value))", argument: value,
            roundTrip: Probe.make("\(name) read back", read: read, same: same) { _ in .exactly(value) },
            mayBeRefused: refusable)
    }

    private static func integer<Value: FixedWidthInteger & SQLBindable & SQLExtractable>(
        _ type: Value.Type, _ entropy: inout Entropy
    ) -> WrittenValue {
        let value =
            entropy.chance(0.3)
            ? Value(truncatingIfNeeded: entropy.next()) : Value(truncatingIfNeeded: Generate.int64(&entropy))
        return written("\(Value.self)", value, refusable: Int64(exactly: value) == nil)
    }

    /// Dates read back to the precision of their storage.
    static func sameDate(under strategy: DateStrategy) -> (Date, Date) -> Bool {
        { a, b in
            let x = a.timeIntervalSince1970
            let y = b.timeIntervalSince1970
            switch strategy {
            case .unixSeconds, .iso8601Date:
                return ExactConversion.sameDouble(x, y)
            case .iso8601, .iso8601Milliseconds, .unixMilliseconds:
                return abs(x - y) <= 0.0005 + 2 * max(x.ulp, y.ulp)
            case .julianDay:
                let days = x / 86_400 + 2_440_587.5
                return abs(x - y) <= 86_400 * days.ulp + 2 * max(x.ulp, y.ulp)
            }
        }
    }

    /// Whether a date cannot be stored with `strategy`: not finite, outside ISO-8601's four-digit
    /// years, or too many milliseconds for a `Double`.
    static func dateMayBeRefused(_ date: Date, _ strategy: DateStrategy) -> Bool {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return true }
        switch strategy {
        case .iso8601, .iso8601Milliseconds, .iso8601Date:
            // ISO-8601 text holds the date rounded to the millisecond (half away from zero), in
            // the years 0000 to 9999; a day (`.iso8601Date`) only midnight UTC.
            guard let milliseconds = Int64(exactly: (seconds * 1000).rounded()) else { return true }
            if strategy == .iso8601Date && milliseconds % 86_400_000 != 0 { return true }
            return !(-62_167_219_200_000...253_402_300_799_999).contains(milliseconds)
        case .unixMilliseconds: return !(seconds * 1000).isFinite
        case .julianDay: return !((seconds / 86_400 + 2_440_587.5 - 2_440_587.5) * 86_400).isFinite
        case .unixSeconds: return false
        }
    }

    static func makeWritten(_ entropy: inout Entropy, connection: DateStrategy) -> WrittenValue {
        switch entropy.int(0...26) {
        case 0: return integer(Int.self, &entropy)
        case 1: return integer(Int8.self, &entropy)
        case 2: return integer(Int16.self, &entropy)
        case 3: return integer(Int32.self, &entropy)
        case 4, 5: return integer(Int64.self, &entropy)
        case 6: return integer(UInt.self, &entropy)
        case 7: return integer(UInt8.self, &entropy)
        case 8: return integer(UInt16.self, &entropy)
        case 9: return integer(UInt32.self, &entropy)
        case 10: return integer(UInt64.self, &entropy)
        case 11: return written("Bool", entropy.bool())
        case 12:
            let value = Generate.double(&entropy)
            return written("Double", value, refusable: value.isNaN, same: ExactConversion.sameDouble)
        case 13:
            let value = Float(Generate.double(&entropy))
            return written("Float", value, refusable: value.isNaN, same: ExactConversion.sameFloat)
        case 14: return written("String", Generate.string(&entropy))
        case 15: return written("Data", Data(Generate.bytes(&entropy)))
        case 16: return written("[UInt8]", Generate.bytes(&entropy))
        case 17, 18:
            let date = Generate.date(&entropy)
            if entropy.bool() {
                return written(
                    "Date(connection \(connection))", date, refusable: dateMayBeRefused(date, connection),
                    same: sameDate(under: connection))
            }
            let strategy = entropy.pick(strategies)
            return WrittenValue(
                description: "EncodedDate(\(strategy)) \(Show.value(date))",
                argument: EncodedDate(date, strategy: strategy),
                roundTrip: Probe.make(
                    "Date(\(strategy)) read back", read: { try $0.date(at: $1, strategy: strategy) as Date },
                    same: sameDate(under: strategy)
                ) { _ in
                    .exactly(date)
                },
                mayBeRefused: dateMayBeRefused(date, strategy))
        case 19:
            let uuid = Generate.uuid(&entropy)
            if entropy.bool() { return written("UUID", uuid) }
            return WrittenValue(
                description: "UUID as blob \(uuid)", argument: UUIDStorage.blob.sqlValue(for: uuid),
                roundTrip: Probe.make("UUID (blob) read back", read: { try $0.decode(UUID.self, at: $1) }) { _ in
                    .exactly(uuid)
                },
                mayBeRefused: false)
        case 20: return written("URL", Generate.url(&entropy))
        case 21:
            let decimal = Generate.decimal(&entropy)
            return written("Decimal", decimal, refusable: decimal.isNaN, same: { $0 == $1 || $0.isNaN && $1.isNaN })
        case 22:
            let ratio: Double? = entropy.bool() ? nil : Generate.double(&entropy)
            let sample = JSONSample(
                name: Generate.string(&entropy),
                values: (0..<entropy.int(0...5)).map { _ in Int(Generate.int64(&entropy)) }, ratio: ratio)
            return written("JSONEncoded", JSONEncoded(sample), refusable: !(ratio?.isFinite ?? true))
        case 23:
            let value: SQLValue
            switch entropy.int(0...4) {
            case 0: value = .null
            case 1: value = .integer(Generate.int64(&entropy))
            case 2: value = .real(Generate.double(&entropy))
            case 3: value = .text(Generate.string(&entropy))
            default: value = .blob(Data(Generate.bytes(&entropy)))
            }
            var refusable = false
            if case .real(let real) = value, real.isNaN { refusable = true }
            return written("SQLValue", value, refusable: refusable, same: ExactConversion.sameSQLValue)
        case 24:
            return written("Int? nil", Int?.none)
        case 25:
            // Text that is not UTF-8: bytes cast to TEXT by SQLite. Read as bytes, it is what was stored.
            let bytes = Generate.bytes(&entropy)
            return WrittenValue(
                description: "CAST(\(Show.bytes(bytes)) AS TEXT)", expression: "CAST(? AS TEXT)", argument: Data(bytes),
                roundTrip: Probe.make("bytes of TEXT read back", read: { Array(try $0.decode(Data.self, at: $1)) }) {
                    _ in .exactly(bytes)
                },
                mayBeRefused: false)
        default:
            let text = Generate.dateText(&entropy)
            return written("String (date-like)", text)
        }
    }
}
