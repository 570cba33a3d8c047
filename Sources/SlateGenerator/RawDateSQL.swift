/// How the raw style's SQL stores and reads `Date` columns. SQLite's date functions do the
/// conversions, so the generated Swift only moves numbers: it binds whole Unix milliseconds (ISO-8601
/// and Unix milliseconds) or Unix seconds (Unix seconds and Julian days), and reads every date
/// column as Unix seconds.
///
/// The values are those Slate's `DateStrategy` writes and reads, to the bit: ISO-8601 text
/// `YYYY-MM-DD HH:MM:SS` in UTC (with `.SSS` when there are milliseconds), Unix seconds (an INTEGER when whole, else a REAL), Unix
/// milliseconds, or a Julian day (a REAL). Numbers are read as the storage says; text, whatever the
/// storage, as ISO-8601 in the forms `DateStrategy` accepts (`YYYY-MM-DD`, then ` ` or `T` and
/// `HH:MM`, `:SS`, `.fraction`, and `Z` or `±HH:MM`). A value that is not a date is passed through
/// unconverted, so the generated Swift sees a TEXT or a BLOB where it expects a number, and fails.
enum RawDateSQL {
    /// The Julian day of 1970-01-01 00:00 UTC.
    static let unixEpochJulianDay = "2440587.5"

    /// An expression reading the date stored in the column or parameter `value` as Unix seconds: a
    /// number as `storage` says, ISO-8601 text, or, for anything else, `value` itself.
    static func read(_ value: String, storage: GeneratorConfiguration.DateStorage) -> String {
        let number: String
        switch storage {
        case .connection, .iso8601, .unixSeconds: number = value
        case .unixMilliseconds: number = "\(value) / 1000.0"
        case .julianDay: number = "(\(value) - \(unixEpochJulianDay)) * 86400.0"
        }
        // SQLite's parser is more lenient than Slate's: it takes `now`, bare numbers, negative
        // years, February 30 (as March 2), hour 24, several separators and white space. The
        // conditions keep only what Slate reads, and then SQLite's result is Slate's: the shape
        // (the form Slate writes first, as the cheapest test), an hour below 24, a real day.
        let day = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
        let isText = [
            "typeof(\(value)) = 'text'",
            "(\(value) GLOB '\(day) [0-2][0-9]:[0-5][0-9]:[0-5][0-9]'"
                + " OR \(value) GLOB '\(day)*' AND (length(\(value)) = 10 OR substr(\(value), 11, 3) GLOB '[ T][0-2][0-9]')"
                + " AND substr(\(value), 12) NOT GLOB '*[^0-9:.Z+-]*')",
            "substr(\(value), 12, 2) < '24'",
            "date(substr(\(value), 1, 10), '+0 days') = substr(\(value), 1, 10)",
        ].joined(separator: " AND ")
        // Whole seconds plus milliseconds / 1000, the sum `DateStrategy` computes. Both come from
        // SQLite's integer milliseconds since the Julian epoch: `%s` floors them to seconds (they
        // are positive from the year 0000 on), and `julianday()` is them / 86400000.0, close
        // enough to round back. (`%f` would not do: it can show the parsed seconds, 59.999 for
        // 23:59:59.9999, which the milliseconds round to the next day.)
        let seconds =
            "CAST(strftime('%s', \(value)) AS INTEGER) + CAST(round(julianday(\(value)) * 86400000.0) AS INTEGER) % 1000 / 1000.0"
        return
            "CASE WHEN typeof(\(value)) IN ('integer', 'real') THEN \(number) WHEN \(isText) THEN coalesce(\(seconds), \(value)) ELSE \(value) END"
    }

    /// The expression storing parameter `?number`, which holds what the generated `slateRawBind`
    /// binds for `storage`.
    static func parameter(_ number: Int, storage: GeneratorConfiguration.DateStorage) -> String {
        parameter(reference: "?\(number)", storage: storage)
    }

    /// The expression storing the parameter `reference` (`?1`, or a named parameter such as
    /// `:date`), which holds what the generated `slateRawBind` binds for `storage`.
    static func parameter(reference: String, storage: GeneratorConfiguration.DateStorage) -> String {
        switch storage {
        // Whole seconds as `datetime()` writes them, milliseconds only when there are some: the
        // form `DateStrategy.iso8601` writes.
        case .connection, .iso8601:
            "CASE WHEN \(reference) % 1000 = 0 THEN datetime(\(reference) / 1000, 'unixepoch')"
                + " ELSE strftime('%Y-%m-%d %H:%M:%f', \(reference) / 1000.0, 'unixepoch') END"
        case .unixSeconds, .unixMilliseconds: reference
        case .julianDay: "\(reference) / 86400.0 + \(unixEpochJulianDay)"
        }
    }
}

extension GenerationModel {
    /// What the raw style selects for `property`, from the column or CTE column `name`: dates
    /// converted by ``RawDateSQL/read(_:storage:)``, everything else as stored.
    func rawColumnSQL(_ property: PropertyModel, name: String) -> String {
        property.type == .date ? RawDateSQL.read(name.sqlQuoted, storage: property.dateStorage) : name.sqlQuoted
    }

    /// The raw style's parameter `?number` for a value of `property`.
    func rawParameterSQL(_ property: PropertyModel, _ number: Int) -> String {
        property.type == .date ? RawDateSQL.parameter(number, storage: property.dateStorage) : "?\(number)"
    }

    /// Whether the raw style reads `record` through ``rawDecodingSQL(of:)``.
    func hasRawConversions(_ record: RecordModel) -> Bool {
        record.properties.contains { $0.type == .date }
    }

    /// The two halves of a query reading the stored columns of another query (the record's
    /// `SELECT`, or one of the caller's), put between them, with the raw style's conversions:
    /// `WITH slate_raw_rows("c1", …) AS (` and `) SELECT "c1", … FROM slate_raw_rows`.
    func rawDecodingSQL(of record: RecordModel) -> (prefix: String, suffix: String) {
        let names = record.properties.indices.map { "c\($0 + 1)" }
        let columns = zip(record.properties, names).map { rawColumnSQL($0, name: $1) }
        return (
            "WITH slate_raw_rows(" + names.map(\.sqlQuoted).joined(separator: ", ") + ") AS (",
            ") SELECT " + columns.joined(separator: ", ") + " FROM slate_raw_rows"
        )
    }
}
