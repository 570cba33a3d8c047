import Foundation
import Slate

/// One column's value as SQLite stores it, read without Slate's conversions: the storage class,
/// the number, or the exact bytes of TEXT and BLOB.
struct StoredValue {
    /// The value; TEXT that is not UTF-8 appears repaired here, with ``isValidUTF8`` `false`.
    var value: SQLValue
    /// The exact bytes of TEXT or BLOB.
    var bytes: [UInt8] = []
    var isValidUTF8 = true
    /// SQLite's own reading of TEXT as a date (`julianday`), in milliseconds since 1970; `nil` when
    /// SQLite reads no date from it.
    var sqliteDateMilliseconds: Int64?
    /// Whether the read is from a live row (the C API's fast paths) or a copied one (boxed values).
    var isLive = true

    var isNull: Bool { value.isNull }
    var isText: Bool { if case .text = value { true } else { false } }
}

extension StoredValue {
    /// The SQL that reads column `name` as ``read(_:value:type:bytes:date:)`` wants it: the value,
    /// `typeof`, the bytes, and SQLite's reading as a date (``sqliteInstantMilliseconds(of:)``).
    static func selection(of name: String) -> [String] {
        [name, "typeof(\(name))", "CAST(\(name) AS BLOB)", sqliteInstantMilliseconds(of: name)]
    }

    /// SQL for the instant SQLite's date functions read from `expression`, in milliseconds since
    /// 1970, or NULL: its Julian day number, whose error is far below a millisecond for years 0000
    /// to 9999, so rounding recovers SQLite's integer milliseconds. Not `strftime('%s')` with
    /// `strftime('%f')`: `%f` prints the seconds as parsed, so `…:59.9999` printed 59.999 beside
    /// the `%s` of the instant, the next minute: a second too late together.
    static func sqliteInstantMilliseconds(of expression: String) -> String {
        "CAST(round((julianday(\(expression)) - 2440587.5) * 86400000) AS INTEGER)"
    }

    /// The stored value of column `value`, read through SQL (`typeof` in column `type`,
    /// `CAST(… AS BLOB)` in column `bytes`, SQLite's instant in milliseconds in column `date`)
    /// rather than through the conversions under test.
    static func read(_ row: borrowing Row, value column: Int, type: Int, bytes: Int, date: Int) throws -> StoredValue {
        switch try row.decode(String.self, at: type) {
        case "integer":
            return StoredValue(value: .integer(try row.decode(Int64.self, at: column)))
        case "real":
            return StoredValue(value: .real(try row.decode(Double.self, at: column)))
        case "text":
            let raw = try row.decode([UInt8]?.self, at: bytes) ?? []
            let valid = String(validating: raw, as: UTF8.self)
            var stored = StoredValue(
                value: .text(valid ?? String(decoding: raw, as: UTF8.self)), bytes: raw, isValidUTF8: valid != nil)
            stored.sqliteDateMilliseconds = try row.decode(Int64?.self, at: date)
            return stored
        case "blob":
            let raw = try row.decode([UInt8]?.self, at: bytes) ?? []
            return StoredValue(value: .blob(Data(raw)), bytes: raw)
        default:
            return StoredValue(value: .null)
        }
    }
}

/// What a read must answer: the exact (lossless) conversion of the stored value, or an error when
/// there is none. A read may always throw a `DatabaseError` instead; it must never answer a
/// different value, unless the difference is on the ``KnownInexactRead`` list.
struct Expectation<Value> {
    var exact: Value?
    /// Names the known lie a wrong answer is, or `nil` when the answer is a new lie.
    var classify: ((Value) -> KnownInexactRead?)?
    /// How close an answer must be to ``exact`` when the probe's own comparison is too strict for
    /// this stored value (dates read from text are exact to the millisecond).
    var same: ((Value, Value) -> Bool)?

    init(exact: Value?, classify: ((Value) -> KnownInexactRead?)?, same: ((Value, Value) -> Bool)? = nil) {
        self.exact = exact
        self.classify = classify
        self.same = same
    }

    static func exactly(_ value: Value?) -> Self { Self(exact: value, classify: nil) }
    static var error: Self { Self(exact: nil, classify: nil) }
    static func error(known issue: KnownInexactRead) -> Self { Self(exact: nil, classify: { _ in issue }) }
    static func error(known classify: @escaping (Value) -> KnownInexactRead?) -> Self {
        Self(exact: nil, classify: classify)
    }
}

/// The verdict on one read.
enum Verdict {
    case exact
    case refused
    case known(KnownInexactRead)
    case lie(String)
    case foreignError(String)
}

/// What one read answered, comparable between a live and a copied row.
struct ReadAnswer {
    var verdict: Verdict
    /// Hash of the value read, or of the error's code; equal answers have equal fingerprints.
    var fingerprint: Int
    /// The value read, rendered short; rendered only when a report needs it (most reads are
    /// exact, and rendering every one was most of the values domain's time).
    var show: () -> String
    var shown: String { show() }
}

/// A read of a column as one Swift type, judged against the exact conversion.
struct Probe {
    let name: String
    let read: (borrowing Row, Int, StoredValue) -> ReadAnswer

    static func make<Value: Hashable>(
        _ name: String,
        read: @escaping (borrowing Row, Int) throws -> Value,
        same: @escaping (Value, Value) -> Bool = { $0 == $1 },
        model: @escaping (StoredValue) -> Expectation<Value>
    ) -> Probe {
        Probe(name: name) { row, index, stored in
            let value: Value
            do {
                value = try read(row, index)
            } catch let error as DatabaseError {
                return ReadAnswer(
                    verdict: .refused, fingerprint: -1, show: { "DatabaseError \(error.extendedResultCode.rawValue)" })
            } catch {
                return ReadAnswer(
                    verdict: .foreignError("\(type(of: error)): \(String(String(describing: error).prefix(200)))"),
                    fingerprint: -2, show: { "\(type(of: error))" })
            }
            var hasher = Hasher()
            if let bytes = value as? [UInt8] {
                // Whole buffers at once: `combine(_:)` on an array hashes byte by byte.
                hasher.combine(bytes.count)
                bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            } else {
                hasher.combine(value)
            }
            let fingerprint = hasher.finalize()
            let show = { Show.value(value) }
            let expectation = model(stored)
            if let exact = expectation.exact, (expectation.same ?? same)(value, exact) {
                return ReadAnswer(verdict: .exact, fingerprint: fingerprint, show: show)
            }
            if let issue = expectation.classify?(value) {
                return ReadAnswer(verdict: .known(issue), fingerprint: fingerprint, show: show)
            }
            let wanted =
                expectation.exact.map { "the exact \(Show.value($0))" }
                ?? "a DatabaseError (no exact \(Value.self) exists)"
            return ReadAnswer(
                verdict: .lie("read \(show()), expected \(wanted)"), fingerprint: fingerprint, show: show)
        }
    }
}

// MARK: - The exact conversions

/// The lossless conversions of stored values, written from SQL's and Swift's definitions rather
/// than from Slate's code: the reference the fuzzer holds Slate's reads to.
enum ExactConversion {
    /// `[+-]digits`, with white space around (trimming it keeps the number).
    static func integerText(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: sqliteSpaces)
        var body = Substring(trimmed)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        guard !body.isEmpty, body.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(trimmed.first == "+" ? String(trimmed.dropFirst()) : trimmed)
    }

    /// The spaces SQLite (and Slate's exact reads) skip around a number: space, tab, line feed,
    /// vertical tab, form feed, carriage return.
    static let sqliteSpaces = CharacterSet(charactersIn: " \t\n\u{0B}\u{0C}\r")

    /// Whether `text` is a decimal number in SQL's syntax: `[+-]` digits `[.digits]` `[e[+-]digits]`
    /// (or `.digits`), with white space around.
    static func isDecimalNumberText(_ text: String) -> Bool {
        let bytes = Array(text.trimmingCharacters(in: sqliteSpaces).utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        var mantissa = digits()
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            guard digits() > 0 else { return false }
        }
        return index == bytes.count
    }

    static func integer<Value: FixedWidthInteger>(_ stored: StoredValue, live: Bool, as type: Value.Type)
        -> Expectation<Value>
    {
        switch stored.value {
        case .integer(let integer):
            return .exactly(Value(exactly: integer))
        case .real(let real):
            if real.isNaN { return .error }
            // Today's read truncates toward zero and saturates at the 64-bit bounds.
            let saturated = real >= 9.223372036854775807e18 || real <= -9.223372036854775808e18
            let truncated: Int64 =
                real >= 9.223372036854775807e18 ? .max : real <= -9.223372036854775808e18 ? .min : Int64(real)
            let issue: KnownInexactRead =
                saturated || real.rounded(.towardZero) == real ? .realOutOfRangeSaturated : .realWithFractionTruncated
            // A REAL between 2^63 and 2^64 has an exact UInt64, which today's read also saturates.
            if let exact = Value(exactly: real) {
                return Expectation(exact: exact, classify: { $0 == Value(exactly: truncated) ? issue : nil })
            }
            return .error(known: { $0 == Value(exactly: truncated) ? issue : nil })
        case .text(let text):
            if stored.isValidUTF8, let integer = integerText(text) { return .exactly(Value(exactly: integer)) }
            if stored.isValidUTF8, let whole = wholeNumberText(text, as: Value.self) { return .exactly(whole) }
            return live ? .error(known: .textPrefixReadAsNumber) : .error
        case .blob:
            return live ? .error(known: .blobReadAsNumber) : .error
        case .null:
            return .error
        }
    }

    /// The integer that decimal text spells when it is exactly one (`'3.0'`, `'1e3'`, an unsigned
    /// literal above `Int64.max`); `nil` for a fraction, a value out of range, or an integer literal
    /// beyond 64 bits, whose nearest `Double` is not the number written.
    static func wholeNumberText<Value: FixedWidthInteger>(_ text: String, as type: Value.Type) -> Value? {
        guard isDecimalNumberText(text) else { return nil }
        let trimmed = text.trimmingCharacters(in: sqliteSpaces)
        let body = trimmed.first == "+" ? String(trimmed.dropFirst()) : trimmed
        if body.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) { return Value(body) }
        return Double(body).flatMap { Value(exactly: $0) }
    }

    static func bool(_ stored: StoredValue, live: Bool) -> Expectation<Bool> {
        switch stored.value {
        case .integer(let integer): return .exactly(integer != 0)
        case .real(let real):
            if real.isNaN { return .error }
            if real != 0, real.magnitude < 1 {
                return Expectation(exact: true, classify: { $0 ? nil : .realWithFractionTruncated })
            }
            return .exactly(real != 0)
        case .text(let text):
            if stored.isValidUTF8, let integer = integerText(text) ?? wholeNumberText(text, as: Int64.self) {
                return .exactly(integer != 0)
            }
            return live ? .error(known: .textPrefixReadAsNumber) : .error
        case .blob: return live ? .error(known: .blobReadAsNumber) : .error
        case .null: return .error
        }
    }

    static func double(_ stored: StoredValue, live: Bool) -> Expectation<Double> {
        switch stored.value {
        case .integer(let integer):
            if let exact = Double(exactly: integer) { return .exactly(exact) }
            return .error(known: { $0 == Double(integer) ? .integerRoundedToFloatingPoint : nil })
        case .real(let real):
            return .exactly(real)
        case .text(let text):
            let trimmed = text.trimmingCharacters(in: sqliteSpaces)
            // An integer literal is the INTEGER NUMERIC affinity would store ("-0" is 0, not -0.0).
            if stored.isValidUTF8, isDecimalNumberText(text), let integer = Int64(trimmed) {
                if let exact = Double(exactly: integer) { return .exactly(exact) }
                return .error
            }
            if stored.isValidUTF8, isDecimalNumberText(text), let parsed = Double(trimmed), parsed.isFinite {
                return Expectation(exact: parsed, classify: nil, same: closeDouble)
            }
            let swiftParse = stored.isValidUTF8 ? Double(trimmed) : nil
            return .error(known: { value in
                if let swiftParse, value.bitPattern == swiftParse.bitPattern || value.isNaN && swiftParse.isNaN {
                    return .textOutsideNumberSyntaxReadAsDouble
                }
                return live ? .textPrefixReadAsNumber : nil
            })
        case .blob: return live ? .error(known: .blobReadAsNumber) : .error
        case .null: return .error
        }
    }

    /// Doubles are the same when their bits are, or both are NaN (SQLite keeps `-0.0` apart from 0
    /// only in some columns, so the sign of zero is compared too).
    static func sameDouble(_ a: Double, _ b: Double) -> Bool {
        a.bitPattern == b.bitPattern || a.isNaN && b.isNaN
    }

    /// Parsed text may differ from Swift's correctly rounded parse by one unit in the last place
    /// when SQLite parses it (`sqlite3_column_double`), which is SQLite's conversion, not a lie.
    static func closeDouble(_ a: Double, _ b: Double) -> Bool {
        sameDouble(a, b) || a.isFinite && b.isFinite && (a.nextUp == b || a.nextDown == b)
    }

    static func float(_ stored: StoredValue, live: Bool) -> Expectation<Float> {
        let double = double(stored, live: live)
        if let exact = double.exact {
            if let float = Float(exactly: exact) { return .exactly(float) }
            if exact.isNaN { return .exactly(.nan) }
            // A value a Float does not hold exactly throws (Lenient<Float> rounds).
            let issue: KnownInexactRead =
                if case .integer = stored.value { .integerRoundedToFloatingPoint } else { .realRoundedToFloat }
            return .error(known: { $0 == Float(exact) ? issue : nil })
        }
        return .error(known: { value in
            if let issue = double.classify?(Double(value)) { return issue }
            if case .integer(let integer) = stored.value, value == Float(integer) {
                return .integerRoundedToFloatingPoint
            }
            return nil
        })
    }

    static func sameFloat(_ a: Float, _ b: Float) -> Bool {
        a.bitPattern == b.bitPattern || a.isNaN && b.isNaN
    }

    static func string(_ stored: StoredValue) -> Expectation<String> {
        switch stored.value {
        case .text(let text): return stored.isValidUTF8 ? .exactly(text) : .error
        case .integer(let integer): return .exactly(String(integer))
        case .real(let real): return .exactly(String(real))
        case .blob, .null: return .error
        }
    }

    /// A number's text is exact when it reads back as the same double.
    static func sameString(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard let x = Double(a), let y = Double(b) else { return false }
        return sameDouble(x, y)
    }

    static func bytes(_ stored: StoredValue) -> Expectation<[UInt8]> {
        switch stored.value {
        case .text, .blob: return .exactly(stored.bytes)
        default: return .error
        }
    }

    static func date(_ stored: StoredValue, strategy: DateStrategy) -> Expectation<Date> {
        switch stored.value {
        case .text(let text):
            guard stored.isValidUTF8, let milliseconds = stored.sqliteDateMilliseconds ?? lenientDateMilliseconds(text)
            else { return .error }
            // ISO-8601 text holds milliseconds: the date must be that millisecond.
            return Expectation(exact: Date(timeIntervalSince1970: Double(milliseconds) / 1000), classify: nil) { a, b in
                (a.timeIntervalSince1970 * 1000).rounded() == (b.timeIntervalSince1970 * 1000).rounded()
            }
        case .integer(let integer): return dateFromFiniteNumber(Double(integer), strategy)
        case .real(let real): return dateFromFiniteNumber(real, strategy)
        default: return .error
        }
    }

    /// A finite number whose date is beyond `Date`'s range (a Julian day above about 2.08e303)
    /// must throw rather than read as an infinite date.
    static func dateFromFiniteNumber(_ number: Double, _ strategy: DateStrategy) -> Expectation<Date> {
        let date = dateFromNumber(number, strategy)
        if number.isFinite && !date.timeIntervalSince1970.isFinite { return .error }
        return .exactly(date)
    }

    /// Slate's ISO-8601 reading (`DateCoding.parseISO8601`) accepts, on purpose, a little more than
    /// SQLite's date functions: spaces before the text, and an offset `±HHMM` or `±HH:MM` up to
    /// 23:59 (SQLite wants the colon and at most 14 hours). The milliseconds such text means:
    /// SQLite's reading of the text without the spaces and the offset, minus the offset; `nil`
    /// when SQLite reads no date from that either.
    static func lenientDateMilliseconds(_ text: String) -> Int64? {
        var bytes = Array(text.utf8)[...]
        while bytes.first == 0x20 { bytes = bytes.dropFirst() }
        while bytes.last == 0x20 { bytes = bytes.dropLast() }
        func twoDigits(_ slice: ArraySlice<UInt8>) -> Int64? {
            guard slice.count == 2, slice.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int64(slice[slice.startIndex] - 0x30) * 10 + Int64(slice[slice.startIndex + 1] - 0x30)
        }
        var offset: Int64 = 0
        // Only after a time: `YYYY-MM-DD HH:MM` is 16 bytes.
        for (length, colon) in [(6, true), (5, false)] where bytes.count >= 16 + length {
            let tail = bytes.suffix(length)
            let start = tail.startIndex
            guard tail[start] == 0x2B || tail[start] == 0x2D, !colon || tail[start + 3] == 0x3A,
                let hours = twoDigits(tail[(start + 1)..<(start + 3)]),
                let minutes = twoDigits(colon ? tail[(start + 4)..<(start + 6)] : tail[(start + 3)..<(start + 5)]),
                hours < 24, minutes < 60
            else { continue }
            offset = (hours * 3600 + minutes * 60) * (tail[start] == 0x2B ? 1 : -1)
            bytes = bytes.dropLast(length)
            break
        }
        guard let db = try? Database(location: .inMemory),
            let instant = try? db.fetchAll(
                SQL(
                    sql: "SELECT " + StoredValue.sqliteInstantMilliseconds(of: "?1"),
                    arguments: [String(decoding: bytes, as: UTF8.self)]),
                { row in try row.decode(Int64?.self, at: 0) }
            ).first,
            let milliseconds = instant
        else { return nil }
        return milliseconds - offset * 1000
    }

    /// A number as a date under `strategy`, from the strategy's definition.
    static func dateFromNumber(_ number: Double, _ strategy: DateStrategy) -> Date {
        switch strategy {
        case .iso8601, .iso8601Milliseconds, .iso8601Date, .unixSeconds: Date(timeIntervalSince1970: number)
        case .unixMilliseconds: Date(timeIntervalSince1970: number / 1000)
        case .julianDay: Date(timeIntervalSince1970: (number - 2_440_587.5) * 86_400)
        }
    }

    /// Dates read from numbers must be bit-exact.
    static func sameDate(_ a: Date, _ b: Date) -> Bool {
        sameDouble(a.timeIntervalSince1970, b.timeIntervalSince1970)
    }

    static func uuid(_ stored: StoredValue) -> Expectation<UUID> {
        switch stored.value {
        case .text(let text) where stored.isValidUTF8: return .exactly(UUID(uuidString: text))
        // TEXT that is not UTF-8 reads as a blob of its bytes (see `SQLValue.text`).
        case .blob where stored.bytes.count == 16, .text where stored.bytes.count == 16:
            let b = stored.bytes
            return .exactly(
                UUID(
                    uuid: (
                        b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                        b[15]
                    )))
        default: return .error
        }
    }

    static func url(_ stored: StoredValue) -> Expectation<URL> {
        if case .text(let text) = stored.value, stored.isValidUTF8 { return .exactly(URL(string: text)) }
        return .error
    }

    static func decimal(_ stored: StoredValue) -> Expectation<Decimal> {
        let posix = Locale(identifier: "en_US_POSIX")
        switch stored.value {
        case .integer(let integer): return .exactly(Decimal(integer))
        case .real(let real):
            guard real.isFinite else { return .error }
            // The number the double's shortest round-trip text spells; beyond Decimal's range, an error.
            if let decimal = Decimal(string: real.description, locale: posix), !decimal.isNaN {
                return .exactly(decimal)
            }
            return .error(known: { $0 == Decimal(real) ? .realApproximatedAsDecimal : nil })
        case .text(let text):
            // How `Decimal.nan` is stored (its description), read back as NaN.
            if stored.isValidUTF8, text == "NaN" { return .exactly(.nan) }
            let trimmed = text.trimmingCharacters(in: sqliteSpaces)
            if stored.isValidUTF8, isDecimalNumberText(text), let decimal = Decimal(string: trimmed, locale: posix),
                !decimal.isNaN,
                significantDigits(trimmed) <= 38 || digitString(trimmed) == digitString(decimal.description)
            {
                return .exactly(decimal)
            }
            return .error(known: .textOutsideNumberSyntaxReadAsDecimal)
        default: return .error
        }
    }

    /// The digits of a decimal number's mantissa, without leading zeros nor trailing ones (which
    /// the exponent absorbs): a `Decimal` holds 38 of them exactly.
    static func significantDigits(_ text: String) -> Int {
        digitString(text).count
    }

    /// Those digits, in order.
    static func digitString(_ text: String) -> String {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber)
        return String(String(mantissa.drop { $0 == "0" }.reversed().drop { $0 == "0" }).reversed())
    }

    static func sqlValue(_ stored: StoredValue) -> Expectation<SQLValue> {
        if stored.isText, !stored.isValidUTF8 { return .exactly(.blob(Data(stored.bytes))) }
        return .exactly(stored.value)
    }

    static func sameSQLValue(_ a: SQLValue, _ b: SQLValue) -> Bool {
        if case .real(let x) = a, case .real(let y) = b { return sameDouble(x, y) }
        return a == b
    }
}

/// A `Codable` value stored as JSON.
struct JSONSample: Codable, Hashable, Sendable {
    var name: String
    var values: [Int]
    var ratio: Double?
}
