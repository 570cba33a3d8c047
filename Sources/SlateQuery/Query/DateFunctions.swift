import Foundation
import SlateConcurrency
import SlateCore

// SQLite's date and time functions on date expressions: `date`, `time`, `datetime`, `julianday`,
// `unixepoch` and `strftime`, with modifiers bound as values. A column whose storage says it holds
// Unix time gets the `'unixepoch'` modifier it needs, so each function reads the instant the column
// stores.

/// The value types of date expressions: `Date` and `Date?`. The date functions require it.
public protocol DateQueryValue {}

extension Date: DateQueryValue {}
extension Optional: DateQueryValue where Wrapped == Date {}

/// A modifier of SQLite's date and time functions, such as `'+1 day'` or `'start of month'`,
/// bound as a value.
///
/// ```swift
/// Invoice.select { $0.invoiceDate.date(.startOfMonth, .days(14)) }
/// // date("Invoice"."InvoiceDate", ?, ?) with 'start of month', '+14 days'
/// ```
public struct DateModifier: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The modifier's text, as SQLite reads it.
    public var text: String

    /// A modifier by its SQLite text, such as `"weekday 0"`.
    public init(_ text: String) { self.text = text }

    /// A modifier by its SQLite text.
    public init(stringLiteral value: String) { self.text = value }

    /// `'start of day'`.
    public static let startOfDay = DateModifier("start of day")
    /// `'start of month'`.
    public static let startOfMonth = DateModifier("start of month")
    /// `'start of year'`.
    public static let startOfYear = DateModifier("start of year")
    /// `'localtime'`: from UTC to the local time zone of the machine running SQLite.
    public static let localTime = DateModifier("localtime")
    /// `'utc'`: from the local time zone to UTC.
    public static let utc = DateModifier("utc")

    /// `'weekday N'`: forward to the next day that is weekday `day` (0 is Sunday), or stay when it is.
    public static func weekday(_ day: Int) -> DateModifier { DateModifier("weekday \(day)") }
    /// `'±N days'`.
    public static func days(_ count: Int) -> DateModifier { signed(count, "days") }
    /// `'±N hours'`.
    public static func hours(_ count: Int) -> DateModifier { signed(count, "hours") }
    /// `'±N minutes'`.
    public static func minutes(_ count: Int) -> DateModifier { signed(count, "minutes") }
    /// `'±N seconds'`.
    public static func seconds(_ count: Int) -> DateModifier { signed(count, "seconds") }
    /// `'±N months'`.
    public static func months(_ count: Int) -> DateModifier { signed(count, "months") }
    /// `'±N years'`.
    public static func years(_ count: Int) -> DateModifier { signed(count, "years") }

    private static func signed(_ count: Int, _ unit: String) -> DateModifier {
        DateModifier((count < 0 ? "\(count)" : "+\(count)") + " " + unit)
    }
}

extension QueryExpression where QueryValue: DateQueryValue {
    /// `date(self, modifiers…)`: the day, `YYYY-MM-DD`; `nil` for `NULL` or a value SQLite cannot
    /// read as a date.
    public func date(_ modifiers: DateModifier...) -> SQLExpression<String?> {
        dateFunction("date", format: nil, modifiers)
    }

    /// `time(self, modifiers…)`: the time of day, `HH:MM:SS`; `nil` for `NULL` or a value SQLite
    /// cannot read as a date.
    public func time(_ modifiers: DateModifier...) -> SQLExpression<String?> {
        dateFunction("time", format: nil, modifiers)
    }

    /// `datetime(self, modifiers…)`: `YYYY-MM-DD HH:MM:SS`; `nil` for `NULL` or a value SQLite
    /// cannot read as a date.
    public func datetime(_ modifiers: DateModifier...) -> SQLExpression<String?> {
        dateFunction("datetime", format: nil, modifiers)
    }

    /// `julianday(self, modifiers…)`: the Julian day number, fractional; `nil` for `NULL` or a
    /// value SQLite cannot read as a date.
    public func julianDay(_ modifiers: DateModifier...) -> SQLExpression<Double?> {
        dateFunction("julianday", format: nil, modifiers)
    }

    /// `unixepoch(self, modifiers…)`: whole seconds since 1970-01-01 UTC; `nil` for `NULL` or a
    /// value SQLite cannot read as a date. (SQLite 3.38 or later.)
    public func unixEpoch(_ modifiers: DateModifier...) -> SQLExpression<Int64?> {
        dateFunction("unixepoch", format: nil, modifiers)
    }

    /// `strftime(?, self, modifiers…)`: the date formatted by `format` (`%Y`, `%m`, `%d`, `%H`,
    /// `%M`, `%S`, `%f`, `%j`, `%w`, `%W`, `%s`, `%J`, `%%`); `nil` for `NULL` or a value SQLite cannot
    /// read as a date.
    ///
    /// ```swift
    /// Invoice.group { $0.invoiceDate.strftime("%Y") }.select { ($0.invoiceDate.strftime("%Y"), $0.total.sum()) }
    /// ```
    public func strftime(_ format: String, _ modifiers: DateModifier...) -> SQLExpression<String?> {
        dateFunction("strftime", format: format, modifiers)
    }

    /// `name([format, ]time value, modifiers…)`. The time value is the expression, read as its
    /// storage says: Unix seconds take `'unixepoch'`, Unix milliseconds are divided by 1000 first.
    /// Text and Julian day numbers are what SQLite reads natively.
    private func dateFunction<Result>(_ name: String, format: String?, _ modifiers: [DateModifier]) -> SQLExpression<
        Result
    > {
        var arguments: [SQL] = []
        if let format { arguments.append("\(format)") }
        switch valueStorage {
        case .date(.unixSeconds)?:
            arguments.append(queryFragment)
            arguments.append("\("unixepoch")")
        case .date(.unixMilliseconds)?:
            arguments.append(sqlConcat(operandFragment(of: .multiplicative), SQL(text: " / 1000.0")))
            arguments.append("\("unixepoch")")
        default:
            arguments.append(queryFragment)
        }
        for modifier in modifiers { arguments.append("\(modifier.text)") }
        return sqliteOnly(functionCall(name, arguments), .dateFunctions)
    }
}
