import Foundation
import Slate

/// A `CodableRecord`, decoded by column name.
struct FuzzPerson: CodableRecord, Hashable {
    enum Level: String, Codable, Hashable, Sendable { case low, mid, high }

    static var tableName: String { "fuzz_person" }
    var id: Int64?
    var name: String
    var score: Double
    var rank: Int8
    var active: Bool
    var born: Date?
    var token: UUID?
    var payload: Data
    var tags: [String]
    var home: URL?
    var price: Decimal?
    var level: Level

    static let fields: [DecodeDomain.Field] = [
        .init("id", .int64, optional: true), .init("name", .string), .init("score", .double), .init("rank", .int8),
        .init("active", .bool), .init("born", .date, optional: true), .init("token", .uuid, optional: true),
        .init("payload", .data),
        .init("tags", .stringArray), .init("home", .url, optional: true), .init("price", .decimal, optional: true),
        .init("level", .level),
    ]

    var fieldValues: [Any?] { [id, name, score, rank, active, born, token, payload, tags, home, price, level] }
}

/// A hand-written `Table` record, decoded by column position.
struct FuzzPoint: Table, Hashable {
    var x: Int32
    var y: Double?
    var label: String
    var stamp: Date

    static let schema = TableSchema(
        name: "fuzz_point",
        columns: [
            .init(name: "x", type: "INTEGER", isNotNull: true), .init(name: "y", type: "REAL"),
            .init(name: "label", type: "TEXT", isNotNull: true), .init(name: "stamp", type: "TEXT", isNotNull: true),
        ])

    struct Columns: TableColumns {
        let x: Column<FuzzPoint, Int32>
        let y: Column<FuzzPoint, Double?>
        let label: Column<FuzzPoint, String>
        let stamp: Column<FuzzPoint, Date>
        init(qualifier: String) {
            x = Column(qualifier, "x")
            y = Column(qualifier, "y")
            label = Column(qualifier, "label")
            stamp = Column(qualifier, "stamp")
        }
    }

    init(row: borrowing Row) throws {
        x = try row.decode(at: 0)
        y = try row.decode(at: 1)
        label = try row.decode(at: 2)
        stamp = try row.decode(at: 3)
    }

    func encode<Encoder: ColumnEncoder>(to encoder: inout Encoder) throws(Encoder.Failure) {
        try encoder.encode(x)
        try encoder.encode(y)
        try encoder.encode(label)
        try encoder.encode(stamp)
    }

    static let fields: [DecodeDomain.Field] = [
        .init("x", .int32), .init("y", .double, optional: true), .init("label", .string), .init("stamp", .date),
    ]

    var fieldValues: [Any?] { [x, y, label, stamp] }
}

/// Tables whose columns do not match the records read from them — missing, extra, renamed by case,
/// reordered, of other types, holding values of other types — read through the query builder,
/// raw SQL with random projections (live rows, cursors, copies) into `CodableRecord`s (by name)
/// and `Table` records (by position).
///
/// The oracle: each decoded field is the exact conversion of the stored value it was read from
/// (``ExactConversion``), or the decode throws; what is thrown is a `DatabaseError` (or, from
/// `Codable` machinery, a `DecodingError`); live rows, cursors and copies agree; no read changes
/// the schema.
final class DecodeDomain {
    enum Kind { case int64, int8, int32, double, string, bool, date, uuid, data, url, decimal, stringArray, level }

    struct Field {
        var name: String
        var kind: Kind
        var optional: Bool
        init(_ name: String, _ kind: Kind, optional: Bool = false) {
            self.name = name
            self.kind = kind
            self.optional = optional
        }
    }

    private let db: Database

    init() throws {
        db = try Database(location: .inMemory)
    }

    func run(_ entropy: inout Entropy, _ context: inout CaseContext) throws {
        let isPerson = entropy.bool()
        let fields = isPerson ? FuzzPerson.fields : FuzzPoint.fields
        let table = isPerson ? FuzzPerson.tableName : FuzzPoint.tableName
        try db.execute(sql: "DROP TABLE IF EXISTS \(table)")

        // The table: the record's columns, some missing or renamed by case, extra ones, any order.
        var columns: [(name: String, type: String)] = []
        let strict = entropy.chance(0.2)
        let types =
            strict
            ? ["INT", "INTEGER", "REAL", "TEXT", "BLOB", "ANY"]
            : ["", "INTEGER", "TEXT", "REAL", "BLOB", "NUMERIC", "ANY", "DATETIME", "BOOLEAN", "VARCHAR(3)"]
        for field in fields where entropy.chance(0.9) {
            let name =
                entropy.chance(0.85) ? field.name : entropy.bool() ? field.name.uppercased() : field.name.capitalized
            columns.append((name, entropy.pick(types)))
        }
        for index in 0..<entropy.int(0...2) { columns.append(("extra\(index)", entropy.pick(types))) }
        // A STRICT table needs a type for every column (found by libFuzzer: .ci/libfuzzer.sh decode).
        if columns.isEmpty { columns.append(("only", strict ? "ANY" : "")) }
        for index in columns.indices.reversed() { columns.swapAt(index, entropy.int(0...index)) }
        let definitions = columns.map { "\"\($0.name)\" \($0.type)" }.joined(separator: ", ")
        try db.execute(sql: "CREATE TABLE \(table)(\(definitions))\(strict ? " STRICT" : "")")

        // One to three rows: values that fit the field, values of other types, NULLs.
        for _ in 0..<entropy.int(1...3) {
            var values: [(any SQLBindable)?] = []
            for column in columns {
                let field = fields.first { $0.name.lowercased() == column.name.lowercased() }
                values.append(Self.value(for: field?.kind, &entropy))
            }
            let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            do {
                try db.execute(
                    sql: "INSERT INTO \(table) VALUES (\(placeholders))", arguments: StatementArguments(values))
            } catch is DatabaseError {
                context.report.count("rows a STRICT table refused")
            }
        }
        let schemaBefore = try db.fetchAll(String.self, sql: "SELECT sql FROM sqlite_schema ORDER BY name")
        context.report.count("tables decoded")

        // A random projection: columns in any order, some twice, some aliased to other names.
        var projection: [(expression: String, name: String)] = []
        for _ in 0..<entropy.int(1...(columns.count + 2)) {
            let column = entropy.pick(columns).name
            let alias = entropy.chance(0.2) ? entropy.pick(fields).name : column
            projection.append(("\"\(column)\"", alias))
        }
        let rawSQL =
            "SELECT " + projection.map { "\($0.expression) AS \"\($0.name)\"" }.joined(separator: ", ")
            + " FROM \(table) ORDER BY rowid"
        let storedRows = try storedValues(of: projection.map(\.expression), table: table)
        let namedStoredRows = try storedValues(of: columns.map { "\"\($0.name)\"" }, table: table)

        if isPerson {
            try check(
                FuzzPerson.self, fields: fields, values: \.fieldValues, rawSQL: rawSQL, names: projection.map(\.name),
                stored: storedRows, builder: { try FuzzPerson.all().fetchAll($0) }, byName: true,
                columns: columns.map(\.name),
                namedStored: namedStoredRows, &context)
        } else {
            try check(
                FuzzPoint.self, fields: fields, values: \.fieldValues, rawSQL: rawSQL, names: projection.map(\.name),
                stored: storedRows, builder: { try FuzzPoint.all().fetchAll($0) }, byName: false,
                columns: columns.map(\.name),
                namedStored: namedStoredRows, &context)
        }

        let schemaAfter = try db.fetchAll(String.self, sql: "SELECT sql FROM sqlite_schema ORDER BY name")
        if schemaAfter != schemaBefore {
            context.finding("a read changed the schema", "\(schemaBefore) became \(schemaAfter)")
        }
    }

    /// The stored values of `expressions` for each row of `table`, in rowid order.
    private func storedValues(of expressions: [String], table: String) throws -> [[StoredValue]] {
        let selection = expressions.flatMap { StoredValue.selection(of: $0) }
        return try db.fetchAll(SQL(sql: "SELECT \(selection.joined(separator: ", ")) FROM \(table) ORDER BY rowid")) {
            row in
            try expressions.indices.map { index in
                try StoredValue.read(
                    row, value: 4 * index, type: 4 * index + 1, bytes: 4 * index + 2, date: 4 * index + 3)
            }
        }
    }

    /// What one way of reading answered for each row.
    private enum Answer {
        case record(Int, [Any?])
        case refused
        case decodingError(String)
        case other(String)

        var fingerprint: String {
            switch self {
            case .record(let hash, _): "record \(hash)"
            case .refused, .decodingError: "error"
            case .other(let text): "other \(text)"
            }
        }
    }

    private func answers<Record: Hashable>(_ body: () throws -> [Record], values: (Record) -> [Any?], rows: Int)
        -> [Answer]
    {
        do {
            return try body().map { .record($0.hashValue, values($0)) }
        } catch {
            return Array(repeating: Self.answer(for: error), count: max(rows, 1))
        }
    }

    private static func answer(for error: any Error) -> Answer {
        switch error {
        case is DatabaseError: .refused
        case let error as DecodingError: .decodingError(String(String(describing: error).prefix(200)))
        default: .other("\(type(of: error)): \(String(String(describing: error).prefix(200)))")
        }
    }

    private func check<Record: RowDecodable & Hashable>(
        _ type: Record.Type, fields: [Field], values: @escaping (Record) -> [Any?], rawSQL: String, names: [String],
        stored: [[StoredValue]], builder: (Database) throws -> [Record], byName: Bool, columns: [String],
        namedStored: [[StoredValue]], _ context: inout CaseContext
    ) throws {
        let rows = stored.count
        // Raw SQL, row by row: each live row decoded on its own, and each copied row.
        var live: [Answer] = []
        var copied: [Answer] = []
        do {
            live = try db.fetchAll(SQL(sql: rawSQL)) { row -> Answer in
                do {
                    let record = try Record(row: row)
                    return .record(record.hashValue, values(record))
                } catch {
                    return Self.answer(for: error)
                }
            }
            for row in try db.fetchAll(CopiedRow.self, sql: rawSQL) {
                do {
                    let record = try row.decode(Record.self)
                    copied.append(.record(record.hashValue, values(record)))
                } catch {
                    copied.append(Self.answer(for: error))
                }
            }
        } catch {
            context.finding("the query itself failed", "\(rawSQL): \(error)")
            return
        }
        if live.count != rows || copied.count != rows {
            context.finding(
                "a read returned another number of rows",
                "\(rawSQL): \(rows) stored, \(live.count) live, \(copied.count) copied")
            return
        }
        // The whole-result calls: the records of every row, or an error when one row fails.
        let allRecords = live.allSatisfy { if case .record = $0 { true } else { false } }
        let wholeAnswers: [(String, [Answer])] = [
            ("fetchAll", answers({ try db.fetchAll(Record.self, sql: rawSQL) }, values: values, rows: rows)),
            (
                "a cursor",
                answers({ try db.fetchCursor(Record.self, sql: rawSQL).collect() }, values: values, rows: rows)
            ),
        ]
        for (path, answer) in wholeAnswers {
            if allRecords {
                if answer.map(\.fingerprint) != live.map(\.fingerprint) {
                    context.finding(
                        "\(path) and live rows disagree",
                        "\(rawSQL): \(path) \(answer.map(\.fingerprint)), live rows \(live.map(\.fingerprint))")
                }
            } else if answer.contains(where: { if case .record = $0 { true } else { false } }) {
                context.finding("\(path) returned records although a row fails to decode", rawSQL)
            }
        }
        let one: Answer? = {
            do {
                return try db.fetchOne(Record.self, sql: rawSQL).map { .record($0.hashValue, values($0)) }
            } catch {
                return Self.answer(for: error)
            }
        }()

        for (index, answer) in live.enumerated() {
            let known = judge(
                answer, fields: fields, names: names, stored: stored[index], byName: byName, live: true,
                path: "live row \(rawSQL)", &context)
            let copiedStored = stored[index].map { value -> StoredValue in
                var value = value
                value.isLive = false
                return value
            }
            let copiedKnown = judge(
                copied[index], fields: fields, names: names, stored: copiedStored, byName: byName, live: false,
                path: "copied row \(rawSQL)", &context)
            var others: [(String, Answer?)] = [("copied row", copied[index])]
            if index == 0 { others.append(("fetchOne", one)) }
            for (path, other) in others {
                guard let other else {
                    context.finding("a read lost a row: \(path)", rawSQL)
                    continue
                }
                // A known inexact read differs between live and copied rows by definition (the
                // live one goes through the C API's conversions).
                if !known, !(path == "copied row" && copiedKnown), other.fingerprint != answer.fingerprint {
                    context.finding(
                        "\(path) and a live row disagree",
                        "\(rawSQL): \(path) \(other.fingerprint), live \(answer.fingerprint)")
                }
            }
        }

        // The query builder selects the record's columns by name.
        let built = answers({ try builder(db) }, values: values, rows: rows)
        let lookup: [String] = fields.map { field in
            columns.first { $0 == field.name } ?? columns.first { $0.lowercased() == field.name.lowercased() } ?? ""
        }
        for (index, answer) in built.enumerated() where index < rows {
            let storedByField: [StoredValue] = lookup.map { name in
                guard let position = columns.firstIndex(of: name) else {
                    return StoredValue(value: .null, isValidUTF8: false)
                }
                return namedStored[index][position]
            }
            let missing = lookup.contains("")
            if missing, case .record = answer,
                fields.enumerated().contains(where: { lookup[$0.offset].isEmpty && !$0.element.optional })
            {
                context.finding(
                    "the query builder read a record from a table missing a column", "\(type) from \(columns)")
                continue
            }
            if case .decodingError(let text) = answer {
                context.finding("the query builder threw a DecodingError, not a DatabaseError naming the column", text)
                continue
            }
            _ = judge(
                answer, fields: fields, names: fields.map(\.name), stored: storedByField, byName: false, live: true,
                path: "builder \(type)", &context,
                missingColumns: Set(lookup.indices.filter { lookup[$0].isEmpty }))
        }
    }

    /// Judges a decoded record field by field; returns whether a known inexact read was involved.
    @discardableResult
    private func judge(
        _ answer: Answer, fields: [Field], names: [String], stored: [StoredValue], byName: Bool, live: Bool,
        path: String,
        _ context: inout CaseContext, missingColumns: Set<Int> = []
    ) -> Bool {
        switch answer {
        case .refused:
            context.report.refused += 1
            return false
        case .decodingError:
            context.report.refused += 1
            context.report.count("DecodingErrors from Codable decoding")
            return false
        case .other(let text):
            context.finding("a decode threw something else than DatabaseError or DecodingError", "\(path): \(text)")
            return false
        case .record(_, let values):
            var known = false
            for (position, field) in fields.enumerated() {
                let value = values[position]
                // The column the field reads: by name (first exact match, then any case), or by position.
                let column: Int?
                if missingColumns.contains(position) {
                    column = nil
                } else if byName {
                    column =
                        names.firstIndex(of: field.name)
                        ?? names.firstIndex { $0.lowercased() == field.name.lowercased() }
                } else {
                    column = position < stored.count ? position : nil
                }
                guard let column else {
                    if value != nil || !field.optional {
                        context.finding(
                            "a field read from no column", "\(path): \(field.name) = \(Show.value(value as Any))")
                    } else {
                        context.report.exact += 1
                    }
                    continue
                }
                var source = stored[column]
                source.isLive = live
                switch Self.verdict(field, value, source) {
                case .exact: context.report.exact += 1
                case .refused: context.report.refused += 1
                case .known(let issue):
                    known = true
                    context.report.recordKnown(
                        issue, "\(path): field \(field.name) from \(source.value.fuzzDescription)")
                case .lie(let message):
                    context.finding(
                        "lie: \(field.name) (\(field.kind))",
                        "\(path): from \(source.value.fuzzDescription)\(source.isValidUTF8 ? "" : " (not UTF-8)"): \(message)"
                    )
                case .foreignError(let message):
                    context.finding("foreign error", message)
                }
            }
            return known
        }
    }

    private static func verdict(_ field: Field, _ value: Any?, _ stored: StoredValue) -> Verdict {
        if stored.isNull {
            return value == nil && field.optional ? .exact : .lie("read \(Show.value(value as Any)) from NULL")
        }
        guard let value else { return .lie("read nil from \(stored.value.fuzzDescription)") }
        switch field.kind {
        case .int64: return judge(value, ExactConversion.integer(stored, live: stored.isLive, as: Int64.self), same: ==)
        case .int8: return judge(value, ExactConversion.integer(stored, live: stored.isLive, as: Int8.self), same: ==)
        case .int32: return judge(value, ExactConversion.integer(stored, live: stored.isLive, as: Int32.self), same: ==)
        case .double:
            return judge(value, ExactConversion.double(stored, live: stored.isLive), same: ExactConversion.sameDouble)
        case .string: return judge(value, ExactConversion.string(stored), same: ExactConversion.sameString)
        case .bool: return judge(value, ExactConversion.bool(stored, live: stored.isLive), same: ==)
        case .date:
            return judge(value, ExactConversion.date(stored, strategy: .iso8601), same: ExactConversion.sameDate)
        case .uuid: return judge(value, ExactConversion.uuid(stored), same: ==)
        case .data:
            guard let data = value as? Data else { return .lie("not Data") }
            return judge(Array(data), ExactConversion.bytes(stored), same: ==)
        case .url: return judge(value, ExactConversion.url(stored), same: ==)
        case .decimal: return judge(value, ExactConversion.decimal(stored), same: ==)
        case .stringArray:
            let exact: [String]? =
                switch stored.value {
                case .text, .blob: try? JSONDecoder().decode([String].self, from: Data(stored.bytes))
                default: nil
                }
            return judge(value, Expectation.exactly(exact), same: ==)
        case .level:
            let exact: FuzzPerson.Level? =
                switch stored.value {
                case .text(let text) where stored.isValidUTF8: FuzzPerson.Level(rawValue: text)
                default: nil
                }
            return judge(value, Expectation.exactly(exact), same: ==)
        }
    }

    private static func judge<Value>(
        _ value: Any, _ expectation: Expectation<Value>, same: @escaping (Value, Value) -> Bool
    ) -> Verdict {
        guard let value = value as? Value else { return .lie("a \(type(of: value)), not a \(Value.self)") }
        if let exact = expectation.exact, (expectation.same ?? same)(value, exact) { return .exact }
        if let issue = expectation.classify?(value) { return .known(issue) }
        return .lie("read \(Show.value(value)), expected \(expectation.exact.map { Show.value($0) } ?? "an error")")
    }

    /// A value for a column: one that fits the field's kind most of the time, else anything.
    static func value(for kind: Kind?, _ entropy: inout Entropy) -> (any SQLBindable)? {
        if entropy.chance(0.1) { return nil }
        if let kind, entropy.chance(0.7) {
            switch kind {
            case .int64: return Generate.int64(&entropy)
            case .int8: return Int64(entropy.int(-130...130))
            case .int32: return entropy.chance(0.8) ? Int64(entropy.int(-1000...1000)) : Generate.int64(&entropy)
            case .double:
                let value = Generate.double(&entropy)
                return value.isNaN ? 0.25 : value
            case .string: return Generate.string(&entropy)
            case .bool: return entropy.chance(0.8) ? Int64(entropy.int(0...1)) : Generate.int64(&entropy)
            case .date:
                return entropy.bool()
                    ? Generate.dateText(&entropy) : Double(entropy.int(-1_000_000_000...2_000_000_000))
            case .uuid:
                return entropy.bool()
                    ? Generate.uuid(&entropy).uuidString as any SQLBindable
                    : UUIDStorage.blob.sqlValue(for: Generate.uuid(&entropy))
            case .data: return Data(Generate.bytes(&entropy))
            case .url: return Generate.url(&entropy).absoluteString
            case .decimal: return Generate.decimal(&entropy).description
            case .stringArray:
                return entropy.bool()
                    ? "[\"a\",\"b\"]"
                    : "["
                        + (0..<entropy.int(0...3)).map { _ in String(reflecting: Generate.string(&entropy)) }.joined(
                            separator: ",") + "]"
            case .level: return entropy.pick(["low", "mid", "high", "LOW", "none", ""])
            }
        }
        switch entropy.int(0...4) {
        case 0: return Generate.int64(&entropy)
        case 1:
            let value = Generate.double(&entropy)
            return value.isNaN ? 1.5 : value
        case 2: return Generate.string(&entropy)
        case 3: return Data(Generate.bytes(&entropy))
        default: return SQLValue.text(Generate.dateText(&entropy))
        }
    }
}
