import Foundation

/// How `Date` values are stored, in a form SQLite's date and time functions understand.
///
/// Set it for a connection with ``Database/Configuration/dateStrategy``, or for one value with
/// ``Statement/bind(_:at:strategy:)`` and ``Row/date(at:strategy:)``. Reading is tolerant: text in
/// any ISO-8601 form SQLite produces is accepted whatever the strategy, and numbers are read as the
/// strategy says (as Unix seconds under ``iso8601``).
public enum DateStrategy: Sendable, Hashable {
    /// TEXT `YYYY-MM-DD HH:MM:SS` in UTC, followed by `.SSS` only when the date has a fraction of a
    /// second: exactly what SQLite's `datetime()` and `CURRENT_TIMESTAMP` write for whole seconds,
    /// so dates compare equal to the rows SQLite wrote, and milliseconds still round-trip. Both
    /// forms sort chronologically as text, mixed or not. The default.
    case iso8601
    /// TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC, always with milliseconds: the form of
    /// `strftime('%Y-%m-%d %H:%M:%f')`, for columns whose data was written that way.
    case iso8601Milliseconds
    /// TEXT `YYYY-MM-DD`, a day in UTC: the form of SQLite's `date()` and `CURRENT_DATE`. Storing a
    /// date with a time of day other than midnight UTC throws, rather than drop the time.
    case iso8601Date
    /// Seconds since 1970-01-01 UTC: an INTEGER when whole, else a REAL. Use `'unixepoch'` in SQL.
    case unixSeconds
    /// Milliseconds since 1970-01-01 UTC, as an INTEGER.
    case unixMilliseconds
    /// The Julian day number, as a REAL, SQLite's native `julianday()` form.
    case julianDay

    /// The SQL value storing `date`.
    ///
    /// Every date this returns reads back as the same instant, to the strategy's precision
    /// (milliseconds for ``iso8601``, ``iso8601Milliseconds`` and ``unixMilliseconds``, a `Double`
    /// of seconds for ``unixSeconds``, a `Double` of days for ``julianDay``): the date
    /// ``storedDate(for:)`` returns.
    ///
    /// - Throws: ``DatabaseError`` with ``ResultCode/mismatch`` for a date that is not finite
    ///   (SQLite would store a NaN as `NULL`), and, under ``iso8601``, for a date outside the years
    ///   0000 to 9999, which ISO-8601 text with four-digit years (and SQLite's date functions)
    ///   cannot hold: store such dates with ``unixSeconds`` or ``julianDay``; under ``iso8601Date``,
    ///   for a date that is not midnight UTC.
    public func sqlValue(for date: Date) throws -> SQLValue {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else {
            throw DatabaseError(
                resultCode: .mismatch,
                message: "a date \(seconds) seconds after 1970 is not finite and cannot be stored")
        }
        switch self {
        case .iso8601, .iso8601Milliseconds, .iso8601Date:
            let form: DateCoding.TextForm =
                self == .iso8601 ? .dateTime : self == .iso8601Date ? .day : .dateTimeMilliseconds
            guard let text = DateCoding.iso8601String(date, form: form) else {
                if form == .day, DateCoding.iso8601String(date, form: .dateTime) != nil {
                    throw DatabaseError(
                        resultCode: .mismatch,
                        message:
                            "the date \(seconds) seconds after 1970 is not midnight UTC: a day (.iso8601Date) cannot hold"
                            + " its time of day")
                }
                throw DatabaseError(
                    resultCode: .mismatch,
                    message:
                        "the date \(seconds) seconds after 1970 is outside the years 0000 to 9999 that ISO-8601 text"
                        + " (and SQLite's date functions) can hold: store it with .unixSeconds or .julianDay")
            }
            return .text(text)
        case .unixSeconds:
            if let whole = Int64(exactly: seconds) { return .integer(whole) }
            return .real(seconds)
        case .unixMilliseconds:
            let milliseconds = (seconds * 1000).rounded()
            if let whole = Int64(exactly: milliseconds) { return .integer(whole) }
            guard milliseconds.isFinite else {
                throw DatabaseError(
                    resultCode: .mismatch,
                    message: "the date \(seconds) seconds after 1970 has too many milliseconds for a Double")
            }
            return .real(milliseconds)
        case .julianDay:
            let days = seconds / 86_400 + DateCoding.unixEpochJulianDay
            // Within a few units of the last place of `Double.greatestFiniteMagnitude` seconds, the
            // day number rounds up to one that reads back as an infinite date: refuse it.
            guard self.date(fromNumber: days) != nil else {
                throw DatabaseError(
                    resultCode: .mismatch,
                    message:
                        "the date \(seconds) seconds after 1970 is too far away for a Julian day number that reads"
                        + " back as the same date")
            }
            return .real(days)
        }
    }

    /// The date this strategy reads back after storing `date`: `date` rounded to the strategy's
    /// precision. A `Date` holds about a tenth of a microsecond, which no strategy keeps whole, so a
    /// record inserted with `Date()` reads back with this date, not `Date()` itself. Compare with it
    /// in tests, or round dates before storing them:
    ///
    /// | Strategy | Precision |
    /// | --- | --- |
    /// | ``iso8601`` (the default), ``iso8601Milliseconds``, ``unixMilliseconds`` | 1 millisecond, rounded to the nearest |
    /// | ``iso8601Date`` | 1 day (any other date throws) |
    /// | ``unixSeconds`` | a `Double` of seconds since 1970 (about 0.24 µs in 2025) |
    /// | ``julianDay`` | a `Double` of days (about 40 µs in 2025) |
    ///
    /// PostgreSQL's `timestamptz` holds microseconds: see `PostgreSQLDatabase.storedDate(for:)`.
    ///
    /// ```swift
    /// let book = Book(id: UUID(), title: "Dune", added: Date())
    /// try db.insert(book)
    /// let read = try Book.find(book.id).fetchOne(db)
    /// #expect(read?.added == (try DateStrategy.iso8601.storedDate(for: book.added)))
    /// ```
    ///
    /// - Throws: The error of ``sqlValue(for:)`` for a date the strategy cannot store.
    public func storedDate(for date: Date) throws -> Date {
        let value = try sqlValue(for: date)
        guard let stored = self.date(from: value) else {
            throw DatabaseError.conversionFailure(value, to: Date.self)
        }
        return stored
    }

    /// The date a SQL value stores, or `nil` when it is not a date (or a number whose date is
    /// beyond the range of `Date`).
    public func date(from value: SQLValue) -> Date? {
        switch value {
        case .text(let text):
            return DateCoding.parseISO8601(text)
        case .integer(let integer):
            return date(fromNumber: Double(integer))
        case .real(let real):
            return date(fromNumber: real)
        default:
            return nil
        }
    }

    /// The date a number stores, or `nil` when a finite number means a date beyond the range of
    /// `Date` (a Julian day number above about 2.08e303: its seconds overflow to infinity).
    private func date(fromNumber number: Double) -> Date? {
        let seconds =
            switch self {
            case .iso8601, .iso8601Milliseconds, .iso8601Date, .unixSeconds: number
            case .unixMilliseconds: number / 1000
            case .julianDay: (number - DateCoding.unixEpochJulianDay) * 86_400
            }
        guard seconds.isFinite || !number.isFinite else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

/// Allocation-light ISO-8601 formatting and parsing in UTC, with no Foundation formatters
/// (which are slow and not thread-safe on every platform).
enum DateCoding {
    static let unixEpochJulianDay = 2_440_587.5

    /// The milliseconds since 1970 of 0000-01-01 00:00:00.000 and of 9999-12-31 23:59:59.999 UTC:
    /// the range four-digit years cover.
    static let iso8601Milliseconds: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

    /// The text forms of ISO-8601 dates.
    enum TextForm {
        /// `YYYY-MM-DD HH:MM:SS`, and `.SSS` when the milliseconds are not zero.
        case dateTime
        /// `YYYY-MM-DD HH:MM:SS.SSS`.
        case dateTimeMilliseconds
        /// `YYYY-MM-DD`, only for midnight.
        case day
    }

    /// The date in `form`, UTC, rounded to the millisecond; `nil` for a date outside the years
    /// 0000 to 9999 (or not finite), or not midnight for ``TextForm/day``.
    static func iso8601String(_ date: Date, form: TextForm = .dateTime) -> String? {
        guard let totalMilliseconds = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()),
            iso8601Milliseconds.contains(totalMilliseconds)
        else { return nil }
        let (totalSeconds, milliseconds) = floorDivision(totalMilliseconds, 1000)
        let (days, secondOfDay) = floorDivision(totalSeconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = ""
        text.reserveCapacity(23)
        text += padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
        if form == .day {
            return secondOfDay == 0 && milliseconds == 0 ? text : nil
        }
        text +=
            " " + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
            + padded(secondOfDay % 60, 2)
        if form == .dateTimeMilliseconds || milliseconds != 0 {
            text += "." + padded(milliseconds, 3)
        }
        return text
    }

    /// Parses `YYYY-MM-DD`, optionally followed by ` ` or `T`, `HH:MM`, `:SS`, `.fraction`, and a
    /// `Z` or `±HH:MM` offset. Returns `nil` for anything else.
    static func parseISO8601(_ text: String) -> Date? {
        var bytes = Array(text.utf8)[...]
        while bytes.first == 0x20 { bytes = bytes.dropFirst() }
        while bytes.last == 0x20 { bytes = bytes.dropLast() }
        func number(_ width: Int) -> Int64? {
            guard bytes.count >= width else { return nil }
            var value: Int64 = 0
            for byte in bytes.prefix(width) {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            bytes = bytes.dropFirst(width)
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard bytes.first == byte else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day)
        else { return nil }
        // Whole seconds in UTC, then the seconds field's milliseconds, added last: the instant
        // rounded once, as SQLite's date functions compute it, offsets included.
        var seconds = days(fromCivil: year, month, day) * 86_400
        var milliseconds: Int64 = 0
        if let separator = bytes.first, separator == 0x20 || separator == 0x54 {
            bytes = bytes.dropFirst()
            guard let hour = number(2), expect(0x3A), let minute = number(2), hour < 24, minute < 60 else { return nil }
            seconds += hour * 3600 + minute * 60
            if expect(0x3A) {
                guard let second = number(2), second < 60 else { return nil }
                // The seconds field as SQLite's date.c reads it: the fraction's digits as one
                // number over a power of ten (both as doubles), added to the whole seconds, then
                // `(int64)(s * 1000 + 0.5)`. So "14.9935" is 14994 ms, as in SQLite, where summing
                // the digits' weights one by one gave 14.99349… and 14993 ms.
                var field = Double(second)
                if expect(0x2E) {
                    var digitsValue = 0.0
                    var scale = 1.0
                    var digits = 0
                    while let byte = bytes.first, byte >= 0x30 && byte <= 0x39 {
                        digitsValue = digitsValue * 10 + Double(byte - 0x30)
                        scale *= 10
                        digits += 1
                        bytes = bytes.dropFirst()
                    }
                    guard digits > 0 else { return nil }
                    field += digitsValue / scale
                }
                // Hundreds of nines overflow both doubles (infinity over infinity): SQLite
                // answers NULL, and so the text is not a date.
                let fieldMilliseconds = field * 1000 + 0.5
                guard fieldMilliseconds.isFinite, fieldMilliseconds >= 0, fieldMilliseconds < 61_000 else { return nil }
                milliseconds = Int64(fieldMilliseconds)
            }
            if expect(0x5A) {
                // Z: already UTC
            } else if let sign = bytes.first, sign == 0x2B || sign == 0x2D {
                bytes = bytes.dropFirst()
                guard let hours = number(2), hours < 24 else { return nil }
                _ = expect(0x3A)
                guard let minutes = number(2), minutes < 60 else { return nil }
                let offset = hours * 3600 + minutes * 60
                seconds += sign == 0x2B ? -offset : offset
            }
        }
        guard bytes.isEmpty else { return nil }
        // At most ±253,402,300,800 s and 61,000 ms: no overflow in milliseconds.
        return Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// Floor division for a positive divisor; never overflows (`Int64.min` included).
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The number of days of `month` (1–12) in the proleptic Gregorian `year`.
    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
